"""Long runs: interrupts, the GIL, progress."""

from __future__ import annotations

import _thread
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import nimsieve


def interrupt_after(seconds: float) -> threading.Timer:
    """Delivers a KeyboardInterrupt to the main thread, as Ctrl-C does."""
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


@pytest.mark.parametrize(
    "game,n,options",
    [
        ("squares", 10**9, {}),  # resumable engine, in memory
        ("squares", 2**29, {"path": True}),  # resumable engine, work file beside the output
        ("allbut:1,2", 10**9, {}),  # the reference engine
        ("sub:1,2,4,8,16,32,64,128,256,1000", 10**9, {"engine": "reference"}),
    ],
)
def test_interrupt_stops_within_a_second_and_leaves_no_files(
    tmp_path: Path, game: str, n: int, options: dict[str, object]
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    if options.pop("path", False):
        options["path"] = folder / "table.npy"
    interrupt_after(0.5)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        nimsieve.grundy(game, n, **options)  # type: ignore[arg-type]
    assert time.monotonic() - started < 1.5
    assert list(folder.iterdir()) == []
    # The next run is not stopped by the old request.
    np.testing.assert_array_equal(nimsieve.grundy("sub:1,3,4", 7), [0, 1, 0, 1, 2, 3, 2])


def test_a_stopped_run_keeps_an_older_file(tmp_path: Path) -> None:
    path = tmp_path / "table.npy"
    nimsieve.grundy("squares", 1000, path=path)
    before = path.read_bytes()
    interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        nimsieve.grundy("squares", 2**29, path=path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.npy"]


def test_the_gil_is_released_while_an_engine_runs() -> None:
    result: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: result.append(nimsieve.grundy("primes", 3 * 10**7)))
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert len(result) == 1 and len(result[0]) == 3 * 10**7
    # The main thread kept running Python code while the engine ran.
    assert ticks > 50


def test_an_error_in_the_progress_callback_stops_the_run() -> None:
    def fail(done: int, total: object) -> None:
        raise RuntimeError(f"stop at {done}")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="stop at"):
        nimsieve._native.grundy("squares", str(10**9), None, None, False, fail)
    assert time.monotonic() - started < 1.5


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    values = nimsieve.grundy("primes", 3 * 10**7, progress=True)
    assert len(values) == 3 * 10**7
    err = capsys.readouterr().err
    assert "positions" in err and "100%" in err
