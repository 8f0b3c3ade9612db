"""The id encodings: the one module that knows how runtime ids are spelt.

Every runtime value is plain JSON (design rule 2), so players, zones, spaces, components
and the options of a decision are strings, told apart by their shape:

======================  ===============================================================
``"@1"``                a player (seat 1): :func:`player_id`, :func:`seat_of`
``"z:hand@1"``          a zone (``hand`` of seat 1; ``"z:pile"`` when shared):
                        :func:`zone_key`, :func:`split_zone_key`
``"s:b2"``              a map space, also the key of the zone holding its pieces:
                        :func:`space_id`, :func:`space_name`
``"d:goblin"``          a component definition: :func:`def_id`, :func:`def_name`
``"mark#2"``            a component, copy 2 of definition ``mark``: :func:`component_id`,
                        :func:`component_def`
``"act:place:b2"``      an action's option (``"act:pass_turn"`` without a target):
                        :func:`action_option`
``"ab:mark#2:0"``       a card's ability's option: :func:`ability_option`
``"pass"``, ``"opt1"``  passing; the first of a ``choose one`` list's options
======================  ===============================================================

Anything else is a symbol (a kind, a side, a flag, an enum value).  Outside this module no
code spells a prefix: ``tests/engine/test_id_encodings.py`` scans ``src/`` for it.

These functions sit on the engine's hottest paths (every field access asks what sort of
id it holds), so they test one character at a time: ``len(v) > 1 and v[1] == ":" and
v[0] == "z"`` rather than ``v[:2] == "z:"`` (compiled, a slice is a new string made and
freed, 1.8% of a card game's search's instructions; a character is one the interpreter
keeps) or ``v.startswith("z:")`` (a method call, no faster interpreted).  The constants
below are public for the hot loops that test a prefix in place, saving a call each
(``len(key) > 1 and key[NAME_MARK_AT] == NAME_MARK and key[0] == SPACE_HEAD``).

The keys of piles and components (:func:`zone_key`, :func:`space_id`, :func:`def_id`,
:func:`component_id`) come out interned (``sys.intern``): a key that compiled rules hold
as a constant and the same key in the state are one object, which a dictionary finds by
identity, without comparing characters (``tests/engine/test_interned_keys.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final

from rulecraft.errors import RuleError

#: A player's id starts with this: ``"@0"``.
PLAYER: Final = "@"
#: A zone's key starts with this: ``"z:hand@0"``, ``"z:pile"``.
ZONE: Final = "z:"
#: Between a zone's name and its owner's seat in a zone key: ``"z:hand@0"``.
OWNER: Final = "@"
#: A map space's id starts with this: ``"s:b2"``.
SPACE: Final = "s:"
#: A component definition's id starts with this: ``"d:goblin"``.
DEFINITION: Final = "d:"
#: Between a component's definition and its copy number: ``"mark#2"``.
COPY: Final = "#"
#: An action's option id starts with this: ``"act:place:b2"``.
ACTION: Final = "act:"
#: A card ability's option id starts with this: ``"ab:mark#2:0"``.
ABILITY: Final = "ab:"
#: The option id of passing an action menu.
PASS: Final = "pass"
#: The option ids of a ``choose up to`` list's "done", of a yes-or-no question, of a roll.
DONE: Final = "done"
YES: Final = "yes"
NO: Final = "no"
ROLL: Final = "roll"
#: The option ids of a plan (:mod:`rulecraft.runtime.plan`): carry it out, start again.
PLAN_EXECUTE: Final = "plan:execute"
PLAN_RESET: Final = "plan:reset"

# The kinds' prefixes a component id never starts with, and their first characters.
_NOT_COMPONENT: Final = (ZONE, SPACE, PLAYER)
#: The first characters of the prefixes of zones, spaces and definitions.
ZONE_HEAD: Final = ZONE[0]
SPACE_HEAD: Final = SPACE[0]
DEFINITION_HEAD: Final = DEFINITION[0]
#: The prefixes of the ids that hold a name after them: zones, spaces, definitions.
NAMED: Final = (ZONE, SPACE, DEFINITION)
#: Each of them is two characters ending in this, and no other id (a player's, a
#: component's) holds it second: generated code tests ``value[1] == ":"``, one character
#: (as fast as it gets), where :func:`is_place` would cost a call.
NAME_MARK: Final = ":"
NAME_MARK_AT: Final = 1


# ---------------------------------------------------------------------------- players
#: The ids of the first seats and the seat of each, made once: a player's id is made or
#: read at every turn and every menu (a made id is a new string, hashed again where used).
#: The seats a state may hold (its schema's bound, seats 0 to 63).
SEATS: Final = 64
_PLAYER_IDS: Final = tuple(sys.intern(f"{PLAYER}{seat}") for seat in range(SEATS))
_SEATS: Final = {pid: seat for seat, pid in enumerate(_PLAYER_IDS)}


def by_player(value: Callable[[int], Any]) -> dict[str, Any]:
    """``value(seat)`` by the id of every player a state may hold: the table compiled
    rules look a player's pile or number up in, instead of cutting the id apart.

    >>> by_player(lambda seat: zone_key("hand", seat))["@1"]
    'z:hand@1'
    """
    return {pid: value(seat) for seat, pid in enumerate(_PLAYER_IDS)}


def player_id(seat: int) -> str:
    """The id of the player in ``seat`` (seats count from 0).

    >>> player_id(0), player_id(3), player_id(70)
    ('@0', '@3', '@70')
    """
    if 0 <= seat < 64:
        return _PLAYER_IDS[seat]
    return f"{PLAYER}{seat}"


def is_player(value: object) -> bool:
    """Is ``value`` a player's id?

    >>> is_player("@1"), is_player("z:hand@1"), is_player(1)
    (True, False, False)
    """
    return isinstance(value, str) and value[:1] == "@"


def seat_of(value: object) -> int:
    """The seat of a player's id; a seat number stays as it is.

    >>> seat_of("@2"), seat_of(2)
    (2, 2)
    >>> seat_of("z:hand@2")
    Traceback (most recent call last):
    ...
    rulecraft.errors.RuleError: expected a player, got 'z:hand@2' (RC300)
    """
    if isinstance(value, str):
        seat = _SEATS.get(value)
        if seat is not None:
            return seat
        if value[:1] == "@":
            return int(value[1:])
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise RuleError(f"expected a player, got {value!r}")


def parse_player(text: str) -> int | None:
    """The seat of ``text`` if it is exactly a player's id, else ``None``.

    >>> parse_player("@1"), parse_player("@x"), parse_player("s:a1")
    (1, None, None)
    """
    if text[:1] == "@" and text[1:].isdigit() and text[1:].isascii():
        return int(text[1:])
    return None


# ---------------------------------------------------------------------------- zones
def zone_key(name: str, owner: int | None = None) -> str:
    """The key of zone ``name`` in the state: of seat ``owner``, or shared (``None``).

    >>> zone_key("hand", 0), zone_key("pile")
    ('z:hand@0', 'z:pile')
    """
    return sys.intern(f"z:{name}" if owner is None else f"z:{name}@{owner}")


def is_zone(value: object) -> bool:
    """Is ``value`` a zone's key (not a map space's)?

    >>> is_zone("z:hand@0"), is_zone("s:b2"), is_zone(None)
    (True, False, False)
    """
    return (
        isinstance(value, str)
        and len(value) > 1
        and value[NAME_MARK_AT] == NAME_MARK
        and value[0] == ZONE_HEAD
    )


def is_place(value: object) -> bool:
    """Is ``value`` a key of the state's ``zones``: a zone or a map space?

    >>> is_place("z:pile"), is_place("s:b2"), is_place("mark#1")
    (True, True, False)
    """
    if not isinstance(value, str) or len(value) < 2 or value[NAME_MARK_AT] != NAME_MARK:
        return False
    return value[0] in (ZONE_HEAD, SPACE_HEAD)


def zone_key_stem(name: str) -> str:
    """The key of a zone every player has, less the owner's seat: generated code appends
    the seat to it.

    >>> zone_key_stem("hand") + "1" == zone_key("hand", 1)
    True
    """
    return f"z:{name}@"


def split_zone_key(key: str) -> tuple[str, int | None]:
    """A zone key taken apart: its zone's name and its owner's seat (``None``: shared).

    >>> split_zone_key("z:hand@1"), split_zone_key("z:pile")
    (('hand', 1), ('pile', None))
    """
    name, sep, owner = key[2:].partition("@")
    return name, (int(owner) if sep else None)


#: Zone keys already taken apart (``z:hand@1`` -> ``hand`` and seat 1): legal-move
#: generation asks for every zone and card at every decision, and a game has few keys
#: (zones times seats, plus spaces).  Bounded all the same; past the bound keys are split
#: each time.
_ZONE_NAMES: Final[dict[str, str]] = {}
_ZONE_OWNERS: Final[dict[str, int | None]] = {}
_ZONE_CACHE_BOUND: Final = 1 << 16


def zone_name(key: str) -> str:
    """The zone's name in a zone key; any other key (a space's) stays as it is.

    >>> zone_name("z:hand@1"), zone_name("z:pile"), zone_name("s:b2")
    ('hand', 'pile', 's:b2')
    """
    name = _ZONE_NAMES.get(key)
    if name is None:
        name = key[2:].split("@", 1)[0] if key[:2] == "z:" else key
        if len(_ZONE_NAMES) < _ZONE_CACHE_BOUND:
            _ZONE_NAMES[key] = name
    return name


#: Pile keys -> the name of the place a kind's ``active_in`` names them by (see place_name).
_PLACE_NAMES: Final[dict[str, str]] = {}


def place_name(key: str) -> str:
    """Where a pile lies as a kind's ``active_in`` names it: a zone by its name, every
    space of the map as ``map``.

    >>> place_name("z:hand@1"), place_name("z:pile"), place_name("s:b2")
    ('hand', 'pile', 'map')
    """
    name = _PLACE_NAMES.get(key)
    if name is None:
        name = "map" if key[:2] == SPACE else zone_name(key)
        if len(_PLACE_NAMES) < _ZONE_CACHE_BOUND:
            _PLACE_NAMES[key] = name
    return name


def zone_owner(key: str) -> int | None:
    """The owner's seat in a zone key; a shared zone or a space has none (``None``).

    >>> zone_owner("z:hand@1"), zone_owner("z:pile"), zone_owner("s:b2")
    (1, None, None)
    """
    if key in _ZONE_OWNERS:
        return _ZONE_OWNERS[key]
    owner = int(key.rsplit("@", 1)[1]) if key[:2] == "z:" and "@" in key else None
    if len(_ZONE_OWNERS) < _ZONE_CACHE_BOUND:
        _ZONE_OWNERS[key] = owner
    return owner


# ---------------------------------------------------------------------------- map spaces
def space_id(name: str) -> str:
    """The id of the map space named ``name`` (also the key of the zone of its pieces).

    >>> space_id("b2")
    's:b2'
    """
    return sys.intern("s:" + name)


def is_space(value: object) -> bool:
    """Is ``value`` a map space's id?

    >>> is_space("s:b2"), is_space("z:pile"), is_space(3)
    (True, False, False)
    """
    return (
        isinstance(value, str)
        and len(value) > 1
        and value[NAME_MARK_AT] == NAME_MARK
        and value[0] == SPACE_HEAD
    )


def space_name(value: str) -> str:
    """The name of a space in its id (``value`` must be a space's id).

    >>> space_name("s:b2")
    'b2'
    """
    return value[2:]


# ---------------------------------------------------------------------------- definitions
def def_id(name: str) -> str:
    """The id of the component definition ``name`` (``goblin.def``, ``cards of goblin``).

    >>> def_id("goblin")
    'd:goblin'
    """
    return sys.intern("d:" + name)


def is_def(value: object) -> bool:
    """Is ``value`` a component definition's id?

    >>> is_def("d:goblin"), is_def("goblin#1")
    (True, False)
    """
    return (
        isinstance(value, str)
        and len(value) > 1
        and value[NAME_MARK_AT] == NAME_MARK
        and value[0] == DEFINITION_HEAD
    )


def def_name(value: str) -> str:
    """The definition's name in its id (``value`` must be a definition's id).

    >>> def_name("d:goblin")
    'goblin'
    """
    return value[2:]


def bare_name(value: str) -> str:
    """A space's or a definition's name without its prefix; any other id as it is (how
    an option id names its target: ``act:place:b2``, not ``act:place:s:b2``).

    >>> bare_name("s:b2"), bare_name("d:goblin"), bare_name("mark#1"), bare_name("@0")
    ('b2', 'goblin', 'mark#1', '@0')
    """
    named = len(value) > 1 and value[NAME_MARK_AT] == NAME_MARK
    return (
        value[NAME_MARK_AT + 1 :] if named and value[0] in (SPACE_HEAD, DEFINITION_HEAD) else value
    )


# ---------------------------------------------------------------------------- components
def component_id(definition: str, copy: int) -> str:
    """The id of copy ``copy`` (counting from 1) of definition ``definition``.

    >>> component_id("mark", 2)
    'mark#2'
    """
    return sys.intern(f"{definition}#{copy}")


def is_component(value: object) -> bool:
    """Is ``value`` a component's id?  (A zone key or a player never is, though a zone of
    a definition's name may hold a ``#``.)

    >>> is_component("mark#2"), is_component("mark"), is_component("z:a#b@0")
    (True, False, False)
    >>> is_component("s:a#1"), is_component("@1#2"), is_component("d:a#b"), is_component("#")
    (False, False, True, True)
    """
    if not isinstance(value, str) or COPY not in value:
        return False
    # One character at a time, not startswith(_NOT_COMPONENT): compiled, that built the
    # tuple and matched three prefixes at every call (a move tests each card it moves).
    head = value[:1]
    if head == PLAYER:
        return False
    return value[1:2] != NAME_MARK or (head != ZONE_HEAD and head != SPACE_HEAD)


def component_def(cid: str) -> str:
    """The definition's name of a component id: ``mark`` for ``mark#2``.

    >>> component_def("mark#2"), component_def("a#b#3")
    ('mark', 'a#b')
    """
    return cid.rsplit("#", 1)[0]


def has_copy_number(text: str) -> bool:
    """Does ``text`` hold a component's copy separator (a card named in an id or text)?

    >>> has_copy_number("act:buy:gold#2"), has_copy_number("act:buy:gold")
    (True, False)
    """
    return "#" in text


def without_copy_number(option_id: str) -> str:
    """An id with its card's copy number dropped: ``act:play:spark`` for
    ``act:play:spark#1``; an id that ends in no copy number stays as it is.

    >>> without_copy_number("act:play:spark#1"), without_copy_number("act:pass_turn")
    ('act:play:spark', 'act:pass_turn')
    """
    head, sep, tail = option_id.rpartition("#")
    return head if sep and tail.isdigit() else option_id


# ---------------------------------------------------------------------------- options
def action_option(action: str, target: str | None = None) -> str:
    """The option id of action ``action``, of its ``target`` (a value's id) if it has one.

    >>> action_option("pass_turn"), action_option("place", "b2")
    ('act:pass_turn', 'act:place:b2')
    """
    return f"act:{action}" if target is None else f"act:{action}:{target}"


def ability_option(cid: str, index: int) -> str:
    """The option id of the ``index``-th ability of component ``cid``.

    >>> ability_option("mark#2", 0)
    'ab:mark#2:0'
    """
    return f"ab:{cid}:{index}"


def ability_option_prefix(cid: str) -> str:
    """What the option ids of every ability of ``cid`` start with.

    >>> ability_option("mark#2", 1).startswith(ability_option_prefix("mark#2"))
    True
    """
    return f"ab:{cid}:"


def position_id(key: str, index: int) -> str:
    """How an option names a card its decider cannot see: by zone and place (0: bottom).

    >>> position_id("z:deck@0", 3)
    'z:deck@0[3]'
    """
    return f"{key}[{index}]"


def choice_option(index: int) -> str:
    """The option id of the ``index``-th (from 0) entry of a ``choose one`` list.

    >>> choice_option(0)
    'opt1'
    """
    return f"opt{index + 1}"


def split_option(option_id: str) -> tuple[str, str, str]:
    """An action's or ability's option id taken apart: ``(sort, name, target)`` with sort
    ``"act"`` or ``"ab"`` (an ability's name is its card, its target the ability's
    index); any other id gives ``("", option_id, "")``.

    >>> split_option("act:buy:copper#3"), split_option("act:pass_turn")
    (('act', 'buy', 'copper#3'), ('act', 'pass_turn', ''))
    >>> split_option("ab:mark#2:0"), split_option("pass")
    (('ab', 'mark#2', '0'), ('', 'pass', ''))
    """
    if option_id[:4] == "act:":
        name, _, target = option_id[4:].partition(":")
        return "act", name, target
    if option_id[:3] == "ab:":
        cid, _, index = option_id[3:].rpartition(":")
        return "ab", cid, index
    return "", option_id, ""
