"""Document symbols: the outline of a file (components, entries, definitions, their parts).

Each top-level item is a symbol named as the designer reads it (``creature ember_golem
"Ember Golem"``, ``entry 12 "The Rusted Gate"``); abilities, triggers, sides and choices are
its children.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from rulecraft.language import ast
from rulecraft.lsp.index import SourceFile, item_name
from rulecraft.lsp.positions import make_range

_KINDS = {
    "component": lsp.SymbolKind.Class,
    "entry": lsp.SymbolKind.Namespace,
    "define": lsp.SymbolKind.Function,
    "effect": lsp.SymbolKind.Function,
    "action": lsp.SymbolKind.Method,
    "rule": lsp.SymbolKind.Module,
}
_MEMBER_KINDS: dict[type, lsp.SymbolKind] = {
    ast.Trigger: lsp.SymbolKind.Event,
    ast.Side: lsp.SymbolKind.Struct,
    ast.Choice: lsp.SymbolKind.EnumMember,
}


def _title(item: ast.Item) -> str:
    label = getattr(item, "label", None)
    named = item_name(item)
    if isinstance(item, ast.Component):
        head = f"{item.kind} {item.id}"
    elif named is not None:
        head = f"{named[1]} {named[0]}"
    else:
        head = type(item).__name__.lower()
    return f'{head} "{label.default}"' if isinstance(label, ast.Text) else head


def _member_title(member: ast.Member) -> str | None:
    if isinstance(member, ast.Ability):
        return f'ability "{member.label.default}"' if member.label else "ability"
    if isinstance(member, ast.Trigger):
        return f"{member.timing} {member.event}"
    if isinstance(member, ast.Side):
        return f"side {member.name}"
    if isinstance(member, ast.Choice):
        return f'choice "{member.label.default}"'
    return None


def _line_range(source: SourceFile, first: int, last: int) -> lsp.Range:
    end = len(source.lines[last]) if last < len(source.lines) else 0
    whole = make_range(source.lines, first, 0, 0)
    closing = make_range(source.lines, last, end, end)
    return lsp.Range(start=whole.start, end=closing.end)


def _children(
    source: SourceFile, members: tuple[ast.Member, ...], last: int
) -> list[lsp.DocumentSymbol]:
    out = []
    starts = [m.span.line - 1 for m in members]
    for i, member in enumerate(members):
        title = _member_title(member)
        if title is None:
            continue
        first = member.span.line - 1
        stop = min((s - 1 for s in starts[i + 1 :] if s > first), default=last)
        column = max(member.span.column - 1, 0)
        selection = make_range(source.lines, first, column, len(source.lines[first].rstrip()))
        nested = _children(source, member.members, stop) if isinstance(member, ast.Side) else []
        out.append(
            lsp.DocumentSymbol(
                name=title,
                kind=_MEMBER_KINDS.get(type(member), lsp.SymbolKind.Method),
                range=_line_range(source, first, max(stop, first)),
                selection_range=selection,
                children=nested or None,
            )
        )
    return out


def document_symbols(source: SourceFile) -> list[lsp.DocumentSymbol]:
    """The outline of one parsed file."""
    out = []
    for item in source.unit.items:
        named = item_name(item)
        if named is None:
            continue
        first, last = source.item_lines(item)
        header = source.lines[first] if first < len(source.lines) else ""
        members = getattr(item, "members", ())
        out.append(
            lsp.DocumentSymbol(
                name=_title(item),
                kind=_KINDS.get(named[1], lsp.SymbolKind.Object),
                range=_line_range(source, first, last),
                selection_range=make_range(source.lines, first, 0, len(header.rstrip())),
                children=_children(source, members, last) or None,
            )
        )
    return out
