"""The four report formats: text, json, github and sarif."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecraft.compile.report import (
    FileSources,
    MappingSources,
    NoSources,
    OutputFormat,
    escape_github_data,
    escape_github_property,
    github_annotation,
    help_uri,
    render,
    summary_line,
)
from rulecraft.diagnostics import Diagnostic, Severity, Span


@pytest.fixture(autouse=True)
def no_published_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports point at the local docs unless a test publishes them."""
    monkeypatch.delenv("RULECRAFT_DOCS_URL", raising=False)


SOURCE = "name: x\nplayers:\n\tmax: 12\n"
SOURCES = MappingSources({"b/ruleset.yaml": SOURCE})

UNKNOWN = Diagnostic(
    "RC010", "unknown key `mxa`", Span("b/ruleset.yaml", 2, 1, 2, 7), hint="did you mean `max`?"
)
RANGE = Diagnostic(
    "RC014", "`players.max` must be at most 8 (got 12)", Span("b/ruleset.yaml", 3, 7)
)
SYNTAX = Diagnostic("RC101", "unexpected token", Span("a/cards.rcl", 9, 2), Severity.WARNING)
NOTE = Diagnostic("RC201", "unused name", Span("a/cards.rcl", 1, 1), Severity.INFO)
ALL = [RANGE, UNKNOWN, SYNTAX, NOTE]


def test_text_sorted_with_excerpt_caret_and_hint() -> None:
    text = render(ALL, "text", sources=SOURCES)
    lines = text.splitlines()
    headers = [line for line in lines if not line.startswith(" ")]
    assert headers == [
        "a/cards.rcl:1:1: info RC201: unused name",
        "a/cards.rcl:9:2: warning RC101: unexpected token",
        "b/ruleset.yaml:2:1: error RC010: unknown key `mxa`",
        "b/ruleset.yaml:3:7: error RC014: `players.max` must be at most 8 (got 12)",
        "2 errors, 1 warning, 1 note in 2 files",
    ]
    unknown_at = lines.index("b/ruleset.yaml:2:1: error RC010: unknown key `mxa`")
    assert lines[unknown_at + 1 : unknown_at + 4] == [
        "    players:",
        "    ^~~~~~~",
        "    hint: did you mean `max`?",
    ]
    range_at = lines.index(
        "b/ruleset.yaml:3:7: error RC014: `players.max` must be at most 8 (got 12)"
    )
    # The tab before the value is kept so the caret lines up under "12".
    assert lines[range_at + 1 : range_at + 3] == ["    \tmax: 12", "    \t     ^"]


def test_text_without_readable_source_has_no_excerpt(tmp_path: Path) -> None:
    text = render([RANGE], "text", sources=FileSources(tmp_path))
    assert text.splitlines() == [
        str(RANGE.span) + ": error RC014: " + RANGE.message,
        "    see: rulecraft docs RC014",
        "1 error",
    ]


def test_file_sources_read_from_disk(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "ruleset.yaml").write_text(SOURCE, encoding="utf-8")
    sources = FileSources(tmp_path)
    assert sources.line("b/ruleset.yaml", 2) == "players:"
    assert sources.line("b/ruleset.yaml", 99) is None
    assert sources.line("missing.yaml", 1) is None
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00")
    assert sources.line("bin.yaml", 1) is None


def test_summary_lines() -> None:
    assert summary_line([]) == "no problems found"
    assert summary_line([RANGE]) == "1 error"
    assert summary_line([RANGE, UNKNOWN]) == "2 errors"
    assert summary_line([SYNTAX]) == "1 warning"


def test_json_round_trip() -> None:
    document = json.loads(render(ALL, "json", sources=NoSources()))
    assert document["summary"] == {"errors": 2, "warnings": 1, "infos": 1, "files": 2}
    assert [d["code"] for d in document["diagnostics"]] == ["RC201", "RC101", "RC010", "RC014"]
    assert document["diagnostics"][2] == {
        "file": "b/ruleset.yaml",
        "line": 2,
        "column": 1,
        "end_line": 2,
        "end_column": 7,
        "severity": "error",
        "code": "RC010",
        "message": "unknown key `mxa`",
        "hint": "did you mean `max`?",
        "help_uri": help_uri("RC010"),
    }
    assert document["diagnostics"][2]["help_uri"].endswith("errors.md#rc010")


def test_github_escaping() -> None:
    assert escape_github_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_github_property("dir,with:odd%") == "dir%2Cwith%3Aodd%25"


def test_github_annotation_format() -> None:
    assert github_annotation(UNKNOWN) == (
        "::error file=b/ruleset.yaml,line=2,col=1,endLine=2,endColumn=7,title=RC010"
        "::unknown key `mxa`%0Ahint: did you mean `max`?"
    )
    odd = Diagnostic("RC013", "50% of a,b: bad", Span("my,dir/a:b.yaml", 4, 2), Severity.WARNING)
    assert github_annotation(odd) == (
        "::warning file=my%2Cdir/a%3Ab.yaml,line=4,col=2,title=RC013::50%25 of a,b: bad"
    )
    assert github_annotation(NOTE).startswith("::notice ")


def test_github_also_prints_the_full_text_report() -> None:
    many = [Diagnostic("RC010", f"unknown key `k{i}`", Span("r.yaml", i + 1, 1)) for i in range(12)]
    output = render(many, "github", sources=NoSources())
    lines = output.splitlines()
    assert sum(line.startswith("::error ") for line in lines) == 12
    # GitHub shows only 10 annotations per type: the log must hold all of them.
    assert sum(line.startswith("r.yaml:") for line in lines) == 12
    assert lines[-1] == "12 errors"


def test_sarif_structure() -> None:
    log = json.loads(render([*ALL, RANGE], "sarif", sources=NoSources()))
    assert log["version"] == "2.1.0"
    assert "sarif-2.1.0" in log["$schema"]
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["RC010", "RC014", "RC101", "RC201"]
    descriptions = {rule["id"]: rule["shortDescription"]["text"] for rule in rules}
    assert descriptions["RC010"] == "unknown key"
    assert descriptions["RC101"] == "syntax error"  # unknown code: its family's description
    results = run["results"]
    assert len(results) == 5
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    unknown = next(r for r in results if r["ruleId"] == "RC010")
    assert unknown["level"] == "error"
    assert unknown["message"]["text"] == "unknown key `mxa` (hint: did you mean `max`?)"
    location = unknown["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "b/ruleset.yaml"
    # SARIF's endColumn is one past the last character; Span's end is inclusive.
    assert location["region"] == {"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 8}
    levels = {r["ruleId"]: r["level"] for r in results}
    assert levels["RC101"] == "warning" and levels["RC201"] == "note"


def test_sarif_uri_is_percent_encoded() -> None:
    spaced = Diagnostic("RC010", "x", Span("my rules/rule set.yaml", 1, 1))
    log = json.loads(render([spaced], OutputFormat.SARIF))
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "my%20rules/rule%20set.yaml"


def test_empty_reports() -> None:
    assert render([], "text") == "no problems found"
    assert json.loads(render([], "json"))["diagnostics"] == []
    assert json.loads(render([], "sarif"))["runs"][0]["results"] == []
    assert render([], "github") == "no problems found"


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        render([], "xml")
