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
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any, Callable, Optional, SupportsIndex, Union

import numpy as np

from . import _native

__all__ = [
    "grundy",
    "ppos",
    "summary",
    "eval",
    "misere",
    "load",
    "save",
    "convert",
    "compare",
    "games",
    "engines",
    "__version__",
]
__version__: str = _native.__version__

Size = Union[int, float, str, SupportsIndex]
"""A size: an int (or NumPy integer), a whole float such as ``1e6``, or text such as ``"2^20"``
or ``"1_000_000"``."""

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

Rule = Callable[[int], Iterable[Union[int, Iterable[int]]]]
"""A rule written in Python: ``rule(h)`` returns the options of a heap of h, each an int (the
one heap left, 0 for none) or a tuple of ints (the heaps a split leaves, valued by their
nim-sum); every heap smaller than h."""

Game = Union[str, Rule]
"""A game: a spec such as ``"sub:1,3,4"`` or ``"tb:4!.0"`` (see :func:`games`), or a
:data:`Rule`."""


def grundy(
    game: Game,
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
    For ``wythoff`` (two heaps), the n×n table ``g[x, y]`` = G(x, y) for 0 <= x, y < n.

    - ``threads``: worker threads (default: one per core). Results never depend on it.
    - ``engine``: force an engine by name (see :func:`engines`); default: the fastest exact one.
    - ``until_period``: stop at the shortest table that proves the game's period (finite
      subtraction sets, pim, bachet:K, powers-of-2, finite octal codes, and lasker, whose
      period is arithmetic); the array is then shorter than ``n`` and :func:`summary` gives the
      period, ``{"preperiod": a, "period": p, "saltus": s}`` (s = 0 but for lasker).
    - ``progress``: show a progress bar (tqdm: in a terminal or in Jupyter).
    - ``path``: compute into that file and return it as a read-only ``numpy.memmap``. The file
      is a ``.npy`` file, the same bytes as ``nimsieve grundy GAME -n N -f npy -o PATH``,
      written atomically; from 2^27 positions the table itself is kept in a memory-mapped work
      file beside it (removed at the end), so a table larger than memory needs only disk.
      The memmap is of the file this call wrote, even when another call (another thread) has
      written the same path since.

    Raises ``ValueError`` for a bad spec, size or option, ``TypeError`` (naming the argument)
    for an argument of the wrong type, ``OSError`` when ``path`` cannot be written, and
    ``KeyboardInterrupt`` when interrupted (nothing is left on disk then, and a file already
    at ``path`` is kept as it was).

    ``game`` may be a :data:`Rule`, a function ``rule(h)`` that returns the options of a heap
    of h: the values are the mex recursion over its options, computed on the calling thread
    (``threads``, ``engine``, ``until_period`` and ``path`` do not apply). An exception the
    rule raises comes with a note naming the heap; an option that is not an int or a tuple of
    ints smaller than h raises ``TypeError`` or ``ValueError`` naming both.
    """
    if callable(game):
        _rule_only(threads=threads, engine=engine, until_period=until_period, path=path)
        with _progress(progress, int(_native.size(_text(n, "n")))) as report:
            return _native.grundy_rule(game, _text(n, "n"), report)
    spec, total, count, name = _run_arguments(game, n, threads, engine)
    stop = _flag(until_period, "until_period")
    target = None if path is None else _path(path)
    with _progress(progress, int(total)) as report:
        if target is None:
            return _native.grundy(spec, total, count, name, stop, report)
        call = _call("grundy", game, n, threads=threads, engine=engine, until_period=until_period, path=target)
        written = _native.grundy_file(spec, total, count, name, stop, report, target, call)
    return _mapped(written)


def ppos(
    game: Game,
    n: Size,
    *,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    progress: bool = False,
) -> np.ndarray:
    """The P-positions (positions of value 0) below ``n``, ascending, as a ``uint64`` array.

    Subtraction games given by their elements use the P-position sieve (one bit a position);
    other games compute their values first. For ``wythoff`` (two heaps), the P-pairs with
    a_k < n as rows ``(a_k, b_k)``, k = 0, 1, …. ``threads``, ``engine`` and ``progress`` are as for
    :func:`grundy`; ``game`` may be a :data:`Rule`, as for :func:`grundy`.
    """
    if callable(game):
        values = grundy(game, n, threads=threads, engine=engine, progress=progress)
        return np.flatnonzero(values == 0).astype(np.uint64)
    spec, total, count, name = _run_arguments(game, n, threads, engine)
    with _progress(progress, int(total)) as report:
        return _native.ppos(spec, total, count, name, report)


def summary(
    game: Game,
    n: Size,
    *,
    ppos: bool = False,
    modulus: Optional[int] = None,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    until_period: bool = False,
    window: Optional[Size] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """The JSON summary of a run as a dict, with the keys ``nimsieve grundy -f json`` writes
    (``ppos=True``: those of ``nimsieve ppos -f json``): counts of each value, first
    occurrences, the proven period, P-position counts by residue ``modulus`` (default 5), and for
    take-and-break games the sparse space. ``elapsed_s`` is the run's own time.

    A summary of the values of a take-and-break game keeps its table whole only up to
    ``window`` positions (default 2**26, at least 2**18), then only a head and a tail of it, as
    ``nimsieve grundy -f json`` does: memory stays bounded however large ``n`` is, and the
    summary is the one a whole table gives. A value the window cannot decide raises a
    ValueError that says so; a larger ``window`` decides it. A ``window`` given where the run
    would keep its whole table anyway (another game or engine, ``until_period=True``) raises a
    ValueError.

    For a :data:`Rule` (see :func:`grundy`), ``"game"`` is ``"python:NAME"`` (the function's
    name), ``"engine"`` is ``"python"``, ``"period"`` is None (nothing bounds a function's
    moves, so no period is proven) and ``"apparent_period"`` is the period the values appear to
    have, ``{"preperiod", "period", "saltus"}`` (g(x + period) = g(x) + saltus over the second
    half of the table, at least three times), or None. Rules written down that no criterion
    proves periods of (``tb:0.[37]``, ``squares@7``) have ``"apparent_period"`` too.
    """
    if callable(game):
        _rule_only(threads=threads, engine=engine, until_period=until_period)
        if _flag(ppos, "ppos"):
            raise ValueError("ppos=True is for game specs; for a rule, use nimsieve.ppos(rule, n)")
        residues = None if modulus is None else _text(modulus, "modulus")
        label = f"python:{getattr(game, '__name__', type(game).__name__)}"
        call = _call("summary", _Named(label[len("python:") :]), n, modulus=modulus)
        with _progress(progress, int(_native.size(_text(n, "n")))) as report:
            text = _native.summary_rule(game, label, _text(n, "n"), residues, report, call)
        described: dict[str, Any] = json.loads(text)
        described.setdefault("apparent_period", None)
        return described
    spec, total, count, name = _run_arguments(game, n, threads, engine)
    listed = _flag(ppos, "ppos")
    residues = None if modulus is None else _text(modulus, "modulus")
    stop = _flag(until_period, "until_period")
    kept = None if window is None else _text(window, "window")
    call = _call(
        "summary",
        game,
        n,
        ppos=ppos,
        modulus=modulus,
        threads=threads,
        engine=engine,
        until_period=until_period,
        window=window,
    )
    with _progress(progress, int(total)) as report:
        text = _native.summary(spec, total, listed, residues, count, name, stop, kept, report, call)
    result: dict[str, Any] = json.loads(text)
    return result


def eval(
    game: Game,
    heaps: Iterable[Size],
    *,
    last: Optional[Size] = None,
    table: Optional[PathLike] = None,
) -> dict[str, Any]:
    """A position of ``game``, as ``nimsieve eval -f json`` gives it. ``heaps`` is a list (or
    tuple, array) of sizes; text, bytes, a single number, a set or a dict raise ``TypeError``.

    For a one-heap game the position is a sum of heaps: ``heaps`` (``{"size", "value",
    "method"}``, the method ``"closed form"``, ``"period"`` or ``"table"``), ``values``,
    ``nim_sum``, ``outcome`` (``"P"``: the player to move loses), ``winning_moves``, each
    ``{"heap", "from", "to"}`` plus ``"split": [a, b]`` when a take-and-break move leaves two
    heaps (``[a, b, c]`` for three, ``hex:`` codes), ``winning_classes`` (the winning splits
    of a take-and-break heap beyond its periodic table, each ``{"heap", "from", "removal",
    "residue", "modulus", "first", "last", "count"}``: the splits a + (from - removal - a) for
    a ≡ residue mod modulus, first ≤ a ≤ last) and ``all_winning_moves``. Heaps of any size are answered by closed forms and
    proven periods; ``table`` names a table file (e.g. a ``.bin`` that ``nimsieve grundy``
    wrote) to read values from instead of computing them.

    The games of several heaps that are not sums (``moore:K``, ``staircase``, ``northcott``,
    ``nimble``, ``poker-nim``, ``turning-turtles``, ``fibonacci-nim``, see :func:`games`)
    give ``position``, ``nim_heaps`` (when they map to Nim), ``value``, ``method``,
    ``outcome`` and ``winning_moves``, each ``{"changes": [{"index", "from", "to"}], "says"}``.
    ``last`` is the previous take in ``fibonacci-nim``.

    For a :data:`Rule` (see :func:`grundy`), the position is a sum of heaps whose values come
    from a table computed to the largest heap (``"method": "table"``); every winning move is
    listed, ``"split"`` giving the heaps of a move that leaves more than one.

    >>> nimsieve.eval("nim", [3, 4, 5])["winning_moves"]
    [{'heap': 0, 'from': 3, 'to': 1}]
    """
    if callable(game):
        _rule_only(last=last, table=table)
        return _evaluate_rule(game, [int(h) for h in _heaps(heaps)])
    spec = _string(game, "game", "nim")
    position = _heaps(heaps)
    limit = None if last is None else _text(last, "last")
    file = None if table is None else _path(table)
    text = _native.evaluate(spec, position, limit, file, None)
    result: dict[str, Any] = json.loads(text)
    return result


def misere(game: str, n: Size, *, max_size: Size = 1000) -> dict[str, Any]:
    """The misère quotient of ``game``'s heaps below ``n`` (with or without ``+misere``), as
    ``nimsieve misere GAME -n N -f json`` gives it: ``size``, ``generators`` (``{"name",
    "heap"}``), ``relations``, ``elements``, ``p_portion``, ``heap_elements`` (heap 0 to n - 1),
    ``grundy``, ``tame`` (Plambeck and Siegel's: isomorphic to some T_k; then also
    ``tame_quotient``, e.g. ``"T_2"``, and each heap's ``genus``), ``last_generator``, ``period``
    (``{"preperiod", "period", "proven"}`` or None) and ``states_checked``. A quotient of more
    than ``max_size`` elements (a candidate of more than 4 × ``max_size``, a proof of more than
    256 × ``max_size`` states) raises ``ValueError``.

    >>> nimsieve.misere("octal:0.75", 50)["size"]
    8
    """
    spec = _string(game, "game", "kayles")
    text = _native.misere(spec, _text(n, "n"), _text(max_size, "max_size"))
    result: dict[str, Any] = json.loads(text)
    return result


def load(path: PathLike, *, ppos: Optional[bool] = None) -> np.ndarray:
    """The table in a file nimsieve wrote (``.csv``, b-file ``.txt``, ``.npy``, ``.bin``,
    ``.u64``), checked as ``nimsieve stats`` checks it.

    Values come back read-only, in the smallest unsigned dtype (a ``.bin`` table is mapped in
    place when stored a whole byte or more wide); P-position lists as ``uint64``. A table of
    Wythoff's game comes back as its n×n array ``g[x, y]``, its P-pairs as a ``uint64`` array of
    rows ``(a_k, b_k)``. ``ppos`` says
    whether a b-file or ``.npy`` file holds P-positions, when neither its name (``-ppos``) nor
    the JSON summary beside it tells.
    """
    listed = None if ppos is None else _flag(ppos, "ppos")
    return _native.load(_path(path), listed)


def save(
    table: np.ndarray,
    path: PathLike,
    *,
    game: Optional[str] = None,
    ppos: bool = False,
    wide: Optional[int] = None,
) -> str:
    """Writes ``table`` to ``path`` in the format its extension names (``.csv``, b-file ``.txt``,
    ``.npy``, ``.bin``, ``.u64``, ``.xlsx``, ``.json``), as ``nimsieve grundy`` writes it,
    atomically; a table file is read back and compared with ``table`` before this returns.

    ``table`` is a 1-D array of values g(0), g(1), … (unsigned, below 2^32), or with
    ``ppos=True`` of P-positions, ascending. ``game`` names the game (a spec), written in
    ``.bin`` headers and JSON summaries, which then prove the period of a finite subtraction
    set. ``wide``: CSV and xlsx rows of that many values. The file records this call as its
    provenance. Returns the path written.

    >>> g = nimsieve.load("output/squares-1000.bin"); nimsieve.save(g, "squares.csv")
    'squares.csv'
    """
    listed = _flag(ppos, "ppos")
    array = np.asarray(table)
    if array.ndim != 1:
        raise ValueError(f"table must be one-dimensional, got shape {array.shape}")
    if array.size and (array.dtype.kind not in "ui" or int(array.min()) < 0):
        raise TypeError(f"table must hold non-negative integers, got dtype {array.dtype}")
    spec = None if game is None else _string(game, "game", "squares")
    rows = None if wide is None else _integer(wide, "wide", "an int")
    target = _path(path)
    call = _call("save", _Named("table"), target, game=game, ppos=ppos, wide=wide)
    if listed:
        positions = np.ascontiguousarray(array, dtype=np.uint64)
        written = _native.save(None, positions, target, rows, spec, call)
    else:
        if array.size and int(array.max()) >= 2**32:
            raise ValueError("table holds a value of 2^32 or more; values are below 2^32")
        values = np.ascontiguousarray(array, dtype=np.uint32)
        written = _native.save(values, None, target, rows, spec, call)
    return os.fsdecode(written[0]) if written else target


def convert(
    source: PathLike,
    formats: Union[str, Iterable[str]],
    *,
    output: Optional[PathLike] = None,
    wide: Optional[int] = None,
    game: Optional[str] = None,
    ppos: Optional[bool] = None,
) -> list[str]:
    """The table in ``source`` written in ``formats`` (``"csv,npy"`` or a list), as
    ``nimsieve convert`` writes it: beside ``source`` under its name, or into the folder
    ``output`` (a path ending in ``/`` or an existing folder), or to the file ``output`` (one
    format). Each table written is read back and compared with ``source``; the files keep the
    provenance of ``source``. Returns the paths written.

    >>> nimsieve.convert("output/squares-1000.bin", "csv,npy")
    ['output/squares-1000.csv', 'output/squares-1000.npy']
    """
    names = formats.split(",") if isinstance(formats, str) else [_string(f, "a format", "csv") for f in formats]
    target = None if output is None else _path(output)
    rows = None if wide is None else _integer(wide, "wide", "an int")
    spec = None if game is None else _string(game, "game", "squares")
    listed = None if ppos is None else _flag(ppos, "ppos")
    call = _call("convert", _path(source), formats, output=target, wide=wide, game=game, ppos=ppos)
    written = _native.convert(_path(source), [n.strip() for n in names], target, rows, spec, listed, call)
    return [os.fsdecode(p) for p in written]


def compare(a: PathLike, b: PathLike, *, ppos: Optional[bool] = None) -> dict[str, Any]:
    """Two table files compared entry by entry, whatever their formats, as ``nimsieve compare``
    compares them (an OEIS b-file at its offset): ``equal``, ``what`` (``values``,
    ``P-positions``, ``cells``, ``pairs``), ``lengths``, ``compared`` (the entries both hold),
    ``differing``, ``first`` (``[index, entry in a, entry in b]`` of the first difference, or
    None) and ``starts`` (the position of each table's first value).

    >>> nimsieve.compare("output/squares-1000.csv", "b030193.txt")["equal"]
    True
    """
    listed = None if ppos is None else _flag(ppos, "ppos")
    result: dict[str, Any] = json.loads(_native.compare(_path(a), _path(b), listed))
    return result


def games() -> list[dict[str, Any]]:
    """Every game spec, as ``nimsieve games`` lists them: ``{"syntax", "description",
    "supports"}``, where ``supports`` lists what nimsieve does with the game: ``grundy``
    (tables), ``ppos``, ``eval``, ``verify``, ``stats`` and ``plot`` (none for a modifier)."""
    return [{"syntax": s, "description": d, "supports": w} for s, d, w in _native.games()]


def engines() -> list[dict[str, str]]:
    """The engines ``engine=`` accepts: ``{"name", "description"}``."""
    return [{"name": s, "description": d} for s, d in _native.engines()]


def _text(number: Size, name: str) -> str:
    """A size as the text the command line would parse, so messages read the same; a
    TypeError naming the argument ``name`` for anything that is not a size."""
    if isinstance(number, str):
        return number
    if isinstance(number, float):
        return str(int(number)) if math.isfinite(number) and number.is_integer() else repr(number)
    return str(_integer(number, name, "a size (an int, a whole float, or text such as '1e6')"))


def _integer(number: Any, name: str, wanted: str) -> int:
    """An int (or NumPy integer) as an int; a TypeError for anything else, bools included."""
    if not isinstance(number, bool):
        try:
            return operator.index(number)
        except TypeError:
            pass
    raise TypeError(f"{name} must be {wanted}, got {type(number).__name__} {number!r:.40}")


def _string(value: Any, name: str, example: str) -> str:
    """Text, or a TypeError naming the argument."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be text such as {example!r}, got {type(value).__name__}")
    return value


def _flag(value: Any, name: str) -> bool:
    """True or False (also NumPy's), or a TypeError naming the argument."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r:.40}")
    return bool(value)


def _path(path: PathLike) -> str:
    """A file name (text, bytes or a path object) as text."""
    return os.fsdecode(path)


def _heaps(heaps: Iterable[Size]) -> list[str]:
    """Heap sizes as text: from a list, tuple, array or other sequence in order. Text and bytes
    (whose characters are no heaps), a single number, and sets and dicts (no order, no
    repeated heaps) raise TypeError."""
    if isinstance(heaps, (str, bytes, bytearray, AbstractSet, Mapping)) or not isinstance(
        heaps, Iterable
    ):
        raise TypeError(
            "heaps must be a list of heap sizes such as [3, 4, 5] (one heap: [N]), got "
            f"{type(heaps).__name__} {heaps!r:.40}"
        )
    return [_text(h, "a heap") for h in heaps]


def _rule_only(**given: Any) -> None:
    """Refuses the arguments that apply to game specs only, when a rule is given."""
    for name, value in given.items():
        if value not in (None, False):
            raise ValueError(f"{name}= applies to game specs, not to a rule written in Python; leave it out")


def _evaluate_rule(rule: Rule, heaps: list[int]) -> dict[str, Any]:
    """A sum of heaps of a rule written in Python, as :func:`eval` gives a game's."""
    g = grundy(rule, max(heaps, default=0) + 1)
    values = [int(g[h]) for h in heaps]
    nim_sum = 0
    for v in values:
        nim_sum ^= v
    moves: list[dict[str, Any]] = []
    if nim_sum:
        for index, (heap, value) in enumerate(zip(heaps, values)):
            for option in rule(heap):
                parts = [option] if isinstance(option, int) else sorted(int(p) for p in option)
                reached = 0
                for part in parts:
                    reached ^= int(g[part])
                if reached == value ^ nim_sum:
                    move: dict[str, Any] = {"heap": index, "from": heap, "to": sum(parts)}
                    if len(parts) > 1:
                        move["split"] = parts
                    moves.append(move)
    name = getattr(rule, "__name__", type(rule).__name__)
    return {
        "game": f"python:{name}",
        "heaps": [{"size": h, "value": v, "method": "table"} for h, v in zip(heaps, values)],
        "values": values,
        "nim_sum": nim_sum,
        "outcome": "N" if nim_sum else "P",
        "winning_moves": moves,
        "all_winning_moves": True,
    }


def _run_arguments(
    game: str, n: Size, threads: Optional[int], engine: Optional[str]
) -> tuple[str, str, Optional[int], Optional[str]]:
    """The arguments every table function passes on: the spec, the size checked as the
    command line checks ``-n``, the thread count and the engine name."""
    spec = _string(game, "game", "sub:1,3,4")
    total = str(_native.size(_text(n, "n")))
    count = None if threads is None else _integer(threads, "threads", "an int")
    if count is not None and count < 0:
        raise ValueError(f"threads={count} is negative; give at least 1, or None for one a core")
    name = None if engine is None else _string(engine, "engine", "reference")
    return spec, total, count, name


class _Named:
    """A function shown by its name in a call's text."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def _call(function: str, *arguments: Any, **options: Any) -> str:
    """The call as it reads in Python, for the provenance of what it writes:
    ``nimsieve.grundy('squares', 1000, path='g.npy')`` (options left at their defaults
    omitted)."""
    given = [repr(a) for a in arguments]
    given += [f"{key}={value!r}" for key, value in options.items() if value not in (None, False)]
    return f"nimsieve.{function}({', '.join(given)})"


def _mapped(descriptor: int) -> np.memmap:
    """The ``.npy`` file open as ``descriptor`` (closed here) as a read-only memmap: the file
    the call wrote, whatever has happened to its name since."""
    with os.fdopen(descriptor, "rb") as file:
        file.seek(0)
        np.lib.format.read_magic(file)
        shape, fortran_order, dtype = np.lib.format.read_array_header_1_0(file)
        return np.memmap(
            file,
            dtype=dtype,
            mode="r",
            shape=shape,
            offset=file.tell(),
            order="F" if fortran_order else "C",
        )


class _progress:
    """A tqdm bar over ``total`` positions while a run lasts, or nothing; yields the callback
    the engine's supervisor calls with the count done and the count the run is heading for
    (cells for Wythoff's game), which replaces ``total`` when the run sets one."""

    def __init__(self, shown: bool, total: int) -> None:
        self.shown = shown
        self.total = total
        self.bar: Any = None

    def __enter__(self) -> Optional[Callable[[int, Optional[int]], None]]:
        if not self.shown:
            return None
        from tqdm.auto import tqdm  # type: ignore[import-untyped]

        self.bar = tqdm(total=self.total, unit=" positions", unit_scale=True, dynamic_ncols=True)
        bar = self.bar

        def report(done: int, total: Optional[int]) -> None:
            if total is not None and total != bar.total:
                bar.total = total
                bar.refresh()
            if done > bar.n:
                bar.update(done - bar.n)

        return report

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if self.bar is not None:
            self.bar.close()

