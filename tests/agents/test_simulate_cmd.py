"""`rulecraft simulate` end to end through the real CLI entry point, on fake games."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from rulecraft.cli import simulate_cmd
from rulecraft.cli.main import main
from rulecraft.tools.simulate import simulate

from .fakegames import (
    CountdownFactory,
    CrashingNimFactory,
    HiddenDuelFactory,
    NimFactory,
    StartingNimFactory,
)

FAKES = {
    "duel": HiddenDuelFactory(),
    "nim": NimFactory(),
    "crashing": CrashingNimFactory(),
    "countdown": CountdownFactory(players=3),
    "startnim": StartingNimFactory(),
}


@pytest.fixture(autouse=True)
def fake_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    def factory(ruleset: str, players: int) -> object:
        if ruleset not in FAKES:
            raise_on_call = RuntimeError(f"no ruleset {ruleset!r}")

            def failing(seed: int) -> object:
                raise raise_on_call

            return failing
        return FAKES[ruleset]

    monkeypatch.setattr(simulate_cmd, "make_factory", factory)


def test_json_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["simulate", "duel", "-n", "20", "--agents", "greedy,random", "--seed", "3"]
    code = main([*argv, "--workers", "1", "--json", "--errors-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 20 and data["seed"] == 3 and data["agents"] == ["greedy", "random"]
    assert sum(w["wins"] for w in data["wins"]) + data["draws"] + data["no_winner"] == 20
    low, high = data["wins"][0]["wilson95"]
    assert low <= data["wins"][0]["rate"] <= high
    assert data["decisions"]["max"] == 8 and data["errors"] == []


def test_table_report_and_workers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["simulate", "nim", "-n", "12", "--workers", "2", "--errors-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "12 games of nim" in out and "Wilson" in out
    assert "decisions" in out and "rounds" in out and "errors 0" in out


def test_errors_exit_1_and_name_their_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(
        ["simulate", "crashing", "-n", "4", "--workers", "1", "--errors-dir", str(tmp_path)]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "errors 2" in out
    assert "error in game seed 0: RuntimeError: rule bug reached by" in out
    assert str(tmp_path / "seed-2.json") in out.replace("\n", "")
    assert (tmp_path / "seed-0.json").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "nim", "--agents", "alphazero"], "unknown agent 'alphazero'"),
        (["simulate", "countdown", "--agents", "random,mcts"], "2 agent specs for 3 seats"),
        (["simulate", "missing"], "cannot simulate 'missing': no ruleset 'missing'"),
        (["simulate", "nim", "--workers", "0"], "--workers must be >= 1"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_render_report_is_stable() -> None:
    report = simulate(CountdownFactory(players=3), 9, ["random"], seed=0)
    buffer = StringIO()
    simulate_cmd.render_report(report, Console(file=buffer, width=100, color_system=None), "x")
    text = buffer.getvalue()
    assert text.startswith("9 games of x, seeds 0..8")
    for seat in range(3):
        rate, low, high = report.win_rate(seat)
        assert f"{rate:.1%}" in text and f"{low:.1%} - {high:.1%}" in text


class _Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fake_stderr = _Terminal()
    monkeypatch.setattr("sys.stderr", fake_stderr)
    argv = ["simulate", "nim", "-n", "40", "--workers", "1", "--json"]
    assert main([*argv, "--errors-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 40  # stdout stays pure JSON
    assert "simulating" in fake_stderr.getvalue()


def test_start_player_in_the_json_and_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["simulate", "startnim", "-n", "8", "--workers", "1", "--errors-dir", str(tmp_path)]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["start_player"]["wins"] == 4 and data["start_player"]["decided"] == 8
    assert data["start_player"]["starts"] == [4, 4]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "start player won 4 of 8 decided games: 50.0%" in out
    assert "starts: seat 1 4, seat 2 4" in out
    # games that do not say who started: no start-player line, no key
    assert main(["simulate", "nim", "-n", "4", "--workers", "1", "--json"]) == 0
    assert "start_player" not in json.loads(capsys.readouterr().out)
    assert main(["simulate", "nim", "-n", "4", "--workers", "1"]) == 0
    assert "start player" not in capsys.readouterr().out
