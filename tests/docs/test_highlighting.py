"""Highlighting of ``.rcl``: the Pygments lexer and the VS Code TextMate grammar.

Issue 15: "a test that every keyword of rulecraft.lark is highlighted and that the grammar
file is valid"; "a Pygments lexer (entry point pygments.lexers) for .rcl, tested on every
bundled file with no error tokens".  The keywords are read here from Lark's own view of the
grammar (its terminals), independently of how the lexer reads them.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from lark.lexer import PatternRE, PatternStr
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Operator, _TokenType

from rulecraft.cli.main import build_parser as build_cli_parser
from rulecraft.language.parser import build_parser
from rulecraft.language.pygments_lexer import RclLexer

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


# ------------------------------------------------------------------ the VS Code extension
VSCODE = REPO / "editors" / "vscode"
TM_GRAMMAR = VSCODE / "syntaxes" / "rulecraft.tmLanguage.json"


def _tm_rules(grammar: dict[str, Any]) -> list[dict[str, Any]]:
    """The top-level rules, includes resolved from the repository."""
    rules = []
    for rule in grammar["patterns"]:
        include = rule.get("include")
        rules.append(grammar["repository"][include[1:]] if include else rule)
    return rules


def tm_tokenize(grammar: dict[str, Any], text: str) -> list[tuple[str, str]]:
    """(scope, text) pairs as a TextMate engine finds them: line by line, the rule whose match
    starts leftmost wins, ties going to the earlier rule; a begin/end rule spans to its end."""
    rules = [(rule, re.compile(rule.get("match") or rule["begin"])) for rule in _tm_rules(grammar)]
    found: list[tuple[str, str]] = []
    for line in text.splitlines():
        pos = 0
        while pos < len(line):
            hits = [
                (m.start(), i, m) for i, (_, rx) in enumerate(rules) if (m := rx.search(line, pos))
            ]
            if not hits:
                break
            _, index, match = min(hits, key=lambda hit: (hit[0], hit[1]))
            rule = rules[index][0]
            if "begin" in rule:
                end = re.compile(rule["end"]).search(line, match.end())
                stop = end.end() if end else len(line)
                found.append((rule["name"], line[match.start() : stop]))
                pos = max(stop, pos + 1)
                continue
            if "name" in rule:
                found.append((rule["name"], match.group(0)))
            for group, capture in rule.get("captures", {}).items():
                if match.group(int(group)):
                    found.append((capture["name"], match.group(int(group))))
            pos = max(match.end(), pos + 1)
    return found


def _tm_grammar() -> dict[str, Any]:
    grammar: dict[str, Any] = json.loads(TM_GRAMMAR.read_text(encoding="utf-8"))
    return grammar


def _regexes(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [v for k, v in node.items() if k in ("match", "begin", "end") and isinstance(v, str)]
        return own + [rx for v in node.values() for rx in _regexes(v)]
    if isinstance(node, list):
        return [rx for v in node for rx in _regexes(v)]
    return []


def test_the_textmate_grammar_is_valid() -> None:
    grammar = _tm_grammar()
    assert grammar["scopeName"] == "source.rulecraft"
    for rule in grammar["patterns"]:
        assert rule["include"][1:] in grammar["repository"], rule
    regexes = _regexes(grammar)
    assert len(regexes) >= 15
    for rx in regexes:
        re.compile(rx)  # Python reads it ...
        assert "(?P" not in rx, rx  # ... and nothing Python-only that Oniguruma would refuse


def test_the_textmate_grammar_is_generated_from_the_current_grammar() -> None:
    spec = importlib.util.spec_from_file_location("make_grammar", VSCODE / "make_grammar.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert TM_GRAMMAR.read_text(encoding="utf-8") == module.render(), (
        "run: .venv/bin/python editors/vscode/make_grammar.py"
    )


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_every_keyword_of_the_grammar_is_highlighted_in_vscode(name: str) -> None:
    sample, keyword = KEYWORDS[name]
    scopes = tm_tokenize(_tm_grammar(), sample)
    spelled = keyword.replace(" ", r"\s+")
    assert any(s.startswith("keyword.") and re.fullmatch(spelled, t) for s, t in scopes), scopes


@pytest.mark.parametrize("path", RCL_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_bundled_file_has_no_invalid_scope_in_vscode(path: Path) -> None:
    scopes = tm_tokenize(_tm_grammar(), path.read_text(encoding="utf-8"))
    assert not [t for s, t in scopes if s.startswith("invalid.")]


def test_the_textmate_grammar_marks_what_the_language_rejects() -> None:
    scopes = tm_tokenize(_tm_grammar(), 'effect e:\n    gain 2 gold!\n    say "ok"; x.ready\n')
    assert [t for s, t in scopes if s.startswith("invalid.")] == ["!"]
    assert ("variable.other.member.rulecraft", "ready") in scopes
    assert ("string.quoted.double.rulecraft", '"ok"') in scopes


def test_the_extension_is_wired_to_the_language_server() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "rulecraft" and language["extensions"] == [".rcl"]
    assert (VSCODE / language["configuration"]).is_file()
    (tm,) = package["contributes"]["grammars"]
    assert (VSCODE / tm["path"]).resolve() == TM_GRAMMAR
    assert tm["scopeName"] == _tm_grammar()["scopeName"]
    assert (VSCODE / package["main"]).is_file()
    assert re.search(r"^\s+lsp\s", build_cli_parser().format_help(), re.M)  # the server
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert re.match(config["indentationRules"]["increaseIndentPattern"], "    ability x:")
    assert not re.match(config["indentationRules"]["increaseIndentPattern"], "    gain 1 gold")


# activate() with stand-ins for the vscode and vscode-languageclient modules: which server
# command does the client start, for which documents?
_NODE_HARNESS = r"""
const Module = require("module");
const created = [];
const original = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") {
    return { workspace: {
      getConfiguration: () => ({ get: (key, fallback) => fallback }),
      createFileSystemWatcher: (glob) => ({ glob }),
    } };
  }
  if (request === "vscode-languageclient/node") {
    return { TransportKind: { stdio: 0 }, LanguageClient: class {
      constructor(id, name, server, options) { created.push({ id, name, server, options }); }
      start() { return Promise.resolve(); }
      stop() {}
    } };
  }
  return original.apply(this, arguments);
};
const extension = require(process.argv[2]);
const context = { subscriptions: [] };
extension.activate(context);
console.log(JSON.stringify({ created, subscriptions: context.subscriptions.length }));
"""


def test_the_client_starts_rulecraft_lsp_for_rcl_files(tmp_path: Path) -> None:
    harness = tmp_path / "harness.js"
    harness.write_text(_NODE_HARNESS, encoding="utf-8")
    result = subprocess.run(
        ["node", str(harness), str(VSCODE / "extension.js")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(result.stdout)
    (client,) = report["created"]
    assert client["server"]["run"] == {"command": "rulecraft", "args": ["lsp"], "transport": 0}
    assert client["options"]["documentSelector"] == [{"scheme": "file", "language": "rulecraft"}]
    assert report["subscriptions"] == 1
