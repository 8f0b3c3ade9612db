"""`rulecraft test`: the bundled Tic-Tac-Toe scenarios pass; reports, --only, exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "rulesets" / "tictactoe"
BUNDLED = sorted(p.stem for p in (TICTACTOE / "scenarios").glob("*.yaml"))


def test_there_are_scenarios_for_rows_columns_diagonals_and_ties() -> None:
    assert {"row", "column", "diagonal", "tie"} <= set(BUNDLED)


@pytest.mark.parametrize("stem", BUNDLED)
def test_each_bundled_tictactoe_scenario_passes(
    stem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["test", "tictactoe", "--only", stem, "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report
    (scenario,) = report["scenarios"]
    assert scenario["status"] == "passed" and scenario["steps_run"] >= 3


@pytest.fixture
def ruleset_copy(tmp_path: Path) -> Path:
    """Tic-Tac-Toe without its scenarios, to add scenarios to."""
    folder = tmp_path / "ttt"
    folder.mkdir()
    for name in ("ruleset.yaml", "rules.rcl"):
        shutil.copy(TICTACTOE / name, folder / name)
    (folder / "scenarios").mkdir()
    return folder


def add(folder: Path, stem: str, text: str) -> None:
    (folder / "scenarios" / f"{stem}.yaml").write_text(text, encoding="utf-8")


GOOD = "name: good\ncites: c\nscript:\n  - choose: act:place:a1\n  - stop: ''\n"
BAD = "name: bad\ncites: 'p.3'\nscript:\n  - choose: act:place:a1\n  - choose: act:place:a1\n"


def test_a_folder_with_a_failing_scenario_exits_1_with_the_line(
    ruleset_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add(ruleset_copy, "a", GOOD)
    add(ruleset_copy, "b", BAD)
    assert main(["test", str(ruleset_copy)]) == 1
    out = capsys.readouterr().out
    assert "PASS  good" in out
    assert "FAIL  bad  " in out and "b.yaml:5:13: script step 2 (choose: act:place:a1)" in out
    assert "cites: p.3" in out
    assert out.rstrip().endswith("1 passed, 1 failed")


def test_json_report(ruleset_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add(ruleset_copy, "b", BAD)
    assert main(["test", str(ruleset_copy), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (report["passed"], report["failed"], report["error"]) == (0, 1, 0)
    (bad,) = report["scenarios"]
    assert (bad["status"], bad["line"], bad["column"], bad["steps_run"]) == ("failed", 5, 13, 1)
    assert "not a legal option" in bad["message"]


def test_only_selects_by_name_or_file(
    ruleset_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add(ruleset_copy, "a", GOOD)
    add(ruleset_copy, "b", BAD)
    assert main(["test", str(ruleset_copy), "--only", "good"]) == 0
    assert main(["test", str(ruleset_copy), "--only", "a.yaml"]) == 0
    assert main(["test", str(ruleset_copy), "--only", "b"]) == 1
    capsys.readouterr()
    assert main(["test", str(ruleset_copy), "--only", "nothing"]) == 2
    assert "no scenario named 'nothing'" in capsys.readouterr().err


def test_a_scenario_file_that_does_not_load_exits_2_with_located_problems(
    ruleset_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add(ruleset_copy, "a", GOOD)
    add(ruleset_copy, "c", "name: c\ncites: c\nscript:\n  - chose: a1\n")
    assert main(["test", str(ruleset_copy)]) == 2
    out = capsys.readouterr().out
    assert "ERROR c  " in out and "c.yaml:4:5: error RC010: unknown key `chose`" in out
    assert "1 passed, 0 failed, 1 could not run" in out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_usage_errors_exit_2(
    ruleset_copy: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["test", str(ruleset_copy / "missing"), "--format", fmt]) == 2
    assert main(["test", str(ruleset_copy), "--format", fmt]) == 2  # no scenarios yet
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "not a folder with a ruleset.yaml" in text and "no scenarios to run" in text


def test_a_ruleset_that_does_not_validate_exits_2(
    ruleset_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add(ruleset_copy, "a", GOOD)
    (ruleset_copy / "rules.rcl").write_text("action place for:\n", encoding="utf-8")
    assert main(["test", str(ruleset_copy)]) == 2
    assert "does not validate" in capsys.readouterr().err


def test_the_installed_command_reports_without_a_traceback(ruleset_copy: Path) -> None:
    add(ruleset_copy, "b", BAD)
    add(ruleset_copy, "c", "name: [\n")
    done = subprocess.run(
        [sys.executable, "-m", "rulecraft.cli.main", "test", str(ruleset_copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "FAIL  bad" in done.stdout and "c.yaml:2:1: error RC001" in done.stdout
