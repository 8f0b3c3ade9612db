"""Which fields exist: a misspelt field is an error at validation, not a silent 0.

A field read ``X.f`` is checked once the whole ruleset is compiled, against every field that
something declares or gives a value (the type of a field is declared for kinds'
attributes and for ``fields:`` in the manifest, and inferred from ``set X.f to V`` for the
rest: see docs/language.md, "Fields").  Where the compiler knows that ``X`` is a player
(``you``, ``active``, ``opponent``, ``start_player``, ``P.next``), only player fields count;
elsewhere any known field does.

>>> static_kind(ast.Name(ast.NOWHERE, "you"))
'player'
>>> static_kind(ast.Attr(ast.NOWHERE, ast.Name(ast.NOWHERE, "you"), "next"))
'player'
>>> static_kind(ast.Name(ast.NOWHERE, "it"))
'unknown'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rulecraft.diagnostics import Span
from rulecraft.language import ast
from rulecraft.runtime.values import (
    COMPONENT_FIELDS,
    GAME_FIELDS,
    LIST_FIELDS,
    PLAYER_FIELDS,
    PLAYER_NAMES,
    ROLL_FIELDS,
    SPACE_FIELDS,
    ZONE_FIELDS,
)

__all__ = [
    "COMPONENT_FIELDS",
    "GAME_FIELDS",
    "LIST_FIELDS",
    "PLAYER_FIELDS",
    "PLAYER_NAMES",
    "ROLL_FIELDS",
    "SPACE_FIELDS",
    "ZONE_FIELDS",
    "static_kind",
]


def static_kind(e: ast.Expr, locals_: Iterable[str] = ()) -> str:
    """``'player'`` when ``e`` is a player whatever happens, ``'game'`` for the game itself,
    else ``'unknown'``."""
    if isinstance(e, ast.Name):
        if e.name == "you" or (e.name in PLAYER_NAMES and e.name not in set(locals_)):
            return "player"
        if e.name == "game" and e.name not in set(locals_):
            return "game"
        return "unknown"
    if isinstance(e, ast.Attr) and e.field in ("next", "previous"):
        return static_kind(e.obj, locals_)
    if isinstance(e, ast.Conditional):  # what both branches are, if they are the same
        then = static_kind(e.then, locals_)
        return then if then == static_kind(e.otherwise, locals_) else "unknown"
    return "unknown"


@dataclass(frozen=True, slots=True)
class FieldRead:
    """One ``X.f`` in the source: the field, where it is, and what ``X`` is known to be."""

    field: str
    span: Span
    kind: str


@dataclass
class FieldCatalogue:
    """Every field name the ruleset can answer, by sort of value."""

    player: set[str]
    game: set[str]
    anything: set[str]

    def of(self, read: FieldRead) -> set[str]:
        return {"player": self.player, "game": self.game}.get(read.kind, self.anything)

    def known(self, read: FieldRead) -> bool:
        return read.field in self.of(read)

    def candidates(self, read: FieldRead) -> list[str]:
        return sorted(self.of(read))


def catalogue(
    *,
    zones: Iterable[str],
    resources: Iterable[str],
    player_fields: Iterable[str],
    game_fields: Iterable[str],
    component_fields: Iterable[str],
    set_fields: Iterable[str],
    symbols: Iterable[str],
) -> FieldCatalogue:
    """The catalogue of one ruleset, from what it declares and what its rules set."""
    player = set(PLAYER_FIELDS) | set(zones) | set(resources) | set(player_fields)
    player |= set(set_fields)
    game = set(game_fields) | set(set_fields) | GAME_FIELDS
    anything = (
        player
        | game
        | COMPONENT_FIELDS
        | ZONE_FIELDS
        | SPACE_FIELDS
        | LIST_FIELDS
        | ROLL_FIELDS
        | set(component_fields)
        | set(symbols)
    )
    return FieldCatalogue(player, game, anything)
