"""The generic solver (rulecraft.tools.solver) and `rulecraft solve`, on a small puzzle.

The coin maze (fixtures/coin_maze) is small enough to solve by hand: the hero needs 5
steps from a1 to the exit d3 with 5 energy; the two shortest routes pass the walls b2 and
c2 above (one coin, c1) or below (two coins, a3 and b3), and no 5-step route takes both.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import rulecraft
from rulecraft.cli.main import main
from rulecraft.runtime.game import Game
from rulecraft.tools.solver import Stretch, StretchRefused, solve

MAZE = Path(__file__).parent / "fixtures" / "coin_maze"
LOWER = ("act:step:a2", "act:step:a3", "act:step:b3", "act:step:c3", "act:step:d3")
UPPER = ("act:step:b1", "act:step:c1", "act:step:d1", "act:step:d2", "act:step:d3")


@pytest.fixture(scope="module")
def maze() -> rulecraft.Ruleset:
    return rulecraft.load(MAZE)


def test_best_line_takes_the_route_with_more_coins(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game(seed=1)
    result = solve(game, stretch=Stretch(objective=("count(you.purse)",)))
    assert result.reachable and result.complete
    assert result.line == LOWER
    assert result.labels[0] == "Step: a2"
    assert result.objective == (2.0,)
    assert result.end.startswith("game over")
    # Exactly the two shortest routes reach the exit: any detour runs out of energy.
    assert result.goal_lines == 2
    assert result.lines > result.goal_lines
    # Stepping out and back (a1-b1-a1, a1-a2-a1) meets the same position twice.
    assert result.transpositions > 0
    assert result.nodes > 0 and result.nodes_per_second > 0


def test_the_objective_decides_between_winning_lines(maze: rulecraft.Ruleset) -> None:
    fewer = solve(maze.new_game(seed=1), stretch=Stretch(objective=("0 - count(you.purse)",)))
    assert fewer.line == UPPER
    assert fewer.objective == (-1.0,)


def test_a_goal_no_line_meets_is_not_reachable(maze: rulecraft.Ruleset) -> None:
    assert solve(maze.new_game(), stretch=Stretch(goal="count(you.purse) >= 2")).reachable
    three = solve(maze.new_game(), stretch=Stretch(goal="count(you.purse) >= 3"))
    assert not three.reachable and three.complete and three.goal_lines == 0


def test_the_search_leaves_the_game_unchanged(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game(seed=2)
    game.choose("act:step:a2")
    before = game.state_hash()
    result = solve(game)
    assert game.state_hash() == before
    # From a2 only the lower route still reaches the exit in the 4 steps left.
    assert result.line == LOWER[1:]


def test_a_node_bound_cuts_the_search_and_says_so(maze: rulecraft.Ruleset) -> None:
    result = solve(maze.new_game(), stretch=Stretch(max_nodes=3))
    assert not result.complete
    assert "not proven" in result.summary()


def test_another_seats_turn_ends_the_stretch() -> None:
    game = rulecraft.load("tictactoe").new_game(players=2, seed=1)
    result = solve(game)
    assert result.end == "Player 2 decides"
    assert len(result.line) == 1 and result.lines == 9


def test_refuses_a_position_where_another_seat_decides() -> None:
    game = rulecraft.load("tictactoe").new_game(players=2, seed=1)
    with pytest.raises(StretchRefused, match="Player 1 decides here, not Player 2"):
        solve(game, seat=1)


def test_refuses_a_finished_game(maze: rulecraft.Ruleset) -> None:
    game = maze.new_game()
    for option in LOWER:
        game.choose(option)
    with pytest.raises(StretchRefused, match="nobody has to decide"):
        solve(game)


def test_refuses_chance_inside_the_stretch(tmp_path: Path) -> None:
    folder = tmp_path / "dice_maze"
    shutil.copytree(MAZE, folder)
    rules = folder / "rules.rcl"
    rules.write_text(
        rules.read_text().replace("    spend 1 energy\n", "    spend 1 energy\n    roll 1 d6\n")
    )
    game = rulecraft.load(folder).new_game()
    with pytest.raises(StretchRefused, match="chance decides inside the stretch"):
        solve(game)


def test_a_bad_objective_is_reported_before_searching(maze: rulecraft.Ruleset) -> None:
    with pytest.raises(ValueError, match="RC201"):
        solve(maze.new_game(), stretch=Stretch(objective=("no_such_name",)))
    with pytest.raises(ValueError, match="not a number"):
        solve(maze.new_game(), stretch=Stretch(objective=('"text"',)))


def test_cli_prints_the_best_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", str(MAZE), "--objective", "count(you.purse)"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Goal reachable for Player 1." in out
    assert "1. Step: a2" in out and "count(you.purse) = 2" in out
    assert "positions/s" in out


def test_cli_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(MAZE), "--goal", "count(you.purse) >= 3"]) == 1
    assert main(["solve", str(MAZE), "--objective", "nope"]) == 2
    assert "RC201" in capsys.readouterr().err
    assert main(["solve", "tictactoe", "--max-nodes", "0"]) == 2


def test_cli_solves_from_a_save(
    maze: rulecraft.Ruleset, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = maze.new_game()
    game.choose("act:step:b1")
    save = tmp_path / "game.json"
    game.save(save)
    assert Game.load_file(maze, save).state_hash() == game.state_hash()
    code = main(["solve", str(MAZE), "--save", str(save), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["line"] == list(UPPER[1:])
    assert data["goal_lines"] == 1


def test_module_doctests() -> None:
    import doctest

    import rulecraft.tools.solver as solver_module

    failures, tried = doctest.testmod(solver_module)
    assert tried > 0 and failures == 0


def test_first_goal_stops_at_a_proof(maze: rulecraft.Ruleset) -> None:
    full = solve(maze.new_game())
    first = solve(maze.new_game(), stretch=Stretch(first_goal=True))
    assert first.reachable and not first.complete
    assert first.nodes < full.nodes
    assert "proves it" in first.summary()
    # The line it found really meets the goal when played.
    game = maze.new_game()
    for option in first.line:
        game.choose(option)
    assert game.result is not None and game.result.winners == (0,)
