"""Field access and the built-in functions of the expression language.

Everything here is generic: fields of players, components, zones and map spaces, and
functions over collections and the map.  Rulesets add their own functions with ``define``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from rulecraft.runtime import ids
from rulecraft.runtime import map as spatial
from rulecraft.runtime.engine import (
    MAX_NUMBER,
    MAX_VALUE_SIZE,
    TOO_LARGE,
    Ctx,
    RuleError,
    as_list,
    comp_name,
    controller,
    definition_of,
    has_flag,
    modified,
    player,
    record_attr,
    res_get,
    seat_of,
    walked,
    zone_name,
    zone_owner,
)
from rulecraft.runtime.ids import (
    COPY,
    DEFINITION_HEAD,
    NAME_MARK,
    NAME_MARK_AT,
    PLAYER,
    SPACE_HEAD,
    ZONE_HEAD,
)
from rulecraft.runtime.state import ComponentState
from rulecraft.runtime.values import COMPONENT_FIELDS


def player_field(ctx: Ctx, seat: int, field: str) -> Any:
    prog = ctx.prog
    zone = prog.zones.get(field)
    if zone is not None:
        return ids.zone_key(field, seat if zone.per_player else None)
    if field in prog.resources:
        return res_get(ctx, player(seat), field)
    n = ctx.st["players"]
    if field == "seat":
        return seat
    if field == "next":
        return player((seat + 1) % n)
    if field == "previous":
        return player((seat - 1) % n)
    if field == "name":
        return f"Player {seat + 1}"
    return ctx.st["res"][seat].get(field, 0)


#: The fields every component answers by itself (its place, side, owner...); any other name
#: is one of its counters, attributes or effects.  Tested once, so a card's own ``cost`` does
#: not walk the whole chain of comparisons below (the hottest read of card games).
_COMP_BUILTIN_FIELDS: Final = COMPONENT_FIELDS - {"text", "traits"}  # those two are attributes


def comp_field(ctx: Ctx, cid: str, field: str) -> Any:
    comp = ctx.comps[cid]
    if field not in _COMP_BUILTIN_FIELDS:
        return _comp_own_field(ctx, cid, comp, field)
    if field == "id":
        return cid
    if field == "def":
        return ids.def_id(comp["d"])
    if field == "kind":
        return definition_of(ctx, cid, comp).kind
    if field == "owner":
        o = comp.get("o")
        return None if o is None else player(o)
    if field == "controller":
        return player(controller(ctx, cid))
    if field == "zone":
        return comp["z"]
    if field == "space":
        return comp["z"] if ids.is_space(comp["z"]) else None
    if field in ("side", "face"):
        return comp.get("s")
    if field == "exhausted":
        return bool(comp.get("x"))
    if field == "facedown":
        return bool(comp.get("down"))
    if field == "name":
        return comp_name(ctx, cid)
    if field == "position":
        pile = ctx.zones.get(comp["z"], [])
        return pile.index(cid) if cid in pile else -1
    if field == "used":
        return _comp_used(ctx, cid)
    if field in ("x", "y", "terrain") and ids.is_space(comp["z"]):
        return space_field(ctx, comp["z"], field)
    return _comp_own_field(ctx, cid, comp, field)


def _comp_own_field(ctx: Ctx, cid: str, comp: ComponentState, field: str) -> Any:
    """A component's counter, attribute (modified) or effect named ``field``."""
    counters = comp["c"]
    if field in counters:
        return counters[field]
    value = record_attr(ctx, cid, comp, field)
    if value is None:
        d = definition_of(ctx, cid, comp)
        if field in d.effects:
            # an effect attribute as a value says whether the card has that effect
            # (`where it.on_play != none`); as a statement, `card.on_play` runs it
            return True
        kind = ctx.prog.kinds.get(d.kind)
        if kind is not None and field in kind.counters:
            value = 0
    return modified(ctx, cid, field, value)


def _comp_used(ctx: Ctx, cid: str) -> bool:
    """Has one of the component's abilities been used this turn?"""
    used = ctx.st["used"]
    if used:
        prefixes = ctx.prog.used_prefixes
        prefix = prefixes.get(cid)
        if prefix is None:
            prefix = prefixes[cid] = "turn|" + ids.ability_option_prefix(cid)
        for k in used:
            if k.startswith(prefix):
                return True
    return False


def is_facedown(ctx: Ctx, obj: Any) -> Any:
    """``obj.facedown``, as :func:`get_field` reads it: a component's in one step, not
    through the chain of the fields every component answers (an ability's condition may
    ask it of every card a menu considers)."""
    if type(obj) is str:
        comp = ctx.comps.get(obj)
        if comp is not None:
            return bool(comp.get("down"))
    return get_field(ctx, obj, "facedown")


def was_used(ctx: Ctx, obj: Any) -> Any:
    """``obj.used``, as :func:`get_field` reads it: a component's in one step."""
    if type(obj) is str and obj in ctx.comps:
        return _comp_used(ctx, obj)
    return get_field(ctx, obj, "used")


def space_field(ctx: Ctx, key: str, field: str) -> Any:
    # (the commonest fields first: what moving pieces asks of every space it weighs)
    if field in ("pieces", "cards"):
        return list(ctx.zones.get(key, ()))
    if field == "empty":
        return not ctx.zones.get(key)
    mp = spatial.current_map(ctx)  # with map tiles, where this game placed them
    if field == "cost":  # (what moving pieces weighs most: kept by the space's pile)
        cost = mp.key_costs.get(key)
        if cost is None:
            cost = mp.key_costs[key] = spatial.enter_cost(mp, ids.space_name(key))
        return cost
    sid = ids.space_name(key)
    if field == "neighbors":
        known = mp.neighbor_keys.get(sid)
        if known is None:
            known = mp.neighbor_keys[sid] = tuple(
                ids.space_id(n) for n in mp.adjacency.get(sid, ())
            )
        return list(known)
    if field == "terrain":
        return mp.terrain.get(sid)
    if field == "x":
        return mp.coords[sid][0]
    if field == "y":
        return mp.coords[sid][1]
    if field == "id":
        return sid
    raise RuleError(f"a space has no field {field!r}")


def zone_field(ctx: Ctx, key: str, field: str) -> Any:
    pile = ctx.zones.get(key, [])
    if field in ("count", "size"):
        return len(pile)
    if field == "top":
        return pile[-1] if pile else None
    if field == "bottom":
        return pile[0] if pile else None
    if field in ("cards", "contents"):
        return list(pile)
    if field == "empty":
        return not pile
    if field == "owner":
        o = zone_owner(key)
        return None if o is None else player(o)
    if field == "name":
        return zone_name(key)
    # any other field is that field of every card in it, as for a list (sum(you.hand.coins))
    return [get_field(ctx, cid, field) for cid in pile]


def kind_of(ctx: Ctx, obj: Any) -> Any:
    """``obj.kind``, as :func:`get_field` reads it: a component's from its definition in
    one step (the field rules test most, ``where it.kind == person``)."""
    if type(obj) is str:
        comp = ctx.comps.get(obj)
        if comp is not None:
            return definition_of(ctx, obj, comp).kind
    return get_field(ctx, obj, "kind")


def controller_of(ctx: Ctx, obj: Any) -> Any:
    """``obj.controller``, as :func:`get_field` reads it: a component's in one step
    (rules ask it of every card they weigh, ``it.controller.people``)."""
    if type(obj) is str and obj in ctx.comps:
        return player(controller(ctx, obj))
    return get_field(ctx, obj, "controller")


def owner_of(ctx: Ctx, obj: Any) -> Any:
    """``obj.owner``, as :func:`get_field` reads it: a component's in one step."""
    if type(obj) is str:
        comp = ctx.comps.get(obj)
        if comp is not None:
            o = comp.get("o")
            return None if o is None else player(o)
    return get_field(ctx, obj, "owner")


def zone_of(ctx: Ctx, obj: Any) -> Any:
    """``obj.zone``, as :func:`get_field` reads it: a component's in one step."""
    if type(obj) is str:
        comp = ctx.comps.get(obj)
        if comp is not None:
            return comp["z"]
    return get_field(ctx, obj, "zone")


#: The fields of every component read by a function of their own (:func:`get_field`'s
#: answer, without the chain of comparisons): what the compilers call for ``x.field``.
FIELD_READERS: Final[dict[str, Callable[[Ctx, Any], Any]]] = {
    "kind": kind_of,
    "facedown": is_facedown,
    "used": was_used,
    "controller": controller_of,
    "owner": owner_of,
    "zone": zone_of,
}


def own_field(ctx: Ctx, obj: Any, field: str) -> Any:
    """``obj.field`` for a ``field`` no component answers by itself (a counter, an
    attribute, an effect), as :func:`get_field` reads it: a component's without the tests
    for the other sorts of value and for the built-in fields."""
    if type(obj) is str:
        comp = ctx.comps.get(obj)
        if comp is not None:
            return _comp_own_field(ctx, obj, comp, field)
        # (a map's rules read their spaces' costs and pieces)
        if len(obj) > 1 and obj[NAME_MARK_AT] == NAME_MARK and obj[0] == SPACE_HEAD:
            return space_field(ctx, obj, field)
    return get_field(ctx, obj, field)


def is_own_field(field: str) -> bool:
    """Is ``field`` a name no component answers by itself (:func:`own_field` reads it)?

    >>> is_own_field("cost"), is_own_field("zone")
    (True, False)
    """
    return field not in _COMP_BUILTIN_FIELDS


def index_value(ctx: Ctx, obj: Any, key: Any) -> Any:
    """``obj[key]``: an item of a list (none outside it; ``-1`` is the last), or the field
    ``key`` names of anything else (``card["cost"]``).

    The closures and the generated code of an expression both call it, so they agree."""
    if isinstance(obj, list):
        i = int(key)
        return obj[i] if -len(obj) <= i < len(obj) else None
    return get_field(ctx, obj, str(key))


def get_field(ctx: Ctx, obj: Any, field: str) -> Any:
    """``obj.field`` for any runtime value."""
    if obj is None:
        return None
    if isinstance(obj, str):
        # A component first, by one lookup (most fields read are cards'): no id of another
        # sort is a key of the components.
        comp = ctx.comps.get(obj)
        if comp is not None:
            if field in _COMP_BUILTIN_FIELDS:
                return comp_field(ctx, obj, field)
            return _comp_own_field(ctx, obj, comp, field)
        # Two characters tell the sort of id apart (read at every field access of every
        # rule): the ids module's constants compared in place, not its is_* functions (a
        # call each), nor a slice (compiled, a string made and freed).
        head = obj[:1]
        if head == PLAYER:
            return player_field(ctx, ids.seat_of(obj), field)
        named = len(obj) > 1 and obj[NAME_MARK_AT] == NAME_MARK
        if named and head == ZONE_HEAD:
            return zone_field(ctx, obj, field)
        if named and head == SPACE_HEAD:
            return space_field(ctx, obj, field)
        if named and head == DEFINITION_HEAD:
            d = ctx.prog.defs[ids.def_name(obj)]
            if field == "name":
                return d.name
            if field == "kind":
                return d.kind
            return d.attributes.get(field)
        if COPY in obj:  # ids.is_component(obj): the prefixes it excludes are excluded above
            return comp_field(ctx, obj, field)
        raise RuleError(f"{obj!r} has no field {field!r}")
    if isinstance(obj, dict):
        if field == "dice" and "faces" in obj:
            from rulecraft.runtime.chance import die_records

            return die_records(ctx, obj)
        return obj.get(field, 0)
    if isinstance(obj, list):
        if field == "count":
            return len(obj)
        if field == "first":
            return obj[0] if obj else None
        if field == "last":
            return obj[-1] if obj else None
        # players.hand, cards.cost: the field of every element
        return [get_field(ctx, x, field) for x in obj]
    raise RuleError(f"{obj!r} has no field {field!r}")


# ---------------------------------------------------------------------------- functions
Builtin = Callable[[Ctx, list[Any]], Any]


def _count(ctx: Ctx, a: list[Any]) -> int:
    return len(as_list(ctx, a[0]))


def _sum(ctx: Ctx, a: list[Any]) -> int:
    return sum(int(x) for x in as_list(ctx, a[0]))


def _min(ctx: Ctx, a: list[Any]) -> Any:
    items = as_list(ctx, a[0]) if len(a) == 1 else a
    return min(items) if items else 0


def _max(ctx: Ctx, a: list[Any]) -> Any:
    items = as_list(ctx, a[0]) if len(a) == 1 else a
    return max(items) if items else 0


def _any(ctx: Ctx, a: list[Any]) -> bool:
    return bool(as_list(ctx, a[0]))


# first, last and top read a pile in place (walked): one element, or a slice of their own
def _first(ctx: Ctx, a: list[Any]) -> Any:
    items = walked(ctx, a[0])
    return items[0] if items else None


def _last(ctx: Ctx, a: list[Any]) -> Any:
    items = walked(ctx, a[0])
    return items[-1] if items else None


def _top(ctx: Ctx, a: list[Any]) -> Any:
    items = walked(ctx, a[0])
    if len(a) > 1:
        n = int(a[1])
        return items[-n:][::-1] if n > 0 else []
    return items[-1] if items else None


def _abs(ctx: Ctx, a: list[Any]) -> int:
    return abs(int(a[0]))


def _half_up(ctx: Ctx, a: list[Any]) -> int:
    return -(-int(a[0]) // 2)


def is_empty(ctx: Ctx, value: Any) -> bool:
    """``empty(value)``, as both compilers of expressions work it out: no card in a zone's
    or a space's pile (read in place, not copied), else nothing in ``value`` as a
    collection (a definition: its copies, as ``count`` has them; a text: itself).

    >>> import rulecraft
    >>> game = rulecraft.load("tictactoe").new_game(seed=0)
    >>> texts = ("you.supply", "space_at(1, 1)", "none", '"a"')
    >>> [game.evaluate_expr(f"empty({x})", 0) for x in texts]
    [False, True, True, False]
    """
    if ids.is_place(value):
        return not ctx.zones.get(value)
    return not as_list(ctx, value)


def _empty(ctx: Ctx, a: list[Any]) -> bool:
    return is_empty(ctx, a[0])


def _owner(ctx: Ctx, a: list[Any]) -> Any:
    return get_field(ctx, a[0], "owner")


def _has(ctx: Ctx, a: list[Any]) -> bool:
    return has_flag(ctx, a[0], str(a[1]))


def _component(ctx: Ctx, a: list[Any]) -> Any:
    """``component("goblin#2")``: one copy by its id (ids hold ``#``, which starts a comment in
    source text, so they are written as texts); none if there is no such component."""
    cid = str(a[0])
    return cid if cid in ctx.comps else None


def _reverse(ctx: Ctx, a: list[Any]) -> list[Any]:
    """The collection in reverse order (``reverse(players)``: a setup step in reverse turn
    order)."""
    return list(reversed(as_list(ctx, a[0])))


def _range(ctx: Ctx, a: list[Any]) -> list[int]:
    """``range(1, 3)`` is ``[1, 2, 3]``: both ends included, as a rulebook counts."""
    low, high = int(a[0]), int(a[1])
    _check_size(high - low + 1, f"range({low}, {high})")
    return list(range(low, high + 1))


# ---------------------------------------------------------------------------- bounded values
def _check_size(size: int, what: str) -> None:
    if size > MAX_VALUE_SIZE:
        raise RuleError(
            f"{what} would hold {size:,} items; values are limited to {MAX_VALUE_SIZE:,}",
            TOO_LARGE,
        )


def bounded(value: Any) -> Any:
    """``value`` itself if it is within the runtime limits (numbers up to ``MAX_NUMBER``,
    texts and lists up to ``MAX_VALUE_SIZE`` items), else a :class:`RuleError`."""
    if type(value) is int:
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
        raise RuleError(f"a number grew beyond {MAX_NUMBER:,}", TOO_LARGE)
    if isinstance(value, str | list):
        _check_size(len(value), "a text" if isinstance(value, str) else "a list")
    return value


def multiply(a: Any, b: Any) -> Any:
    """``*``: numbers multiply; a text or list repeats, checked *before* it is built
    (``"ab" * 2000000000`` is a located error, not gigabytes of memory)."""
    if isinstance(a, str | list) and type(b) is int:
        _check_size(len(a) * max(b, 0), "a repeated text or list")
    elif isinstance(b, str | list) and type(a) is int:
        _check_size(len(b) * max(a, 0), "a repeated text or list")
    return bounded(a * b)


def _seat(ctx: Ctx, a: list[Any]) -> int:
    return seat_of(a[0])


BUILTINS: dict[str, tuple[Builtin, int, int]] = {
    # name: (function, minimum arguments, maximum arguments)
    "count": (_count, 1, 1),
    "sum": (_sum, 1, 1),
    "min": (_min, 1, 8),
    "max": (_max, 1, 8),
    "any": (_any, 1, 1),
    "first": (_first, 1, 1),
    "last": (_last, 1, 1),
    "top": (_top, 1, 2),
    "abs": (_abs, 1, 1),
    "half_up": (_half_up, 1, 1),
    "empty": (_empty, 1, 1),
    "owner": (_owner, 1, 1),
    "seat": (_seat, 1, 1),
    "range": (_range, 2, 2),
    "reverse": (_reverse, 1, 1),
    "component": (_component, 1, 1),
    "path": (spatial.path, 2, 2),
    "adjacent": (spatial.adjacent, 2, 2),
    "distance": (spatial.distance, 2, 2),
    "space_at": (spatial.space_at, 2, 2),
    "in_a_row": (spatial.in_a_row, 2, 2),
    "path_cost": (spatial.path_cost, 2, 2),
    "reach": (spatial.reach, 2, 2),
    "line_of_sight": (spatial.line_of_sight, 2, 2),
    "step": (spatial.step, 2, 2),
    "direction": (spatial.direction, 2, 2),
}
