"""Highlighting of ``.rcl``: the Pygments lexer and the VS Code TextMate grammar.

Issue 15: "a test that every keyword of rulecraft.lark is highlighted and that the grammar
file is valid"; "a Pygments lexer (entry point pygments.lexers) for .rcl, tested on every
bundled file with no error tokens".  The keywords are read here from Lark's own view of the
grammar (its terminals), independently of how the lexer reads them.
"""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from lark.lexer import PatternRE, PatternStr
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Operator, _TokenType

from rulecraft.grammar.parser import build_parser
from rulecraft.grammar.pygments_lexer import RclLexer

REPO = Path(__file__).resolve().parents[2]
RCL_FILES = sorted((REPO / "rulesets").rglob("*.rcl"))
# Terminals written as regular expressions that are not keywords, and the text that shows
# each keyword written as one.  A new regex terminal must be added to one of the two.
NOT_KEYWORDS = {"NAME", "FIELD", "INT", "STRING", "LANG", "COMMENT", "_NL", "COMPARE"}
REGEX_KEYWORD_SAMPLES = {
    "MIN_BOUND": ("(min 0)", "min"),
    "MAX_BOUND": ("(max 9)", "max"),
    "FACEDOWN": ("move c to hand face down", "face down"),
    "POSITION": ("move c to deck at bottom", "bottom"),
}


def grammar_keywords() -> dict[str, tuple[str, str]]:
    """Every keyword terminal of the grammar: name -> (sample text, the keyword in it)."""
    found: dict[str, tuple[str, str]] = {}
    for terminal in build_parser().terminals:
        pattern = terminal.pattern
        if isinstance(pattern, PatternStr) and re.fullmatch(r"[a-z]+(?: [a-z]+)*", pattern.value):
            found[terminal.name] = (pattern.value, pattern.value)
        elif (
            isinstance(pattern, PatternRE)
            and terminal.name not in NOT_KEYWORDS
            and (re.search(r"[a-z]{2}", pattern.value) or terminal.name in REGEX_KEYWORD_SAMPLES)
        ):
            assert terminal.name in REGEX_KEYWORD_SAMPLES, (
                f"new keyword terminal {terminal.name} /{pattern.value}/: add a sample here "
                "and teach the lexer and the TextMate grammar"
            )
            found[terminal.name] = REGEX_KEYWORD_SAMPLES[terminal.name]
    return found


KEYWORDS = grammar_keywords()
HIGHLIGHTED = (Keyword, Operator.Word)


def test_the_grammar_has_keywords() -> None:
    words = {kw for _, kw in KEYWORDS.values()}
    assert {"ability", "choose", "when", "gain", "up to", "face down", "min", "none"} <= words
    assert len(words) >= 70


def _highlighted(tokens: list[tuple[_TokenType, str]], keyword: str) -> bool:
    spelled = keyword.replace(" ", r"\s+")
    return any(
        any(kind in group for group in HIGHLIGHTED) and re.fullmatch(spelled, value)
        for kind, value in tokens
    )


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_every_keyword_of_the_grammar_is_highlighted_by_the_lexer(name: str) -> None:
    sample, keyword = KEYWORDS[name]
    tokens = list(RclLexer().get_tokens(sample + "\n"))
    assert _highlighted(tokens, keyword), tokens


@pytest.mark.parametrize("path", RCL_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_bundled_file_lexes_without_error_tokens(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tokens = list(RclLexer().get_tokens(text))
    errors = [value for kind, value in tokens if kind in Error]
    assert not errors
    assert "".join(value for _, value in tokens).rstrip("\n") == text.rstrip("\n")


def test_the_lexer_marks_what_the_language_rejects() -> None:
    tokens = list(RclLexer().get_tokens('effect e:\n    gain 2 gold!\n    say "open\n'))
    assert [value for kind, value in tokens if kind in Error] == ["!", "\n"]


def test_fields_after_a_dot_are_fields_even_when_keywords() -> None:
    tokens = list(RclLexer().get_tokens("if card.ready and this.side == front: win\n"))
    kinds = {value: kind for kind, value in tokens}
    assert kinds["ready"] not in Keyword and kinds["side"] not in Keyword
    assert kinds["win"] in Keyword and kinds["and"] in Operator.Word


def test_the_lexer_is_registered_for_pygments() -> None:
    names = {e.name for e in entry_points(group="pygments.lexers")}
    assert "rcl" in names
    assert isinstance(get_lexer_by_name("rcl"), RclLexer)
    assert isinstance(get_lexer_for_filename("cards.rcl"), RclLexer)
