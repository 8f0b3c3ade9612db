"""The sorts of runtime values and the fields each answers by itself.

A value at run time is plain data: a number, a text, a flag, ``None``, a list, or a string
id of a player, component, zone or space (``docs/architecture.md``).  The built-in fields
below are what ``builtins.get_field`` answers for every value of its sort, whatever the
ruleset declares; the compiler checks field reads against them and the ruleset's
declarations.

>>> "owner" in COMPONENT_FIELDS and "count" in ZONE_FIELDS
True
"""

from __future__ import annotations

from typing import Any

PLAYER_FIELDS = frozenset({"seat", "next", "previous", "name"})
COMPONENT_FIELDS = frozenset(
    {
        "id",
        "def",
        "kind",
        "owner",
        "controller",
        "zone",
        "space",
        "side",
        "face",
        "exhausted",
        "facedown",
        "name",
        "position",
        "used",
        "x",
        "y",
        "terrain",
        "text",
        "traits",
    }
)
ZONE_FIELDS = frozenset(
    {"count", "size", "top", "bottom", "cards", "contents", "empty", "owner", "name"}
)
SPACE_FIELDS = frozenset(
    {"x", "y", "terrain", "id", "pieces", "cards", "neighbors", "cost", "empty"}
)
LIST_FIELDS = frozenset({"count", "first", "last"})
# a roll's dice (r.dice) and each die record (it.die, it.i)
ROLL_FIELDS = frozenset({"dice", "die", "i", "faces"})
PLAYER_NAMES = frozenset({"you", "active", "opponent", "start_player"})
GAME_FIELDS = frozenset({"round", "turn"})


def divide(left: object, right: object) -> int:
    """The language's ``/``: integers, rounding down; dividing by 0 gives 0.

    >>> divide(7, 2), divide(7, -2), divide(-7, 2), divide(7, 0)
    (3, -4, -4, 0)
    """
    divisor = int(right)  # type: ignore[call-overload]
    return int(left) // divisor if divisor else 0  # type: ignore[call-overload]


def modulo(left: object, right: object) -> int:
    """The language's ``%``: the remainder of :func:`divide` (its sign is the divisor's);
    0 for a divisor of 0.

    >>> modulo(7, 2), modulo(7, -2), modulo(-7, 2), modulo(7, 0)
    (1, -1, 1, 0)
    """
    divisor = int(right)  # type: ignore[call-overload]
    return int(left) % divisor if divisor else 0  # type: ignore[call-overload]


def as_int(value: Any) -> int:
    """``int(value)``, the common case first: compiled (make compiled), ``int()`` of a
    value of no known type is a call of the type, this an identity test of it.

    >>> as_int(3), as_int(True), as_int(2.0)
    (3, 1, 2)
    """
    if type(value) is int:
        number: int = value
        return number
    return int(value)
