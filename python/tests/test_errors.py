"""Bad input raises ValueError with the command line's one-line message; files that cannot be
written raise OSError."""

from __future__ import annotations

from pathlib import Path

import pytest

import nimsieve

from conftest import Cli


@pytest.mark.parametrize(
    "game,n",
    [("sqares", "10"), ("sub:", "10"), ("sub:0,3", "10"), ("kayles+misere", "10"),
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
    with pytest.raises(ValueError, match="unknown engine 'fast'; use one of reference, "):
        nimsieve.grundy("squares", 10, engine="fast")
    with pytest.raises(ValueError) as raised:
        nimsieve.grundy("squares", 10, until_period=True)
    assert str(raised.value) == cli.error("grundy", "squares", "-n", "10", "--until-period")
    with pytest.raises(ValueError) as raised:
        nimsieve.summary("squares", 10, modulus=0)
    assert str(raised.value) == cli.error("grundy", "squares", "-n", "10", "--mod", "0")


def test_eval_errors(cli: Cli) -> None:
    for game, heaps in [("squares", ["-1"]), ("kayles+misere", ["3"]), ("squares+misere", ["3", "4"])]:
        with pytest.raises(ValueError) as raised:
            nimsieve.eval(game, heaps)
        assert str(raised.value) == cli.error("eval", game, *heaps)


def test_unwritable_path_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="cannot write"):
        nimsieve.grundy("squares", 100, path=tmp_path / "missing" / "table.npy")


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
