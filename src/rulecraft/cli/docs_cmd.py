"""`rulecraft docs [TOPIC] [--open]`: where the documentation is, or one error code explained.

    rulecraft docs              # where the docs are, and their pages
    rulecraft docs RC201        # what RC201 means, an example, the fix, and its page
    rulecraft docs language     # where the language reference is
    rulecraft docs NAME --open  # a bundled ruleset's page, in the browser

The docs are the Markdown pages of ``docs/`` (shipped in the wheel as ``rulecraft/docs``),
the site ``mkdocs build`` makes of them, or the published site named by
``$RULECRAFT_DOCS_URL``.  Exit codes: 0 shown, 2 unknown topic or no docs installed.
"""

from __future__ import annotations

import argparse
import re
import sys
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulecraft.compile.report import (
    ERRORS_PAGE,
    code_anchor,
    docs_folder,
    page_uri,
    site_folder,
)

_CODE = re.compile(r"RC\d{3}", re.IGNORECASE)
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "docs",
        help="show where the docs are, or explain an error code",
        description="Print where the documentation is, a page's location, or what an "
        "error code (RC201) means and how to fix it.",
    )
    p.add_argument(
        "topic",
        nargs="?",
        help="an error code (RC201), a page (language, tutorial, errors) or a bundled ruleset",
    )
    p.add_argument("--open", action="store_true", help="open it in the web browser")
    p.set_defaults(func=run)


@dataclass(frozen=True, slots=True)
class CodeEntry:
    """One row of the code tables of ``docs/errors.md``."""

    code: str
    meaning: str
    example: str
    fix: str


def code_entries(errors_page: Path) -> dict[str, CodeEntry]:
    """Every ``| RCnnn | meaning | example | fix |`` row of the errors page, by code."""
    out: dict[str, CodeEntry] = {}
    for line in errors_page.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in _CELL_SPLIT.split(line.strip())[1:-1]]
        if len(cells) == 4 and _CODE.fullmatch(cells[0]):
            out[cells[0].upper()] = CodeEntry(cells[0].upper(), *cells[1:])
    return out


def pages(docs: Path) -> list[str]:
    """The docs' page names (``language``, ``rulesets/sparks``), sorted."""
    return sorted(p.relative_to(docs).with_suffix("").as_posix() for p in docs.rglob("*.md"))


def _explain(code: str, docs: Path) -> tuple[str, str] | None:
    entry = code_entries(docs / f"{ERRORS_PAGE}.md").get(code.upper())
    if entry is None:
        return None
    text = (
        f"{entry.code}: {entry.meaning}\n"
        f"  example: {entry.example}\n"
        f"  fix:     {entry.fix}\n"
        f"  more:    {page_uri(ERRORS_PAGE, code_anchor(entry.code))}"
    )
    return text, page_uri(ERRORS_PAGE, code_anchor(entry.code))


def _page(topic: str, docs: Path) -> str | None:
    known = pages(docs)
    for name in (topic, f"rulesets/{topic}"):
        if name.removesuffix(".md") in known:
            return name.removesuffix(".md")
    return None


def _site_index() -> str | None:
    site = site_folder()
    return (site / "index.html").as_uri() if site is not None else None


def _overview(docs: Path) -> str:
    site = _site_index()
    lines = [f"rulecraft's documentation: {site or docs.as_uri()}"]
    if site is None:
        lines.append("(Markdown pages; `make docs` in a checkout builds the site)")
    lines.append("pages: " + ", ".join(pages(docs)))
    lines.append("an error code explained: rulecraft docs RC201")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    docs = docs_folder()
    if docs is None:
        print("rulecraft docs: the documentation is not installed", file=sys.stderr)
        return 2
    topic: str | None = args.topic
    if topic is None:
        print(_overview(docs))
        target = _site_index() or docs.as_uri()
    elif _CODE.fullmatch(topic):
        explained = _explain(topic, docs)
        if explained is None:
            print(f"rulecraft docs: no code {topic.upper()} in {ERRORS_PAGE}.md", file=sys.stderr)
            return 2
        text, target = explained
        print(text)
    else:
        page = _page(topic, docs)
        if page is None:
            print(
                f"rulecraft docs: no page {topic!r}; pages: {', '.join(pages(docs))}",
                file=sys.stderr,
            )
            return 2
        target = page_uri(page)
        print(target)
    if args.open:
        webbrowser.open(target)
    return 0
