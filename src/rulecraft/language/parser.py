"""Parse ``.rcl`` text into the typed syntax tree, reporting every syntax error located.

The grammar lives in ``rulecraft.lark`` next to this file (the single source of truth); this
module only drives Lark (LALR, contextual lexer, an indentation post-lexer) and turns its
tree into :mod:`rulecraft.language.ast` records.

Error recovery: a file parses in one pass; only when that fails is it cut into its
top-level items (each starts at column 0) and each item parsed alone, so one typo costs
one diagnostic and hides nothing else.

>>> unit, problems = parse_source('card ace "Ace":\\n    value: 1\\n', "cards.rcl")
>>> unit.items[0].id, problems
('ace', [])
>>> _, problems = parse_source('card ace "Ace"\\n    value: 1\\n', "cards.rcl")
>>> problems[0].code, problems[0].span.line
('RC101', 1)
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError, Indenter

from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast

__all__ = ["ParseFailed", "parse_expression", "parse_snippet", "parse_source", "parse_text"]


class _RclIndenter(Indenter):
    """Python-style INDENT/DEDENT tokens; newlines inside brackets are ignored."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "MIN_BOUND", "MAX_BOUND"]  # noqa: RUF012 - Lark's Indenter API
    CLOSE_PAREN_types = ["RPAR", "RSQB"]  # noqa: RUF012
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_text() -> str:
    """The grammar, as shipped inside the package."""
    return resources.files("rulecraft.language").joinpath("rulecraft.lark").read_text("utf-8")


def grammar_cache_file(name: str = "grammar") -> str | None:
    """Where the built parser ``name`` is kept between processes (one file for each way
    of building one: the language server's lexer has its own): ``RULECRAFT_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/rulecraft``, else ``~/.cache/rulecraft`` (made if missing, for this
    user only), or ``None`` when none can be made (the parser is then built every time).
    The file's name says nothing of the grammar: Lark keeps the hash of the grammar and its
    options, with Lark's and Python's versions, inside it, and builds afresh when they differ.  A
    folder of the user's own, not the shared temporary one Lark's ``cache=True`` uses:
    a cached parser is a pickle, and only its owner may write one there."""
    folder = os.environ.get("RULECRAFT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "rulecraft",
    )
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, f"{name}-py{sys.version_info[0]}{sys.version_info[1]}.lark")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # Built once per process and kept between processes: building the LALR tables takes
    # about 2 s (1.9 s on 4 December, for every CLI call, simulation worker and test
    # worker), loading them 0.04 s.  Immutable once built.
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        postlex=_RclIndenter(),
        maybe_placeholders=False,
        cache=grammar_cache_file() or False,
    )


def build_parser(*, strict: bool = False) -> Lark:
    """A fresh parser; ``strict`` turns grammar conflicts and regex collisions into errors."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        postlex=_RclIndenter(),
        maybe_placeholders=False,
        strict=strict,
    )


class ParseFailed(Exception):
    """Raised by :func:`parse_text` when the text has syntax errors."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics


# ---------------------------------------------------------------------------- tree -> AST
def _unquote(token: str) -> str:
    body = token[1:-1]
    if "\\" not in body:
        return body
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


class _Builder(Transformer[Token, Any]):
    """Turns Lark's tree into AST records; spans come from the first token of each rule.

    Clause rules with no method of their own (``to``, ``from_``, ``pass_branch``, ...) stay
    small trees (Lark's default), which the statement that holds them reads by name."""

    def __init__(
        self, file: str, line_offset: int = 0, column_offset: int = 0, every_line: bool = False
    ) -> None:
        super().__init__(visit_tokens=False)
        self.file = file
        self.line_offset = line_offset
        self.column_offset = column_offset
        self.every_line = every_line
        self._keyword_span: Span | None = None

    def _call_userfunc(self, tree: Tree[Any], new_children: list[Any] | None = None) -> Any:
        # Rules marked "!" in the grammar keep their keyword tokens: the first one gives the
        # node its span (so "win" is located at "win"), then all keywords are dropped.
        children = new_children if new_children is not None else tree.children
        if (
            tree.data != "timing"
            and children
            and isinstance(children[0], Token)
            and children[0].type not in _VALUE_TOKENS
        ):
            self._keyword_span = self._span_of_token(children[0])
            children = [
                c for c in children if not (isinstance(c, Token) and c.type not in _VALUE_TOKENS)
            ]
        else:
            self._keyword_span = None
        return super()._call_userfunc(tree, children)  # type: ignore[no-untyped-call]

    # -- helpers
    def _span_of_token(self, tok: Token) -> Span:
        line = (tok.line or 1) + self.line_offset
        col = tok.column or 1
        # Lark's end column is one past the token; a Span's end is its last character.
        end_col = tok.end_column - 1 if tok.end_column is not None else None
        if (tok.line or 1) == 1 or self.every_line:
            col += self.column_offset
            if end_col is not None:
                end_col += self.column_offset
        end_line = (tok.end_line or tok.line or 1) + self.line_offset
        return Span(self.file, line, max(1, col), end_line, end_col)

    def _span(self, children: list[Any]) -> Span:
        if self._keyword_span is not None:
            return self._keyword_span
        for child in children:
            if isinstance(child, Token):
                return self._span_of_token(child)
            span = getattr(child, "span", None)
            if isinstance(span, Span):
                return span
            if isinstance(child, tuple | list) and child:
                found = self._span(list(child))
                if found is not ast.NOWHERE:
                    return found
        return ast.NOWHERE

    # -- items
    def start(self, children: list[Any]) -> list[ast.Item]:
        return [c for c in children if isinstance(c, ast.Item)]

    def include(self, c: list[Any]) -> ast.Include:
        return ast.Include(self._span(c), _unquote(c[0]))

    def label(self, c: list[Any]) -> ast.Text:
        return ast.Text(_unquote(c[0]), tuple(c[1:]))

    def translation(self, c: list[Any]) -> tuple[str, str]:
        return (str(c[0])[1:], _unquote(c[1]))

    def _label_members(self, c: list[Any]) -> tuple[ast.Text | None, tuple[ast.Member, ...]]:
        label = next((x for x in c if isinstance(x, ast.Text)), None)
        return label, c[-1]

    def component(self, c: list[Any]) -> ast.Component:
        label, members = self._label_members(c)
        return ast.Component(self._span(c), str(c[0]), str(c[1]), label, members)

    def entry(self, c: list[Any]) -> ast.Entry:
        label, members = self._label_members(c)
        return ast.Entry(self._span(c), _whole(c[0], self._span(c)), label, members)

    def rule(self, c: list[Any]) -> ast.Rule:
        label, members = self._label_members(c)
        return ast.Rule(self._span(c), str(c[0]), label, members)

    def members(self, c: list[Any]) -> tuple[ast.Member, ...]:
        return tuple(c)

    def attribute(self, c: list[Any]) -> ast.Attribute:
        return ast.Attribute(self._span(c), str(c[0]), c[1])

    def _parts(self, c: list[Any]) -> dict[str, Any]:
        parts: dict[str, Any] = {}
        for x in c:
            if isinstance(x, Tree):
                parts[str(x.data)] = x.children[0] if x.children else True
            elif isinstance(x, ast.Text):
                parts["label"] = x
            elif isinstance(x, Token) and x.type == "STRING":
                parts["label"] = ast.Text(_unquote(x))
            elif isinstance(x, Token) and x.type == "OPTIONAL":
                parts["optional"] = True
        return parts

    def limit(self, c: list[Any]) -> Tree[Any]:
        return Tree("limit", [str(c[0])])

    def while_clause(self, c: list[Any]) -> Tree[Any]:
        return Tree("condition", c)

    def for_clause(self, c: list[Any]) -> Tree[Any]:
        return Tree("for_clause", [(str(c[0]), c[1])])

    def ability(self, c: list[Any]) -> ast.Ability:
        p = self._parts(c[:-1])
        return ast.Ability(
            self._span(c),
            p.get("label"),
            p.get("cost"),
            p.get("limit"),
            p.get("condition"),
            c[-1],
        )

    def timing(self, c: list[Any]) -> Token:
        tok: Token = c[0]
        return Token.new_borrow_pos("TIMING", str(tok), tok)

    def event_pattern(self, c: list[Any]) -> tuple[Token, tuple[str, ...]]:
        return (c[0], c[1] if len(c) > 1 else ())

    def trigger(self, c: list[Any]) -> ast.Trigger:
        timing_tok: Token = c[0]
        event_tok, params = c[1]
        p = self._parts(c[2:-1])
        return ast.Trigger(
            self._span_of_token(timing_tok),
            str(timing_tok),
            str(event_tok),
            params,
            p.get("condition"),
            bool(p.get("optional")),
            c[-1],
            p.get("prompt"),
        )

    def min_bound(self, c: list[Any]) -> Tree[Any]:
        return Tree("minimum", [c[-1]])

    def max_bound(self, c: list[Any]) -> Tree[Any]:
        return Tree("maximum", [c[-1]])

    def modifier(self, c: list[Any]) -> ast.Modifier:
        rest: dict[str, Any] = {str(x.data): x.children[0] for x in c[3:] if isinstance(x, Tree)}
        return ast.Modifier(
            self._span(c),
            str(c[0]),
            c[1],
            c[2],
            rest.get("condition"),
            rest.get("minimum"),
            rest.get("maximum"),
        )

    def grant(self, c: list[Any]) -> ast.Grant:
        cond = c[2].children[0] if len(c) > 2 else None
        return ast.Grant(self._span(c), str(c[0]), c[1], cond)

    def side(self, c: list[Any]) -> ast.Side:
        label = next((x for x in c if isinstance(x, ast.Text)), None)
        return ast.Side(self._span(c), str(c[0]), label, c[-1])

    def choice(self, c: list[Any]) -> ast.Choice:
        text = ast.Text(_unquote(c[0]), tuple(x for x in c[1:-1] if isinstance(x, tuple)))
        cond = self._condition(c)
        return ast.Choice(self._span(c), text, cond, c[-1])

    def _condition(self, c: list[Any]) -> ast.Expr | None:
        for x in c:
            if isinstance(x, Tree) and x.data == "condition":
                found = x.children[0]
                return found if isinstance(found, ast.Expr) else None
        return None

    def effect_def(self, c: list[Any]) -> ast.EffectDef:
        params = c[1] if len(c) > 2 else ()
        return ast.EffectDef(self._span(c), str(c[0]), params, c[-1])

    def define(self, c: list[Any]) -> ast.Define:
        params = c[1] if len(c) > 2 else ()
        return ast.Define(self._span(c), str(c[0]), params, c[-1])

    def action_def(self, c: list[Any]) -> ast.ActionDef:
        p = self._parts(c[1:-1])
        var, coll = p.get("for_clause", (None, None))
        return ast.ActionDef(
            self._span(c),
            str(c[0]),
            p.get("label"),
            var,
            coll,
            p.get("cost"),
            p.get("limit"),
            p.get("condition"),
            c[-1],
        )

    def params(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(x) for x in c)

    # -- statements
    def block(self, c: list[Any]) -> tuple[ast.Stmt, ...]:
        out: list[ast.Stmt] = []
        for x in c:
            if isinstance(x, list):
                out.extend(x)
            else:
                out.append(x)
        return tuple(out)

    def simple_stmts(self, c: list[Any]) -> list[ast.Stmt]:
        return list(c)

    def _clause(self, c: list[Any], name: str) -> Any:
        for x in c:
            if isinstance(x, Tree) and x.data == name:
                return x.children[0]
        return None

    def _value(self, c: list[Any]) -> Any:
        """A simple statement's main operand: its first part, when that is an expression."""
        return c[0] if c and isinstance(c[0], ast.Expr) else None

    def position(self, c: list[Any]) -> Tree[Any]:
        return Tree("position", [str(c[0])])

    def as_(self, c: list[Any]) -> Tree[Any]:
        return Tree("as_", [str(c[0])])

    def gain(self, c: list[Any]) -> ast.Gain:
        return ast.Gain(self._span(c), self._value(c), self._clause(c, "to"))

    def lose(self, c: list[Any]) -> ast.Lose:
        return ast.Lose(self._span(c), self._value(c), self._clause(c, "from_"))

    def lose_game(self, c: list[Any]) -> ast.LoseGame:
        return ast.LoseGame(self._span(c), self._clause(c, "for_player"))

    def win(self, c: list[Any]) -> ast.Win:
        return ast.Win(self._span(c), self._clause(c, "for_player"))

    def tie(self, c: list[Any]) -> ast.Tie:
        return ast.Tie(self._span(c))

    def spend(self, c: list[Any]) -> ast.Spend:
        return ast.Spend(self._span(c), self._value(c), self._clause(c, "from_"))

    def suffer(self, c: list[Any]) -> ast.Suffer:
        return ast.Suffer(self._span(c), self._value(c), self._clause(c, "to"))

    def heal(self, c: list[Any]) -> ast.Heal:
        return ast.Heal(self._span(c), self._value(c), self._clause(c, "from_"))

    def deal(self, c: list[Any]) -> ast.Deal:
        return ast.Deal(self._span(c), self._value(c), self._clause(c, "to"))

    def draw(self, c: list[Any]) -> ast.Draw:
        source, target = self._clause(c, "from_"), self._clause(c, "to")
        return ast.Draw(self._span(c), self._value(c), source, target)

    def discard(self, c: list[Any]) -> ast.Discard:
        return ast.Discard(self._span(c), self._value(c), self._clause(c, "to"))

    def move(self, c: list[Any]) -> ast.Move:
        facedown = any(isinstance(x, Token) and x.type == "FACEDOWN" for x in c)
        position = self._clause(c, "position")
        target = self._clause(c, "to")
        return ast.Move(self._span(c), self._value(c), target, position, facedown)

    def shuffle(self, c: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(self._span(c), self._value(c))

    def reveal(self, c: list[Any]) -> ast.Reveal:
        return ast.Reveal(self._span(c), self._value(c), self._clause(c, "to"))

    def look(self, c: list[Any]) -> ast.Look:
        return ast.Look(self._span(c), self._value(c))

    def roll(self, c: list[Any]) -> ast.Roll:
        return ast.Roll(self._span(c), self._value(c), self._clause(c, "as_"))

    def reroll(self, c: list[Any]) -> ast.Reroll:
        return ast.Reroll(self._span(c), self._value(c))

    def goto(self, c: list[Any]) -> ast.Goto:
        return ast.Goto(self._span(c), self._value(c))

    def set_flag(self, c: list[Any]) -> ast.SetFlag:
        until = self._clause(c, "until")
        target = self._clause(c[1:], "on")
        span = self._span(c[1:])  # as the other parts' spans are found: after the name
        return ast.SetFlag(span, str(c[0]), target, None if until is None else str(until))

    def until(self, c: list[Any]) -> Tree[Any]:
        return Tree("until", [str(c[0])])

    def clear_flag(self, c: list[Any]) -> ast.ClearFlag:
        return ast.ClearFlag(self._span(c[1:]), str(c[0]), self._clause(c[1:], "on"))

    def set_value(self, c: list[Any]) -> ast.SetValue:
        return ast.SetValue(self._span(c), self._value(c), self._clause(c, "to"))

    def let(self, c: list[Any]) -> ast.Let:
        return ast.Let(self._span(c), str(c[0]), c[1])

    def end(self, c: list[Any]) -> ast.End:
        return ast.End(self._span(c), str(c[0]))

    def emit(self, c: list[Any]) -> ast.Emit:
        args = c[1] if len(c) > 1 else ()
        return ast.Emit(self._span(c), str(c[0]), args)

    def prevent(self, c: list[Any]) -> ast.Prevent:
        return ast.Prevent(self._span(c), self._value(c))

    def flip(self, c: list[Any]) -> ast.Flip:
        return ast.Flip(self._span(c), self._value(c), self._clause(c, "to"))

    def exhaust(self, c: list[Any]) -> ast.Exhaust:
        return ast.Exhaust(self._span(c), self._value(c))

    def ready(self, c: list[Any]) -> ast.Ready:
        return ast.Ready(self._span(c), self._value(c))

    def say(self, c: list[Any]) -> ast.Say:
        return ast.Say(self._span(c), self._value(c))

    def return_(self, c: list[Any]) -> ast.Return:
        return ast.Return(self._span(c))

    def expr_stmt(self, c: list[Any]) -> ast.ExprStmt:
        return ast.ExprStmt(self._span(c), c[0])

    def if_stmt(self, c: list[Any]) -> ast.If:
        branches = [(c[0], c[1])]
        otherwise = None
        for x in c[2:]:
            if x.data == "elif_clause":
                branches.append((x.children[0], x.children[1]))
            else:
                otherwise = x.children[0]
        return ast.If(self._span(c), tuple(branches), otherwise)

    def for_stmt(self, c: list[Any]) -> ast.ForEach:
        return ast.ForEach(self._span(c), str(c[0]), c[1], c[2])

    def repeat_stmt(self, c: list[Any]) -> ast.Repeat:
        return ast.Repeat(self._span(c), c[0], c[1])

    def while_stmt(self, c: list[Any]) -> ast.While:
        return ast.While(self._span(c), c[0], c[1])

    def prompt(self, c: list[Any]) -> Tree[Any]:
        return Tree("prompt", [ast.Text(_unquote(c[0]), tuple(c[1:]))])

    def choose_stmt(self, c: list[Any]) -> ast.Choose:
        up_to = isinstance(c[0], Token) and c[0].type == "UPTO"
        rest = c[1:] if up_to else c
        what: ast.Expr = rest[0]
        count: ast.Expr | None = None
        if isinstance(what, ast.Qty):
            count, var = what.amount, what.unit
        elif isinstance(what, ast.Name):
            var = what.name
        else:
            raise _BadChoose(what.span)
        return ast.Choose(
            self._span(c),
            var,
            count,
            up_to,
            rest[1],
            self._clause(rest, "chooser"),
            self._clause(rest, "prompt"),
            rest[-1],
        )

    def options_stmt(self, c: list[Any]) -> ast.ChooseOption:
        options = tuple(x for x in c if isinstance(x, ast.OptionClause))
        span = self._span(c) if c and not options else options[0].span
        return ast.ChooseOption(
            span, self._clause(c, "chooser"), self._clause(c, "prompt"), options
        )

    def option(self, c: list[Any]) -> ast.OptionClause:
        text = ast.Text(_unquote(c[0]), tuple(x for x in c[1:-1] if isinstance(x, tuple)))
        cond = self._condition(c)
        return ast.OptionClause(self._span(c), text, cond, c[-1])

    def test_stmt(self, c: list[Any]) -> ast.Test:
        return ast.Test(
            self._span(c),
            str(c[0]),
            c[1],
            self._clause(c, "modifier_dice"),
            self._clause(c, "pass_branch") or (),
            self._clause(c, "fail_branch") or (),
            None if (name := self._clause(c, "as_")) is None else str(name),
        )

    # -- expressions
    def int_(self, c: list[Any]) -> ast.Const:
        return ast.Const(self._span(c), _whole(c[0], self._span(c)))

    def text(self, c: list[Any]) -> ast.TextLit:
        return ast.TextLit(self._span(c), ast.Text(_unquote(c[0]), tuple(c[1:])))

    def name(self, c: list[Any]) -> ast.Name:
        return ast.Name(self._span(c), str(c[0]))

    def true_(self, c: list[Any]) -> ast.Const:
        return ast.Const(self._span(c), True)

    def false_(self, c: list[Any]) -> ast.Const:
        return ast.Const(self._span(c), False)

    def none_(self, c: list[Any]) -> ast.Const:
        return ast.Const(self._span(c), None)

    def list_(self, c: list[Any]) -> ast.ListExpr:
        return ast.ListExpr(self._span(c), tuple(c))

    def attr(self, c: list[Any]) -> ast.Attr:
        return ast.Attr(self._span(c), c[0], str(c[1]), self._span_of_token(c[1]))

    def args(self, c: list[Any]) -> tuple[ast.Expr, ...]:
        return tuple(c)

    def call(self, c: list[Any]) -> ast.Call:
        return ast.Call(self._span(c), c[0], c[1])

    def index(self, c: list[Any]) -> ast.Index:
        return ast.Index(self._span(c), c[0], c[1])

    def qty(self, c: list[Any]) -> ast.Qty:
        # From the amount to the end of the unit, so a diagnostic about the unit can point
        # at the unit (the compiler takes the span's last len(unit) characters).
        start, unit = self._span(c), self._span_of_token(c[1])
        span = Span(start.file, start.line, start.column, unit.end_line, unit.end_column)
        return ast.Qty(span, c[0], str(c[1]))

    def neg(self, c: list[Any]) -> ast.Unary:
        return ast.Unary(self._span(c), "-", c[0])

    def not_(self, c: list[Any]) -> ast.Unary:
        return ast.Unary(self._span(c), "not", c[0])

    def _bin(self, op: str, c: list[Any]) -> ast.Binary:
        return ast.Binary(self._span(c), op, c[0], c[-1])

    def add(self, c: list[Any]) -> ast.Binary:
        return self._bin("+", c)

    def sub(self, c: list[Any]) -> ast.Binary:
        return self._bin("-", c)

    def mul(self, c: list[Any]) -> ast.Binary:
        return self._bin("*", c)

    def div(self, c: list[Any]) -> ast.Binary:
        return self._bin("/", c)

    def mod(self, c: list[Any]) -> ast.Binary:
        return self._bin("%", c)

    def compare(self, c: list[Any]) -> ast.Binary:
        return ast.Binary(self._span(c), str(c[1]), c[0], c[2])

    def member(self, c: list[Any]) -> ast.Binary:
        return self._bin("in", c)

    def and_(self, c: list[Any]) -> ast.Binary:
        return self._bin("and", c)

    def or_(self, c: list[Any]) -> ast.Binary:
        return self._bin("or", c)

    def has(self, c: list[Any]) -> ast.Has:
        return ast.Has(self._span(c), c[0], str(c[1]))

    def where(self, c: list[Any]) -> ast.Where:
        return ast.Where(self._span(c), c[0], c[1])

    def conditional(self, c: list[Any]) -> ast.Conditional:
        # A literal (true, false, none) has no span of its own: the node runs from the first
        # located part to the end of the last one.
        located = [x.span for x in c if x.span is not ast.NOWHERE]
        if not located:
            return ast.Conditional(ast.NOWHERE, c[0], c[1], c[2])
        first, last = located[0], located[-1]
        end_line = last.end_line if last.end_line is not None else last.line
        span = Span(first.file, first.line, first.column, end_line, last.end_column)
        return ast.Conditional(span, c[0], c[1], c[2])


# Tokens that carry a value; every other token is a keyword or punctuation.
_VALUE_TOKENS = frozenset(
    {
        "NAME",
        "FIELD",
        "INT",
        "STRING",
        "LANG",
        "POSITION",
        "UPTO",
        "OPTIONAL",
        "COMPARE",
        "TIMING",
        "FACEDOWN",
    }
)


class _BadChoose(Exception):
    def __init__(self, span: Span) -> None:
        self.span = span


class _HugeNumber(Exception):
    def __init__(self, digits: int, span: Span) -> None:
        self.digits = digits
        self.span = span


def _whole(token: Token, span: Span) -> int:
    """A number token's value; one of thousands of digits is an error (RC205) here, since
    Python refuses to convert more than 4,300 digits (it was an internal error, RC999)."""
    text = str(token)
    if len(text) > 40:
        raise _HugeNumber(len(text), span)
    return int(text)


# ---------------------------------------------------------------------------- errors
_TOKEN_WORDS = {
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
    "NAME": "a name",
    "FIELD": "a field name",
    "INT": "a number",
    "STRING": 'a "quoted text"',
    "LANG": "a language tag such as @de",
    "COLON": "':'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "SEMICOLON": "';'",
    "EQUAL": "'='",
    "COMPARE": "a comparison",
}


def _describe_expected(expected: set[str]) -> str:
    words: list[str] = []
    for name in sorted(expected):
        word = _TOKEN_WORDS.get(name)
        if word is None:
            word = f"'{name.lower()}'" if name.isalpha() and name.isupper() else name
        if word not in words:
            words.append(word)
    if len(words) > 8:
        return ", ".join(words[:8]) + ", ..."
    return ", ".join(words)


def _describe_token(tok: Token) -> str:
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "indentation"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "$END":
        return "end of file"
    return repr(str(tok))


def _syntax_diagnostic(
    err: UnexpectedInput,
    file: str,
    text: str,
    line_offset: int,
    column_offset: int,
    every_line: bool = False,
) -> Diagnostic:
    line = (getattr(err, "line", 1) or 1) if getattr(err, "line", -1) != -1 else 1
    column = (getattr(err, "column", 1) or 1) if getattr(err, "column", -1) != -1 else 1
    hint: str | None = None
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        ch = text[pos] if pos < len(text) else ""
        if ch == '"':
            message = "text is not closed: a '\"' is missing on this line"
            hint = 'close the text with " before the end of the line'
            code = "RC105"
        else:
            message = f"unexpected character {ch!r}"
            hint = "remove it, or put it inside a quoted text"
            code = "RC102"
    elif isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "_NL" and tok.line is not None:
            # A newline token starts where the previous line ends: report it there.
            line, column = tok.line, tok.column or 1
        if tok.type == "_INDENT" and tok.end_line is not None:
            # an indent belongs to the line that is indented too far
            line, column = tok.end_line, 1
        elif tok.type in ("_DEDENT", "$END") and err.token_history:
            prev = err.token_history[-1]
            line, column = prev.end_line or prev.line or line, (prev.end_column or 1)
        expected = set(err.expected) | set(getattr(err, "accepts", set()) or set())
        message = f"unexpected {_describe_token(tok)}; expected {_describe_expected(expected)}"
        code = "RC101"
        if "COLON" in expected and tok.type in ("_NL", "_INDENT"):
            hint = "a block starts with ':' at the end of its first line"
        elif tok.type == "_INDENT":
            hint = "this line is indented more than the block it belongs to"
        elif expected == {"_NL"} and err.token_history and err.token_history[-1].type == "COLON":
            # `card ash "Ash": suit: ash` - members never stand on the first line
            hint = (
                "the attributes, abilities and triggers of a component, entry or rule go on "
                "their own indented lines below it: break the line after ':'"
            )
        elif tok.type == "NAME" and "NAME" not in expected:
            hint = "is a ';' or a line break missing between two statements?"
        elif "NAME" in expected and str(tok.value).isidentifier():
            # `let up = 1`: a keyword where a name must stand
            hint = f"{str(tok.value)!r} is a keyword of the language: choose another name"
    elif isinstance(err, UnexpectedEOF):
        message = "unexpected end of file"
        hint = "a block or bracket is not closed"
        code = "RC101"
    else:  # pragma: no cover - Lark has no other UnexpectedInput kinds
        message = str(err)
        code = "RC101"
    if line == 1 or every_line:
        column = max(1, column + column_offset)
    return Diagnostic(code, message, Span(file, line + line_offset, column), Severity.ERROR, hint)


def _dedent_diagnostic(text: str, file: str, line_offset: int) -> Diagnostic:
    """Locate an inconsistent dedent (Lark's DedentError carries no position)."""
    stack = [0]
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        if width > stack[-1]:
            stack.append(width)
            continue
        while width < stack[-1]:
            stack.pop()
        if width != stack[-1]:
            return Diagnostic(
                "RC103",
                "this line's indentation matches no enclosing block",
                Span(file, number + line_offset, 1),
                hint="indent it exactly as far as the block it belongs to (4 spaces per level)",
            )
    return Diagnostic("RC103", "inconsistent indentation", Span(file, 1 + line_offset, 1))


_TOP_LEVEL = re.compile(r"^[^\s#]", re.MULTILINE)


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split at lines that start in column 0: (first line number, chunk text)."""
    starts = [m.start() for m in _TOP_LEVEL.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    out: list[tuple[int, str]] = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((text.count("\n", 0, start), text[start:end]))
    return out


def _parse_once(
    text: str, file: str, line_offset: int, column_offset: int, every_line: bool = False
) -> tuple[list[ast.Item] | None, Diagnostic | None]:
    try:
        tree = _parser().parse(text)
    except DedentError:
        return None, _dedent_diagnostic(text, file, line_offset)
    except UnexpectedInput as err:
        return None, _syntax_diagnostic(err, file, text, line_offset, column_offset, every_line)
    except LarkError as err:  # pragma: no cover - defensive: any other Lark failure
        return None, Diagnostic("RC101", str(err), Span(file, 1 + line_offset, 1))
    except RecursionError:
        return None, Diagnostic(
            "RC104", "nesting is too deep to read", Span(file, 1 + line_offset, 1)
        )
    try:
        items: list[ast.Item] = _Builder(file, line_offset, column_offset, every_line).transform(
            tree
        )
    except RecursionError:
        return None, Diagnostic(
            "RC104",
            "nesting is too deep to read",
            Span(file, 1 + line_offset, 1),
            hint="split the expression into smaller named definitions",
        )
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, _HugeNumber):
            return None, Diagnostic(
                "RC205",
                f"a number of {inner.digits:,} digits is too large",
                inner.span,
                hint="numbers must stay below 2**31",
            )
        if isinstance(inner, _BadChoose):
            return None, Diagnostic(
                "RC106",
                "choose needs a variable name, optionally with a count: 'choose card from ...'"
                " or 'choose 2 cards from ...'",
                inner.span,
            )
        if isinstance(inner, RecursionError):
            return None, Diagnostic(
                "RC104", "nesting is too deep to read", Span(file, 1 + line_offset, 1)
            )
        raise
    return items, None


def parse_source(
    text: str,
    file: str,
    *,
    line_offset: int = 0,
    column_offset: int = 0,
    every_line: bool = False,
) -> tuple[ast.Unit, list[Diagnostic]]:
    """Parse one file's text; return the unit (possibly partial) and all syntax problems.

    The offsets place embedded text (a YAML value) in its file: ``column_offset`` applies
    to the first line, or to every line with ``every_line``.
    """
    if not text.endswith("\n"):
        text += "\n"
    items, problem = _parse_once(text, file, line_offset, column_offset, every_line)
    if problem is None and items is not None:
        return ast.Unit(file, tuple(items)), []
    # Recovery: parse each top-level item alone so one error hides nothing else.
    all_items: list[ast.Item] = []
    problems: list[Diagnostic] = []
    for first_line, chunk in _chunks(text):
        got, err = _parse_once(
            chunk,
            file,
            line_offset + first_line,
            column_offset if (every_line or first_line == 0) else 0,
            every_line,
        )
        if err is not None:
            problems.append(err)
        elif got:
            all_items.extend(got)
    if not problems and problem is not None:
        problems.append(problem)
    return ast.Unit(file, tuple(all_items)), problems


def parse_text(text: str, file: str = "<text>") -> ast.Unit:
    """Parse text that must be valid (raises :class:`ParseFailed` otherwise)."""
    unit, problems = parse_source(text, file)
    if problems:
        raise ParseFailed(problems)
    return unit


_SNIPPET_HEAD = "effect __snippet__:\n"


def parse_snippet(
    text: str, file: str, line: int = 1, column: int = 1
) -> tuple[tuple[ast.Stmt, ...], list[Diagnostic]]:
    """Parse a block of statements embedded elsewhere (a YAML value starting at line/column).

    Used for the manifest's setup and phases.
    """
    body = "\n".join("    " + ln for ln in text.strip("\n").splitlines()) or "    return"
    src = _SNIPPET_HEAD + body + "\n"
    unit, problems = parse_source(
        src, file, line_offset=line - 2, column_offset=column - 5, every_line=True
    )
    for item in unit.items:
        if isinstance(item, ast.EffectDef):
            return item.body, problems
    return (), problems


def _comment_start(text: str) -> int | None:
    """Where a '#' outside any text literal stands in ``text`` (``None`` if nowhere).

    >>> _comment_start('plot#4 in trash'), _comment_start('say "#1" == x')
    (4, None)
    """
    quoted = False
    escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return index
    return None


def parse_expression(
    text: str, file: str, line: int = 1, column: int = 1
) -> tuple[ast.Expr | None, list[Diagnostic]]:
    """Parse one expression embedded elsewhere (a YAML value)."""
    if "\n" in text.strip():
        return None, [
            Diagnostic("RC101", "an expression must fit on one line", Span(file, line, column))
        ]
    comment = _comment_start(text)
    if comment is not None:
        # In a .rcl file '#' starts a comment; here the rest would vanish unnoticed
        # ('plot#4 in trash' would test 'plot').
        return None, [
            Diagnostic(
                "RC101",
                "'#' would start a comment here, and the rest of the expression would be ignored",
                Span(file, line, column + comment),
                hint="a copy id such as plot#4 is no expression: test it.def == plot, or a field",
            )
        ]
    prefix = "define __expr__ = "
    unit, problems = parse_source(
        prefix + text.strip() + "\n",
        file,
        line_offset=line - 1,
        column_offset=column - 1 - len(prefix),
    )
    for item in unit.items:
        if isinstance(item, ast.Define):
            return item.expr, problems
    return None, problems
