"""Which ``spaces where C`` can be kept up to date as pieces move: an action's
``for x in``, or a part of an expression (``count(spaces where empty(it)) == 0``).

The run-time side (:mod:`rulecraft.runtime.incremental`) remembers the spaces such a
``where`` keeps and, after pieces move, tests again only the spaces whose ``C`` reads a pile
that changed.  That is right only if ``C`` reads nothing else of the game, and if the piles
it reads are known for each space before the game starts.  :func:`kept_spaces` proves both
on the code the generator writes for ``C`` (:mod:`codegen`), which already holds the map's
fixed coordinates as tables (``it.y == 5`` and ``space_at(it.x, it.y + 1)`` are lookups in a
table of every space).  It reads that code as a Python expression and accepts only:

* the space itself, and lookups ``TABLE[space]`` in a table that has every space;
* ``_zones.get(X)`` where ``X`` is one of those: the pile of a space fixed by the space;
* constants, ``not``, ``and``, ``or``, ``A if C else B`` and ``==``/``!=``/``is``/``is not``
  of those (none of which can fail).

Anything else (a player, a field, a resource, a call to a helper or to the closure compiler,
a walrus) and the ``where`` is listed from scratch as before.  For Connect Four's
``spaces where open(it)`` the test of space ``s`` reads the piles of ``s`` and of the space
below it; a disc dropped into ``s`` has the test of ``s`` and of the space above run again.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.compile import codegen
from rulecraft.language import ast
from rulecraft.runtime.program import KeptSpaces

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler, Scope

_COMPARISONS = (pyast.Eq, pyast.NotEq, pyast.Is, pyast.IsNot)


def kept_where(c: Compiler, e: ast.Expr, scope: Scope) -> KeptSpaces | None:
    """:func:`kept_spaces`, one for each ``where`` that reads the same: a ``where`` kept by
    an action and counted by a condition is remembered once (``c.kept_wheres``)."""
    if c.map is None or c.map.tiles:
        return None
    written = codegen.spaces_where(c, e, scope)
    if written is None:
        return None
    key = f"{written.condition} {sorted(written.consts.items(), key=lambda kv: kv[0])!r}"
    if key not in c.kept_wheres:
        c.kept_wheres[key] = _kept(written)
    return c.kept_wheres[key]


def kept_spaces(c: Compiler, e: ast.Expr, scope: Scope) -> KeptSpaces | None:
    """``e`` as spaces kept up to date, or ``None`` when it is not ``spaces where C`` over a
    map without tiles with ``C`` as the module text says (not shared: :func:`kept_where`)."""
    if c.map is None or c.map.tiles:
        return None
    written = codegen.spaces_where(c, e, scope)
    return None if written is None else _kept(written)


def _kept(written: codegen.SpacesWhere) -> KeptSpaces | None:
    """The ``where`` the generator wrote, kept up to date, if its condition reads only
    piles of spaces fixed by the space."""
    if written.fallbacks:
        return None
    var, condition, spaces = written.var, written.condition, written.spaces
    reads = _pile_reads(condition, var, written.consts, set(spaces))
    if reads is None:
        return None
    namespace: dict[str, Any] = dict(written.consts)
    source = f"lambda {codegen.ZONES}, {var}: {condition}"
    test = eval(compile(source, "<rulecraft generated>", "eval"), namespace)
    watchers: dict[str, set[int]] = {}
    for code in reads:
        pile_of: Callable[[str], Any] = eval(
            compile(f"lambda {var}: {code}", "<rulecraft generated>", "eval"), namespace
        )
        for i, space in enumerate(spaces):
            pile = pile_of(space)
            if isinstance(pile, str):  # None (off the map) is no pile: always empty
                watchers.setdefault(pile, set()).add(i)
    return KeptSpaces(
        spaces=spaces,
        test=test,
        watchers={pile: tuple(sorted(found)) for pile, found in watchers.items()},
        source=source,
        empty_only=condition == f"(not {codegen.ZONES}.get({var}))",
    )


def _pile_reads(code: str, var: str, consts: dict[str, Any], spaces: set[str]) -> list[str] | None:
    """The code of each pile the condition ``code`` reads (``X`` of ``_zones.get(X)``), or
    ``None`` when it reads, or may do, anything else."""
    reads: list[str] = []

    def fixed(node: pyast.expr) -> bool:
        """The space, or a table's value for it (a table that has every space)."""
        if isinstance(node, pyast.Name):
            return node.id == var
        if not (isinstance(node, pyast.Subscript) and isinstance(node.value, pyast.Name)):
            return False
        table = consts.get(node.value.id)
        return (
            isinstance(node.slice, pyast.Name)
            and node.slice.id == var
            and isinstance(table, dict)
            and spaces <= table.keys()
        )

    def allowed(node: pyast.expr) -> bool:
        if isinstance(node, pyast.Constant) or fixed(node):
            return True
        if isinstance(node, pyast.BoolOp):
            return all(allowed(v) for v in node.values)
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            return allowed(node.operand)
        if isinstance(node, pyast.IfExp):
            return allowed(node.test) and allowed(node.body) and allowed(node.orelse)
        if isinstance(node, pyast.Compare):
            return all(isinstance(op, _COMPARISONS) for op in node.ops) and all(
                allowed(x) for x in (node.left, *node.comparators)
            )
        if _is_pile_read(node) and fixed(node.args[0]):  # type: ignore[attr-defined]
            reads.append(pyast.unparse(node.args[0]))  # type: ignore[attr-defined]
            return True
        return False

    return reads if allowed(pyast.parse(code, mode="eval").body) else None


def _is_pile_read(node: pyast.expr) -> bool:
    """``_zones.get(X)`` with one argument."""
    return (
        isinstance(node, pyast.Call)
        and isinstance(node.func, pyast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, pyast.Name)
        and node.func.value.id == codegen.ZONES
        and len(node.args) == 1
        and not node.keywords
    )
