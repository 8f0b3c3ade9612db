"""The one way to walk a syntax tree: :func:`children`, :func:`walk` and :class:`Visitor`.

The tree is made of frozen dataclass records (:mod:`rulecraft.language.ast`), tuples of them,
and pairs such as an ``if`` branch's ``(condition, body)``.  Every tool that needs "each
node below this one" (the checks, the language server, the code generator) asks this module
instead of listing the fields of each node type itself, so a new node type or field is
walked everywhere at once.

>>> from rulecraft.language.parser import parse_text
>>> tree = parse_text("effect twice:\\n    repeat 2:\\n        gain 1 gold\\n")
>>> [type(n).__name__ for n in walk(tree.items[0]) if isinstance(n, ast.Stmt)]
['Repeat', 'Gain']
>>> class Gains(Visitor):
...     def __init__(self) -> None:
...         self.seen: list[str] = []
...     def visit_Gain(self, node: ast.Gain) -> None:
...         self.seen.append(node.verb)
...         self.generic_visit(node)
>>> v = Gains(); v.visit(tree); v.seen
['gain']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from rulecraft.diagnostics import Span
from rulecraft.language import ast

__all__ = ["Visitor", "children", "statements", "walk"]


@cache
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a record type other than its source positions."""
    return tuple(
        f.name for f in dataclasses.fields(cls) if f.name not in ("span", "file", "field_span")
    )


def _nodes_in(value: Any) -> Iterator[Any]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type | Span):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _nodes_in(item)


def children(node: Any) -> Iterator[Any]:
    """The records directly below ``node``, in source order (tuples and pairs flattened).

    >>> from rulecraft.language.parser import parse_expression
    >>> tree, _ = parse_expression("count(you.hand) + 1", "<x>")
    >>> [type(c).__name__ for c in children(tree)]
    ['Call', 'Const']
    """
    if isinstance(node, tuple | list):
        yield from _nodes_in(node)
        return
    if not dataclasses.is_dataclass(node) or isinstance(node, type | Span):
        return
    for name in _child_fields(type(node)):
        yield from _nodes_in(getattr(node, name))


def walk(node: Any) -> Iterator[Any]:
    """``node`` and every record below it, depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if not isinstance(current, tuple | list):
            yield current
        stack.extend(reversed(list(children(current))))


def statements(body: Iterable[ast.Stmt]) -> Iterator[ast.Stmt]:
    """Every statement of a block, nested ones included (in ``if``, loops, ``choose``,
    ``test`` branches...), in source order."""
    for node in walk(tuple(body)):
        if isinstance(node, ast.Stmt):
            yield node


class Visitor:
    """Calls ``visit_<NodeType>`` for each node (like Lark's visitors and Python's
    ``ast.NodeVisitor``); a node type without a method has its children visited."""

    def visit(self, node: Any) -> Any:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            return self.generic_visit(node)
        return method(node)

    def generic_visit(self, node: Any) -> None:
        for child in children(node):
            self.visit(child)
