"""Amounts with units (``2 gold``, ``2 red + 1 white``): whether an expression is one, its
value when every count is a constant, and where a unit is written (for RC201's span)."""

from __future__ import annotations

from rulecraft.diagnostics import Span
from rulecraft.language import ast


def _is_qty(e: ast.Expr) -> bool:
    """An amount: ``N unit``, or a sum of them."""
    if isinstance(e, ast.Qty):
        return True
    return isinstance(e, ast.Binary) and e.op == "+" and _is_qty(e.left) and _is_qty(e.right)


def _qty_const(e: ast.Expr) -> dict[str, int] | None:
    """The amount as {unit: count} when every count is a constant number, else None."""
    if isinstance(e, ast.Qty):
        if isinstance(e.amount, ast.Const) and isinstance(e.amount.value, int):
            return {e.unit: e.amount.value}
        return None
    if isinstance(e, ast.Binary):
        a, b = _qty_const(e.left), _qty_const(e.right)
        if a is None or b is None:
            return None
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + v
        return out
    return None


def fixed_cost_parts(e: ast.Expr) -> tuple[tuple[str, int], ...] | None:
    """A cost written as numbers (``1 water``, ``2 gold + 1 water``) as its (unit, count)
    parts in the order :func:`expressions.qty_parts` compiles them; ``None`` when a count
    is computed or negative (which the runtime reports when the cost is worked out)."""
    if isinstance(e, ast.Qty):
        value = e.amount.value if isinstance(e.amount, ast.Const) else None
        return ((e.unit, value),) if type(value) is int and value >= 0 else None
    if isinstance(e, ast.Binary) and e.op == "+":
        left, right = fixed_cost_parts(e.left), fixed_cost_parts(e.right)
        return None if left is None or right is None else left + right
    return None


def _unit_span(e: ast.Expr, unit: str) -> Span | None:
    """Where ``unit`` is written in an amount such as ``1 glod`` or ``2 gold + 1 glod``: the
    last ``len(unit)`` characters of its quantity's span (the parser ends it at the unit)."""
    if isinstance(e, ast.Qty) and e.unit == unit and e.span.end_column is not None:
        line = e.span.end_line or e.span.line
        start = max(1, e.span.end_column - len(unit) + 1)
        return Span(e.span.file, line, start, line, e.span.end_column)
    if isinstance(e, ast.Binary) and e.op == "+":
        return _unit_span(e.left, unit) or _unit_span(e.right, unit)
    return None
