"""Bots, simulator and conformance checker on every bundled ruleset, through the real engine.

Two levels, as OpenSpiel's RandomSimTest does it: a few games with every check at every
decision (clone, JSON round trip, views, hidden ids, undo), and 200 seeded random games per
ruleset with the cheap checks (legal options, unique ids, the declared bound, a result).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime import engine
from rulecraft.runtime.protocols import GameLike
from rulecraft.tools.conformance import check_random_games
from rulecraft.tools.simulate import RulesetGameFactory, simulate

RULESETS = sorted(p.parent for p in (Path(__file__).parents[2] / "rulesets").glob("*/ruleset.yaml"))


def test_there_are_bundled_rulesets() -> None:
    assert {p.name for p in RULESETS} >= {"tictactoe", "sparks"}


def _players(ruleset: rulecraft.Ruleset) -> int:
    prog = ruleset.program
    return max(prog.min_players, min(2, prog.max_players))


def _hidden_ids(game: Any, seat: int) -> list[str]:
    ctx = game._ctx()
    return [cid for cid in game.state["comps"] if not engine.visible_to(ctx, cid, seat)]


#: Rulesets whose random games run to hundreds of decisions with long menus.
LONG_GAMES = frozenset({"waylanders", "wasteland_express"})


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_bundled_ruleset_conforms(path: Path) -> None:
    ruleset = rulecraft.load(path)

    def round_trip(game: GameLike) -> GameLike:
        data = json.loads(json.dumps(game.to_json()))  # type: ignore[attr-defined]
        restored: GameLike = type(game).from_json(ruleset, data)  # type: ignore[attr-defined]
        return restored

    factory = RulesetGameFactory(str(path), _players(ruleset))
    # Every check at every decision replays the game for the JSON round trip: quadratic in
    # its length, so the longest games (hundreds of decisions) are checked over a prefix.
    stop = 150 if path.name in LONG_GAMES else None
    problems = check_random_games(
        factory,
        n_games=3,
        seed=0,
        round_trip=round_trip,
        hidden_ids=_hidden_ids,
        stop_after=stop,
    )
    assert problems == []


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_two_hundred_random_games_end_within_their_bound(path: Path) -> None:
    ruleset = rulecraft.load(path)
    players = _players(ruleset)
    bound = ruleset.program.max_decisions
    start = {seed: ruleset.new_game(players=players, seed=seed) for seed in range(1)}
    # 200 games each; the longest rulesets (about a CPU second a game) play 20 here, and
    # their 200-game runs are measured in their docs pages.
    for seed in range(20 if path.name in LONG_GAMES else 200):
        game = (start.get(seed) or ruleset.new_game(players=players, seed=seed)).clone()
        rng = random.Random(seed)
        decisions = 0
        while game.result is None:
            ids = game.legal_ids()
            assert ids, f"seed {seed}: a game that is not over offers no option"
            assert len(set(ids)) == len(ids), f"seed {seed}: duplicate option ids {ids}"
            game.choose(rng.choice(ids))
            decisions += 1
            assert decisions <= bound, f"seed {seed}: more than {bound} decisions"
        assert game.decision is None


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_bots_finish_bundled_ruleset_games(path: Path, tmp_path: Path) -> None:
    ruleset = rulecraft.load(path)
    players = _players(ruleset)
    factory = RulesetGameFactory(str(path), players)
    # A solo game has one seat: each bot plays it on its own; a game of 3 or more seats
    # (Tricks) fills the seats after the greedy one with random bots.
    mixed = ["random", "greedy"] + ["random"] * (players - 2)
    lineups = [mixed] if players > 1 else [["random"], ["greedy"]]
    for agents in lineups:
        report = simulate(factory, 3, agents, seed=0, errors_dir=tmp_path)
        assert [e.error for e in report.errors] == []
        assert report.finished == 3
