"""The engine: runs a compiled :class:`~rulecraft.runtime.program.Program` on a state.

The state's ``stack`` holds frames ``[routine, pc, locals]``.  :func:`run` runs the top
frame's routine (its generated function, or :func:`interpret` its instructions) until
somebody must decide (``state["pending"]``) or the game is over (``state["result"]``).
:func:`answer` records a decision's answer in the top frame and runs on.  Every function
here is generic: it knows zones, components, resources, events and decisions, never a
particular game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn, TypeVar

from rulecraft.diagnostics import Span

# re-exported: the rest of the runtime reads them as E.TOO_LARGE, E.RuleError, ...
from rulecraft.errors import DUPLICATE_OPTION as DUPLICATE_OPTION
from rulecraft.errors import ENDLESS_LOOP as ENDLESS_LOOP
from rulecraft.errors import NEGATIVE_AMOUNT as NEGATIVE_AMOUNT
from rulecraft.errors import NO_ENTRY as NO_ENTRY
from rulecraft.errors import RUNTIME as RUNTIME
from rulecraft.errors import TOO_DEEP as TOO_DEEP
from rulecraft.errors import TOO_LARGE as TOO_LARGE
from rulecraft.errors import ZONE_FULL as ZONE_FULL
from rulecraft.errors import IllegalChoice as IllegalChoice
from rulecraft.errors import RuleError as RuleError
from rulecraft.rng import Rng, randbelow, shuffled
from rulecraft.runtime import ids, incremental
from rulecraft.runtime.ids import (
    DEFINITION_HEAD,
    NAME_MARK,
    NAME_MARK_AT,
    SPACE_HEAD,
    ZONE_HEAD,
)
from rulecraft.runtime.program import (
    ComponentDef,
    GrantSpec,
    KeptSpaces,
    ModifierSpec,
    Program,
    Routine,
    TriggerSpec,
    ZoneSpec,
)
from rulecraft.runtime.state import (
    STATE_VERSION,
    ComponentState,
    GameResult,
    PendingDecision,
    State,
    clone_state,
)
from rulecraft.runtime.values import as_int

MAX_STEPS_PER_DECISION: Final = 200_000
T = TypeVar("T")


#: The largest number, text or list the rules may build at run time: far above any game's
#: needs, far below what would exhaust memory ("ab" * 2000000000 is refused, not built).
MAX_NUMBER: Final = 2**62
MAX_VALUE_SIZE: Final = 100_000
#: At most this many dice in one roll, and sides on a plain ``dN`` die.
MAX_DICE: Final = 1_000


class Ctx:
    """Where execution stands: the program, the state, the current frame and its locals.

    A plain class with its own ``__init__``, not a dataclass: compiled (``make
    compiled``), a dataclass's ``__init__`` is the one the dataclasses module writes, run
    as Python (0.8 us a context, an eighth of a Tic-Tac-Toe clone's time); this one is
    compiled with the class."""

    __slots__ = (
        "ability_piles",
        "activity",
        "by_def",
        "comps",
        "frame",
        "instances",
        "kept",
        "lang",
        "loc",
        "log",
        "memo",
        "moved",
        "owned",
        "prog",
        "rows",
        "st",
        "stops",
        "viewer",
        "zones",
    )

    prog: Program
    st: State
    lang: str
    log: list[tuple[int, str]] | None
    by_def: dict[str, list[str]]
    frame: list[Any]
    loc: dict[str, Any]
    #: Whose eyes a text is built for (an option's label is its decider's): ``None`` is
    #: every seat, so a card some seat may not see is "a card".
    viewer: int | None
    #: While a menu's legal options are listed (nothing changes the state then): whether a
    #: component's text works (:func:`is_active`) and the active instances of a definition
    #: (:func:`_sources`), each worked out once per listing instead of once per card whose
    #: cost or condition asks.  ``None`` whenever the state may change.
    memo: dict[Any, Any] | None
    #: The spaces each kept ``where`` keeps (:mod:`incremental`), as bit masks over its
    #: spaces; ``None`` until one is first listed.
    kept: dict[KeptSpaces, int] | None
    #: Seat by seat, the map's spaces holding a piece the seat owns, as a bit mask
    #: (:func:`incremental.owned_spaces`); ``None`` until ``in_a_row`` first asks.
    owned: list[int] | None
    #: The piles changed since ``kept`` and ``owned`` were last brought up to date
    #: (``None`` while nothing is remembered): :func:`move_comp`, :func:`shuffle_zone` and
    #: a change of a piece's owner note them.  A list, not a set: a pile noted twice is
    #: looked at twice, which changes nothing, and a list is the cheaper to note and walk
    #: (past :data:`incremental.MAX_MOVED_NOTED` piles, what is remembered is forgotten).
    moved: list[str] | None
    #: By (seat, n), as ``seat * 257 + n``: a mask of the seat's spaces (``owned``)
    #: known to hold no line of ``n`` (:func:`map.in_a_row`): while the seat only gains
    #: spaces, only the lines through the spaces gained since are looked at.  A fact of
    #: the map, not the state.
    rows: dict[int, int] | None
    #: Seat by seat, the piles whose cards may offer that seat abilities, in the state's
    #: order of piles, with the name of the zone (``"map"`` for a space), and how many
    #: piles the state had then (a pile is never removed, and one made later is noticed):
    #: :func:`instructions._ability_piles`.
    ability_piles: dict[int, tuple[int, list[tuple[str, str]]]] | None
    #: Across listings and moves: whether a component's text works, for a component whose
    #: kind decides that from the component alone (its place, face and flags; no
    #: ``active_if`` reading the rest of the game), and the active instances of a
    #: definition all of whose copies are such.  A component's entry, and its
    #: definition's, are forgotten whenever it changes (:func:`touched`); a copy of the
    #: game starts with nothing (``None``).
    activity: dict[str, bool] | None
    instances: dict[str, list[str | None]] | None
    #: The state's components (``st["comps"]``, which nothing replaces: a copy of the
    #: state gets a context of its own, and a plan's reset refills the table in place),
    #: read by every field and flag a rule asks of a card without a dictionary read for
    #: the table first.
    comps: dict[str, ComponentState]
    #: The state's piles (``st["zones"]``, which nothing replaces either: a pile is
    #: replaced or changed in place, the table never), for the same reason.
    zones: dict[str, list[str]]
    #: How many times :func:`ask` or :func:`finish` stopped the rules through this
    #: context: the run loop compares it around each instruction instead of reading the
    #: state's ``pending`` and ``result`` (two dictionary reads a step).  Nothing else
    #: sets either while rules run.
    stops: int

    def __init__(
        self,
        prog: Program,
        st: State,
        lang: str = "",
        log: list[tuple[int, str]] | None = None,
        by_def: dict[str, list[str]] | None = None,
    ) -> None:
        self.prog = prog
        self.st = st
        self.lang = lang
        self.log = log
        self.by_def = {} if by_def is None else by_def
        self.frame = []
        self.loc = {}
        self.viewer = None
        self.memo = None
        self.kept = None
        self.owned = None
        self.moved = None
        self.rows = None
        self.ability_piles = None
        self.activity = None
        self.instances = None
        self.comps = st["comps"]
        self.zones = st["zones"]
        self.stops = 0

    def say(self, text: str, audience: int = -1) -> None:
        """Add a log line; ``audience`` -1 is everybody, else only that seat sees it."""
        if self.log is not None:
            self.log.append((audience, text))


# ---------------------------------------------------------------------------- values
# The id encodings live in runtime/ids.py; the engine's names for them are kept because
# the rest of the runtime (and tests) read them as E.player, E.seat_of, E.zone_name, ...
# They are functions, not aliases: compiled (make compiled), a call of a module's alias
# goes through a Python call, a call of a function straight to it.
def player(seat: int) -> str:
    """:func:`ids.player_id`."""
    return ids.player_id(seat)


def seat_of(value: object) -> int:
    """:func:`ids.seat_of`."""
    return ids.seat_of(value)


def zone_name(key: str) -> str:
    """:func:`ids.zone_name`."""
    return ids.zone_name(key)


def zone_owner(key: str) -> int | None:
    """:func:`ids.zone_owner`."""
    return ids.zone_owner(key)


def is_comp(value: object) -> bool:
    """:func:`ids.is_component`."""
    return ids.is_component(value)


def zone_key(prog: Program, name: str, seat: int | None) -> str:
    """The key of zone ``name`` of the program, of ``seat`` when every player has one."""
    spec = prog.zones[name]
    if spec.per_player:
        if seat is None:
            raise RuleError(f"zone {name!r} belongs to a player: say whose")
        return ids.zone_key(name, seat)
    return ids.zone_key(name)


def comp_name(ctx: Ctx, cid: str) -> Any:
    """A component's name as a text: its side's ``name`` while that side is up, else its
    definition's (a card flipped to a side named "Awake" reads "Awake")."""
    comp = ctx.comps[cid]
    d = ctx.prog.defs[comp["d"]]
    side = comp.get("s")
    if side is not None:
        sattrs = d.side_attributes.get(side)
        if sattrs is not None and "name" in sattrs:
            return sattrs["name"]
    return d.name


def text_of(ctx: Ctx, value: Any) -> str:
    """A value as readable text in the game's language."""
    if isinstance(value, dict):
        return str(value.get(ctx.lang) or value.get("", ""))
    if isinstance(value, str):
        if value in ctx.comps:  # a card, by one lookup: no other id is a key there
            return text_of(ctx, comp_name(ctx, value))
        if ids.is_player(value):
            return f"Player {ids.seat_of(value) + 1}"
        if ids.is_space(value):
            return ids.space_name(value)
        if ids.is_zone(value):
            name = zone_name(value)
            label = ctx.prog.zones[name].label if name in ctx.prog.zones else {}
            owner = zone_owner(value)
            base = str(label.get(ctx.lang) or label.get("") or name)
            return base if owner is None else f"{base} of Player {owner + 1}"
        if ids.is_def(value):
            d = ctx.prog.defs.get(ids.def_name(value))
            return text_of(ctx, d.name) if d else ids.def_name(value)
        return value
    if isinstance(value, list):
        return ", ".join(text_of(ctx, v) for v in value)
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if callable(value):  # an interpolated text
        return text_of(ctx, value(ctx))
    return str(value)


def unit_text(ctx: Ctx, unit: str, amount: int) -> str:
    """``unit`` as log lines name ``amount`` of it: a resource's ``unit: "point|points"``
    gives "1 point", "2 points" (the id when it declares none)."""
    spec = ctx.prog.resources.get(unit)
    if spec is None or not spec.unit:
        return unit
    words = str(spec.unit.get(ctx.lang) or spec.unit.get("", unit))
    one, _, many = words.partition("|")
    return one if amount == 1 or not many else many


def _seen_by_readers(ctx: Ctx, cid: str) -> bool:
    """May every reader of the text being built see ``cid``: the viewer, or every seat?"""
    if ctx.viewer is not None:
        return visible_to(ctx, cid, ctx.viewer)
    return all(visible_to(ctx, cid, s) for s in range(ctx.st["players"]))


def public_text(ctx: Ctx, value: Any) -> str:
    """A value as text that anybody may read: a card some seat may not see is "a card"."""
    if is_comp(value) and value in ctx.comps and not _seen_by_readers(ctx, value):
        return "a card"
    text = ", ".join(public_text(ctx, v) for v in value) if isinstance(value, list) else None
    text = text_of(ctx, value) if text is None else text
    # Bounded like every value built at run time: 'set t to "{t}{t}"' in a loop doubled a
    # text until memory ran out (issue 17); a part of an interpolated text is a text too.
    if len(text) > MAX_VALUE_SIZE:
        raise RuleError(
            f"a part of a text would hold {len(text):,} characters; texts are limited to "
            f"{MAX_VALUE_SIZE:,}",
            TOO_LARGE,
        )
    return text


# Fields of a component anybody may know even when the card itself is hidden: where it lies.
WHEREABOUTS: Final = frozenset({"zone", "owner", "controller", "facedown", "position", "space"})


def hidden_field(ctx: Ctx, obj: Any, field: str) -> bool:
    """Is ``obj.field`` something some seat may not know (a hidden card's rank, say)?"""
    if not (is_comp(obj) and obj in ctx.comps) or field in WHEREABOUTS:
        return False
    if _seen_by_readers(ctx, obj):
        return False
    spec = ctx.prog.zones.get(zone_name(ctx.comps[obj]["z"]))
    return spec is None or field not in spec.public_fields


# ---------------------------------------------------------------------------- visibility
def visible_to(ctx: Ctx, cid: str, seat: int | None) -> bool:
    """May ``seat`` see which component ``cid`` is?  (``None``: an all-seeing observer.)"""
    if seat is None:
        return True
    comp = ctx.comps[cid]
    if comp.get("down"):
        return bool(comp.get("seen") and seat in comp["seen"])
    key = comp["z"]
    sight = ctx.prog.pile_sight.get(key)
    if sight is None:
        sight = _pile_sight(ctx.prog, key)
    visibility, owner = sight
    if visibility == "public":
        return True
    if visibility == "owner" and owner == seat:
        return True  # (before the card's own marks: a menu asks it of every card in a hand)
    if comp.get("up"):
        return True
    # a private look: reveal ... to P, look at ...
    return bool(comp.get("seen") and seat in comp["seen"])


def _pile_sight(prog: Program, key: str) -> tuple[str, int | None]:
    """Who may see the cards of pile ``key`` (:attr:`Program.pile_sight`, kept there)."""
    # (a space's key names no zone: zone_name gives it back, and it is public like any
    # pile no zone declares)
    spec = prog.zones.get(zone_name(key))
    sight = ("public" if spec is None else spec.visibility, zone_owner(key))
    prog.pile_sight[key] = sight
    return sight


def public_props(ctx: Ctx, cid: str) -> dict[str, Any]:
    """The fields of ``cid`` its zone declares ``public_fields`` that the rules have set on
    this copy: what every seat may know of a card it cannot see (where it lies).  Only
    values set on the copy count: a definition's attribute would tell the card apart."""
    comp = ctx.comps[cid]
    spec = ctx.prog.zones.get(zone_name(comp["z"])) if ids.is_zone(comp["z"]) else None
    if spec is None or not spec.public_fields:
        return {}
    props = comp["p"]
    return {name: props[name] for name in spec.public_fields if name in props}


def say_about(ctx: Ctx, cid: str, rest: str) -> None:
    """Log the line "<card> ``rest``" about a component without leaking it: everybody reads
    its name only if everybody may see it; otherwise its owner (if allowed) reads the name
    and the others read "a card"."""
    if ctx.log is None:
        return
    n = ctx.st["players"]
    seers = [s for s in range(n) if visible_to(ctx, cid, s)]
    if len(seers) == n:
        ctx.say(text_of(ctx, cid) + rest)
        return
    for seat in seers[:1]:
        ctx.say(text_of(ctx, cid) + rest, seat)
    ctx.say("a card" + rest)


# ---------------------------------------------------------------------------- components
def comp_state(ctx: Ctx, cid: str) -> ComponentState:
    try:
        c: ComponentState = ctx.comps[cid]
    except KeyError:
        raise RuleError(f"no component {cid!r}") from None
    return c


def is_active(ctx: Ctx, cid: str) -> bool:
    """Does this component's text work right now (right zone, its kind's condition holds)?

    Remembered across decisions when the component alone decides it (:attr:`Ctx.activity`),
    else for the listing under way (:attr:`Ctx.memo`)."""
    known = ctx.activity
    if known is None:
        known = ctx.activity = {}
    active: bool | None = known.get(cid)
    if active is not None:
        return active
    memo = ctx.memo
    if memo is not None:
        listed: bool | None = memo.get(cid)
        if listed is not None:
            return listed
    now, alone = _is_active(ctx, cid)
    if alone:
        known[cid] = now
    elif memo is not None:
        memo[cid] = now
    return now


def touched(ctx: Ctx, cid: str) -> None:
    """Component ``cid`` changed its place, face, flags, owner, side or a property: what
    :attr:`Ctx.activity` and :attr:`Ctx.instances` remember of it and its definition is
    forgotten.  Every change of those goes through here (or :func:`incremental.forget`)."""
    # ('in' and 'del', not pop(key, None): compiled, a pop with a default is a method call)
    known = ctx.activity
    if known is not None and cid in known:
        del known[cid]
    instances = ctx.instances
    if instances:
        d = ctx.comps[cid]["d"]
        if d in instances:
            del instances[d]


#: Is this module compiled (make compiled, a wheel built with mypyc)?  The closure
#: compiler then makes the commonest expressions of compiled classes, not of lambdas.
COMPILED: Final = not __file__.endswith(".py")


class LocalValue:
    """The value of the local variable ``name``: what the closure compiler makes of a
    name it reads from the locals when :data:`COMPILED`.  A compiled class: a call of it
    runs no Python frame, and these are the commonest expressions of all.  (Not compiled,
    a lambda is the cheaper call.)"""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, ctx: Ctx) -> Any:
        return ctx.loc.get(self.name)


class ConstantValue:
    """A value written in the rules (``1``, ``true``, ``none``), as :class:`LocalValue`."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, ctx: Ctx) -> Any:
        return self.value


def listing(ctx: Ctx, fn: Callable[[Ctx], T]) -> T:
    """``fn(ctx)`` for a computation that changes nothing (the legal options of a decision),
    with :attr:`Ctx.memo` on while it runs: each card's activity worked out once."""
    if ctx.memo is not None:
        return fn(ctx)
    ctx.memo = {}
    try:
        return fn(ctx)
    finally:
        ctx.memo = None


def _is_active(ctx: Ctx, cid: str) -> tuple[bool, bool]:
    """Whether ``cid``'s text works, and whether the component alone decided it (its
    place, face and flags), so that it holds until the component changes."""
    comp = ctx.comps[cid]
    d = definition_of(ctx, cid, comp)
    kind = ctx.prog.kinds.get(d.kind)
    if kind is None:
        return False, True
    key = comp["z"]
    where = ids.place_name(key)
    if where not in kind.active_in or comp.get("down"):
        return False, True
    flags = kind.active_flags
    if flags is not None and "traits" not in comp["p"]:
        # active_if's flag tests on the card's own flags, without running it
        # (compile/flags.py): a menu asks this of every card it considers
        have = comp["f"]
        for flag, wanted in flags:  # (a loop: compiled, a generator costs more)
            if (flag in have) != wanted:
                return False, True
        return True, True
    if kind.active_if is not None:
        saved = ctx.loc
        ctx.loc = {"this": cid, "you": _owner_player(ctx, cid)}
        try:
            return bool(kind.active_if(ctx)), False
        finally:
            ctx.loc = saved
    return True, True


def _owner_player(ctx: Ctx, cid: str) -> str | None:
    """Who "you" is for a component's text: its owner, else whoever's zone holds it, else
    the active player."""
    return player(controller(ctx, cid))


def controller(ctx: Ctx, cid: str) -> int:
    comp = ctx.comps[cid]
    owner = comp.get("o")
    if owner is None:
        zo = zone_owner(comp["z"])
        return ctx.st["active"] if zo is None else zo
    return int(owner)


def side_of(ctx: Ctx, cid: str) -> str | None:
    s: str | None = ctx.comps[cid].get("s")
    return s


def static_attr(ctx: Ctx, cid: str, name: str) -> Any:
    """Attribute ``name`` of component ``cid`` before modifiers: set on the copy, else its
    side's, its definition's, or worked out by the definition's expression."""
    return record_attr(ctx, cid, ctx.comps[cid], name)


def definition_of(ctx: Ctx, cid: str, comp: ComponentState) -> ComponentDef:
    """The definition of component ``cid``, whose record is ``comp``: one read of
    :attr:`Program.def_of` where ``prog.defs[comp["d"]]`` took two (every field and
    flag asked of a card reads it)."""
    def_of = ctx.prog.def_of
    d = def_of.get(cid)
    if d is None:
        d = def_of[cid] = ctx.prog.defs[comp["d"]]
    return d


def record_attr(ctx: Ctx, cid: str, comp: ComponentState, name: str) -> Any:
    """:func:`static_attr` of the component whose record ``comp`` is in hand (a field read
    looks it up once; each card a menu weighs has its cost read)."""
    p = comp["p"]
    if p and name in p:
        return p[name]
    d = definition_of(ctx, cid, comp)
    if d.side_attributes:
        side = comp.get("s")
        if side is not None:
            sattrs = d.side_attributes.get(side)
            if sattrs is not None and name in sattrs:
                return sattrs[name]
    attributes = d.attributes
    value = attributes.get(name)
    if value is not None or not d.dynamic or name in attributes:
        return value
    fn = d.dynamic.get(name)
    if fn is not None:
        saved = ctx.loc
        ctx.loc = {"this": cid, "you": _owner_player(ctx, cid)}
        try:
            return fn(ctx)
        finally:
            ctx.loc = saved
    return None


def modified(ctx: Ctx, cid: str, name: str, base: Any) -> Any:
    mods = ctx.prog.modifiers.get(name)
    if not mods or not isinstance(base, int):
        return base
    total = base
    for rule, src, reached in _live(ctx, "modify", name, mods):
        if cid not in reached or not isinstance(rule, ModifierSpec):
            continue
        fixed = rule.fixed
        if fixed is not None:  # numbers written in the rule: nothing to work out
            amount, low, high = fixed
            total += amount
            if low is not None:
                total = max(total, low)
            if high is not None:
                total = min(total, high)
            continue
        mod = rule
        saved = ctx.loc
        ctx.loc = _source_locals(ctx, src)
        try:
            total += as_int(mod.amount(ctx))
            if mod.minimum is not None:
                total = max(total, as_int(mod.minimum(ctx)))
            if mod.maximum is not None:
                total = min(total, as_int(mod.maximum(ctx)))
        finally:
            ctx.loc = saved
    return total


#: A modifier or grant in force: the rule, the card it is on (``None``: a rule of the game)
#: and what it reaches now.
Live = tuple["ModifierSpec | GrantSpec", "str | None", list[Any]]


def _live(ctx: Ctx, what: str, name: str, rules: Sequence[ModifierSpec | GrantSpec]) -> list[Live]:
    """The ``rules`` (the modifiers of field ``name`` or the grants of flag ``name``) in
    force now: one for each active card that carries one (or for the rule itself) whose
    condition holds, with what it reaches.  While options are listed (:func:`listing`) it
    is worked out once, not for every card asked about: the cost of each card in a hand
    would otherwise list the hand again, for every card that modifies costs."""
    memo = ctx.memo
    if memo is None:
        return _in_force(ctx, rules)
    key = (what, name, None)  # no other key of the memo is a tuple of three
    live: list[Live] | None = memo.get(key)
    if live is None:
        live = memo[key] = _in_force(ctx, rules)
    return live


def _in_force(ctx: Ctx, rules: Sequence[ModifierSpec | GrantSpec]) -> list[Live]:
    out: list[Live] = []
    for rule in rules:
        for src in _sources(ctx, rule.owner, rule.side):
            saved = ctx.loc
            ctx.loc = _source_locals(ctx, src)
            try:  # (no 'continue' inside: mypyc does not compile it in try/finally)
                if rule.condition is None or rule.condition(ctx):
                    out.append((rule, src, as_list(ctx, rule.targets(ctx))))
            finally:
                ctx.loc = saved
    return out


def _source_locals(ctx: Ctx, src: str | None) -> dict[str, Any]:
    """The locals of a modifier's or grant's text on the card ``src`` (``None``: a rule's)."""
    return {"this": src, "you": _owner_player(ctx, src) if src else ctx.loc.get("you")}


def _sources(ctx: Ctx, owner: str | None, side: str | None) -> list[str | None]:
    """Active instances of a definition (or [None] for a rule): remembered across decisions
    when each copy's activity is (:attr:`Ctx.instances`), else for the listing under way."""
    if owner is None:
        return [None]
    if side is None:
        instances = ctx.instances
        if instances is None:
            instances = ctx.instances = {}
        known = instances.get(owner)
        if known is not None:
            return known
        if _decided_alone(ctx, owner):
            known = instances[owner] = _active_instances(ctx, owner, side)
            return known
    memo = ctx.memo
    if memo is not None:
        key = (owner, side)  # no component id is a tuple: one memo serves both
        found: list[str | None] | None = memo.get(key)
        if found is None:
            found = memo[key] = _active_instances(ctx, owner, side)
        return found
    return _active_instances(ctx, owner, side)


def _active_instances(ctx: Ctx, owner: str, side: str | None) -> list[str | None]:
    out: list[str | None] = []
    d = ctx.prog.defs.get(owner)
    kind = ctx.prog.kinds.get(d.kind) if d is not None else None
    if kind is None:
        return out  # (what _is_active says of a component of no declared kind)
    comps = ctx.comps
    active_in = kind.active_in
    for cid in ctx.by_def.get(owner, ()):
        # Most copies of a card lie where nothing is active (a deck, a hand): told by
        # their zone alone, as _is_active would first, without asking it.
        if ids.place_name(comps[cid]["z"]) not in active_in:
            continue
        if is_active(ctx, cid) and (side is None or side_of(ctx, cid) == side):
            out.append(cid)
    return out


def _decided_alone(ctx: Ctx, owner: str) -> bool:
    """Does each copy of definition ``owner`` decide alone whether its text works (as
    :func:`_is_active` tells), so that its active instances hold until one of them
    changes (:func:`touched`)?"""
    d = ctx.prog.defs.get(owner)
    kind = ctx.prog.kinds.get(d.kind) if d is not None else None
    if kind is None or kind.active_if is None:
        return True
    if kind.active_flags is None:
        return False
    comps = ctx.comps
    return all("traits" not in comps[cid]["p"] for cid in ctx.by_def.get(owner, ()))


def clone_context(ctx: Ctx) -> Ctx:
    """A context over a copy of ``ctx``'s state (:func:`state.clone_state`), with no log,
    remembering what ``ctx`` remembers (:func:`incremental.carry`): what
    :meth:`Game.clone <rulecraft.runtime.game.Game.clone>` makes, in one compiled call."""
    copy = Ctx(ctx.prog, clone_state(ctx.st), ctx.lang, None, ctx.by_def)
    if incremental.remembers(ctx):
        incremental.carry(ctx, copy)  # what is remembered holds for the copy
    return copy


def instances_by_def(st: State) -> dict[str, list[str]]:
    """Component ids grouped by definition (components are never created at run time)."""
    out: dict[str, list[str]] = {}
    for cid, comp in st["comps"].items():
        out.setdefault(comp["d"], []).append(cid)
    return out


def has_flag(ctx: Ctx, subject: Any, flag: str) -> bool:
    st = ctx.st
    if subject is None:
        return flag in st["gflags"]
    if type(subject) is str:
        # A component first, by one lookup (most flags asked about are cards'): no id of
        # another sort is a key of the components.
        comp = ctx.comps.get(subject)
        if comp is not None:
            return comp_has_flag(ctx, subject, comp, flag)
        if ids.is_player(subject):
            return flag in st["pflags"][seat_of(subject)]
        return False
    if isinstance(subject, list):
        return flag in subject
    return False


def comp_has_flag(ctx: Ctx, cid: str, comp: ComponentState, flag: str) -> bool:
    """``cid has flag`` for the component ``cid`` whose state is ``comp``: a flag set on
    it, one of its traits, its kind, or a flag granted to it by an active card or a rule."""
    if flag in comp["f"]:
        return True
    prog = ctx.prog
    if flag in prog.only_set_flags and "traits" not in comp["p"]:
        return False  # no trait, kind or grant gives it (compile/flags.py)
    d = definition_of(ctx, cid, comp)
    if "traits" in comp["p"] or d.side_attributes or d.dynamic:
        traits = static_attr(ctx, cid, "traits")
    else:  # static_attr's answer where nothing but the definition's attributes has traits
        traits = d.attributes.get("traits")
    if isinstance(traits, list) and flag in traits:
        return True
    if flag == d.kind:
        return True
    grants = prog.grants.get(flag)
    if grants:
        for _, _, reached in _live(ctx, "grant", flag, grants):
            if cid in reached:
                return True
    return False


# ---------------------------------------------------------------------------- collections
def as_list(ctx: Ctx, value: Any) -> list[Any]:
    """A value used as a collection: a zone gives its contents, a list itself."""
    # The ids module's tests (is_zone, is_place, is_def) spelt with its constants in place,
    # a character at a time: every collection a rule walks comes through here.
    if type(value) is list:
        if (
            value
            and type(first := value[0]) is str
            and len(first) > 1
            and first[NAME_MARK_AT] == NAME_MARK
            and first[0] == ZONE_HEAD
        ):
            # a list of zones (opponents.board): their contents, one after the other
            zones = ctx.zones
            return [c for key in value for c in zones.get(key, ())]
        return value
    if type(value) is str and len(value) > 1 and value[NAME_MARK_AT] == NAME_MARK:
        head = value[0]
        if head in (ZONE_HEAD, SPACE_HEAD):
            return list(ctx.zones.get(value, ()))
        if head == DEFINITION_HEAD:
            return list(ctx.by_def.get(ids.def_name(value), ()))
    if value is None:
        return []
    return [value]


def walked(ctx: Ctx, value: Any) -> list[Any]:
    """:func:`as_list` of a collection that is only walked, counted or searched, never
    kept or changed (the generated code's ``where``, ``count`` and ``in``, while nothing
    moves): a pile is its own list, not a copy made and freed at each question."""
    if type(value) is str and len(value) > 1 and value[NAME_MARK_AT] == NAME_MARK:
        head = value[0]
        if head in (ZONE_HEAD, SPACE_HEAD):
            pile = ctx.zones.get(value)
            return pile if pile is not None else []
        if head == DEFINITION_HEAD:
            copies = ctx.by_def.get(ids.def_name(value))
            return copies if copies is not None else []
    return as_list(ctx, value)


# ---------------------------------------------------------------------------- zones
def move_comp(ctx: Ctx, cid: str, dest: str, position: str | None = None) -> None:
    """Move a component to a zone or space (top = end of the list)."""
    comp = comp_state(ctx, cid)
    src = comp["z"]
    zones = ctx.zones
    if ctx.moved is not None:  # some menu's options are kept up to date (incremental.py)
        incremental.noted(ctx, src)
        incremental.noted(ctx, dest)
    left_pile = zones.get(src)
    if left_pile is not None:
        # A card leaves the top of its pile most often (a draw: the end of the list), which
        # remove() would reach last, comparing ids all the way; a card lies in one pile once.
        if left_pile and left_pile[-1] == cid:
            left_pile.pop()
        else:
            # try/except, not contextlib.suppress: a context manager per move costs more
            try:  # noqa: SIM105
                left_pile.remove(cid)
            except ValueError:  # not in its pile (an arranged position may say so)
                pass
    pile = zones.setdefault(dest, [])
    prog = ctx.prog
    spec = pile_zone(prog, dest)
    if spec is not None and spec.capacity is not None and len(pile) >= spec.capacity:
        # A full zone refuses the component: it stays where it was.
        zones[src].append(cid)
        raise RuleError(f"{text_of(ctx, dest)} is full", ZONE_FULL)
    if position == "bottom":
        pile.insert(0, cid)
    else:
        pile.append(cid)
    comp["z"] = dest
    if src != dest:
        left = pile_zone(prog, src)
        if left is not None and left.local_fields:
            props = comp["p"]
            if any(name in props for name in left.local_fields):  # (replaced: see clone_state)
                comp["p"] = {k: v for k, v in props.items() if k not in left.local_fields}
    # A component that changes zone forgets its temporary state.
    if comp.get("up"):
        comp["up"] = False
    if comp.get("down"):
        del comp["down"]
    if comp.get("x"):
        comp["x"] = False
    if "seen" in comp:
        del comp["seen"]
    touched(ctx, cid)


def pile_zone(prog: Program, key: str) -> ZoneSpec | None:
    """The declaration of the zone pile ``key`` is of (``None`` for a space, or a pile no
    zone declares), worked out once per key (:attr:`Program.pile_zones`)."""
    found = prog.pile_zones.get(key)
    if found is None:
        spec = prog.zones.get(zone_name(key)) if ids.is_zone(key) else None
        found = prog.pile_zones[key] = (spec,)
    return found[0]


def shuffle_zone(ctx: Ctx, key: str) -> None:
    st = ctx.st
    items = ctx.zones.get(key, [])
    incremental.noted(ctx, key)
    rng = Rng(st["rng"][0], st["rng"][1])
    out, rng = shuffled(rng, items)
    ctx.zones[key] = out
    for cid in out:  # whoever looked at a card loses track of it in a shuffled pile
        st["comps"][cid].pop("seen", None)
    st["rng"] = [rng.seed, rng.counter]


def random_below(ctx: Ctx, n: int) -> int:
    st = ctx.st
    value, rng = randbelow(Rng(st["rng"][0], st["rng"][1]), n)
    st["rng"] = [rng.seed, rng.counter]
    return value


def take_rng(ctx: Ctx) -> Rng:
    return Rng(ctx.st["rng"][0], ctx.st["rng"][1])


def put_rng(ctx: Ctx, rng: Rng) -> None:
    ctx.st["rng"] = [rng.seed, rng.counter]


# ---------------------------------------------------------------------------- resources
def res_get(ctx: Ctx, owner: Any, unit: str) -> int:
    st = ctx.st
    if owner is None:
        return as_int(st["gvars"].get(unit, 0))
    if is_comp(owner):
        return as_int(st["comps"][owner]["c"].get(unit, 0))
    return as_int(st["res"][seat_of(owner)].get(unit, 0))


def res_set(ctx: Ctx, owner: Any, unit: str, value: int) -> int:
    """Set a resource or counter, clamped to its bounds; return the value set."""
    spec = ctx.prog.resources.get(unit)
    if spec is not None:
        if spec.minimum is not None and value < spec.minimum:
            value = spec.minimum
        if spec.maximum is not None and value > spec.maximum:
            value = spec.maximum
    elif value < 0:
        value = 0
    st = ctx.st
    if owner is None:
        st["gvars"][unit] = value
    elif is_comp(owner):
        comp = st["comps"][owner]
        counters = comp["c"]
        if value:
            if counters.get(unit) != value:  # (replaced, never changed in place: clone_state)
                comp["c"] = {**counters, unit: value}
        elif unit in counters:
            comp["c"] = {k: v for k, v in counters.items() if k != unit}
    else:
        st["res"][seat_of(owner)][unit] = value
    return value


# ---------------------------------------------------------------------------- frames
def push(ctx: Ctx, routine: int, local: dict[str, Any]) -> None:
    ctx.st["stack"].append([routine, 0, local])


# ---------------------------------------------------------------------------- events
def handlers(
    ctx: Ctx, event: str, timing: str, args: list[Any]
) -> list[tuple[TriggerSpec, dict[str, Any]]]:
    """The triggered abilities that answer ``event`` now, in the documented order:
    rules first, then components by seat starting with the active player, each seat's in
    zone order."""
    specs = ctx.prog.triggers.get(event)
    if not specs:
        return []
    st = ctx.st
    found: list[tuple[int, int, TriggerSpec, dict[str, Any]]] = []
    n = st["players"]
    active = st["active"]
    # "active_first" (default): the active seat's triggers first; "others_first": starting
    # from the next seat, the active seat last.
    first = 1 if ctx.prog.flow.get("trigger_order") == "others_first" else 0
    order = 0
    for spec in specs:
        if (spec.timing == "before") != (timing == "before"):
            continue
        for src in _sources(ctx, spec.owner, spec.side):
            you = _owner_player(ctx, src) if src else player(active)
            local: dict[str, Any] = {"this": src, "you": you}
            for i, p in enumerate(spec.params):
                local[p] = args[i] if i < len(args) else None
            if spec.condition is not None:
                saved = ctx.loc
                ctx.loc = local
                try:
                    ok = spec.condition(ctx)
                finally:
                    ctx.loc = saved
                if not ok:
                    continue
            seat = seat_of(you) if you else active
            rank = -1 if src is None else (seat - active - first) % n
            found.append((rank, order, spec, local))
            order += 1
    found.sort(key=lambda t: (t[0], t[1]))
    return [(spec, local) for _, _, spec, local in found]


def emit(ctx: Ctx, event: str, args: list[Any], timing: str = "when") -> None:
    """Push the frames of every trigger answering ``event`` (first to run on top)."""
    if event not in ctx.prog.triggers:
        return
    found = handlers(ctx, event, timing, args)
    stack = ctx.st["stack"]
    for spec, local in found[::-1]:  # (mypyc cannot compile reversed() here)
        if spec.optional:
            local["_optional"] = text_of(ctx, spec.label)
        stack.append([spec.routine, 0, local])


# ---------------------------------------------------------------------------- decisions
def ask(
    ctx: Ctx,
    seat: int,
    prompt: str,
    options: list[list[Any]],
    kind: str = "choose",
    distinct: bool = False,
) -> None:
    """Stop and wait: ``seat`` must pick one of ``options`` ([id, label, value] triples);
    ``distinct``: their ids are known to differ (else checked: a rule offering two options
    of one id is an error)."""
    if not distinct and len({opt[0] for opt in options}) != len(options):
        seen: set[str] = set()
        for opt in options:
            if opt[0] in seen:
                raise RuleError(f"two options share the id {opt[0]!r}", DUPLICATE_OPTION)
            seen.add(opt[0])
    if ctx.prog.end_conditions:
        check_end(ctx)
    if ctx.st["result"] is not None:
        return
    pending: PendingDecision = {"seat": seat, "prompt": prompt, "kind": kind, "options": options}
    ctx.st["pending"] = pending
    ctx.stops += 1


def without_copy_number(option_id: str) -> str:
    """:func:`ids.without_copy_number`."""
    return ids.without_copy_number(option_id)


def unique_option_id(ctx: Ctx, option_id: str) -> str:
    """The pending option ``option_id`` means: itself, or the one option that names a card
    without its copy number (``spark`` for ``spark#1`` when no other Spark is offered)."""
    pending = ctx.st["pending"]
    if pending is None:
        return option_id
    options = pending["options"]
    for opt in options:  # (the common case first: the id as it is, with no list built)
        if opt[0] == option_id:
            return option_id
    ids = [opt[0] for opt in options]
    matches = [i for i in ids if i != option_id and without_copy_number(i) == option_id]
    return matches[0] if len(matches) == 1 else option_id


def option_ids(st: State) -> list[str]:
    """The option ids of the pending decision of ``st`` (none when nobody has to decide)."""
    pending = st["pending"]
    if pending is None:
        return []
    return [opt[0] for opt in pending["options"]]


def choose(ctx: Ctx, option_id: str) -> str:
    """Answer the pending decision with ``option_id`` or the one option it means without a
    card's copy number (:func:`unique_option_id`); the id answered.  One pass over the
    options when the id is one of them (a bot's, a script's: nearly always)."""
    pending = ctx.st["pending"]
    if pending is not None:
        for opt in pending["options"]:
            listed: str = opt[0]  # (typed: compiled, compared as texts, not any objects)
            if listed == option_id:
                _take(ctx, opt)
                return option_id
    option_id = unique_option_id(ctx, option_id)
    answer(ctx, option_id)
    return option_id


def choose_and_run(ctx: Ctx, option_id: str, chosen: list[str]) -> None:
    """:func:`choose` ``option_id``, append the id answered to ``chosen``, and :func:`run`
    to the next decision: :meth:`Game.choose <rulecraft.runtime.game.Game.choose>` in one
    call (from Python, each call of a compiled function costs its own)."""
    chosen.append(choose(ctx, option_id))
    run(ctx)


def _take(ctx: Ctx, opt: list[Any]) -> None:
    """The pending decision answered with option ``opt``: its value left for the frame
    that asked."""
    st = ctx.st
    frame: list[Any] = st["stack"][-1]
    loc: dict[str, Any] = frame[2]  # (typed: compiled, a dictionary's own store)
    loc["_answer"] = opt[2]
    st["pending"] = None
    st["decisions"] = as_int(st.get("decisions", 0)) + 1


def answer(ctx: Ctx, option_id: str) -> None:
    """Record the answer to the pending decision in the frame that asked."""
    pending = ctx.st["pending"]
    if pending is None:
        raise IllegalChoice("no decision is pending", option_id)
    for opt in pending["options"]:
        if opt[0] == option_id:
            _take(ctx, opt)
            return
    legal = [opt[0] for opt in pending["options"]]
    raise IllegalChoice(f"{option_id!r} is not one of the options", option_id, legal)


def play_random(ctx: Ctx, randbits: Callable[[int], int], limit: int, chosen: list[str]) -> int:
    """Answer up to ``limit`` decisions, each with an option picked uniformly at random, and
    stop early when the game ends; how many were answered (their ids appended to
    ``chosen``).  Given the ``getrandbits`` of a ``random.Random``, it picks what
    ``random.Random.choice`` of the options' ids picks, from the same draws (CPython's
    ``_randbelow``: ``k = n.bit_length()`` bits, drawn again while not below ``n``), so a
    bot's rollout plays the same moves as its loop of ``choose(rng.choice(ids))`` without a
    Python call per decision (what a search spends most of its decisions on)."""
    st = ctx.st
    done = 0
    while done < limit and st["result"] is None:
        pending = st["pending"]
        if pending is None or not pending["options"]:
            raise ValueError("a running game has no decision with options")
        options = pending["options"]
        n = len(options)
        bits = n.bit_length()
        r = randbits(bits)
        while r >= n:
            r = randbits(bits)
        opt = options[r]
        _take(ctx, opt)
        chosen.append(opt[0])
        run(ctx)
        done += 1
    return done


def take_answer(ctx: Ctx) -> tuple[bool, Any]:
    """Whether the current frame was answered, and the answer (taken out of its locals)."""
    loc = ctx.loc
    if "_answer" in loc:
        # a read and a del, not pop(): compiled, a method call costs four times as much
        value = loc["_answer"]
        del loc["_answer"]
        return True, value
    return False, None


# ---------------------------------------------------------------------------- game end
def finish(ctx: Ctx, winners: list[int], draw: bool, reason: str) -> None:
    if ctx.st["result"] is None:
        result: GameResult = {"winners": sorted(set(winners)), "draw": draw, "reason": reason}
        ctx.st["result"] = result
        ctx.st["pending"] = None
        ctx.stops += 1
        ctx.say(reason or "The game is over.")


def check_end(ctx: Ctx) -> None:
    """Evaluate the manifest's end conditions (at every decision point)."""
    st = ctx.st
    if st["result"] is not None:
        return
    n = st["players"]
    saved = ctx.loc
    try:
        for spec in ctx.prog.end_conditions:
            seats = [(st["active"] + i) % n for i in range(n)] if spec.per_seat else [st["active"]]
            for seat in seats:
                ctx.loc = {"you": player(seat), "this": None}
                if not spec.condition(ctx):
                    continue
                reason = text_of(ctx, spec.reason)
                everyone = list(range(n))
                if spec.outcome == "draw":
                    finish(ctx, [], True, reason)
                elif spec.outcome == "all_win":
                    finish(ctx, everyone, False, reason)
                elif spec.outcome == "all_lose":
                    finish(ctx, [], False, reason)
                else:
                    who = spec.who(ctx) if spec.who is not None else player(seat)
                    who_seats = [seat_of(w) for w in as_list(ctx, who)]
                    if spec.outcome == "winner":
                        finish(ctx, who_seats, False, reason)
                    else:
                        finish(ctx, [s for s in everyone if s not in who_seats], False, reason)
                return
    finally:
        ctx.loc = saved


# ---------------------------------------------------------------------------- the loop
def run(ctx: Ctx) -> None:
    """Execute until a decision is pending or the game is over.

    Every error rising from an instruction leaves as a :class:`RuleError` located at the
    ``.rcl`` place of that instruction (docs/api.md promises it)."""
    ctx.frame = []
    try:
        _run_loop(ctx)
    except RuleError as err:
        raise err.locate(_running_span(ctx)) from None
    except _FAILURES as err:
        raise rule_error(err, _running_span(ctx)) from err


#: What a rule may make Python raise; each becomes a located RuleError.
_FAILURES = (
    RecursionError,
    MemoryError,
    OverflowError,
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    ZeroDivisionError,
    AttributeError,
)


def rule_error(err: BaseException, span: Span | None) -> RuleError:
    """The RuleError standing for a Python error raised while a rule ran at ``span``."""
    if isinstance(err, RuleError):
        return err.locate(span)
    if isinstance(err, RecursionError):
        reason = (
            "the rules call themselves without end (a definition or condition that uses "
            "itself, directly or through others)"
        )
        return RuleError(reason, TOO_DEEP, span)
    if isinstance(err, MemoryError | OverflowError):
        return RuleError(f"a value grew too large to build ({type(err).__name__})", TOO_LARGE, span)
    return RuleError(f"{type(err).__name__}: {err}", RUNTIME, span)


def evaluate(ctx: Ctx, fn: Any, span: Span | None = None) -> Any:
    """``fn(ctx)`` for an expression evaluated outside :func:`run` (the API's
    ``evaluate_expr``): a failure is a RuleError, as inside a running rule."""
    try:
        return fn(ctx)
    except (RuleError, *_FAILURES) as err:
        raise rule_error(err, span) from err


def _running_span(ctx: Ctx) -> Span | None:
    """The ``.rcl`` place of the instruction running: the frame's pc already points past it."""
    frame = ctx.frame
    if not frame:
        return None
    return _span_of(ctx.prog.routines[frame[0]], frame[1] - 1)


def _span_of(routine: Routine, pc: int) -> Span:
    return routine.spans[pc] if 0 <= pc < len(routine.spans) else Span(routine.name)


def _run_loop(ctx: Ctx) -> None:
    # "pending" and "result" are read with .get(): an instruction changes them, but a type
    # checker narrows st["pending"] by the loop's own test (a call's result it does not),
    # and mypyc (``make compiled``) would compile the later tests as constants, running
    # the rules on past a decision.
    st = ctx.st
    stack = st["stack"]
    routines = ctx.prog.routines
    steps = 0
    # A decision is pending or the game is over only after a stop (ask and finish count
    # one): the state is read again only then, not each time another frame takes over.
    seen = ctx.stops - 1
    while True:
        if ctx.stops != seen:
            seen = ctx.stops
            if st.get("pending") is not None or st.get("result") is not None:
                return
        if not stack:
            finish(ctx, [], True, "The rules ran out.")
            return
        frame = stack[-1]
        routine = routines[frame[0]]
        ctx.frame = frame
        ctx.loc = frame[2]
        # The top frame's routine runs until it ends, another frame takes over, or
        # somebody must decide: its generated function (compile/routine_code.py), or its
        # instructions one at a time.
        budget = MAX_STEPS_PER_DECISION - steps
        generated = routine.run
        steps += interpret(ctx, routine, budget) if generated is None else generated(ctx, budget)
        if steps > MAX_STEPS_PER_DECISION:
            endless(ctx, frame[1] - 1)


def interpret(ctx: Ctx, routine: Routine, budget: int) -> int:
    """Run the top frame (``ctx.frame``, of ``routine``) from its ``pc``, an instruction at
    a time, until the routine ends (its frame popped), somebody must decide or the game is
    over (a stop), another frame takes over, or more than ``budget`` steps ran (an error
    where it next goes back); give the number of steps.  What a routine's generated
    function does in one piece (:mod:`rulecraft.compile.routine_code`)."""
    frame = ctx.frame
    stack = ctx.st["stack"]
    code = routine.code
    size = len(code)
    steps = 0
    while True:
        pc: int = frame[1]
        if pc >= size:
            stack.pop()
            return steps
        frame[1] = pc + 1
        stops: int = ctx.stops
        code[pc](ctx)
        steps += 1
        if ctx.stops != stops or not stack or stack[-1] is not frame:
            return steps
        # Only where it goes back (a loop's jump to its top), as the generated function
        # checks: an endless loop stops at the same instruction either way.
        if frame[1] <= pc and steps > budget:
            endless(ctx, pc)


def endless(ctx: Ctx, pc: int) -> NoReturn:
    """Stop rules that ran more steps than a decision may take, at the instruction ``pc``
    of the running frame (the last one run)."""
    routine = ctx.prog.routines[ctx.frame[0]]
    raise RuleError(
        "the rules run in a loop without asking anybody anything "
        f"({MAX_STEPS_PER_DECISION:,} steps)",
        ENDLESS_LOOP,
        _span_of(routine, pc),
    )


def new_state(prog: Program, players: int, seed: int, lang: str) -> State:
    """The state before setup runs: every component in its starting zone.

    A copy of the start built once per number of players (:attr:`Program.start_states`),
    with this game's seed and language."""
    start: State | None = prog.start_states.get(players)
    if start is None:
        start = prog.start_states[players] = _start_state(prog, players)
    st = clone_state(start)
    st["lang"] = lang
    st["rng"] = [seed & ((1 << 64) - 1), 0]
    return st


def _start_state(prog: Program, players: int) -> State:
    zones: dict[str, list[str]] = {}
    for name, zspec in prog.zones.items():
        if zspec.per_player:
            for seat in range(players):
                zones[ids.zone_key(name, seat)] = []
        else:
            zones[ids.zone_key(name)] = []
    if prog.map is not None:
        for space in prog.map.spaces:
            zones[ids.space_id(space)] = []
    comps: dict[str, ComponentState] = {}
    for place in prog.placements:
        d = prog.defs[place.def_id]
        kind = prog.kinds.get(d.kind)
        seats: list[int | None] = list(range(players)) if place.per_player else [None]
        for n, owner in enumerate(seats):
            key = zone_key(prog, place.zone, owner)
            for j in range(place.copies):
                cid = ids.component_id(d.id, n * place.copies + j + 1)
                zones[key].append(cid)
                comps[cid] = {
                    "d": d.id,
                    "z": key,
                    "o": owner,
                    "s": kind.sides[0] if kind and kind.sides else None,
                    "x": False,
                    "c": {},
                    "f": [],
                    "p": {},
                }
    res: list[dict[str, int]] = [{} for _ in range(players)]
    gvars: dict[str, Any] = {}
    for name, spec in prog.resources.items():
        if spec.per_player:
            for r in res:
                r[name] = spec.start
        else:
            gvars[name] = spec.start
    for name, fspec in prog.fields.items():
        for holder in res if fspec.per_player else [gvars]:
            holder[name] = fspec.default
    st: State = {
        "v": STATE_VERSION,
        "game": prog.name,
        "lang": "",
        "players": players,
        "rng": [0, 0],
        "active": 0,
        "start": 0,
        "turn": 0,
        "round": 0,
        "phase": -1,
        "res": res,
        "pflags": [[] for _ in range(players)],
        "gvars": gvars,
        "gflags": [],
        "zones": zones,
        "comps": comps,
        "stack": [[prog.main, 0, {"you": player(0), "this": None}]],
        "pending": None,
        "events": [],
        "used": {},
        "decisions": 0,
        "result": None,
        "mem": {},
    }
    return st


def copy_ctx(ctx: Ctx) -> Ctx:
    """A context over a cloned state (for look-ahead), logging nothing."""
    return Ctx(ctx.prog, clone_state(ctx.st), ctx.lang, None)
