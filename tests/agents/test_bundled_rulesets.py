"""Bots, simulator and conformance checker on the bundled rulesets, through the real engine.

Skipped until ``rulecraft.load`` exists and ``rulesets/`` holds a ruleset: the fake games
cover the machinery; this is where the engine's Game meets it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.interpreter.conformance import check_random_games
from rulecraft.interpreter.protocols import GameLike
from rulecraft.interpreter.simulator import RulesetGameFactory, simulate

RULESETS = sorted(p.parent for p in (Path(__file__).parents[2] / "rulesets").glob("*/ruleset.yaml"))

pytestmark = pytest.mark.skipif(
    not hasattr(rulecraft, "load") or not RULESETS,
    reason="the engine (rulecraft.load) or the bundled rulesets are not there yet",
)


def _load(path: Path) -> Any:
    load: Any = rulecraft.load  # type: ignore[attr-defined,unused-ignore]
    return load(str(path))


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_bundled_ruleset_conforms(path: Path) -> None:
    ruleset = _load(path)

    def round_trip(game: GameLike) -> GameLike:
        data = json.loads(json.dumps(game.to_json()))  # type: ignore[attr-defined]
        restored: GameLike = type(game).from_json(ruleset, data)  # type: ignore[attr-defined]
        return restored

    factory = RulesetGameFactory(str(path), 2)
    assert check_random_games(factory, n_games=2, seed=0, round_trip=round_trip) == []


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_bots_finish_bundled_ruleset_games(path: Path, tmp_path: Path) -> None:
    factory = RulesetGameFactory(str(path), 2)
    report = simulate(factory, 3, ["random", "greedy"], seed=0, errors_dir=tmp_path)
    assert [e.error for e in report.errors] == []
    assert report.finished == 3
