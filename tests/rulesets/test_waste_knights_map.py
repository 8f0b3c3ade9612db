"""Waste Knights: the danger icons of the authored map (rulebook, Move: "the knight must
resolve the icons")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft

RULESET = Path(__file__).resolve().parents[2] / "rulesets" / "waste_knights"


@pytest.fixture(scope="module")
def ruleset() -> Any:
    return rulecraft.load(str(RULESET))


def test_a_radiation_icon_deals_radiation_not_a_threat_token(ruleset: Any) -> None:
    """'If the knight's route goes through such a space, the knight must resolve the icons':
    the radiation icon at 5,1 gives 1 Radiation.  (Its enum value was once named like the
    `radiation` resource, so both `d.icon` and `radiation` read the knight's Radiation: the
    test held only by accident, and the icon printed as a number; RC223 now warns.)"""
    game = ruleset.new_game(players=1, seed=5)
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    if game.decision.prompt.startswith("Prepare"):
        game.choose("pass")
    here = "space_at(5, 1).pieces where it.kind == danger"
    assert game.evaluate_expr(f"count({here} and it.icon == radioactive)", 0) == 1
    assert game.evaluate_expr(f"first({here}).icon", 0) == "radioactive"
    game.choose("act:move")
    assert game.evaluate_expr("you.radiation", 0) == 0
    threats = game.evaluate_expr("count(threats)", 0)
    game.choose("5,1")
    assert game.evaluate_expr("you.radiation", 0) == 1
    assert game.evaluate_expr("count(threats)", 0) == threats
    assert "Radiation icon." in game.log


def test_the_bots_evaluation_pulls_towards_the_next_plot_location(ruleset: Any) -> None:
    """The evaluation (authored, for bots) measures the route to the nearest part still to
    salvage (3 per MP of terrain, 1 per space): from Dustwater (4,2) the Broken Dam (1,1)
    is 6 spaces round the craters for 2 MP (12), and the nearest is the Radio Tower."""
    game = ruleset.new_game(players=1, seed=5)
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    assert game.evaluation_scale == 25  # the evaluation: tests/agents/test_knights_evaluation.py
    assert game.evaluate_expr("here(you)", 0) == "s:4,2"
    assert game.evaluate_expr("part_gap(you, broken_dam)", 0) == 12
    assert game.evaluate_expr("count(path(here(you), first(broken_dam).space))", 0) == 7
    gaps = [game.evaluate_expr(f"part_gap(you, {s})", 0) for s in ("radio_tower", "cerbero_depot")]
    assert game.evaluate_expr("goal_gap(you)", 0) == min(gaps) == gaps[0] < 12
    game.arrange(cards={"radio_tower#1": {"flags": ["searched"]}})  # its part is in
    assert game.evaluate_expr("goal_gap(you)", 0) == min(12, gaps[1])


def test_a_knight_without_fuel_can_leave_a_desert_site(ruleset: Any) -> None:
    """'MP are provided by the knight's Vehicle, their number equal to the vehicle's Speed':
    a knight at the Cerbero Depot (8,6), every neighbour desert (1 MP) or a crater, with no
    Fuel, may still Move (the condition once read the MP, which are 0 between Moves)."""
    game = ruleset.new_game(players=1, seed=5)
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    figure = game.evaluate_expr("first(here(you).pieces where it.kind == figure)", 0)
    game.arrange(
        zones={"8,6": [figure]},
        players={
            0: {"resources": {"fuel": 0}, "fields": {"hex": game.evaluate_expr("space_at(8, 6)")}}
        },
    )
    if game.decision is not None and game.decision.prompt.startswith("Prepare"):
        game.choose("pass")
    assert "act:move" in game.legal_ids()
    game.choose("act:move")
    assert "7,6" in game.legal_ids() and "8,5" not in game.legal_ids()  # 8,5 is a crater
