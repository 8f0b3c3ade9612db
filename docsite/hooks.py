"""mkdocs hooks for rulecraft's docs site (``mkdocs.yml`` names this file).

- Every code row of ``errors.md`` gets the anchor ``#rc201`` (SARIF ``helpUri`` and
  ``rulecraft docs`` point there), added in the Markdown tree so that mkdocs' own link check
  sees the anchors.
- Links from a page to files of the repository outside ``docs/`` (the grammar, a ruleset's
  README) are served too: the files are copied into the site under ``repo/`` and the links
  rewritten, so no link of the site is broken.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from pathlib import Path

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

CODE = re.compile(r"RC\d{3}")
REPO_LINK = re.compile(r"\]\((\.\./)+(?P<path>(?:src|rulesets|bench|editors|tests)/[^)#\s]+)")
REPO_PREFIX = "repo"


class _CodeAnchors(Treeprocessor):
    """``<td>RC201</td>`` as the first cell of a row becomes ``<td id="rc201">``."""

    def run(self, root: etree.Element) -> None:
        for row in root.iter("tr"):
            first = next(iter(row), None)
            if (
                first is not None
                and first.tag == "td"
                and CODE.fullmatch((first.text or "").strip())
            ):
                first.set("id", (first.text or "").strip().lower())


class CodeAnchorExtension(Extension):
    """Registers :class:`_CodeAnchors` ahead of mkdocs' anchor collection."""

    def extendMarkdown(self, md: Markdown) -> None:  # the name is Markdown's API
        md.treeprocessors.register(_CodeAnchors(md), "rulecraft_code_anchors", 30)


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.markdown_extensions.append(CodeAnchorExtension())
    return config


def _repository(config: MkDocsConfig) -> Path:
    return Path(config.docs_dir).resolve().parent


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Copy the repository files the pages link to into the site, under ``repo/``."""
    root = _repository(config)
    wanted: set[str] = set()
    for page in Path(config.docs_dir).rglob("*.md"):
        for match in REPO_LINK.finditer(page.read_text(encoding="utf-8")):
            wanted.add(match.group("path"))
    for path in sorted(wanted):
        source = root / path
        if source.is_file():
            files.append(File.generated(config, f"{REPO_PREFIX}/{path}", abs_src_path=str(source)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Point ``../src/...`` links at the copies under ``repo/``."""
    depth = page.file.src_uri.count("/")
    up = "../" * depth

    def relink(match: re.Match[str]) -> str:
        return f"]({up}{REPO_PREFIX}/{match.group('path')}"

    return REPO_LINK.sub(relink, markdown)
