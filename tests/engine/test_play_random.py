"""``Game.play_random``: a bot's random rollout in one call of the engine.

Issue 11 asks for "MCTS with the faster engine"; a rollout's random moves are most of a
search's decisions, and each cost a round of Python calls (``pending_ids``,
``random.choice``, ``Game.choose``).  ``play_random`` makes the same moves from the same
draws, so a search with it is the search without it, only cheaper.  These tests hold it to
that: the same states, the same choices recorded, the random generator left in the same
state, on every bundled ruleset, and the same MCTS root visits.
"""

from __future__ import annotations

import ast
import doctest
import random
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.bots.agents import MCTSAgent
from rulecraft.compile.load import bundled_names

GAME_SOURCE = Path(__file__).resolve().parents[2] / "src" / "rulecraft" / "runtime" / "game.py"


def _by_choose(game: rulecraft.Game, rng: random.Random, limit: int) -> int:
    done = 0
    while done < limit and game.result is None:
        game.choose(rng.choice(game.legal_ids()))
        done += 1
    return done


@pytest.mark.parametrize("name", bundled_names())
def test_play_random_makes_the_moves_of_choose_with_random_choice(name: str) -> None:
    ruleset = rulecraft.load(name)
    for seed in range(3):
        game, twin = ruleset.new_game(seed=seed), ruleset.new_game(seed=seed)
        fast, slow = random.Random(seed), random.Random(seed)
        # in steps of 7 (a rollout's depth), to the end of the game or the decision cap
        for _ in range(game.max_decisions // 7 + 1):
            played = game.play_random(fast.getrandbits, 7)
            assert played == _by_choose(twin, slow, 7), (name, seed)
            assert game.state_hash() == twin.state_hash(), (name, seed)
            if played < 7:
                break
        assert game.result == twin.result, (name, seed)
        assert fast.getstate() == slow.getstate(), (name, seed)
        assert game.record == twin.record, (name, seed)


def test_play_random_stops_where_the_game_ends_and_records_its_choices() -> None:
    game = rulecraft.load("tictactoe").new_game(seed=0)
    played = game.play_random(random.Random(3).getrandbits, 100)
    assert game.result is not None
    assert 5 <= played <= 9  # a game of Tic-Tac-Toe: at least five marks, at most nine
    assert game.play_random(random.Random(3).getrandbits, 100) == 0
    replayed = rulecraft.Game.replay(rulecraft.load("tictactoe"), game.record)
    assert replayed.state_hash() == game.state_hash()
    assert len(game.record.choices) == played


def test_play_random_with_no_limit_plays_nothing() -> None:
    game = rulecraft.load("tictactoe").new_game(seed=0)
    before = game.state_hash()
    assert game.play_random(random.Random(0).getrandbits, 0) == 0
    assert game.state_hash() == before


class _WithoutPlayRandom:
    """A game that hides ``play_random``, so a search falls back to its own loop."""

    def __init__(self, game: rulecraft.Game) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "play_random":
            raise AttributeError(name)
        return getattr(self._game, name)

    def clone(self) -> _WithoutPlayRandom:
        return _WithoutPlayRandom(self._game.clone())

    def determinize(self, seat: int, seed: int) -> _WithoutPlayRandom:
        return _WithoutPlayRandom(self._game.determinize(seat, seed))


@pytest.mark.parametrize("name", ["radlands", "connect4"])
def test_a_search_with_play_random_is_the_search_without_it(name: str) -> None:
    ruleset = rulecraft.load(name)
    game = ruleset.new_game(seed=4)
    rng = random.Random(4)
    for _ in range(6):  # a few moves in, where the menus are wider
        game.choose(rng.choice(game.legal_ids()))
    fast = MCTSAgent(seed=9, iterations=40, rollout_depth=12)
    slow = MCTSAgent(seed=9, iterations=40, rollout_depth=12)
    visits = fast.root_visits(game)
    assert visits == slow.root_visits(_WithoutPlayRandom(game))
    assert sum(visits.values()) == 40
    assert fast.rng.getstate() == slow.rng.getstate()


def _method_docstring(path: Path, cls: str, method: str) -> tuple[str, int]:
    """A method's docstring and line, read from the source (the compiled runtime's
    classes keep none: mypyc drops docstrings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    doc = ast.get_docstring(item, clean=True)
                    assert doc is not None
                    return doc, item.lineno
    raise AssertionError(f"{cls}.{method} is not in {path}")


def test_the_docstring_example_of_play_random_runs() -> None:
    """The example runs on whichever runtime is imported (the source's, or compiled)."""
    doc, line = _method_docstring(GAME_SOURCE, "Game", "play_random")
    test = doctest.DocTestParser().get_doctest(doc, {}, "Game.play_random", str(GAME_SOURCE), line)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5
