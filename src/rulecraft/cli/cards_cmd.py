"""`rulecraft cards RULESET [--lang L] [--kind K] [--out FILE.pdf]`: printable card sheets.

Poker-size cards nine to an A4 or Letter page, with bleed and crop marks, a mirrored page of
backs after each page of fronts (docs/cards.md).  Texts that do not fit even when set
smaller are cut and reported as warnings located at the card.  Exit codes: 0 written (with
or without warnings), 1 the ruleset has errors, 2 usage error or ReportLab missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rulecraft.cli.rulesets import bundled_listing, resolve_ruleset
from rulecraft.compile.pipeline import MANIFEST, check_ruleset
from rulecraft.language.yaml_source import load_yaml


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "cards",
        help="print a ruleset's cards as PDF sheets (poker size, nine to a page)",
        description="Lay out every card of a ruleset on printable PDF sheets (docs/cards.md).",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset folder or a bundled name")
    p.add_argument("--lang", help="the language to print (default: the ruleset's first)")
    p.add_argument(
        "--kind",
        action="append",
        metavar="K",
        help="print only components of this kind (repeat or comma-separate for several)",
    )
    p.add_argument("--out", metavar="FILE.pdf", help="where to write (default: NAME-cards.pdf)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="page size")
    p.add_argument(
        "--bleed", type=float, default=3.0, metavar="MM", help="bleed around each card (mm)"
    )
    p.add_argument("--no-backs", action="store_true", help="fronts only (no pages of backs)")
    p.set_defaults(func=run)


def _kinds(raw: list[str] | None) -> list[str] | None:
    if not raw:
        return None
    return [k.strip() for item in raw for k in item.split(",") if k.strip()]


def _shown(root: Path, warning: Any) -> str:
    """A warning with its file as the ruleset was named (the checker's spans are relative
    to the ruleset's parent folder)."""
    file = Path(warning.span.file)
    if not file.is_absolute() and not (root.parent / file).is_file():
        return str(warning)
    span = warning.span
    shown = file if file.is_absolute() else root.parent / file
    return f"{shown}:{span.line}:{span.column}: warning: {warning.message}"


def _usage(message: str) -> int:
    print(f"rulecraft cards: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        from rulecraft.tools import cards
    except ImportError as err:  # ReportLab is the optional 'cards' extra
        print(
            f"rulecraft cards: {err}; install it with: pip install 'rulecraft[cards]'",
            file=sys.stderr,
        )
        return 2
    root = resolve_ruleset(args.ruleset)  # a folder, or a bundled name as every command
    if root is None:
        return _usage(f"no ruleset {args.ruleset!r} ({bundled_listing()})")
    checked = check_ruleset(root)
    if checked.program is None or checked.manifest is None:
        for diagnostic in checked.diagnostics:
            print(diagnostic)
        print("rulecraft cards: the ruleset has errors; nothing printed", file=sys.stderr)
        return 1
    program, manifest = checked.program, checked.manifest
    languages = list(program.languages)
    if args.lang is not None and args.lang not in languages:
        return _usage(f"{root.name} has no language {args.lang!r} (it has: {', '.join(languages)})")
    wanted = _kinds(args.kind)
    known = sorted({d.kind for d in program.defs.values()})
    unknown = [k for k in wanted or [] if k not in known]
    if unknown:
        return _usage(f"no components of kind {', '.join(unknown)} (kinds: {', '.join(known)})")
    _data, positions, _ = load_yaml(root / MANIFEST, str(root / MANIFEST))
    early = cards.check_print_sections(manifest, positions)
    chosen = cards.collect_cards(program, manifest, lang=args.lang, kinds=wanted)
    out = Path(args.out) if args.out else Path(f"{root.name}-cards.pdf")
    title = str(manifest.get("name", root.name))
    report = cards.render_sheets(
        chosen, out, paper=args.paper, bleed_mm=args.bleed, backs=not args.no_backs, title=title
    )
    warnings = early + report.warnings
    for warning in warnings:
        print(_shown(root, warning))
    print(
        f"{out}: {report.cards} cards on {report.pages} pages ({args.paper}, "
        f"bleed {report.bleed_mm:g} mm), {len(warnings)} warning(s)",
        file=sys.stderr,
    )
    return 0
