"""Tables from the package equal the command line's files, value for value and dtype for dtype."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import nimsieve

from conftest import Cli

# One game of each engine, at a size each computes in well under a second.
GAMES = [
    ("sub:1,3,4", "1000"),
    ("sub:2,5,7+misere", "3000"),
    ("bachet:3", "1000"),
    ("allbut:1,2", "500"),
    ("squares", "100000"),
    ("fibonacci+leave1", "20000"),
    ("primes", "100000"),
    ("pim", "1000"),
    ("aliquot", "5000"),
    ("divisors", "5000"),
    ("half", "2000"),
    ("kayles", "5000"),
    ("octal:0.1777", "20000"),
    ("grundys-game", "4096"),
    ("lasker", "1000"),
    ("nim", "300"),
]


@pytest.mark.parametrize("game,n", GAMES)
def test_grundy_equals_the_cli(cli: Cli, game: str, n: str) -> None:
    expected = cli.npy("grundy", game, n)
    values = nimsieve.grundy(game, n)
    assert values.dtype == expected.dtype
    assert values.shape == (int(n),)
    np.testing.assert_array_equal(values, expected)


@pytest.mark.parametrize("game,n", GAMES[:8] + [("kayles", "3000")])
def test_ppos_equals_the_cli(cli: Cli, game: str, n: str) -> None:
    expected = cli.npy("ppos", game, n)
    positions = nimsieve.ppos(game, n)
    assert positions.dtype == np.uint64
    np.testing.assert_array_equal(positions, expected.astype(np.uint64))
    np.testing.assert_array_equal(positions, np.flatnonzero(nimsieve.grundy(game, n) == 0))


def without_provenance(npy: bytes) -> bytes:
    """An .npy file's bytes with its header's comment (the provenance: the call, the date) cut."""
    end = 10 + int.from_bytes(npy[8:10], "little")
    header = npy[10:end]
    return header[: header.index(b"}") + 1] + npy[end:]


@pytest.mark.parametrize("game,n", [("sub:1,3,4", "1000"), ("kayles", "2000"), ("squares", "3000")])
def test_memmap_file_is_the_cli_file(cli: Cli, tmp_path: Path, game: str, n: str) -> None:
    path = tmp_path / "table.npy"
    mapped = nimsieve.grundy(game, n, path=path)
    assert isinstance(mapped, np.memmap)
    assert not mapped.flags.writeable
    assert without_provenance(path.read_bytes()) == without_provenance(
        cli.file("grundy", game, n, "npy").read_bytes()
    )
    np.testing.assert_array_equal(mapped, nimsieve.grundy(game, n))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli", "table.npy"]


def test_dtype_is_the_smallest_that_holds_the_values() -> None:
    assert nimsieve.grundy("nim", 256).dtype == np.uint8
    assert nimsieve.grundy("nim", 257).dtype == np.uint16
    assert nimsieve.grundy("nim", 2**16 + 1).dtype == np.uint32
    assert nimsieve.grundy("sub:1,2", 10).dtype == np.uint8
    assert nimsieve.grundy("squares+misere", 100).max() == 1


def test_sizes_are_written_as_on_the_command_line() -> None:
    for n in (1024, 1024.0, "1024", "2^10", "1_024", np.int64(1024)):
        assert nimsieve.grundy("sub:1,3,4", n).shape == (1024,)


def test_until_period_stops_at_the_proof() -> None:
    values = nimsieve.grundy("sub:1,3,4", 10**9, until_period=True)
    assert len(values) < 100
    summary = nimsieve.summary("sub:1,3,4", 10**9, until_period=True)
    assert summary["period"] == {"preperiod": 0, "period": 7, "saltus": 0}
    assert summary["n"] == len(values)


def test_lasker_period_is_arithmetic() -> None:
    values = nimsieve.grundy("lasker", 10**9, until_period=True)
    assert list(values) == [0, 1, 2, 4, 3]
    summary = nimsieve.summary("lasker", 10**9, until_period=True)
    assert summary["period"] == {"preperiod": 1, "period": 4, "saltus": 4}


@pytest.mark.parametrize("game", ["squares", "primes", "kayles", "aliquot"])
def test_threads_do_not_change_the_table(game: str) -> None:
    one = nimsieve.grundy(game, 50000, threads=1)
    two = nimsieve.grundy(game, 50000, threads=2)
    np.testing.assert_array_equal(one, two)


def test_engines_agree_with_the_reference() -> None:
    for game, engine in [("squares", "value-layers"), ("kayles", "rare-values"), ("primes", "prime-grundy")]:
        np.testing.assert_array_equal(
            nimsieve.grundy(game, 3000, engine=engine),
            nimsieve.grundy(game, 3000, engine="reference"),
        )


@pytest.mark.parametrize("fmt", ["csv", "bfile", "npy", "bin"])
@pytest.mark.parametrize("game,n", [("squares", "5000"), ("sub:2,5,7+misere", "300"), ("nim", "300")])
def test_load_reads_every_table_file(cli: Cli, fmt: str, game: str, n: str) -> None:
    loaded = nimsieve.load(cli.file("grundy", game, n, fmt))
    expected = nimsieve.grundy(game, n)
    assert loaded.dtype == expected.dtype
    assert not loaded.flags.writeable
    np.testing.assert_array_equal(loaded, expected)


@pytest.mark.parametrize("fmt", ["csv", "bfile", "npy", "u64"])
def test_load_reads_p_position_files(cli: Cli, fmt: str) -> None:
    loaded = nimsieve.load(cli.file("ppos", "squares", "5000", fmt), ppos=True)
    assert loaded.dtype == np.uint64
    np.testing.assert_array_equal(loaded, nimsieve.ppos("squares", 5000))
