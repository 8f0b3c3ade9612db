"""`rulecraft fmt [--check] [--diff] PATH...`: rewrite ``.rcl`` files in canonical form.

A folder means every ``*.rcl`` file below it.  Files with syntax errors are never rewritten:
their located diagnostics are printed and the exit code is 1.  ``--check`` lists the files
that would change and exits 1 if there are any; ``--diff`` prints a unified diff; neither
writes.  Writes are atomic (a temporary file in the same folder, then ``os.replace``).
Exit codes: 0 clean, 1 files would change or have syntax errors, 2 usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from rulecraft.cli.rulesets import resolve_path
from rulecraft.language.formatter import FormatError, format_source
from rulecraft.language.parser import ParseFailed


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "fmt",
        help="format .rcl files canonically",
        description="Rewrite .rcl files in the canonical style (folders: every *.rcl below).",
    )
    p.add_argument(
        "paths", nargs="+", metavar="PATH", help=".rcl files, folders or bundled ruleset names"
    )
    p.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file would change"
    )
    p.add_argument("--diff", action="store_true", help="write nothing; print a unified diff")
    p.set_defaults(func=run)


def collect_files(paths: list[str]) -> tuple[list[Path], list[str]]:
    """The ``.rcl`` files the paths name (folders searched recursively) and missing paths."""
    files: list[Path] = []
    missing: list[str] = []
    for raw in paths:
        path = resolve_path(raw) or Path(raw)  # a bundled ruleset's name means its folder
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.rcl") if p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            missing.append(raw)
    seen: set[Path] = set()
    unique = []
    for f in files:
        key = f.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, missing


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path``'s content in one step, so a crash never leaves half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        with contextlib.suppress(OSError):  # keeping the file's mode is a courtesy
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    files, missing = collect_files(list(args.paths))
    for raw in missing:
        print(f"rulecraft fmt: no such file or folder: {raw}", file=sys.stderr)
    if missing:
        return 2
    write = not (args.check or args.diff)
    changed: list[Path] = []
    broken = 0
    for path in files:
        try:
            # newline="" keeps "\r\n" visible, so such files are normalised to "\n".
            with path.open(encoding="utf-8", newline="") as handle:
                original = handle.read()
        except (OSError, UnicodeDecodeError) as err:
            print(f"{path}: cannot read: {err}", file=sys.stderr)
            broken += 1
            continue
        try:
            formatted = format_source(original, str(path))
        except ParseFailed as err:
            for diagnostic in err.diagnostics:
                print(diagnostic)
            broken += 1
            continue
        except FormatError as err:
            print(f"rulecraft fmt: internal error: {err}", file=sys.stderr)
            broken += 1
            continue
        if formatted == original:
            continue
        changed.append(path)
        if args.diff:
            sys.stdout.writelines(
                difflib.unified_diff(
                    original.splitlines(keepends=True),
                    formatted.splitlines(keepends=True),
                    fromfile=f"{path} (original)",
                    tofile=f"{path} (formatted)",
                )
            )
        if args.check:
            print(f"would reformat {path}")
        elif write:
            write_atomically(path, formatted)
            print(f"reformatted {path}")
    verb = "reformatted" if write else "would be reformatted"
    summary = f"{len(changed)} file(s) {verb}, {len(files) - len(changed) - broken} unchanged"
    if broken:
        summary += f", {broken} not formatted (errors)"
    print(summary, file=sys.stderr)
    if broken or (args.check and changed):
        return 1
    return 0
