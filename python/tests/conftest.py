"""Shared fixtures: the command-line binary the package is compared with."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]

# The command line's flags and the package's arguments they stand for: the package words the
# library's messages itself, and these tests check that both front ends say the same thing.
ARGUMENTS = {
    "-n": "n",
    "--threads": "threads",
    "--mod": "modulus",
    "--max-size": "max_size",
    "--engine": "engine",
    "--until-period": "until_period",
    "--table": "table",
    "--last": "last",
    "--resume": "resume",
}
FLAG = r"(?<![\w-])(" + "|".join(re.escape(flag) for flag in ARGUMENTS) + r")(?![\w-])"


def in_package_words(line: str) -> str:
    """A command-line message with its flags spelled as the package's arguments."""
    line = line.replace("'nimsieve games'", "nimsieve.games()")
    line = re.sub(FLAG + r" (\d[\w.^]*)", lambda m: f"{ARGUMENTS[m[1]]}={m[2]}", line)
    return re.sub(FLAG, lambda m: ARGUMENTS[m[1]], line)


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
        return in_package_words(line.removeprefix("nimsieve: error: "))


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
