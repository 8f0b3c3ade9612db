"""Waste Knights: Second Edition (rulesets/waste_knights): rules checked against the rulebook.

Each test quotes the rulebook sentence it checks (shared/seeds/000, "Waste Knights: Second
Edition Rulebook").  Games are driven through the public API only.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.compile.semantic import story_graph
from rulecraft.diagnostics import Severity

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "waste_knights"


@pytest.fixture(scope="module")
def ruleset() -> Any:
    return rulecraft.load(str(RULESET))


def start(ruleset: Any, players: int = 1, seed: int = 1) -> Any:
    """A game past setup: every knight takes the first offered sheet and kit."""
    game = ruleset.new_game(players=players, seed=seed)
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    return game


def ev(game: Any, expr: str, seat: int = 0) -> Any:
    return game.evaluate_expr(expr, seat)


def test_validates_with_a_complete_story_graph() -> None:
    """Issue 6: 'rulecraft validate reports the story graph: every entry reachable, no dead
    end, every ending reachable'."""
    checked = check_ruleset(RULESET)
    problems = [d for d in checked.diagnostics if d.severity != Severity.INFO]
    assert problems == []
    graph = story_graph(checked.compiler)
    assert len(graph.entries) >= 30
    assert graph.reachable() == set(graph.entries)
    assert {32, 60, 61} <= graph.endings
    mermaid = (ROOT / "docs" / "rulesets" / "waste_knights_story.mmd").read_text()
    assert mermaid == graph.mermaid()


def test_component_counts_follow_the_rulebook(ruleset: Any) -> None:
    """Components: '40 Wasteland Cards (Desert / Highway) • 30 Wasteland Cards (Scrub /
    Mountains) • 20 Exploration Cards • 64 Gear Cards ... • 8 Malfunction Cards • 8 Injury
    Cards • 24 Personal Upgrade Cards (4 per knight) • 6 General Upgrade Cards ... 10 Threat
    Tokens'."""
    game = start(ruleset, players=1)
    assert ev(game, "count(wl_dh) + count(wl_dh_discard) + count(table where it.deck == dh)") == 40
    assert ev(game, "count(wl_sm) + count(wl_sm_discard) + count(table where it.deck == sm)") == 30
    assert ev(game, "count(explore_deck)") == 20
    assert ev(game, "count(injury_deck)") == 8
    assert ev(game, "count(malfunction_deck)") == 8
    assert ev(game, "count(upgrade_pool where not it.general)") == 24
    assert ev(game, "count(upgrade_pool where it.general)") == 6
    assert ev(game, "count(threat_bag)") == 10
    gear = "count(gear_deck) + count(gear_discard) + count(all_gear(you))"
    assert ev(game, gear) == 64
    assert ev(game, "count(roster) + count(players)") == 6


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_player_setup(ruleset: Any, players: int) -> None:
    """'Each player takes 2 resources of each type from the pool'; quick setup: 'Johnny
    Taylor: Knife, Pistol, Trash Armor, Off-road'; the gear deck lies 'with the broken side
    face-up'."""
    game = start(ruleset, players=players)
    for seat in range(players):
        assert ev(game, "[you.fuel, you.ammo, you.meds]", seat) == [2, 2, 2]
        assert ev(game, "knight_of(you) != none and vehicle_of(you) != none", seat) is True
        assert ev(game, "here(you) == adventure_start", seat) is True
    # "Starting from the first player and going clockwise": the first player picks first.
    # The roll-off's winner is the engine's start seat and takes the game's first turn.
    first = game.start_seat
    assert f"Player {first + 1} is the first player and takes the First Player Marker" in game.log
    assert f"Player {first + 1} starts." in game.log
    assert ev(game, "seat(start_player)") == first
    assert game.decision.seat == first
    assert ev(game, "knight_of(you).tag", first) == "johnny_k"
    assert ev(game, "vehicle_of(you).tag", first) == "offroad_v"
    kit = ev(game, "[count(hands), count(armor_slot), count(cargo)]", first)
    assert kit[0] + kit[1] + kit[2] == 3
    assert ev(game, "count(gear_deck where it.side == working)") == 0
    assert ev(game, "starting_knights") == players


def test_two_different_actions_per_turn(ruleset: Any) -> None:
    """'In their turn the active knight may perform up to 2 different actions ... Each action
    can only be taken once per turn (e.g. the knight cannot move and then move again).'"""
    game = start(ruleset, players=1, seed=3)
    if game.decision.prompt.startswith("Prepare"):
        game.choose("pass")
    ids = [o.id for o in game.decision.options]
    assert "act:move" in ids and "act:camp" in ids and "pass" in ids
    game.choose("act:camp")
    while game.decision.kind != "action":
        game.choose(game.decision.options[-1].id)
    # "before or after performing an action": a free gear phase between the two actions.
    assert game.decision.prompt == "Prepare your gear between actions (free)"
    game.choose("pass")
    assert game.decision.prompt == "Take up to 2 different actions (the second)"
    ids = [o.id for o in game.decision.options]
    assert "act:camp" not in ids
    assert "act:explore" in ids
    game.choose("act:explore")
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[0].id)
    # Two actions taken: the next turn begins (a solo knight's own next turn).
    assert game.decision.prompt == "Prepare your gear (free)"
    assert ev(game, "round") == 2


def test_terrain_costs_and_craters(ruleset: Any) -> None:
    """'Highway 0 MP, Desert 1 MP, Mountains 2 MP, Scrub 2 MP'; 'Crater spaces cannot be
    entered (i.e. they are impassable).'"""
    game = start(ruleset)
    assert ev(game, "space_at(1, 3).cost") == 0
    assert ev(game, "space_at(5, 2).cost") == 1
    assert ev(game, "space_at(8, 0).cost") == 2
    assert ev(game, "space_at(0, 6).cost") == 2
    assert ev(game, "path_cost(space_at(0, 3), space_at(9, 3))") == 0
    assert ev(game, "path_cost(space_at(1, 1), space_at(2, 1))") == -1
    assert ev(game, "space_at(2, 1) in reach(space_at(1, 1), 20)") is False


def test_move_spends_movement_points_then_fuel(ruleset: Any) -> None:
    """'MP are provided by the knight's Vehicle, their number equal to the vehicle's Speed
    ... the knight may spend available Fuel'; a wasteland card 'is always drawn'."""
    game = start(ruleset, seed=5)
    if game.decision.prompt.startswith("Prepare"):
        game.choose("pass")
    game.choose("act:move")
    assert game.decision.prompt.startswith("Move")
    fuel = ev(game, "you.fuel")
    # Dustwater (4,2) is a highway space; (5,2) is desert: 1 MP out of the Off-road's 3.
    game.choose("5,2")
    assert ev(game, "you.mp") == 2
    assert ev(game, "you.fuel") == fuel
    assert ev(game, "here(you) == space_at(5, 2)") is True
    # "Any unspent MP are lost at the end of movement."
    game.choose("done")
    assert ev(game, "you.mp") == 0
    assert any(line.startswith("Wasteland card") for line in game.log)


def test_a_roll_keeps_at_least_one_die(ruleset: Any) -> None:
    """Golden Rules: 'You cannot have less than 1 die in any roll. When you lose dice, and
    the effect does not state otherwise, you choose which die to lose.'  Resolving Tests:
    'You always roll at least 1 die.'  The manifest declares `rolls: {min_dice: 1}`: a pool
    that lost every die keeps the strongest it lost (the knight's choice)."""
    from rulecraft.runtime.chance import make_pool

    program = ruleset.program
    assert program.min_dice == 1
    assert str(make_pool(program.dice, {"white": -1, "blue": 0}, program.min_dice)) == "1 blue"
    assert str(make_pool(program.dice, {"white": 2, "red": -1}, program.min_dice)) == "2 white"


def test_grim_badlands_is_the_worst_for_the_players(ruleset: Any) -> None:
    """'always choose the option worst for the players': the manifest's grim policy picks
    worst, and the entries where the Waste decides use it."""
    checked = check_ruleset(RULESET)
    assert checked.manifest is not None
    assert checked.manifest["policies"]["grim"]["pick"] == "worst"
    text = (RULESET / "plot.rcl").read_text()
    assert text.count("chooser: grim") >= 3


def test_random_games_finish_without_errors(ruleset: Any) -> None:
    """Issue 6: random games run without an error (here 12; `rulecraft simulate -n 500`
    runs the full count)."""
    for seed in range(12):
        rng = random.Random(seed)
        game = ruleset.new_game(players=1 + seed % 4, seed=seed)
        steps = 0
        while game.decision is not None and steps < 4000:
            game.choose(rng.choice(game.decision.options).id)
            steps += 1
        assert game.result is not None


INVARIANTS = {
    # "No combatant can have more Wound/Radiation than their Health - any excess is ignored."
    "harm": "not alive(you) or you.wounds + you.cwounds <= health(you)",
    # "The knight can have as much Radiation as their Resilience allows."
    "radiation": "not alive(you) or you.radiation <= knight_of(you).resilience",
    # "their XP is limited to 19"; "A knight can have up to 6 upgrade cards"
    "xp": "you.xp <= 19 and count(you.upgrades) <= 6",
    # A third Injury or Malfunction eliminates the knight instead.
    "injuries": "count(injured(you)) <= 2 and count(faulty(you)) <= 2",
    # "When it has as much Damage as its Chassis, it becomes Wrecked"
    "damage": "not alive(you) or you.damage <= chassis_of(you)",
    "unconscious": "(you has unconscious) == any(you.injuries where it.side == unconscious)",
}


def test_harm_limits_hold_in_random_games(ruleset: Any) -> None:
    """Limits of the harm, XP and upgrade rules checked at every decision of random games."""
    knocked_out = 0
    for seed in range(6):
        rng = random.Random(100 + seed)
        game = ruleset.new_game(players=1 + seed % 3, seed=100 + seed)
        while game.decision is not None:
            for seat in range(1 + seed % 3):
                if ev(game, "knight_of(you) == none or vehicle_of(you) == none", seat):
                    continue
                for name, expr in INVARIANTS.items():
                    assert ev(game, expr, seat) is True, (seed, seat, name)
            game.choose(rng.choice(game.decision.options).id)
        knocked_out += sum("loses consciousness" in line for line in game.log)
    assert knocked_out > 0, "the random games never reached unconsciousness"


def test_each_combatant_attacks_once_per_combat(ruleset: Any) -> None:
    """'Each combatant can only attack once per combat'; 'Do not resolve more than 1 attack
    for each combatant.'  Steps come in the rulebook's order."""
    fights = 0
    steps = [f"Combat step {n}" for n in range(1, 6)]
    for seed in range(10):
        rng = random.Random(seed)
        game = ruleset.new_game(players=2, seed=seed)
        while game.decision is not None:
            game.choose(rng.choice(game.decision.options).id)
        combat: list[str] = []
        for line in [*game.log, "Combat with, end"]:
            if line.startswith("Combat with"):
                if combat:
                    fights += 1
                    knight = [x for x in combat if ", attacks with, " in x]
                    enemy = [x for x in combat if x.endswith(", attacks")]
                    assert len(knight) <= 1 and len(enemy) <= 1, combat
                    seen = [s for s in steps if any(x.startswith(s) for x in combat)]
                    order = [next(i for i, x in enumerate(combat) if x.startswith(s)) for s in seen]
                    assert order == sorted(order), combat
                combat = []
            combat.append(line)
    assert fights > 0


def sharing_start(ruleset: Any, broken: str) -> Any:
    """Two knights camping together at Dustwater (seed 16: Player 2 is the first player),
    with the gear card ``broken`` of Player 1 turned to its broken side."""
    game = start(ruleset, players=2, seed=16)
    game.arrange(cards={broken: {"side": "broken"}})
    return game


def test_camping_knights_repair_each_others_gear(ruleset: Any) -> None:
    """Sharing space: 'If one of the knights on the camp space performs the Camp Action ...
    The knight may use their Repair to flip gear cards belonging to other knights or to
    discard Damage tokens from their vehicle sheets.'"""
    game = sharing_start(ruleset, "trash_armor#2")
    assert game.decision.seat == 1 and ev(game, "sharing(you)", 1) is True
    assert ev(game, "first(armor_slot).side", 0) == "broken"
    game.choose("pass")
    game.choose("act:camp")
    assert game.decision.prompt == "Camp: repair"
    game.choose(game.decision.options[0].id)  # Repair a broken gear card: Player 1's armour
    assert ev(game, "first(armor_slot).side", 0) == "working"
    assert any(line.endswith("is repaired") and "Trash Armor of" in line for line in game.log)


def test_camping_knights_trade_both_ways(ruleset: Any) -> None:
    """Trade: 'The knight may trade gear cards and/or resources with any other knights on the
    camp space. The knights may trade in any way they wish': the camping knight gives, or asks
    and the other knight gives."""
    game = sharing_start(ruleset, "trash_armor#2")
    game.choose("pass")
    game.choose("act:camp")
    while game.decision.prompt != "Camp: trade with knights on your space":
        game.choose(game.decision.options[-1].id)
    labels = {o.label: o.id for o in game.decision.options}
    game.choose(labels["Ask a knight here for a resource or gear card"])
    # Player 1 decides what to give.
    assert game.decision.seat == 0 and game.decision.prompt.endswith("asks you to give")
    labels = {o.label: o.id for o in game.decision.options}
    game.choose(labels["A gear card"])
    game.choose("knife#2")
    assert game.decision.seat == 1 and game.decision.prompt == "Where does Knife go?"
    game.choose({o.label: o.id for o in game.decision.options}["Put it in the vehicle"])
    assert ev(game, "count(cargo where it.def == knife)", 1) == 1
    assert ev(game, "count(all_gear(you))", 0) == 2
    labels = {o.label: o.id for o in game.decision.options}
    game.choose(labels["Give 1 Meds"])
    assert ev(game, "you.meds", 0) == 3 and ev(game, "you.meds", 1) == 1


def test_full_auto_rerolls_the_chosen_dice(ruleset: Any) -> None:
    """Gear Card Overview: 'Full-auto (weapon only): This combatant may spend 1 Ammo to choose
    and re-roll any of their dice. Resolve after rolling dice.'  Johnny (seed 33) carries a
    Rusty SMG into the Dingo Pack of the first move; only the chosen die is rolled again."""
    game = start(ruleset, players=1, seed=33)
    game.arrange(
        zones={"hands": {0: {"cards": ["smg#1"], "others_to": "gear_discard"}}},
        cards={"smg#1": {"side": "working"}},
    )
    for option in ("pass", "act:move", "5,2", "done", "smg#1"):
        game.choose(option)
    while not game.decision.prompt.startswith("Full-auto"):
        game.choose(game.decision.options[-1].id)
    assert ev(game, "you.ammo") == 1  # 1 Ammo for the ranged attack
    game.choose(game.decision.options[0].id)  # spend 1 Ammo and choose dice
    assert ev(game, "you.ammo") == 0
    assert game.decision.prompt.startswith("Full-auto: re-roll which dice?")
    dice = [o.id for o in game.decision.options if o.id != "done"]
    assert len(dice) == 4  # Johnny's Guns dice + the SMG's 1 blue + 1 white: all offered
    blank = next(d for d in dice if "blank" in d)
    game.choose(blank)
    assert blank not in [o.id for o in game.decision.options]
    rolled = [line for line in game.log if line.startswith("Rolled")]
    game.choose("done")
    # `reroll r where it in picked`: no new pool is rolled, the one chosen die changes.
    assert [line for line in game.log if line.startswith("Rolled")] == rolled
    rerolled = [line for line in game.log if line.startswith("Rerolled")]
    assert len(rerolled) == 1 and rerolled[0].startswith("Rerolled 1 dice: ")

    def counts(line: str) -> dict[str, int]:
        pairs = (item.split(" ") for item in line.split(": ", 1)[1].split(", "))
        return {symbol: int(n) for n, symbol in pairs}

    before, after = counts(rolled[-1]), counts(rerolled[0])
    change = {s: after.get(s, 0) - before.get(s, 0) for s in {*before, *after}}
    change = {s: n for s, n in change.items() if n}
    # The blank white die left the result and one white face took its place: every other
    # die shows what it showed (a white die shows blank_white, fate, success or botch).
    new_face = [{}] + [{"blank_white": -1, s: 1} for s in ("fate", "success", "botch")]
    assert change in new_face


def test_camp_uses_the_cards_with_a_camp_effect(ruleset: Any) -> None:
    """Camp Action: 'Use Effects: Some cards or effects can be used only when performing the
    Camp Action (e.g. the Mil-feed gear card) as stated in their description.'  Mil-feed
    ('Camp: heal 3 Wound, then discard this card') is offered; the Frag Grenade in the same
    vehicle has no Camp effect (`where it.use != none`) and is not."""

    game = start(ruleset, players=1, seed=1)
    game.arrange(
        zones={"cargo": {0: ["mil_feed#1", "frag_grenade#1"]}},
        cards={"mil_feed#1": {"side": "working"}, "frag_grenade#1": {"side": "working"}},
        players={0: {"resources": {"wounds": 3}}},
    )
    assert ev(game, "count(cargo where it.use != none)") == 1
    game.choose("pass")
    game.choose("act:camp")
    asked = 0
    while game.decision.kind != "action":
        if game.decision.prompt == "Use this gear card?":
            asked += 1
            game.choose({o.label: o.id for o in game.decision.options}["Use it"])
        else:
            game.choose(game.decision.options[-1].id)
    assert asked == 1
    assert ev(game, "you.wounds") == 0  # "heal 3 Wound"
    assert ev(game, "any(gear_discard where it.def == mil_feed)") is True
    assert ev(game, "any(cargo where it.def == frag_grenade)") is True


def arranged(ruleset: Any, seed: int = 1, **setup: Any) -> Any:
    """Johnny alone, past setup, in the position ``setup`` arranges (``Game.arrange``)."""
    game = start(ruleset, players=1, seed=seed)
    game.arrange(**setup)
    return game


def meet(ruleset: Any, enemy: str, setup: dict[str, Any] | None = None, seed: int = 1) -> Any:
    """Johnny alone at Dustwater with ``enemy`` on top of the highway / desert wasteland deck:
    the first Move, to the desert space 5,2, draws it.  Stops at the weapon choice."""
    game = arranged(ruleset, seed, zones={"wl_dh": [enemy]})
    if setup is not None:
        game.arrange(setup)
    for option in ("pass", "act:move", "5,2", "done"):
        game.choose(option)
    assert game.decision.prompt == "Choose your weapon"
    return game


def combat_log(game: Any, enemy: str) -> list[str]:
    """The log of the fight with ``enemy``, up to its card's discard (or up to now)."""
    start = next(i for i, x in enumerate(game.log) if x.startswith(f"Combat with {enemy}"))
    discard = f"{enemy} -> Wasteland discard (highway / desert)"
    end = game.log.index(discard, start) if discard in game.log[start:] else len(game.log)
    return game.log[start:end]


def finish_combat(game: Any, answer: int = -1) -> None:
    while game.decision is not None and game.decision.kind != "action":
        game.choose(game.decision.options[answer].id)


def test_threat_trait_draws_its_tokens_before_the_weapon_is_chosen(ruleset: Any) -> None:
    """Combat, I. Check Enemy Traits: 'Depending on the trait some are resolved immediately
    (e.g. Threat) ... If the enemy has Threat (X), X additional Threat Tokens should be drawn
    from the bag now.'  Highway Raiders has Threat (1); seed 2 draws Wreckage, whose red side
    ('Your vehicle suffers 2 Damage') acts before the knight chooses a weapon."""
    game = meet(ruleset, "highway_raiders#1", seed=2)
    log = combat_log(game, "Highway Raiders")
    assert log == [
        "Combat with Highway Raiders Health 4",
        "The game draws Wreckage",
        "Wreckage turns to red_side",
        "Threat token: Wreckage (red)",
        "Player 1 suffers 2 damage",
    ]
    assert ev(game, "[count(threats), count(threat_bag), you.damage]") == [1, 9, 2]


def test_boom_stick_example_fires_first_and_its_botch_deals_a_wound(ruleset: Any) -> None:
    """Personal Upgrade Cards: 'Example: "Boom Stick" (Personal Upgrade Gear Card, XP
    Requirement 6): You resolve your Ranged attack before your enemy's Ranged attack. ...
    Botch: Deal 1 Wound.'  Against the Road Gang (ranged, Health 3)."""

    boom = {
        "zones": {"upgrades": {0: ["boom_stick#1"]}},
        "cards": {"boom_stick#1": {"side": "face"}},
    }

    # Seed 5: no Success, 1 Botch: the knight's attack comes first in the ranged step, then
    # the gang's; the Botch deals the gang 1 Wound (an upgrade gear card does not break).
    game = meet(ruleset, "road_gang#1", boom, seed=5)
    game.choose("boom_stick#1")
    finish_combat(game)
    log = combat_log(game, "Road Gang")
    knight = log.index("Johnny Taylor attacks with Boom Stick")
    assert log[knight - 1] == "Combat step 2: Ranged attacks"
    assert (
        log[knight + 2]
        == "Rolled 1 blue + 2 green + 1 red: 1 blank_blue, 1 blank_green, 1 botch, 1 fate"
    )
    assert log[knight + 3] == "Road Gang gains 1 harm"
    assert log.index("Road Gang attacks") == knight + 4
    assert ev(game, "first(upgrades).side") == "face"
    # Seed 1: 2 Successes + the Botch's Wound defeat the gang in the ranged step: it never
    # shoots back ("the defeated combatant cannot retaliate"), and steps 3-4 are skipped.
    game = meet(ruleset, "road_gang#1", boom, seed=1)
    game.choose("boom_stick#1")
    finish_combat(game)
    log = combat_log(game, "Road Gang")
    assert "Road Gang attacks" not in log and "Combat step 3: Advance" not in log
    assert log[log.index("Combat step 5: Resolution") + 1] == "Road Gang is defeated"


def test_controlled_fury_example_adds_a_wound_to_a_melee_attack(ruleset: Any) -> None:
    """General Upgrade Cards: 'Example: "Controlled Fury" (General Upgrade Card): When
    attacking bare-handed or with a Melee weapon, you may flip this card to deal 1 additional
    Wound.'  Against the Dust Cultists (melee, Health 3), seed 3: the Knife rolls 2 Successes."""

    fury = {
        "zones": {"upgrades": {0: ["controlled_fury#1"]}},
        "cards": {"controlled_fury#1": {"side": "face"}},
    }

    game = meet(ruleset, "dust_cultists#1", fury, seed=3)
    game.choose("knife#1")
    finish_combat(game, answer=0)  # break the armour; flip Controlled Fury
    log = combat_log(game, "Dust Cultists")
    knife = log.index("Johnny Taylor attacks with Knife")
    assert log[knife + 1].endswith("2 success")
    assert "Johnny Taylor deals 3 Wound to Dust Cultists" in log
    assert "Dust Cultists is defeated" in log
    assert ev(game, "first(upgrades).side") == "back"  # flipped: used up
    # With a ranged weapon the card is not offered.
    game = meet(ruleset, "dust_cultists#1", fury, seed=3)
    game.choose("pistol#1")
    prompts = []
    while game.decision.kind != "action":
        prompts.append(game.decision.prompt)
        game.choose(game.decision.options[-1].id)
    assert not any(p.startswith("Flip Controlled Fury") for p in prompts)
    assert ev(game, "first(upgrades).side") == "face"


def test_combat_order_defeat_before_retaliation_and_relentless(ruleset: Any) -> None:
    """Combat Resolution, step 2: 'Now check if any combatant is defeated ... go straight to
    the Resolution Step - the defeated combatant cannot retaliate in step 3 or 4.'
    'Important: If the enemy has Relentless, it cannot be defeated until the beginning of the
    Resolution Step. Therefore, it may still attack in melee'; step 5: 'If the enemy is
    Relentless, but received enough Wound to be defeated, it is defeated now.'  Both enemies
    (melee, Health 3) already carry 2 Wound; seed 2: the Pistol hits once in step 2."""

    def wounded(enemy: str) -> dict[str, Any]:
        return {"cards": {enemy: {"fields": {"harm": 2}}}}

    steps = [f"Combat step {n}" for n in range(1, 6)]
    game = meet(ruleset, "dust_cultists#1", wounded("dust_cultists#1"), seed=2)
    game.choose("pistol#1")
    finish_combat(game)
    log = combat_log(game, "Dust Cultists")
    assert [x.split(":")[0] for x in log if x.startswith("Combat step")] == [
        steps[0],
        steps[1],
        steps[4],
    ]
    assert "Dust Cultists attacks" not in log
    assert "Dust Cultists is defeated" in log
    game = meet(ruleset, "feral_camel#1", wounded("feral_camel#1"), seed=2)
    game.choose("pistol#1")
    finish_combat(game)
    log = combat_log(game, "Feral Camel")
    assert [x.split(":")[0] for x in log if x.startswith("Combat step")] == steps
    hit = log.index("Johnny Taylor deals 1 Wound to Feral Camel")
    melee = log.index("Combat step 4: Melee attacks")
    assert hit < melee and log[melee + 1] == "Feral Camel attacks"
    resolution = log.index("Combat step 5: Resolution")
    assert log[resolution + 1] == "Feral Camel is defeated"


def test_injury_example_cards_unconscious_then_broken_arm(ruleset: Any) -> None:
    """Injury and Malfunction Cards, example cards: 'Injury Card - Unconscious Side ... You
    can only perform the following action: Special Action (Regain Consciousness): Heal 1
    Radiation and 4 Wound. Then flip this card.'  'Injury Card - Front Side (Broken Arm,
    Injury): You can only use 1 one-handed weapon.'  Johnny holds a Knife and a Pistol."""

    game = arranged(
        ruleset,
        zones={"injuries": {0: ["broken_arm#1"]}},
        cards={"broken_arm#1": {"side": "unconscious"}},
        players={
            0: {"flags": ["unconscious"], "resources": {"wounds": 5, "cwounds": 1, "radiation": 2}}
        },
    )
    game.choose("pass")
    assert [o.id for o in game.decision.options] == ["act:regain", "pass"]
    game.choose("act:regain")
    # 4 healing points, each on a normal Wound (the knight's choice); 1 Radiation.
    for _ in range(4):
        assert game.decision.prompt == HEAL_PROMPT
        game.choose(game.decision.options[0].id)  # Heal 1 Wound
    assert ev(game, "[you.wounds, you.cwounds, you.radiation]") == [1, 1, 1]
    assert ev(game, "first(injuries).side == front and not (you has unconscious)") is True
    # Broken Arm: one of the two one-handed weapons must be put away.
    assert ev(game, "hand_limit(you)") == 1
    assert game.decision.prompt == "Your injury takes a hand slot: put a weapon away"
    game.choose("pistol#1")
    game.choose({o.label: o.id for o in game.decision.options}["Put it in the vehicle"])
    assert ev(game, "[count(hands), count(cargo where it.def == pistol)]") == [1, 1]
    # Between the actions the Pistol cannot be equipped again.
    assert game.decision.prompt == "Prepare your gear between actions (free)"
    assert "act:equip:pistol#1" not in [o.id for o in game.decision.options]


HEAL_PROMPT = "Heal 1 point: a Wound or a Contaminated Wound?"


@pytest.mark.parametrize(
    ("answers", "left"),
    [
        # 3 Wound healed; the 4th point can only flip a Contaminated Wound
        (["Heal 1 Wound"] * 4, [1, 1]),
        # a Contaminated Wound flipped then healed as a Wound: 2 points each
        (["Heal 1 Contaminated Wound (it turns into a Wound)", "Heal 1 Wound"] * 2, [3, 0]),
        # both flipped first; the last 2 points heal Wound without asking
        (["Heal 1 Contaminated Wound (it turns into a Wound)"] * 2, [3, 0]),
    ],
)
def test_the_knight_splits_healing_between_wound_and_contamination(
    ruleset: Any, answers: list[str], left: list[int]
) -> None:
    """Heal: 'When healing Wound, the knight may also choose to heal Contamination, but
    healing it causes its token to be flipped to the normal (Wound) side.' and 'The knight
    may split their healing between Wound and Contamination as they wish'.  Regain
    Consciousness heals 4 Wound: with 3 Wound and 2 Contaminated Wound the knight chooses
    for each point (the ruleset once always healed normal Wound first)."""
    game = arranged(
        ruleset,
        zones={"injuries": {0: ["broken_arm#1"]}},
        cards={"broken_arm#1": {"side": "unconscious"}},
        players={0: {"flags": ["unconscious"], "resources": {"wounds": 3, "cwounds": 2}}},
    )
    game.choose("pass")
    game.choose("act:regain")
    for answer in answers:
        if game.decision.prompt != HEAL_PROMPT:
            break  # one kind is gone: the rest heals without asking
        game.choose({o.label: o.id for o in game.decision.options}[answer])
    assert ev(game, "[you.wounds, you.cwounds]") == left


def test_malfunction_example_cards_wrecked_then_rattled(ruleset: Any) -> None:
    """Example cards: 'Malfunction Card - Wrecked Side ... You cannot perform the Move Action,
    spend Fuel to gain Exploration ... until you perform the following action: Special Action
    (Long Fix): Repair 3 Damage. Then flip this card.'  'Malfunction Card - Front Side
    (Rattled, Malfunction): Your vehicle loses 1 Chassis (to a min. of 2).'  The Off-road has
    Chassis 5."""

    game = arranged(
        ruleset,
        zones={"malfunctions": {0: ["rattled#1"]}},
        cards={"rattled#1": {"side": "wrecked"}},
        players={0: {"flags": ["wrecked_state"], "resources": {"damage": 5}}},
    )
    game.choose("pass")
    ids = [o.id for o in game.decision.options]
    assert "act:move" not in ids and "act:long_fix" in ids
    game.choose("act:explore")
    labels = []
    while game.decision.kind != "action":
        labels += [o.label for o in game.decision.options]
        game.choose(game.decision.options[-1].id)  # draw again while allowed
    assert not any(label.startswith("Spend 1 Fuel") for label in labels)
    game.choose("pass")
    game.choose("act:long_fix")
    assert ev(game, "[you.damage, first(malfunctions).side, you has wrecked_state]") == [
        2,
        "front",
        False,
    ]
    assert ev(game, "[vehicle_of(you).chassis, chassis_of(you)]") == [5, 4]


def test_two_special_actions_with_different_names_in_one_turn(ruleset: Any) -> None:
    """Special Actions: 'Special actions are followed by a unique name in brackets, e.g.
    Special Action (Regain Consciousness). The active knight can perform more than 1 Special
    Action per turn as long as each Special Action they perform has a different name.'"""

    game = arranged(
        ruleset,
        zones={"injuries": {0: ["bad_knee#1"]}, "malfunctions": {0: ["bent_axle#1"]}},
        cards={"bad_knee#1": {"side": "unconscious"}, "bent_axle#1": {"side": "wrecked"}},
        players={
            0: {"flags": ["unconscious", "wrecked_state"], "resources": {"wounds": 6, "damage": 5}}
        },
    )
    game.choose("pass")
    game.choose("act:regain")
    game.choose("pass")
    ids = [o.id for o in game.decision.options]
    assert game.decision.prompt.endswith("(the second)")
    assert "act:long_fix" in ids and "act:regain" not in ids
    game.choose("act:long_fix")
    assert ev(game, "you has unconscious or you has wrecked_state") is False


@pytest.mark.parametrize("deck", ["injuries", "malfunctions"])
def test_a_third_injury_or_malfunction_eliminates(ruleset: Any, deck: str) -> None:
    """Elimination: 'If the knight already has 2 Injury cards attached and loses consciousness
    (i.e. they would take the third Injury card), they are immediately eliminated from the
    game instead.'  'If the knight's vehicle already has 2 Malfunction cards attached and
    becomes wrecked (i.e. it would take the third Malfunction card), its owner is immediately
    eliminated'.  A lone knight eliminated loses the game at once."""

    if deck == "injuries":
        worn: dict[str, Any] = {
            "zones": {"injuries": {0: ["cracked_ribs#1", "bad_knee#1"]}},  # Health 6 - 1
            "cards": {"cracked_ribs#1": {"side": "front"}, "bad_knee#1": {"side": "front"}},
            "players": {0: {"resources": {"wounds": 4}}},
        }
        # Seed 1: the Road Gang shoots 1 Success in the ranged step; the knight takes it.
        game = meet(ruleset, "road_gang#1", worn, seed=1)
        game.choose("knife#1")
        finish_combat(game)
    else:
        # Seed 2: the Highway Raiders' Threat token Wreckage: 'Your vehicle suffers 2 Damage'.
        game = arranged(
            ruleset,
            2,
            zones={
                "malfunctions": {0: ["bent_axle#1", "jammed_hatch#1"]},
                "wl_dh": ["highway_raiders#1"],
            },
            cards={"bent_axle#1": {"side": "front"}, "jammed_hatch#1": {"side": "front"}},
            players={0: {"resources": {"damage": 3}}},  # Chassis 5
        )
        for option in ("pass", "act:move", "5,2", "done"):
            game.choose(option)
    assert "Johnny Taylor is eliminated from the game" in game.log
    assert ev(game, f"[you has eliminated, count(you.{deck}), count(all_gear(you))]") == [
        True,
        2,
        0,
    ]
    assert game.result is not None and game.result.winners == ()
    assert game.result.reason == "Every knight has been eliminated."
    assert ev(game, "time") == 1  # not played on to the end of the time track


def with_jack(ruleset: Any, seed: int) -> Any:
    """Johnny alone, with the personal upgrade Jack of All Trades already taken."""
    return arranged(ruleset, seed, zones={"upgrades": {0: ["jack_of_all_trades#1"]}})


@pytest.mark.parametrize("use", [True, False])
def test_optional_bonus_die_is_declared_before_the_roll(ruleset: Any, use: bool) -> None:
    """Resolving Tests: 'If you want to use any effects that provide additional Successes or
    allow you to gain dice, you must declare that you use them before rolling dice.'  Jack of
    All Trades: 'When making any test (except in combat), you may gain 1 white die. Once per
    turn.'  (Seed 7: the first move draws an event that tests Charisma, 1 white.)"""
    game = with_jack(ruleset, 7)
    for option in ("pass", "act:move", "5,2", "done"):
        game.choose(option)
    assert game.decision.prompt.startswith("Before rolling: use Jack of All Trades")
    labels = {o.label: o.id for o in game.decision.options}
    game.choose(labels["Gain 1 white die" if use else "Not for this test"])
    assert game.decision.kind == "roll"
    assert game.decision.prompt == (
        "Test charisma (2): roll 2 white" if use else "Test charisma (2): roll 1 white"
    )
    game.choose(game.decision.options[0].id)
    # Used: spent for this turn.  Declined: still there for a later test this turn.
    assert ev(game, "you has jack_used") is use
    assert ev(game, "you has bonus_declared") is False


def test_grenades_are_thrown_in_the_advance_step(ruleset: Any) -> None:
    """Combat Resolution, 3. Advance Step: 'Some knight weapons, e.g. the Frag Grenade, may be
    used in this step. Using them does not count against the "1 attack limit per combat" and
    unlike other weapons, they do not take any Hand slot.'  Johnny (seed 33) keeps a Frag
    Grenade in his vehicle, meets the Dingo Pack and fights with his Knife."""
    game = arranged(
        ruleset,
        33,
        zones={"cargo": {0: ["frag_grenade#1"]}},
        cards={"frag_grenade#1": {"side": "working"}},
    )
    # No hand slot: it is never offered to be equipped.
    assert "act:equip:frag_grenade#1" not in [o.id for o in game.decision.options]
    for option in ("pass", "act:move", "5,2", "done"):
        game.choose(option)
    assert "frag_grenade#1" not in [o.id for o in game.decision.options]  # not a weapon choice
    game.choose("knife#1")
    while not game.decision.prompt.startswith("Advance"):
        game.choose(game.decision.options[-1].id)
    assert game.decision.prompt == "Advance: throw Frag Grenade?"
    assert any(line == "Combat step 3: Advance" for line in game.log)
    game.choose(game.decision.options[0].id)
    assert "Johnny Taylor throws Frag Grenade" in game.log
    assert ev(game, "any(gear_discard where it.def == frag_grenade)") is True
    combat = game.log[game.log.index("Combat step 3: Advance") :]
    assert any(line.startswith("Rolled 1 green + 1 red") for line in combat)
    # The grenade was no attack: the knight still attacks with the Knife if the pack stands.
    if not any(line == "Dingo Pack is defeated" for line in combat[:4]):
        assert "Johnny Taylor attacks with Knife" in game.log


# The plot sheet's special locations: Salvage at 1-3, then Raise the Rainmaker at 6.
PLOT_TARGETS = {1: (1, 1), 2: (7, 2), 3: (8, 6), 6: (6, 4)}


def plot_target(game: Any, seat: int) -> tuple[int, int]:
    for n in (1, 2, 3):
        site = f"it.kind == site and it.number == {n} and it has searched"
        done = f"any(spaces where any(it.pieces where {site}))"
        if not ev(game, done, seat):
            return PLOT_TARGETS[n]
    return PLOT_TARGETS[6]


def follow_the_plot(ruleset: Any, seed: int, players: int) -> Any:
    """A scripted knight: drive to the next plot location, take its plot action, camp
    otherwise; every other decision takes the first option."""
    game = ruleset.new_game(players=players, seed=seed)
    while game.decision is not None:
        d = game.decision
        ids = [o.id for o in d.options]
        seat = d.seat
        if d.prompt.startswith("Take up to 2"):
            wanted = [
                a
                for a in ("act:plot_raise", "act:plot_salvage", "act:regain", "act:long_fix")
                if a in ids
            ]
            q, r = plot_target(game, seat)
            there = ev(game, f"here(you) == space_at({q}, {r})", seat)
            if wanted:
                game.choose(wanted[0])
            elif "act:move" in ids and not there:
                game.choose("act:move")
            else:
                game.choose("act:camp" if "act:camp" in ids else "pass")
        elif d.prompt.startswith("Move"):
            q, r = plot_target(game, seat)
            steps = [i for i in ids if "," in i]

            def dist(sid: str, q: int = q, r: int = r, seat: int = seat) -> int:
                route = f"space_at({sid}), space_at({q}, {r})"
                return int(ev(game, f"route_gap({route})", seat))

            now = int(ev(game, f"route_gap(here(you), space_at({q}, {r}))", seat))
            best = min(steps, key=dist) if steps else "done"
            game.choose(best if best == "done" or dist(best) < now or "done" not in ids else "done")
        elif d.prompt.startswith("Prepare"):
            game.choose("pass")
        else:
            game.choose(ids[0])
    return game


@pytest.mark.parametrize(("seed", "players"), [(20, 1), (18, 2)])
def test_following_the_plot_can_win(ruleset: Any, seed: int, players: int) -> None:
    """The adventure's win ending is reachable in play: three parts salvaged, the Rainmaker
    raised at the Dry Lake (entry 32), and every knight wins together."""
    game = follow_the_plot(ruleset, seed, players)
    assert game.result.winners == tuple(range(players))
    assert any(line.startswith("[32] Rain") for line in game.log)
    assert ev(game, "parts") == 3


def test_the_time_track_ends_the_adventure(ruleset: Any) -> None:
    """Plot sheet: 'when it reaches 10 the rains will never come (entry 60)'; the knights
    lose together."""
    game = start(ruleset, players=2, seed=7)
    while game.decision is not None:
        game.choose(
            "pass"
            if "pass" in [o.id for o in game.decision.options]
            else game.decision.options[0].id
        )
    assert game.result.winners == ()
    assert any(line.startswith("[60] Dry Season") for line in game.log)
    assert ev(game, "time") == 10


def test_the_doc_quotes_the_ruleset_and_its_story_graph() -> None:
    """docs/rulesets/waste_knights.md: each walked-through source text is the ruleset's own,
    and the Mermaid graph shown is the exported one."""
    doc = (ROOT / "docs" / "rulesets" / "waste_knights.md").read_text()
    sources = "".join(p.read_text() for p in sorted(RULESET.glob("*.rcl")))
    blocks = doc.split("```rcl\n")[1:]
    assert len(blocks) == 3
    for block in blocks:
        assert block.split("```")[0] in sources
    mermaid = (ROOT / "docs" / "rulesets" / "waste_knights_story.mmd").read_text()
    assert "```mermaid\n" + mermaid + "```" in doc
