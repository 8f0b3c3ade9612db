"""Planning with reset (a phase's `plan:` key in the manifest), on the plan-maze fixture.

The walker has 9 energy and at most 5 steps in the plan; execute is offered only on the
exit d3 (`execute_if`), reset once a step was taken; the next phase wins the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulecraft
from rulecraft.runtime.game import Game
from rulecraft.runtime.plan import EXECUTE_ID, RESET_ID
from rulecraft.tools.solver import Stretch, solve

MAZE = Path(__file__).parent / "fixtures" / "plan_maze"
LOWER = ("act:step:a2", "act:step:a3", "act:step:b3", "act:step:c3", "act:step:d3")


@pytest.fixture(scope="module")
def maze() -> rulecraft.Ruleset:
    return rulecraft.load(MAZE)


def _position(game: Game) -> dict[str, object]:
    """What a reset must put back: everything the seat sees, and what it may choose."""
    return {"view": game.view(0), "ids": game.legal_ids(), "rng": list(game.state["rng"])}


def test_reset_is_offered_once_something_was_done(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game()
    assert game.legal_ids() == ["act:step:b1", "act:step:a2"]  # no reset, no execute, no pass
    game.choose("act:step:a2")
    assert RESET_ID in game.legal_ids()
    assert game.decision is not None
    assert game.decision.option(RESET_ID).label == "Start over"


def test_reset_restores_the_plans_start(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game()
    start = _position(game)
    for option in LOWER[:3]:  # two coins picked up, 3 energy spent
        game.choose(option)
    assert game.evaluate_expr("count(you.purse)") == 2
    assert game.evaluate_expr("you.energy") == 6
    game.choose(RESET_ID)
    assert _position(game) == start
    assert game.evaluate_expr("count(you.purse)") == 0
    assert game.evaluate_expr("you.energy") == 9
    assert game.log[-1] == "Player 1: Start over"
    # Every decision still counts towards the game's length.
    assert game.state["decisions"] == 4


def test_execute_needs_its_condition_and_ends_the_phase(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game()
    for option in LOWER[:4]:
        game.choose(option)
        assert EXECUTE_ID not in game.legal_ids()
    game.choose(LOWER[4])
    # The 5 steps are used up: only the plan's own options are left.
    assert game.legal_ids() == [EXECUTE_ID, RESET_ID]
    game.choose(EXECUTE_ID)
    assert game.result is not None and game.result.winners == (0,)
    assert "plan" not in game.state
    assert "Player 1: Walk it" in game.log


def test_used_up_steps_away_from_the_exit_leave_only_reset(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game()
    for option in ("act:step:b1", "act:step:a1", "act:step:b1", "act:step:a1", "act:step:b1"):
        game.choose(option)
    assert game.legal_ids() == [RESET_ID]


def test_a_save_made_mid_plan_resets_to_the_same_start(
    maze: rulecraft.Ruleset, tmp_path: Path
) -> None:
    game = maze.new_game()
    start = _position(game)
    game.choose("act:step:a2")
    path = tmp_path / "mid.json"
    game.save(path)
    loaded = Game.load_file(maze, path)
    loaded.choose(RESET_ID)
    assert _position(loaded) == start


def test_undo_and_replay_go_through_resets(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game(seed=4)
    for option in ("act:step:b1", RESET_ID, *LOWER):
        game.choose(option)
    replayed = Game.replay(maze, game.record)
    assert replayed.state_hash() == game.state_hash()
    game.undo(5)
    assert game.legal_ids() == ["act:step:b1", "act:step:a2"]


def test_views_do_not_show_the_snapshot(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game()
    game.choose("act:step:a2")
    assert "plan" in game.state  # the snapshot lives in the state (saves keep it) ...
    view = json.dumps(game.view(0))
    assert "plan" not in game.view(0) and '"state"' not in view  # ... but views omit it


def test_the_solver_searches_inside_the_plan_without_resetting(
    maze: rulecraft.Ruleset,
) -> None:
    game = maze.new_game()
    game.choose("act:step:b1")
    result = solve(game, stretch=Stretch(objective=("count(you.purse)",)))
    assert result.reachable
    assert RESET_ID not in result.line
    # From b1 the upper route is the only one to the exit in the 4 steps left.
    assert result.line == ("act:step:c1", "act:step:d1", "act:step:d2", "act:step:d3", EXECUTE_ID)
    assert result.objective == (1.0,)


def test_the_plan_ends_the_stretch_when_the_game_goes_on(
    maze: rulecraft.Ruleset, tmp_path: Path
) -> None:
    # Without the winning phase, executing leads to the next turn's plan: a new stretch.
    folder = tmp_path / "plan_maze"
    folder.mkdir()
    (folder / "rules.rcl").write_text((MAZE / "rules.rcl").read_text())
    manifest = (MAZE / "ruleset.yaml").read_text()
    manifest = manifest.replace("    - name: arrive\n      do: |\n        win\n", "")
    (folder / "ruleset.yaml").write_text(manifest)
    game = rulecraft.load(folder).new_game()
    result = solve(game)
    assert result.end == "plan executed"
    assert result.line[-1] == EXECUTE_ID and len(result.line) == 6


def test_the_repl_hook_shows_the_best_plan(maze: rulecraft.Ruleset) -> None:
    from rulecraft.tools.solver import repl_solve

    game = maze.new_game()
    game.choose("act:step:a2")
    text = repl_solve(game, 0, "count(you.purse); you.energy")
    assert "Goal reachable for Player 1." in text
    assert "1. Step: a3" in text and "6. Walk it" not in text and "5. Walk it" in text
    assert "count(you.purse) = 2, you.energy = 4" in text
    assert repl_solve(game, 0, "nope").startswith("Cannot solve: ")
    game.choose(RESET_ID)
    for option in LOWER:
        game.choose(option)
    game.choose(EXECUTE_ID)
    assert repl_solve(game, 0, "").startswith("Cannot solve from here: nobody has to decide")


def test_max_resets_bounds_the_resets_of_one_plan(tmp_path: Path) -> None:
    folder = tmp_path / "plan_maze"
    folder.mkdir()
    (folder / "rules.rcl").write_text((MAZE / "rules.rcl").read_text())
    manifest = (MAZE / "ruleset.yaml").read_text()
    (folder / "ruleset.yaml").write_text(
        manifest.replace(
            "        reset_label: Start over\n",
            "        reset_label: Start over\n        max_resets: 2\n",
        )
    )
    game = rulecraft.load(folder).new_game()
    for _ in range(2):
        game.choose("act:step:a2")
        game.choose(RESET_ID)
    game.choose("act:step:a2")
    assert RESET_ID not in game.legal_ids()  # the third reset is not offered
    assert game.state["plan"]["resets"] == 2
