"""The canonical formatter for ``.rcl`` files (``rulecraft fmt``).

The formatter pretty-prints the syntax tree (:mod:`rulecraft.language.ast`), so its output
parses to the same tree as its input, and re-attaches the comments it collects with a
small scan of the source (a ``#`` inside a quoted text is not a comment).

Style: 4-space indentation, one blank line between top-level items (at most one kept inside
blocks), ``name: value`` attributes, single spaces around binary operators, parentheses
only where precedence needs them, no trailing whitespace, a newline at the end.  A block
written on the header's line (``ability "Go": gain 1; draw 1``) stays there while the line
fits in 100 columns; otherwise it gets one statement per line.  Full-line comments stay
just before the item, member or statement that follows them; trailing comments stay on
their line, two spaces after the code.

>>> messy = 'effect  greet( a,b ) :\\n  say "hi" # wave\\n  gain 1+2*a gold\\n'
>>> print(format_source(messy, "x.rcl"))
effect greet(a, b):
    say "hi"  # wave
    gain 1 + 2 * a gold
<BLANKLINE>
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulecraft.language import ast
from rulecraft.language.parser import ParseFailed, parse_source

__all__ = [
    "LINE_WIDTH",
    "FormatError",
    "format_expr",
    "format_source",
    "format_unit",
    "strip_spans",
]

LINE_WIDTH = 100
_INDENT = "    "

# ---------------------------------------------------------------------------- expressions
# Binding strength of each expression form, loosest first; an operand printed where a
# tighter form is required gets parentheses.  The levels mirror the grammar's rule chain
# (conditional > where_expr > or_expr > and_expr > not_expr > comparison > sum > term > unary
# > quantity > postfix > atom).
_COND, _WHERE, _OR, _AND, _NOT, _CMP, _SUM, _TERM, _NEG, _QTY, _POSTFIX, _ATOM = range(1, 13)

_BINARY_LEVEL = {
    "or": _OR,
    "and": _AND,
    "+": _SUM,
    "-": _SUM,
    "*": _TERM,
    "/": _TERM,
    "%": _TERM,
    "in": _CMP,
    "==": _CMP,
    "!=": _CMP,
    "<": _CMP,
    "<=": _CMP,
    ">": _CMP,
    ">=": _CMP,
}


def _quote(value: str) -> str:
    escaped = (
        value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return f'"{escaped}"'


def _text(text: ast.Text) -> str:
    parts = [_quote(text.default)]
    parts.extend(f"@{lang} {_quote(value)}" for lang, value in text.translations)
    return " ".join(parts)


def _level(expr: ast.Expr) -> int:
    if isinstance(expr, ast.Conditional):
        return _COND
    if isinstance(expr, ast.Where):
        return _WHERE
    if isinstance(expr, ast.Binary):
        return _BINARY_LEVEL[expr.op]
    if isinstance(expr, ast.Has):
        return _CMP
    if isinstance(expr, ast.Unary):
        return _NOT if expr.op == "not" else _NEG
    if isinstance(expr, ast.Qty):
        return _QTY
    if isinstance(expr, ast.Attr | ast.Call | ast.Index):
        return _POSTFIX
    return _ATOM


def format_expr(expr: ast.Expr, min_level: int = _COND) -> str:
    """One expression on one line, parenthesised where ``min_level`` needs it.

    >>> from rulecraft.language.parser import parse_expression
    >>> e, _ = parse_expression("a-(b-c) + ((x where y).z)", "x.rcl")
    >>> format_expr(e)
    'a - (b - c) + (x where y).z'
    """
    text = _expr_body(expr)
    return f"({text})" if _level(expr) < min_level else text


def _expr_body(expr: ast.Expr) -> str:
    if isinstance(expr, ast.Conditional):
        # right-associative: only the else branch may be another conditional unbracketed
        then = format_expr(expr.then, _WHERE)
        condition = format_expr(expr.condition, _WHERE)
        return f"{then} if {condition} else {format_expr(expr.otherwise, _COND)}"
    if isinstance(expr, ast.Where):
        return f"{format_expr(expr.collection, _OR)} where {format_expr(expr.condition, _OR)}"
    if isinstance(expr, ast.Binary):
        level = _BINARY_LEVEL[expr.op]
        if level == _CMP:  # comparisons do not chain: both sides are sums
            left, right = _SUM, _SUM
        else:  # left-associative: the right operand must bind tighter
            left, right = level, level + 1
        return f"{format_expr(expr.left, left)} {expr.op} {format_expr(expr.right, right)}"
    if isinstance(expr, ast.Has):
        return f"{format_expr(expr.obj, _SUM)} has {expr.flag}"
    if isinstance(expr, ast.Unary):
        if expr.op == "not":
            return f"not {format_expr(expr.operand, _NOT)}"
        return f"-{format_expr(expr.operand, _NEG)}"
    if isinstance(expr, ast.Qty):
        return f"{format_expr(expr.amount, _POSTFIX)} {expr.unit}"
    if isinstance(expr, ast.Attr):
        return f"{format_expr(expr.obj, _POSTFIX)}.{expr.field}"
    if isinstance(expr, ast.Call):
        return f"{format_expr(expr.func, _POSTFIX)}({_exprs(expr.args)})"
    if isinstance(expr, ast.Index):
        return f"{format_expr(expr.obj, _POSTFIX)}[{format_expr(expr.key)}]"
    if isinstance(expr, ast.ListExpr):
        return f"[{_exprs(expr.items)}]"
    if isinstance(expr, ast.TextLit):
        return _text(expr.text)
    if isinstance(expr, ast.Name):
        return expr.name
    if isinstance(expr, ast.Const):
        if expr.value is None:
            return "none"
        if isinstance(expr.value, bool):
            return "true" if expr.value else "false"
        return str(expr.value)
    raise TypeError(f"cannot format expression {type(expr).__name__}")


def _exprs(exprs: Sequence[ast.Expr]) -> str:
    return ", ".join(format_expr(e) for e in exprs)


def _params(params: Sequence[str]) -> str:
    return f"({', '.join(params)})" if params else ""


# A statement that is a bare expression must not start with a word that the statement
# grammar reads as a verb or keyword (``draw(x)`` would become the draw effect).
_STATEMENT_WORDS = frozenset(
    {
        *("gain", "lose", "spend", "suffer", "heal", "deal", "draw", "discard", "move"),
        *("shuffle", "reveal", "roll", "go", "set", "clear", "let", "end", "emit", "prevent"),
        *("flip", "exhaust", "ready", "say", "return", "win", "tie", "if", "for", "repeat"),
        *("choose", "test", "reroll", "look"),
    }
)
_FIRST_WORD = re.compile(r"[^\W\d]\w*")


def _simple_stmt(stmt: ast.SimpleStmt) -> str:
    """One simple statement on one line."""
    verb = stmt.verb
    # the parts a statement of this type has (see ast.SimpleStmt): absent ones are None
    main: ast.Expr | None = getattr(stmt, "value", None)
    target: ast.Expr | None = getattr(stmt, "target", None)
    source: ast.Expr | None = getattr(stmt, "source", None)
    name: str | None = getattr(stmt, "name", None)

    def opt(keyword: str, expr: ast.Expr | None) -> str:
        return f" {keyword} {format_expr(expr)}" if expr is not None else ""

    value = format_expr(main) if main is not None else ""
    if isinstance(stmt, ast.ExprStmt):
        match = _FIRST_WORD.match(value)
        if match and match.group() in _STATEMENT_WORDS:
            return f"({value})"
        return value
    if verb in ("gain", "suffer", "discard", "flip", "deal"):
        return f"{verb} {value}{opt('to', target)}"
    if verb in ("lose", "spend", "heal"):
        return f"{verb} {value}{opt('from', source)}"
    if verb in ("win", "lose_game"):
        return f"{verb.removesuffix('_game')}{opt('for', target)}"
    if isinstance(stmt, ast.Draw):
        return f"draw {value}{opt('from', source)}{opt('to', target)}"
    if isinstance(stmt, ast.Move):
        position = f" at {stmt.position}" if stmt.position else ""
        face = " face down" if stmt.facedown else ""
        return f"move {value}{opt('to', target)}{position}{face}"
    if verb == "reveal":
        return f"reveal {value}{opt('to', target)}"
    if verb == "look":
        return f"look at {value}"
    if verb in ("shuffle", "exhaust", "ready", "say", "reroll"):
        return f"{verb} {value}"
    if verb == "roll":
        return f"roll {value}" + (f" as {name}" if name else "")
    if verb == "goto":
        return f"go to {value}"
    if isinstance(stmt, ast.SetFlag | ast.ClearFlag):
        until = f" until {stmt.until}" if isinstance(stmt, ast.SetFlag) and stmt.until else ""
        return f"{verb.removesuffix('_flag')} flag {name}{opt('on', target)}{until}"
    if verb == "set":
        return f"set {value}{opt('to', target)}"
    if verb == "let":
        return f"let {name} = {value}"
    if verb == "end":
        return f"end {name}"
    if isinstance(stmt, ast.Emit):
        args = f"({_exprs(stmt.args)})" if stmt.args else ""
        return f"emit {name}{args}"
    if verb == "prevent":
        return f"prevent {value}" if value else "prevent"
    if verb in ("return", "tie"):
        return verb
    raise ValueError(f"cannot format statement verb {verb!r}")


# ---------------------------------------------------------------------------- source scan
@dataclass(frozen=True, slots=True)
class _Comment:
    line: int  # 1-based
    column: int  # 0-based indentation width
    text: str
    full_line: bool  # nothing but the comment on its line (and not inside brackets)


@dataclass(frozen=True, slots=True)
class _SourceLine:
    indent: int
    blank: bool
    starts_statement: bool  # first line of a logical line (not inside brackets or after "\")
    first_word: str


class _Source:
    """What the formatter needs from the raw text: comments, indentation, blank lines."""

    def __init__(self, text: str) -> None:
        self.raw = [line.removesuffix("\r") for line in text.split("\n")]
        self.lines: list[_SourceLine] = []
        self.comments: list[_Comment] = []
        depth = 0
        continued = False
        for number, raw in enumerate(self.raw, start=1):
            starts = depth == 0 and not continued
            comment_at = -1
            in_string = False
            escaped = False
            for i, ch in enumerate(raw):
                if in_string:
                    if escaped:
                        escaped = False
                    elif ch == "\\":
                        escaped = True
                    elif ch == '"':
                        in_string = False
                elif ch == '"':
                    in_string = True
                elif ch == "#":
                    comment_at = i
                    break
                elif ch in "([":
                    depth += 1
                elif ch in ")]":
                    depth = max(0, depth - 1)
            code = raw if comment_at < 0 else raw[:comment_at]
            stripped = code.strip()
            continued = stripped.endswith("\\")
            lead = raw[: len(raw) - len(raw.lstrip(" \t"))]
            indent = lead.count(" ") + 4 * lead.count("\t")
            if comment_at >= 0:
                self.comments.append(
                    _Comment(number, indent, raw[comment_at:].rstrip(), not stripped and starts)
                )
            word = _FIRST_WORD.match(stripped)
            self.lines.append(
                _SourceLine(
                    indent,
                    not stripped and comment_at < 0,
                    starts and bool(stripped),
                    word.group() if word else "",
                )
            )

    def line(self, number: int) -> _SourceLine:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return _SourceLine(0, True, False, "")

    def next_statement_line(self, after: int, indent: int | None = None) -> int | None:
        """The first logical line after line ``after`` (at ``indent`` when given)."""
        for number in range(after + 1, len(self.lines) + 1):
            info = self.lines[number - 1]
            if info.starts_statement and (indent is None or info.indent <= indent):
                return number if indent is None or info.indent == indent else None
        return None

    def previous_statement_line(self, before: int) -> int | None:
        for number in range(before - 1, 0, -1):
            if self.lines[number - 1].starts_statement:
                return number
        return None

    def body_is_inline(self, stmt: ast.Stmt) -> bool:
        """Was this first statement of a block written on its header's line?"""
        if stmt.span.line < 1 or stmt.span.line > len(self.raw):
            return True  # literals carry no position; a one-liner is the likely case
        before = self.raw[stmt.span.line - 1][: max(0, stmt.span.column - 1)]
        return re.search(r":[\s(\[\-]*(?:not\s+[\s(\[\-]*)*$", before) is not None


# ---------------------------------------------------------------------------- layout
@dataclass(slots=True)
class _Line:
    indent: int
    text: str
    anchor: int | None  # source line of the construct this line starts, when known
    opens_block: bool = False


class _Printer:
    def __init__(self, source: _Source) -> None:
        self.src = source
        self.lines: list[_Line] = []
        self.item_starts: list[int] = []  # index in self.lines of each top-level item

    # -- helpers
    def emit(self, indent: int, text: str, anchor: int | None, opens: bool = False) -> None:
        self.lines.append(_Line(indent, text, anchor if anchor and anchor > 0 else None, opens))

    def block(
        self,
        indent: int,
        header: str,
        anchor: int | None,
        body: Sequence[ast.Stmt],
        *,
        value: bool = False,
    ) -> None:
        """``header:`` followed by a statement block, inline when written so and it fits.

        An attribute's one-statement ``value`` stays on its line however long it is.
        """
        simple = all(isinstance(s, ast.SimpleStmt) for s in body)
        if body and simple and self.src.body_is_inline(body[0]):
            texts = [_simple_stmt(s) for s in body if isinstance(s, ast.SimpleStmt)]
            line = f"{header}: {'; '.join(texts)}"
            fits = len(_INDENT) * indent + len(line) <= LINE_WIDTH
            # One statement too long for a line of its own gains nothing from moving down.
            hopeless = len(texts) == 1 and (
                value or len(_INDENT) * (indent + 1) + len(texts[0]) > LINE_WIDTH
            )
            if fits or hopeless:
                self.emit(indent, line, anchor)
                return
        self.emit(indent, f"{header}:", anchor, opens=True)
        for stmt in body:
            self.stmt(indent + 1, stmt)

    def members(
        self, indent: int, header: str, anchor: int | None, members: Sequence[ast.Member]
    ) -> None:
        self.emit(indent, f"{header}:", anchor, opens=True)
        for member in members:
            self.member(indent + 1, member)

    # -- statements
    def stmt(self, indent: int, stmt: ast.Stmt) -> None:
        line = stmt.span.line
        if isinstance(stmt, ast.SimpleStmt):
            self.emit(indent, _simple_stmt(stmt), line)
        elif isinstance(stmt, ast.If):
            own_indent = self.src.line(line).indent
            previous = line
            for i, (cond, body) in enumerate(stmt.branches):
                keyword = "if" if i == 0 else "elif"
                anchor = line if i == 0 else self._clause_line(previous, own_indent, keyword)
                self.block(indent, f"{keyword} {format_expr(cond)}", anchor, body)
                previous = anchor or previous
            if stmt.otherwise is not None:
                anchor = self._clause_line(previous, own_indent, "else")
                self.block(indent, "else", anchor, stmt.otherwise)
        elif isinstance(stmt, ast.ForEach):
            header = f"for each {stmt.var} in {format_expr(stmt.collection)}"
            self.block(indent, header, line, stmt.body)
        elif isinstance(stmt, ast.Repeat):
            self.block(indent, f"repeat {format_expr(stmt.count)}", line, stmt.body)
        elif isinstance(stmt, ast.While):
            self.block(indent, f"while {format_expr(stmt.condition)}", line, stmt.body)
        elif isinstance(stmt, ast.Choose):
            parts = ["choose"]
            if stmt.up_to:
                parts.append("up to")
            if stmt.count is not None:
                parts.append(format_expr(stmt.count, _POSTFIX))
            parts += [stmt.var, "from", format_expr(stmt.collection)]
            parts += self._chooser_prompt(stmt.chooser, stmt.prompt)
            self.block(indent, " ".join(parts), line, stmt.body)
        elif isinstance(stmt, ast.ChooseOption):
            # The node's span is its first option's; the header is the line before it.
            header_line = self.src.previous_statement_line(line) if line > 0 else None
            header = " ".join(["choose", *self._chooser_prompt(stmt.chooser, stmt.prompt)])
            self.emit(indent, f"{header}:", header_line, opens=True)
            for option in stmt.options:
                text = f"option {_text(option.label)}"
                if option.condition is not None:
                    text += f" if {format_expr(option.condition)}"
                self.block(indent + 1, text, option.span.line, option.body)
        elif isinstance(stmt, ast.Test):
            header = f"test {stmt.skill} ({format_expr(stmt.target)})"
            if stmt.extra is not None:
                header += f" with {format_expr(stmt.extra)}"
            if stmt.name is not None:
                header += f" as {stmt.name}"
            self.emit(indent, f"{header}:", line, opens=True)
            pass_line = self.src.next_statement_line(line) if line > 0 else None
            self.block(indent + 1, "pass", pass_line, stmt.on_pass)
            if stmt.on_fail:
                fail_line = None
                if pass_line is not None:
                    fail_indent = self.src.line(pass_line).indent
                    fail_line = self._clause_line(pass_line, fail_indent, "fail")
                self.block(indent + 1, "fail", fail_line, stmt.on_fail)
        else:  # pragma: no cover - every statement kind is handled above
            raise TypeError(f"cannot format statement {type(stmt).__name__}")

    def _clause_line(self, after: int, indent: int, keyword: str) -> int | None:
        if after < 1:
            return None
        found = self.src.next_statement_line(after, indent)
        if found is not None and self.src.line(found).first_word == keyword:
            return found
        return None

    @staticmethod
    def _chooser_prompt(chooser: ast.Expr | None, prompt: ast.Text | None) -> list[str]:
        parts: list[str] = []
        if chooser is not None:
            parts.append(f"by {format_expr(chooser)}")
        if prompt is not None:
            parts.append(f"prompt {_text(prompt)}")
        return parts

    # -- members
    def member(self, indent: int, member: ast.Member) -> None:
        line = member.span.line
        if isinstance(member, ast.Attribute):
            self.block(indent, member.name, line, member.body, value=True)
        elif isinstance(member, ast.Ability):
            parts = ["ability"]
            if member.label is not None:
                parts.append(_text(member.label))
            parts += self._cost_limit_condition(member.cost, member.limit, member.condition)
            self.block(indent, " ".join(parts), line, member.body)
        elif isinstance(member, ast.Trigger):
            header = f"{member.timing} {member.event}{_params(member.params)}"
            if member.condition is not None:
                header += f" if {format_expr(member.condition)}"
            if member.optional:
                header += " optionally"
            if member.prompt is not None:
                header += f" prompt {_text(member.prompt)}"
            self.block(indent, header, line, member.body)
        elif isinstance(member, ast.Modifier):
            text = (
                f"modify {member.prop} of {format_expr(member.targets)}"
                f" by {format_expr(member.amount)}"
            )
            if member.minimum is not None:
                text += f" (min {format_expr(member.minimum)})"
            if member.maximum is not None:
                text += f" (max {format_expr(member.maximum)})"
            if member.condition is not None:
                text += f" while {format_expr(member.condition)}"
            self.emit(indent, text, line)
        elif isinstance(member, ast.Grant):
            text = f"grant {member.flag} to {format_expr(member.targets)}"
            if member.condition is not None:
                text += f" while {format_expr(member.condition)}"
            self.emit(indent, text, line)
        elif isinstance(member, ast.Side):
            self.members(indent, _labelled("side", member.name, member.label), line, member.members)
        elif isinstance(member, ast.Choice):
            header = f"choice {_text(member.label)}"
            if member.condition is not None:
                header += f" if {format_expr(member.condition)}"
            self.block(indent, header, line, member.body)
        else:  # pragma: no cover - every member kind is handled above
            raise TypeError(f"cannot format member {type(member).__name__}")

    @staticmethod
    def _cost_limit_condition(
        cost: ast.Expr | None, limit: str | None, condition: ast.Expr | None
    ) -> list[str]:
        parts: list[str] = []
        if cost is not None:
            # "costs A if C else B: ..." would read the "if" as the ability's condition
            parts.append(f"costs {format_expr(cost, _WHERE)}")
        if limit is not None:
            parts.append(f"once per {limit}")
        if condition is not None:
            parts.append(f"if {format_expr(condition)}")
        return parts

    # -- items
    def item(self, item: ast.Item) -> None:
        self.item_starts.append(len(self.lines))
        line = item.span.line
        if isinstance(item, ast.Include):
            self.emit(0, f"include {_quote(item.path)}", line)
        elif isinstance(item, ast.Component):
            self.members(0, _labelled(item.kind, item.id, item.label), line, item.members)
        elif isinstance(item, ast.Entry):
            self.members(0, _labelled("entry", str(item.number), item.label), line, item.members)
        elif isinstance(item, ast.Rule):
            self.members(0, _labelled("rule", item.name, item.label), line, item.members)
        elif isinstance(item, ast.EffectDef):
            self.block(0, f"effect {item.name}{_params(item.params)}", line, item.body)
        elif isinstance(item, ast.Define):
            text = f"define {item.name}{_params(item.params)} = {format_expr(item.expr)}"
            self.emit(0, text, line)
        elif isinstance(item, ast.ActionDef):
            parts = [_labelled("action", item.name, item.label)]
            if item.for_var is not None and item.for_collection is not None:
                collection = format_expr(item.for_collection, _WHERE)  # as for "costs"
                parts.append(f"for {item.for_var} in {collection}")
            parts += self._cost_limit_condition(item.cost, item.limit, item.condition)
            self.block(0, " ".join(parts), line, item.body)
        else:  # pragma: no cover - every item kind is handled above
            raise TypeError(f"cannot format item {type(item).__name__}")


def _labelled(keyword: str, name: str, label: ast.Text | None) -> str:
    return f"{keyword} {name} {_text(label)}" if label is not None else f"{keyword} {name}"


# ---------------------------------------------------------------------------- comments
class _Renderer:
    """Interleaves the printed lines with the source's comments and kept blank lines: a
    full-line comment before the code line it preceded (or at the end of the deeper block
    it closed), a trailing comment after the printed line its source line became."""

    def __init__(self, printer: _Printer, src: _Source) -> None:
        self.lines = printer.lines
        self.item_starts = set(printer.item_starts)
        self.src = src
        self.full = [c for c in src.comments if c.full_line]
        self.trailing = self._trailing_comments()
        self.out: list[str] = []
        self.last_code: list[int] = []  # indices into `lines` of code lines already written
        self.opener_last = False  # the last written line opens a block: no blank line after
        self.pending = 0  # the first full-line comment not yet written

    def _trailing_comments(self) -> dict[int, list[str]]:
        """Each end-of-line comment, by the index of the printed line it goes after: the
        last line whose source line is at or before the comment's."""
        trailing: dict[int, list[str]] = {}
        anchored = [(i, ln.anchor) for i, ln in enumerate(self.lines) if ln.anchor is not None]
        for comment in self.src.comments:
            if comment.full_line:
                continue
            target = 0
            for i, anchor in anchored:
                if anchor <= comment.line:
                    target = i
                else:
                    break
            trailing.setdefault(target, []).append(comment.text)
        return trailing

    def blank_before(self, source_line: int) -> bool:
        return source_line > 1 and self.src.line(source_line - 1).blank

    def put_blank(self) -> None:
        if self.out and self.out[-1] != "" and not self.opener_last:
            self.out.append("")

    def dangling_indent(self, comment: _Comment, next_indent: int) -> int | None:
        """The indentation of a comment left at the end of a deeper block, if it is one."""
        for i in reversed(self.last_code):
            anchor = self.lines[i].anchor
            if anchor is None:
                continue
            col = self.src.line(anchor).indent
            if col <= comment.column:
                deeper = col < comment.column and self.lines[i].opens_block
                depth = self.lines[i].indent + (1 if deeper else 0)
                return depth if depth > next_indent else None
        return None

    def put_comment(self, comment: _Comment, indent: int) -> None:
        if self.blank_before(comment.line):
            self.put_blank()
        self.out.append(_INDENT * indent + comment.text)
        self.opener_last = False

    def flush(self, upto: int | None, next_indent: int, separator: bool) -> None:
        """Write the full-line comments before source line ``upto`` (all when None)."""
        leading: list[_Comment] = []
        full = self.full
        while self.pending < len(full) and (upto is None or full[self.pending].line < upto):
            comment = full[self.pending]
            self.pending += 1
            depth = self.dangling_indent(comment, next_indent) if not leading else None
            if depth is not None:
                self.put_comment(comment, depth)
            else:
                leading.append(comment)
        if separator:
            self.put_blank()
        for comment in leading:
            self.put_comment(comment, next_indent)

    def render(self) -> str:
        """The printed lines with the comments and blank lines put back."""
        for i, line in enumerate(self.lines):
            is_item = i in self.item_starts
            if line.anchor is not None:
                self.flush(line.anchor, line.indent, is_item)
                if self.blank_before(line.anchor):
                    self.put_blank()
            elif is_item:
                self.put_blank()
            text = _INDENT * line.indent + line.text
            if i in self.trailing:
                text += "  " + " ".join(self.trailing[i])
            self.out.append(text)
            self.opener_last = line.opens_block
            self.last_code.append(i)
        self.flush(None, 0, False)
        out = self.out
        while out and out[-1] == "":
            out.pop()
        return "\n".join(out) + "\n" if out else ""


def _render(printer: _Printer, src: _Source) -> str:
    """Interleave the printed lines with the source's comments and kept blank lines."""
    return _Renderer(printer, src).render()


# ---------------------------------------------------------------------------- entry points
def format_unit(unit: ast.Unit, source: str = "") -> str:
    """Print a parsed unit canonically; comments are taken from ``source`` when given."""
    src = _Source(source)
    printer = _Printer(src)
    for item in unit.items:
        printer.item(item)
    return _render(printer, src)


def format_source(text: str, file: str = "<text>") -> str:
    """The canonical form of one ``.rcl`` file's text.

    Raises :class:`~rulecraft.language.parser.ParseFailed` (with located diagnostics) when
    the text has syntax errors, and :class:`FormatError` if the output would not parse to
    the same tree: a file is never rewritten into something else.
    """
    unit, problems = parse_source(text, file)
    if problems:
        raise ParseFailed(problems)
    formatted = format_unit(unit, text)
    # A safety net against grammar changes the printer does not know yet: never hand back
    # text that means something else.
    again, problems = parse_source(formatted, file)
    if problems or strip_spans(again.items) != strip_spans(unit.items):
        raise FormatError(f"{file}: formatting would change the file's meaning; left alone")
    return formatted


class FormatError(Exception):
    """The printer cannot reproduce a tree (a formatter bug); the file is left alone."""


def strip_spans(node: Any) -> Any:
    """A span-free, comparable copy of a syntax tree (or any part of one).

    >>> from rulecraft.language.parser import parse_text
    >>> a = parse_text("define x = 1 + 2\\n")
    >>> b = parse_text("\\n\\ndefine   x=(1+2)\\n")
    >>> a == b, strip_spans(a.items) == strip_spans(b.items)
    (False, True)
    """
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        fields = tuple(
            (f.name, strip_spans(getattr(node, f.name)))
            for f in dataclasses.fields(node)
            if f.name not in ("span", "file", "field_span")
        )
        return (type(node).__name__, fields)
    if isinstance(node, tuple | list):
        return tuple(strip_spans(x) for x in node)
    return node
