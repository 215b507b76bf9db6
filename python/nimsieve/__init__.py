"""Sprague-Grundy values and P-positions of impartial games, as NumPy arrays.

The engines of the ``nimsieve`` command line, called in process: tables come back as NumPy
arrays without a copy (or as a read-only ``numpy.memmap`` with ``path=``), the GIL is released
while an engine runs, and Ctrl-C (or a notebook's stop button) raises ``KeyboardInterrupt``
within a fraction of a second. Game specs, sizes and error messages are those of the command
line: ``nimsieve.games()`` lists the specs, and a bad spec or size raises ``ValueError`` with
the line the command line prints.

>>> import nimsieve
>>> nimsieve.grundy("sub:1,3,4", 10).tolist()
[0, 1, 0, 1, 2, 3, 2, 0, 1, 0]
"""

from __future__ import annotations

import json
import math
import operator
import os
from typing import Any, Callable, Iterable, Optional, SupportsIndex, Union

import numpy as np

from . import _native

__all__ = ["grundy", "ppos", "summary", "eval", "load", "games", "engines", "__version__"]
__version__: str = _native.__version__

Size = Union[int, float, str, SupportsIndex]
"""A size: an int (or NumPy integer), a whole float such as ``1e6``, or text such as ``"2^20"``
or ``"1_000_000"``."""

PathLike = Union[str, "os.PathLike[str]"]


def grundy(
    game: str,
    n: Size,
    *,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    until_period: bool = False,
    progress: bool = False,
    path: Optional[PathLike] = None,
) -> np.ndarray:
    """The Sprague-Grundy values g(x) for 0 <= x < n (misere outcomes under ``+misere``:
    0 for a P-position, 1 for an N-position).

    Returns a 1-D array of the smallest unsigned dtype that holds the largest value (the dtype
    ``nimsieve grundy -f npy`` writes), over the engine's own table when it is stored that wide.

    - ``threads``: worker threads (default: one per core). Results never depend on it.
    - ``engine``: force an engine by name (see :func:`engines`); default: the fastest exact one.
    - ``until_period``: stop at the shortest table that proves the game's period (finite
      subtraction sets, pim, bachet:K, powers-of-2, finite octal codes); the array is then
      shorter than ``n`` and :func:`summary` gives the period.
    - ``progress``: show a progress bar (tqdm: in a terminal or in Jupyter).
    - ``path``: compute into that file and return it as a read-only ``numpy.memmap``. The file
      is a ``.npy`` file, the same bytes as ``nimsieve grundy GAME -n N -f npy -o PATH``,
      written atomically; from 2^27 positions the table itself is kept in a memory-mapped work
      file beside it (removed at the end), so a table larger than memory needs only disk.

    Raises ``ValueError`` for a bad spec, size or option, ``OSError`` when ``path`` cannot be
    written, and ``KeyboardInterrupt`` when interrupted (nothing is left on disk then).
    """
    total = _size(n)
    with _progress(progress, total) as report:
        if path is None:
            values = _native.grundy(game, str(total), threads, engine, until_period, report, None)
            assert values is not None
            return values
        target = os.fspath(path)
        _native.grundy(game, str(total), threads, engine, until_period, report, target)
    mapped: np.ndarray = np.load(target, mmap_mode="r")
    return mapped


def ppos(
    game: str,
    n: Size,
    *,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    progress: bool = False,
) -> np.ndarray:
    """The P-positions (positions of value 0) below ``n``, ascending, as a ``uint64`` array.

    Subtraction games given by their elements use the P-position sieve (one bit a position);
    other games compute their values first. ``threads``, ``engine`` and ``progress`` are as for
    :func:`grundy`.
    """
    total = _size(n)
    with _progress(progress, total) as report:
        return _native.ppos(game, str(total), threads, engine, report)


def summary(
    game: str,
    n: Size,
    *,
    ppos: bool = False,
    modulus: int = 5,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    until_period: bool = False,
    progress: bool = False,
) -> dict[str, Any]:
    """The JSON summary of a run as a dict, with the keys ``nimsieve grundy -f json`` writes
    (``ppos=True``: those of ``nimsieve ppos -f json``): counts of each value, first
    occurrences, the proven period, P-position counts by residue ``modulus``, and for
    take-and-break games the sparse space. ``elapsed_s`` is the run's own time.
    """
    total = _size(n)
    with _progress(progress, total) as report:
        text = _native.summary(
            game, str(total), ppos, _text(modulus), threads, engine, until_period, report
        )
    result: dict[str, Any] = json.loads(text)
    return result


def eval(
    game: str,
    heaps: Iterable[Size],
    *,
    last: Optional[Size] = None,
    table: Optional[PathLike] = None,
) -> dict[str, Any]:
    """A position of ``game``, as ``nimsieve eval --json`` gives it.

    For a one-heap game the position is a sum of heaps: ``heaps`` (``{"size", "value",
    "method"}``, the method ``"closed form"``, ``"period"`` or ``"table"``), ``values``,
    ``nim_sum``, ``outcome`` (``"P"``: the player to move loses), ``winning_moves``, each
    ``{"heap", "from", "to"}`` plus ``"split": [a, b]`` when a take-and-break move leaves two
    heaps, and ``all_winning_moves``. Heaps of any size are answered by closed forms and
    proven periods; ``table`` names a table file (e.g. a ``.bin`` that ``nimsieve grundy``
    wrote) to read values from instead of computing them.

    The games of several heaps that are not sums (``moore:K``, ``staircase``, ``northcott``,
    ``nimble``, ``poker-nim``, ``turning-turtles``, ``fibonacci-nim``, see :func:`games`)
    give ``position``, ``nim_heaps`` (when they map to Nim), ``value``, ``method``,
    ``outcome`` and ``winning_moves``, each ``{"changes": [{"index", "from", "to"}], "says"}``.
    ``last`` is the previous take in ``fibonacci-nim``.

    >>> nimsieve.eval("nim", [3, 4, 5])["winning_moves"]
    [{'heap': 0, 'from': 3, 'to': 1}]
    """
    position = [_text(h) for h in heaps]
    limit = None if last is None else _text(last)
    file = None if table is None else os.fspath(table)
    text = _native.evaluate(game, position, limit, file, None)
    result: dict[str, Any] = json.loads(text)
    return result


def load(path: PathLike, *, ppos: Optional[bool] = None) -> np.ndarray:
    """The table in a file nimsieve wrote (``.csv``, b-file ``.txt``, ``.npy``, ``.bin``,
    ``.u64``), checked as ``nimsieve stats`` checks it.

    Values come back read-only, in the smallest unsigned dtype (a ``.bin`` table is mapped in
    place when stored a whole byte or more wide); P-position lists as ``uint64``. ``ppos`` says
    whether a b-file or ``.npy`` file holds P-positions, when neither its name (``-ppos``) nor
    the JSON summary beside it tells.
    """
    return _native.load(os.fspath(path), ppos)


def games() -> list[dict[str, str]]:
    """Every game spec, as ``nimsieve games`` lists them: ``{"syntax", "description"}``."""
    return [{"syntax": s, "description": d} for s, d in _native.games()]


def engines() -> list[dict[str, str]]:
    """The engines ``engine=`` accepts: ``{"name", "description"}``."""
    return [{"name": s, "description": d} for s, d in _native.engines()]


def _text(number: Size) -> str:
    """A size as the text the command line would parse, so messages read the same."""
    if isinstance(number, bool):
        raise TypeError(f"expected a size, got {number!r}")
    if isinstance(number, str):
        return number
    if isinstance(number, float):
        return str(int(number)) if math.isfinite(number) and number.is_integer() else repr(number)
    try:
        return str(operator.index(number))
    except TypeError:
        raise TypeError(
            f"expected a size (an int, or text such as '1e6'), got {type(number).__name__}"
        ) from None


def _size(number: Size) -> int:
    """A size as an int, checked as the command line checks ``-n``."""
    return int(_native.size(_text(number)))


class _progress:
    """A tqdm bar over ``total`` positions while a run lasts, or nothing; yields the callback
    the engine's supervisor calls with the positions done."""

    def __init__(self, shown: bool, total: int) -> None:
        self.shown = shown
        self.total = total
        self.bar: Any = None

    def __enter__(self) -> Optional[Callable[[int], None]]:
        if not self.shown:
            return None
        from tqdm.auto import tqdm  # type: ignore[import-untyped]

        self.bar = tqdm(total=self.total, unit=" positions", unit_scale=True, dynamic_ncols=True)
        bar = self.bar

        def report(done: int) -> None:
            if done > bar.n:
                bar.update(done - bar.n)

        return report

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if self.bar is not None:
            self.bar.close()

