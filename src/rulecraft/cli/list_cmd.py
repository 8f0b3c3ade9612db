"""`rulecraft list`: the bundled rulesets, by the names every command accepts.

    $ rulecraft list
    NAME   PLAYERS  LANGUAGES  TITLE      (one line per bundled ruleset; * marks the default)

Exit code 0 (2 if no bundled ruleset can be found, which means a broken install).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rulecraft.cli.rulesets import describe_bundled


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "list",
        help="name the bundled rulesets",
        description="Name the bundled rulesets: every command that takes a ruleset accepts "
        "these names as well as a folder.",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--paths", action="store_true", help="also show each ruleset's folder")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    found = describe_bundled()
    if not found:
        print("rulecraft list: no bundled rulesets found (a broken install?)", file=sys.stderr)
        return 2
    if args.json:
        rows = [
            {
                "name": r.name,
                "title": r.title,
                "players": r.players,
                "languages": list(r.languages),
                "default": r.default,
                "folder": str(r.folder),
            }
            for r in found
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    width = max(len(r.name) for r in found) + 2
    for r in found:
        marker = "*" if r.default else " "
        line = f"{r.name:<{width}}{marker} {r.players:<5} {', '.join(r.languages):<8} {r.title}"
        if args.paths:
            line += f"  ({r.folder})"
        print(line.rstrip())
    print("* the default game (`rulecraft play` with no ruleset)")
    return 0
