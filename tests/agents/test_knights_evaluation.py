"""The Waste Knights evaluation that lets MCTS follow the plot (issue 11: 'MCTS knights ...
win solo adventures at least as often as the scripted plot-following knight of the tests').

rulesets/waste_knights/ruleset.yaml says why each term is there; these tests pin the
properties the search relies on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft

ROOT = Path(__file__).resolve().parents[2]
SITES = ("broken_dam", "radio_tower", "cerbero_depot")


@pytest.fixture(scope="module")
def ruleset() -> Any:
    return rulecraft.load(str(ROOT / "rulesets" / "waste_knights"))


def first_action(ruleset: Any, seed: int = 5) -> Any:
    """A solo game at its first action (setup answered with the first options)."""
    game = ruleset.new_game(players=1, seed=seed)
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    return game


@pytest.mark.parametrize("site", SITES)
def test_a_salvage_pays_even_when_the_next_location_is_far(ruleset: Any, site: str) -> None:
    """A searched location is worth 80 and each route unit to the next one costs 1, so the
    evaluation rises by 80 minus the change of the route: the farthest next location of the
    map is 26 route units away, so searching always pays."""
    game = first_action(ruleset)
    before, gap_before = game.evaluate(0), game.evaluate_expr("goal_gap(you)", 0)
    game.arrange(cards={f"{site}#1": {"flags": ["searched"]}})
    after, gap_after = game.evaluate(0), game.evaluate_expr("goal_gap(you)", 0)
    assert after - before == 80 - (gap_after - gap_before)
    assert after - before >= 80 - 26 > 0


def test_a_part_and_a_step_towards_the_plot_count(ruleset: Any) -> None:
    """A part is worth 30; the route to the next location costs 1 per unit."""
    game = first_action(ruleset)
    before = game.evaluate(0)
    game.arrange(game={"resources": {"parts": 1}})
    assert game.evaluate(0) - before == 30
    assert game.evaluate(0) == 30 - game.evaluate_expr("goal_gap(you)", 0) + game.evaluate_expr(
        "you.xp", 0
    )


def test_the_time_marker_is_not_in_the_evaluation(ruleset: Any) -> None:
    """The marker moves when a round begins; had it a weight, a search would see a Done at
    the plot location, which ends the turn, as a loss and drive past it."""
    game = first_action(ruleset)
    before = game.evaluate(0)
    game.arrange(game={"resources": {"time": 8}})
    assert game.evaluate_expr("time", 0) == 8
    assert game.evaluate(0) == before


def test_the_scale_gives_a_route_unit_a_fifth(ruleset: Any) -> None:
    assert first_action(ruleset).evaluation_scale == 5
