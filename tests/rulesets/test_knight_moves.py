"""Knight Moves (rulesets/knight_moves): scenario tests citing the rulebook
(/work/shared/seeds/002_f02ebf682354e524.txt, quoted) and the solver's proof that every
authored stage can be crossed.

Each test starts a stage through the same doors a player uses: a new game, the stage and
the display arranged (Game.arrange), the hero chosen, then action cards played by id.
Coordinates: a1 is the top left space, e5 the bottom right.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime.game import Game
from rulecraft.runtime.plan import EXECUTE_ID, RESET_ID
from rulecraft.tools.solver import Stretch, solve

BASICS = (
    "step_or_stride#1",  # any 1 | orthogonal 2
    "dash_or_sidestep#1",  # orthogonal 3 | diagonal 1
    "charge_or_brace#1",  # orthogonal 2 | +1 strength, any 1
    "leap_or_step#1",  # knight jump | any 1
    "run_or_rest#1",  # any 2 | +1 health, stay
)
WREN = "opt2"  # "Wren, the Bowmaster": 2 health, 2 strength, 2 range
BRAND = "opt1"  # "Sir Brand, the Knight": 4 health, 2 strength, 1 range
STANDARD = "opt1"  # "Which game?": a standard game (opt2: a campaign)
CAMPAIGN = "opt2"


@pytest.fixture(scope="module")
def rules() -> rulecraft.Ruleset:
    return rulecraft.load("knight_moves")


STAGE_01_FOES = ["bomb_goblin#1", "sword_goblin#1", "archer_goblin#1"]


def start(
    rules: rulecraft.Ruleset,
    stage: str = "stage_01",
    side: str = "normal",
    hero: str = WREN,
    pieces: dict[str, list[str]] | None = None,
    foes: list[str] | None = None,
    last_stage: bool = False,
) -> Game:
    """A game at the plan of ``stage`` (its first stage), with the five basic cards above.

    With ``foes``, Stage 1-1's three goblins leave and only the enemies listed (placed by
    ``pieces``) stand on the stage: a bare board for one rule at a time. With
    ``last_stage``, the stage deck holds that stage alone (the boss stage ends a deck)."""
    game = rules.new_game(seed=1)
    deck: Any = [f"{stage}#1"]
    if last_stage:
        deck = {"cards": deck, "others_to": "stage_box"}
    game.arrange(
        zones={
            "stage_deck": deck,
            "display": {"cards": list(BASICS), "others_to": "draw_pile"},
        },
        cards={f"{stage}#1": {"side": side}},
    )
    game.choose(hero)
    game.choose(STANDARD)
    zones: dict[str, list[str]] = {}
    if foes is not None:
        zones["enemy_pool"] = list(STAGE_01_FOES)
    zones.update(pieces or {})
    if zones:
        game.arrange(zones=zones)
    if foes is not None:
        game.arrange(players={0: {"fields": {"foes_on": foes}}})
    return game


def value(game: Game, expr: str) -> Any:
    return game.evaluate_expr(expr, 0)


def play(game: Game, *options: str) -> None:
    for option in options:
        game.choose(option)


def test_the_fighting_example(rules: rulecraft.Ruleset) -> None:
    """Rulebook, Fighting Example: "You are the Bowmaster, who has 2 Health, 2 Strength,
    and 2 Range" against the Bomb (c1), Sword (c4) and Archer (e3) goblins."""
    game = start(rules)
    assert value(game, "[you.health, you.strength, you.reach]") == [2, 2, 2]
    # 1. "You move into this Bomb Goblin's range - both it and the Sword Goblin below are
    # also now within your attack range. You can only attack one".
    play(game, "act:use_top:dash_or_sidestep#1", "c2")
    assert set(game.legal_ids()) == {"sword_goblin#1", "bomb_goblin#1"}
    # "you decide to attack the Bomb Goblin, dealing 2 DMG and defeating it so that it
    # won't attack back at all. You gain 1 XP for this!"
    game.choose("bomb_goblin#1")
    assert value(game, "first(bomb_goblin).zone == defeated")
    assert value(game, "[you.health, you.xp]") == [2, 1]
    # 2. "choose to move 0 spaces and attack the Sword Goblin. It takes 2 DMG, but has 3
    # Health ... since you are outside of its attack range, you take no DMG."
    play(game, "act:use_top:step_or_stride#1", "c2")
    assert value(game, "first(sword_goblin).wounds") == 2
    assert value(game, "[you.health, you.xp]") == [2, 1]
    # 3. "move further down so that both the Sword Goblin and Archer Goblin are within your
    # range ... finish off the Sword Goblin ... gain another 1 XP ... take 1 DMG from the
    # Archer Goblin because you are within its attack range."
    play(game, "act:use_top:charge_or_brace#1", "c3")
    assert set(game.legal_ids()) == {"sword_goblin#1", "archer_goblin#1"}
    game.choose("sword_goblin#1")
    assert value(game, "[you.health, you.xp]") == [1, 2]
    assert "Archer Goblin hits the hero." in game.log


def test_reset_returns_the_tracks(rules: rulecraft.Ruleset) -> None:
    """Plan: "If you increase any of your Hero tracks ... when planning and then decide to
    reset, remember to return all your Hero tracks to their previous positions"."""
    game = start(rules)
    play(game, "act:use_top:dash_or_sidestep#1", "c2", "bomb_goblin#1")
    play(game, "act:use_bottom:run_or_rest#1")  # +1 health, stay (and fight the sword)
    assert value(game, "[you.health, you.xp]") == [3, 1]
    game.choose(RESET_ID)
    assert value(game, "[you.health, you.xp]") == [2, 0]
    assert value(game, "first(bomb_goblin).space") == "s:c1"
    assert value(game, "hero_space") == "s:a2"


def test_barrels_are_pushed_orthogonally(rules: rulecraft.Ruleset) -> None:
    """ "Whenever moving orthogonally onto a space containing a Barrel Token it gets pushed 1
    space in the direction you were moving"; never off the stage ("into a wall")."""
    game = start(rules, pieces={"b2": ["barrel_token#1"]}, foes=[])
    game.choose("act:use_top:dash_or_sidestep#1")  # orthogonal 3 from a2
    assert {"b2", "c2", "d2"} <= set(game.legal_ids())
    assert "e2" not in game.legal_ids()  # the barrel would leave the stage
    game.choose("c2")
    assert value(game, "first(barrel_token).space") == "s:d2"
    assert value(game, "hero_space") == "s:c2"


def test_a_barrel_is_not_pushed_into_a_token_an_enemy_or_a_wall(
    rules: rulecraft.Ruleset,
) -> None:
    """ "A Barrel cannot be pushed ... into a wall, enemy, or other token. You may only move
    onto a Barrel's space if you are able to push it.\""""
    for blocker, foes in (("heart_token#1", []), ("sword_goblin#1", ["sword_goblin#1"])):
        game = start(rules, pieces={"b2": ["barrel_token#1"], "c2": [blocker]}, foes=foes)
        game.choose("act:use_top:dash_or_sidestep#1")
        assert "b2" not in game.legal_ids(), blocker
    game = start(rules, pieces={"b2": ["barrel_token#1"], "c2": ["rock_token#1"]}, foes=[])
    game.choose("act:use_top:dash_or_sidestep#1")
    assert "b2" not in game.legal_ids()
    assert "a3" in game.legal_ids()  # other directions stay open


def test_barrels_block_diagonal_moves(rules: rulecraft.Ruleset) -> None:
    """ "A Barrel cannot be pushed diagonally" and "You may not move diagonally between two
    diagonally adjacent Barrels.\""""
    game = start(rules, pieces={"b1": ["barrel_token#1"]}, foes=[])
    game.choose("act:use_bottom:dash_or_sidestep#1")  # diagonal 1 from a2
    assert "b1" not in game.legal_ids() and "b3" in game.legal_ids()
    game = start(rules, pieces={"a1": ["barrel_token#1"], "b2": ["barrel_token#2"]}, foes=[])
    game.choose("act:use_bottom:dash_or_sidestep#1")
    assert "b1" not in game.legal_ids()
    game = start(rules, pieces={"a1": ["barrel_token#1"]}, foes=[])
    game.choose("act:use_bottom:dash_or_sidestep#1")
    assert "b1" in game.legal_ids()


def test_passing_through_a_range_costs_that_enemys_damage(rules: rulecraft.Ruleset) -> None:
    """ "Whenever you pass through a space within an Enemy's attack range without stopping
    on it, you automatically take that Enemy's damage (DMG)"."""
    # A Skeleton Spearman on c1: range 2, 1 damage; c2 is in its range, d2 is not.
    game = start(rules, hero=BRAND, pieces={"c1": ["skeleton_spear#1"]}, foes=["skeleton_spear#1"])
    play(game, "act:use_top:dash_or_sidestep#1", "d2")  # passes b2 and c2
    assert value(game, "you.health") == 4 - 1
    assert "Skeleton Spearman hits the hero passing c2." in game.log


def test_a_space_in_several_ranges_costs_each_enemys_damage(rules: rulecraft.Ruleset) -> None:
    """ "If you move through a space that's within multiple Enemies' attack range, take DMG
    from all of them"."""
    game = start(
        rules,
        hero=BRAND,
        pieces={"c1": ["skeleton_spear#1"], "c4": ["bomb_goblin#1"]},
        foes=["skeleton_spear#1", "bomb_goblin#1"],
    )
    play(game, "act:use_top:dash_or_sidestep#1", "d2")  # c2: the Spearman's 1 and the Bomb's 2
    assert value(game, "you.health") == 4 - 3


def test_every_space_passed_in_a_range_costs_damage(rules: rulecraft.Ruleset) -> None:
    """ "If you move through multiple spaces that are all within an Enemy's attack range,
    take their DMG for each one passed through"; a move ending in range starts a fight."""
    game = start(rules, hero=BRAND, pieces={"e3": ["archer_goblin#1"]}, foes=["archer_goblin#1"])
    game.arrange(players={0: {"resources": {"health": 9}}})
    play(game, "act:use_top:step_or_stride#1", "a3")  # 4 spaces from the Archer: out of range
    assert value(game, "you.health") == 9
    play(game, "act:use_top:dash_or_sidestep#1", "d3")  # passes b3 and c3, both in range
    assert value(game, "you.health") == 9 - 2
    # On d3 Sir Brand (range 1) strikes first: 2 damage fell the Archer (2 health).
    assert value(game, "first(archer_goblin).zone == defeated")


def test_line_of_sight_is_blocked_by_any_obstacle(rules: rulecraft.Ruleset) -> None:
    """ "All Obstacles (Treasure Chests, Hearts, Barrels, Levers, Enemies, etc.) block line
    of sight, meaning that you and Enemies cannot attack one another when there is anything
    between you.\""""
    game = start(rules, pieces={"c3": ["chest_token#1"]})
    # From c2 the Sword Goblin at c4 is 2 away, but the chest on c3 stands between: the
    # Bomb Goblin is the only enemy to hit (chosen without asking).
    play(game, "act:use_top:dash_or_sidestep#1", "c2")
    assert value(game, "first(bomb_goblin).zone == defeated")
    assert value(game, "first(sword_goblin).wounds") == 0


def test_crossing_the_bridge(rules: rulecraft.Ruleset) -> None:
    """Bridges: "you must reach the space directly in front of it and move across it with
    an orthogonal movement"; "You may reach the Bridge space AND cross it using movement
    from the same Action Card"; Execute locks in only a plan that completes the stage."""
    game = start(rules, hero=BRAND, foes=[])
    assert EXECUTE_ID not in game.legal_ids()
    # Stage 1-1's bridge is below a5, crossed southwards. From a2, 3 spaces only reach a5.
    game.choose("act:use_top:dash_or_sidestep#1")
    assert "bridge" not in game.legal_ids() and "a5" in game.legal_ids()
    game.choose("a2")  # 0 spaces is a move too
    play(game, "act:use_top:step_or_stride#1", "a3")
    game.choose("act:use_top:run_or_rest#1")  # 2 spaces from a3: a5, not across
    assert "bridge" not in game.legal_ids()
    game.choose("a3")
    game.choose("act:use_top:charge_or_brace#1")  # orthogonal 2 from a3: to a5 and no further
    assert "bridge" not in game.legal_ids()
    game.choose("a4")
    game.choose("act:use_top:leap_or_step#1")  # a knight's jump never crosses
    assert "bridge" not in game.legal_ids()
    game.choose("a4")
    assert game.legal_ids() == [RESET_ID, "act:concede"] or RESET_ID in game.legal_ids()
    game.choose(RESET_ID)
    # The same card reaches a5 and crosses: a2 -> a3, then 3 spaces from a3.
    game.arrange(
        zones={"enemy_pool": list(STAGE_01_FOES)}, players={0: {"fields": {"foes_on": []}}}
    )
    play(game, "act:use_top:step_or_stride#1", "a3", "act:use_top:dash_or_sidestep#1")
    assert "bridge" in game.legal_ids()
    game.choose("bridge")
    assert value(game, "you has crossed")
    assert EXECUTE_ID in game.legal_ids()
    game.choose(EXECUTE_ID)
    assert value(game, "stages_cleared") == 1


def test_the_bridge_is_not_crossed_from_the_side(rules: rulecraft.Ruleset) -> None:
    """Bridges: "The Bridge cannot be crossed from any of these spaces" (beside it)."""
    game = start(rules, hero=BRAND, foes=[])
    play(game, "act:use_bottom:dash_or_sidestep#1", "b3")
    play(game, "act:use_bottom:step_or_stride#1", "b5")
    game.choose("act:use_top:run_or_rest#1")
    assert "bridge" not in game.legal_ids()


def test_levers_win_the_boss_stage(rules: rulecraft.Ruleset) -> None:
    """Levers: "Whenever you END your movement on one, remove the Lever Token"; Game End:
    "Execute a plan that successfully flips all Levers on the Stage ... YOU WIN!\""""
    game = start(rules, stage="boss_1a")
    assert value(game, "levers_left") >= 2
    result = solve(game, stretch=Stretch(goal="levers_left == 0", first_goal=True))
    assert result.reachable
    play(game, *result.line)
    assert game.result is not None and game.result.winners == (0,)


def test_clean_up_puts_the_display_under_the_draw_pile(rules: rulecraft.Ruleset) -> None:
    """Clean Up 1-2: "Shuffle the face up cards in your Action Display and place them under
    any cards currently in your Draw Pile. Do not alter the order of cards in your Draw
    Pile"; then "Draw and place 5 new Action Cards face up"; 5: choose the next side."""
    game = start(rules, hero=BRAND, foes=[])
    play(game, "act:use_top:step_or_stride#1", "a3", "act:use_top:dash_or_sidestep#1")
    play(game, "bridge", EXECUTE_ID)
    # The draw pile held the sixth basic card: it is drawn first, over the old display.
    assert value(game, "first(aim_or_slide).zone == display")
    assert value(game, "count(display)") == 5 and value(game, "count(draw_pile)") == 1
    assert value(game, "count(display where it has spent)") == 0
    assert value(game, "count(spaces where any(it.pieces))") == 0  # tokens returned
    assert game.decision is not None
    assert game.decision.prompt == "Enter the next stage on which side?"


def test_a_treasure_is_taken_where_a_move_ends(rules: rulecraft.Ruleset) -> None:
    """ "If you END your movement on a Treasure Chest Token (not if you move through one),
    place it in front of you"; Collect Rewards 1: "draw 1 Advanced Action Card ... add it
    to the top of your Draw Pile, or ... put it back in the box"."""
    game = start(rules, hero=BRAND, pieces={"a4": ["chest_token#1"]}, foes=[])
    play(game, "act:use_top:dash_or_sidestep#1", "a5")  # passes a4
    assert value(game, "count(carried)") == 0
    game = start(rules, hero=BRAND, pieces={"a4": ["chest_token#1"]}, foes=[])
    play(game, "act:use_bottom:step_or_stride#1", "a4")
    assert value(game, "count(carried)") == 1
    play(game, "act:use_top:dash_or_sidestep#1", "bridge", EXECUTE_ID)
    assert game.decision is not None
    assert [o.label for o in game.decision.options] == [
        "Put it on top of the draw pile",
        "Remove it from the game",
    ]
    game.choose("opt1")
    # Clean up draws the draw pile's top card first: the advanced card is in the display.
    assert value(game, "count(display where it.tier == advanced)") == 1


PLANS = json.loads((Path(__file__).parent / "knight_moves_plans.json").read_text("utf-8"))


@pytest.mark.parametrize("stage_side", sorted(PLANS["plans"]))
def test_every_authored_stage_is_crossable(rules: rulecraft.Ruleset, stage_side: str) -> None:
    """Every stage (both sides) and boss stage is crossed by a plan the solver found, with
    the weakest hero (Wren, 2 health) and the five basic cards: Winning and Losing, "you
    will have to navigate and successfully survive 9 standard Stages and 1 Boss Stage"."""
    card, side = stage_side.split(":")
    game = start(rules, stage=card, side=side)
    line = PLANS["plans"][stage_side]
    play(game, *line[:-1])
    assert value(game, "stage_complete") and value(game, "you.health") > 0
    game.choose(EXECUTE_ID)
    assert value(game, "stages_cleared") == 1


def test_the_plans_cover_every_stage_card(rules: rulecraft.Ruleset) -> None:
    cards = rules.program.defs
    stages = sorted(d for d, spec in cards.items() if spec.kind == "stage")
    assert len(stages) == 34  # 24 standard stage cards and 10 boss stage cards
    assert sorted(PLANS["plans"]) == sorted(
        f"{s}:{side}" for s in stages for side in ("normal", "hard")
    )


def test_a_new_game_solves_to_the_end_of_its_first_plan(rules: rulecraft.Ruleset) -> None:
    """`rulecraft solve` on a new game: the stretch runs from the hero choice through the
    first stage's plan and ends when that plan is executed (before the clean-up shuffle)."""
    game = rules.new_game(seed=3)
    result = solve(game, stretch=Stretch(first_goal=True, max_nodes=5000))
    assert result.reachable
    assert result.end == "plan executed"
    assert result.line[-1] == EXECUTE_ID


# ---------------------------------------------------------------------------- campaign mode


def test_a_campaign_starts_with_a_level_1_boss_the_player_picks(rules: rulecraft.Ruleset) -> None:
    """Campaign Mode: "Set the game up using the Campaign Boss Stage you are currently on -
    you will face these numbered Bosses going in order from 1 to 8 (select any Level 1 Boss
    for your first game). Find your current Boss, place it face up, and add 9 standard Stage
    Cards on top of it as usual.\""""
    game = rules.new_game(seed=5)
    game.choose(WREN)
    assert game.decision is not None and game.decision.prompt == "Which game?"
    game.choose(CAMPAIGN)
    assert game.decision is not None
    assert game.decision.prompt == "Your first campaign boss"
    assert sorted(game.legal_ids()) == ["boss_1a#1", "boss_1b#1", "boss_1c#1"]
    game.choose("boss_1b#1")
    assert value(game, "you.campaign") == 1
    # The stage deck: the chosen boss at the bottom, first side up, under 9 standard stages
    # (one of them is revealed already).
    assert value(game, "first(stage_deck) == first(boss_1b)")
    assert value(game, "first(boss_1b).side") == "normal"
    assert value(game, "count(stage_deck where not it.boss) + count(current)") == 9
    assert value(game, "count(stage_deck where it.boss)") == 1


def beat_the_boss(rules: rulecraft.Ruleset, boss: str, campaign: int) -> Game:
    """A standard game whose first stage is ``boss`` (normal side), played as campaign game
    ``campaign`` (0: a standard game), its levers flipped by the recorded plan and executed."""
    game = start(rules, stage=boss, last_stage=True)
    game.arrange(players={0: {"fields": {"campaign": campaign}}})
    play(game, *PLANS["plans"][f"{boss}:normal"])
    return game


def test_a_standard_game_is_won_by_its_level_1_boss(rules: rulecraft.Ruleset) -> None:
    """Game End: "You reach the Boss Stage and manage to Execute a plan that successfully
    flips all Levers on the Stage without your Hero running out of Health - YOU WIN!\""""
    game = beat_the_boss(rules, "boss_1a", 0)
    assert game.result is not None and game.result.winners == (0,)


def test_a_campaign_goes_on_after_boss_1_with_a_special_item(rules: rulecraft.Ruleset) -> None:
    """Campaign Mode, "At the end of each successful Campaign Game": "1. Reset all tracks on
    your Hero Card to their starting positions. 2. Return all Trashed Action Cards to the
    game ... 3. Gain a Special Item Card! Look at the 2 Special Item Cards corresponding to
    the Campaign Boss you just beat ... Choose 1 to keep ... 4. Choose ONE Special Item Card
    to add to your 6 Basic Action Cards for the next game\"."""
    game = start(rules, stage="boss_1a", last_stage=True)
    game.arrange(
        players={0: {"fields": {"campaign": 1, "level": 2}, "resources": {"xp": 4}}},
        # Level 2 was reached: its card went under the others (the top is the list's end).
        zones={
            "trashed": ["sprint_or_roll#1"],
            "levels": ["level_2#1", "level_5#1", "level_4#1", "level_3#1"],
        },
    )
    play(game, *PLANS["plans"]["boss_1a:normal"])
    assert game.result is None  # boss 1 of 8: the campaign goes on
    assert game.decision is not None and game.decision.prompt == "Keep which special item?"
    assert sorted(game.legal_ids()) == ["item_boots#1", "item_potion#1"]  # items of boss 1
    game.choose("item_potion#1")
    # The only item kept joins the basic cards without a question (one option is not
    # asked); the next campaign game is at its first plan.
    assert game.decision is not None and game.decision.prompt == "Plan your moves"
    assert value(game, "you.campaign") == 2
    # 1. Wren's tracks are back at her start, the level cards in order (Level 2 on top).
    assert value(game, "[you.health, you.strength, you.reach, you.xp, you.level]") == [
        2,
        2,
        2,
        0,
        1,
    ]
    assert value(game, "top(levels).level") == 2
    # 2. The trashed card is back among the advanced cards; 4. the 6 basic cards and the item
    # are dealt: 5 in the display, 2 in the draw pile.
    assert value(game, "first(sprint_or_roll).zone == advanced_supply")
    assert value(game, "count(advanced_supply)") == 10
    assert value(game, "count(display) + count(draw_pile)") == 7
    assert value(game, "first(item_potion).zone != items")
    assert value(game, "count(items)") == 13
    # "you will face these numbered Bosses going in order": boss 2 under 9 standard stages.
    assert value(game, "first(stage_deck) == first(boss_2)")
    assert value(game, "count(stage_deck where not it.boss) + count(current)") == 9
    assert not value(game, "stage_card.boss")  # a standard stage (unset: none)
    assert value(game, "stage_card.side") == "normal"  # the first stage: normal side


def test_a_campaign_is_won_by_boss_8(rules: rulecraft.Ruleset) -> None:
    """Campaign Mode: "you will face these numbered Bosses going in order from 1 to 8": the
    campaign is won with the eighth."""
    game = beat_the_boss(rules, "boss_8", 8)
    assert game.result is not None and game.result.winners == (0,)


def test_a_level_up_gives_its_reward_and_trashing(rules: rulecraft.Ruleset) -> None:
    """Collect Rewards 2: "If you gained enough XP during this Stage to reach one or more of
    the Level Up spaces ... Choose 1 of the 2 rewards ... gain 1 Health OR gain an Advanced
    Action Card"; "Trash (remove from the game) a number of Action Cards up to the number
    shown ... These can come from anywhere in your Action Display, either the face up cards
    or your Draw Pile"; "Then move the Hero Level Card you just unlocked to the bottom"."""
    game = start(rules, hero=BRAND, foes=[])
    game.arrange(players={0: {"resources": {"xp": 3}}})  # L2 is at 3 XP (levels.rcl)
    play(game, "act:use_top:step_or_stride#1", "a3", "act:use_top:dash_or_sidestep#1")
    play(game, "bridge", EXECUTE_ID)
    assert game.decision is not None and game.decision.prompt == "Level 2: your reward"
    game.choose("opt1")  # Gain 1 health
    assert value(game, "you.health") == 4 + 1
    assert game.decision is not None and game.decision.prompt == "Trash which action cards?"
    assert "aim_or_slide#1" in game.legal_ids()  # from the draw pile too
    play(game, "aim_or_slide#1")  # Level 2 trashes up to 1 card: that is the last
    assert value(game, "first(aim_or_slide).zone == trashed")
    assert value(game, "[you.level, top(levels).level, first(levels).level]") == [2, 3, 2]


def test_an_xp_bonus_icon_gives_an_advanced_card(rules: rulecraft.Ruleset) -> None:
    """Collect Rewards 3: "If you reached any spaces marked with the 1 icon on your XP Track,
    gain an Advanced Action Card for each one" (icons at 8 and 12 XP, levels.rcl)."""
    game = start(rules, hero=BRAND, foes=[])
    game.arrange(players={0: {"resources": {"xp": 8}, "fields": {"level": 3}}})
    play(game, "act:use_top:step_or_stride#1", "a3", "act:use_top:dash_or_sidestep#1")
    play(game, "bridge", EXECUTE_ID)
    assert game.decision is not None
    assert [o.label for o in game.decision.options] == [
        "Put it on top of the draw pile",
        "Remove it from the game",
    ]
    game.choose("opt2")
    assert value(game, "count(trashed where it.tier == advanced)") == 1
    assert value(game, "you.bonus_cards") == 1


def test_a_heart_heals_where_a_move_ends_and_tracks_stop_at_their_maximum(
    rules: rulecraft.Ruleset,
) -> None:
    """ "If you END your movement on a Heart Token, remove the token and immediately gain 1
    Health"; Clean Up 3: "All Hero Tracks have a maximum that cannot be exceeded" (health
    10 here, README)."""
    game = start(rules, hero=BRAND, pieces={"a3": ["heart_token#1"]}, foes=[])
    play(game, "act:use_top:dash_or_sidestep#1", "a4")  # passes a3: no heart
    assert value(game, "you.health") == 4 and value(game, "first(heart_token).space") == "s:a3"
    play(game, "act:use_top:leap_or_step#1", "b2")
    play(game, "act:use_top:step_or_stride#1", "a3")
    assert value(game, "you.health") == 5 and value(game, "first(heart_token).zone == supply")
    game.arrange(players={0: {"resources": {"health": 10}}})
    play(game, "act:use_bottom:run_or_rest#1")  # +1 health, stay
    assert value(game, "you.health") == 10


def test_only_flagged_pieces_block_line_of_sight(rules: rulecraft.Ruleset) -> None:
    """docs/language.md: line_of_sight is blocked by terrain or "a piece carrying the flag
    blocks_sight" (ENGINE_GAPS.md 7): the hero mini, unflagged, stands between a1 and a3
    without blocking; a heart token (flagged at setup, as every obstacle) blocks."""
    game = start(rules, pieces={"a2": ["hero_mini#1"]}, foes=[])
    assert value(game, "line_of_sight(space_at(0, 0), space_at(0, 2))") is True
    game.arrange(zones={"a2": ["heart_token#1"]})
    assert value(game, "first(heart_token) has blocks_sight")
    assert value(game, "line_of_sight(space_at(0, 0), space_at(0, 2))") is False


@pytest.mark.parametrize("stage_side", ["stage_01:normal", "stage_01:hard", "boss_1a:normal"])
def test_the_recorded_plans_are_the_solvers(rules: rulecraft.Ruleset, stage_side: str) -> None:
    """The plans replayed above come from the solver (knight_moves_plans.json, "note"): run
    again from the stage's start, its first crossing plan is the recorded one (a sample:
    every side costs minutes of CPU; bench/bench_solver.py times all 68)."""
    card, side = stage_side.split(":")
    result = solve(start(rules, stage=card, side=side), stretch=Stretch(first_goal=True))
    assert result.reachable
    assert list(result.line) == PLANS["plans"][stage_side]
