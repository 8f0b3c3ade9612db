"""The validation pipeline: manifest schema, then every ``.rcl`` file, then semantics.

:func:`check_ruleset` is the one road from a ruleset folder to a compiled Program; the
CLI's ``validate`` and :func:`rulecraft.load` both take it, so what validates is exactly
what runs.  All problems are collected in one pass.
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from rulecraft.compile.limits import component_limits, define_cycles, manifest_consistency
from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast
from rulecraft.language.parser import parse_source
from rulecraft.language.schema_check import check_schema
from rulecraft.language.yaml_source import PositionMap, load_yaml

MANIFEST = "ruleset.yaml"


def manifest_schema() -> dict[str, Any]:
    text = resources.files("rulecraft.language").joinpath("manifest.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@dataclass
class CheckedRuleset:
    """What checking a ruleset folder produced."""

    root: Path
    manifest: dict[str, Any] | None
    units: list[ast.Unit]
    program: Any  # rulecraft.runtime.program.Program | None
    diagnostics: list[Diagnostic]
    compiler: Any = None  # the Compiler, for the story graph and other whole-ruleset views


def _read_rcl(path: Path, shown: str) -> tuple[str | None, list[Diagnostic]]:
    try:
        raw = path.read_bytes()
    except OSError as err:
        return None, [Diagnostic("RC100", f"cannot read file: {err.strerror}", Span(shown))]
    if b"\x00" in raw:
        offset = raw.index(b"\x00")
        line = raw.count(b"\n", 0, offset) + 1
        return None, [
            Diagnostic(
                "RC100",
                "this is a binary file, not rulecraft text",
                Span(shown, line, offset - (raw.rfind(b"\n", 0, offset) + 1) + 1),
                hint="rulecraft files are UTF-8 text",
            )
        ]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        return None, [
            Diagnostic(
                "RC100",
                f"byte 0x{raw[err.start]:02x} is not UTF-8",
                Span(shown, line, col),
                hint="save the file as UTF-8",
            )
        ]
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        # Windows (CR LF) and old Mac (CR alone) line endings: without this, a CR-only file
        # read as one line, all of it a comment after the first '#'.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return text, [
            Diagnostic("RC107", "this file is empty", Span(shown), Severity.WARNING, "remove it")
        ]
    return text, []


def _display(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


def parse_files(
    root: Path,
    patterns: list[str],
    manifest_name: str,
    locate: Callable[[int], Span] | None = None,
) -> tuple[list[ast.Unit], list[Diagnostic]]:
    """Parse the listed files and everything they include (never outside ``root``).

    ``locate(i)`` gives the manifest position of the ``i``-th pattern, for diagnostics."""
    units: list[ast.Unit] = []
    problems: list[Diagnostic] = []
    todo: list[tuple[Path, Span | None]] = []
    root_resolved = root.resolve()
    for i, pattern in enumerate(patterns):
        where = locate(i) if locate is not None else Span(manifest_name)
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            problems.append(
                Diagnostic(
                    "RC220",
                    f"the file pattern {pattern!r} leaves the ruleset folder",
                    where,
                    hint="list files relative to the folder of ruleset.yaml",
                )
            )
            continue
        try:
            found = sorted(root.glob(pattern))
        except (NotImplementedError, ValueError) as err:
            problems.append(Diagnostic("RC221", f"bad file pattern {pattern!r}: {err}", where))
            continue
        found = [p for p in found if p.resolve().is_relative_to(root_resolved)]
        if not found:
            problems.append(
                Diagnostic(
                    "RC221",
                    f"no file matches {pattern!r}",
                    where,
                    hint="check files: in ruleset.yaml",
                )
            )
        todo.extend((p, None) for p in found if p.is_file())
    seen: set[Path] = set()
    while todo:
        path, _origin = todo.pop(0)
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        shown = _display(root, path)
        text, read_problems = _read_rcl(path, shown)
        problems.extend(read_problems)
        if text is None:
            continue
        unit, syntax = parse_source(text, shown)
        problems.extend(syntax)
        units.append(unit)
        for item in unit.items:
            if isinstance(item, ast.Include):
                target = (path.parent / item.path).resolve()
                if not target.is_relative_to(root_resolved):
                    problems.append(
                        Diagnostic(
                            "RC220",
                            f"include {item.path!r} leaves the ruleset folder",
                            item.span,
                            hint="a ruleset may only include its own files",
                        )
                    )
                    continue
                if not target.is_file():
                    problems.append(
                        Diagnostic(
                            "RC221", f"included file {item.path!r} does not exist", item.span
                        )
                    )
                    continue
                todo.append((target, item.span))
    return units, problems


@contextmanager
def _collector_paused() -> Iterator[None]:
    # Parsing builds millions of small objects and no cycles worth collecting: the cyclic
    # collector's full passes made validation time grow faster than the ruleset (26x for 10x
    # the components). Pause it for the pass and restore it afterwards.
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_ruleset(root: Path, lang: str | None = None) -> CheckedRuleset:
    """Check one ruleset folder and compile it when it has no errors."""
    with _collector_paused():
        return _check_ruleset(root, lang)


def _check_ruleset(root: Path, lang: str | None) -> CheckedRuleset:
    from rulecraft.compile.compiler import Compiler

    root = Path(root)
    manifest_path = root / MANIFEST
    shown = _display(root, manifest_path)
    if not manifest_path.is_file():
        problem = Diagnostic(
            "RC001",
            f"no {MANIFEST} in {root}",
            Span(shown),
            hint="a ruleset is a folder with a ruleset.yaml",
        )
        return CheckedRuleset(root, None, [], None, [problem])
    data, positions, problems = load_yaml(manifest_path, shown)
    diagnostics = list(problems)
    if data is None or not isinstance(data, dict):
        if data is not None:
            diagnostics.append(
                Diagnostic("RC011", "the manifest must be a mapping of keys", Span(shown))
            )
        return CheckedRuleset(root, None, [], None, diagnostics)
    schema_problems = check_schema(data, manifest_schema(), positions, shown)
    diagnostics.extend(schema_problems)
    diagnostics.extend(manifest_consistency(data, positions))
    files = data.get("files")
    patterns = [str(p) for p in files] if isinstance(files, list) else ["**/*.rcl"]
    units, parse_problems = parse_files(
        root, patterns, shown, lambda i: positions.value_span(("files", i))
    )
    diagnostics.extend(parse_problems)
    diagnostics.extend(define_cycles(units))
    schema_ok = not any(d.severity == Severity.ERROR for d in schema_problems)

    def locate(path: tuple[Any, ...], positions: PositionMap = positions) -> Span:
        return positions.value_span(path)

    try:
        manifest_lines = manifest_path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        manifest_lines = []
    compiler, program, semantic = _compile(
        lambda: Compiler(data, units, shown, locate, manifest_lines), shown, schema_ok
    )
    diagnostics.extend(semantic)
    if lang is not None:
        diagnostics.extend(_language_checks(units, data, lang, shown, positions))
    if not schema_ok or any(d.severity == Severity.ERROR for d in diagnostics):
        program = None
    if program is not None:
        object.__setattr__(program, "root", str(root))
    return CheckedRuleset(root, data, units, program, _dedupe(diagnostics), compiler)


def _compile(
    make_compiler: Callable[[], Any], shown: str, schema_ok: bool
) -> tuple[Any, Any, list[Diagnostic]]:
    """The compiler, the program and the compiler's and story checks' diagnostics.

    The compiler runs even when the manifest breaks the schema, so a misspelt key does not
    hide the mistakes of the ``.rcl`` files; such a manifest may break the compiler's
    assumptions, and then its schema errors are the report.  A valid manifest has no such
    excuse: the crash is a bug and propagates (``validate`` turns it into RC999)."""
    from rulecraft.compile.semantic import story_checks

    compiler = None
    program = None
    found: list[Diagnostic] = []
    try:
        compiler = make_compiler()
        try:
            program = compiler.compile()
        except RecursionError:
            found.append(
                Diagnostic("RC104", "an expression is nested too deeply to compile", Span(shown))
            )
        found.extend(compiler.diags)
        found.extend(story_checks(compiler))
        found.extend(component_limits(compiler))
    except Exception:
        if schema_ok:
            raise
        return None, None, list(compiler.diags) if compiler is not None else []
    return compiler, program, found


def _language_checks(
    units: list[ast.Unit], data: dict[str, Any], lang: str, shown: str, positions: PositionMap
) -> list[Diagnostic]:
    """RC241 once when the ruleset does not declare ``lang``, else RC240 per untranslated text.

    A language the ruleset never claims to speak would otherwise give one warning per text
    (hundreds), burying the one fact that matters."""
    from rulecraft.compile.semantic import translation_checks

    languages = data.get("languages")
    if isinstance(languages, list) and languages and lang not in languages:
        declared = ", ".join(str(x) for x in languages)
        where = positions.value_span(("languages",))
        return [
            Diagnostic(
                "RC241",
                f"this ruleset has no {lang!r} texts: its languages are {declared}",
                where,
                hint=f"check another language, or add {lang} to languages: and translate "
                "the texts (then --lang lists each one missing)",
            )
        ]
    return translation_checks(units, data, lang, shown)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, str, int, int, str]] = set()
    out = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        key = (d.code, d.span.file, d.span.line, d.span.column, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def find_rulesets(path: Path) -> list[Path]:
    """A ruleset folder itself, or every ruleset folder below ``path``."""
    if (path / MANIFEST).is_file():
        return [path]
    return sorted(p.parent for p in path.glob(f"*/{MANIFEST}"))


def validate_paths(
    paths: list[Path], lang: str | None = None, relative_to: Path | None = None
) -> list[Diagnostic]:
    """Every problem in the rulesets at ``paths`` (folders, or files inside a ruleset).

    With ``lang``, also every text that has no translation into that language.  Files are
    named relative to their ruleset's parent folder, or with ``relative_to`` (the CLI gives
    the working folder) relative to that folder when below it, else absolute: then the
    names open from where the command ran, and CI annotations attach to the file."""
    out: list[Diagnostic] = []
    for path in paths:
        path = Path(path)
        if path.is_file():
            root = path.parent
            while root != root.parent and not (root / MANIFEST).is_file():
                root = root.parent
            if (root / MANIFEST).is_file():
                found = check_ruleset(root, lang).diagnostics
                out.extend(_rebased(found, root.parent, relative_to))
            elif path.suffix == ".rcl":
                text, problems = _read_rcl(path, str(path))
                if text is not None:
                    problems.extend(parse_source(text, str(path))[1])
                out.extend(_rebased(problems, Path(), relative_to))
            else:
                not_ours = Diagnostic("RC001", "not part of a ruleset", Span(str(path)))
                out.extend(_rebased([not_ours], Path(), relative_to))
            continue
        roots = find_rulesets(path)
        if not roots:
            out.append(
                Diagnostic(
                    "RC001",
                    f"no ruleset (no {MANIFEST}) in {path}",
                    Span(str(path)),
                    hint="point at a ruleset folder, or a folder of ruleset folders",
                )
            )
        for root in roots:
            out.extend(_rebased(check_ruleset(root, lang).diagnostics, root.parent, relative_to))
    return out


def _rebased(
    diagnostics: list[Diagnostic], base: Path, relative_to: Path | None
) -> list[Diagnostic]:
    """``diagnostics`` with file names (relative to ``base``) made relative to ``relative_to``."""
    if relative_to is None:
        return diagnostics
    anchor = Path(os.path.abspath(relative_to))
    out = []
    for d in diagnostics:
        where = Path(os.path.abspath(base / d.span.file))
        try:
            shown = where.relative_to(anchor).as_posix()
        except ValueError:
            shown = str(where)
        out.append(replace(d, span=replace(d.span, file=shown)))
    return out
