"""Root-parallel MCTS (issue 11: "Bots that use it: ... root parallelism over workers"):
``mcts:N/pK`` runs K searches of N iterations in K processes and plays the option with the
most visits summed over them (rulecraft.bots.root_parallel)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import rulecraft
from rulecraft.bots import root_parallel
from rulecraft.bots.agents import MCTSAgent, make_agent
from rulecraft.bots.root_parallel import RootParallelMCTS
from rulecraft.runtime.game import Game
from rulecraft.tools.simulate import RulesetGameFactory, simulate


@pytest.fixture()
def two_processes() -> Iterator[RootParallelMCTS]:
    agent = make_agent("mcts:60/p2", 5)
    assert isinstance(agent, RootParallelMCTS)
    yield agent
    agent.close()


def _x_to_win() -> Game:
    """Tic-Tac-Toe, X to move with a1 and a2 taken: a3 completes the column."""
    game = rulecraft.load("tictactoe").new_game(seed=1)
    for square in ("a1", "b1", "a2", "b3"):
        game.choose(f"act:place:{square}")
    return game


def test_the_spec_names_the_processes() -> None:
    agent = make_agent("mcts:40/d10/p3", 0)
    assert isinstance(agent, RootParallelMCTS)
    assert (agent.workers, agent.base.iterations, agent.base.rollout_depth) == (3, 40, 10)
    assert agent.name == "mcts:40/d10/p3" and make_agent(agent.name, 0).name == agent.name
    assert isinstance(make_agent("mcts:40/p1", 0), MCTSAgent)  # one process: the plain search
    with pytest.raises(ValueError, match="mcts:40/p0"):
        make_agent("mcts:40/p0", 0)


def test_the_visits_of_every_process_are_summed(two_processes: RootParallelMCTS) -> None:
    game = _x_to_win()
    assert two_processes.choose(game) == "act:place:a3"
    assert sum(two_processes.last_visits.values()) == 2 * 60


def test_processes_give_the_answer_the_same_searches_give_in_one_process(
    two_processes: RootParallelMCTS, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers rebuild the game from its state: they must search the same position."""
    game = rulecraft.load("tictactoe").new_game(seed=4)
    game.choose("act:place:b2")
    chosen = two_processes.choose(game)
    in_processes = dict(two_processes.last_visits)
    monkeypatch.setattr(root_parallel, "_ruleset_folder", lambda _game: None)
    alone = make_agent("mcts:60/p2", 5)
    assert isinstance(alone, RootParallelMCTS)
    assert alone.choose(game) == chosen
    assert alone.last_visits == in_processes
    assert alone._pool is None  # it never started a process


def test_a_simulation_gives_the_same_report_with_one_or_two_workers() -> None:
    """Inside a simulation worker (a daemon process, which may not start processes) the
    searches run one after the other: the same games either way."""
    factory = RulesetGameFactory("tictactoe")
    reports = [
        simulate(factory, 2, ["mcts:20/p2", "random"], seed=3, workers=w, errors_dir=None)
        for w in (1, 2)
    ]
    one, two = (r.to_json() for r in reports)
    one.pop("elapsed_s", None)
    two.pop("elapsed_s", None)
    assert one == two
