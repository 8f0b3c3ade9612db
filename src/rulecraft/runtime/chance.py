"""Chance in a game: every roll goes through the dice engine with the game's own stream.

A pool in the language is an amount of die types (``2 white + 1 red``, ``3 d6``); here it
becomes a :class:`rulecraft.dice.Pool`, is rolled with the state's :class:`Rng`, and the
result (symbol counts plus the faces shown) is stored as plain data, so replays match.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulecraft.dice import DiceSet, DieType, Pool, distribution
from rulecraft.dice import roll as dice_roll
from rulecraft.dice.exact import TooManyOutcomes
from rulecraft.rng import randbelow
from rulecraft.runtime import engine as E
from rulecraft.runtime.arrange import NEXT_FACES, forced_face, forced_roll
from rulecraft.runtime.engine import Ctx, RuleError
from rulecraft.runtime.state import State


def make_pool(dice: DiceSet | None, amounts: Any, min_dice: int = 0) -> Pool:
    """A dice pool from ``{die name: count}`` (``d6``-style names are plain dice).

    A count of 0 or less is a die type the pool lost.  With ``min_dice`` (the manifest's
    ``rolls.min_dice``), a pool left with fewer dice gets back the strongest dice it lost
    (by ``order``), one at a time: "You always roll at least 1 die", and the roller keeps
    the best.

    >>> from rulecraft.dice import DiceSet
    >>> ds = DiceSet.from_spec({"white": {"faces": [[], ["hit"]], "order": 1},
    ...                         "red": {"faces": [["hit"], ["hit", "hit"]], "order": 2}})
    >>> str(make_pool(ds, {"white": -1, "red": 0}, min_dice=1))
    '1 red'
    """
    if not isinstance(amounts, dict):
        raise RuleError(f"expected dice such as '2 white', got {amounts!r}")
    counts: dict[DieType, int] = {}
    lost: list[DieType] = []
    auto: dict[str, int] = {}
    for name, n in amounts.items():
        n = int(n)
        if name.startswith("+"):
            auto[name[1:]] = auto.get(name[1:], 0) + n
            continue
        if name[:1] == "d" and name[1:].isdigit() and (len(name) > 5 or int(name[1:]) > E.MAX_DICE):
            # A plain dN die is built with its N faces: d2000000000 would never finish.
            raise RuleError(f"a {name} has more than {E.MAX_DICE:,} sides", E.TOO_LARGE)
        die = dice.get(name) if dice is not None else None
        if die is None and name[:1] == "d" and name[1:].isdigit():
            die = DieType.plain(int(name[1:]))
        if die is None:
            raise RuleError(f"unknown die type {name!r}")
        if n <= 0:
            lost.append(die)
            continue
        counts[die] = counts.get(die, 0) + n
        if sum(counts.values()) > E.MAX_DICE:
            raise RuleError(f"a roll of more than {E.MAX_DICE:,} dice", E.TOO_LARGE)
    # Strongest first: a higher `order`, then the name (dice without an order rank last).
    lost.sort(key=lambda d: (d.order is not None, d.order or 0, d.name), reverse=True)
    for die in lost:
        if sum(counts.values()) >= min_dice:
            break
        if die not in counts:
            counts[die] = 1
    if not counts:
        floor = "" if min_dice else " (a ruleset may declare `rolls: {min_dice: 1}`)"
        raise RuleError(f"a roll needs at least one die{floor}")
    return Pool.of(counts, auto or None)


# The key of a throwaway copy's memory under which its rolls are recorded (Game.option_odds
# plays each option on a copy; a game that is kept never has it).
PROBE = "probe_rolls"


@dataclass(frozen=True, slots=True)
class RollOdds:
    """What one option of a decision rolls before the next decision, and the exact chances.

    ``pool`` is the pool as text (``3 dig``); ``symbols`` has one line per symbol the pool
    can show (``hazard: 0 57.87%, 1 34.72%, 2 6.94%, 3 0.46%``); ``test`` is the chance to
    pass when the option leads to a ``test``; ``depends`` is true when a random draw (a
    shuffle, another roll) came first, so the pool itself may vary.
    """

    option: str
    label: str
    pool: str
    symbols: tuple[str, ...]
    test: str | None = None
    depends: bool = False


def start_probe(st: State) -> None:
    """Record the rolls of this (throwaway) state from now on."""
    st["mem"][PROBE] = {"rng": list(st["rng"]), "rolls": []}


def probed_rolls(st: State) -> list[dict[str, Any]]:
    """The rolls recorded since :func:`start_probe`: ``{"pool": amounts, "fresh": bool}``."""
    probe = st["mem"].get(PROBE)
    return list(probe["rolls"]) if probe else []


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def pool_odds(ctx: Ctx, amounts: Any) -> tuple[str, tuple[str, ...]]:
    """A pool as text and, per symbol, the exact chance of each count (the range and the
    mean when more than eight counts are possible).

    >>> from rulecraft.dice import DiceSet
    >>> from types import SimpleNamespace
    >>> dice = DiceSet.from_spec({"dig": {"faces": [["gem"], ["hazard"], []]}})
    >>> ctx = SimpleNamespace(prog=SimpleNamespace(dice=dice, min_dice=0))
    >>> pool_odds(ctx, {"dig": 2})
    ('2 dig', ('gem: 0 44.44%, 1 44.44%, 2 11.11%', 'hazard: 0 44.44%, 1 44.44%, 2 11.11%'))
    """
    pool = make_pool(ctx.prog.dice, amounts, ctx.prog.min_dice)
    try:
        dist = distribution(pool)
    except TooManyOutcomes:  # shown at the prompt: an answer, not a crash (issue 17)
        return str(pool), ("too many outcomes to compute the exact chances",)
    lines: list[str] = []
    for symbol in dist.symbols:
        rows = dist.at_least_table(symbol)
        if len(rows) <= 8:
            cells = ", ".join(f"{k} {_percent(p)}" for k, p, _ in rows)
        else:
            mean = float(dist.mean(symbol))
            cells = f"{rows[0][0]} to {rows[-1][0]}, mean {mean:.2f}"
        lines.append(f"{symbol}: {cells}")
    return str(pool), tuple(lines)


#: At most this many pools are kept per ruleset (a hostile one could make a new pool at
#: every roll).
POOLS_KEPT = 4096


def _pool_of(ctx: Ctx, amounts: Any) -> Pool:
    """:func:`make_pool` for the game's dice, made once per amounts (:attr:`Program.pools`);
    amounts that are not a mapping of plain values are made each time (and refused)."""
    key: tuple[Any, ...] | None = None
    if isinstance(amounts, dict):
        key = tuple(amounts.items())
        try:
            known: Pool | None = ctx.prog.pools.get(key)
        except TypeError:  # an unhashable amount: make_pool says what is wrong
            key = known = None
        if known is not None:
            return known
    pool = make_pool(ctx.prog.dice, amounts, ctx.prog.min_dice)
    if key is not None and len(ctx.prog.pools) < POOLS_KEPT:
        ctx.prog.pools[key] = pool
    return pool


def roll_pool(ctx: Ctx, amounts: Any) -> dict[str, Any]:
    pool = _pool_of(ctx, amounts)
    # Faces queued by an arrangement (a scenario's `setup: dice:`) come first.
    forced = forced_roll(ctx, pool) if ctx.st["mem"].get(NEXT_FACES) else None
    probe = ctx.st["mem"].get(PROBE)
    if probe is not None:
        fresh = forced is None and ctx.st["rng"] == probe["rng"]
        probe["rolls"].append({"pool": dict(amounts), "fresh": fresh})
    if forced is None:
        result, rng = dice_roll(pool, E.take_rng(ctx))
        E.put_rng(ctx, rng)
    else:
        result = forced
    out: dict[str, Any] = dict(result.counts)
    out["faces"] = [[name, face] for name, face in result.faces]
    shown = ", ".join(f"{n} {s}" for s, n in sorted(result.counts.items()) if n) or "nothing"
    ctx.say(f"Rolled {pool}: {shown}")
    return out


def _die(ctx: Ctx, name: str) -> DieType:
    dice: DiceSet | None = ctx.prog.dice
    die: DieType | None = dice.get(name) if dice is not None else None
    if die is None and name[:1] == "d" and name[1:].isdigit():
        die = DieType.plain(int(name[1:]))
    if die is None:
        raise RuleError(f"unknown die type {name!r}")
    return die


def _weighted_face(die: DieType, pick: int) -> int:
    """The face that outcome ``pick`` (0 <= pick < die.outcomes) lands on."""
    for index, weight in enumerate(die.weights):
        if pick < weight:
            return index
        pick -= weight
    return len(die.weights) - 1


def die_records(ctx: Ctx, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The dice of a roll, one record each: ``{"": label, "i": index, "die": name, symbol:
    count, ...}`` (``r.dice``; what ``reroll ... where`` tests as ``it``)."""
    out: list[dict[str, Any]] = []
    for i, (name, face) in enumerate(result.get("faces", [])):
        symbols = _die(ctx, name).face_counts(int(face))
        shown = ", ".join(f"{n} {s}" if n != 1 else s for s, n in symbols.items()) or "blank"
        record: dict[str, Any] = {"": f"{name} die {i + 1}: {shown}", "i": i, "die": name}
        record.update(symbols)
        out.append(record)
    return out


def reroll_dice(ctx: Ctx, result: dict[str, Any], indices: list[int]) -> dict[str, Any]:
    """The roll with the dice at ``indices`` rolled again (the game's stream, logged)."""
    out = {k: v for k, v in result.items() if k != "faces"}
    faces = [list(f) for f in result["faces"]]
    rng = E.take_rng(ctx)
    for i in sorted(set(indices)):
        name, old = faces[i]
        die = _die(ctx, name)
        for symbol, n in die.face_counts(int(old)).items():
            out[symbol] = out.get(symbol, 0) - n
        queued = forced_face(ctx, name) if ctx.st["mem"].get(NEXT_FACES) else None
        if queued is None:
            pick, rng = randbelow(rng, die.outcomes)
            face = _weighted_face(die, pick)
        else:
            face = queued
        faces[i] = [name, face]
        for symbol, n in die.face_counts(face).items():
            out[symbol] = out.get(symbol, 0) + n
    E.put_rng(ctx, rng)
    out["faces"] = faces
    if indices and ctx.log is not None:
        shown = ", ".join(f"{n} {s}" for s, n in sorted(out.items()) if s != "faces" and n)
        ctx.say(f"Rerolled {len(set(indices))} dice: {shown or 'nothing'}")
    return out


def test_pool(ctx: Ctx, skill: str, extra: Any) -> dict[str, int]:
    fn = ctx.prog.test_pool
    if fn is None:
        raise RuleError("this ruleset declares no tests: section")
    saved = dict(ctx.loc)
    ctx.loc["skill"] = skill
    try:
        pool = fn(ctx)
    finally:
        ctx.loc.clear()
        ctx.loc.update(saved)
    if not isinstance(pool, dict):
        raise RuleError(f"the test pool of {skill!r} is not dice: {pool!r}")
    pool = dict(pool)
    if extra is not None:
        for k, v in (extra(ctx) or {}).items():
            pool[k] = pool.get(k, 0) + int(v)
    return {k: int(v) for k, v in pool.items()}


def test_roll(ctx: Ctx, pool: dict[str, int], need: int) -> tuple[bool, dict[str, Any]]:
    result = roll_pool(ctx, pool)
    score = net_successes(ctx, result)
    passed = score >= need
    ctx.say(f"{score} of {need} needed: {'passed' if passed else 'failed'}")
    return passed, result


def net_successes(ctx: Ctx, counts: dict[str, Any]) -> int:
    prog = ctx.prog
    score = int(counts.get(prog.test_success, 0))
    if prog.test_cancel:
        score -= int(counts.get(prog.test_cancel, 0))
    return max(0, score)


def test_odds(ctx: Ctx, pool: dict[str, int], need: int) -> Fraction:
    """The exact chance that a test with ``pool`` scores at least ``need``."""
    dist = distribution(make_pool(ctx.prog.dice, pool, ctx.prog.min_dice))
    prog = ctx.prog
    if prog.test_cancel:
        table = dist.net(prog.test_success, prog.test_cancel)
        return sum((p for k, p in table.items() if k >= need), Fraction(0))
    return dist.at_least(prog.test_success, need)
