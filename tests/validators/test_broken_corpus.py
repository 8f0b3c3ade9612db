"""The broken-input corpus: every case under ``broken/`` fails validation, located and coded.

Each case is a folder ``broken/NAME/`` holding a small ruleset (or a lone ``.rcl`` file)
and ``expect.json``::

    {"what": "why this input is broken",
     "expect": [{"code": "RC101", "file": "rules.rcl", "line": 1, "column": 19,
                 "hint": "optional substring of the hint"}],
     "args": ["--strict"],        # optional: extra CLI arguments (warnings fail with it)
     "target": "rules.rcl",       # optional: validate this file instead of the folder
     "xfail": "reason"}           # optional: a known validator bug, xfail(strict=True)

``file`` is relative to the case folder (``"."`` is the folder itself).  The real CLI
(``rulecraft.cli.main.main``) runs in-process; a few cases also run as a subprocess.
An xfail case documents a bug in the validator: when the bug is fixed the test starts
passing, strict xfail turns that into a failure, and the ``xfail`` key must be removed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rulecraft.cli.main import main

BROKEN = Path(__file__).parent / "broken"
REPO = Path(__file__).resolve().parents[2]

# One text-format diagnostic line: "FILE:LINE:COL: SEVERITY CODE: message".
TEXT_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<sev>\w+) (?P<code>RC\d{3}):"
)


@dataclass(frozen=True)
class Case:
    """One corpus folder and what validating it must report."""

    folder: Path
    what: str
    expect: tuple[dict[str, Any], ...]
    args: tuple[str, ...]
    target: Path
    xfail: str | None

    @property
    def name(self) -> str:
        return self.folder.name

    def file_parts(self, expected: dict[str, Any]) -> tuple[str, ...]:
        """The trailing path parts a diagnostic's file must have to be ``expected['file']``."""
        rel = expected["file"]
        return (self.name,) if rel == "." else (self.name, *Path(rel).parts)


def load_case(folder: Path) -> Case:
    doc = json.loads((folder / "expect.json").read_text("utf-8"))
    target = folder / doc["target"] if doc.get("target") else folder
    return Case(
        folder,
        doc["what"],
        tuple(doc["expect"]),
        tuple(doc.get("args", ())),
        target,
        doc.get("xfail"),
    )


CASES = [load_case(p) for p in sorted(BROKEN.iterdir()) if (p / "expect.json").is_file()]


def case_params() -> list[Any]:
    return [
        pytest.param(
            c,
            id=c.name,
            marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [],
        )
        for c in CASES
    ]


def ends_with(file: str, parts: tuple[str, ...]) -> bool:
    return Path(file).parts[-len(parts) :] == parts


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- the corpus itself
def test_corpus_is_large_and_well_formed() -> None:
    assert len(CASES) >= 45
    for case in CASES:
        assert case.what, case.name
        assert case.expect, case.name
        assert case.target.exists(), case.name
        for e in case.expect:
            assert re.fullmatch(r"RC\d{3}", e["code"]), case.name
            assert e["line"] >= 1 and e["column"] >= 1, case.name
            assert (case.folder / e["file"]).exists(), (case.name, e["file"])


def test_corpus_covers_the_required_kinds_of_breakage() -> None:
    codes = {e["code"] for c in CASES for e in c.expect}
    required = {
        "RC101",  # syntax: missing ':', unexpected token, keyword misuse
        "RC102",  # stray character
        "RC103",  # bad indentation
        "RC105",  # unclosed string
        "RC104",  # very deep nesting in .rcl
        "RC209",  # wrong type
        "RC201",  # dangling references
        "RC206",  # arity
        "RC202",  # duplicate ids
        "RC010",  # schema: unknown key
        "RC011",  # schema: missing key
        "RC012",  # schema: wrong type
        "RC013",  # schema: bad enum value
        "RC006",  # empty ruleset.yaml
        "RC107",  # empty .rcl
        "RC004",  # non-UTF-8 manifest
        "RC100",  # non-UTF-8 / binary .rcl
        "RC005",  # binary manifest
        "RC008",  # deep YAML
        "RC205",  # huge number in .rcl
        "RC009",  # huge number in YAML
        "RC007",  # alias bomb
        "RC220",  # include escaping the folder
        "RC215",  # zone size vs manifest
        "RC230",  # unreachable entry
        "RC231",  # dead end
    }
    assert required <= codes, sorted(required - codes)


# ---------------------------------------------------------------------------- every case
@pytest.mark.parametrize("case", case_params())
def test_broken_input_is_reported_where_it_is(
    case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["validate", "--format", "json", *case.args, str(case.target)], capsys)
    assert "Traceback" not in out + err
    assert code == 1, out
    diagnostics = json.loads(out)["diagnostics"]
    assert not [d for d in diagnostics if d["code"] == "RC999"]
    for d in diagnostics:
        assert d["line"] >= 1 and d["column"] >= 1, d
    found = [(d["code"], d["line"], d["column"]) for d in diagnostics]
    for e in case.expect:
        parts = case.file_parts(e)
        matching = [
            d
            for d in diagnostics
            if d["code"] == e["code"]
            and ends_with(d["file"], parts)
            and (d["line"], d["column"]) == (e["line"], e["column"])
        ]
        assert matching, (
            f"expected {e['code']} at {'/'.join(parts)}:{e['line']}:{e['column']}; got {found}"
        )
        if "hint" in e:
            assert any(e["hint"] in (d["hint"] or "") for d in matching), matching


@pytest.mark.parametrize("case", case_params())
def test_text_report_shows_the_location(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["validate", *case.args, str(case.target)], capsys)
    assert "Traceback" not in out + err
    assert code == 1
    located = [m.groupdict() for line in out.splitlines() if (m := TEXT_LINE.match(line))]
    for e in case.expect:
        parts = case.file_parts(e)
        assert any(
            d["code"] == e["code"]
            and ends_with(d["file"], parts)
            and (int(d["line"]), int(d["column"])) == (e["line"], e["column"])
            for d in located
        ), out


@pytest.mark.parametrize("name", ["syntax_unclosed_string", "yaml_alias_bomb"])
def test_as_a_subprocess(name: str) -> None:
    case = load_case(BROKEN / name)
    result = subprocess.run(
        [sys.executable, "-m", "rulecraft.cli.main", "validate", *case.args, str(case.target)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    e = case.expect[0]
    assert f"{e['file']}:{e['line']}:{e['column']}: " in result.stdout
    assert f" {e['code']}: " in result.stdout


# ---------------------------------------------------------------------------- controls
def test_deep_parentheses_alone_are_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Control for the deep-nesting cases: plain parentheses 3000 deep are a valid number."""
    folder = tmp_path / "deep"
    shutil.copytree(BROKEN / "deep_parens_unclosed", folder)
    rules = folder / "rules.rcl"
    text = rules.read_text("utf-8")
    assert "(" * 3000 + "1" + ")" * 2999 + " gold" in text
    rules.write_text(text.replace(")" * 2999 + " gold", ")" * 3000 + " gold"), "utf-8")
    (folder / "expect.json").unlink()
    code, out, _ = run_cli(["validate", str(folder)], capsys)
    assert code == 0, out


def test_each_case_breaks_a_valid_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Control: the ruleset most cases were derived from validates clean, so each case's
    failure comes from its own breakage."""
    folder = tmp_path / "base"
    shutil.copytree(BROKEN / "syntax_stray_character", folder)
    rules = folder / "rules.rcl"
    rules.write_text(rules.read_text("utf-8").replace("cost: 1 $", "cost: 1"), "utf-8")
    (folder / "expect.json").unlink()
    code, out, _ = run_cli(["validate", "--strict", str(folder)], capsys)
    assert code == 0, out
