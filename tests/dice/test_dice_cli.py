"""`rulecraft dice` through the real command-line entry point."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulecraft.cli.main import main

FIXTURES = Path(__file__).parent / "fixtures"


def test_plain_dice_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "2d6"]) == 0
    out = capsys.readouterr().out
    assert "2d6: 36 equally likely outcomes" in out
    assert "58.33%" in out  # P(at least 7)
    assert "█" * 40 in out


def test_json_has_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = str(FIXTURES / "waste_knights")
    assert main(["dice", "2 green + 1 fate", "--ruleset", ruleset, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["symbols"]) == {"botch", "fate", "success"}
    rows = {r["k"]: r for r in data["symbols"]["success"]["rows"]}
    assert Fraction(rows[1]["at_least"]) == Fraction(3, 4)
    assert data["dice"] == {"green": 2} and data["auto"] == {"fate": 1}


def test_at_least_restricts_to_one_symbol(capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = str(FIXTURES / "wasteland_express" / "ruleset.yaml")
    assert main(["dice", "2 combat", "--ruleset", ruleset, "--at-least", "hit", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["symbols"]) == ["hit"]
    assert data["symbols"]["hit"]["mean"] == "7/3"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dice", "2 purple"], "unknown die or symbol 'purple'"),
        (["dice", "3d6", "--at-least", "success"], "cannot show 'success'"),
        (["dice", "2 white", "--ruleset", "/no/such/dir"], "cannot read"),
        (["dice", "1000d6"], "more than the"),
        (["dice", "2 +"], "cannot read"),
    ],
)
def test_usage_errors_exit_2_without_traceback(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_ruleset_dice_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ruleset.yaml").write_text("dice:\n  white:\n    faces: [[], [3]]\n")
    assert main(["dice", "white", "--ruleset", str(tmp_path)]) == 2
    assert "die 'white', face 1" in capsys.readouterr().err
    (tmp_path / "ruleset.yaml").write_text("name: x\n")
    assert main(["dice", "white", "--ruleset", str(tmp_path)]) == 2
    assert "no 'dice:' section" in capsys.readouterr().err
    (tmp_path / "ruleset.yaml").write_text("dice: [\n")
    assert main(["dice", "white", "--ruleset", str(tmp_path)]) == 2
    assert "not valid YAML" in capsys.readouterr().err


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "odds.png"
    assert main(["dice", "3d6", "--plot", str(target)]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
