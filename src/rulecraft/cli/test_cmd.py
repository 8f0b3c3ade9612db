"""`rulecraft test RULESET`: play the ruleset's scenarios (``scenarios/*.yaml``) strictly.

Exit codes: 0 every scenario passed, 1 any failed, 2 usage or load errors (no such ruleset,
a ruleset that does not validate, a scenario file that does not load, a game that cannot
start, no scenario to run).  Nothing escapes as a traceback.  The scenario format is in
``docs/scenarios.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rulecraft.diagnostics import Diagnostic, Severity
from rulecraft.tools.scenario import (
    Outcome,
    Status,
    find_scenarios,
    load_scenario,
    run_scenario,
)

EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "test",
        help="play a ruleset's scenario tests (scenarios/*.yaml)",
        description="Play every scenarios/*.yaml of a ruleset strictly and report each "
        "scenario's result, with the line of the step that failed.",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a bundled ruleset name or a folder")
    p.add_argument(
        "--only",
        metavar="NAME",
        action="append",
        help="run only the scenario with this name or file name (repeatable)",
    )
    p.add_argument(
        "--format", choices=["text", "json"], default="text", help="text (default) or json"
    )
    p.set_defaults(func=run)


def _ruleset_dir(name_or_path: str) -> Path | None:
    from rulecraft.compile.load import bundled_root

    for candidate in (Path(name_or_path), bundled_root() / name_or_path):
        if (candidate / "ruleset.yaml").is_file():
            return candidate
    return None


def _shown_path(path: Path) -> str:
    """The path relative to the working folder when it is inside it (clickable, short)."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def _selected(outcome_name: str, path: Path, only: Sequence[str] | None) -> bool:
    return not only or outcome_name in only or path.stem in only or path.name in only


def run(args: argparse.Namespace) -> int:
    out: TextIO = sys.stdout
    as_json = args.format == "json"

    def usage_error(message: str, diagnostics: Sequence[Diagnostic] = ()) -> int:
        if as_json:
            data = {
                "ruleset": args.ruleset,
                "error": message,
                "diagnostics": [str(d) for d in diagnostics],
                "scenarios": [],
            }
            json.dump(data, out, indent=2, ensure_ascii=False)
            out.write("\n")
        else:
            print(f"rulecraft test: {message}", file=sys.stderr)
            for d in diagnostics[:20]:
                print(f"  {d}", file=sys.stderr)
        return EXIT_USAGE

    folder = _ruleset_dir(args.ruleset)
    if folder is None:
        return usage_error(f"no ruleset {args.ruleset!r}: not a folder with a ruleset.yaml")
    paths = find_scenarios(folder)
    if not paths:
        return usage_error(f"no scenarios to run: {_shown_path(folder / 'scenarios')}/*.yaml")

    import rulecraft

    try:
        ruleset = rulecraft.load(folder)
    except rulecraft.RulesetError as err:
        return usage_error(
            f"ruleset {args.ruleset!r} does not validate (see `rulecraft validate`)",
            [d for d in err.diagnostics if d.severity == Severity.ERROR],
        )
    except Exception as err:  # a crash while loading must not become a traceback
        return usage_error(f"cannot load ruleset {args.ruleset!r}: {type(err).__name__}: {err}")

    outcomes: list[Outcome] = []
    for path in paths:
        shown = _shown_path(path)
        scenario, problems = load_scenario(path, shown)
        if scenario is None:
            if args.only and path.stem not in args.only and path.name not in args.only:
                continue  # a broken file the user did not ask for stays quiet
            outcomes.append(
                Outcome(
                    shown,
                    path.stem,
                    Status.ERROR,
                    message="the scenario file does not load",
                    span=problems[0].span if problems else None,
                    diagnostics=tuple(problems),
                )
            )
            continue
        if not _selected(scenario.name, path, args.only):
            continue
        outcomes.append(run_scenario(ruleset, scenario))
    if not outcomes:
        return usage_error(f"no scenario named {', '.join(args.only or [])!r}")

    if as_json:
        json.dump(_json_report(args.ruleset, outcomes), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        _text_report(out, ruleset.name, outcomes)
    if any(o.status == Status.ERROR for o in outcomes):
        return EXIT_USAGE
    if any(o.status == Status.FAILED for o in outcomes):
        return EXIT_FAILED
    return EXIT_PASSED


def _counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    return {s.value: sum(1 for o in outcomes if o.status == s) for s in Status}


def _json_report(ruleset: str, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    return {"ruleset": ruleset, **_counts(outcomes), "scenarios": [o.to_json() for o in outcomes]}


def _text_report(out: TextIO, ruleset: str, outcomes: Sequence[Outcome]) -> None:
    print(f"rulecraft test {ruleset}: {len(outcomes)} scenario(s)", file=out)
    for o in outcomes:
        if o.status == Status.PASSED:
            print(f"PASS  {o.name}  ({o.file}, {o.steps_run} steps)", file=out)
            continue
        if o.status == Status.ERROR:
            print(f"ERROR {o.name}  ({o.file}): could not run", file=out)
            for d in o.diagnostics:
                print(f"      {d}", file=out)
            continue
        where = f"{o.file}:{o.span.line}:{o.span.column}" if o.span else o.file
        print(f"FAIL  {o.name}  {where}: {o.step}", file=out)
        print(f"      {o.message}", file=out)
        print(f"      cites: {o.cites}", file=out)
    counts = _counts(outcomes)
    summary = f"{counts['passed']} passed, {counts['failed']} failed"
    if counts["error"]:
        summary += f", {counts['error']} could not run"
    print(summary, file=out)
