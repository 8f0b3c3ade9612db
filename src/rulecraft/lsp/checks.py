"""Diagnostics for the editor, straight from the parser and the validator pipeline.

Two passes, both the validator's own code: while typing, the open buffer is parsed
(:func:`~rulecraft.language.parser.parse_source`: syntax errors with their codes and hints, in
milliseconds); after a pause and on save, the whole ruleset is checked with
:func:`~rulecraft.compile.pipeline.check_ruleset` (names, types, story graph).  The
validator reads files from disk, so unsaved buffers are checked in a temporary copy of the
ruleset folder (same folder name, so every span maps back to the real file).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from lsprotocol import types as lsp

from rulecraft.compile.pipeline import MANIFEST, check_ruleset
from rulecraft.compile.report import help_uri
from rulecraft.diagnostics import Diagnostic, Severity
from rulecraft.lsp.positions import span_range

SOURCE = "rulecraft"
_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}


def to_lsp(diagnostic: Diagnostic, lines: list[str]) -> lsp.Diagnostic:
    """One validator diagnostic as the editor shows it: code, message, hint, squiggle."""
    message = diagnostic.message
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    return lsp.Diagnostic(
        range=span_range(lines, diagnostic.span),
        message=message,
        severity=_SEVERITY.get(diagnostic.severity, lsp.DiagnosticSeverity.Error),
        code=diagnostic.code,
        # the code's entry on the errors page, as SARIF's helpUri: editors link the code
        code_description=lsp.CodeDescription(href=help_uri(diagnostic.code)),
        source=SOURCE,
        data={"hint": diagnostic.hint} if diagnostic.hint else None,
    )


def syntax_diagnostics(problems: Iterable[Diagnostic], lines: list[str]) -> list[lsp.Diagnostic]:
    """The parser's problems of one buffer, for the editor."""
    return [to_lsp(d, lines) for d in problems]


def _mapped_path(shown: str, checked_root: Path, real_root: Path) -> Path | None:
    """The real file a diagnostic's ``span.file`` names, checked in ``checked_root``."""
    written = Path(shown)
    candidates = [written] if written.is_absolute() else []
    candidates += [checked_root.parent / written, Path.cwd() / written]
    for candidate in candidates:
        try:
            relative = candidate.resolve().relative_to(checked_root.resolve())
        except ValueError:
            continue
        return real_root / relative
    return None


def ruleset_diagnostics(
    root: Path, overlays: dict[Path, str]
) -> tuple[dict[Path, list[Diagnostic]], list[Diagnostic]]:
    """Every validator diagnostic of the ruleset at ``root``, by real file.

    ``overlays`` maps files of the ruleset to unsaved buffer text.  The second value holds the
    diagnostics whose file could not be mapped back (none in practice)."""
    mine = {p: t for p, t in overlays.items() if p.is_relative_to(root)}
    if not mine:
        return _by_file(check_ruleset(root).diagnostics, root, root)
    with tempfile.TemporaryDirectory(prefix="rulecraft-lsp-") as tmp:
        copy = Path(tmp) / root.name
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".*", "__pycache__"))
        for path, text in mine.items():
            target = copy / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, "utf-8")
        return _by_file(check_ruleset(copy).diagnostics, copy, root)


def _by_file(
    diagnostics: list[Diagnostic], checked_root: Path, real_root: Path
) -> tuple[dict[Path, list[Diagnostic]], list[Diagnostic]]:
    by_file: dict[Path, list[Diagnostic]] = {}
    lost: list[Diagnostic] = []
    for diagnostic in diagnostics:
        path = _mapped_path(diagnostic.span.file, checked_root, real_root)
        if path is None:
            lost.append(diagnostic)
        else:
            by_file.setdefault(path, []).append(diagnostic)
    return by_file, lost


def warm_up() -> None:
    """Build the parser and import the compiler (about a second, far more on a busy
    machine), so that the first real check does not pay for it."""
    from rulecraft.compile import compiler  # noqa: F401 - imported for its cost
    from rulecraft.language.parser import parse_source

    parse_source("define warm = 1\n", "<warm-up>")


def manifest_of(root: Path) -> Path:
    """The manifest file of a ruleset folder."""
    return root / MANIFEST
