"""`rulecraft play` end to end: scripts, arguments, errors, and a real terminal."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pexpect
import pytest

from repl.fakegame import FirstOptionAgent
from rulecraft.cli import play_cmd
from rulecraft.cli.main import main
from rulecraft.runtime.protocols import Agent

FACTORY = ["--game-factory", "repl.fakegame:make_source"]
TESTS_DIR = Path(__file__).resolve().parents[1]


def test_script_plays_a_whole_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("help\n" + "pass\n" * 6 + "state\n")
    code = main(["play", *FACTORY, "--seed", "7", "--seat", "2=human", "--script", str(script)])
    out = capsys.readouterr().out
    assert code == 0
    assert "fakegame: seed 7, seats 1=human, 2=human." in out
    assert "seat 1> help" in out and "seat 2> pass" in out
    assert "Game over: a draw (last round played)" in out


def test_bad_seat_and_bad_script_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *FACTORY, "--seat", "two=human"]) == 2
    assert "bad --seat 'two=human'" in capsys.readouterr().err
    assert main(["play", *FACTORY, "--players", "2", "--seat", "3=human"]) == 2
    assert "seats must be within 1..2" in capsys.readouterr().err
    assert main(["play", *FACTORY, "--seat", "2=human", "--script", "/no/such/file"]) == 2
    assert "cannot read /no/such/file" in capsys.readouterr().err


def test_an_unknown_ruleset_is_a_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "no-such-ruleset-anywhere", "--seat", "2=human"]) == 2
    err = capsys.readouterr().err
    assert "cannot load ruleset 'no-such-ruleset-anywhere'" in err
    assert "bundled rulesets: " in err and "tictactoe" in err
    assert "Traceback" not in err


def _args(*extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_cmd.register(parser.add_subparsers())
    return parser.parse_args(["play", *FACTORY, "--seed", "1", "--script", os.devnull, *extra])


def test_other_seats_default_to_mcts_when_it_exists(capsys: pytest.CaptureFixture[str]) -> None:
    made: list[str] = []

    def factory(spec: str, seed: int) -> Agent:
        made.append(spec)
        return FirstOptionAgent(spec)

    play_cmd.run_play(_args("--players", "3"), agent_factory=factory)
    bot = play_cmd.DEFAULT_BOT
    assert f"seats 1=human, 2={bot}, 3={bot}." in capsys.readouterr().out


def test_other_seats_fall_back_to_random(capsys: pytest.CaptureFixture[str]) -> None:
    def factory(spec: str, seed: int) -> Agent:
        if spec.startswith("mcts"):
            raise ValueError("no mcts here")
        return FirstOptionAgent(spec)

    play_cmd.run_play(_args(), agent_factory=factory)
    assert "seats 1=human, 2=random." in capsys.readouterr().out


def test_an_unknown_bot_is_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    def factory(spec: str, seed: int) -> Agent:
        raise ValueError(f"unknown agent {spec!r}")

    assert play_cmd.run_play(_args("--seat", "2=minimax"), agent_factory=factory) == 2
    assert "unknown agent 'minimax'" in capsys.readouterr().err


def test_a_real_terminal_session() -> None:
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "PYTHONPATH": str(TESTS_DIR)}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rulecraft.cli.main", "play", *FACTORY, "--seed", "3", "--seat", "2=human"],
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(40, 120),
    )
    try:
        child.expect("seat 1>")
        child.sendline("hlep")
        child.expect("Did you mean 'help'")
        child.expect("seat 1>")
        # Tab completes the command name; wait for the completed line before Enter
        # (keys arriving in one chunk are read before completion has run).
        child.send("hel")
        child.expect("hel")
        child.send("\t")
        child.expect("p")  # the completion, redrawn as just the missing letter
        child.send("\r")
        child.expect("list the commands")
        child.expect("seat 1>")
        child.sendline("pass")
        child.expect("Seat 1 passes")
        child.expect("seat 2>")
        child.sendline("quit")
        child.expect("Bye")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_the_real_engine_plays_saves_and_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "ttt.json"
    script = tmp_path / "moves.txt"
    script.write_text(f"1\nsave {save}\n1\nload {save}\n" + "1\n" * 9)
    args = ["play", "tictactoe", "--seed", "1", "--seat", "2=human", "--script", str(script)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"Loaded {save}." in out
    assert "Game over:" in out
