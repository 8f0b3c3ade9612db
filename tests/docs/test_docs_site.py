"""The docs site (issue 15): mkdocs-material over docs/, built strictly, and what points at it.

- ``mkdocs build --strict`` passes: no broken link, no page missing from the navigation;
- every diagnostic code has its anchor on the errors page, where SARIF's ``helpUri``,
  ``rulecraft docs`` and ``validate``'s ``see:`` lines point;
- every bundled ruleset has a page in the navigation;
- ``.rcl`` blocks are highlighted by rulecraft's lexer, without error tokens;
- the wheel ships the Markdown pages, the lexer and its entry point.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rulecraft.cli.main import main
from rulecraft.compile.load import bundled_names
from rulecraft.compile.report import CODE_DESCRIPTIONS, help_uri, page_uri, render
from rulecraft.diagnostics import Diagnostic, Span

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
MKDOCS = REPO / "mkdocs.yml"
BUILD_SECONDS = 30  # the brief's bound for the docs build

pytestmark = pytest.mark.xdist_group("docs_site")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this module exactly as ``make docs`` builds it."""
    target = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(target)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS * 4,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stderr
    return target


def _nav_pages() -> list[str]:
    config = YAML(typ="safe", pure=True).load(MKDOCS.read_text(encoding="utf-8"))

    def walk(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [page for item in node for page in walk(item)]
        if isinstance(node, dict):
            return [page for value in node.values() for page in walk(value)]
        return []

    return walk(config["nav"])


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page() -> None:
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(_nav_pages()) == pages


def test_every_bundled_ruleset_has_a_page() -> None:
    assert {f"rulesets/{name}.md" for name in bundled_names()} <= set(_nav_pages())


def test_the_site_builds_strictly(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert (site / "reference" / "index.html").is_file()


def test_every_code_has_its_anchor_on_the_errors_page(site: Path) -> None:
    page = (site / "errors" / "index.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(rc\d{3})"', page))
    assert {code.lower() for code in CODE_DESCRIPTIONS} <= anchors


def test_the_api_reference_comes_from_the_docstrings(site: Path) -> None:
    page = (site / "reference" / "index.html").read_text(encoding="utf-8")
    assert "Load and compile a ruleset" in page  # rulecraft.compile.load.load's docstring
    assert 'id="rulecraft.compile.load.load"' in page


def test_rcl_blocks_are_highlighted_without_errors(site: Path) -> None:
    blocks = 0
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for block in re.findall(r'<div class="language-rcl highlight">(.*?)</div>', text, re.S):
            blocks += 1
            assert '<span class="err">' not in block, html
            assert '<span class="k">' in block or '<span class="kd">' in block, html
    assert blocks >= 30  # 38 when written


def test_repository_files_the_pages_link_to_are_served(site: Path) -> None:
    language = (site / "language" / "index.html").read_text(encoding="utf-8")
    assert 'href="../repo/src/rulecraft/language/rulecraft.lark"' in language
    assert (site / "repo" / "src" / "rulecraft" / "language" / "rulecraft.lark").is_file()


def test_a_published_site_is_linked_from_reports(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RULECRAFT_DOCS_URL", "https://docs.example/rulecraft/")
    assert help_uri("RC201") == "https://docs.example/rulecraft/errors/#rc201"
    # ... and that place exists in the site: the page, and the anchor on it.
    page = site / "errors" / "index.html"
    assert 'id="rc201"' in page.read_text(encoding="utf-8")
    found = Diagnostic("RC201", "unknown resource or counter 'glod'", Span("a.rcl", 1, 1))
    assert "see: https://docs.example/rulecraft/errors/#rc201" in render([found], "text")
    assert "see: https://docs.example/rulecraft/errors/#rc201" in render([found], "github")
    sarif = json.loads(render([found], "sarif"))
    assert sarif["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"].endswith("/errors/#rc201")


def test_local_docs_links_point_at_existing_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULECRAFT_DOCS_URL", raising=False)
    uri = help_uri("RC201")
    assert uri.startswith("file://") and uri.endswith("#rc201")
    assert Path(uri.removeprefix("file://").split("#")[0]).is_file()
    assert Path(page_uri("rulesets/sparks").removeprefix("file://")).is_file()


# ------------------------------------------------------------------ rulecraft docs
def test_docs_explains_a_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "rc241"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("RC241: (with `validate --lang L`) The ruleset does not declare")
    assert "  fix:     Check a language the ruleset has" in out
    assert out.rstrip().endswith("#rc241")


def test_docs_names_pages_and_refuses_unknown_topics(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    assert main(["docs", "sparks", "--open"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.endswith("sparks.md") or out.endswith("sparks/index.html")
    assert opened == [out]
    assert main(["docs", "nosuchpage"]) == 2
    assert "no page 'nosuchpage'" in capsys.readouterr().err
    assert main(["docs", "RC998"]) == 2
    assert main(["docs"]) == 0
    assert "pages: " in capsys.readouterr().out


# ------------------------------------------------------------------ the wheel
def test_the_wheel_ships_the_docs_and_the_lexer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hatchling.builders.wheel import WheelBuilder

    # a pure wheel, built in seconds (tests/engine/test_compiled_runtime.py builds the
    # compiled one)
    monkeypatch.setenv("RULECRAFT_PURE", "1")
    (wheel,) = list(WheelBuilder(str(REPO)).build(directory=str(tmp_path), versions=["standard"]))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(
            archive.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt")
        )
        archive.extractall(tmp_path / "unpacked")
    assert wheel.endswith("-py3-none-any.whl"), wheel
    for page in DOCS.rglob("*.md"):
        assert f"rulecraft/docs/{page.relative_to(DOCS).as_posix()}" in names
    assert "rulecraft/language/pygments_lexer.py" in names
    assert "rulecraft/language/rulecraft.lark" in names
    assert re.search(
        r"\[pygments\.lexers\]\s+rcl = rulecraft\.language\.pygments_lexer:RclLexer", entry_points
    )
    # Installed from the wheel, `rulecraft docs` finds the pages inside the package.
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from rulecraft.compile.report import docs_folder; print(docs_folder())",
        ],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "unpacked")},
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert result.stdout.strip() == str(tmp_path / "unpacked" / "rulecraft" / "docs")
