"""The Waylanders (rulesets/waylanders): the rulebook's sentences as tests.

Rulebook: /work/shared/seeds/003_fc7594e4a7856883.txt; each test quotes the sentence it
checks. A test plays the game's own setup (draft, emblems, deployment) and then arranges a
position through Game.arrange: the adventurers it names on the areas it names (axial
coordinates "q,r" of the authored board; 3,3 is the centre), every other adventurer in
the box. Seats are 0-based here (Player 1 is seat 0).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime.game import Game

SETUP_PROMPTS = (
    "Draft: pick an adventurer for your party",
    "Choose your party's emblem",
    "Choose your deployment area",
    "How many torcs win? (7 is recommended for first games)",
)


@pytest.fixture(scope="module")
def rules() -> rulecraft.Ruleset:
    return rulecraft.load("waylanders")


def setup_done(
    rules: rulecraft.Ruleset, seed: int = 1, players: int = 2, mode: str = "Standard game"
) -> Game:
    """A new game of the mode whose label starts with ``mode``, its other setup decisions
    answered by the first option."""
    game = rules.new_game(seed=seed, players=players)
    assert game.decision is not None and game.decision.prompt == "Choose the game"
    game.choose(next(o.id for o in game.decision.options if o.label.startswith(mode)))
    while game.decision is not None and game.decision.prompt in SETUP_PROMPTS:
        game.choose(game.pending_ids()[1][0])  # type: ignore[index]
    return game


def value(game: Game, expr: str, seat: int = 0) -> Any:
    return game.evaluate_expr(expr, seat)


def position(
    rules: rulecraft.Ruleset,
    placement: dict[str, dict[str, int]],
    leaders: tuple[str, ...] = ("brigg", "zaunk"),
    ap: tuple[int, ...] = (4, 3),
    cards: dict[str, dict[str, Any]] | None = None,
    dice: dict[str, list[Any]] | None = None,
    zones: dict[str, Any] | None = None,
    phase: str = "activation",
    mode: str = "Standard game",
) -> Game:
    """Seat 0's ``phase`` with only the adventurers of ``placement`` on the board.

    ``placement`` maps an area to ``{adventurer id: seat}``; ``leaders`` are the two
    parties' emblems (Brigg's shares Healing Apprentices, Zaunk's Uplifting: neither changes a
    fight). One leader per seat: 4 leaders make a 4-player game."""
    seats = range(len(leaders))
    game = setup_done(rules, players=len(leaders), mode=mode)
    on_board = [u for units in placement.values() for u in units]
    drafted = value(game, "game.in_play")
    emblems = [value(game, "first(you.emblem)", seat) for seat in seats]
    # One arrangement: the rules run after each, and a board without adventurers would
    # end the game.
    game.arrange(
        zones={
            "box": [u for u in drafted if u not in on_board],
            "emblems": emblems,
            **{space: list(units) for space, units in placement.items()},
            "emblem": {seat: [f"{leaders[seat]}_emblem#1"] for seat in seats},
            **{
                zone: list(placement.get(zone, {})) + cards_there
                if isinstance(cards_there, list)
                else cards_there
                for zone, cards_there in (zones or {}).items()
            },
        },
        cards={
            **{
                u: {"owner": seat, "side": "healthy", "flags": []}
                for units in placement.values()
                for u, seat in units.items()
            },
            **(cards or {}),
        },
        players={
            seat: {
                "resources": {"ap": ap[seat], "used": 0, "torcs": 0},
                "fields": {"leader": f"{leaders[seat]}#1", "formation": []},
                "flags": [],
            }
            for seat in seats
        },
        game={"fields": {"in_play": on_board, "active_adv": None}},
        dice=dice or {},
        active=0,
        phase="activation",
    )
    if phase != "activation":
        # A phase's start rules run before the rest of an arrangement applies: start it
        # once the position stands.
        game.arrange(active=0, phase=phase)
    return game


def options(game: Game) -> list[str]:
    pending = game.pending_ids()
    assert pending is not None
    return list(pending[1])


def play(game: Game, *choices: str) -> None:
    for choice in choices:
        game.choose(choice)


# ------------------------------------------------------------------------------ setup
def test_setup_drafts_five_adventurers_and_hands_out_4_and_3_tokens(
    rules: rulecraft.Ruleset,
) -> None:
    """ "Repeat this process until each player has 5 cards on the table." "The starting
    player takes 4 action tokens, while the player on their left takes 3"."""
    game = setup_done(rules, seed=2)
    start = value(game, "seat(start_player)")
    for seat in (0, 1):
        assert value(game, "count(units(you))", seat) == 5
        assert value(game, "you.leader.owner == you", seat) is True
    assert value(game, "start_player.ap") == 4
    assert value(game, "start_player.next.ap") == 3
    # "Place your adventurers on an empty deployment area": both parties on the two
    # deployment areas of a 2-player board.
    assert value(game, "count(game.deploys where count(units_at(it)) == 5)") == 2
    assert start in (0, 1)


def test_area_center_tokens_face_down_on_every_area_but_deployment_and_blocked(
    rules: rulecraft.Ruleset,
) -> None:
    """ "Shuffle all area center tokens face down and place one on each tile of the matching
    color on the game board. Leave all deployment areas and blocked path hexes empty.\""""
    game = setup_done(rules)
    # The 2-player board: 33 areas, 26 of them neither a corner nor a blocked path.
    assert value(game, "count(spaces where any(hidden_center(it)))") == 26
    assert value(game, "count(corners where any(centers_at(it)))") == 0
    assert value(game, "count(spaces where is_blocked(it) and any(centers_at(it)))") == 0
    assert (
        value(
            game, "count(spaces where any(hidden_center(it) where it.colour != it.space.terrain))"
        )
        == 0
    )
    # "Draw 3 cards and place them in a row, visible to all players".
    assert value(game, "count(objectives)") == 3


# ------------------------------------------------------------- boards by player count
# "Scenario: Build a scenario based on the number of players. You'll find instructions on
# the scenario booklet. Scenarios are comprised of hexagonal tiles called areas." The
# booklet is not in the rulebook: the boards are authored (README.md, rules.rcl board_gaps).
BOARDS = {
    2: (33, ["0,3", "6,3"], ["0,6", "1,6", "2,6", "3,6"]),
    3: (34, ["0,6", "6,3", "3,0"], ["0,3", "6,0", "3,6"]),
    4: (37, ["0,3", "3,0", "6,3", "3,6"], []),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_count_builds_its_own_board(rules: rulecraft.Ruleset, players: int) -> None:
    """ "Scenario: Build a scenario based on the number of players." The board of each
    player count: its areas, its deployment areas ("Place your adventurers on an empty
    deployment area") and the areas off it, which hold no area center token ("place one on
    each tile of the matching color on the game board") and no party."""
    areas, deploys, gaps = BOARDS[players]
    game = setup_done(rules, seed=3, players=players)
    assert value(game, "count(spaces where not off_board(it))") == areas
    assert sorted(value(game, "game.deploys")) == sorted(f"s:{d}" for d in deploys)
    assert sorted(value(game, "(spaces where off_board(it)).id")) == sorted(gaps)
    assert value(game, "count(spaces where off_board(it) and any(centers_at(it)))") == 0
    assert value(game, "count(spaces where off_board(it) and any(units_at(it)))") == 0
    assert value(game, "count(spaces where count(units_at(it)) == 5)") == players
    # "There should always be 3 available objective cards": none of them names an area
    # off this board (those objectives go to the box).
    assert value(game, "count(objectives)") == 3
    names_off_board = "any(it.areas where off_board(area_of(it)))"
    assert value(game, f"count(objectives where {names_off_board})") == 0
    assert value(game, f"count(objective_deck where {names_off_board})") == 0
    # The 2-player board leaves out the two objectives that name 2,6.
    assert value(game, "count(box where it.kind == objective)") == (2 if players == 2 else 0)


def test_an_area_off_the_board_is_neither_entered_nor_seen(rules: rulecraft.Ruleset) -> None:
    """ "An active adventurer can move to any area that is adjacent and visible, provided
    there is enough space for another unit." On the 2-player board the bottom row is off the
    board: from 1,5 an adventurer moves to 0,5, 2,5's neighbours and 1,4, never to 0,6 or 1,6,
    which have no room and are not seen."""
    game = position(rules, {"1,5": {"brigg#1": 0}, "4,2": {"dherghen#1": 1}}, ap=(9, 3))
    play(game, "act:activate:brigg#1")
    travel = {o for o in options(game) if o.startswith("act:travel:")}
    assert "act:travel:0,5" in travel
    assert not travel & {"act:travel:0,6", "act:travel:1,6"}
    assert value(game, "capacity(space_at(1, 6))") == 0
    assert value(game, "sees(space_at(1, 5), space_at(1, 6))") is False
    assert value(game, "sees(space_at(1, 5), space_at(0, 5))") is True


def test_the_three_player_board_has_no_spare_corners(rules: rulecraft.Ruleset) -> None:
    """ "The person seated to the left of the starting player will be the first to pick a
    deployment area. Place your adventurers on an empty deployment area." With three
    players the corners 0,3, 6,0 and 3,6 are off the board; each party deploys on one of
    0,6, 6,3 and 3,0."""
    game = setup_done(rules, seed=5, players=3)
    homes = sorted(value(game, "you.home", seat) for seat in range(3))
    assert homes == ["s:0,6", "s:3,0", "s:6,3"]
    assert value(game, "count(spaces where off_board(it) and it in corners)") == 3


def test_the_draft_passes_the_rest_of_the_hand_to_the_left(rules: rulecraft.Ruleset) -> None:
    """ "pick one and place it face down on your side of the table. Then, pass the rest of
    your hand to the player on your left.\""""
    game = rules.new_game(seed=4, players=2)
    game.choose("opt1")  # the standard game
    game.choose("7")  # 7 torcs
    hands = {seat: set(value(game, "you.hand.cards", seat)) for seat in (0, 1)}
    assert all(len(hand) == 5 for hand in hands.values())
    first = value(game, "seat(active)")
    game.choose(options(game)[0])
    game.choose(options(game)[0])
    # The first picker now picks from what the other kept after its pick: 4 of its 5.
    offered = set(options(game))
    assert len(offered) == 4 and offered < hands[1 - first]


# ------------------------------------------------------------------ action points
def test_used_action_points_pass_to_the_left(rules: rulecraft.Ruleset) -> None:
    """ "Since he used 2 action points, these are now passed on to Carly, the player to his
    left. Carly begins her turn with 3 action points, plus the 2 additional points she
    received from David. This means she has 5 available action points"."""
    game = position(rules, {"3,1": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}})
    # Brigg (a guardian) walks forest and mountain for 1 point each.
    play(game, "act:activate:brigg#1", "act:travel:4,0", "act:travel:5,0")
    assert value(game, "you.used") == 2 and value(game, "you.ap") == 2
    play(game, "act:finish")
    assert value(game, "seat(active)") == 1
    assert value(game, "you.ap", 1) == 5
    assert value(game, "you.ap", 0) == 2


def test_at_least_one_action_point_each_turn(rules: rulecraft.Ruleset) -> None:
    """ "Remember you must always use at least one action point per turn.\""""
    game = position(rules, {"3,1": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}})
    assert "act:finish" not in options(game)
    # Brigg walks plain for free: a free move is no point used.
    play(game, "act:activate:brigg#1", "act:travel:3,0")
    assert value(game, "you.used") == 0
    assert "act:finish" not in options(game)


def test_each_action_at_most_twice_per_activation(rules: rulecraft.Ruleset) -> None:
    """ "Even though she still has action points left, she can't move her archer again
    because she's already performed the same type of action (travel) twice.\""""
    game = position(rules, {"3,1": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}})
    # Brigg walks plain (3,0) for free and mountain (3,1) for 1 point.
    play(game, "act:activate:brigg#1", "act:travel:3,0", "act:travel:3,1")
    assert value(game, "you.ap") == 3
    assert not any(o.startswith("act:travel:") for o in options(game))


def test_an_adventurer_is_active_once_per_turn(rules: rulecraft.Ruleset) -> None:
    """ "An individual adventurer can only be active once during each turn.\""""
    game = position(rules, {"3,1": {"brigg#1": 0, "iedain#1": 0}, "3,5": {"dherghen#1": 1}})
    play(game, "act:activate:brigg#1", "act:activate:iedain#1")
    assert "act:activate:brigg#1" not in options(game)


# ---------------------------------------------------------- capacity, line of sight
def test_rocks_reduce_capacity(rules: rulecraft.Ruleset) -> None:
    """ "As a general rule, areas have a maximum capacity of 3 adventurers ... 1 rock (2
    blocked sides) reduces capacity to 2. 2 rocks (4 blocked sides) reduces capacity to 1."
    "3 rocks ... blocks the path entirely" (a blocked path tile)."""
    game = setup_done(rules)
    assert value(game, "capacity(space_at(3, 2))") == 3
    assert value(game, "capacity(space_at(3, 3))") == 2  # 1 rock
    assert value(game, "capacity(space_at(4, 1))") == 1  # 2 rocks
    assert value(game, "capacity(space_at(2, 2))") == 0  # blocked path


def test_no_move_into_a_full_area(rules: rulecraft.Ruleset) -> None:
    """ "An area has enough space when it hasn't reached its full capacity." (3,3 holds 2
    with its rock.)"""
    game = position(
        rules,
        {"3,2": {"brigg#1": 0}, "3,3": {"dherghen#1": 1, "zaunk#1": 1}},
    )
    play(game, "act:activate:brigg#1")
    assert "act:travel:3,3" not in options(game)


def test_fallen_adventurers_do_not_count_for_capacity(rules: rulecraft.Ruleset) -> None:
    """ "Remember: fallen adventurers do not count when calculating capacity.\""""
    game = position(
        rules,
        {"3,2": {"brigg#1": 0}, "3,3": {"dherghen#1": 1, "zaunk#1": 1}},
        cards={"zaunk#1": {"owner": 1, "side": "wounded", "flags": ["fallen"]}},
    )
    play(game, "act:activate:brigg#1")
    assert "act:travel:3,3" in options(game)


def test_enemies_never_take_the_last_slot_of_a_conquered_area(rules: rulecraft.Ruleset) -> None:
    """ "When you have conquered an area or adopted a formation, only you can occupy the
    last available slot. No enemy unit can enter an area if this means it will reach
    maximum capacity.\""""
    game = position(
        rules,
        {"3,1": {"brigg#1": 0}, "3,2": {"dherghen#1": 1, "zaunk#1": 1, "mountain_3#1": 1}},
        cards={"mountain_3#1": {"face_down": False, "fields": {"holder": "@1"}}},
    )
    play(game, "act:activate:brigg#1")
    assert "act:travel:3,2" not in options(game)
    # Its owner may fill it.
    assert value(game, "room_for(you.next, space_at(3, 2))") is True


def test_small_areas_can_be_filled_by_anyone(rules: rulecraft.Ruleset) -> None:
    """ "However, in areas with capacity for 1 or 2 units, this restriction can be
    overridden. Anyone can enter the area and make it unavailable." (3,3: capacity 2.)"""
    game = position(
        rules,
        {"3,2": {"brigg#1": 0}, "3,3": {"dherghen#1": 1, "plain_3#1": 1}},
        cards={"plain_3#1": {"face_down": False, "fields": {"holder": "@1"}}},
    )
    play(game, "act:activate:brigg#1")
    assert "act:travel:3,3" in options(game)


def test_line_of_sight_long_range(rules: rulecraft.Ruleset) -> None:
    """ "In long range, non-aligned areas, the line of sight will be obstructed if there is
    a rock formation on at least one side of the central hex." The areas 2,3 and 4,2 are two
    apart, not in line: between them lie 3,2 and 3,3, and 3,3 has a rock. 2,3 and 4,3 are in
    line through 3,3 (one rock: its two open sides let the line through)."""
    game = setup_done(rules)
    assert value(game, "count(between(space_at(2, 3), space_at(4, 2)))") == 2
    assert value(game, "sees(space_at(2, 3), space_at(4, 2))") is False
    # Not aligned, with no rock on 5,2 or 4,3 between: seen.
    assert value(game, "sees(space_at(4, 2), space_at(5, 3))") is True
    assert value(game, "sees(space_at(2, 3), space_at(4, 3))") is True
    # Two rocks close the aligned line through 4,1.
    assert value(game, "sees(space_at(4, 0), space_at(4, 2))") is False
    # "Actions or effects can only be used against targets in direct line of sight."
    assert value(game, "sees(space_at(1, 2), space_at(3, 2))") is False  # through 2,2 (blocked)


def test_travel_costs_follow_the_terrain(rules: rulecraft.Ruleset) -> None:
    """ "Each move costs 0, 1 or 2 action points, depending on the terrain type.\""""
    game = position(rules, {"3,1": {"ererbraic#1": 0}, "3,5": {"dherghen#1": 1}})
    # Érerbraic (a sorcerer): forest 0, plain 1, mountain 1; 4,1 is forest, 3,0 plain.
    assert value(game, "move_cost(first(units(you)), space_at(4, 1))") == 0
    assert value(game, "move_cost(first(units(you)), space_at(4, 0))") == 1  # mountain
    play(game, "act:activate:ererbraic#1", "act:travel:3,0")
    assert value(game, "you.ap") == 3


# ------------------------------------------------------------------------- combat
def test_iedain_rolls_five_hits_with_support(rules: rulecraft.Ruleset) -> None:
    """ "Example: Íedain attacks with an auxiliary die and rolls four superclass symbols plus
    a bonus, for a total of five hits." Íedain (a warrior: 2 dice at short range) and Brigg
    share 4,2 (plain) with Dherghen; the plain dice show two blades each, the auxiliary die
    of Brigg's support a bonus."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "brigg#1": 0, "dherghen#1": 1}},
        dice={
            "plain": [["blade", "blade"], ["blade", "blade"]],
            "auxiliary": ["bonus", "event", "event"],
        },
    )
    play(game, "act:activate:iedain#1")
    assert value(
        game, "attack_pool(first(units(you) where it.role == warrior), space_at(4, 2))"
    ) == {
        "forest": 0,
        "plain": 2,
        "mountain": 0,
        "auxiliary": 1,
    }
    play(game, "act:attack:4,2")
    assert any("Íedain attacks 4,2 with 5 hits" in line for line in game.log)
    # Dherghen (2 defence dice, both blank) is wounded: "If the number of Hits is greater
    # than the number of Blocks, the target receives damage."
    assert value(game, "first(units(you.next)).side") == "wounded"


def test_at_most_two_auxiliary_dice(rules: rulecraft.Ruleset) -> None:
    """ "The maximum number of auxiliary dice you can use in a single combat is 2.\""""
    game = position(
        rules,
        {
            "3,0": {"iedain#1": 0, "brigg#1": 0, "elathor#1": 0, "balor#1": 0},
            "3,1": {"dherghen#1": 1},
        },
        leaders=("iedain", "dherghen"),
    )
    # Three party members share Íedain's (deployment) area and reach the adjacent 3,1.
    assert value(game, "count(supporters(you.leader, 1))") == 3
    assert value(game, "support_dice(you.leader, 1)") == 2


def test_two_dice_of_a_colour_at_most(rules: rulecraft.Ruleset) -> None:
    """ "Even if the sum of several rules calls for rolling more than 2 dice of the same
    color, you can only roll 2.\""""
    game = setup_done(rules)
    assert value(game, "terrain_pool(forest, 5)") == {"forest": 2, "plain": 0, "mountain": 0}


def test_a_tie_hurts_no_one(rules: rulecraft.Ruleset) -> None:
    """ "If there is a tie, no one is hurt.\""""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "dherghen#1": 1}},
        dice={"plain": [["blade"], []], "auxiliary": ["bonus", "event"]},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert value(game, "count(all_units where it.side == wounded)") == 0
    assert any("A tie: no one is hurt" in line for line in game.log)


def test_more_blocks_counterattack_in_range(rules: rulecraft.Ruleset) -> None:
    """ "Counterattack: If the number of Blocks exceeds the number of Hits, the target
    returns the attack against the active adventurer. Note that this only happens if the
    targeted adventurer is within range to counterattack your active adventurer.\""""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "dherghen#1": 1}},
        dice={"plain": [[], []], "auxiliary": ["bonus", "bonus"]},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert value(game, "first(units(you)).side") == "wounded"
    assert any("Dherghen counterattacks Íedain" in line for line in game.log)


def test_out_of_range_no_counterattack(rules: rulecraft.Ruleset) -> None:
    """ "If this isn't the case, the combat ends in a tie." A healer cannot attack at all."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "bhlagh#1": 1}},
        dice={"plain": [[], []], "auxiliary": ["bonus"]},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert value(game, "first(units(you)).side") == "healthy"
    assert any("out of range to counterattack" in line for line in game.log)


def test_wounded_then_fallen_gives_a_torc(rules: rulecraft.Ruleset) -> None:
    """ "A wounded adventurer hit during combat will be knocked to the ground." "Knocking an
    adventurer down: 1 torc.\""""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "bhlagh#1": 1}},
        cards={"bhlagh#1": {"owner": 1, "side": "wounded", "flags": []}},
        dice={"plain": [["blade", "blade"], []]},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert value(game, "first(units(you.next)) has fallen") is True
    assert value(game, "you.torcs") == 1


def test_one_roll_against_every_target_in_the_area(rules: rulecraft.Ruleset) -> None:
    """ "All enemies within the target area receive the attack simultaneously ... The
    attacker will use the same roll against all targeted units during a battle.\""""
    game = position(
        rules,
        {"3,2": {"iedain#1": 0}, "4,2": {"bhlagh#1": 1, "sedna#1": 1}},
        dice={"plain": [["blade", "blade"]], "auxiliary": ["event", "event"]},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    # "The player under attack will determine the order in which targeted units defend
    # themselves."
    assert game.decision is not None and game.decision.seat == 1
    assert game.decision.prompt == "Which of your adventurers defends next?"
    play(game, "sedna#1")
    rolls = [line for line in game.log if line.startswith("Rolled 1 plain")]
    assert len(rolls) == 1
    assert value(game, "count(units(you.next) where it.side == wounded)") == 2


def test_invisible_only_from_the_same_area(rules: rulecraft.Ruleset) -> None:
    """ "Invisible: Can only be attacked from the same [area].\""""
    game = position(rules, {"3,2": {"iedain#1": 0}, "4,2": {"dherghen#1": 1}})
    play(game, "act:activate:iedain#1")
    assert "act:attack:4,2" not in options(game)


# ------------------------------------------------------------------------- health
def test_lift_then_heal_without_enemies(rules: rulecraft.Ruleset) -> None:
    """ "Any active adventurer can use 1 action point to lift a fallen party member ...
    rotate the fallen adventurer's card to the wounded position." "Adventurers can use an
    extra action point to heal the party member they just lifted from the ground. This can
    only take place when there are no enemies in the area.\""""
    game = position(
        rules,
        {"3,1": {"iedain#1": 0, "brigg#1": 0}, "3,5": {"dherghen#1": 1}},
        cards={"brigg#1": {"owner": 0, "side": "wounded", "flags": ["fallen"]}},
    )
    play(game, "act:activate:iedain#1", "act:lift:brigg#1")
    assert value(game, "you.leader has fallen") is False
    assert value(game, "you.leader has activated") is True  # "will not be able to use any actions"
    assert "act:activate:brigg#1" not in options(game)
    play(game, "act:heal")
    assert value(game, "you.leader.side") == "healthy"
    assert value(game, "you.ap") == 2


def test_no_healing_with_an_enemy_in_the_area(rules: rulecraft.Ruleset) -> None:
    """ "This can only take place when there are no enemies in the area.\""""
    game = position(
        rules,
        {"3,1": {"iedain#1": 0, "brigg#1": 0, "dherghen#1": 1}},
        cards={"brigg#1": {"owner": 0, "side": "wounded", "flags": ["fallen"]}},
    )
    play(game, "act:activate:iedain#1", "act:lift:brigg#1")
    assert "act:heal" not in options(game)


# ------------------------------------------------------------------- strongholds
def stronghold_at(rules: rulecraft.Ruleset, token: str, area: str = "4,2") -> dict[str, Any]:
    """Zones putting ``token`` alone on ``area`` (4,2: plain, no rock)."""
    old = list(value(setup_done(rules), f"centers_at(space_at({area[0]}, {area[2]}))"))
    return {"center_pool": [c for c in old if c != token], area: [token]}


def test_explore_turns_the_token_and_removes_a_zero(rules: rulecraft.Ruleset) -> None:
    """ "During exploration, the area center token is turned over. The token contains a
    number between 0 and 3. 0 indicates the area is not a stronghold, which means the token
    should be removed after exploration.\""""
    game = position(
        rules,
        {"4,2": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}},
        zones=stronghold_at(rules, "plain_0#1"),
        cards={"plain_0#1": {"face_down": True}},
    )
    assert value(game, "count(hidden_center(space_at(4, 2)))") == 1
    play(game, "act:activate:brigg#1", "act:explore:4,2")
    assert value(game, "count(centers_at(space_at(4, 2)))") == 0
    assert value(game, "spent.cards") == ["plain_0#1"]
    assert value(game, "you.ap") == 3


def test_explored_stronghold_stays_face_up(rules: rulecraft.Ruleset) -> None:
    """ "Any value greater than 0 indicates the area is a stronghold and all parties can try
    to conquer it.\""""
    game = position(
        rules,
        {"4,2": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}},
        zones=stronghold_at(rules, "plain_2#1"),
        cards={"plain_2#1": {"face_down": True}},
    )
    play(game, "act:activate:brigg#1", "act:explore:4,2")
    assert value(game, "open_center(space_at(4, 2)).value") == 2
    assert "act:conquer:4,2" in options(game)


def test_conquest_check_grants_a_torc(rules: rulecraft.Ruleset) -> None:
    """ "Roll a die of the same color as the terrain type and add any symbols specified for
    the active adventurer's superclass, plus all bonuses. If the adventurer is not alone, add
    1 auxiliary die max ... If the resulting value is equal or greater than the number shown
    on the area center token, you will conquer the stronghold." "Conquering a stronghold
    grants you 1 torc.\""""
    game = position(
        rules,
        {"4,2": {"brigg#1": 0, "iedain#1": 0, "elathor#1": 0}, "3,5": {"dherghen#1": 1}},
        zones=stronghold_at(rules, "plain_2#1"),
        cards={"plain_2#1": {"face_down": False}},
        dice={"plain": [["blade"]], "auxiliary": ["bonus"]},
    )
    play(game, "act:activate:brigg#1")
    # Two party members with Brigg: still one auxiliary die.
    assert value(game, "conquest_pool(you.leader)") == {
        "forest": 0,
        "plain": 1,
        "mountain": 0,
        "auxiliary": 1,
    }
    play(game, "act:conquer:4,2")
    assert value(game, "you.torcs") == 1
    assert value(game, "open_center(space_at(4, 2)).holder == you") is True


def test_failed_conquest_gives_nothing(rules: rulecraft.Ruleset) -> None:
    """ "If the resulting value is equal or greater than the number shown ... you will
    conquer" (and not otherwise): a lone Brigg rolls one plain die, a blade, against 2."""
    game = position(
        rules,
        {"4,2": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}},
        zones=stronghold_at(rules, "plain_2#1"),
        cards={"plain_2#1": {"face_down": False}},
        dice={"plain": [["blade"]]},
    )
    play(game, "act:activate:brigg#1", "act:conquer:4,2")
    assert value(game, "you.torcs") == 0
    assert value(game, "open_center(space_at(4, 2)).holder == none") is True


def test_destroying_an_enemy_stronghold(rules: rulecraft.Ruleset) -> None:
    """ "If you succeed, remove the conquered stronghold token. Now the stronghold is up for
    grabs ... Losing a stronghold does not entail losing torcs.\""""
    game = position(
        rules,
        {"4,2": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}},
        zones=stronghold_at(rules, "plain_1#1"),
        cards={"plain_1#1": {"face_down": False, "fields": {"holder": "@1"}}},
        dice={"plain": [["blade"]]},
    )
    game.arrange(players={1: {"resources": {"torcs": 2}}})
    play(game, "act:activate:brigg#1")
    assert "act:conquer:4,2" not in options(game)
    play(game, "act:destroy:4,2")
    assert value(game, "open_center(space_at(4, 2)).holder == none") is True
    assert value(game, "you.torcs", 1) == 2


# --------------------------------------------------------------------- objectives
def test_objective_completed_at_the_start_of_the_turn(rules: rulecraft.Ruleset) -> None:
    """ "In order to complete an objective, you must have occupied all areas detailed on the
    objective card at the beginning of your turn ... Once completed, discard the objective
    and draw a new card from the deck." (Crossroads of Lugh: 3,5 and 4,3, 1 torc.)"""
    shown = ["obj_crossroads_of_lugh#1", "obj_old_ford#1", "obj_standing_stones#1"]
    game = position(
        rules,
        {"3,5": {"brigg#1": 0}, "4,3": {"iedain#1": 0}, "0,3": {"dherghen#1": 1}},
        zones={"objectives": {"cards": shown, "others_to": "objective_deck"}},
        phase="initial",
    )
    assert value(game, "you.torcs") == 1
    assert value(game, "objective_discard.cards") == ["obj_crossroads_of_lugh#1"]
    assert value(game, "count(objectives)") == 3
    # "There should always be 3 available objective cards by the game board."
    assert "obj_crossroads_of_lugh#1" not in value(game, "objectives.cards")


def test_objective_needs_every_area(rules: rulecraft.Ruleset) -> None:
    """ "you must have occupied all areas detailed on the objective card\""""
    shown = ["obj_crossroads_of_lugh#1", "obj_old_ford#1", "obj_standing_stones#1"]
    game = position(
        rules,
        {"3,5": {"brigg#1": 0}, "0,3": {"dherghen#1": 1}},
        zones={"objectives": {"cards": shown, "others_to": "objective_deck"}},
        phase="initial",
    )
    assert value(game, "you.torcs") == 0
    assert value(game, "count(objective_discard)") == 0


# --------------------------------------------------------------------- formations
WEDGE = {"3,1": {"iedain#1": 0}, "3,0": {"brigg#1": 0}, "4,0": {"elathor#1": 0}}


def test_wedge_formation_is_declared_in_the_initial_phase(rules: rulecraft.Ruleset) -> None:
    """ "Formations are comprised of 3 to 5 adventurers deployed across 3 adjacent enemy-free
    areas. The party's emblem must always be at the center of the formation." Íedain's emblem
    card shows a wedge (its wings adjacent: 3,0 and 4,0 round 3,1)."""
    game = position(
        rules, {**WEDGE, "3,5": {"dherghen#1": 1}}, leaders=("iedain", "dherghen"), phase="initial"
    )
    assert value(game, "formation_scheme(you)") == "wedge"
    assert game.decision is not None and game.decision.prompt.startswith("Initial phase")
    assert {"act:form:3,0", "act:form:4,0"} <= set(options(game))
    play(game, "act:form:3,0")
    assert value(game, "you.formation") == ["s:3,1", "s:3,0", "s:4,0"]
    assert value(game, "count(units(you) where in_formation(it))") == 3


def test_no_formation_with_an_enemy_in_its_areas(rules: rulecraft.Ruleset) -> None:
    """ "3 adjacent enemy-free areas\""""
    game = position(
        rules,
        {**WEDGE, "4,0": {"elathor#1": 0, "dherghen#1": 1}},
        leaders=("iedain", "dherghen"),
        phase="initial",
    )
    assert not any(o.startswith("act:form:") for o in options(game))


def test_formation_breaks_when_the_emblem_falls(rules: rulecraft.Ruleset) -> None:
    """ "Automatically, if the emblem is knocked down (for example, during a
    counterattack).\""""
    game = position(
        rules,
        {**WEDGE, "4,2": {"dherghen#1": 1}},
        leaders=("iedain", "dherghen"),
        cards={"iedain#1": {"owner": 0, "side": "wounded", "flags": []}},
        phase="initial",
    )
    play(game, "act:form:3,0")
    assert len(value(game, "you.formation")) == 3
    # Dherghen steps into Íedain's area; Íedain (wounded) attacks him, rolls a blank, and
    # Dherghen's two bonus blocks counterattack: Íedain falls.
    game.arrange(
        zones={"3,1": ["dherghen#1"]}, dice={"mountain": [[]], "auxiliary": ["bonus", "bonus"]}
    )
    play(game, "act:activate:iedain#1", "act:attack:3,1")
    assert value(game, "you.leader has fallen") is True
    assert value(game, "you.formation") == []
    assert value(game, "you.torcs", 1) == 1


def test_enemies_never_take_the_last_slot_of_a_formation_area(rules: rulecraft.Ruleset) -> None:
    """ "No enemy units can occupy the last capacity slot of a hex with adventurers in
    formation.\""""
    game = position(
        rules,
        {
            "3,1": {"iedain#1": 0, "balor#1": 0},
            "3,0": {"brigg#1": 0},
            "4,0": {"elathor#1": 0},
            "4,1": {"dherghen#1": 1},
        },
        leaders=("iedain", "dherghen"),
        phase="initial",
    )
    play(game, "act:form:3,0")
    assert value(game, "room_for(you.next, space_at(3, 1))") is False
    assert value(game, "room_for(you, space_at(3, 1))") is True


# ------------------------------------------------------------------------ the end
def test_enough_torcs_win(rules: rulecraft.Ruleset) -> None:
    """ "The first player to gather the number of torcs agreed upon at the beginning of the
    game wins." (7, as the rulebook recommends for the first games.)"""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "bhlagh#1": 1}},
        cards={"bhlagh#1": {"owner": 1, "side": "wounded", "flags": []}},
        dice={"plain": [["blade", "blade"], []]},
    )
    game.arrange(players={0: {"resources": {"torcs": 6}}})
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert game.result is not None and game.result.winners == (0,)


def test_a_party_all_on_the_ground_loses(rules: rulecraft.Ruleset) -> None:
    """ "If all adventurers of a given party start a turn on the ground, the player
    automatically loses ... If at any given moment only one player remains standing, they
    automatically win the game even if they don't have the most torcs.\""""
    game = position(
        rules,
        {"3,1": {"iedain#1": 0}, "3,5": {"dherghen#1": 1}},
        cards={"dherghen#1": {"owner": 1, "side": "wounded", "flags": ["fallen"]}},
    )
    game.arrange(players={1: {"resources": {"torcs": 5}}})
    play(game, "act:activate:iedain#1", "act:travel:4,0", "act:finish")
    assert game.result is not None and game.result.winners == (0,)
    assert value(game, "you.torcs", 0) == 0


# ------------------------------------------------------------------- random games
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_without_error(rules: rulecraft.Ruleset, players: int) -> None:
    """A whole game for 2-4 players plays to its end with random choices."""
    for seed in range(2):
        game = rules.new_game(seed=seed, players=players)
        rng = random.Random(seed)
        for _ in range(game.max_decisions):
            pending = game.pending_ids()
            if pending is None:
                break
            game.choose(rng.choice(pending[1]))
        assert game.result is not None and len(game.result.winners) >= 1


# ---------------------------------------------------------------- special rules
def test_tempest_goal_and_no_torc_for_conquering(rules: rulecraft.Ruleset) -> None:
    """Clash of the Tempest: "the goal is to earn 4 victory points plus 2 per player (i.e.,
    if two of you are playing, you will need 6 points to win ...)" "Additionally, no victory
    points will be granted for conquering areas, and objective cards won't be used.\""""
    game = position(
        rules,
        {"4,2": {"brigg#1": 0}, "3,5": {"dherghen#1": 1}},
        zones=stronghold_at(rules, "plain_1#1"),
        cards={"plain_1#1": {"face_down": False}},
        dice={"plain": [["blade"]]},
        mode="Clash of the Tempest",
    )
    assert value(game, "game.goal") == 6
    assert value(game, "count(objectives)") == 0
    play(game, "act:activate:brigg#1", "act:conquer:4,2")
    assert value(game, "open_center(space_at(4, 2)).holder == you") is True
    assert value(game, "you.torcs") == 0


def tempest_over_a_wounded_rival(rules: rulecraft.Ruleset) -> rulecraft.Game:
    """Clash of the Tempest: seat 1's adventurer on the storm tile (4,3) at the start of its
    turn, seat 2's wounded one next to it (4,2), the auxiliary die showing the bonus: the
    tempest is invoked and seat 1 is asked which tile it strikes."""
    game = position(
        rules,
        {"4,3": {"brigg#1": 0}, "4,2": {"dherghen#1": 1}},
        cards={"dherghen#1": {"owner": 1, "side": "wounded", "flags": []}},
        dice={"auxiliary": ["bonus"]},
        mode="Clash of the Tempest",
    )
    game.arrange(active=0, phase="initial")
    assert game.decision is not None and game.decision.prompt == "The tempest strikes which tile?"
    return game


def test_tempest_strikes_an_adjacent_tile(rules: rulecraft.Ruleset) -> None:
    """ "If any of your adventurers are on this tile at the beginning of a turn, you must
    roll an auxiliary die to invoke the tempest. If you succeed, the storm will strike ...
    an adjacent tile of your choosing ... For every enemy adventurer that is knocked to the
    ground, you receive 1 victory point." The storm tile is 4,3."""
    game = tempest_over_a_wounded_rival(rules)
    game.choose(next(o.id for o in game.decision.options if o.label == "4,2"))
    assert value(game, "you.torcs") == 1
    assert value(game, "first(units(you.next)) has fallen") is True


def test_the_empty_face_strikes_the_storm_tile(rules: rulecraft.Ruleset) -> None:
    """ "If, however, you roll the empty face of the die, the storm will strike the special
    tile" ("The event card icon during a tempest roll is ignored").\""""
    game = position(
        rules,
        {"4,3": {"brigg#1": 0}, "4,2": {"dherghen#1": 1}},
        dice={"auxiliary": ["event"]},
        mode="Clash of the Tempest",
    )
    game.arrange(active=0, phase="initial")
    assert value(game, "you.leader.side") == "wounded"
    assert value(game, "you.torcs") == 0


def test_swamps_cost_forest_plus_mountain(rules: rulecraft.Ruleset) -> None:
    """The Marshlands: "In order to move across swamp tiles, you must add your adventurer's
    forest and mountain terrain action points." "swamps may not be conquered, which means
    area center tokens can't be placed on these tiles". (Swamps: 3,2, 2,3, 3,5 and 6,2.)"""
    game = position(
        rules,
        {
            "4,2": {"brigg#1": 0},
            "0,3": {"dherghen#1": 1},
            "6,0": {"zaunk#1": 2},
            "0,6": {"ao#1": 3},
        },
        leaders=("brigg", "dherghen", "zaunk", "ao"),
        ap=(4, 3, 2, 1),
        mode="The Marshlands",
    )
    assert value(game, "game.goal") == 10
    assert value(game, "move_cost(you.leader, space_at(3, 2))") == 2  # Brigg: forest 1 + mountain 1
    assert value(game, "count(spaces where is_swamp(it) > 0 and any(centers_at(it)))") == 0
    assert value(game, "count(spaces where is_swamp(it) > 0)") == 4


def test_lone_adventurers_in_the_forest_are_ambushed(rules: rulecraft.Ruleset) -> None:
    """ "At the end of each turn, all lone adventurers who find themselves in the forest or
    the swamps will face a surprise attack dealt with two auxiliary dice ... No victory
    points are awarded for knock-downs in this attack.\""""
    game = position(
        rules,
        {
            "5,0": {"iedain#1": 0},
            "0,3": {"dherghen#1": 1},
            "6,0": {"zaunk#1": 2},
            "0,6": {"ao#1": 3},
        },
        leaders=("iedain", "dherghen", "zaunk", "ao"),
        ap=(4, 3, 2, 1),
        cards={"iedain#1": {"owner": 0, "side": "wounded", "flags": []}},
        dice={"auxiliary": ["bonus", "bonus", "event"]},
        mode="The Marshlands",
    )
    game.arrange(players={0: {"resources": {"used": 1}}})
    play(game, "act:finish")
    assert value(game, "you.leader has fallen", 0) is True
    assert value(game, "sum(players.torcs)") == 0


def test_river_tiles_hold_one_and_never_block_sight(rules: rulecraft.Ruleset) -> None:
    """The Riverbank: "River tiles only have capacity for one adventurer at a time." "No
    obstacles block the line of vision on river tiles." (The river: 3,1 to 3,5; 3,3 keeps
    its rock.)"""
    game = position(rules, {"2,3": {"brigg#1": 0}, "4,2": {"dherghen#1": 1}}, mode="The Riverbank")
    assert value(game, "capacity(space_at(3, 2))") == 1
    assert value(game, "capacity(space_at(3, 3))") == 1
    assert value(game, "sees(space_at(2, 3), space_at(4, 2))") is True
    # "The game is played without objective cards or victory points, so no areas can be
    # conquered."
    assert value(game, "count(spaces where any(centers_at(it)))") == 0
    assert value(game, "count(objectives)") == 0


def test_river_ends_after_twelve_knock_downs(rules: rulecraft.Ruleset) -> None:
    """ "The game ends when 12 adventurers have been knocked down ... At that moment, the
    player with most adventurers on the enemy's side of the river wins.\""""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "bhlagh#1": 1}, "5,2": {"brigg#1": 0}, "1,4": {"dherghen#1": 1}},
        cards={"bhlagh#1": {"owner": 1, "side": "wounded", "flags": []}},
        dice={"plain": [["blade", "blade"], []]},
        mode="The Riverbank",
    )
    game.arrange(
        game={"fields": {"falls": 11}},
        players={0: {"fields": {"home": "s:0,3"}}, 1: {"fields": {"home": "s:6,3"}}},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert game.result is not None and game.result.winners == (0,)
    assert value(game, "you.torcs", 0) == 0


def test_two_vs_two_allies_share_torcs(rules: rulecraft.Ruleset) -> None:
    """2 vs. 2: "Each player must sit facing their ally" "Allied players share victory
    points." "Adventurers can lift or heal allies just like they would with a party
    member.\""""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "zaunk#1": 2}, "0,3": {"dherghen#1": 1}, "0,6": {"ao#1": 3}},
        leaders=("iedain", "dherghen", "zaunk", "ao"),
        ap=(4, 3, 2, 1),
        cards={"zaunk#1": {"owner": 2, "side": "wounded", "flags": ["fallen"]}},
        mode="2 vs 2",
    )
    assert value(game, "friends(you, first(players where seat(it) == 2))") is True
    assert value(game, "friends(you, first(players where seat(it) == 1))") is False
    assert value(game, "count(foes_at(you, space_at(4, 2)))") == 0
    play(game, "act:activate:iedain#1")
    assert "act:lift:zaunk#1" in options(game)
    game.arrange(players={0: {"resources": {"torcs": 3}}, 2: {"resources": {"torcs": 4}}})
    assert game.result is not None and set(game.result.winners) == {0, 2}


def test_two_vs_two_emblems_need_appointing(rules: rulecraft.Ruleset) -> None:
    """ "At the beginning of the game, both emblem cards will be placed face down on the
    table. A player can appoint their emblem by spending one action point.\""""
    game = position(
        rules,
        {
            "4,2": {"iedain#1": 0},
            "0,3": {"dherghen#1": 1},
            "6,0": {"zaunk#1": 2},
            "0,6": {"ao#1": 3},
        },
        leaders=("iedain", "dherghen", "zaunk", "ao"),
        ap=(4, 3, 2, 1),
        mode="2 vs 2",
    )
    assert value(game, "commands(you)") is False
    play(game, "act:appoint")
    assert value(game, "commands(you)") is True
    assert value(game, "you.ap") == 3
    assert "act:appoint" not in options(game)


# ------------------------------------------------------------------------ scenarios
# rulesets/waylanders/scenarios: the rulebook's printed examples (the Íedain battle, David's
# and Carly's action points, line of sight, capacity with a rock, Mary's formation) as
# scenario files, which `rulecraft test waylanders` plays too.
SCENARIOS = sorted(
    (Path(__file__).resolve().parents[2] / "rulesets" / "waylanders" / "scenarios").glob("*.yaml")
)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes(rules: rulecraft.Ruleset, path: Path) -> None:
    from rulecraft.tools.scenario import load_scenario, run_scenario

    scenario, problems = load_scenario(path)
    assert scenario is not None and not problems, problems
    outcome = run_scenario(rules, scenario)
    assert outcome.passed, outcome.message


def test_the_scenarios_cover_the_printed_examples() -> None:
    assert {p.stem for p in SCENARIOS} >= {
        "iedain_five_hits",
        "action_points_passed_left",
        "line_of_sight_long_range",
        "capacity_with_rocks",
        "formation_keeps_last_slot",
    }


# --------------------------------------------------------------- the torc goal
def test_the_torc_goal_is_chosen_at_setup(rules: rulecraft.Ruleset) -> None:
    """ "The number of required torcs (between 5 and 14) will depend on the players or the
    chosen scenario. We recommend playing for 7 points during your first games." 7 is the
    first option; a special scenario has its own goal and asks nothing."""
    game = rules.new_game(seed=2, players=2)
    game.choose("opt1")  # the standard game
    assert game.decision is not None and game.decision.prompt.startswith("How many torcs win?")
    assert options(game) == ["7", "5", "6", "8", "9", "10", "11", "12", "13", "14"]
    game.choose("12")
    assert value(game, "game.goal") == 12
    tempest = setup_done(rules, seed=2, mode="Clash of the Tempest")
    assert value(tempest, "game.goal") == 6


# ------------------------------------------------------------------ combat order
def test_a_fallen_attacker_is_counterattacked_once(rules: rulecraft.Ruleset) -> None:
    """ "The player under attack will determine the order in which targeted units defend
    themselves." A wounded Íedain rolls no hit against Dherghen and Äo: the first to defend
    (the defender's choice) counterattacks and knocks him down; the second only blocks (one
    knock-down, one torc)."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "dherghen#1": 1, "ao#1": 1}},
        cards={"iedain#1": {"owner": 0, "side": "wounded", "flags": []}},
        dice={"plain": [[], []], "auxiliary": ["bonus", "arrow", "bonus", "arrow"]},
    )
    play(game, "act:activate:iedain#1", "act:attack:4,2")
    assert game.decision is not None and game.decision.seat == 1
    assert set(options(game)) == {"dherghen#1", "ao#1"}
    play(game, "ao#1")
    assert any("Äo counterattacks Íedain" in line for line in game.log)
    assert any("Dherghen blocks the attack" in line for line in game.log)
    assert value(game, "you.torcs", 1) == 1
    assert value(game, "game.falls") == 1


# ------------------------------------------------------------ formation timing
UPLIFT = {
    "3,1": {"elathor#1": 0},
    "3,0": {"brigg#1": 0, "balor#1": 0},
    "4,0": {"iedain#1": 0},
    "3,5": {"dherghen#1": 1},
}


def test_uplifting_works_for_a_formation_declared_in_the_initial_phase(
    rules: rulecraft.Ruleset,
) -> None:
    """ "Abilities meant for the initial turn phase can only be used if the formation is
    declared before the first adventurer is active, or if it was already in place during the
    previous turn." Elathor's emblem shares Uplifting ("At the beginning of the turn, all
    fallen adventurers in a formation recover full health"); Balor lies in 3,0."""
    game = position(
        rules,
        UPLIFT,
        leaders=("elathor", "dherghen"),
        cards={"balor#1": {"owner": 0, "side": "wounded", "flags": ["fallen"]}},
        phase="initial",
    )
    play(game, "act:form:3,0")
    assert value(game, "first(balor) has fallen") is False
    assert value(game, "first(balor).side") == "healthy"


def test_uplifting_does_not_work_for_a_formation_declared_at_the_end(
    rules: rulecraft.Ruleset,
) -> None:
    """The same formation declared in the final phase lifts no one."""
    game = position(
        rules,
        UPLIFT,
        leaders=("elathor", "dherghen"),
        cards={"balor#1": {"owner": 0, "side": "wounded", "flags": ["fallen"]}},
        phase="final",
    )
    play(game, "act:form:3,0")
    assert len(value(game, "you.formation")) == 3
    assert value(game, "first(balor) has fallen") is True


def test_allies_form_together_in_two_vs_two(rules: rulecraft.Ruleset) -> None:
    """2 vs. 2: "Formations can be adopted by adventurers from both allied parties, but only
    one formation can be adopted at a time ... Only the rules and abilities of the appointed
    emblem's card are taken in to account." Íedain (seat 1, commanding, a wedge) forms with
    Zaunk, his ally's adventurer, in a wing."""
    game = position(
        rules,
        {
            "3,1": {"iedain#1": 0},
            "3,0": {"brigg#1": 0},
            "4,0": {"zaunk#1": 2},
            "0,3": {"dherghen#1": 1},
            "0,6": {"ao#1": 3},
        },
        leaders=("iedain", "dherghen", "zaunk", "ao"),
        ap=(4, 3, 2, 1),
        mode="2 vs 2",
    )
    game.arrange(players={0: {"flags": ["commanding"]}})
    game.arrange(active=0, phase="initial")
    assert "act:form:4,0" in options(game)
    play(game, "act:form:4,0")
    assert value(game, "in_formation(first(zaunk))") is True
    assert value(game, "formation_gives(first(zaunk), wedge)") is True
    # The ally's own emblem cannot start a second formation.
    assert value(game, "can_form(first(players where seat(it) == 2))") is False


# ------------------------------------------------------------------------ events
def test_event_decks_follow_the_game(rules: rulecraft.Ruleset) -> None:
    """ "start by shuffling the basic deck (6 cards included in the Veteran on the
    Battlefront set) ... you can also add another set of event cards to the deck." "Clash
    of the Tempest is an epic scenario with 8 event cards". The box holds 30 event cards:
    6 + 8 Battle at Twilight + 8 Tempest + 4 Marshlands + 4 Riverbank (the last two sets
    authored)."""
    standard = setup_done(rules)
    assert value(standard, "count(event_deck) + count(box where it.kind == event)") == 30
    for game, expected in (
        (standard, {"veteran": 6, "twilight": 8}),
        (setup_done(rules, mode="Clash of the Tempest"), {"veteran": 6, "tempest": 8}),
        (setup_done(rules, mode="The Riverbank"), {"veteran": 6, "river": 4}),
        (setup_done(rules, players=4, mode="The Marshlands"), {"veteran": 6, "marsh": 4}),
    ):
        counted = {
            s: value(game, f"count(event_deck where it.event_set == {s})")
            for s in ("veteran", "twilight", "tempest", "marsh", "river")
        }
        assert {s: n for s, n in counted.items() if n} == expected


def draw_instant(
    rules: rulecraft.Ruleset,
    card: str,
    placement: dict[str, dict[str, int]],
    event_dice: tuple[Any, ...] = (),
    **kwargs: Any,
) -> Game:
    """Seat 0 draws the instant event ``card``: Íedain, with Balor and Elathor in his area
    (6,0, plain), attacks Bhlagh there; both support dice show an event ("If a player rolling
    two auxiliary dice rolls 1 or 2 event symbols, they must draw a card"), no die a hit, so
    the battle is a tie. ``event_dice`` are the auxiliary faces the event itself rolls."""
    attack = {"6,0": {"iedain#1": 0, "balor#1": 0, "elathor#1": 0, "bhlagh#1": 1}}
    game = position(
        rules,
        {**attack, **placement},
        zones={"event_deck": [card]},
        dice={"plain": [[], []], "auxiliary": ["event", "event", *event_dice, "arrow"]},
        **kwargs,
    )
    play(game, "act:activate:iedain#1", "act:attack:6,0")
    return game


def test_thunderclap_strikes_next_to_the_storm(rules: rulecraft.Ruleset) -> None:
    """Thunderclap (Tempest, authored): "the storm strikes an area next to the storm tile, of
    your choice ... 1 torc for each enemy knocked down"."""
    game = draw_instant(
        rules,
        "thunderclap#1",
        {"4,2": {"dherghen#1": 1}},
        cards={"dherghen#1": {"owner": 1, "side": "wounded", "flags": []}},
        mode="Clash of the Tempest",
    )
    assert game.decision is not None
    assert game.decision.prompt == "Thunderclap: where does the storm strike?"
    play(game, "4,2")
    assert value(game, "first(dherghen) has fallen") is True
    assert value(game, "you.torcs") == 1


def test_eye_of_the_storm_heals_round_the_storm(rules: rulecraft.Ruleset) -> None:
    """Eye of the Storm (Tempest, authored): "every wounded standing adventurer of yours on
    the storm tile or next to it recovers full health"."""
    game = draw_instant(
        rules,
        "eye_of_the_storm#1",
        {"4,2": {"brigg#1": 0}, "0,3": {"ao#1": 0}},
        cards={
            "brigg#1": {"owner": 0, "side": "wounded", "flags": []},
            "ao#1": {"owner": 0, "side": "wounded", "flags": []},
        },
        mode="Clash of the Tempest",
    )
    assert value(game, "first(brigg).side") == "healthy"
    assert value(game, "first(ao).side") == "wounded"


def test_hailstorm_wounds_the_lone_in_the_mountains(rules: rulecraft.Ruleset) -> None:
    """Hailstorm (Tempest, authored): "every healthy adventurer standing alone in a mountain
    area, whatever its party, is wounded (no one falls)"."""
    game = draw_instant(
        rules,
        "hailstorm#1",
        {"4,0": {"dherghen#1": 1}, "1,3": {"brigg#1": 0}, "5,2": {"ao#1": 1, "zaunk#1": 1}},
        mode="Clash of the Tempest",
    )
    assert value(game, "first(dherghen).side") == "wounded"
    assert value(game, "first(brigg).side") == "wounded"
    assert value(game, "count([first(ao), first(zaunk)] where it.side == healthy)") == 2
    assert value(game, "game.falls") == 0


def test_tailwind_moves_for_free(rules: rulecraft.Ruleset) -> None:
    """Tailwind (Tempest, authored): "one of your standing adventurers may move to an
    adjacent visible area with room, without spending action points"."""
    game = draw_instant(rules, "tailwind#1", {"0,3": {"brigg#1": 0}}, mode="Clash of the Tempest")
    ap = value(game, "you.ap")
    play(game, "opt1", "brigg#1", "1,2")
    assert value(game, "first(brigg).space") == "s:1,2"
    assert value(game, "you.ap") == ap


def test_call_the_lightning_invokes_the_tempest_again(rules: rulecraft.Ruleset) -> None:
    """Call the Lightning (Tempest, authored): "Cost 1 action point: if your active
    adventurer stands on the storm tile, invoke the tempest once more"."""
    game = position(
        rules,
        {"4,3": {"iedain#1": 0}, "4,2": {"dherghen#1": 1}},
        cards={"dherghen#1": {"owner": 1, "side": "wounded", "flags": []}},
        zones={"event_hand": {0: ["call_the_lightning#1"]}},
        dice={"auxiliary": ["bonus"]},
        mode="Clash of the Tempest",
    )
    play(game, "act:activate:iedain#1", "act:play_event:call_the_lightning#1", "4,2")
    assert value(game, "first(dherghen) has fallen") is True
    assert value(game, "you.ap") == 3 and value(game, "you.used") == 1
    assert value(game, "count(you.event_hand)") == 0


def test_storm_cloak_and_mist_veil_hide_until_your_next_turn(rules: rulecraft.Ruleset) -> None:
    """Storm Cloak (Tempest) and Mist Veil (Marshlands), authored: "until the start of your
    next turn, ... can only be attacked from its own area"."""
    game = position(
        rules,
        {"4,1": {"iedain#1": 0}, "4,2": {"dherghen#1": 1}, "0,3": {"brigg#1": 0}},
        zones={"event_hand": {0: ["storm_cloak#1", "mist_veil#1"]}},
    )
    play(game, "act:activate:iedain#1", "act:play_event:storm_cloak#1")
    # Íedain in the forest 4,1 cannot be attacked from 4,2 any more.
    assert value(game, "count(targets(first(dherghen), space_at(4, 1)))") == 0
    play(game, "act:play_event:mist_veil#1")
    assert value(game, "first(brigg) has cloaked") is False  # 0,3 is no forest
    game.arrange(active=0, phase="initial")
    assert value(game, "first(iedain) has cloaked") is False


def test_charged_air_adds_two_hits(rules: rulecraft.Ruleset) -> None:
    """Charged Air (Tempest, authored): "Cost 1 action point: your next attack this turn
    counts 2 more hits"."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "bhlagh#1": 1}},
        zones={"event_hand": {0: ["charged_air#1"]}},
        dice={"plain": [[], []], "auxiliary": ["arrow"]},
    )
    play(game, "act:activate:iedain#1", "act:play_event:charged_air#1", "act:attack:4,2")
    assert any("Íedain attacks 4,2 with 2 hits" in line for line in game.log)
    assert value(game, "first(bhlagh).side") == "wounded"
    assert value(game, "you.helped") == 0


def test_flash_flood_pushes_an_enemy(rules: rulecraft.Ruleset) -> None:
    """Flash Flood (Tempest, authored): "push an enemy adventurer in your active adventurer's
    area or an adjacent visible area to an adjacent visible area of your choice with
    room"."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0}, "5,2": {"dherghen#1": 1}},
        zones={"event_hand": {0: ["flash_flood#1"]}},
    )
    play(game, "act:activate:iedain#1", "act:play_event:flash_flood#1")
    assert game.decision is not None and game.decision.prompt == "Flash Flood: where to?"
    play(game, "6,1")
    assert value(game, "first(dherghen).space") == "s:6,1"


def test_will_o_the_wisp_lures_a_lone_enemy(rules: rulecraft.Ruleset) -> None:
    """Will-o'-the-Wisp (Marshlands, authored): "an enemy adventurer standing alone in a
    forest or swamp area ... faces a surprise attack (two auxiliary dice; no torc for a
    knock-down)"."""
    game = draw_instant(
        rules,
        "will_o_the_wisp#1",
        {"5,0": {"dherghen#1": 1}},
        event_dice=("bonus", "bonus", "arrow", "arrow"),
        cards={"dherghen#1": {"owner": 1, "side": "wounded", "flags": []}},
    )
    assert value(game, "first(dherghen) has fallen") is True
    assert value(game, "you.torcs") == 0


def test_sinking_mud_costs_the_next_player_a_point(rules: rulecraft.Ruleset) -> None:
    """Sinking Mud (Marshlands, authored): "the player on your left loses 1 action point"."""
    game = draw_instant(rules, "sinking_mud#1", {})
    assert value(game, "you.next.ap") == 2


def test_marsh_guide_makes_swamps_cost_plain_points(rules: rulecraft.Ruleset) -> None:
    """Marsh Guide (Marshlands, authored): "this turn, your active adventurer's moves into
    swamp areas cost its plain terrain points". Brigg: forest 1 + mountain 1, plain 0."""
    game = position(
        rules,
        {
            "4,2": {"brigg#1": 0},
            "0,3": {"dherghen#1": 1},
            "6,0": {"zaunk#1": 2},
            "0,6": {"ao#1": 3},
        },
        leaders=("brigg", "dherghen", "zaunk", "ao"),
        ap=(4, 3, 2, 1),
        zones={"event_hand": {0: ["marsh_guide#1"]}},
        mode="The Marshlands",
    )
    assert value(game, "move_cost(you.leader, space_at(3, 2))") == 2
    play(game, "act:activate:brigg#1", "act:play_event:marsh_guide#1")
    assert value(game, "move_cost(you.leader, space_at(3, 2))") == 0


def test_the_river_rises(rules: rulecraft.Ruleset) -> None:
    """The River Rises (Riverbank, authored): "every healthy adventurer standing in a river
    area, whatever its party, is wounded (no one falls)"."""
    game = draw_instant(
        rules,
        "river_rises#1",
        {"3,2": {"dherghen#1": 1}, "3,4": {"brigg#1": 0}, "2,3": {"ao#1": 1}},
        mode="The Riverbank",
    )
    assert value(game, "first(dherghen).side") == "wounded"
    assert value(game, "first(brigg).side") == "wounded"
    assert value(game, "first(ao).side") == "healthy"


def test_the_ferryman_crosses_to_the_far_bank(rules: rulecraft.Ruleset) -> None:
    """Ferryman (Riverbank, authored): "one of your standing adventurers in a river area may
    cross to an adjacent area with room on the enemy's side of the river". Seat 1 deployed
    on 0,3: the far bank is east of the river (q > 3)."""
    game = draw_instant(rules, "ferryman#1", {"3,2": {"brigg#1": 0}}, mode="The Riverbank")
    game.arrange(players={0: {"fields": {"home": "s:0,3"}}, 1: {"fields": {"home": "s:6,3"}}})
    play(game, "opt1")
    assert set(options(game)) == {"4,1", "4,2"}
    play(game, "4,1")
    assert value(game, "first(brigg).space") == "s:4,1"


def test_war_horn_lifts_every_fallen_in_the_area(rules: rulecraft.Ruleset) -> None:
    """War Horn (Riverbank, authored): "every fallen adventurer of yours in your active
    adventurer's area stands up wounded, as long as there is room"."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0, "brigg#1": 0, "balor#1": 0}, "0,3": {"dherghen#1": 1}},
        cards={
            "brigg#1": {"owner": 0, "side": "wounded", "flags": ["fallen"]},
            "balor#1": {"owner": 0, "side": "wounded", "flags": ["fallen"]},
        },
        zones={"event_hand": {0: ["war_horn#1"]}},
    )
    play(game, "act:activate:iedain#1", "act:play_event:war_horn#1")
    assert value(game, "count(units(you) where it has fallen)") == 0
    assert value(game, "first(balor) has activated") is True


def test_arrow_volley_wounds_enemies_in_the_river(rules: rulecraft.Ruleset) -> None:
    """Arrow Volley (Riverbank, authored): "every healthy enemy adventurer standing in a river
    area your active adventurer sees, up to 2 areas away, is wounded"."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0}, "3,2": {"dherghen#1": 1}, "3,5": {"ao#1": 1}},
        zones={"event_hand": {0: ["arrow_volley#1"]}},
        mode="The Riverbank",
    )
    play(game, "act:activate:iedain#1", "act:play_event:arrow_volley#1")
    assert value(game, "first(dherghen).side") == "wounded"
    assert value(game, "first(ao).side") == "healthy"  # 3 areas away


def test_a_hand_card_is_named_to_its_holder_only(rules: rulecraft.Ruleset) -> None:
    """Hand cards "are not read out loud": the other player reads that a card is played, and
    its name once it lies in the discard pile ("Once a card has been used, it must be
    discarded"). Cover of Darkness (Battle at Twilight, authored): "your active adventurer
    may travel once more this activation"."""
    game = position(
        rules,
        {"4,2": {"iedain#1": 0}, "0,3": {"dherghen#1": 1}},
        zones={"event_hand": {0: ["cover_of_darkness#1"]}},
        ap=(6, 3),
    )
    play(game, "act:activate:iedain#1", "act:travel:4,1", "act:travel:4,2")
    assert not any(o.startswith("act:travel:") for o in options(game))
    assert game.decision is not None
    labels = {o.id: o.label for o in game.decision.options}
    assert labels["act:play_event:cover_of_darkness#1"] == "Play Cover of Darkness"
    play(game, "act:play_event:cover_of_darkness#1")
    assert any(o.startswith("act:travel:") for o in options(game))
    assert "Player 1: Play Cover of Darkness" in game.log_for(0)
    assert "Player 1: Play a card" in game.log_for(1)
    assert "Player 1 plays Cover of Darkness" in game.log_for(1)


# ---------------------------------------------------------------- the bots' evaluation
def test_wounding_a_rival_counts_in_the_evaluation(rules: rulecraft.Ruleset) -> None:
    """The bots' evaluation (`worth` in rules.rcl, in tenths): a wounded adventurer falls at
    the next hit, and "For every enemy adventurer that is knocked to the ground, you receive
    1 victory point". A healthy rival counts 20 against, as a healthy adventurer of one's own
    counts 20 for: before, a wound was worth nothing to the attacker, so an attack that only
    wounded cost its action point, and MCTS (mcts:30/d0) lost most of its games against
    random in Clash of the Tempest, where knock-downs are the only torcs (issue 14)."""
    placement = {"4,2": {"brigg#1": 0}, "1,2": {"dherghen#1": 1}}
    healthy = position(rules, placement)
    wounded = position(
        rules, placement, cards={"dherghen#1": {"owner": 1, "side": "wounded", "flags": []}}
    )
    assert wounded.evaluate(0) - healthy.evaluate(0) == 20
    assert wounded.evaluate(1) - healthy.evaluate(1) == -20


def test_the_storm_tile_draws_the_bots_in_clash_of_the_tempest(rules: rulecraft.Ruleset) -> None:
    """Clash of the Tempest: "If any of your adventurers are on this tile at the beginning of
    a turn, you must roll an auxiliary die to invoke the tempest", and conquering is worth no
    torc there, so the evaluation's way to torcs (`drive`) is the storm tile (4,3): 30 for an
    adventurer on it, 10 next to it, nothing farther away."""

    def worth_with_brigg_at(area: str) -> float:
        game = position(
            rules,
            {area: {"brigg#1": 0}, "0,3": {"dherghen#1": 1}},
            mode="Clash of the Tempest",
        )
        return game.evaluate(0)

    on_it, next_to_it, away = (worth_with_brigg_at(a) for a in ("4,3", "4,2", "1,2"))
    assert (on_it - away, next_to_it - away) == (30, 10)


def test_a_knock_down_by_the_storm_is_worth_a_torc_and_a_rival_to_the_bots(
    rules: rulecraft.Ruleset,
) -> None:
    """The evaluation's scale (`evaluation_scale: 25` in ruleset.yaml): a torc is 4.0 to the
    bots, a rival's standing adventurer 0.8 and one's own 1.2, so a knock-down ("For every
    enemy adventurer that is knocked to the ground, you receive 1 victory point") by the
    storm moves seat 1's evaluation by 4.8 (a torc and a rival less) and seat 2's by -5.6 (a
    torc to the rival, its standing adventurer, and its place next to the storm tile, 0.4)."""
    game = tempest_over_a_wounded_rival(rules)
    before = [game.evaluate(seat) / game.evaluation_scale for seat in (0, 1)]
    game.choose(next(o.id for o in game.decision.options if o.label == "4,2"))
    after = [game.evaluate(seat) / game.evaluation_scale for seat in (0, 1)]
    assert value(game, "you.torcs") == 1
    assert (after[0] - before[0], after[1] - before[1]) == pytest.approx((4.8, -5.6))
