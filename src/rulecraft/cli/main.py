"""The ``rulecraft`` command: one subcommand per module in this package.

Each ``*_cmd`` module exposes ``register(subparsers)``, which adds its parser and sets
``func`` (taking the parsed namespace, returning the exit code).  Exit codes everywhere:
0 clean, 1 problems found, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rulecraft import __version__
from rulecraft.cli import (
    cards_cmd,
    compile_cmd,
    dice_cmd,
    docs_cmd,
    fmt_cmd,
    list_cmd,
    lsp_cmd,
    play_cmd,
    schema_cmd,
    simulate_cmd,
    solve_cmd,
    test_cmd,
    validate_cmd,
)

_COMMANDS = (
    validate_cmd,
    fmt_cmd,
    test_cmd,
    play_cmd,
    simulate_cmd,
    solve_cmd,
    dice_cmd,
    list_cmd,
    compile_cmd,
    docs_cmd,
    lsp_cmd,
    cards_cmd,
    schema_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulecraft",
        description="Validate, format, test, play and simulate tabletop-game rulesets.",
    )
    parser.add_argument("--version", action="version", version=f"rulecraft {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code: int = func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
