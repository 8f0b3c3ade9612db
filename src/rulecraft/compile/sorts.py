"""What sort of value an expression gives, where the source alone says: the check that
the two branches of ``A if C else B`` can agree (RC226).

The language is dynamically typed: most expressions (a field, a call, a local) give a value
whose sort is only known when the game runs, and those are never reported.  A sort is
known for literals (``3``, ``true``, ``"text"``), amounts (``2 gold``), lists and ``where``
filters, comparisons and other conditions, arithmetic on numbers, the names of components,
zones, resources and players, and a conditional whose branches agree.  ``none`` agrees with
every sort (it is "no value"), and a zone agrees with a list (both are collections).

>>> from rulecraft.language.parser import parse_expression
>>> names = Names(components=frozenset({"sword"}))
>>> e, _ = parse_expression("3 if x else sword", "demo.rcl")
>>> disagreement(e, names, frozenset())
('a number', 'a component')
>>> e, _ = parse_expression("3 if x else none", "demo.rcl")
>>> disagreement(e, names, frozenset()) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulecraft.language import ast
from rulecraft.runtime.values import PLAYER_NAMES

__all__ = ["Names", "describe", "disagreement", "value_sort"]

_CONDITIONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "and", "or", "in"})
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%"})
#: Names the compiler resolves to a list whatever the ruleset declares.
_LIST_NAMES = frozenset({"players", "opponents", "spaces"})
_ARTICLES = {
    "number": "a number",
    "flag": "true or false",
    "text": "a text",
    "amount": "an amount with a unit",
    "collection": "a list",
    "component": "a component",
    "player": "a player",
}


@dataclass(frozen=True)
class Names:
    """The names a ruleset declares, by what they are (a subset of the compiler's tables)."""

    components: frozenset[str] = field(default_factory=frozenset)
    zones: frozenset[str] = field(default_factory=frozenset)
    resources: frozenset[str] = field(default_factory=frozenset)


def describe(sort: str) -> str:
    """The sort in words, for a message: ``'number'`` -> ``'a number'``."""
    return _ARTICLES.get(sort, sort)


def value_sort(e: ast.Expr, names: Names, locals_: frozenset[str]) -> str | None:
    """The sort of value ``e`` gives, when the source alone says it; else ``None``.
    ``none`` is ``'none'``: it agrees with every sort."""
    if isinstance(e, ast.Const):
        if e.value is None:
            return "none"
        return "flag" if isinstance(e.value, bool) else "number"
    if isinstance(e, ast.TextLit):
        return "text"
    if isinstance(e, ast.ListExpr | ast.Where):
        return "collection"
    if isinstance(e, ast.Has) or (isinstance(e, ast.Unary) and e.op == "not"):
        return "flag"
    if isinstance(e, ast.Unary):
        return "number"
    if _is_amount(e):
        return "amount"
    if isinstance(e, ast.Binary):
        return _binary_sort(e, names, locals_)
    if isinstance(e, ast.Name):
        return _name_sort(e.name, names, locals_)
    if isinstance(e, ast.Conditional):
        then = value_sort(e.then, names, locals_)
        otherwise = value_sort(e.otherwise, names, locals_)
        if then == "none":
            return otherwise
        if otherwise in ("none", then):
            return then
        return None
    return None


def _is_amount(e: ast.Expr) -> bool:
    """``2 gold``, or a sum of such amounts."""
    if isinstance(e, ast.Qty):
        return True
    return isinstance(e, ast.Binary) and e.op == "+" and _is_amount(e.left) and _is_amount(e.right)


def _binary_sort(e: ast.Binary, names: Names, locals_: frozenset[str]) -> str | None:
    if e.op in _CONDITIONS:
        return "flag"
    if e.op in _ARITHMETIC:
        left = value_sort(e.left, names, locals_)
        right = value_sort(e.right, names, locals_)
        # numbers stay numbers; a list, an amount or a text added to something is left alone
        return "number" if left == right == "number" else None
    return None


def _name_sort(name: str, names: Names, locals_: frozenset[str]) -> str | None:
    if name == "you":  # always a local, always a player
        return "player"
    if name in locals_:
        return None
    if name in PLAYER_NAMES:
        return "player"
    if name in _LIST_NAMES or name in names.zones:
        return "collection"
    if name in names.resources:
        return "number"
    if name in names.components:
        return "component"
    return None


def disagreement(
    e: ast.Conditional, names: Names, locals_: frozenset[str]
) -> tuple[str, str] | None:
    """The two sorts (in words) when the branches of ``e`` certainly give different sorts
    of value, else ``None``."""
    then = value_sort(e.then, names, locals_)
    otherwise = value_sort(e.otherwise, names, locals_)
    if then is None or otherwise is None or "none" in (then, otherwise) or then == otherwise:
        return None
    return describe(then), describe(otherwise)
