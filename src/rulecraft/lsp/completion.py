"""Completion: keywords, names in scope, fields of a kind, entry numbers.

What is offered depends on the text before the cursor:

- after ``go to``: the entry numbers, each with its title;
- after ``something.``: fields, the declared attributes and counters of the kind when the
  object is ``this`` inside a component, else those of every kind, plus the fields every
  component has;
- anywhere else: the language's keywords (read from ``rulecraft.lark``), the names the
  ruleset defines, the built-in names and functions, and the local names of the enclosing
  item (parameters, ``for each``, ``choose`` and ``let`` variables); inside a component the
  attributes its kind declares are offered as ``name: ``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lsprotocol import types as lsp

from rulecraft.compile.compiler import SPECIAL_NAMES
from rulecraft.language import ast
from rulecraft.language.parser import grammar_text
from rulecraft.language.visit import walk
from rulecraft.lsp.index import RulesetIndex
from rulecraft.runtime.builtins import BUILTINS

# The fields every component has (what ``builtins.comp_field`` answers before attributes).
COMPONENT_FIELDS = (
    "id",
    "kind",
    "name",
    "owner",
    "controller",
    "zone",
    "space",
    "side",
    "exhausted",
    "facedown",
    "position",
    "used",
)
_GOTO = re.compile(r"\bgo\s+to\s+(\d*)$")
_FIELD = re.compile(r"([^\W\d]\w*)\.(\w*)$")
_SYMBOL_KINDS = {
    "component": lsp.CompletionItemKind.Class,
    "define": lsp.CompletionItemKind.Function,
    "effect": lsp.CompletionItemKind.Function,
    "action": lsp.CompletionItemKind.Method,
    "rule": lsp.CompletionItemKind.Module,
    "zone": lsp.CompletionItemKind.Folder,
    "resource": lsp.CompletionItemKind.Variable,
    "counter": lsp.CompletionItemKind.Variable,
    "kind": lsp.CompletionItemKind.Interface,
    "die": lsp.CompletionItemKind.Value,
    "flag": lsp.CompletionItemKind.EnumMember,
    "symbol": lsp.CompletionItemKind.EnumMember,
}


@lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every keyword of the language, as the grammar spells them."""
    return tuple(sorted(set(re.findall(r'"([a-z][a-z_]*)"', grammar_text()))))


def local_names(item: ast.Item) -> set[str]:
    """Parameters and variables the statements of ``item`` introduce."""
    names: set[str] = set()
    for node in walk(item):
        if isinstance(node, ast.Define | ast.EffectDef | ast.Trigger):
            names.update(node.params)
        elif isinstance(node, ast.ForEach | ast.Choose):
            names.add(node.var)
        elif isinstance(node, ast.ActionDef) and node.for_var:
            names.add(node.for_var)
        elif isinstance(node, ast.Let | ast.Roll) and node.name:
            names.add(node.name)
    return names


def _entry_items(index: RulesetIndex) -> list[lsp.CompletionItem]:
    out = []
    for symbols in index.symbols.values():
        for symbol in symbols:
            if isinstance(symbol.item, ast.Entry):
                title = symbol.item.label.default if symbol.item.label else ""
                out.append(
                    lsp.CompletionItem(
                        label=symbol.name,
                        kind=lsp.CompletionItemKind.Reference,
                        detail=f"entry {symbol.name} {title}".strip(),
                        sort_text=f"{symbol.item.number:08d}",
                    )
                )
    return sorted(out, key=lambda c: c.sort_text or "")


def _kind_of(index: RulesetIndex, item: ast.Item | None, header: str) -> str | None:
    """The kind of the component being edited: from its syntax tree, or (when a syntax
    error keeps the parser from building it) from its header line ``kind id ...``."""
    if isinstance(item, ast.Component):
        return item.kind
    kinds = (index.manifest or {}).get("kinds")
    words = header.split()
    if item is None and len(words) >= 2 and isinstance(kinds, dict) and words[0] in kinds:
        return words[0]
    return None


def _field_items(index: RulesetIndex, obj: str, kind: str | None) -> list[lsp.CompletionItem]:
    kinds = (index.manifest or {}).get("kinds")
    all_kinds = list(kinds) if isinstance(kinds, dict) else []
    if obj == "this" and kind is not None:
        all_kinds = [kind]
    seen: dict[str, str] = {}
    for kind in all_kinds:
        for name, typ in index.kind_attributes(kind).items():
            seen.setdefault(name, f"{kind} attribute: {typ}")
        for name in index.kind_counters(kind):
            seen.setdefault(name, f"{kind} counter")
    for name in COMPONENT_FIELDS:
        seen.setdefault(name, "component field")
    return [
        lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Field, detail=detail)
        for name, detail in sorted(seen.items())
    ]


def _name_items(
    index: RulesetIndex, item: ast.Item | None, kind: str | None
) -> list[lsp.CompletionItem]:
    out: dict[str, lsp.CompletionItem] = {}
    if kind is not None:
        for name, typ in index.kind_attributes(kind).items():
            out[name + ":"] = lsp.CompletionItem(
                label=name,
                kind=lsp.CompletionItemKind.Property,
                detail=f"{kind} attribute: {typ}",
                insert_text=f"{name}: ",
            )
    for name in sorted(local_names(item)) if item is not None else ():
        out.setdefault(name, lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Variable))
    for name, symbols in sorted(index.symbols.items()):
        symbol = symbols[0]
        if symbol.kind != "entry":
            shown = _SYMBOL_KINDS.get(symbol.kind, lsp.CompletionItemKind.Text)
            out.setdefault(name, lsp.CompletionItem(label=name, kind=shown, detail=symbol.kind))
    for name in sorted(SPECIAL_NAMES):
        out.setdefault(name, lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Constant))
    # the built-ins of the runtime, and those the compiler handles itself
    for name in sorted({*BUILTINS, "map", "chance", "every", "flatten"}):
        function = lsp.CompletionItemKind.Function
        out.setdefault(name, lsp.CompletionItem(label=name, kind=function, detail="built-in"))
    for word in keywords():
        keyword = lsp.CompletionItemKind.Keyword
        out.setdefault(word, lsp.CompletionItem(label=word, kind=keyword, detail="keyword"))
    return list(out.values())


def complete(index: RulesetIndex, path: Path, line: int, prefix: str) -> list[lsp.CompletionItem]:
    """Completion items for a cursor on ``line`` (0-based) after the text ``prefix``."""
    source = index.files.get(path)
    item = source.item_at(line) if source is not None else None
    kind = _kind_of(index, item, source.header_at(line) if source is not None else "")
    if _GOTO.search(prefix):
        return _entry_items(index)
    field = _FIELD.search(prefix)
    if field is not None:
        return _field_items(index, field.group(1), kind)
    return _name_items(index, item, kind)
