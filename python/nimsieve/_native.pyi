"""Type hints of the compiled engines (``python/src/lib.rs``); use the ``nimsieve`` package."""

from collections.abc import Iterable
from typing import Any, Callable, Optional

import numpy as np

__version__: str

def grundy(
    game: str,
    n: str,
    threads: Optional[int],
    engine: Optional[str],
    until_period: bool,
    progress: Optional[Callable[[int, Optional[int]], None]],
) -> np.ndarray: ...
def grundy_rule(
    rule: Callable[[int], Iterable[Any]],
    n: str,
    progress: Optional[Callable[[int, Optional[int]], None]],
) -> np.ndarray: ...
def summary_rule(
    rule: Callable[[int], Iterable[Any]],
    name: str,
    n: str,
    modulus: Optional[str],
    progress: Optional[Callable[[int, Optional[int]], None]],
    call: str,
) -> str: ...
def grundy_file(
    game: str,
    n: str,
    threads: Optional[int],
    engine: Optional[str],
    until_period: bool,
    progress: Optional[Callable[[int, Optional[int]], None]],
    path: str,
    call: str,
) -> int: ...
def ppos(
    game: str,
    n: str,
    threads: Optional[int],
    engine: Optional[str],
    progress: Optional[Callable[[int, Optional[int]], None]],
) -> np.ndarray: ...
def summary(
    game: str,
    n: str,
    ppos: bool,
    modulus: Optional[str],
    threads: Optional[int],
    engine: Optional[str],
    until_period: bool,
    window: Optional[str],
    progress: Optional[Callable[[int, Optional[int]], None]],
    call: str,
) -> str: ...
def evaluate(
    game: str,
    position: list[str],
    last: Optional[str],
    table: Optional[str],
    progress: Optional[Callable[[int, Optional[int]], None]],
) -> str: ...
def misere(game: str, n: str, max_size: str) -> str: ...
def load(path: str, ppos: Optional[bool]) -> np.ndarray: ...
def compare(a: str, b: str, ppos: Optional[bool]) -> str: ...
def save(
    values: Optional[np.ndarray],
    positions: Optional[np.ndarray],
    path: str,
    wide: Optional[int],
    game: Optional[str],
    call: str,
) -> list[str]: ...
def convert(
    source: str,
    names_of_formats: list[str],
    output: Optional[str],
    wide: Optional[int],
    game: Optional[str],
    ppos: Optional[bool],
    call: str,
) -> list[str]: ...
def games() -> list[tuple[str, str, list[str]]]: ...
def engines() -> list[tuple[str, str]]: ...
def size(text: str) -> int: ...
