"""Exact joint distributions of pools, by integer convolution of per-die count vectors.

Internally a distribution is a numpy array of outcome counts with one axis per symbol
(``counts[i, j, ...]`` ways to show ``i + offsets[0]`` of the first symbol, ...) out of
``total`` equally likely outcomes.  Integer arithmetic keeps it exact; the API returns
:class:`fractions.Fraction`.

>>> from rulecraft.dice.pool import Pool
>>> d = distribution(Pool.parse("2d6"))
>>> d.at_least("value", 11)
Fraction(1, 12)
>>> d.marginal("value")[7]
Fraction(1, 6)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from rulecraft.dice._memo import Memo
from rulecraft.dice.pool import Pool, PoolError
from rulecraft.dice.spec import DieType

_INT64_SAFE = 1 << 62
#: At most this much work (cells of the distribution times dice times distinct faces) for
#: one exact distribution: 200 dice of four symbols would fill 1.6 billion cells, a face
#: showing 2,000,000,000 hits 2 billion; both ran until memory or patience ran out.
MAX_WORK = 20_000_000


class TooManyOutcomes(PoolError, MemoryError):
    """A pool whose exact distribution is too large to compute (a ``MemoryError`` too, so
    a rule asking for it gets the runtime's RC304, "a value too large to build")."""


class SymbolCounts(dict[str, int]):
    """Symbol counts of one outcome; a symbol the pool cannot show counts 0."""

    def __missing__(self, key: str) -> int:
        return 0


Goal = Callable[[Mapping[str, int]], bool]
"""A test on one outcome's symbol counts, e.g. ``lambda c: c["success"] >= 3``."""


@dataclass(frozen=True, slots=True, eq=False)
class JointDistribution:
    """The exact joint distribution of every symbol a pool shows.

    ``counts`` is read-only; cell ``idx`` has ``counts[idx]`` outcomes of ``total``, and
    means symbol ``symbols[a]`` was shown ``idx[a] + offsets[a]`` times.
    """

    symbols: tuple[str, ...]
    offsets: tuple[int, ...]
    counts: npt.NDArray[Any]
    total: int

    def _axis(self, symbol: str) -> int | None:
        try:
            return self.symbols.index(symbol)
        except ValueError:
            return None

    def cells(self) -> Iterator[tuple[tuple[int, ...], int]]:
        """Every possible outcome as (symbol counts in ``symbols`` order, ways)."""
        if not self.symbols:  # only blank faces: one outcome, showing nothing
            yield (), self.total
            return
        for idx in zip(*np.nonzero(self.counts), strict=True):
            ways = int(self.counts[idx])
            yield tuple(int(i) + o for i, o in zip(idx, self.offsets, strict=True)), ways

    def outcomes(self) -> dict[tuple[int, ...], Fraction]:
        """Every possible outcome (counts in ``symbols`` order) with its probability."""
        return {key: Fraction(ways, self.total) for key, ways in self.cells()}

    def probability(self, goal: Goal) -> Fraction:
        """P(``goal(counts)``), ``counts`` a mapping from symbol to how many were shown."""
        hits = 0
        for key, ways in self.cells():
            if goal(SymbolCounts(zip(self.symbols, key, strict=True))):
                hits += ways
        return Fraction(hits, self.total)

    def _linear_ways(self, coefficients: Mapping[str, int]) -> dict[int, int]:
        axes = [(a, c) for s, c in coefficients.items() if (a := self._axis(s)) is not None]
        constant = 0
        if not axes:
            return {constant: self.total}
        keep = tuple(sorted(a for a, _ in axes))
        drop = tuple(a for a in range(len(self.symbols)) if a not in keep)
        sub = self.counts.sum(axis=drop) if drop else self.counts
        coeff = {a: c for a, c in axes}
        ways: dict[int, int] = {}
        for idx in zip(*np.nonzero(sub), strict=True):
            value = sum(
                coeff[a] * (int(i) + self.offsets[a]) for a, i in zip(keep, idx, strict=True)
            )
            ways[value] = ways.get(value, 0) + int(sub[idx])
        return dict(sorted(ways.items()))

    def linear(
        self, coefficients: Mapping[str, int], floor: int | None = None
    ) -> dict[int, Fraction]:
        """The distribution of ``sum(coefficient * count)``, raised to ``floor`` if given.

        ``linear({"hit": 1, "bonus": 1})`` counts hits plus bonuses.
        """
        ways: dict[int, int] = {}
        for value, n in self._linear_ways(coefficients).items():
            v = value if floor is None else max(floor, value)
            ways[v] = ways.get(v, 0) + n
        return {v: Fraction(n, self.total) for v, n in sorted(ways.items())}

    def marginal(self, symbol: str) -> dict[int, Fraction]:
        """P(exactly k of ``symbol``) for every possible k."""
        return self.linear({symbol: 1})

    def net(self, plus: str, minus: str, floor: int | None = 0) -> dict[int, Fraction]:
        """The distribution of ``plus - minus``, floored (successes minus botches, >= 0)."""
        return self.linear({plus: 1, minus: -1}, floor)

    def at_least(self, symbol: str, k: int) -> Fraction:
        """P(at least ``k`` of ``symbol``)."""
        ways = self._linear_ways({symbol: 1})
        return Fraction(sum(n for v, n in ways.items() if v >= k), self.total)

    def at_least_table(self, symbol: str) -> list[tuple[int, Fraction, Fraction]]:
        """Rows ``(k, P(exactly k), P(at least k))`` for every possible k."""
        ways = self._linear_ways({symbol: 1})
        rows: list[tuple[int, Fraction, Fraction]] = []
        tail = self.total
        for value, n in ways.items():
            rows.append((value, Fraction(n, self.total), Fraction(tail, self.total)))
            tail -= n
        return rows

    def mean(self, symbol: str) -> Fraction:
        """The expected count of ``symbol``."""
        ways = self._linear_ways({symbol: 1})
        return Fraction(sum(v * n for v, n in ways.items()), self.total)


def _die_vectors(
    die: DieType, symbols: Sequence[str]
) -> tuple[list[int], list[tuple[tuple[int, ...], int]]]:
    """Per-symbol minimum of the die's faces and its shifted face vectors, merged by weight."""
    rows = [[dict(face).get(s, 0) for s in symbols] for face in die.faces]
    low = [min(r[a] for r in rows) for a in range(len(symbols))]
    merged: dict[tuple[int, ...], int] = {}
    for row, weight in zip(rows, die.weights, strict=True):
        key = tuple(v - m for v, m in zip(row, low, strict=True))
        merged[key] = merged.get(key, 0) + weight
    return low, sorted(merged.items())


def _check_size(pool: Pool) -> None:
    """Raise :class:`TooManyOutcomes` before building a distribution beyond ``MAX_WORK``."""
    symbols = pool.symbols
    cells, work = 1, 0
    for a in range(len(symbols)):
        span = 0
        for die, n in pool.dice:
            _, vectors = _die_vectors(die, symbols)
            span += n * max(v[a] for v, _ in vectors)
        cells *= span + 1
    for die, n in pool.dice:
        work += n * len(_die_vectors(die, symbols)[1]) * cells
    if work > MAX_WORK:
        raise TooManyOutcomes(
            f"the exact chances of {pool} take {work:,} steps ({cells:,} combinations of "
            f"symbol counts); at most {MAX_WORK:,} are computed"
        )


def _compute(pool: Pool) -> JointDistribution:
    _check_size(pool)
    symbols = pool.symbols
    width = len(symbols)
    total = 1
    for die, n in pool.dice:
        total *= die.outcomes**n
    dtype: Any = np.int64 if total < _INT64_SAFE else object
    offsets = [0] * width
    auto = dict(pool.auto)
    for a, s in enumerate(symbols):
        offsets[a] = auto.get(s, 0)
    counts: npt.NDArray[Any] = np.ones((1,) * width, dtype=dtype)
    for die, n in pool.dice:
        low, vectors = _die_vectors(die, symbols)
        reach = [max(v[a] for v, _ in vectors) for a in range(width)]
        for a in range(width):
            offsets[a] += low[a] * n
        for _ in range(n):
            shape = tuple(s + r for s, r in zip(counts.shape, reach, strict=True))
            grown: npt.NDArray[Any] = np.zeros(shape, dtype=dtype)
            for vector, weight in vectors:
                window = tuple(slice(v, v + s) for v, s in zip(vector, counts.shape, strict=True))
                if weight == 1:
                    grown[window] += counts
                else:
                    grown[window] += counts * weight
            counts = grown
    counts.setflags(write=False)
    return JointDistribution(symbols, tuple(offsets), counts, total)


_distributions: Memo[Pool, JointDistribution] = Memo(_compute)


def distribution(pool: Pool) -> JointDistribution:
    """The exact joint distribution of ``pool``'s symbols (cached per pool)."""
    return _distributions(pool)


def clear_cache() -> None:
    """Forget cached distributions (only speed changes)."""
    _distributions.clear()


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Attack minus block: the margin's distribution and the chances to win, tie, lose."""

    margin: Mapping[int, Fraction]

    @property
    def win(self) -> Fraction:
        """P(attack > block)."""
        return sum((p for m, p in self.margin.items() if m > 0), Fraction(0))

    @property
    def tie(self) -> Fraction:
        """P(attack == block)."""
        return self.margin.get(0, Fraction(0))

    @property
    def loss(self) -> Fraction:
        """P(attack < block)."""
        return sum((p for m, p in self.margin.items() if m < 0), Fraction(0))


def _as_coefficients(symbols: str | Sequence[str]) -> dict[str, int]:
    names = [symbols] if isinstance(symbols, str) else list(symbols)
    coefficients: dict[str, int] = {}
    for name in names:
        coefficients[name] = coefficients.get(name, 0) + 1
    return coefficients


def opposed(
    attacker: Pool,
    defender: Pool,
    attack_symbol: str | Sequence[str],
    block_symbol: str | Sequence[str],
) -> OpposedResult:
    """The margin (attack symbols of ``attacker`` minus block symbols of ``defender``).

    Several symbols may be given for a side (``["sword", "bonus"]`` all count as hits).

    >>> from rulecraft.dice.pool import Pool
    >>> r = opposed(Pool.parse("1d6"), Pool.parse("1d6"), "value", "value")
    >>> r.win, r.tie
    (Fraction(5, 12), Fraction(1, 6))
    """
    da, db = distribution(attacker), distribution(defender)
    wa = da._linear_ways(_as_coefficients(attack_symbol))
    wb = db._linear_ways(_as_coefficients(block_symbol))
    ways: dict[int, int] = {}
    for va, na in wa.items():
        for vb, nb in wb.items():
            ways[va - vb] = ways.get(va - vb, 0) + na * nb
    denominator = da.total * db.total
    return OpposedResult({m: Fraction(n, denominator) for m, n in sorted(ways.items())})


@dataclass(frozen=True, slots=True)
class RerollAdvice:
    """Which dice to reroll (positions in the roll) and the resulting P(goal).

    ``keep`` is P(goal) without rerolling (0 or 1: the dice already show it), so the
    caller can decide whether paying for the reroll is worth it.
    """

    reroll: tuple[int, ...]
    probability: Fraction
    keep: Fraction


def best_reroll(
    pool: Pool,
    faces_rolled: Sequence[tuple[str, int]],
    goal: Goal,
    *,
    max_dice: int | None = None,
    allowed: Sequence[int] | None = None,
) -> RerollAdvice:
    """The reroll that maximises P(``goal``), given the faces showing.

    ``faces_rolled`` lists ``(die name, face index)`` per die (a :class:`RollResult`'s
    ``faces``); ``max_dice`` caps how many dice may be rerolled, ``allowed`` restricts
    which positions may be.  Ties go to fewer dice.  Dice showing the same face of the
    same die are interchangeable, so only distinct choices are evaluated.

    >>> from rulecraft.dice.pool import Pool
    >>> pool = Pool.parse("2d6")
    >>> advice = best_reroll(pool, [("d6", 0), ("d6", 5)], lambda c: c["value"] >= 10)
    >>> advice.reroll, advice.probability
    ((0,), Fraction(1, 2))
    """
    dice = {die.name: die for die, _ in pool.dice}
    rolled: list[tuple[DieType, int]] = []
    for name, face in faces_rolled:
        die = dice.get(name)
        if die is None or not 0 <= face < len(die.faces):
            raise PoolError(f"face {face} of die {name!r} is not in the pool")
        rolled.append((die, face))
    if sorted((d.name for d, _ in rolled)) != sorted(d.name for d in pool.each_die()):
        raise PoolError("the faces rolled do not match the pool's dice")
    permitted = set(range(len(rolled)) if allowed is None else allowed)
    groups: dict[tuple[str, int], list[int]] = {}
    for position, (die, face) in enumerate(rolled):
        if position in permitted:
            groups.setdefault((die.name, face), []).append(position)
    group_list = list(groups.values())
    limit = len(rolled) if max_dice is None else max_dice
    best: RerollAdvice | None = None
    best_key: tuple[Fraction, int, tuple[int, ...]] | None = None
    keep = Fraction(0)
    for choice in itertools.product(*(range(len(g) + 1) for g in group_list)):
        if sum(choice) > limit:
            continue
        chosen = tuple(sorted(p for g, k in zip(group_list, choice, strict=True) for p in g[:k]))
        probability = _reroll_probability(pool, rolled, chosen, goal)
        if not chosen:
            keep = probability
        key = (probability, -len(chosen), tuple(-p for p in chosen))
        if best_key is None or key > best_key:
            best_key, best = key, RerollAdvice(chosen, probability, Fraction(0))
    assert best is not None  # the empty choice is always evaluated
    return RerollAdvice(best.reroll, best.probability, keep)


def _reroll_probability(
    pool: Pool, rolled: Sequence[tuple[DieType, int]], chosen: tuple[int, ...], goal: Goal
) -> Fraction:
    kept: list[tuple[str, int]] = list(pool.auto)
    rerolled: dict[DieType, int] = {}
    for position, (die, face) in enumerate(rolled):
        if position in chosen:
            rerolled[die] = rerolled.get(die, 0) + 1
        else:
            kept.extend(die.faces[face])
    if not rerolled:
        counts = SymbolCounts()
        for symbol, n in kept:
            counts[symbol] += n
        return Fraction(1) if goal(counts) else Fraction(0)
    return distribution(Pool(tuple(rerolled.items()), tuple(kept))).probability(goal)


def odds_text(pool: Pool, symbol: str, at_least: int) -> str:
    """One line for a pending test: ``"P(success >= 2) = 17/36 (47.2%)"``.

    >>> from rulecraft.dice.pool import Pool
    >>> odds_text(Pool.parse("2d6"), "value", 7)
    'P(value >= 7) = 7/12 (58.3%) with 2d6'
    """
    p = distribution(pool).at_least(symbol, at_least)
    return f"P({symbol} >= {at_least}) = {p} ({float(p):.1%}) with {pool}"
