"""Shared fixtures: the command-line binary the package is compared with."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from nimsieve._native import python_terms

ROOT = Path(__file__).resolve().parents[2]


class Cli:
    """Runs the `nimsieve` binary of this repository."""

    def __init__(self, binary: Path, folder: Path) -> None:
        self.binary = binary
        self.folder = folder

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.binary), *args], capture_output=True, text=True, check=False
        )

    def ok(self, *args: str) -> str:
        done = self.run(*args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def error(self, *args: str) -> str:
        """The one-line message of a refused command, without the `nimsieve: error: ` prefix,
        in the words of the Python package: its argument names for the command line's options."""
        done = self.run(*args)
        assert done.returncode == 2, (done.returncode, done.stderr)
        line = done.stderr.strip()
        assert "\n" not in line, line
        return python_terms(line.removeprefix("nimsieve: error: "))


    def file(self, command: str, game: str, n: str, fmt: str, *extra: str) -> Path:
        extension = "txt" if fmt == "bfile" else fmt
        path = self.folder / f"cli-{len(list(self.folder.iterdir()))}.{extension}"
        self.ok(command, game, "-n", n, "-f", fmt, "-o", str(path), "-q", *extra)
        return path

    def npy(self, command: str, game: str, n: str, *extra: str) -> np.ndarray:
        table: np.ndarray = np.load(self.file(command, game, n, "npy", *extra))
        return table

    def json(self, command: str, game: str, n: str, *extra: str) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.file(command, game, n, "json", *extra).read_text())
        return result


@pytest.fixture(scope="session")
def cli_binary() -> Path:
    binary = Path(os.environ.get("NIMSIEVE_BIN", ROOT / "target" / "release" / "nimsieve"))
    if not binary.is_file():
        pytest.fail(f"no command-line binary at {binary}: run `cargo build --release` first")
    return binary


@pytest.fixture
def cli(cli_binary: Path, tmp_path: Path) -> Cli:
    folder = tmp_path / "cli"
    folder.mkdir()
    return Cli(cli_binary, folder)
