"""Arranging a position: put a game exactly where a rule matters.

A test of one rule ("a damaged camp is still ready") should not replay a long random
opening, nor edit the raw state by hand.  :class:`Arrangement` says, as plain data, what the
position is: cards put into zones in order, a card's side, flags, fields and face, a
player's or the game's resources, fields and flags, the next faces the dice show, and the
active seat and phase.  :func:`apply` makes it so on a running game, through the same doors
the rules use (``move``, ``set X.field to V``, flags), then lets the pending decision ask
again, so its options fit the new position.  ``Game.arrange`` and a scenario's ``setup:``
block are the two ways in; the format is in ``docs/scenarios.md`` and ``docs/api.md``.

Seats: the Python API counts them from 0, a scenario file from 1 (as players see them);
:meth:`Arrangement.read` takes the first seat's number.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(seed=1)
>>> game.arrange(zones={"b2": ["x#1"]})
Traceback (most recent call last):
...
ValueError: setup: no card 'x#1' in tictactoe
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulecraft.rng import Rng, randbelow
from rulecraft.runtime import engine as E
from rulecraft.runtime import ids
from rulecraft.runtime.engine import Ctx
from rulecraft.suggest import did_you_mean

__all__ = [
    "NEXT_FACES",
    "Arrangement",
    "CardSetup",
    "HolderSetup",
    "ZoneFill",
    "apply",
    "forced_face",
    "forced_roll",
]

# Where the queued dice faces wait in the state (``state["mem"]``): ``{die name: [face
# index, ...]}``, taken first to last by the next rolls of that die.  Plain data, so a
# saved game keeps them.
NEXT_FACES = "next_faces"

# The keys an arrangement (a scenario's ``setup:``) may have, in the order they apply.
SETUP_KEYS = ("active", "phase", "zones", "cards", "players", "game", "dice", "tiles")


class _Missing:
    """No value given (``owner: None`` means "nobody owns it", so ``None`` cannot say it)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(frozen=True, slots=True)
class ZoneFill:
    """Cards put on top of a zone in order (the last one on top).  With ``others_to``, the
    zone holds exactly ``cards`` afterwards: the cards it held before go, in order, on top
    of that shared zone first."""

    cards: tuple[str, ...] = ()
    others_to: str | None = None


@dataclass(frozen=True, slots=True)
class CardSetup:
    """A card's state: its ``side``, its ``flags`` (exactly these; ``()`` clears them), its
    ``fields`` (set as ``set card.FIELD to VALUE`` would: counters, fields, ``owner``), its
    ``owner`` (a seat, or ``None`` for nobody), and whether it lies ``face_down`` or is
    ``exhausted``.  ``None`` (or :data:`MISSING` for the owner) leaves a part as it is."""

    side: str | None = None
    flags: tuple[str, ...] | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    owner: Any = MISSING
    face_down: bool | None = None
    exhausted: bool | None = None


@dataclass(frozen=True, slots=True)
class HolderSetup:
    """A player's or the game's state: ``resources`` (declared resources, set within their
    bounds), other ``fields`` and ``flags`` (exactly these; ``()`` clears them)."""

    resources: Mapping[str, int] = field(default_factory=dict)
    fields: Mapping[str, Any] = field(default_factory=dict)
    flags: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A position to arrange (seats counted from 0).

    ``zones`` maps a zone name (or a map space) to the cards put on top of it in order, the
    last one listed on top (a :class:`ZoneFill`; read from a list, or from ``{cards,
    others_to}`` to say what the zone holds exactly); a zone every player has maps each
    seat to its cards.  ``dice``
    maps a die name to the faces its next rolls show (a number for a plain die, a symbol,
    a list of symbols, or ``blank``).  ``active`` and ``phase`` start that phase of that
    seat's turn (the phase's start rules run, then the rest of the arrangement applies).
    """

    zones: Mapping[str, ZoneFill | Mapping[int, ZoneFill]] = field(default_factory=dict)
    cards: Mapping[str, CardSetup] = field(default_factory=dict)
    players: Mapping[int, HolderSetup] = field(default_factory=dict)
    game: HolderSetup | None = None
    dice: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    active: int | None = None
    phase: str | None = None
    #: map tiles: slot -> the tile that lies there (the others keep their order)
    tiles: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, data: Mapping[str, Any], first_seat: int = 0) -> Arrangement:
        """An arrangement from plain data (a scenario's ``setup:``, ``Game.arrange``'s
        keywords); seats in it are counted from ``first_seat``.  ``ValueError`` says what
        is wrong.

        >>> Arrangement.read({"players": {1: {"resources": {"gold": 3}}}}, first_seat=1)
        ... # doctest: +ELLIPSIS
        Arrangement(zones={}, cards={}, players={0: HolderSetup(resources={'gold': 3}, ...)
        """
        unknown = [k for k in data if k not in SETUP_KEYS]
        if unknown:
            hint = did_you_mean(str(unknown[0]), SETUP_KEYS)
            also = f" (did you mean {hint!r}?)" if hint else ""
            raise ValueError(
                f"setup: unknown key {unknown[0]!r}{also}; known: {', '.join(SETUP_KEYS)}"
            )
        zones: dict[str, ZoneFill | Mapping[int, ZoneFill]] = {}
        for name, cards in (data.get("zones") or {}).items():
            if isinstance(cards, Mapping) and not _is_fill(cards):
                zones[str(name)] = {
                    _seat(s, first_seat, f"zones.{name}"): _fill(c, f"zones.{name}.{s}")
                    for s, c in cards.items()
                }
            else:
                zones[str(name)] = _fill(cards, f"zones.{name}")
        active = data.get("active")
        phase = data.get("phase")
        return cls(
            zones=zones,
            cards={str(c): _card(v, first_seat, c) for c, v in (data.get("cards") or {}).items()},
            players={
                _seat(s, first_seat, "players"): _holder(v, f"players.{s}")
                for s, v in (data.get("players") or {}).items()
            },
            game=_holder(data["game"], "game") if data.get("game") is not None else None,
            dice={str(d): _faces(f, d) for d, f in (data.get("dice") or {}).items()},
            active=None if active is None else _seat(active, first_seat, "active"),
            phase=None if phase is None else str(phase),
            tiles={str(k): str(v) for k, v in _mapping(data.get("tiles") or {}, "tiles").items()},
        )


def _seat(value: Any, first_seat: int, where: str) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        seat = -1
    if isinstance(value, bool) or seat < first_seat:
        raise ValueError(f"setup: {where}: {value!r} is not a seat (seats count from {first_seat})")
    return seat - first_seat


def _is_fill(value: Mapping[Any, Any]) -> bool:
    return any(key in ("cards", "others_to") for key in value)


def _fill(value: Any, where: str) -> ZoneFill:
    """A zone's new cards: a list, or ``{cards: [...], others_to: ZONE}``."""
    if not isinstance(value, Mapping):
        return ZoneFill(_names(value, where))
    _known_keys(value, ("cards", "others_to"), where)
    others = value.get("others_to")
    return ZoneFill(
        _names(value.get("cards") or (), f"{where}.cards"),
        None if others is None else str(others),
    )


def _names(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ValueError(f"setup: {where}: expected a list of names, got {value!r}")
    return tuple(str(v) for v in value)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"setup: {where}: expected a mapping, got {value!r}")
    return value


def _card(value: Any, first_seat: int, card: Any) -> CardSetup:
    data = _mapping(value, f"cards.{card}")
    keys = ("side", "flags", "fields", "owner", "face_down", "exhausted")
    _known_keys(data, keys, f"cards.{card}")
    owner = data.get("owner", MISSING)
    if owner is not MISSING and owner is not None:
        owner = _seat(owner, first_seat, f"cards.{card}.owner")
    flags = data.get("flags")
    return CardSetup(
        side=None if data.get("side") is None else str(data["side"]),
        flags=None if flags is None else _names(flags, f"cards.{card}.flags"),
        fields=dict(_mapping(data.get("fields") or {}, f"cards.{card}.fields")),
        owner=owner,
        face_down=None if data.get("face_down") is None else bool(data["face_down"]),
        exhausted=None if data.get("exhausted") is None else bool(data["exhausted"]),
    )


def _holder(value: Any, where: str) -> HolderSetup:
    data = _mapping(value, where)
    _known_keys(data, ("resources", "fields", "flags"), where)
    resources = _mapping(data.get("resources") or {}, f"{where}.resources")
    for name, amount in resources.items():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ValueError(f"setup: {where}.resources.{name}: {amount!r} is not a whole number")
    flags = data.get("flags")
    return HolderSetup(
        resources=dict(resources),
        fields=dict(_mapping(data.get("fields") or {}, f"{where}.fields")),
        flags=None if flags is None else _names(flags, f"{where}.flags"),
    )


def _faces(value: Any, die: Any) -> tuple[Any, ...]:
    if isinstance(value, str | int) or not isinstance(value, Sequence):
        raise ValueError(f"setup: dice.{die}: expected a list of faces, got {value!r}")
    return tuple(value)


def _known_keys(data: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
    for key in data:
        if key not in keys:
            hint = did_you_mean(str(key), keys)
            also = f" (did you mean {hint!r}?)" if hint else ""
            raise ValueError(f"setup: {where}: unknown key {key!r}{also}; known: {', '.join(keys)}")


# ---------------------------------------------------------------------------- applying
def apply(ctx: Ctx, plan: Arrangement) -> None:
    """Arrange ``plan`` on the running game of ``ctx`` and let the pending decision ask
    again.  Everything is checked before anything changes: a ``ValueError`` leaves the
    game as it was."""
    st = ctx.st
    if st["result"] is not None:
        raise ValueError("setup: the game is over; there is no position to arrange")
    _check(ctx, plan)
    if plan.active is not None or plan.phase is not None:
        _start_phase(ctx, plan.active, plan.phase)
    for name, fills in plan.zones.items():
        if isinstance(fills, Mapping):
            for seat, fill in fills.items():
                _put(ctx, _zone_key(ctx, name, seat), fill)
        else:
            _put(ctx, _zone_key(ctx, name, None), fills)
    for cid, card in plan.cards.items():
        _set_card(ctx, cid, card)
    for seat, holder in plan.players.items():
        _set_holder(ctx, E.player(seat), holder)
    if plan.game is not None:
        _set_holder(ctx, None, plan.game)
    if plan.tiles:
        st["tiles"] = _placed_tiles(ctx, plan.tiles)
    if plan.dice:
        queue: dict[str, list[int]] = st["mem"].setdefault(NEXT_FACES, {})
        for die, faces in plan.dice.items():
            queue.setdefault(die, []).extend(_face_index(ctx, die, f) for f in faces)
    # The pending decision asks again: its instruction re-runs on the new position.
    if st["pending"] is not None:
        st["pending"] = None
        E.run(ctx)


def _check(ctx: Ctx, plan: Arrangement) -> None:
    """Every name and seat of ``plan`` exists (raises ``ValueError`` before any change)."""
    st = ctx.st
    prog = ctx.prog
    for name, fills in plan.zones.items():
        seats: Iterable[int | None] = fills.keys() if isinstance(fills, Mapping) else [None]
        for seat in seats:
            _zone_key(ctx, name, seat)
        for fill in fills.values() if isinstance(fills, Mapping) else [fills]:
            for cid in fill.cards:
                _card_id(ctx, cid)
            if fill.others_to is not None:
                _zone_key(ctx, fill.others_to, None, f"zones.{name}.others_to")
    for cid, card in plan.cards.items():
        _card_id(ctx, cid)
        kind = prog.kinds.get(prog.defs[st["comps"][cid]["d"]].kind)
        sides = kind.sides if kind is not None else ()
        if card.side is not None and card.side not in sides:
            known = ", ".join(sides) or "none: its kind has no sides"
            raise ValueError(f"setup: cards.{cid}: no side {card.side!r} (sides: {known})")
        if card.owner is not MISSING and card.owner is not None:
            _check_seat(ctx, card.owner, f"cards.{cid}.owner")
        _check_flags(ctx, card.flags or (), f"cards.{cid}")
    for seat, holder in plan.players.items():
        _check_seat(ctx, seat, "players")
        _check_holder(ctx, holder, per_player=True, where=f"players (Player {seat + 1})")
    if plan.game is not None:
        _check_holder(ctx, plan.game, per_player=False, where="game")
    for die, faces in plan.dice.items():
        for face in faces:
            _face_index(ctx, die, face)
    if plan.active is not None:
        _check_seat(ctx, plan.active, "active")
    if plan.phase is not None:
        _phase_index(ctx, plan.phase)
    if plan.tiles:
        _placed_tiles(ctx, plan.tiles)
    if (plan.active is not None or plan.phase is not None) and st["round"] == 0:
        raise ValueError(
            "setup: active/phase: the game is still in its setup (round 0); answer the "
            "setup's decisions first"
        )


def _placed_tiles(ctx: Ctx, wanted: Mapping[str, str]) -> list[str]:
    """The game's tile placement with ``wanted`` (slot -> tile) in place: each tile named
    changes places with the tile of its new slot, so every tile still lies in one slot
    (and the pieces on a tile's spaces go with it)."""
    mp = ctx.prog.map
    if mp is None or not mp.tiles:
        raise ValueError("setup: tiles: this ruleset's map has no tiles")
    slots = [slot.id for slot in mp.slots]
    placement = [str(t) for t in ctx.st.get("tiles") or [t.id for t in mp.tiles]]
    for slot, tile in wanted.items():
        if slot not in slots:
            raise ValueError(f"setup: tiles: no slot {slot!r} (slots: {', '.join(slots)})")
        if tile not in placement:
            raise ValueError(f"setup: tiles.{slot}: no tile {tile!r}")
        here, there = slots.index(slot), placement.index(tile)
        placement[here], placement[there] = placement[there], placement[here]
    for slot, tile in wanted.items():
        if placement[slots.index(slot)] != tile:
            raise ValueError(f"setup: tiles: tile {tile!r} is wanted in two slots")
    return placement


def _check_seat(ctx: Ctx, seat: int, where: str) -> None:
    n = ctx.st["players"]
    if not 0 <= seat < n:
        raise ValueError(f"setup: {where}: Player {seat + 1} is not in this {n}-player game")


def _check_flags(ctx: Ctx, flags: Iterable[str], where: str) -> None:
    known = ctx.prog.flags
    for flag in flags:
        if known and flag not in known:
            hint = did_you_mean(flag, known)
            also = f" (did you mean {hint!r}?)" if hint else ""
            raise ValueError(f"setup: {where}.flags: no flag {flag!r} in the rules{also}")


def _check_holder(ctx: Ctx, holder: HolderSetup, per_player: bool, where: str) -> None:
    resources = ctx.prog.resources
    own = sorted(n for n, r in resources.items() if r.per_player == per_player)
    for name in holder.resources:
        spec = resources.get(name)
        if spec is None or spec.per_player != per_player:
            whose = "player" if per_player else "game (shared)"
            hint = did_you_mean(name, own)
            also = f" (did you mean {hint!r}?)" if hint else ""
            raise ValueError(
                f"setup: {where}.resources: no {whose} resource {name!r}{also}; "
                f"known: {', '.join(own) or 'none'}"
            )
    _check_flags(ctx, holder.flags or (), where)


def _card_id(ctx: Ctx, cid: str) -> str:
    comps = ctx.comps
    if cid not in comps:
        hint = did_you_mean(cid, comps)
        also = f" (did you mean {hint!r}?)" if hint else ""
        raise ValueError(f"setup: no card {cid!r} in {ctx.prog.name}{also}")
    return cid


def _zone_key(ctx: Ctx, name: str, seat: int | None, where: str = "") -> str:
    """The state key of zone ``name`` (of ``seat`` for a zone every player has), or of the
    map space ``name``."""
    where = where or f"zones.{name}"
    prog = ctx.prog
    spec = prog.zones.get(name)
    if spec is None:
        if prog.map is not None and name in prog.map.spaces and seat is None:
            return ids.space_id(name)
        hint = did_you_mean(name, prog.zones)
        also = f" (did you mean {hint!r}?)" if hint else ""
        raise ValueError(f"setup: {where}: no zone or map space {name!r}{also}")
    if spec.per_player and seat is None:
        raise ValueError(
            f"setup: {where}: every player has a {name}: say whose, as a mapping from seat to cards"
        )
    if not spec.per_player and seat is not None:
        raise ValueError(f"setup: {where}: the {name} is shared: list its cards")
    if seat is not None:
        _check_seat(ctx, seat, where)
    return E.zone_key(prog, name, seat)


def _phase_index(ctx: Ctx, name: str) -> int:
    names = [p.name for p in ctx.prog.phases]
    if name not in names:
        hint = did_you_mean(name, names)
        also = f" (did you mean {hint!r}?)" if hint else ""
        raise ValueError(
            f"setup: phase: no phase {name!r}{also}; phases: {', '.join(names) or 'none'}"
        )
    return names.index(name)


def _start_phase(ctx: Ctx, active: int | None, phase: str | None) -> None:
    """Abandon what the rules were doing and start ``phase`` (default: the current one, or
    the first) of ``active``'s turn: the phase's start rules run up to the next decision.
    The abandoned phase's end rules do not run."""
    st = ctx.st
    if phase is not None:
        index = _phase_index(ctx, phase)
    else:
        index = st["phase"] if 0 <= st["phase"] < len(ctx.prog.phases) else 0
    if active is not None:
        st["active"] = active
    del st["stack"][1:]
    main = st["stack"][0]
    main[2].pop("_ended", None)
    main[2]["you"] = E.player(st["active"])
    main[1] = ctx.prog.flow["phase_starts"][index]
    main[2]["_stage"] = ctx.prog.flow["phase_stage"][index]
    main[2].pop("_over", None)
    st["phase"] = -1
    st["pending"] = None
    st["events"] = []
    E.run(ctx)


def _put(ctx: Ctx, key: str, fill: ZoneFill) -> None:
    if fill.others_to is not None:
        away = _zone_key(ctx, fill.others_to, None)
        for cid in list(ctx.zones.get(key, ())):
            if cid not in fill.cards:
                E.move_comp(ctx, cid, away)
    for cid in fill.cards:
        E.move_comp(ctx, cid, key)


def _set_card(ctx: Ctx, cid: str, card: CardSetup) -> None:
    from rulecraft.runtime.instructions import _set_field

    comp = ctx.comps[cid]
    if card.side is not None:
        comp["s"] = card.side
    if card.owner is not MISSING:
        comp["o"] = card.owner
    if card.face_down is not None:
        if card.face_down:
            comp["down"] = True
        else:
            comp.pop("down", None)
        comp.pop("seen", None)
    if card.exhausted is not None:
        comp["x"] = card.exhausted
    if card.flags is not None:
        comp["f"] = sorted(set(card.flags))
    for name, value in card.fields.items():
        _set_field(_const(cid), name, _const(value))(ctx)


def _set_holder(ctx: Ctx, who: str | None, holder: HolderSetup) -> None:
    st = ctx.st
    for name, amount in holder.resources.items():
        E.res_set(ctx, who, name, amount)
    for name, value in holder.fields.items():
        if who is None:
            st["gvars"][name] = value
        elif isinstance(value, int) and not isinstance(value, bool):
            E.res_set(ctx, who, name, value)
        else:
            st["res"][E.seat_of(who)][name] = value
    if holder.flags is not None:
        flags = sorted(set(holder.flags))
        if who is None:
            st["gflags"] = flags
        else:
            st["pflags"][E.seat_of(who)] = flags


def _const(value: Any) -> Any:
    return lambda ctx: value


# ---------------------------------------------------------------------------- dice
def _face_index(ctx: Ctx, die_name: str, wanted: Any) -> int:
    """The index of the face of ``die_name`` that shows ``wanted``: a number (what a plain
    die shows), a symbol, a list of symbols, or ``blank``."""
    from rulecraft.dice import DieType

    dice = ctx.prog.dice
    die: DieType | None = dice.get(die_name) if dice is not None else None
    if die is None and die_name[:1] == "d" and die_name[1:].isdigit():
        die = DieType.plain(int(die_name[1:]))
    if die is None:
        known = ", ".join(sorted(dice)) if dice else "only plain dice such as d6"
        raise ValueError(f"setup: dice: no die {die_name!r} (dice: {known})")
    if isinstance(wanted, bool):
        target: Counter[str] | None = None
    elif isinstance(wanted, int):
        target = Counter({"value": wanted}) if wanted else Counter()
    elif wanted in ("blank", [], None):
        target = Counter()
    elif isinstance(wanted, str):
        target = Counter({wanted: 1})
    elif isinstance(wanted, Sequence):
        target = Counter(str(s) for s in wanted)
    else:
        target = None
    for index in range(len(die.faces)):
        if target is not None and Counter(die.face_counts(index)) == target:
            return index
    shown = ", ".join(_face_text(die.face_counts(i)) for i in range(len(die.faces)))
    raise ValueError(f"setup: dice.{die_name}: no face shows {wanted!r} (faces: {shown})")


def _face_text(counts: Mapping[str, int]) -> str:
    if not counts:
        return "blank"
    if set(counts) == {"value"}:
        return str(counts["value"])
    return "+".join(s for s, n in sorted(counts.items()) for _ in range(n))


def forced_face(ctx: Ctx, die_name: str) -> int | None:
    """The next queued face of ``die_name`` (taken off the queue), or ``None``."""
    queue = ctx.st["mem"].get(NEXT_FACES)
    if not queue or die_name not in queue:
        return None
    faces = queue[die_name]
    face = int(faces.pop(0))
    if not faces:
        del queue[die_name]
    if not queue:
        del ctx.st["mem"][NEXT_FACES]
    return face


def forced_roll(ctx: Ctx, pool: Any) -> Any:
    """Roll ``pool`` (a :class:`rulecraft.dice.Pool`) showing the queued faces of its dice,
    the others rolled with the game's stream; ``None`` when no queued face fits the pool."""
    from rulecraft.dice import RollResult

    queue = ctx.st["mem"].get(NEXT_FACES)
    if not queue or not any(die.name in queue for die, _ in pool.dice):
        return None
    rng: Rng = E.take_rng(ctx)
    faces: list[tuple[str, int]] = []
    counts: dict[str, int] = dict.fromkeys(pool.symbols, 0)
    for die in pool.each_die():
        face = forced_face(ctx, die.name)
        if face is None:
            pick, rng = randbelow(rng, die.outcomes)
            face = _weighted(die.weights, pick)
        faces.append((die.name, face))
        for symbol, n in die.face_counts(face).items():
            counts[symbol] = counts.get(symbol, 0) + n
    for symbol, n in pool.auto:
        counts[symbol] = counts.get(symbol, 0) + n
    E.put_rng(ctx, rng)
    return RollResult(tuple(faces), counts)


def _weighted(weights: Sequence[int], pick: int) -> int:
    """The face that outcome ``pick`` lands on (as the dice engine reads weights)."""
    for index, weight in enumerate(weights):
        if pick < weight:
            return index
        pick -= weight
    return len(weights) - 1
