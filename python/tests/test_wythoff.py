"""Wythoff's two-heap game in the package: its table as an n×n array and its P-pairs as rows,
equal to the command line's files, and both read back by `load`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import nimsieve

from conftest import Cli


def test_grundy_is_the_square_table_of_the_command_line(cli: Cli, tmp_path: Path) -> None:
    g = nimsieve.grundy("wythoff", 60)
    assert g.shape == (60, 60)
    expected = cli.npy("grundy", "wythoff", "60")
    assert g.dtype == expected.dtype and np.array_equal(g, expected)
    assert np.array_equal(g, g.T)
    mapped = nimsieve.grundy("wythoff", 60, path=tmp_path / "w.npy")
    assert isinstance(mapped, np.memmap) and np.array_equal(mapped, expected)


def test_ppos_are_the_pairs_of_the_command_line(cli: Cli) -> None:
    pairs = nimsieve.ppos("wythoff", 100)
    assert pairs.shape == (62, 2) and pairs.dtype == np.uint64
    assert pairs[:4].tolist() == [[0, 0], [1, 2], [3, 5], [4, 7]]
    assert np.array_equal(pairs, cli.npy("ppos", "wythoff", "100"))


def test_load_reads_tables_and_pairs_of_every_format(cli: Cli) -> None:
    g = nimsieve.grundy("wythoff", 30)
    for fmt in ["npy", "bin", "csv"]:
        loaded = nimsieve.load(cli.file("grundy", "wythoff", "30", fmt))
        assert loaded.shape == (30, 30) and np.array_equal(loaded, g), fmt
    pairs = nimsieve.ppos("wythoff", 50)
    for fmt in ["npy", "csv"]:
        loaded = nimsieve.load(cli.file("ppos", "wythoff", "50", fmt), ppos=True)
        assert np.array_equal(loaded, pairs), fmt


def test_a_table_round_trips_through_npy(tmp_path: Path) -> None:
    g = nimsieve.grundy("wythoff", 25)
    path = tmp_path / "round.npy"
    np.save(path, g)
    assert np.array_equal(nimsieve.load(path), g)


def test_summary_and_catalogue() -> None:
    table = nimsieve.summary("wythoff", 40)
    assert table["cells"] == 1600
    assert table["p_count"] == int((nimsieve.grundy("wythoff", 40) == 0).sum())
    assert nimsieve.summary("wythoff", 100, ppos=True)["pairs"] == 62
    entry = next(e for e in nimsieve.games() if e["syntax"] == "wythoff")
    assert "verify" in entry["supports"] and "grundy" in entry["supports"]
    nimble = next(e for e in nimsieve.games() if e["syntax"] == "nimble")
    assert nimble["supports"] == ["eval"]


def test_one_heap_options_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="is an engine of one-heap games"):
        nimsieve.grundy("wythoff", 10, engine="reference")
    with pytest.raises(ValueError, match="Wythoff's game takes no arguments and no modifiers"):
        nimsieve.grundy("wythoff+misere", 10)


def test_the_progress_of_a_table_counts_its_cells() -> None:
    # The bar's total follows the run: n(n + 1)/2 cells (x ≤ y) for a side of n, not n.
    calls: list[tuple[int, object]] = []
    nimsieve._native.grundy("wythoff", "100", None, None, False, lambda d, t: calls.append((d, t)))
    assert calls and calls[-1] == (5050, 5050)
