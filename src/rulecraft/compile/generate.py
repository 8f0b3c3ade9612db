"""Generated components: a deck built from the product of value lists.

The manifest's ``generate:`` turns "4 suits x 10 ranks" into 40 component definitions, each
an ordinary component (the compiler, placements, views and tools cannot tell it from one
written in a ``.rcl`` file)::

    generate:
      - kind: card
        id: "{suit}_{rank}"
        name: {en: "{rank} of {suit}", de: "{suit}-{rank}"}
        each: {suit: [ash, bone], rank: {from: 1, to: 3}}

>>> items, problems = generated_components(
...     [{"kind": "card", "id": "{suit}_{rank}", "name": "{rank} of {suit}",
...       "each": {"suit": ["ash", "bone"], "rank": {"from": 1, "to": 3}}}],
...     lambda path: NOWHERE)
>>> [c.id for c in items], problems
(['ash_1', 'ash_2', 'ash_3', 'bone_1', 'bone_2', 'bone_3'], [])
>>> items[0].label.default
'1 of ash'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast
from rulecraft.language.ast import NOWHERE

#: The most definitions one ``generate:`` item may make (each is also a card in the state).
MAX_GENERATED = 10_000
_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
Locate = Callable[[tuple[Any, ...]], Span]


def _values(spec: Any) -> Sequence[Any]:
    """A value list: ``[a, b]`` or ``{from: 1, to: 10}`` (both ends included)."""
    if isinstance(spec, Mapping):
        # A range, not a list: {from: 1, to: 2000000000} must reach the MAX_GENERATED check
        # (which only needs its length) instead of filling memory first (issue 17).
        return range(int(spec.get("from", 1)), int(spec.get("to", 0)) + 1)
    if isinstance(spec, Sequence) and not isinstance(spec, str):
        return list(spec)
    return [spec]


def _value_expr(value: Any, span: Span) -> ast.Expr:
    if isinstance(value, bool | int) or value is None:
        return ast.Const(span, value)
    text = str(value)
    return ast.Name(span, text) if _ID.match(text) else ast.TextLit(span, ast.Text(text))


def _label(template: Any, values: Mapping[str, Any]) -> ast.Text:
    if isinstance(template, Mapping):
        texts = [(str(lang), str(t).format_map(values)) for lang, t in template.items()]
        return ast.Text(texts[0][1], tuple(texts[1:]))
    return ast.Text(str(template).format_map(values))


def _attribute(name: str, value: Any, span: Span) -> ast.Attribute:
    return ast.Attribute(span, name, (ast.ExprStmt(span, _value_expr(value, span)),))


def _one_item(
    i: int, item: Mapping[str, Any], locate: Locate
) -> tuple[list[ast.Component], list[Diagnostic]]:
    span = locate(("generate", i))
    each = {str(k): _values(v) for k, v in (item.get("each") or {}).items()}
    total = 1
    for value_list in each.values():
        total *= len(value_list)
    if total > MAX_GENERATED:
        message = f"generate makes {total} definitions, more than {MAX_GENERATED}"
        hint = "split the deck, or use copies: for identical cards"
        return [], [Diagnostic("RC254", message, span, Severity.ERROR, hint)]
    out: list[ast.Component] = []
    names = list(each)
    extra = dict(item.get("attributes") or {})
    copies = item.get("copies", 1)
    for combo in itertools.product(*(each[n] for n in names)):
        values = dict(zip(names, combo, strict=True))
        try:
            cid = str(item.get("id", "")).format_map(values)
            label = _label(item.get("name", item.get("id", "")), values)
        except (KeyError, ValueError, IndexError) as err:
            message = f"a template of generate names no value list: {err}"
            return [], [Diagnostic("RC254", message, span, Severity.ERROR, "use {name} of each:")]
        if not _ID.match(cid):
            message = f"generated id {cid!r} is not a name (letters, digits, _)"
            hint = 'say id: "{suit}_{rank}"'
            return [], [
                Diagnostic("RC254", message, locate(("generate", i, "id")), Severity.ERROR, hint)
            ]
        members = [_attribute(k, v, span) for k, v in {**extra, **values}.items()]
        members.append(_attribute("copies", copies, span))
        out.append(ast.Component(span, str(item.get("kind", "")), cid, label, tuple(members)))
    return out, []


def generated_components(
    items: Sequence[Mapping[str, Any]], locate: Locate
) -> tuple[list[ast.Component], list[Diagnostic]]:
    """The components the manifest's ``generate:`` list makes, and any problems."""
    components: list[ast.Component] = []
    problems: list[Diagnostic] = []
    for i, item in enumerate(items):
        made, found = _one_item(i, item, locate)
        components += made
        problems += found
    return components, problems


__all__ = ["MAX_GENERATED", "NOWHERE", "generated_components"]
