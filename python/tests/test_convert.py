"""Provenance, save and convert from Python: every file records the call that made it, an
array saved in any format reads back equal, and convert keeps a table's provenance."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nimsieve


def test_files_and_summaries_record_the_call(tmp_path: Path) -> None:
    g = nimsieve.grundy("squares", 1000, path=tmp_path / "g.npy")
    raw = (tmp_path / "g.npy").read_bytes()
    header = raw[10 : 10 + int.from_bytes(raw[8:10], "little")].decode("latin1")
    made = json.loads(header.split("# ", 1)[1].strip())
    assert made["command"] == f"nimsieve.grundy('squares', 1000, path='{tmp_path / 'g.npy'}')"
    assert made["nimsieve"] == nimsieve.__version__ and made["date"].endswith("Z")
    assert np.load(tmp_path / "g.npy").tolist() == g.tolist()
    summary = nimsieve.summary("primes", 10**5, modulus=6)
    assert summary["provenance"]["command"] == "nimsieve.summary('primes', 100000, modulus=6)"
    assert summary["provenance"]["engine"] == summary["engine"]
    growth = summary["p_count_growth"]
    assert growth["fit"] == "density" and growth["exponent"] > 1
    rule = nimsieve.summary(lambda h: range(h), 50)
    assert rule["provenance"]["command"] == "nimsieve.summary(<lambda>, 50)"


def test_save_writes_an_array_that_reads_back(tmp_path: Path) -> None:
    g = nimsieve.grundy("sub:1,3,4", 700)
    for name in ("t.csv", "t.txt", "t.npy", "t.bin"):
        written = nimsieve.save(g, tmp_path / name, game="sub:1,3,4")
        assert written == str(tmp_path / name)
        assert nimsieve.load(tmp_path / name).tolist() == g.tolist()
    nimsieve.save(g, tmp_path / "s.json", game="sub:1,3,4")
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["period"]["period"] == 7
    assert summary["provenance"]["command"].startswith("nimsieve.save(table, ")
    zeros = np.flatnonzero(g == 0)
    nimsieve.save(zeros, tmp_path / "p.u64", ppos=True)
    assert np.fromfile(tmp_path / "p.u64", dtype="<u8").tolist() == zeros.tolist()
    with pytest.raises(ValueError, match="names no format"):
        nimsieve.save(g, tmp_path / "t.doc")
    with pytest.raises(ValueError, match="one-dimensional"):
        nimsieve.save(g.reshape(7, 100), tmp_path / "t.csv")
    with pytest.raises(TypeError, match="non-negative integers"):
        nimsieve.save(np.array([0.5, 1.0]), tmp_path / "t.csv")


def test_compare_reads_an_oeis_b_file_at_its_offset(tmp_path: Path) -> None:
    g = nimsieve.grundy("squares", 200)
    nimsieve.save(g, tmp_path / "g.bin", game="squares")
    (tmp_path / "b.txt").write_text("".join(f"{x} {int(g[x])}\n" for x in range(1, 150)))
    same = nimsieve.compare(tmp_path / "g.bin", tmp_path / "b.txt")
    assert same["equal"] and same["compared"] == 149 and same["starts"] == [0, 1]
    (tmp_path / "c.txt").write_text("".join(f"{x} {int(g[x]) + (x == 40)}\n" for x in range(1, 150)))
    other = nimsieve.compare(tmp_path / "c.txt", tmp_path / "g.bin")
    assert not other["equal"] and other["differing"] == 1
    assert other["first"] == [40, str(int(g[40]) + 1), str(int(g[40]))]


def test_convert_keeps_the_provenance_of_the_table(tmp_path: Path) -> None:
    source = tmp_path / "g.npy"
    g = nimsieve.grundy("squares", 3000, path=source)
    written = nimsieve.convert(source, "csv,bin,json", output=f"{tmp_path / 'c'}/", game="squares")
    assert [Path(p).name for p in written] == ["g.csv", "g.bin", "g.json"]
    assert nimsieve.load(tmp_path / "c" / "g.bin").tolist() == g.tolist()
    made = json.loads((tmp_path / "c" / "g.json").read_text())["provenance"]
    assert made["command"].startswith("nimsieve.grundy('squares', 3000")
    with pytest.raises(ValueError, match="would write over the table itself"):
        nimsieve.convert(source, ["npy"])
    with pytest.raises(ValueError, match="unknown format 'pdf'"):
        nimsieve.convert(source, "pdf")
