"""Rules written in Python: the values of the mex recursion over the options a function returns,
equal to the catalogued games the functions spell out; errors that name the heap; Ctrl-C; the
summary's apparent period; eval and ppos of a rule. Rules written as specs (tb:, SET@DIGIT,
A|B) equal to functions written from their definitions."""

from __future__ import annotations

import _thread
import threading
import time
from typing import Any, Union

import numpy as np
import pytest

import nimsieve

Option = Union[int, tuple[int, ...]]


def kayles(h: int) -> list[Option]:
    """Knock down one pin or two adjacent ones from a row of h."""
    options: list[Option] = []
    for j in (1, 2):
        if j <= h:
            rest = h - j
            options.append(rest)
            options.extend((a, rest - a) for a in range(1, rest // 2 + 1))
    return options


def grundys_game(h: int) -> list[Option]:
    """Split a heap into two unequal heaps."""
    return [(a, h - a) for a in range(1, (h + 1) // 2) if 2 * a != h]


def subtract(*steps: int) -> Any:
    def rule(h: int) -> list[Option]:
        return [h - s for s in steps if s <= h]

    return rule


def squares_at_7(h: int) -> list[Option]:
    """squares@7: remove a square, leave nothing, one heap or two."""
    options: list[Option] = []
    s = 1
    while s * s <= h:
        rest = h - s * s
        options.append(rest)
        options.extend((a, rest - a) for a in range(1, rest // 2 + 1))
        s += 1
    return options


def three_unequal(h: int) -> list[Option]:
    """8!.0: split a heap into three pairwise unequal heaps."""
    return [(a, b, h - a - b) for a in range(1, h) for b in range(a + 1, h) if h - a - b > b]


@pytest.mark.parametrize(
    "rule,spec,n",
    [
        (kayles, "kayles", 300),
        (grundys_game, "grundys-game", 300),
        (subtract(1, 3, 4), "sub:1,3,4", 1000),
        (squares_at_7, "squares@7", 200),
        (three_unequal, "tb:8!.0", 60),
    ],
)
def test_a_rule_has_the_values_of_the_game_it_spells(rule: Any, spec: str, n: int) -> None:
    assert nimsieve.grundy(rule, n).tolist() == nimsieve.grundy(spec, n).tolist()
    assert nimsieve.ppos(rule, n).tolist() == nimsieve.ppos(spec, n).tolist()


def test_the_summary_of_a_rule_gives_an_apparent_period_never_a_proven_one() -> None:
    described = nimsieve.summary(subtract(1, 3, 4), 2000)
    assert described["game"] == "python:rule"
    assert described["engine"] == "python"
    assert described["period"] is None
    assert described["apparent_period"] == {"preperiod": 0, "period": 7, "saltus": 0}
    spec = nimsieve.summary("sub:1,3,4", 2000)
    assert described["counts"] == spec["counts"]
    nim = nimsieve.summary(lambda h: list(range(h)), 100)["apparent_period"]
    assert nim == {"preperiod": 0, "period": 1, "saltus": 1}
    assert nimsieve.summary(lambda h: [], 100)["apparent_period"] == {
        "preperiod": 0, "period": 1, "saltus": 0
    }
    # Rules written down that no criterion proves periods of report what they appear to have.
    assert nimsieve.summary("tb:0.[37]", 200)["apparent_period"]["saltus"] == 1


def test_eval_of_a_rule_lists_every_winning_move() -> None:
    position = nimsieve.eval(kayles, [5, 7])
    assert position["values"] == [4, 2] and position["outcome"] == "N"
    assert {"heap": 0, "from": 5, "to": 4, "split": [1, 3]} in position["winning_moves"]
    spec = nimsieve.eval("kayles", [5, 7])
    assert sorted(map(str, position["winning_moves"])) == sorted(map(str, spec["winning_moves"]))


def test_an_exception_in_the_rule_names_the_heap() -> None:
    def broken(h: int) -> list[Option]:
        if h == 7:
            raise ZeroDivisionError("no")
        return [h - 1] if h else []

    with pytest.raises(ZeroDivisionError) as raised:
        nimsieve.grundy(broken, 20)
    assert "rule(7)" in " ".join(getattr(raised.value, "__notes__", []))


@pytest.mark.parametrize(
    "rule,error,words",
    [
        (lambda h: [h], ValueError, "rule(0) returned the option 0: a heap of 0 has no moves"),
        (lambda h: [h] if h == 3 else [], ValueError, "rule(3) returned the option 3"),
        (lambda h: 5, TypeError, "rule(0) returned an int, not a list of options"),
        (lambda h: ["x"], TypeError, "an option holding a str"),
        (lambda h: [-1] if h else [], ValueError, "rule(1) returned the option -1"),
        (lambda h: [(h - 1, 1.5)] if h > 1 else [], TypeError, "an option holding a float"),
    ],
)
def test_options_that_are_not_smaller_heaps_are_one_clear_error(
    rule: Any, error: type, words: str
) -> None:
    with pytest.raises(error) as raised:
        nimsieve.grundy(rule, 10)
    assert words in str(raised.value)


def test_arguments_of_specs_only_are_refused_for_a_rule() -> None:
    for given in [{"path": "x.npy"}, {"engine": "reference"}, {"until_period": True}]:
        with pytest.raises(ValueError, match="applies to game specs"):
            nimsieve.grundy(kayles, 10, **given)  # type: ignore[arg-type]


def test_ctrl_c_stops_a_rule_at_once() -> None:
    def slow(h: int) -> list[Option]:
        return [h - s for s in (1, 2, 3) if s <= h]

    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        nimsieve.grundy(slow, 10**9)
    assert time.monotonic() - start < 2.0
    timer.cancel()


def test_a_rule_of_ten_options_runs_a_table_of_a_million() -> None:
    steps = (1, 2, 3, 5, 8, 13, 21, 34, 55, 89)
    got = nimsieve.grundy(subtract(*steps), 10**6)
    want = nimsieve.grundy("sub:" + ",".join(map(str, steps)), 10**6)
    assert np.array_equal(got, want)
