"""Planning with reset and the solver at the REPL, on Knight Moves (issue 13: "the REPL
offers `reset` and `execute` there"; "`solve` there shows the best plan from the current
position").

The session is the real one (rulecraft.repl.session.Session on the engine), fed typed
lines as a person at the prompt would: `reset` and `execute` are the plan's own options
(`plan:reset`, `plan:execute`), chosen by the last part of their ids."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.console import Console

import rulecraft
from rulecraft.cli.play_cmd import EngineSource
from rulecraft.repl.session import Session
from rulecraft.tools.solver import Stretch, solve

WREN = "opt2"
STANDARD = "opt1"


def session_at_first_plan() -> Session:
    """A one-seat Knight Moves session (seed 1) at the first stage's plan, Wren chosen."""
    source = EngineSource(rulecraft.load("knight_moves"), "knight_moves")
    game = source.new_game(None, 1, "en")
    console = Console(file=StringIO(), width=120, color_system=None)
    session = Session(source, game, {0: "human"}, console, seed=1, lang="en")
    session.start()
    for line in (WREN, STANDARD):
        session.handle(line)
    assert session.game.decision is not None
    assert session.game.decision.prompt == "Plan your moves"
    return session


def printed(session: Session) -> str:
    file = session.console.file
    assert isinstance(file, StringIO)
    return file.getvalue()


def hero(session: Session) -> object:
    return session.game.evaluate_expr("hero_space", 0)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def crossing_line() -> tuple[str, ...]:
    """A line that crosses the first stage of seed 1, found by the solver."""
    session = session_at_first_plan()
    result = solve(session.game, stretch=Stretch(first_goal=True))  # type: ignore[arg-type]
    assert result.reachable and result.line[-1] == "plan:execute"
    return result.line


def test_reset_is_offered_after_a_move_and_puts_the_stage_back() -> None:
    session = session_at_first_plan()
    start = hero(session)
    assert "plan:reset" not in session.game.decision.ids  # type: ignore[union-attr]
    session.handle("act:use_top:run_or_rest#1")
    moves = [i for i in session.game.decision.ids if i != str(start)[2:]]  # type: ignore[union-attr]
    session.handle(moves[0])
    assert hero(session) != start
    assert "Reset the stage  [plan:reset]" in printed(session)
    session.handle("reset")
    assert hero(session) == start
    assert "Player 1: Reset the stage" in printed(session)
    # The card is back in play: its top action is offered again.
    assert "act:use_top:run_or_rest#1" in session.game.decision.ids  # type: ignore[union-attr]


def test_execute_locks_in_a_crossing_plan(crossing_line: tuple[str, ...]) -> None:
    session = session_at_first_plan()
    for option in crossing_line[:-1]:
        session.handle(option)
    assert "Execute the plan  [plan:execute]" in printed(session)
    session.handle("execute")
    assert session.game.evaluate_expr("stages_cleared", 0) == 1  # type: ignore[attr-defined]


def test_solve_shows_the_best_plan_from_here_and_changes_nothing(
    crossing_line: tuple[str, ...],
) -> None:
    session = session_at_first_plan()
    # Three cards of a crossing plan played: the best of what is left is a small search (a
    # whole stage's best line is minutes of searching).
    for option in crossing_line[:6]:
        session.handle(option)
    before = session.game.to_json()
    session.handle("solve you.health; you.xp")
    answer = printed(session).rsplit("Plan your moves", 1)[-1]
    assert "Goal reachable for Player 1." in answer
    assert "Execute the plan" in answer and "Objective: you.health = " in answer
    assert "lines meet the goal" in answer and "positions/s" in answer
    assert session.game.to_json() == before
