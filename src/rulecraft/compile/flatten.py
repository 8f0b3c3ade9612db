"""``flatten(C)``: a list of collections as one list (asked for by a seed ruleset's
ENGINE_GAPS.md, "A list of spaces' pieces does not flatten": ``spaces.pieces`` is a list of
lists, and ``where`` filters the lists, not the pieces).

A field read from a list gives one value per element (``spaces.pieces`` is one list of
pieces per space), and that stays so: rulesets count and index such lists
(``count(spaces.pieces)`` is the number of spaces).  ``flatten`` says where one list is
wanted instead, one level deep, as Python's ``itertools.chain``: every element that is a
collection (a list, a zone, a map space, a component definition) is replaced by its
elements, in order; any other element stays as it is.  So ``flatten(spaces.pieces)`` and
``flatten(spaces)`` are every piece on the map, space by space, and ``flatten([[1, 2],
[3]])`` is ``[1, 2, 3]``.  A ruleset's own ``define flatten(...)`` takes precedence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.language import ast
from rulecraft.runtime import engine as E
from rulecraft.runtime import ids

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler, Scope

__all__ = ["FLATTEN", "compile_flatten", "flatten_once"]

ExprFn = Callable[[E.Ctx], Any]

#: The function's name; a ruleset's ``define flatten`` hides it.
FLATTEN = "flatten"


def _is_collection(value: Any) -> bool:
    """A list, or an id that stands for a collection (a zone, a space, a definition)."""
    return type(value) is list or ids.is_place(value) or ids.is_def(value)


def flatten_once(ctx: E.Ctx, value: Any) -> list[Any]:
    """The elements of ``value``, each collection among them replaced by its elements."""
    out: list[Any] = []
    # a list is walked as it is (as_list reads a list that starts with a zone as a list of
    # zones, and would fail on [zone, [7]]); its zones are opened below, one by one
    items = value if type(value) is list else E.as_list(ctx, value)
    for item in items:
        if _is_collection(item):
            out.extend(E.as_list(ctx, item))
        else:
            out.append(item)
    return out


def compile_flatten(compiler: Compiler, e: ast.Call, scope: Scope) -> ExprFn:
    """``flatten(C)`` as a function of the context (see the module text)."""
    if len(e.args) != 1:
        compiler.error(
            "RC206",
            f"flatten() takes 1 argument (a list of collections), not {len(e.args)}",
            e.span,
            "flatten(spaces.pieces) where it.kind == unit",
        )
        return lambda ctx: []
    value = compiler.expr(e.args[0], scope)
    return lambda ctx: flatten_once(ctx, value(ctx))
