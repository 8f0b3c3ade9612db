"""The examples in the language documentation are real.

- every ```rcl block of docs/{language,manifest,tutorial,api}.md parses without a problem;
- every ```rcl-bad block gives exactly the diagnostics of the ```text block that follows it;
- every ```yaml block fits the manifest schema (a fragment is checked on top of a minimal
  manifest);
- blocks marked ``<!-- file: FOLDER/NAME -->`` are ruleset files: the last version of each
  folder is loaded and played with random decisions;
- the tutorial and the worked example of language.md are replayed step by step: files
  written as the page shows them, the outputs of ``rulecraft validate`` and ``rulecraft play``
  compared, files the commands write (``<!-- written: PATH -->``) compared, its ``pycon``
  sessions run.
- the ``pycon`` sessions of api.md run as doctests.
"""

from __future__ import annotations

import copy
import doctest
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

import rulecraft
from rulecraft.cli.main import main as cli_main
from rulecraft.compile.pipeline import manifest_schema
from rulecraft.language.parser import parse_source

DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC_NAMES = ("language.md", "manifest.md", "tutorial.md", "api.md")
_FENCE = re.compile(
    r"(?:^<!-- (?P<marker>[^\n]*?) -->\n)?^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
# The smallest manifest a fragment of manifest.md is checked on top of.
BASE_MANIFEST: dict[str, Any] = {"rulecraft": 1, "name": "example", "players": {"min": 1, "max": 4}}


@dataclass(frozen=True)
class Block:
    """One fenced code block of a documentation page."""

    doc: str
    line: int
    lang: str
    body: str
    marker: str | None

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def doc_blocks(name: str) -> list[Block]:
    text = (DOCS / name).read_text(encoding="utf-8")
    return [
        Block(
            name,
            text.count("\n", 0, m.start("lang")) + 1,
            m.group("lang"),
            m.group("body"),
            m.group("marker"),
        )
        for m in _FENCE.finditer(text)
    ]


ALL_BLOCKS = [b for name in DOC_NAMES for b in doc_blocks(name)]


def _of(lang: str) -> list[Block]:
    return [b for b in ALL_BLOCKS if b.lang == lang]


def _ids(blocks: list[Block]) -> list[str]:
    return [b.where for b in blocks]


# ---------------------------------------------------------------------------- .rcl blocks
def test_the_pages_have_examples() -> None:
    counts = {lang: len(_of(lang)) for lang in ("rcl", "rcl-bad", "yaml", "pycon", "lark")}
    assert counts["rcl"] >= 20, counts
    assert counts["rcl-bad"] >= 3, counts
    assert counts["yaml"] >= 15, counts
    assert counts["pycon"] >= 3, counts
    assert counts["lark"] >= 10, counts


@pytest.mark.parametrize("block", _of("rcl"), ids=_ids(_of("rcl")))
def test_rcl_block_parses(block: Block) -> None:
    _, problems = parse_source(block.body, "example.rcl")
    assert [str(p) for p in problems] == []


def _following_text(block: Block) -> str:
    blocks = doc_blocks(block.doc)
    later = [b for b in blocks if b.line > block.line]
    assert later and later[0].lang == "text", f"{block.where}: no ```text block follows"
    return later[0].body


@pytest.mark.parametrize("block", _of("rcl-bad"), ids=_ids(_of("rcl-bad")))
def test_bad_rcl_block_gives_the_documented_diagnostics(block: Block) -> None:
    _, problems = parse_source(block.body, "example.rcl")
    documented = [ln for ln in _following_text(block).splitlines() if ln.strip()]
    assert problems, f"{block.where} parses, but is documented as wrong"
    assert [str(p) for p in problems] == documented


GRAMMAR = Path(__file__).resolve().parents[2] / "src" / "rulecraft" / "language" / "rulecraft.lark"


@pytest.mark.parametrize("block", _of("lark"), ids=_ids(_of("lark")))
def test_quoted_grammar_is_the_grammar(block: Block) -> None:
    """The grammar is the single source of truth: quotes of it must be exact."""
    rules = {ln.strip() for ln in GRAMMAR.read_text(encoding="utf-8").splitlines()}
    quoted = [ln.strip() for ln in block.body.splitlines() if ln.strip()]
    assert [ln for ln in quoted if ln not in rules] == []


# ---------------------------------------------------------------------------- yaml blocks
def _yaml(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(StringIO(text))


@pytest.mark.parametrize("block", _of("yaml"), ids=_ids(_of("yaml")))
def test_yaml_block_fits_the_manifest_schema(block: Block) -> None:
    data = _yaml(block.body)
    assert isinstance(data, dict), f"{block.where} is not a mapping"
    manifest = data if "rulecraft" in data else {**copy.deepcopy(BASE_MANIFEST), **data}
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in Draft202012Validator(manifest_schema()).iter_errors(manifest)
    ]
    assert errors == []


# ---------------------------------------------------------------------------- rulesets
def _ruleset_files(doc: str) -> dict[str, dict[str, str]]:
    """The last version of each file marked ``file: FOLDER/NAME``, by folder."""
    out: dict[str, dict[str, str]] = {}
    for block in doc_blocks(doc):
        if block.marker and block.marker.startswith("file: "):
            folder, name = block.marker[len("file: ") :].split("/", 1)
            out.setdefault(folder, {})[name] = block.body
    return out


DOC_RULESETS = [(doc, folder) for doc in DOC_NAMES for folder in _ruleset_files(doc)]


def _write(root: Path, folder: str, name: str, body: str) -> None:
    path = root / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")


def _play_randomly(path: Path, games: int = 5) -> list[Any]:
    ruleset = rulecraft.load(path)
    results = []
    for seed in range(games):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(game.max_decisions):
            decision = game.decision
            if decision is None:
                break
            game.choose(rng.choice(decision.ids))
        assert game.result is not None, f"game {seed} did not end"
        results.append(game.result)
    return results


def test_tutorial_and_manifest_pages_hold_rulesets() -> None:
    assert {doc for doc, _ in DOC_RULESETS} >= {"tutorial.md", "manifest.md"}


@pytest.mark.parametrize("doc, folder", DOC_RULESETS, ids=[f"{d}:{f}" for d, f in DOC_RULESETS])
def test_documented_ruleset_loads_and_plays(doc: str, folder: str, tmp_path: Path) -> None:
    for name, body in _ruleset_files(doc)[folder].items():
        _write(tmp_path, folder, name, body)
    ruleset = rulecraft.load(tmp_path / folder)
    assert [str(d) for d in ruleset.diagnostics] == []
    results = _play_randomly(tmp_path / folder)
    assert len(results) == 5


# ---------------------------------------------------------------------------- the tutorial
def _cli(args: list[str], cwd: Path, stdin: str = "") -> str:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run(
        [sys.executable, "-m", "rulecraft.cli.main", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return done.stdout + done.stderr


def _command(block: Block) -> tuple[list[str], str]:
    """The ``rulecraft`` arguments and the piped input of a console block's first line."""
    first = block.body.splitlines()[0]
    m = re.fullmatch(r"\$ (?:printf '(?P<input>[^']*)' \| )?rulecraft (?P<args>.*)", first)
    assert m, f"{block.where}: unexpected command {first!r}"
    stdin = (m.group("input") or "").encode().decode("unicode_escape")
    return m.group("args").split(), stdin


def _in_order(shown: list[str], output: str) -> Iterator[str]:
    """The shown lines that are not found, in order, among the output's lines."""
    lines = [ln.rstrip() for ln in output.splitlines()]
    at = 0
    for want in shown:
        try:
            at = lines.index(want, at) + 1
        except ValueError:
            yield want


def _run_pycon(block: Block, globs: dict[str, Any]) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.body, globs, block.where, block.doc, block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = StringIO()
    runner.run(test, out=out.write, clear_globs=False)
    globs.update(test.globs)  # the next session of the page goes on from here
    assert runner.failures == 0, out.getvalue()


def _replay_page(doc: str, root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    """Replay a page's marked blocks in order in ``root``; count each kind checked."""
    globs: dict[str, Any] = {}
    checked = {"file": 0, "validate": 0, "play": 0, "python": 0, "written": 0}
    for block in doc_blocks(doc):
        marker = block.marker or ""
        if marker.startswith("file: "):
            folder, name = marker[len("file: ") :].split("/", 1)
            _write(root, folder, name, block.body)
            checked["file"] += 1
        elif marker == "validate":
            args, _ = _command(block)
            expected = block.body.splitlines()[1:]
            capsys.readouterr()
            code = cli_main(args)
            captured = capsys.readouterr()
            assert (captured.out + captured.err).splitlines() == expected, block.where
            assert code == (1 if any(" error RC" in ln for ln in expected) else 0), block.where
            checked["validate"] += 1
        elif marker.startswith("written: "):
            written = root / marker[len("written: ") :]
            assert written.read_text(encoding="utf-8") == block.body, block.where
            checked["written"] += 1
        elif marker == "play":
            args, stdin = _command(block)
            shown = [ln for ln in block.body.splitlines()[1:] if ln != "..."]
            output = _cli(args, root, stdin)
            missing = list(_in_order(shown, output))
            assert missing == [], f"{block.where}: not in the output, in order: {missing}"
            checked["play"] += 1
        elif marker == "python":
            _run_pycon(block, globs)
            checked["python"] += 1
    return checked


def test_tutorial_step_by_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    checked = _replay_page("tutorial.md", tmp_path, capsys)
    assert checked["file"] >= 4 and checked["validate"] >= 3, checked
    assert checked["play"] == 1 and checked["python"] >= 1, checked
    # The finished tutorial ruleset is clean and plays to the end.
    assert _play_randomly(tmp_path / "lanterns", games=10)


def test_language_worked_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    checked = _replay_page("language.md", tmp_path, capsys)
    assert checked["file"] >= 2 and checked["validate"] >= 1, checked
    assert checked["written"] >= 1 and checked["python"] >= 1, checked


# ---------------------------------------------------------------------------- api.md
def test_api_sessions_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    globs: dict[str, Any] = {}
    sessions = [b for b in doc_blocks("api.md") if b.lang == "pycon"]
    assert len(sessions) >= 3
    for block in sessions:
        _run_pycon(block, globs)
