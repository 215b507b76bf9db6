"""`path=`: concurrent calls on one path, and Ctrl-C while the file is being written."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import nimsieve

# Two games of the same length and dtype whose tables differ.
TWO_GAMES = ["sub:1,3,4", "bachet:3"]


def run_threads(count: int, work: Callable[[int], None]) -> list[BaseException]:
    """Runs `work(i)` on `count` threads started together; the exceptions they raised."""
    start = threading.Barrier(count)
    failures: list[BaseException] = []

    def thread(i: int) -> None:
        start.wait()
        try:
            work(i)
        except BaseException as e:  # noqa: BLE001 - collected for the assertion
            failures.append(e)

    threads = [threading.Thread(target=thread, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


def test_concurrent_calls_on_one_path_each_return_their_own_table(tmp_path: Path) -> None:
    n = 2**20
    path = tmp_path / "table.npy"
    expected = {game: nimsieve.grundy(game, n) for game in TWO_GAMES}

    def work(i: int) -> None:
        for k in range(6):
            game = TWO_GAMES[(i + k) % 2]
            mapped = nimsieve.grundy(game, n, path=path)
            assert isinstance(mapped, np.memmap) and not mapped.flags.writeable
            assert mapped.dtype == expected[game].dtype
            if not np.array_equal(mapped, expected[game]):
                raise AssertionError(f"{game}: another table came back")

    assert run_threads(8, work) == []
    assert [p.name for p in tmp_path.iterdir()] == ["table.npy"]
    assert np.load(path).tolist() in [expected[g].tolist() for g in TWO_GAMES]


def test_a_second_large_run_on_one_work_file_is_refused(tmp_path: Path) -> None:
    """From 2^27 positions a run keeps its table in a work file beside `path`: a second run of
    the same game there is refused in one line while the first holds it."""
    n = 2**27
    path = tmp_path / "table.npy"
    refused: list[str] = []

    def work(i: int) -> None:
        try:
            mapped = nimsieve.grundy("sub:1,3,4", n, path=path, threads=1)
        except ValueError as e:
            refused.append(str(e))
            return
        expected = np.tile(np.array([0, 1, 0, 1, 2, 3, 2], np.uint8), n // 7 + 1)[:n]
        if not np.array_equal(mapped, expected):
            raise AssertionError("another table came back")

    assert run_threads(2, work) == []
    assert len(refused) == 1, refused
    assert "is in use by another nimsieve run" in refused[0] and "\n" not in refused[0]
    assert [p.name for p in tmp_path.iterdir()] == ["table.npy"]


def test_a_path_that_is_not_a_regular_file_is_refused() -> None:
    with pytest.raises(ValueError, match="not a regular file"):
        nimsieve.grundy("sub:1,3,4", 100, path="/dev/null")


def writing(folder: Path) -> bool:
    """True once a temporary file in `folder` has data (the probe of the path is empty)."""
    for p in folder.glob("table.npy.partial-*"):
        try:
            if p.stat().st_size > 0:
                return True
        except FileNotFoundError:
            pass
    return False


# The child takes Ctrl-C as an interactive Python does, even when the test runs where SIGINT
# is ignored (a shell starts background commands so, and a process inherits it).
CHILD = """
import signal, sys, nimsieve
signal.signal(signal.SIGINT, signal.default_int_handler)
try:
    nimsieve.grundy(sys.argv[1], 2**27, path=sys.argv[2])
except KeyboardInterrupt:
    sys.exit(3)
"""


@pytest.mark.parametrize("game", TWO_GAMES)  # the finite and the periodic engines
def test_ctrl_c_while_writing_keeps_the_old_file(tmp_path: Path, game: str) -> None:
    # The write takes tens of milliseconds: when it ends before the signal lands, the run
    # finished (its table complete and in place, flushed to disk, which may take a second) and
    # the case is tried again.
    for _ in range(5):
        path = tmp_path / "table.npy"
        nimsieve.grundy("squares", 1000, path=path)
        before = path.read_bytes()
        child = subprocess.Popen([sys.executable, "-c", CHILD, game, str(path)])
        try:
            deadline = time.monotonic() + 60
            while not writing(tmp_path):
                assert child.poll() is None, "the run ended before it wrote"
                assert time.monotonic() < deadline
                time.sleep(0.01)
            child.send_signal(signal.SIGINT)
            sent = time.monotonic()
            code = child.wait(timeout=10)
            waited = time.monotonic() - sent
        finally:
            child.kill()
        assert [p.name for p in tmp_path.iterdir()] == ["table.npy"]
        if code == 0:
            assert len(np.load(path, mmap_mode="r")) == 2**27, "a finished run wrote its table"
            continue
        assert code == 3
        assert waited < 1
        assert path.read_bytes() == before
        return
    pytest.fail("every run finished before the interrupt reached it")
