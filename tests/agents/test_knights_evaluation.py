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
#: What one route unit to the next plot location costs (the evaluation's unit).
ROUTE_UNIT = 5


@pytest.fixture(scope="module")
def ruleset() -> Any:
    return rulecraft.load(str(ROOT / "rulesets" / "waste_knights"))


def first_action(ruleset: Any, seed: int = 5) -> Any:
    """A solo game at its first action (setup answered with the first options: Johnny)."""
    game = ruleset.new_game(players=1, seed=seed)
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    return game


@pytest.mark.parametrize("site", SITES)
def test_a_salvage_pays_even_when_the_next_location_is_far(ruleset: Any, site: str) -> None:
    """A searched location is worth 400 and each route unit to the next one costs 5, so the
    evaluation rises by 400 minus 5 times the change of the route: the farthest next
    location of the map is 26 route units away, so searching always pays."""
    game = first_action(ruleset)
    before, gap_before = game.evaluate(0), game.evaluate_expr("goal_gap(you)", 0)
    game.arrange(cards={f"{site}#1": {"flags": ["searched"]}})
    after, gap_after = game.evaluate(0), game.evaluate_expr("goal_gap(you)", 0)
    assert after - before == 400 - ROUTE_UNIT * (gap_after - gap_before)
    assert after - before >= 400 - ROUTE_UNIT * 26 > 0


def test_a_part_and_a_step_towards_the_plot_count(ruleset: Any) -> None:
    """A part is worth 150; the route to the next location costs 5 a unit; Johnny's chance
    to raise the Rainmaker counts 15 a percent; XP 5 a point; each round 25."""
    game = first_action(ruleset)
    before = game.evaluate(0)
    game.arrange(game={"resources": {"parts": 1}})
    assert game.evaluate(0) - before == 150
    gap = game.evaluate_expr("goal_gap(you)", 0)
    chance = game.evaluate_expr("raise_chance(you)", 0)
    xp, time = game.evaluate_expr("you.xp", 0), game.evaluate_expr("time", 0)
    expected = 150 - ROUTE_UNIT * gap + 15 * chance + 5 * xp - 25 * time
    assert game.evaluate(0) == pytest.approx(expected)


def test_each_round_costs_a_scale_unit(ruleset: Any) -> None:
    """The adventure is lost when the Time Marker reaches 10, so a round spent costs 25
    (a fifth of a Move's worth of route, one unit of the scale): a turn of Camp and Explore
    scores below a turn that also drives on.  The marker moves when a round begins, so a
    search must score positions between actions (quiet cut-offs, ``/q``), or a Done at the
    plot location, which ends the turn sooner, would look worse than another step."""
    game = first_action(ruleset)
    before = game.evaluate(0)
    game.arrange(game={"resources": {"time": 8}})
    assert game.evaluate_expr("time", 0) == 8
    assert game.evaluate(0) == before - 25 * 7


def test_the_scale_gives_a_route_unit_a_fifth(ruleset: Any) -> None:
    assert first_action(ruleset).evaluation_scale == 5 * ROUTE_UNIT


def test_the_knight_who_can_raise_the_rainmaker_scores_best(ruleset: Any) -> None:
    """Entry 30 tests tech (3), or charisma (2) once a Parley is done: only Johnny (tech
    1 blue + 1 green, 8.33%) can win without a Parley, so a search choosing a knight one
    step ahead picks him; the other knights score alike."""
    game = ruleset.new_game(players=1, seed=5)
    assert game.decision is not None and game.decision.prompt.startswith("Choose your knight")
    scores = {}
    for option in game.decision.ids:
        trial = game.clone()
        trial.choose(option)
        scores[option] = trial.evaluate(0)
    assert max(scores, key=scores.__getitem__) == "johnny#1"
    others = {v for k, v in scores.items() if k != "johnny#1"}
    assert len(others) == 1
    assert scores["johnny#1"] - others.pop() == pytest.approx(15 * 8.33)


def test_a_parley_counts_the_charisma_chance(ruleset: Any) -> None:
    """'Call the monks to pray for rain' (charisma 2) needs a knight who met the ghost."""
    game = first_action(ruleset)
    assert game.evaluate_expr("raise_chance(you)", 0) == pytest.approx(8.33)
    game.arrange(players={0: {"flags": ["met_ghost"]}})
    charisma = game.evaluate_expr("chance(knight_of(you).charisma, success >= 2)", 0)
    assert game.evaluate_expr("raise_chance(you)", 0) == max(8.33, charisma)


def test_with_every_part_in_only_a_knock_out_is_harm(ruleset: Any) -> None:
    """Once the three parts are in, only tries at the Dry Lake win: a failed try costs 2
    Wounds (entry 31), which no longer count, so the search tries again rather than
    camping; a knock-out (which stops the tries) still costs 50 (and 50 before, too)."""
    game = first_action(ruleset)
    game.arrange(game={"resources": {"parts": 3}})
    before = game.evaluate(0)
    game.arrange(players={0: {"resources": {"wounds": 2, "radiation": 1}}})
    assert game.evaluate(0) == before
    game.arrange(players={0: {"flags": ["unconscious"]}})
    assert game.evaluate(0) == before - 50
    early = first_action(ruleset)
    start = early.evaluate(0)
    early.arrange(players={0: {"resources": {"wounds": 2}}})
    assert early.evaluate(0) == start - 5 * 2


def test_a_helper_die_doubles_johnnys_chance(ruleset: Any) -> None:
    """Jack of All Trades ('When making any test (except in combat), you may gain 1 white
    die'), face up: tech 1 blue + 1 green + 1 white makes 3 successes 16.67% of the time,
    so the evaluation rises by 15 * 8.33 when Johnny takes it; declaring the die counts 25,
    so the search declares it before the roll."""
    game = first_action(ruleset)
    before = game.evaluate(0)
    game.arrange(
        zones={"upgrades": {0: ["jack_of_all_trades#1"]}},
        cards={"jack_of_all_trades#1": {"side": "face"}},
    )
    assert game.evaluate_expr("raise_chance(you)", 0) == pytest.approx(16.67)
    assert game.evaluate(0) - before == pytest.approx(15 * (16.67 - 8.33))
    declared = game.evaluate(0)
    game.arrange(players={0: {"flags": ["bonus_declared"]}})
    assert game.evaluate(0) - declared == 25


def test_being_ready_at_the_dry_lake_counts_100(ruleset: Any) -> None:
    """With the three parts in, the Dry Lake is where each turn can win: its route costs
    15 a unit (three times a route before, against the Wasteland cards of the way) and
    being there counts 100, so the search drives there and stays."""
    game = first_action(ruleset)
    game.arrange(game={"resources": {"parts": 3}})
    away = game.evaluate(0) + 3 * ROUTE_UNIT * game.evaluate_expr("goal_gap(you)", 0)
    figure = game.evaluate_expr("first(here(you).pieces where it.kind == figure)", 0)
    lake = game.evaluate_expr("first(dry_lake).space", 0)
    game.arrange(zones={"6,4": [figure]}, players={0: {"fields": {"hex": lake}}})
    assert game.evaluate_expr("goal_gap(you)", 0) == 0
    assert game.evaluate_expr("ready_at_the_lake(you)", 0)
    assert game.evaluate(0) - away == 100
