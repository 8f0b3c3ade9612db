"""Render diagnostics for people and for CI: ``text``, ``json``, ``github`` and ``sarif``.

Every format sorts diagnostics by file, line and column first.

>>> from rulecraft.diagnostics import Diagnostic, Span
>>> found = [Diagnostic("RC011", "missing key `name`", Span("ruleset.yaml", 1, 1))]
>>> print(render(found, "text", sources=NoSources()))  # doctest: +ELLIPSIS
ruleset.yaml:1:1: error RC011: missing key `name`
    see: ...RC011...
1 error
>>> print(render([], "text"))
no problems found
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import Any, Protocol
from urllib.parse import quote

from rulecraft import __version__
from rulecraft.diagnostics import Diagnostic, Severity


class OutputFormat(StrEnum):
    """The report formats ``rulecraft validate --format`` accepts."""

    TEXT = "text"
    JSON = "json"
    GITHUB = "github"
    SARIF = "sarif"


# Short descriptions of the codes, for SARIF rules; docs/errors.md explains each in full.
CODE_DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "RC001": "YAML syntax error",
        "RC002": "duplicate key in a mapping",
        "RC003": "impossible date",
        "RC004": "file is not UTF-8 text",
        "RC005": "binary data or control characters",
        "RC006": "empty file",
        "RC007": "alias expansion too large or recursive",
        "RC008": "nesting too deep",
        "RC009": "number out of the supported range",
        "RC010": "unknown key",
        "RC011": "missing required key",
        "RC012": "wrong type",
        "RC013": "value not allowed",
        "RC014": "value out of range",
        "RC015": "value does not match the expected pattern or format",
        "RC016": "duplicate items in a list",
        "RC019": "value does not satisfy the schema",
        "RC020": "unsupported YAML construct",
        "RC021": "file cannot be read",
        "RC022": "anchor defined twice",
        "RC030": "invalid JSON Schema",
        "RC031": "unknown JSON Schema keyword",
        "RC100": "source file cannot be read",
        "RC101": "syntax error",
        "RC102": "unexpected character",
        "RC103": "inconsistent indentation",
        "RC104": "nesting too deep",
        "RC105": "unclosed text",
        "RC106": "choose without a variable name",
        "RC107": "empty source file",
        "RC201": "unknown name",
        "RC202": "defined twice",
        "RC203": "'this' or 'it' out of place",
        "RC204": "construct not supported here",
        "RC205": "number too large",
        "RC206": "wrong call or number of arguments",
        "RC207": "effect used as a value, or value used as a statement",
        "RC208": "needed manifest section missing",
        "RC209": "attribute of the wrong type",
        "RC210": "undeclared attribute",
        "RC211": "undeclared side",
        "RC212": "member in the wrong place",
        "RC213": "required attribute missing",
        "RC214": "component placed twice",
        "RC215": "zone size does not match its components",
        "RC216": "component never placed",
        "RC217": "flag tested but never set",
        "RC218": "event never emitted",
        "RC219": "unused definition",
        "RC220": "include outside the ruleset folder",
        "RC221": "missing file",
        "RC222": "before-trigger that never runs",
        "RC223": "enum value shadowed by a zone or resource",
        "RC224": "too many components",
        "RC225": "definition that uses itself without end",
        "RC226": "conditional whose two values cannot agree",
        "RC227": "every() of something that is no kind",
        "RC230": "unreachable story entry",
        "RC231": "story path that goes nowhere",
        "RC232": "no reachable ending",
        "RC240": "missing translation",
        "RC241": "language the ruleset does not declare",
        "RC260": "map tile that cannot be placed",
        "RC261": "map slots that do not fit the tiles",
        "RC262": "map port that does not exist",
        "RC300": "impossible action at run time",
        "RC301": "zone full",
        "RC302": "no such story entry",
        "RC303": "negative amount",
        "RC304": "value too large",
        "RC305": "rules that call themselves without end",
        "RC306": "loop without a decision",
        "RC307": "two options with the same id",
        "RC999": "internal error in rulecraft",
    }
)

_FAMILY_DESCRIPTIONS = {
    "RC0": "manifest problem",
    "RC1": "syntax error",
    "RC2": "semantic error",
    "RC3": "runtime error",
}


def describe_code(code: str, descriptions: Mapping[str, str] = CODE_DESCRIPTIONS) -> str:
    """Short description of a code, falling back on its family (RC1xx syntax, RC2xx ...).

    >>> describe_code("RC010")
    'unknown key'
    >>> describe_code("RC250")
    'semantic error'
    """
    if code in descriptions:
        return descriptions[code]
    return _FAMILY_DESCRIPTIONS.get(code[:3], "problem")


DOCS_URL_VARIABLE = "RULECRAFT_DOCS_URL"
"""Where the docs site is published (``mkdocs build`` output served over HTTP), if anywhere."""

ERRORS_PAGE = "errors"


def package_folder() -> Path:
    """The installed ``rulecraft`` package folder."""
    return Path(__file__).resolve().parent.parent


def docs_folder() -> Path | None:
    """The Markdown docs: in the wheel as ``rulecraft/docs``, or the checkout's ``docs/``."""
    for candidate in (package_folder() / "docs", package_folder().parents[1] / "docs"):
        if (candidate / f"{ERRORS_PAGE}.md").is_file():
            return candidate
    return None


def site_folder() -> Path | None:
    """The built docs site (``mkdocs build`` writes ``site/`` in the checkout), if built."""
    candidate = package_folder().parents[1] / "site"
    return candidate if (candidate / "index.html").is_file() else None


def code_anchor(code: str) -> str:
    """The anchor of a code on the errors page: ``RC201`` -> ``rc201``."""
    return code.lower()


def page_uri(page: str, anchor: str = "") -> str:
    """Where a docs page (``"errors"``, ``"rulesets/sparks"``) can be read, with an anchor.

    ``$RULECRAFT_DOCS_URL`` (a published site), else the installed Markdown page as a
    ``file:`` URI, which terminals and SARIF viewers open.  Never the locally built site:
    whether ``make docs`` ran must not change what a report says.
    """
    fragment = f"#{anchor}" if anchor else ""
    base = os.environ.get(DOCS_URL_VARIABLE, "").strip()
    if base:
        return f"{base.rstrip('/')}/{page}/{fragment}"
    docs = docs_folder()
    if docs is not None:
        return (docs / f"{page}.md").as_uri() + fragment
    return f"{page}.md{fragment}"


def help_uri(code: str) -> str:
    """The URI of a code's entry on the errors page (SARIF ``helpUri``)."""
    return page_uri(ERRORS_PAGE, code_anchor(code))


def help_reference(code: str) -> str:
    """What the text report says to read about a code: the published page when there is
    one (``$RULECRAFT_DOCS_URL``), else the command that explains it offline.

    >>> help_reference("RC201").endswith("RC201") or help_reference("RC201").endswith("rc201")
    True
    """
    if os.environ.get(DOCS_URL_VARIABLE, "").strip():
        return help_uri(code)
    return f"rulecraft docs {code}"


class SourceLines(Protocol):
    """Gives the text of a source line, for the excerpt under a text diagnostic."""

    def line(self, file: str, number: int) -> str | None:
        """Line ``number`` (1-based) of ``file`` without its newline, or None if unknown."""
        ...


class NoSources:
    """Shows no source excerpts."""

    def line(self, file: str, number: int) -> str | None:
        return None


class FileSources:
    """Reads source lines from disk, each file once; unreadable files show no excerpt."""

    def __init__(self, root: Path | None = None) -> None:
        self._root = root
        self._cache: dict[str, list[str] | None] = {}

    def line(self, file: str, number: int) -> str | None:
        if file not in self._cache:
            path = Path(file) if self._root is None else self._root / file
            try:
                self._cache[file] = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError, ValueError):
                self._cache[file] = None
        lines = self._cache[file]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


class MappingSources:
    """Source lines from in-memory texts keyed by file name (for tests and editors)."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._lines = {name: text.splitlines() for name, text in texts.items()}

    def line(self, file: str, number: int) -> str | None:
        lines = self._lines.get(file)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def sort_diagnostics(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics ordered by file, line, column, then code."""
    return sorted(diagnostics, key=Diagnostic.sort_key)


def render(
    diagnostics: Sequence[Diagnostic],
    output_format: OutputFormat | str = OutputFormat.TEXT,
    *,
    sources: SourceLines | None = None,
    descriptions: Mapping[str, str] = CODE_DESCRIPTIONS,
) -> str:
    """Render ``diagnostics`` in ``output_format``; ``sources`` defaults to reading files."""
    ordered = sort_diagnostics(diagnostics)
    reader: SourceLines = sources if sources is not None else FileSources()
    match OutputFormat(output_format):
        case OutputFormat.TEXT:
            return render_text(ordered, reader)
        case OutputFormat.JSON:
            return render_json(ordered)
        case OutputFormat.GITHUB:
            return render_github(ordered, reader)
        case OutputFormat.SARIF:
            return render_sarif(ordered, descriptions)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_counts(diagnostics: Sequence[Diagnostic]) -> dict[str, int]:
    """Number of diagnostics per severity, plus the number of files concerned."""
    return {
        "errors": sum(d.severity is Severity.ERROR for d in diagnostics),
        "warnings": sum(d.severity is Severity.WARNING for d in diagnostics),
        "infos": sum(d.severity is Severity.INFO for d in diagnostics),
        "files": len({d.span.file for d in diagnostics}),
    }


def summary_line(diagnostics: Sequence[Diagnostic]) -> str:
    """The final line of the text report, e.g. ``2 errors, 1 warning in 2 files``."""
    if not diagnostics:
        return "no problems found"
    counts = summary_counts(diagnostics)
    parts = [
        _plural(counts[key], word)
        for key, word in (("errors", "error"), ("warnings", "warning"), ("infos", "note"))
        if counts[key]
    ]
    where = f" in {counts['files']} files" if counts["files"] > 1 else ""
    return ", ".join(parts) + where


def _caret_line(source: str, column: int, end_column: int | None) -> str:
    # Keep tabs from the source so the caret lands under the right character.
    prefix = "".join("\t" if char == "\t" else " " for char in source[: column - 1])
    width = 1 if end_column is None or end_column < column else end_column - column + 1
    return prefix + "^" + "~" * (width - 1)


def format_diagnostic(diagnostic: Diagnostic, sources: SourceLines) -> str:
    """One diagnostic as compilers print it: location line, source excerpt, caret, hint."""
    span = diagnostic.span
    lines = [f"{span}: {diagnostic.severity} {diagnostic.code}: {diagnostic.message}"]
    source = sources.line(span.file, span.line)
    if source is not None:
        single_line_end = span.end_column if span.end_line in (None, span.line) else None
        lines.append(f"    {source}")
        lines.append(f"    {_caret_line(source, span.column, single_line_end)}")
    if diagnostic.hint:
        lines.append(f"    hint: {diagnostic.hint}")
    lines.append(f"    see: {help_reference(diagnostic.code)}")
    return "\n".join(lines)


def render_text(diagnostics: Sequence[Diagnostic], sources: SourceLines) -> str:
    """The human report: each diagnostic then a count line."""
    blocks = [format_diagnostic(d, sources) for d in diagnostics]
    return "\n".join([*blocks, summary_line(diagnostics)])


def diagnostic_to_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """A diagnostic as a JSON-ready dict (the ``json`` format's items)."""
    span = diagnostic.span
    return {
        "file": span.file,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "severity": str(diagnostic.severity),
        "code": diagnostic.code,
        "message": diagnostic.message,
        "hint": diagnostic.hint,
        "help_uri": help_uri(diagnostic.code),
    }


def render_json(diagnostics: Sequence[Diagnostic]) -> str:
    """``{"diagnostics": [...], "summary": {"errors": .., "warnings": .., ...}}``."""
    document = {
        "diagnostics": [diagnostic_to_dict(d) for d in diagnostics],
        "summary": summary_counts(diagnostics),
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def escape_github_data(text: str) -> str:
    """Escape an annotation message (``%``, CR, LF).

    >>> escape_github_data("50%\\nmore")
    '50%25%0Amore'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_github_property(text: str) -> str:
    """Escape an annotation property value (the message escapes plus ``:`` and ``,``).

    >>> escape_github_property("a:b,c")
    'a%3Ab%2Cc'
    """
    return escape_github_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def github_annotation(diagnostic: Diagnostic) -> str:
    """One workflow command, e.g. ``::error file=f,line=1,col=2,title=RC010::message``."""
    span = diagnostic.span
    properties = [("file", span.file), ("line", str(span.line)), ("col", str(span.column))]
    if span.end_line is not None:
        properties.append(("endLine", str(span.end_line)))
    if span.end_column is not None and span.end_line in (None, span.line):
        properties.append(("endColumn", str(span.end_column)))
    properties.append(("title", diagnostic.code))
    joined = ",".join(f"{key}={escape_github_property(value)}" for key, value in properties)
    message = diagnostic.message
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    if os.environ.get(DOCS_URL_VARIABLE, "").strip():
        message += f"\nsee: {help_uri(diagnostic.code)}"  # only a published page is a link
    return f"::{_GITHUB_COMMANDS[diagnostic.severity]} {joined}::{escape_github_data(message)}"


def render_github(diagnostics: Sequence[Diagnostic], sources: SourceLines) -> str:
    """Workflow annotations, then the full text report.

    GitHub shows at most 10 annotations of each type per step, so the text report (which
    lands in the log) is the complete record.
    """
    annotations = [github_annotation(d) for d in diagnostics]
    return "\n".join([*annotations, render_text(diagnostics, sources)])


_SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


SARIF_BASE_ID = "SRCROOT"
"""The ``uriBaseId`` relative file names resolve against: the folder validate ran in."""


def _artifact_location(file: str) -> dict[str, str]:
    # A relative name resolves against SRCROOT (the working folder, normally the
    # repository root, which is what code scanning expects); an absolute one is a file: URI.
    path = PurePath(file)
    if path.is_absolute():
        return {"uri": Path(file).as_uri()}
    return {"uri": quote(path.as_posix(), safe="/"), "uriBaseId": SARIF_BASE_ID}


def sarif_document(
    diagnostics: Sequence[Diagnostic], descriptions: Mapping[str, str] = CODE_DESCRIPTIONS
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run, one rule per code used and one result each."""
    codes = sorted({d.code for d in diagnostics})
    rule_index = {code: index for index, code in enumerate(codes)}
    rules = [
        {
            "id": code,
            "name": code,
            "shortDescription": {"text": describe_code(code, descriptions)},
            "help": {"text": f"See {code} in docs/errors.md (rulecraft docs {code})."},
            "helpUri": help_uri(code),
        }
        for code in codes
    ]
    results = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        region: dict[str, int] = {"startLine": span.line, "startColumn": span.column}
        if span.end_line is not None:
            region["endLine"] = span.end_line
        if span.end_column is not None:
            region["endColumn"] = span.end_column + 1  # SARIF's end column is exclusive
        text = diagnostic.message
        if diagnostic.hint:
            text += f" (hint: {diagnostic.hint})"
        results.append(
            {
                "ruleId": diagnostic.code,
                "ruleIndex": rule_index[diagnostic.code],
                "level": _SARIF_LEVELS[diagnostic.severity],
                "message": {"text": text},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": _artifact_location(span.file),
                            "region": region,
                        }
                    }
                ],
            }
        )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "rulecraft",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {
                    SARIF_BASE_ID: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}
                },
                "results": results,
            }
        ],
    }


def render_sarif(
    diagnostics: Sequence[Diagnostic], descriptions: Mapping[str, str] = CODE_DESCRIPTIONS
) -> str:
    """The SARIF 2.1.0 log as indented JSON."""
    return json.dumps(sarif_document(diagnostics, descriptions), indent=2, ensure_ascii=False)
