"""Rolling dice: one recorded roll from a game's stream, or millions in a numpy batch.

:func:`roll` draws from the game's :class:`~rulecraft.rng.Rng`, so the
same seed and counter give the same roll (replays are identical), and returns a
:class:`RollResult` record that round-trips through JSON.

>>> from rulecraft.dice.pool import Pool
>>> from rulecraft.rng import Rng
>>> result, rng = roll(Pool.parse("3d6"), Rng(7))
>>> result == roll(Pool.parse("3d6"), Rng(7))[0], rng.counter
(True, 1)
>>> RollResult.from_json(result.to_json()) == result
True
>>> sample(Pool.parse("2d6"), 4, seed=1).shape
(4, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from rulecraft.dice._memo import Memo
from rulecraft.dice.exact import _INT64_SAFE, SymbolCounts, distribution
from rulecraft.dice.pool import Pool
from rulecraft.dice.spec import DieType
from rulecraft.rng import Rng, randbelow

_GROUP_LIMIT = 1 << 16
"""Most joint outcomes one random draw covers (and most cached results per pool)."""

_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class RollResult:
    """One roll: the face shown by each die (die name, face index) and the symbol counts.

    ``counts`` is read-only, covers every symbol the pool can show (automatic ones
    included) and answers 0 for any other symbol.
    """

    faces: tuple[tuple[str, int], ...]
    counts: Mapping[str, int]

    def __post_init__(self) -> None:
        if not isinstance(self.counts, MappingProxyType):
            object.__setattr__(self, "counts", MappingProxyType(SymbolCounts(self.counts)))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"faces": [[name, index], ...], "counts": {...}}``."""
        return {"faces": [[name, face] for name, face in self.faces], "counts": dict(self.counts)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RollResult:
        """The inverse of :meth:`to_json` (raises ``ValueError`` on malformed data)."""
        try:
            faces = tuple((str(name), int(face)) for name, face in data["faces"])
            counts = {str(s): int(n) for s, n in dict(data["counts"]).items()}
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a roll result: {error}") from error
        return cls(faces, counts)


@dataclass(frozen=True, slots=True)
class _Group:
    """Dice drawn with one random number: ``size`` joint outcomes, mixed radix."""

    names: tuple[str, ...]
    radix: tuple[int, ...]
    expanded: tuple[tuple[int, ...], ...]  # per die: outcome -> face index (weights repeat)
    vectors: tuple[tuple[tuple[int, ...], ...], ...]  # per die: face -> symbol counts
    size: int

    def decode(self, index: int) -> tuple[list[tuple[str, int]], list[int]]:
        faces: list[tuple[str, int]] = []
        totals = [0] * (len(self.vectors[0][0]) if self.vectors else 0)
        for name, radix, expanded, vectors in zip(
            self.names, self.radix, self.expanded, self.vectors, strict=True
        ):
            index, outcome = divmod(index, radix)
            face = expanded[outcome]
            faces.append((name, face))
            for a, v in enumerate(vectors[face]):
                totals[a] += v
        return faces, totals


class _RollPlan:
    """Per-pool tables for :func:`roll`: groups of dice and, for one group, a result cache."""

    __slots__ = ("auto", "cache", "groups", "symbols")

    def __init__(self, pool: Pool) -> None:
        self.symbols = pool.symbols
        auto = dict(pool.auto)
        self.auto = [auto.get(s, 0) for s in self.symbols]
        self.groups: list[_Group] = []
        pending: list[DieType] = []
        size = 1
        for die in pool.each_die():
            if pending and size * die.outcomes > _GROUP_LIMIT:
                self.groups.append(self._group(pending))
                pending, size = [], 1
            pending.append(die)
            size *= die.outcomes
        self.groups.append(self._group(pending))
        self.cache: list[RollResult | None] = (
            [None] * self.groups[0].size if len(self.groups) == 1 else []
        )

    def _group(self, dice: list[DieType]) -> _Group:
        expanded = tuple(
            tuple(face for face, w in enumerate(die.weights) for _ in range(w)) for die in dice
        )
        vectors = tuple(
            tuple(tuple(dict(face).get(s, 0) for s in self.symbols) for face in die.faces)
            for die in dice
        )
        size = 1
        for die in dice:
            size *= die.outcomes
        return _Group(
            tuple(d.name for d in dice), tuple(d.outcomes for d in dice), expanded, vectors, size
        )

    def result(self, draws: list[int]) -> RollResult:
        faces: list[tuple[str, int]] = []
        totals = list(self.auto)
        for group, index in zip(self.groups, draws, strict=True):
            group_faces, group_totals = group.decode(index)
            faces.extend(group_faces)
            for a, v in enumerate(group_totals):
                totals[a] += v
        return RollResult(tuple(faces), dict(zip(self.symbols, totals, strict=True)))


_plans: Memo[Pool, _RollPlan] = Memo(_RollPlan, maxsize=1024)


def roll(pool: Pool, rng: Rng) -> tuple[RollResult, Rng]:
    """Roll ``pool`` with numbers from ``rng``; returns the result and the advanced stream.

    Dice are read in signature order; a pool of up to 65,536 joint outcomes takes one
    number from the stream (larger pools take one per group of dice).
    """
    plan = _plans(pool)
    cache = plan.cache
    if cache:
        index, rng = randbelow(rng, len(cache))
        result = cache[index]
        if result is None:
            result = cache[index] = plan.result([index])
        return result, rng
    draws: list[int] = []
    for group in plan.groups:
        index, rng = randbelow(rng, group.size)
        draws.append(index)
    return plan.result(draws), rng


def sample(
    pool: Pool,
    n: int,
    seed: int,
    *,
    method: Literal["auto", "joint", "dice"] = "auto",
) -> npt.NDArray[np.int64]:
    """``n`` independent rolls of ``pool`` as symbol counts, shape ``(n, len(pool.symbols))``.

    Columns follow ``pool.symbols``.  ``"joint"`` draws whole outcomes from the exact
    distribution (one random integer per roll, any pool size); ``"dice"`` rolls every die
    through a lookup table.  ``"auto"`` picks ``"joint"`` when its integer arithmetic is
    exact in 64 bits.  Both are seeded numpy PCG64 streams: same seed, same array.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    if method == "auto":
        method = "joint" if distribution(pool).total < _INT64_SAFE else "dice"
    generator = np.random.default_rng(seed)
    if method == "joint":
        return _sample_joint(pool, n, generator)
    if method == "dice":
        return _sample_dice(pool, n, generator)
    raise ValueError(f"unknown sampling method {method!r}")


_DIRECT_LIMIT = 1 << 20
"""Pools with at most this many joint outcomes sample by direct lookup (no search)."""


@dataclass(frozen=True, slots=True)
class _JointTable:
    """Cumulative outcome counts for search, or a row per equally likely outcome."""

    cumulative: npt.NDArray[np.int64]
    outcomes: npt.NDArray[np.int64]
    total: int
    direct: npt.NDArray[np.int64] | None


def _joint_table(pool: Pool) -> _JointTable:
    dist = distribution(pool)
    if dist.total >= _INT64_SAFE:
        raise ValueError("pool too large for joint sampling; use method='dice'")
    if not dist.symbols:
        empty = np.zeros((1, 0), np.int64)
        return _JointTable(np.asarray([dist.total]), empty, dist.total, None)
    flat = np.asarray(dist.counts, dtype=np.int64).ravel()
    cells = np.nonzero(flat)[0]
    outcomes = np.stack(np.unravel_index(cells, dist.counts.shape), axis=1).astype(np.int64)
    outcomes += np.asarray(dist.offsets, dtype=np.int64)
    direct = np.repeat(outcomes, flat[cells], axis=0) if dist.total <= _DIRECT_LIMIT else None
    return _JointTable(np.cumsum(flat[cells]), outcomes, dist.total, direct)


_joint_tables: Memo[Pool, _JointTable] = Memo(_joint_table, maxsize=256)


def _sample_joint(pool: Pool, n: int, generator: np.random.Generator) -> npt.NDArray[np.int64]:
    table = _joint_tables(pool)
    if table.direct is not None:
        draws = generator.integers(0, table.total, size=n, dtype=np.uint32)
        return table.direct[draws]
    wide = generator.integers(0, table.total, size=n, dtype=np.int64)
    return table.outcomes[np.searchsorted(table.cumulative, wide, side="right")]


def _sample_dice(pool: Pool, n: int, generator: np.random.Generator) -> npt.NDArray[np.int64]:
    symbols = pool.symbols
    auto = dict(pool.auto)
    out = np.empty((n, len(symbols)), dtype=np.int64)
    out[:] = [auto.get(s, 0) for s in symbols]
    for die, count in pool.dice:
        rows = [
            [dict(die.faces[f]).get(s, 0) for s in symbols]
            for f, w in enumerate(die.weights)
            for _ in range(w)
        ]
        table = np.asarray(rows, dtype=np.int64)
        for start in range(0, n, _CHUNK):
            stop = min(n, start + _CHUNK)
            draws = generator.integers(0, die.outcomes, size=(stop - start, count))
            out[start:stop] += table[draws].sum(axis=1)
    return out
