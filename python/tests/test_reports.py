"""Summaries, evaluations and the catalogue equal the command line's."""

from __future__ import annotations

from typing import Any

import pytest

import nimsieve

from conftest import Cli


def same_run(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Equal summaries but for the time each run took and the call and date that made them."""
    assert list(a) == list(b)
    assert {k: v for k, v in a.items() if k not in ("elapsed_s", "provenance")} == {
        k: v for k, v in b.items() if k not in ("elapsed_s", "provenance")
    }
    made = [{k: v for k, v in s["provenance"].items() if k not in ("command", "date")} for s in (a, b)]
    assert made[0] == made[1]
    assert a["provenance"]["command"].startswith("nimsieve.summary(")
    assert b["provenance"]["command"].startswith("nimsieve ")


@pytest.mark.parametrize(
    "game,n", [("sub:1,3,4", "1000"), ("squares", "20000"), ("kayles", "3000"), ("aliquot", "1000")]
)
def test_summary_equals_the_cli_json(cli: Cli, game: str, n: str) -> None:
    same_run(nimsieve.summary(game, n), cli.json("grundy", game, n))
    same_run(nimsieve.summary(game, n, ppos=True), cli.json("ppos", game, n))
    same_run(nimsieve.summary(game, n, modulus=7), cli.json("grundy", game, n, "--mod", "7"))


def test_a_summary_past_its_window_is_the_summary_of_the_whole_table() -> None:
    """Past ``window`` positions a summary keeps only a head and a tail of the table; below the
    default window (2**26) it keeps the whole table. The two summaries are the same."""
    n = 3 * 2**18
    for game in ("octal:0.161", "grundys-game"):
        whole = nimsieve.summary(game, n)
        windowed = nimsieve.summary(game, n, window=2**18)
        assert windowed["provenance"]["command"] == f"nimsieve.summary('{game}', {n}, window=262144)"
        for s in (whole, windowed):
            del s["elapsed_s"], s["provenance"]["command"], s["provenance"]["date"]
        assert whole == windowed


def test_a_window_is_refused_where_it_cannot_apply() -> None:
    with pytest.raises(ValueError, match=r"window=1000: a window applies to summaries of values"):
        nimsieve.summary("octal:0.161", 10**6, window=1000)
    with pytest.raises(ValueError, match=r"window=262144: .*not ppos=True"):
        nimsieve.summary("octal:0.161", 10**6, ppos=True, window=2**18)
    with pytest.raises(ValueError, match=r"window=262144: squares on the value-layers engine keeps its whole table"):
        nimsieve.summary("squares", 10**6, window=2**18)
    with pytest.raises(ValueError, match=r"window=262144: a run with until_period keeps its whole table"):
        nimsieve.summary("octal:0.161", 10**6, until_period=True, window=2**18)


@pytest.mark.parametrize(
    "game,heaps",
    [("nim", [3, 4, 5]), ("squares", [10, 20, 30]), ("kayles", [7, 12]),
     ("grundys-game", [100]), ("nim+misere", [1, 1, 1]), ("sub:1,3,4", [1000, 7])],
)
def test_eval_equals_the_cli(cli: Cli, game: str, heaps: list[int]) -> None:
    import json

    expected = json.loads(cli.ok("eval", game, *map(str, heaps), "--json"))
    assert nimsieve.eval(game, heaps) == expected


def test_games_are_the_cli_catalogue(cli: Cli) -> None:
    lines = [line for line in cli.ok("games").splitlines() if line.startswith("  ")]
    games = nimsieve.games()
    assert len(games) == len(lines)
    for game, line in zip(games, lines):
        syntax, description = line.split(None, 1)
        assert (game["syntax"], game["description"]) == (syntax, description.strip())
    assert {e["name"] for e in nimsieve.engines()} >= {"reference", "value-layers", "rare-values"}
