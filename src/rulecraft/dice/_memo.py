"""A bounded memo for pure functions of a pool.

The dice module keeps one memo per derived table (distributions, roll tables).  It holds
no game state: a memo only remembers results of pure functions, so dropping it changes
speed, never results (the same contract as :func:`functools.lru_cache`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Remembers ``compute(key)`` for up to ``maxsize`` keys (oldest inserted dropped first).

    >>> calls = []
    >>> square = Memo(lambda k: calls.append(k) or k * k, maxsize=2)
    >>> square(3), square(3), calls
    (9, 9, [3])
    """

    __slots__ = ("_compute", "_data", "maxsize")

    def __init__(self, compute: Callable[[K], V], maxsize: int = 4096) -> None:
        self._compute = compute
        self._data: dict[K, V] = {}
        self.maxsize = maxsize

    def __call__(self, key: K) -> V:
        try:
            return self._data[key]
        except KeyError:
            pass
        value = self._compute(key)
        if len(self._data) >= self.maxsize:
            del self._data[next(iter(self._data))]
        self._data[key] = value
        return value

    def clear(self) -> None:
        """Forget everything (benchmarks use it to time the uncached path)."""
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)
