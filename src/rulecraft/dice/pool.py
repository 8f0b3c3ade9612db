"""Pools: immutable multisets of die types plus automatic symbols.

>>> from rulecraft.dice.spec import DiceSet
>>> dice = DiceSet.from_spec({"white": {"faces": [[], ["success"]], "order": 1},
...                           "red": {"faces": [["success"], ["fate", "botch"]], "order": 4}})
>>> pool = Pool.parse("2 white + 1 red + 1 fate", dice)
>>> pool.signature, pool.auto
((('red', 1), ('white', 2)), (('fate', 1),))
>>> pool.remove("red", 5).remove("white", 5).signature  # never fewer than one die
(('white', 1),)
>>> PoolRules(max_per_die=2, max_total=3).apply(pool.add(dice["red"], 3)).signature
(('red', 2), ('white', 1))
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rulecraft.dice.spec import VALUE_SYMBOL, DiceSet, DieType


class PoolError(ValueError):
    """A pool expression or operation that makes no sense (unknown die, empty pool...)."""


_TERM = re.compile(
    r"""^\s*(?:
        (?P<n>\d+)?\s*d(?P<sides>\d+)            # 3d6, d8
      | (?P<count>\d+)\s+(?P<name>[A-Za-z_][\w\-]*)  # 2 white, 1 fate
      | (?P<single>[A-Za-z_][\w\-]*)              # white
      | (?P<const>\d+)                            # 2 (that many 'value')
    )\s*$""",
    re.VERBOSE,
)


_PLAIN_NAME = re.compile(r"^d[1-9][0-9]*$")


@dataclass(frozen=True, slots=True)
class Pool:
    """A multiset of die types and the symbols it obtains automatically.

    ``dice`` is sorted by die name; ``auto`` holds symbol counts added to every roll
    (negative counts model "lose 1 success").  Pools are hashable: the distribution and
    roll tables are cached per pool.
    """

    dice: tuple[tuple[DieType, int], ...]
    auto: tuple[tuple[str, int], ...] = ()
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        merged: dict[str, tuple[DieType, int]] = {}
        for die, count in self.dice:
            if count < 0:
                raise PoolError(f"negative count {count} of {die.name!r}")
            if die.name in merged:
                known, have = merged[die.name]
                if known != die:
                    raise PoolError(f"two different dice are called {die.name!r}")
                merged[die.name] = (die, have + count)
            else:
                merged[die.name] = (die, count)
        dice = tuple(merged[name] for name in sorted(merged) if merged[name][1] > 0)
        autos: dict[str, int] = {}
        for symbol, count in self.auto:
            autos[symbol] = autos.get(symbol, 0) + count
        auto = tuple(sorted((s, n) for s, n in autos.items() if n != 0))
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "auto", auto)
        object.__setattr__(self, "_hash", hash((dice, auto)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def of(cls, counts: Mapping[DieType, int], auto: Mapping[str, int] | None = None) -> Pool:
        """A pool from ``{die: count}`` and optional ``{symbol: count}``."""
        return cls(tuple(counts.items()), tuple((auto or {}).items()))

    @classmethod
    def parse(cls, text: str, dice: DiceSet | None = None) -> Pool:
        """Read ``"2 white + 1 red"``, ``"3d6 + 2"`` or ``"2 blue + 1 success"``.

        Terms are joined by ``+``: ``N name`` (``name`` alone is one), ``NdM`` for plain
        dice, a bare integer for that many ``value``, and ``N symbol`` for an automatic
        symbol (a name that is no die but is a symbol of the dice set).
        """
        dice = dice or DiceSet({})
        counts: dict[DieType, int] = {}
        auto: dict[str, int] = {}
        if not text.strip():
            raise PoolError("empty dice expression")
        for raw in text.split("+"):
            m = _TERM.match(raw)
            if m is None:
                raise PoolError(f"cannot read {raw.strip()!r} (try '3d6' or '2 white + 1 red')")
            if m["sides"] is not None:
                die = dice.get(f"d{int(m['sides'])}")
                if die is None or int(m["sides"]) == 0:
                    raise PoolError(f"a die needs at least one side: {raw.strip()!r}")
                n = int(m["n"]) if m["n"] else 1
                counts[die] = counts.get(die, 0) + n
            elif m["const"] is not None:
                auto[VALUE_SYMBOL] = auto.get(VALUE_SYMBOL, 0) + int(m["const"])
            else:
                name = m["name"] or m["single"]
                n = int(m["count"]) if m["count"] else 1
                die = dice.get(name)
                if die is not None:
                    counts[die] = counts.get(die, 0) + n
                elif name in dice.symbols or name == VALUE_SYMBOL:
                    auto[name] = auto.get(name, 0) + n
                else:
                    known = ", ".join(sorted(dice)) or "none declared; plain dice like 3d6 work"
                    raise PoolError(f"unknown die or symbol {name!r} (dice: {known})")
        pool = cls.of(counts, auto)
        if pool.size == 0:
            raise PoolError(f"{text.strip()!r} has no dice")
        return pool

    def __str__(self) -> str:
        terms = [
            f"{n}{die.name}" if _PLAIN_NAME.match(die.name) else f"{n} {die.name}"
            for die, n in self.dice
        ]
        terms += [f"{n} {symbol}" for symbol, n in self.auto]
        return " + ".join(terms)

    @property
    def signature(self) -> tuple[tuple[str, int], ...]:
        """Sorted ``(die name, count)`` pairs: what the pool is, independent of order."""
        return tuple((die.name, n) for die, n in self.dice)

    @property
    def size(self) -> int:
        """The number of dice."""
        return sum(n for _, n in self.dice)

    @property
    def symbols(self) -> tuple[str, ...]:
        """Every symbol the pool can show, automatic ones included, sorted."""
        names = {s for die, _ in self.dice for s in die.symbols} | {s for s, _ in self.auto}
        return tuple(sorted(names))

    def count(self, name: str) -> int:
        """How many dice called ``name`` the pool holds."""
        return next((n for die, n in self.dice if die.name == name), 0)

    def each_die(self) -> Iterator[DieType]:
        """Every die, one at a time, in signature order."""
        for die, n in self.dice:
            for _ in range(n):
                yield die

    def add(self, die: DieType, n: int = 1) -> Pool:
        """This pool with ``n`` more ``die`` (gain dice)."""
        if n < 0:
            return self.remove(die.name, -n)
        return Pool((*self.dice, (die, n)), self.auto)

    def remove(self, name: str, n: int = 1) -> Pool:
        """This pool with up to ``n`` fewer dice called ``name``, keeping at least one die."""
        have = self.count(name)
        take = min(n, have, self.size - 1)
        if take <= 0:
            return self
        return Pool(tuple((d, c - take if d.name == name else c) for d, c in self.dice), self.auto)

    def with_auto(self, symbol: str, n: int = 1) -> Pool:
        """This pool obtaining ``n`` more ``symbol`` automatically (negative: lose them)."""
        return Pool(self.dice, (*self.auto, (symbol, n)))


@dataclass(frozen=True, slots=True)
class PoolRules:
    """Caps on a pool: ``max_per_die`` of any one die type, ``max_total`` dice in all.

    ``per_die`` overrides the cap for named dice.  Over the total cap, dice are dropped
    from the weakest (lowest ``order``, then name) up, since the roller chooses which to
    lose and keeps the strongest.
    """

    max_per_die: int | None = None
    max_total: int | None = None
    per_die: Mapping[str, int] = field(default_factory=dict)

    def cap_for(self, name: str) -> int | None:
        """The most dice called ``name`` a pool may hold (``None``: unlimited)."""
        return self.per_die.get(name, self.max_per_die)

    def admits(self, pool: Pool) -> bool:
        """True when ``pool`` breaks no cap."""
        for die, n in pool.dice:
            cap = self.cap_for(die.name)
            if cap is not None and n > cap:
                return False
        return self.max_total is None or pool.size <= self.max_total

    def apply(self, pool: Pool) -> Pool:
        """``pool`` cut down to the caps (never below one die)."""
        counts: dict[DieType, int] = {}
        for die, n in pool.dice:
            cap = self.cap_for(die.name)
            counts[die] = n if cap is None else max(0, min(n, cap))
        weakest = sorted(counts, key=lambda d: (d.order is None, d.order or 0, d.name))
        total = sum(counts.values())
        if self.max_total is not None and total > max(self.max_total, 1):
            excess = total - max(self.max_total, 1)
            for die in weakest:
                drop = min(excess, counts[die])
                counts[die] -= drop
                excess -= drop
        if sum(counts.values()) == 0 and weakest:
            counts[weakest[-1]] = 1
        return Pool(tuple(counts.items()), pool.auto)
