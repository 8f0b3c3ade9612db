"""`rulecraft validate PATH...`: check rulesets and report every problem found.

Exit codes: 0 clean (warnings allowed unless ``--strict``), 1 problems found, 2 usage or
internal error.  An unexpected exception inside validation never escapes as a traceback:
it becomes an RC999 diagnostic (set ``RULECRAFT_DEBUG=1`` to see the traceback on stderr).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulecraft.cli.rulesets import bundled_listing, resolve_path
from rulecraft.compile.report import OutputFormat, render
from rulecraft.diagnostics import Diagnostic, Span, has_errors

INTERNAL_ERROR = "RC999"
PIPELINE_MODULE = "rulecraft.compile.pipeline"

ValidatePaths = Callable[..., Sequence[Diagnostic]]


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "validate",
        help="check rulesets (.rcl files and ruleset.yaml manifests)",
        description="Check rulesets and report every problem with its file, line and column.",
    )
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="ruleset folders or files, or bundled ruleset names (see `rulecraft list`)",
    )
    p.add_argument(
        "--format",
        choices=[f.value for f in OutputFormat],
        default=OutputFormat.TEXT.value,
        help="text (default), json, github (workflow annotations + text) or sarif",
    )
    p.add_argument("--strict", action="store_true", help="fail on warnings too")
    p.add_argument("--lang", metavar="L", help="also check the texts of language L")
    p.add_argument(
        "--story-graph",
        metavar="FILE",
        type=Path,
        help="write the story graph of numbered entries (Mermaid; DOT if FILE ends in .dot)",
    )
    p.set_defaults(func=run)


def _story_graph(paths: Sequence[Path], target: Path) -> str:
    """Write the story graph of the first ruleset with entries; return a summary line."""
    from rulecraft.compile.pipeline import check_ruleset, find_rulesets
    from rulecraft.compile.semantic import story_graph

    for path in paths:
        for root in find_rulesets(path if path.is_dir() else path.parent):
            checked = check_ruleset(root)
            if checked.compiler is None or not checked.compiler.entries:
                continue
            graph = story_graph(checked.compiler)
            text = graph.dot() if target.suffix == ".dot" else graph.mermaid()
            target.write_text(text, encoding="utf-8")
            reached = graph.reachable()
            return (
                f"story of {root.name}: {len(graph.entries)} entries, "
                f"{len(reached & set(graph.entries))} reachable, "
                f"{len(graph.endings)} endings ({len(graph.endings & reached)} reachable); "
                f"graph written to {target}"
            )
    return "no story entries found: no graph written"


def internal_error(error: BaseException, paths: Sequence[Path]) -> Diagnostic:
    """The RC999 diagnostic standing for a crash of the validator itself."""
    where = str(paths[0]) if paths else "<rulecraft>"
    return Diagnostic(
        INTERNAL_ERROR,
        f"internal error while validating: {type(error).__name__}: {error}",
        Span(where),
        hint="this is a bug in rulecraft, not in the ruleset; please report it "
        "(RULECRAFT_DEBUG=1 shows the traceback)",
    )


def _load_pipeline() -> ValidatePaths:
    module = importlib.import_module(PIPELINE_MODULE)
    validate_paths: ValidatePaths = module.validate_paths
    return validate_paths


def _accepts_keyword(function: Callable[..., object], name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in parameters)


def _usage_error(message: str) -> int:
    print(f"rulecraft validate: error: {message}", file=sys.stderr)
    return 2


def _resolve(texts: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The paths to check (a bundled ruleset's name stands for its folder) and the unknown."""
    found = [(text, resolve_path(text)) for text in texts]
    return [p for _, p in found if p is not None], [t for t, p in found if p is None]


def run(args: argparse.Namespace) -> int:
    paths, missing = _resolve(args.paths)
    if missing:
        return _usage_error(
            f"no such file, directory or bundled ruleset: {', '.join(missing)} "
            f"({bundled_listing()})"
        )
    output_format = OutputFormat(args.format)
    lang: str | None = getattr(args, "lang", None)
    try:
        validate_paths = _load_pipeline()
        options: dict[str, Any] = {}
        if lang is not None:
            if not _accepts_keyword(validate_paths, "lang"):
                return _usage_error("--lang is not supported by this version's validator")
            options["lang"] = lang
        if _accepts_keyword(validate_paths, "relative_to"):
            options["relative_to"] = Path.cwd()
        diagnostics = list(validate_paths(paths, **options))
        if not all(isinstance(d, Diagnostic) for d in diagnostics):
            raise TypeError("validate_paths returned something other than diagnostics")
    except Exception as error:  # the boundary that turns a crash into a diagnostic
        if os.environ.get("RULECRAFT_DEBUG"):
            traceback.print_exc()
        diagnostics = [internal_error(error, paths)]
    try:
        print(render(diagnostics, output_format), flush=True)
    except BrokenPipeError:
        # The reader (`| head`) left early: not an error, and no traceback on exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    graph_target: Path | None = getattr(args, "story_graph", None)
    if graph_target is not None:
        try:
            print(_story_graph(paths, graph_target), file=sys.stderr)
        except OSError as error:
            print(f"cannot write {graph_target}: {error.strerror}", file=sys.stderr)
            return 2
    if any(d.code == INTERNAL_ERROR for d in diagnostics):
        return 2
    return 1 if has_errors(diagnostics, strict=args.strict) else 0
