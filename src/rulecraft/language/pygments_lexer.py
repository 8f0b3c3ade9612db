"""A Pygments lexer for ``.rcl`` files, for the docs site, the REPL's ``show`` and editors.

Registered through the ``pygments.lexers`` entry point, so ``pygmentize -l rcl`` and
Markdown fences marked ``rcl`` find it once rulecraft is installed.  Its keywords are read
from ``rulecraft.lark``, the single source of truth of the language: a keyword added to the
grammar is highlighted without touching this file (and ``tests/grammar/test_pygments_lexer.py``
checks every one).

>>> from pygments.token import Keyword
>>> (Keyword, "gain") in list(RclLexer().get_tokens("effect e:\\n    gain 1 gold\\n"))
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any, cast

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

__all__ = ["RclLexer", "grammar_keywords"]

# A quoted literal of the grammar made of words: "include", "up to".
_LITERAL = re.compile(r'"([^\W\d]\w*(?: [^\W\d]\w*)*)"')
# Keywords the grammar spells as regular expressions: the lexer's own spelling of each.
REGEX_KEYWORDS = {"MIN_BOUND": "min", "MAX_BOUND": "max", "FACEDOWN": "face down"}
CONSTANTS = frozenset({"true", "false", "none"})
WORD_OPERATORS = frozenset({"and", "or", "not", "in", "has", "where"})
# Words that open a definition: the name after them is what they define.
DECLARATIONS = ("effect", "define", "action", "rule", "side")
NAME = r"[^\W\d]\w*"

# Pygments' bygroups is untyped; its result is a callback the lexer calls per match.
_groups = cast(Callable[..., Any], bygroups)


def grammar_text() -> str:
    """The text of ``rulecraft.lark``."""
    return resources.files("rulecraft.language").joinpath("rulecraft.lark").read_text("utf-8")


@cache
def grammar_keywords() -> frozenset[str]:
    """Every keyword of the grammar: its quoted word literals and its regex keywords."""
    rules = re.sub(r"//[^\n]*", "", grammar_text())  # the comments quote examples, not syntax
    found = set(_LITERAL.findall(rules))
    return frozenset(found | set(REGEX_KEYWORDS.values()))


def _keyword_pattern(keywords: frozenset[str]) -> str:
    # Longest first, so "up to" wins over "up"; whitespace inside may be any run of blanks.
    spelled = sorted(keywords, key=lambda k: (-len(k), k))
    return r"\b(?:" + "|".join(r"[ \t]+".join(map(re.escape, k.split())) for k in spelled) + r")\b"


def _words(names: frozenset[str]) -> str:
    return r"\b(?:" + "|".join(sorted(names)) + r")\b"


def _tokens() -> dict[str, list[tuple[Any, ...]]]:
    keywords = grammar_keywords()
    plain = keywords - CONSTANTS - WORD_OPERATORS - {"min", "max"}
    return {
        "root": [
            (r"[ \t\f]+", Whitespace),
            (r"\\[ \t\f]*\r?\n", Text),  # a line continuation
            (r"\r?\n", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"@[a-z]{2,3}(?:-[A-Z]{2})?\b", Name.Decorator),  # a translation: @de "..."
            # After a dot any word is a field, keywords included (card.ready).
            (rf"(\.)({NAME})", _groups(Punctuation, Name.Attribute)),
            (r"(\()(min|max)\b", _groups(Punctuation, Keyword)),
            (
                rf"\b({'|'.join(DECLARATIONS)})([ \t]+)({NAME})",
                _groups(Keyword.Declaration, Whitespace, Name.Function),
            ),
            (_words(CONSTANTS), Keyword.Constant),
            (_words(WORD_OPERATORS), Operator.Word),
            (_keyword_pattern(plain), Keyword),
            # kind id at the start of a line: a component (card, creature, ...) and its id.
            (
                rf"^({NAME})([ \t]+)({NAME})(?=[ \t]*(?:\"|:))",
                _groups(Keyword.Type, Whitespace, Name.Class),
            ),
            (rf"({NAME})(?=[ \t]*:(?!=))", Name.Attribute),  # cost: 3
            (NAME, Name),
            (r"\d+", Number.Integer),
            (r"==|!=|<=|>=|[<>=+\-*/%]", Operator),
            (r"[()\[\],:;]", Punctuation),
            (r".", Error),
        ],
        "string": [
            (r"\\.", String.Escape),
            (r"\{[^{}\"\n]*\}", String.Interpol),  # {expression} in a text
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # an unclosed text (RC105)
        ],
    }


class RclLexer(RegexLexer):
    """Highlights rulecraft's rule language (``.rcl``)."""

    name = "rulecraft"
    aliases = ["rcl", "rulecraft", "rcl-bad"]  # noqa: RUF012 - Pygments' class attributes
    filenames = ["*.rcl"]  # noqa: RUF012
    mimetypes = ["text/x-rulecraft"]  # noqa: RUF012
    tokens = _tokens()
