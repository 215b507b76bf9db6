"""Bad input raises ValueError with the command line's one-line message; files that cannot be
written raise OSError."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import nimsieve

from conftest import Cli


@pytest.mark.parametrize(
    "game,n",
    [("sqares", "10"), ("sub:", "10"), ("sub:0,3", "10"), ("tb:14.0", "10"),
     ("octal:0.8", "10"), ("squares", "-5"), ("squares", "1.5"), ("squares", "0"),
     ("squares", "2^70"), ("squares", "1e"), ("squares", "0x10")],
)
def test_bad_specs_and_sizes_read_as_on_the_cli(cli: Cli, game: str, n: str) -> None:
    message = cli.error("grundy", game, "-n", n, "-o", "/dev/null")
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy(game, n)
    assert str(raised.value) == message
    with pytest.raises(ValueError):
        nimsieve.ppos(game, n)
    with pytest.raises(ValueError):
        nimsieve.summary(game, n)


def test_python_numbers_are_checked_like_text() -> None:
    with pytest.raises(ValueError, match="'-5' is not a valid size: it is negative"):
        nimsieve.grundy("squares", -5)
    with pytest.raises(ValueError, match="'1.5' is not a valid size"):
        nimsieve.grundy("squares", 1.5)
    with pytest.raises(ValueError, match="larger than 2"):
        nimsieve.grundy("squares", 2**70)
    with pytest.raises(TypeError):
        nimsieve.grundy("squares", True)
    with pytest.raises(TypeError):
        nimsieve.grundy("squares", None)  # type: ignore[arg-type]


def test_options_are_checked(cli: Cli) -> None:
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy("squares", 10, threads=0)
    assert str(raised.value) == cli.error("grundy", "squares", "-n", "10", "--threads", "0")
    with pytest.raises(ValueError, match="unknown engine 'fast'; use one of periodic, finite, "):
        nimsieve.grundy("squares", 10, engine="fast")
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy("squares", 10, until_period=True)
    assert str(raised.value) == cli.error("grundy", "squares", "-n", "10", "--until-period")
    with pytest.raises(ValueError) as raised:
        nimsieve.summary("squares", 10, modulus=0)
    assert str(raised.value) == cli.error("grundy", "squares", "-n", "10", "--mod", "0")


def test_eval_errors(cli: Cli) -> None:
    for game, heaps in [("squares", ["-1"]), ("grundys-game+misere", ["40"]), ("kayles+misere", ["3", "-4"])]:
        with pytest.raises(ValueError) as raised:
            nimsieve.eval(game, heaps)
        assert str(raised.value) == cli.error("eval", game, *heaps)


def test_unwritable_path_raises_oserror(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(OSError, match="cannot create folder"):
        nimsieve.grundy("squares", 100, path=tmp_path / "file" / "table.npy")
    # A missing folder is created, as the command line creates it.
    nimsieve.grundy("squares", 10, path=tmp_path / "missing" / "table.npy")
    assert (tmp_path / "missing" / "table.npy").is_file()


def test_damaged_files_are_refused(cli: Cli, tmp_path: Path) -> None:
    good = cli.file("grundy", "squares", "1000", "bin")
    damaged = tmp_path / "damaged.bin"
    data = bytearray(good.read_bytes())
    data[-1] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError) as raised:
        nimsieve.load(damaged)
    assert str(raised.value) == cli.error("stats", str(damaged))
    with pytest.raises(OSError):
        nimsieve.load(tmp_path / "absent.npy")


# The package called with arguments its type hints refuse, as untyped code may call it.
untyped: Any = nimsieve


@pytest.mark.parametrize("heaps", ["123", b"123", bytearray(b"12"), 5, 5.0, None, {3, 4}, {3: 1}])
def test_eval_refuses_what_is_not_a_list_of_heaps(heaps: object) -> None:
    with pytest.raises(TypeError, match=r"heaps must be a list of heap sizes such as \[3, 4, 5\]"):
        untyped.eval("squares", heaps)


def test_eval_heaps_are_checked_like_sizes(cli: Cli) -> None:
    assert nimsieve.eval("squares", (3.0, np.uint8(4), "5"))["values"] == [1, 2, 0]
    with pytest.raises(TypeError, match="a heap must be a size"):
        untyped.eval("squares", [3, True])
    with pytest.raises(TypeError, match="a heap must be a size"):
        untyped.eval("squares", [b"3"])
    for heap in (-3, 3.5):
        with pytest.raises(ValueError) as raised:
            untyped.eval("squares", [heap])
        assert str(raised.value) == cli.error("eval", "squares", str(heap))
    with pytest.raises(TypeError, match="last must be a size"):
        untyped.eval("fibonacci-nim", [10], last=True)


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: untyped.grundy(b"squares", 10), "game must be text"),
        (lambda: untyped.grundy("squares", b"10"), "n must be a size"),
        (lambda: untyped.grundy("squares", [10]), "n must be a size"),
        (lambda: untyped.grundy("squares", 10, threads=True), "threads must be an int"),
        (lambda: untyped.grundy("squares", 10, threads=2.0), "threads must be an int"),
        (lambda: untyped.ppos("squares", 10, threads="2"), "threads must be an int"),
        (lambda: untyped.grundy("squares", 10, engine=5), "engine must be text"),
        (lambda: untyped.grundy("sub:1,2", 10, until_period=1), "until_period must be True or False"),
        (lambda: untyped.summary("sub:1,2", 10, ppos=1), "ppos must be True or False"),
        (lambda: untyped.summary("sub:1,2", 10, modulus=True), "modulus must be a size"),
        (lambda: untyped.load("table.npy", ppos="yes"), "ppos must be True or False"),
        (lambda: untyped.eval(5, [3]), "game must be text"),
    ],
)
def test_arguments_of_the_wrong_type_are_named(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()


def test_negative_threads_are_refused() -> None:
    with pytest.raises(ValueError, match="threads=-1 is negative"):
        untyped.grundy("squares", 10, threads=-1)


def test_paths_may_be_bytes(tmp_path: Path) -> None:
    path = bytes(tmp_path / "table.npy")
    np.testing.assert_array_equal(nimsieve.grundy("sub:1,2", 6, path=path), [0, 1, 2, 0, 1, 2])
    np.testing.assert_array_equal(nimsieve.load(path), [0, 1, 2, 0, 1, 2])


def test_messages_speak_of_arguments_not_options() -> None:
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy("square", 10)
    assert "did you mean 'squares'? nimsieve.games() lists them" in str(raised.value)
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy("squares", 10, until_period=True)
    assert "leave until_period out" in str(raised.value)
    assert "--" not in str(raised.value)
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy("squares", 0)
    assert str(raised.value).startswith("n must be at least 1")
    assert "give e.g. n=1000" in str(raised.value)
    with pytest.raises(ValueError) as raised:
        nimsieve.summary("squares", 10, modulus=0)
    assert str(raised.value).startswith("modulus must be at least 1")
