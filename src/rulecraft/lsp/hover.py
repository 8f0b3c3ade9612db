"""Hover: a name shows its definition; a card shows its name and text in every language.

>>> _texts_table(["en", "de"], {"": "Ember Golem", "de": "Glutgolem"}, {"": "Burns."})
['| en | Ember Golem | Burns. |', '| de | Glutgolem |  |']
"""

from __future__ import annotations

from rulecraft.language import ast
from rulecraft.lsp.index import RulesetIndex, Symbol

# A definition longer than this is cut in a hover (the outline and go-to show the rest).
MAX_SOURCE_LINES = 20


def _texts_table(languages: list[str], names: dict[str, str], texts: dict[str, str]) -> list[str]:
    """Rows ``| lang | name | text |``, the default language (key ``""``) first."""
    rows = []
    for position, lang in enumerate(languages):
        key = "" if position == 0 else lang
        name = names.get(key, "")
        text = texts.get(key, "")
        rows.append(f"| {lang} | {name} | {text} |".replace("\n", " "))
    return rows


def _text_attribute(members: tuple[ast.Member, ...], name: str) -> dict[str, str]:
    for member in members:
        if isinstance(member, ast.Attribute) and member.name == name:
            expr = member.expr
            if isinstance(expr, ast.TextLit):
                return expr.text.as_dict()
    return {}


def _simple_fields(members: tuple[ast.Member, ...]) -> list[str]:
    """``name: value`` of the attributes holding one number, name or flag list."""
    out = []
    for member in members:
        if not isinstance(member, ast.Attribute) or member.name == "text":
            continue
        expr = member.expr
        if isinstance(expr, ast.Const):
            out.append(f"{member.name}: {expr.value}")
        elif isinstance(expr, ast.Name):
            out.append(f"{member.name}: {expr.name}")
        elif isinstance(expr, ast.ListExpr) and all(isinstance(x, ast.Name) for x in expr.items):
            names = ", ".join(x.name for x in expr.items if isinstance(x, ast.Name))
            out.append(f"{member.name}: [{names}]")
    return out


def _source_block(lines: list[str], start: int, end: int) -> str:
    shown = lines[start : min(end + 1, start + MAX_SOURCE_LINES)]
    more = "\n    ..." if end + 1 - start > MAX_SOURCE_LINES else ""
    return "```rcl\n" + "\n".join(shown) + more + "\n```"


def _card_hover(index: RulesetIndex, symbol: Symbol, item: ast.Component | ast.Entry) -> str:
    """A component's or entry's header, its name and text per language, its fields."""
    lines = index.lines_of(symbol.path)
    header = lines[symbol.line].rstrip(":").strip() if symbol.line < len(lines) else ""
    parts = [f"```rcl\n{header}\n```"]
    if isinstance(item, ast.Component):
        kinds = (index.manifest or {}).get("kinds") or {}
        spec = kinds.get(item.kind) if isinstance(kinds, dict) else None
        label = spec.get("label") if isinstance(spec, dict) else None
        shown = label.get(index.languages[0]) if isinstance(label, dict) else None
        parts.append(f"*{shown or item.kind}* `{item.id}`")
    names = item.label.as_dict() if item.label else {}
    texts = _text_attribute(item.members, "text")
    if names or texts:
        table = ["| lang | name | text |", "|---|---|---|"]
        table += _texts_table(index.languages, names, texts)
        parts.append("\n".join(table))
    fields = _simple_fields(item.members)
    if fields:
        parts.append("\n".join(f"- {f}" for f in fields))
    parts.append(_where(index, symbol))
    return "\n\n".join(parts)


def _where(index: RulesetIndex, symbol: Symbol) -> str:
    root = index.root.parent if index.root is not None else symbol.path.parent
    try:
        shown = symbol.path.relative_to(root)
    except ValueError:
        shown = symbol.path
    return f"{symbol.kind} defined at `{shown}:{symbol.line + 1}`"


def _manifest_hover(index: RulesetIndex, symbol: Symbol) -> str:
    line = index.manifest_lines[symbol.line] if symbol.line < len(index.manifest_lines) else ""
    return f"```yaml\n{line.strip()}\n```\n\n{_where(index, symbol)}"


def hover_markdown(index: RulesetIndex, symbols: list[Symbol]) -> str | None:
    """The hover text for the definitions of one name (several when it is ambiguous)."""
    parts = []
    for symbol in symbols:
        item = symbol.item
        if isinstance(item, ast.Component | ast.Entry):
            parts.append(_card_hover(index, symbol, item))
        elif item is not None:
            source = index.files.get(symbol.path)
            if source is not None:
                start, end = source.item_lines(item)
                parts.append(
                    _source_block(source.lines, start, end) + "\n\n" + _where(index, symbol)
                )
        else:
            parts.append(_manifest_hover(index, symbol))
    return "\n\n---\n\n".join(parts) if parts else None
