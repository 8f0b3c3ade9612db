"""Wasteland Express Delivery Service (``rulesets/wasteland_express``, issue 12).

Each test quotes the rulebook (shared/seeds/001_d06b360f23c9d855.txt) sentence it checks.
Positions are arranged with ``Game.arrange`` on a seeded game after its setup decisions:
seed 1, two players, Player 1 (seat 0) starts; the sites of the outposts are looked up in
the game, never assumed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulecraft
from rulecraft import Decision, Game
from rulecraft.runtime.map import placed_map
from rulecraft.runtime.program import MapSpec

RULESET = rulecraft.load("wasteland_express")
#: where a ring zone lies from its octagon's centre (make_map.py)
OFFSETS = {"c": (0, 0), "n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1)}
OFFSETS |= {"s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
#: AUTHORED octagons with 4 zones and no irradiated zone nor raider icon (make_map.py)
PLAIN_4 = ("sunken_highway", "broken_bridge")


# ---------------------------------------------------------------------------- helpers
def new_game(players: int = 2, seed: int = 1, variant: str = "opt5") -> Game:
    """A game past its setup decisions: the variant, the drivers (first offered), the jobs."""
    game = RULESET.new_game(seed=seed, players=players)
    game.choose(variant)
    while game.decision is not None and prompt(game) != "Take an action":
        game.choose(decision(game).options[0].id)
    if game.decision is not None and game.decision.seat != 0:
        game.arrange(active=0, phase="act")  # Player 1 acts first in every test
    return game


def ev(game: Game, expr: str, seat: int = 0) -> Any:
    return game.evaluate_expr(expr, seat=seat)


def site(game: Game, place: str) -> str:
    """The map space (without 's:') of the location tile of ``place``."""
    found = ev(
        game,
        f"first(spaces where any(it.pieces where it.kind == location and it.place == {place}))",
    )
    assert isinstance(found, str) and found.startswith("s:"), place
    return found[2:]


def board(game: Game) -> MapSpec:
    """The map of this game: the octagons (map tiles) where its setup placed them."""
    mp = RULESET.program.map
    assert mp is not None
    return placed_map(mp, tuple(game.state["tiles"]))


def sp(game: Game, name: str) -> str:
    """A zone named by its slot: ``b2_nw`` is the nw zone of the octagon in slot b2, ``b2_c``
    its centre (the slot's origin is (4i+2, 4j+2)); a site's name (``g22``) is itself."""
    slot, _, zone = name.partition("_")
    if not zone:
        return name
    x, y = 4 * "abcd".index(slot[0]) + 2, 4 * (int(slot[1]) - 1) + 2
    dx, dy = OFFSETS[zone]
    return board(game).by_coord[(x + dx, y + dy)]


def plain_b2(game: Game) -> None:
    """Slot b2 holds a plain 4-zone octagon (nw, ne, se, sw round the centre)."""
    game.arrange(tiles={"b2": PLAIN_4[0]})


def neighbours(game: Game, space: str) -> list[str]:
    return list(board(game).adjacency[space])


def pieces(game: Game, space: str) -> list[str]:
    return list(game.state["zones"]["s:" + space])


def truck(game: Game, seat: int) -> str:
    rig = ev(game, "you.rig", seat)
    assert isinstance(rig, str)
    return rig


def hold(game: Game, seat: int, kind: str = "general") -> str:
    return str(ev(game, f"first(you.dash where it.hold == {kind})", seat))


def put_truck(game: Game, seat: int, space: str) -> None:
    game.arrange(zones={space: [*pieces(game, space), truck(game, seat)]})


def load(game: Game, cards: dict[str, str]) -> None:
    """Fill holds: {hold id: cargo}."""
    game.arrange(cards={h: {"fields": {"load": c}} for h, c in cards.items()})


def set_demand(game: Game, space: str, counter: str) -> None:
    """Replace the demand counter of a site by ``counter`` (the old one is discarded)."""
    kept = [c for c in pieces(game, space) if not c.startswith("dem_")] + [counter]
    game.arrange(zones={space: {"cards": kept, "others_to": "demand_discard"}})


def pieces_of_dash(game: Game, seat: int) -> list[str]:
    return list(game.state["zones"][f"z:dash@{seat}"])


def add_to_dash(game: Game, seat: int, *mods: str) -> None:
    game.arrange(zones={"dash": {seat: [*pieces_of_dash(game, seat), *mods]}})


def decision(game: Game) -> Decision:
    assert game.decision is not None
    return game.decision


def prompt(game: Game) -> str:
    assert game.decision is not None
    return game.decision.prompt


def settle(game: Game) -> None:
    """Answer whatever the rules ask (passing where one may) until the next action menu."""
    while game.decision is not None and prompt(game) != "Take an action":
        ids = game.legal_ids()
        game.choose("pass" if "pass" in ids else ids[0])


def log_since(game: Game, mark: int) -> list[str]:
    return game.log[mark:]


def play_random(players: int, seed: int) -> Game:
    game = RULESET.new_game(seed=seed, players=players)
    rng = random.Random(seed)
    while game.decision is not None:
        game.choose(rng.choice(decision(game).options).id)
    return game


# ---------------------------------------------------------------------------- setup 001-005
def test_setup_builds_the_wasteland() -> None:
    """001 A-E: 16 octagons in a 4x4 grid, the Depot in the middle, the 4 enclaves on the
    edge centres with "The Railmen Enclave and the Nein Nein Enclave ... directly opposite",
    16 outposts, "the 3 raider trucks at random in 3 different corner terrain octagons"."""
    for seed in range(6):
        game = new_game(seed=seed)
        # the 16 octagons in the 16 slots, a different board for each seed
        assert sorted(game.state["tiles"]) == sorted(t.id for t in board(game).tiles)
        assert ev(game, "count(spaces where it.terrain == centre)") == 16
        assert site(game, "depot") == "g22"
        railmen, nein = site(game, "railmen"), site(game, "nein_nein")
        edges = {"g20", "g42", "g24", "g02"}
        assert {railmen, nein, site(game, "eyeless"), site(game, "bonesaw")} == edges
        assert {railmen, nein} in ({"g20", "g24"}, {"g02", "g42"})
        assert (
            ev(
                game,
                "count(spaces where it.terrain == site"
                " and any(it.pieces where it.kind == location))",
            )
            == 21
        )
        corners = ev(game, "map(game.raiders, raider_space)")
        assert len(set(corners)) == 3
        assert set(corners) <= {"s:" + sp(game, c) for c in ("a1_c", "d1_c", "a4_c", "d4_c")}


def test_octagons_are_map_tiles_with_4_6_or_8_zones() -> None:
    """001 A: "Shuffle the 16 terrain octagons and distribute them randomly in a 4x4 grid";
    Move Your Truck: "The terrain octagons that make up the wasteland are divided into
    zones. Some terrain is easy to cross, and some is not. The more difficult the terrain,
    the more zones it has." (the layouts are AUTHORED, make_map.py)"""
    boards = set()
    for seed in range(4):
        game = RULESET.new_game(seed=seed, players=2)
        mp = board(game)
        boards.add(tuple(game.state["tiles"]))
        assert sorted(len(t.spaces) - 1 for t in mp.tiles) == [4] * 6 + [6] * 6 + [8] * 4
        for i in range(4):
            for j in range(4):
                assert mp.terrain[mp.by_coord[(4 * i + 2, 4 * j + 2)]] == "centre"
        # a site touches one corner zone of each octagon around it
        assert len(mp.adjacency["g22"]) == 4 and len(mp.adjacency["g20"]) == 2
    assert len(boards) == 4
    assert RULESET.new_game(seed=3).state["tiles"] == RULESET.new_game(seed=3).state["tiles"]
    # crossing a hard octagon from its west zone to its east zone takes 4 moves, an easy one 2
    game = new_game()
    game.arrange(tiles={"b2": "rust_canyon", "c2": "sunken_highway"})
    assert ev(game, "distance(space_at(5, 6), space_at(7, 6))") == 4
    assert ev(game, "distance(space_at(9, 5), space_at(11, 7))") == 2
    assert sp(game, "b2_w") == "rust_canyon_w" and sp(game, "c2_nw") == "sunken_highway_nw"


def test_setup_market_counters_and_prices() -> None:
    """003 C-D: a supply counter on each outpost that supplies cargo, a demand counter on each
    that demands it, "double demand counters will only appear during play, not during the
    initial setup", and "moving each cargo forward 1 price space for each active demand
    counter" from food 2, water 3, weapons 4."""
    for seed in range(8):
        game = new_game(seed=seed)
        assert (
            ev(
                game,
                "count(spaces where any(it.pieces where it.kind == location and it.supplies)"
                " and count(it.pieces where it.kind == supply) == 1)",
            )
            == 8
        )
        assert (
            ev(
                game,
                "count(spaces where any(it.pieces where it.kind == location and it.demands)"
                " and count(it.pieces where it.kind == demand) == 1)",
            )
            == 12
        )
        assert ev(game, "count(active_demands where count(it.wants) > 1)") == 0
        for cargo, base in (("food", 2), ("water", 3), ("weapons", 4)):
            active = ev(game, f"count(active_demands where {cargo} in it.wants)")
            assert ev(game, f"market_price({cargo})") == base + active


def test_setup_raider_trucks_contracts_and_player_areas() -> None:
    """003 E "Place 2 cargo in the back of each raider truck"; 004 A "Always use the 'Blue
    Screen of Death' contract ... draw 2 more at random"; 004 C "Welcome to the Wasteland"
    on top of the events deck; 005 A "$10 in $crap, 2 cargo holds (1 general storage, 1
    weapons storage)"; 005 B trucks on the Depot; 005 E one faction job kept of 3."""
    game = new_game(players=4)
    assert ev(game, "count(game.raiders where count(it.load) == 2)") == 3
    assert ev(game, "count(contracts)") == 3
    assert ev(game, "any(contracts where it.key == bsod)") is True
    assert ev(game, "count(box where it.kind == contract)") == 5
    # The first round revealed Welcome to the Wasteland.
    assert any(line == "Event: Welcome to the Wasteland" for line in game.log)
    for seat in range(4):
        assert ev(game, "you.crap", seat) == 10
        assert ev(game, "count(you.dash where it.hold == general)", seat) == 1
        assert ev(game, "count(you.dash where it.hold == weapons)", seat) == 1
        assert ev(game, "at_place(you, depot)", seat) is True
        assert ev(game, "count(you.jobs)", seat) == 1
        assert ev(game, "count(you.driver_seat)", seat) == 1
        assert ev(game, "markers_left(you)", seat) == 5


def test_drivers_are_chosen_in_reverse_turn_order() -> None:
    """005 A: "the player who will go last in the first round selects their character
    first"."""
    game = RULESET.new_game(seed=1, players=3)
    game.choose("opt1")
    order = []
    while game.decision is not None and prompt(game) == "Choose your driver":
        order.append(decision(game).seat)
        game.choose(decision(game).options[0].id)
    first = int(str(ev(game, "start_player"))[1:])
    assert order == [(first + 2) % 3, (first + 1) % 3, first]


# ---------------------------------------------------------------------------- the market
def test_market_price_example() -> None:
    """ "Example: 4 outposts currently have a demand for food, so the market price for food
    is $6. Nate delivers food to 1 of those outposts, then discards the food demand counter
    and reveals the next demand counter from the stack, which is water. On the price wheel,
    the market price of food decreases by $1 (dropping from $6 to $5), while the market
    price of water increases by $1.\""""
    game = new_game()
    demand_sites = [s[2:] for s in ev(game, "spaces where any(it.pieces where it.kind == demand)")]
    assert len(demand_sites) == 12
    kinds = ["dem_food"] * 4 + ["dem_water"] * 4 + ["dem_weapons"] * 4
    for n, (space, kind) in enumerate(zip(demand_sites, kinds, strict=True)):
        set_demand(game, space, f"{kind}#{n % 4 + 1}")
    assert ev(game, "market_price(food)") == 6
    assert ev(game, "market_price(water)") == 7
    target = demand_sites[0]
    put_truck(game, 0, target)
    load(game, {hold(game, 0): "food"})
    game.arrange(zones={"demand_stack": ["dem_water#9"]})
    assert "act:deliver" in game.legal_ids()
    game.choose("act:deliver")
    assert ev(game, "market_price(food)") == 5
    assert ev(game, "market_price(water)") == 8
    # "For each cargo, take payment in $crap from the reserve, according to the market price"
    assert ev(game, "you.crap", 0) == 16
    assert "dem_water#9" in pieces(game, target)
    assert ev(game, "you.not_welcome", 0) == "s:" + target


def test_artifact_purchase_example() -> None:
    """ "Molly is the first to purchase artifacts, and wants to buy 3. The first artifact will
    cost $7 ... the price of the next artifact is revealed to be $8 ... the third artifact
    to be $8 as well. Her total purchase of 3 artifacts costs $23. The next artifact that is
    purchased will cost $9.\""""
    game = new_game()
    put_truck(game, 0, site(game, "dispatch"))
    game.arrange(
        zones={"dash": {0: [*pieces_of_dash(game, 0), "general_hold#1"]}},
        players={0: {"resources": {"crap": 30}}},
    )
    load(game, {"general_hold#1": "empty"})
    assert ev(game, "art_price") == 7
    game.choose("act:outpost")
    for _ in range(3):
        game.choose("opt1")
    assert ev(game, "carrying(you, artifact)", 0) == 3
    assert ev(game, "you.crap", 0) == 30 - 23
    assert ev(game, "art_price") == 9


# ---------------------------------------------------------------------------- turns, dashboard
def test_five_turns_a_round_one_marker_each() -> None:
    """Round Overview: "players take turns in clockwise order, one at a time, until each
    player has taken 5 turns"; "all players reset their action markers to [AVAILABLE], the
    event deck is passed clockwise ... The new player in possession of the events deck will
    be start player that round.\""""
    game = new_game()
    seats = []
    for _ in range(10):
        seats.append(decision(game).seat)
        game.choose("act:rest")
    assert seats == [0, 1] * 5
    # round 2: the events deck passed to Player 2, who starts; every marker is available
    assert ev(game, "game.game_round") == 2
    assert decision(game).seat == 1
    assert ev(game, "markers_left(you)", 0) == 5
    assert ev(game, "markers_left(you)", 1) == 5


def test_momentum_example() -> None:
    """ "On his first turn, Jon takes a [MOVEMENT] action, moving his truck 3 spaces ... On
    his second turn ... 4 more spaces. On his third turn ... 4 more spaces (though he has 5
    available)." and "as soon as you take any action other than [MOVEMENT] ... you no longer
    have any momentum.\""""
    game = new_game()
    reaches = []
    for _ in range(3):
        label = next(o.label for o in decision(game).options if o.id == "act:drive")
        reaches.append(label)
        game.choose("act:drive")
        game.choose("pass")  # "You may move less than the maximum."
        game.choose("pass")  # no second action
        game.choose("act:rest")  # Player 2 passes
    assert reaches == [f"Move your truck (up to {n} spaces)" for n in (3, 4, 5)]
    assert ev(game, "you.m_move", 0) == 3
    game.choose("act:rest")  # any other action: momentum is lost
    assert ev(game, "you.m_move", 0) == 0
    assert ev(game, "you.m_used", 0) == 4
    assert any(line == "Player 1 loses momentum." for line in game.log)


def test_second_action_example() -> None:
    """ "Ben takes a [MOVEMENT] action and moves his truck up to 4 spaces (1). He ends his
    movement at a location with demand for the cargo he is carrying, so he immediately
    'slides' his action marker to [DELIVER] ... Ben then moves all other action markers from
    [MOVEMENT] to [USED], as he has lost momentum.\""""
    game = new_game()
    target = site(game, "citadel")
    set_demand(game, target, "dem_food#10")
    load(game, {hold(game, 0): "food"})
    # one marker already in MOVEMENT: this move is the second in a row
    game.arrange(players={0: {"fields": {"m_move": 1}}})
    start = neighbours(game, target)[0]
    put_truck(game, 0, start)
    game.choose("act:drive")
    game.choose(f"act:step:{target}")
    game.choose("pass")
    assert prompt(game) == "Slide the marker into a second action?"
    assert "act:s_deliver" in game.legal_ids()
    game.choose("act:s_deliver")
    assert ev(game, "you.m_deliver", 0) == 1
    assert ev(game, "you.m_move", 0) == 0
    assert ev(game, "you.m_used", 0) == 1
    assert decision(game).seat == 1  # "This is the only way to take 2 actions in the same turn."


def test_no_sliding_into_bonus() -> None:
    """Bonus Action: "This is the only action that you cannot 'slide' into from a
    [MOVEMENT] action"."""
    game = new_game()
    load(game, {hold(game, 0): "artifact", hold(game, 0, "weapons"): "artifact"})
    extra = "general_hold#1"
    game.arrange(
        zones={"dash": {0: [*pieces_of_dash(game, 0), extra]}},
        cards={extra: {"fields": {"load": "artifact"}}},
    )
    put_truck(game, 0, neighbours(game, "g22")[0])
    game.choose("act:drive")
    game.choose("act:step:g22")
    game.choose("pass")
    assert not any(o.startswith("act:bsod") for o in game.legal_ids())
    game.choose("pass")
    game.choose("act:rest")
    assert prompt(game) == "Before your action"  # full holds: discarding is offered
    game.choose("pass")
    assert "act:bsod" in game.legal_ids()


# ---------------------------------------------------------------------------- combat and damage
HIT3 = ["hit", "hit", "hit"]


def at_enclave(game: Game, place: str = "bonesaw") -> str:
    where = site(game, place)
    put_truck(game, 0, where)
    # Eyeless Sentries (authored): defense 4, pillage 1 food
    game.arrange(zones={"enclave_deck": ["ec_eyeless_sentries#1"]})
    return where


def test_normal_combat_success_pillages_once_per_round() -> None:
    """Normal Combat: "If the result is greater than or equal to the defense value of the
    raiders, then you are successful"; "take the cargo shown on the raider card ... and load
    them onto your truck"; "You can only successfully attack the raiders (and pillage cargo)
    once per round.\""""
    game = new_game()
    at_enclave(game)
    game.arrange(dice={"combat": [HIT3, ["hit"]]})
    game.choose("act:attack")  # at Bonesaw's enclave the only target: no question
    assert ev(game, "carrying(you, food)", 0) == 1
    assert ev(game, "count(enclave_discard)") == 1
    game.choose("act:rest")  # Player 2
    assert "act:attack" not in game.legal_ids()


def test_normal_combat_failure_costs_one_damage() -> None:
    """Normal Combat: "Fail: Your truck takes 1 damage." Taking Damage: "assign it to any
    available slot on your dashboard.\""""
    game = new_game()
    at_enclave(game)
    game.arrange(dice={"combat": ["blank", ["hit"]]})
    game.choose("act:attack")
    assert prompt(game) == "Damage token: which slot?"
    game.choose("opt1")
    assert ev(game, "you.dmg_empty", 0) == 1
    assert ev(game, "free_slots(you)", 0) == 3
    assert ev(game, "count(you.dash where it.hold != none)", 0) == 2


def test_damage_to_a_full_hold_discards_its_cargo() -> None:
    """Taking Damage: "You can assign a damage token to a full cargo hold, in which case you
    must discard its contents ... discarded artifacts are added to the stack on the last
    space of the artifact price chart.\""""
    game = new_game()
    h = hold(game, 0)
    load(game, {h: "artifact"})
    at_enclave(game)
    game.arrange(dice={"combat": ["blank", "blank"]})
    game.choose("act:attack")
    game.choose("opt2")
    game.choose(h)
    assert ev(game, "carrying(you, artifact)", 0) == 0
    assert ev(game, "game.art_stack") == 8
    # "any upgrade currently in that slot is inactive (but not discarded)"
    assert ev(game, "room_for(you, food)", 0) == 0
    assert h in pieces_of_dash(game, 0)


def test_armor_absorbs_two_damage() -> None:
    """Armor: "The first time your truck would take damage, put a damage token on the armor
    mod. The second time, remove the armor mod and damage token.\""""
    game = new_game()
    add_to_dash(game, 0, "armor#1")
    for _ in range(2):
        at_enclave(game)
        game.arrange(dice={"combat": ["blank", "blank"]})
        game.choose("act:attack")
        assert ev(game, "you.dmg_empty", 0) == 0
        game.choose("act:rest")
    assert "armor#1" not in pieces_of_dash(game, 0)
    assert "armor#1" in game.state["zones"]["z:tray"]


def test_a_truck_is_never_destroyed() -> None:
    """Taking Damage: "Your truck can never be destroyed; if all slots are damaged, any
    damage you would take is ignored.\""""
    game = new_game()
    holds = pieces_of_dash(game, 0)
    game.arrange(
        players={0: {"fields": {"dmg_empty": 4}}}, cards={h: {"flags": ["damaged"]} for h in holds}
    )
    at_enclave(game)
    game.arrange(dice={"combat": ["blank", "blank"]})
    game.choose("act:attack")
    assert any("the damage is ignored" in line for line in game.log)
    assert decision(game).seat == 1


def test_missiles_are_committed_before_rolling() -> None:
    """Missile: "Add 2 hits to the final result of your combat roll. You must commit to using
    a missile before you roll.\""""
    game = new_game()
    add_to_dash(game, 0, "missile#1", "missile#2")
    at_enclave(game)
    game.arrange(dice={"combat": ["blank", "blank"]})
    game.choose("act:attack")
    assert prompt(game) == "Commit missiles (+2 hits each) before rolling?"
    game.choose("missile#1")
    game.choose("missile#2")
    assert ev(game, "carrying(you, food)", 0) == 1  # 0 + 4 hits >= 4
    assert ev(game, "count(you.dash where it.def == missile)", 0) == 0


def test_gunner_and_machine_gun() -> None:
    """Gunner: "Roll 1 additional die during combat rolls." Machine Gun: "Add 1 hit to the
    final result of your combat roll.\""""
    game = new_game()
    add_to_dash(game, 0, "gunner#1", "machine_gun#1")
    at_enclave(game)
    game.arrange(dice={"combat": [["hit"], ["hit"], ["hit"]]})
    game.choose("act:attack")
    assert any(line == "Player 1 scores 3 + 1 hits against defense 4." for line in game.log)
    assert ev(game, "carrying(you, food)", 0) == 1


def test_grand_lord_emperor_torque() -> None:
    """Torque: "determine his defense value by rolling 2 combat dice; his defense value is the
    number of hits you rolled, plus 7 ... If you fail, your truck takes 2 damage.\""""
    game = new_game()
    game.arrange(
        zones={
            "contracts": {"cards": ["c_bsod#1", "c_torque#1", "c_kill_all#1"], "others_to": "box"}
        }
    )
    put_truck(game, 0, site(game, "eyeless"))
    game.arrange(dice={"combat": [["hit"], "blank", ["hit"], "blank"]})
    game.choose("act:attack")
    game.choose("opt1")
    assert any(line == "Grand Lord Emperor Torque's defense: 1 + 7." for line in game.log)
    game.choose("opt1")
    game.choose("opt1")
    assert ev(game, "you.dmg_empty", 0) == 2
    # a win completes the contract
    game.choose("act:rest")
    game.arrange(
        active=0,
        phase="act",
        players={0: {"fields": {"m_combat": 0, "pillaged": 0}}},
        dice={"combat": ["blank", "blank", HIT3, HIT3, HIT3]},
    )
    add_to_dash(game, 0, "gunner#1")
    game.choose("act:attack")
    game.choose("opt1")
    assert ev(game, "you.contracts_done", 0) == 1


def test_kill_em_all() -> None:
    """Kill 'Em All: "you must pillage ... all 4 raider enclaves. When you pillage an enclave,
    place 1 of your progress markers on the enclave\""""
    game = new_game()
    game.arrange(
        zones={
            "contracts": {"cards": ["c_bsod#1", "c_kill_all#1", "c_smuggler#1"], "others_to": "box"}
        }
    )
    for n, place in enumerate(["eyeless", "bonesaw", "nein_nein", "railmen"]):
        game.arrange(active=0, phase="act", players={0: {"fields": {"m_combat": 0, "pillaged": 0}}})
        at_enclave(game, place)
        game.arrange(dice={"combat": [HIT3, HIT3]})
        game.choose("act:attack")
        if prompt(game) == "Attack whom?":
            game.choose("opt1")  # the enclave (Torque is not in this game)
        assert ev(game, "you.contracts_done", 0) == (1 if n == 3 else 0)
    assert ev(game, "you.enclaves_hit", 0) == []


def test_mortar_rerolls_after_damage() -> None:
    """Mortar: "If you would fail in combat, after taking damage, you may reroll any 1
    die.\""""
    game = new_game()
    game.arrange(zones={"crew": {0: ["mortar#1"]}})
    at_enclave(game)
    game.arrange(dice={"combat": [HIT3, "blank", ["hit"]]})
    game.choose("act:attack")
    game.choose("opt1")  # the damage goes to an empty slot
    assert prompt(game) == "Combat lost: reroll 1 die (ally)?"
    game.choose("opt1")
    game.choose(game.legal_ids()[1])  # the blank die
    assert ev(game, "you.dmg_empty", 0) == 1
    assert ev(game, "carrying(you, food)", 0) == 1


# ---------------------------------------------------------------------------- movement
def icon_zone(game: Game) -> tuple[str, str]:
    """A ring zone with a raider icon, and the raider truck the icon moves."""
    zone = str(ev(game, "first(spaces where on_ring(it) and icon_of(it) > 0)"))
    rt = str(
        ev(game, f"first(game.raiders where it.number == icon_of(space_at({coords(game, zone)})))")
    )
    return zone[2:], rt


def coords(game: Game, space: str) -> str:
    x, y = board(game).coords[space.removeprefix("s:")]
    return f"{x}, {y}"


def centre(game: Game, space: str) -> str:
    x, y = board(game).coords[space]
    return board(game).by_coord[(4 * (x // 4) + 2, 4 * (y // 4) + 2)]


def raider_at(game: Game, rt: str, space: str) -> None:
    """Move a raider truck to a centre zone."""
    game.arrange(zones={space: [*pieces(game, space), rt]})


def test_raider_movement_and_ambush() -> None:
    """Raider Movement: "if there is a raider icon in your current zone, move the
    corresponding raider truck from its current terrain into any adjacent ... terrain ...
    if there are any player trucks in the terrain to which the raider truck moved, all
    players in that terrain are immediately ambushed." Raider Ambush: "they will each fend
    off an attack from the same raider" and "(You never pillage cargo during an ambush.)\""""
    game = new_game(players=3)
    zone, rt = icon_zone(game)
    b2, c3 = sp(game, "b2_c"), sp(game, "c3_c")
    home = b2 if centre(game, zone) != b2 else c3
    for other in ("a1_c", "d1_c", "a4_c", "d4_c", "b2_c", "c3_c"):
        other = sp(game, other)
        kept = [p for p in pieces(game, other) if "raider_" not in p]
        game.arrange(zones={other: {"cards": kept, "others_to": "raider_park"}})
    raider_at(game, rt, home)
    # the octagon north of home (b1 or c2), and one of its corner zones
    x, y = (int(v) for v in coords(game, home).split(", "))
    target = board(game).by_coord[(x, y - 4)]
    ring_zone = board(game).by_coord[(x - 1, y - 5)]
    put_truck(game, 0, zone)
    game.arrange(zones={ring_zone: [*pieces(game, ring_zone), truck(game, 1), truck(game, 2)]})
    game.arrange(zones={"truck_deck": ["rt_road_hogs#1"]}, dice={"combat": ["blank"] * 6})
    mark = len(game.log)
    game.choose("act:drive")
    game.choose("pass")
    assert prompt(game).startswith("Raider icon: move")
    game.choose(target)
    assert game.decision is not None and game.decision.seat == 1  # Player 2's damage first
    settle(game)
    # Player 2 and Player 3 are ambushed in turn order by the same card.
    lines = [line for line in log_since(game, mark) if "is ambushed by" in line]
    assert lines == [
        "Player 2 is ambushed by Road Hogs (defense 3).",
        "Player 3 is ambushed by Road Hogs (defense 3).",
    ]
    assert ev(game, "you.dmg_empty", 1) == 1 and ev(game, "you.dmg_empty", 2) == 1
    assert rt in pieces(game, target)


def test_leapfrogging_a_raider_truck() -> None:
    """Raider Movement: "If there is already a raider truck in the target terrain ... it will
    move twice in that direction, effectively leapfrogging the existing raider truck\""""
    game = new_game()
    zone, rt = icon_zone(game)
    for other in ("a1_c", "d1_c", "a4_c", "d4_c"):
        other = sp(game, other)
        kept = [p for p in pieces(game, other) if "raider_" not in p]
        game.arrange(zones={other: {"cards": kept, "others_to": "raider_park"}})
    others = [r for r in ("raider_1#1", "raider_2#1", "raider_3#1") if r != rt]
    raider_at(game, rt, sp(game, "a1_c"))
    raider_at(game, others[0], sp(game, "b1_c"))
    put_truck(game, 0, zone)
    game.choose("act:drive")
    game.choose("pass")
    assert prompt(game).startswith("Raider icon: move")
    assert set(game.legal_ids()) == {sp(game, "c1_c"), sp(game, "a2_c")}


def rad_zone(game: Game) -> str:
    return str(ev(game, "first(spaces where it.terrain == irradiated)"))[2:]


def step_into(game: Game, target: str) -> None:
    """Player 1 drives one step into ``target`` from a neighbouring site or zone."""
    here = board(game)
    start = next(
        s
        for s in neighbours(game, target)
        if here.terrain[s] == "site"
        or (here.terrain[s] != "centre" and centre(game, s) != centre(game, target))
    )
    put_truck(game, 0, start)
    game.choose("act:drive")
    game.choose(f"act:step:{target}")


@pytest.mark.parametrize(("face", "damaged"), [("rad", 1), ("blank", 0)])
def test_irradiated_zone_rolls_the_rad_die(face: str, damaged: int) -> None:
    """Irradiated Zones: "When you enter an irradiated zone ... you must immediately roll the
    RAD check die: if you roll a RAD symbol, your truck takes 1 damage.\""""
    game = new_game()
    zone = rad_zone(game)
    for rt in ("raider_1#1", "raider_2#1", "raider_3#1"):
        game.arrange(zones={"raider_park": [*game.state["zones"]["z:raider_park"], rt]})
    game.arrange(dice={"rad_die": [face]})
    step_into(game, zone)
    if damaged:
        game.choose("opt1")
    assert ev(game, "you.dmg_empty", 0) == damaged
    assert any(line.startswith("Rolled 1 rad_die") for line in game.log)


def test_rad_shield_skips_the_roll() -> None:
    """RAD Shield: "Allows you to move through an irradiated zone without having to roll the
    RAD check die.\""""
    game = new_game()
    zone = rad_zone(game)
    add_to_dash(game, 0, "rad_shield#1")
    game.arrange(zones={"raider_park": ["raider_1#1", "raider_2#1", "raider_3#1"]})
    step_into(game, zone)
    assert not any(line.startswith("Rolled 1 rad_die") for line in game.log)
    assert any("RAD shield keeps the radiation out" in line for line in game.log)


def test_engaging_raiders_or_the_raider_check_die() -> None:
    """Engaging Raiders: "If you move into terrain containing a raider truck ... you may engage
    the raiders in combat ... end your movement immediately and slide your action marker from
    [MOVEMENT] to [COMBAT] ... If you choose not to engage ... you must roll the raider check
    die: if you roll a hit symbol, your truck takes 1 damage.\""""
    game = new_game()
    game.arrange(zones={"raider_park": ["raider_1#1", "raider_2#1", "raider_3#1"]})
    plain_b2(game)
    raider_at(game, "raider_1#1", sp(game, "b2_c"))
    game.arrange(dice={"raider_die": [["hit"]]})
    step_into(game, sp(game, "b2_nw"))
    assert prompt(game) == "Raiders! Engage them?"
    game.choose("opt2")
    game.choose("opt1")  # the damage token
    assert ev(game, "you.dmg_empty", 0) == 1
    assert ev(game, "you.steps", 0) == 2  # "you may continue your movement"
    settle(game)
    game.choose("act:rest")
    # Engaging: the move ends, the marker slides to COMBAT against the raider truck.
    game.arrange(zones={"truck_deck": ["rt_road_hogs#1"]}, dice={"combat": [HIT3, HIT3]})
    step_into(game, sp(game, "b2_ne"))
    game.choose("opt1")
    settle(game)
    assert ev(game, "you.m_combat", 0) == 1
    assert ev(game, "you.m_move", 0) == 0
    assert any(line == "Player 1 pillages Raider truck 1." for line in game.log)


def test_players_never_enter_a_centre_zone() -> None:
    """Move Your Truck: "you may never move into the center zone of any terrain; the center
    zones are for raider trucks only.\""""
    game = new_game()
    nw = sp(game, "b2_nw")
    put_truck(game, 0, nw)
    game.choose("act:drive")
    assert not any(o.endswith("_c") for o in game.legal_ids())
    assert len(game.legal_ids()) == 1 + len(neighbours(game, nw)) - 0


# ---------------------------------------------------------------------------- buying and delivering
def supply_site(game: Game) -> tuple[str, str]:
    where = site(game, "rock")
    counter = next(c for c in pieces(game, where) if c.startswith("sup_"))
    return where, counter


def test_purchase_cargo_and_replace_the_counter() -> None:
    """Purchase Cargo: "purchase ... any quantity of the cargo type ... at the price listed on
    the supply counter, but never more than you can afford or have room to store"; "discard
    the supply counter, face up, and replace it with a supply counter from the face-down
    stack\""""
    game = new_game()
    where, old = supply_site(game)
    kept = [c for c in pieces(game, where) if c != old] + ["sup_food_2#1"]
    game.arrange(zones={where: {"cards": kept, "others_to": "supply_discard"}})
    add_to_dash(game, 0, "general_hold#1", "general_hold#2")
    load(game, {"general_hold#1": "empty", "general_hold#2": "empty"})
    game.arrange(zones={"supply_stack": ["sup_water_1#1"]}, players={0: {"resources": {"crap": 5}}})
    put_truck(game, 0, where)
    game.choose("act:buy")
    assert prompt(game) == "How many food at $2 each?"
    assert game.legal_ids() == ["1", "2"]  # $5 buys 2 food at $2, not 3
    game.choose(game.legal_ids()[-1])
    assert ev(game, "carrying(you, food)", 0) == 2
    assert ev(game, "you.crap", 0) == 1
    assert "sup_water_1#1" in pieces(game, where)
    assert "sup_food_2#1" in game.state["zones"]["z:supply_discard"]
    # "remember, you can only do this once per round"
    game.choose("act:rest")
    assert "act:buy" not in game.legal_ids()


def test_not_welcome_twice_in_a_row() -> None:
    """Deliver Cargo: "You can't deliver cargo to the same outpost twice in a row.\""""
    game = new_game()
    where = site(game, "citadel")
    set_demand(game, where, "dem_food#10")
    put_truck(game, 0, where)
    load(game, {hold(game, 0): "food"})
    game.arrange(zones={"demand_stack": ["dem_food#9"]})
    game.choose("act:deliver")
    game.choose("act:rest")
    load(game, {hold(game, 0): "food"})
    assert "act:deliver" not in game.legal_ids()
    game.arrange(players={0: {"fields": {"not_welcome": "s:g22"}}})
    assert "act:deliver" in game.legal_ids()


def test_double_demand_needs_both_types() -> None:
    """Deliver Cargo: "If the outpost has a double demand counter, you must deliver at least
    1 cargo of each type indicated.\""""
    game = new_game()
    where = site(game, "citadel")
    set_demand(game, where, "dem_food_weapons#1")
    put_truck(game, 0, where)
    load(game, {hold(game, 0): "food"})
    assert "act:deliver" not in game.legal_ids()
    load(game, {hold(game, 0, "weapons"): "weapons"})
    food, weapons = ev(game, "market_price(food)"), ev(game, "market_price(weapons)")
    game.choose("act:deliver")
    assert ev(game, "you.crap", 0) == 10 + food + weapons


def test_broker_and_ally_bonuses_are_per_delivery() -> None:
    """Broker: "an additional $2 every time you deliver cargo (this is per delivery, not per
    cargo delivered)"; Butch: "Gain +$2 on food deliveries.\""""
    game = new_game()
    where = site(game, "citadel")
    set_demand(game, where, "dem_food#10")
    put_truck(game, 0, where)
    add_to_dash(game, 0, "broker#1", "general_hold#1")
    game.arrange(zones={"crew": {0: ["butch#1"]}})
    load(game, {hold(game, 0): "food", "general_hold#1": "food"})
    price = ev(game, "market_price(food)")
    game.choose("act:deliver")
    game.choose("2")
    assert ev(game, "you.crap", 0) == 10 + 2 * price + 2 + 2


# ---------------------------------------------------------------------------- faction jobs
def give_job(game: Game, seat: int, job: str) -> None:
    game.arrange(zones={"jobs": {seat: [*game.state["zones"][f"z:jobs@{seat}"], job]}})


def test_needs_of_the_few_is_an_outpost_delivery() -> None:
    """Appendix D: "Making a delivery for a faction job requires you to take an [OUTPOST]
    action ... faction job deliveries do not require the outpost to have a matching demand
    counter ... Do not move your 'not welcome' standee". Needs of the Few: "Deliver water or
    weapons to Attica. Reward: $4 + Draw 2 Allies, keep 1.\""""
    game = new_game()
    job = "orc_needs_of_the_few#1"
    give_job(game, 0, job)
    where = site(game, "attica")
    set_demand(game, where, "dem_food#10")  # no demand for weapons here
    put_truck(game, 0, where)
    load(game, {hold(game, 0, "weapons"): "weapons"})
    demands_before = list(game.state["zones"]["z:demand_discard"])
    game.choose(f"act:job_delivery:{job}")
    assert prompt(game) == "Keep 1 ally"
    game.choose(game.legal_ids()[0])
    assert job in game.state["zones"]["z:done_jobs@0"]
    assert ev(game, "you.crap", 0) == 14
    assert ev(game, "count(you.crew)", 0) == 1
    assert ev(game, "you.m_outpost", 0) == 1
    assert ev(game, "you.not_welcome", 0) is None
    assert game.state["zones"]["z:demand_discard"] == demands_before


def test_multi_step_jobs_go_face_up_with_progress() -> None:
    """Appendix D: "Some faction jobs have multiple requirements ... place the card face up
    when you have fulfilled the first requirement on the card and then mark the fulfilled
    requirement with 1 of your progress markers.\""""
    game = new_game()
    job = str(ev(game, "first(nra_jobs + archivist_jobs + oracle_jobs where count(it.steps) == 2)"))
    give_job(game, 0, job)
    first_place, first_cargo = ev(game, "first(you.jobs where count(it.steps) == 2).steps[0]")[0:2]
    put_truck(game, 0, site(game, first_place))
    hold_kind = "weapons" if first_cargo == "weapons" else "general"
    load(game, {hold(game, 0, hold_kind): first_cargo})
    game.choose(f"act:job_delivery:{job}")
    assert job in game.state["zones"]["z:underway@0"]
    assert ev(game, "first(you.underway).met", 0) == [0]
    # other seats now see it
    assert job in str(game.view(1))


def test_at_most_five_faction_jobs() -> None:
    """Appendix D: "You may have a maximum of 5 incomplete or in-progress faction jobs at a
    time; if you take on another (i.e., sixth) faction job, you must discard any 1\""""
    game = new_game()
    extra = [str(j) for j in ev(game, "top(nra_jobs, 4)")]
    game.arrange(zones={"jobs": {0: [*game.state["zones"]["z:jobs@0"], *extra]}})
    assert ev(game, "job_count(you)", 0) == 5
    put_truck(game, 0, site(game, "library"))
    game.choose("act:outpost")
    assert prompt(game) == "Keep 1 faction job"
    game.choose(game.legal_ids()[0])
    assert prompt(game) == "Six faction jobs: discard one"
    game.choose(game.legal_ids()[0])
    assert ev(game, "job_count(you)", 0) == 5
    # the discarded job went back to the bottom of its deck: no card is lost
    in_decks = ev(game, "count(nra_jobs) + count(archivist_jobs) + count(oracle_jobs)")
    assert in_decks + ev(game, "job_count(you)", 0) + ev(game, "job_count(you)", 1) == 45


def test_faction_jobs_stay_hidden_from_other_seats() -> None:
    """Appendix D: "Keep your incomplete faction job cards in your hand, hidden from all
    other players." (issue 12: "faction jobs never visible to other seats (view, log, option
    labels)")"""
    game = new_game()
    mine = list(game.state["zones"]["z:jobs@0"])
    hand = next(z for z in game.view(0)["zones"] if z["key"] == "z:jobs@0")
    names = [card["name"] for card in hand["cards"]]
    assert mine and names
    view = str(game.view(1))
    assert not any(job in view for job in mine)
    assert not any(name in line for name in names for line in game.log_for(1))
    assert any(name in line for name in names for line in game.log_for(0))
    put_truck(game, 1, site(game, "corinth"))
    game.choose("act:rest")
    game.choose("act:outpost")
    offered = list(game.state["zones"]["z:job_offer@1"])
    assert offered and not any(job in str(game.view(0)) for job in offered)


# ---------------------------------------------------------------------------- contracts, winning
def with_contracts(game: Game, *cards: str) -> None:
    game.arrange(zones={"contracts": {"cards": list(cards), "others_to": "box"}})


def test_blue_screen_of_death_and_three_contracts_win() -> None:
    """BSOD: "while at the Depot and carrying 3 artifacts on your truck, take a [BONUS] action
    to deliver them." End of the Game: "The end of the game occurs immediately when any
    player has fulfilled the requirements ... to complete 3 priority first-class contracts\""""
    game = new_game()
    add_to_dash(game, 0, "general_hold#1")
    load(game, {h: "artifact" for h in pieces_of_dash(game, 0)})
    game.arrange(players={0: {"resources": {"contracts_done": 2}}})
    assert "act:bsod" in game.legal_ids()
    game.choose("act:bsod")
    assert game.result is not None and game.result.winners == (0,)
    assert ev(game, "game.art_stack") == 10  # delivered artifacts go to the last space


def test_bailout_example() -> None:
    """Bailout: "Nathan was the first player to complete the Bailout contract, and he paid
    25 $crap. Matt was the second to complete it, and he paid 30 $crap. All subsequent
    players must each pay 35 $crap to complete the contract.\""""
    game = new_game(players=3)
    with_contracts(game, "c_bsod#1", "c_bailout#1", "c_smuggler#1")
    nny = site(game, "new_new_york")
    game.arrange(players={s: {"resources": {"crap": 40}} for s in range(3)})
    for seat in range(3):
        put_truck(game, seat, nny)
    paid = []
    for seat in range(2):
        assert game.decision is not None and game.decision.seat == seat
        before = ev(game, "you.crap", seat)
        game.choose("act:bailout")
        paid.append(before - ev(game, "you.crap", seat))
    assert paid == [25, 30]
    label = next(o.label for o in decision(game).options if o.id == "act:bailout")
    assert label == "BONUS: pay $35 (Bailout)"
    assert ev(game, "you.contracts_done", 0) == 1


def test_smuggler_needs_a_run_for_each_faction() -> None:
    """Smuggler: "you must finish 1 smuggling run for each faction\""""
    game = new_game()
    with_contracts(game, "c_bsod#1", "c_smuggler#1", "c_torque#1")
    runs = ["nra_deserters_stash#1", "arch_fiat_currency#1", "orc_priestesss_wine#1"]
    for n, job in enumerate(runs):
        give_job(game, 0, job)
        place, cargo = ev(game, "first(you.jobs where it.smuggling).steps[0]")[0:2]
        game.arrange(active=0, phase="act", players={0: {"fields": {"m_outpost": 0}}})
        put_truck(game, 0, site(game, place))
        load(game, {hold(game, 0, "weapons" if cargo == "weapons" else "general"): cargo})
        game.choose(f"act:job_delivery:{job}")
        assert ev(game, "you.contracts_done", 0) == (1 if n == 2 else 0)


def test_contract_jobs_count_toward_victory() -> None:
    """Appendix D: "Some faction jobs do not reward $crap as a payout, because they instead
    count as 1 of the 3 priority first-class contracts"; According to keikaku: "Fulfill
    demand for food and/or water 5x.\""""
    game = new_game()
    job = "nra_according_to_keikaku#1"
    give_job(game, 0, job)
    where = site(game, "citadel")
    for n in range(5):
        game.arrange(
            active=0, phase="act", players={0: {"fields": {"m_deliver": 0, "not_welcome": None}}}
        )
        set_demand(game, where, f"dem_water#{n + 1}")
        put_truck(game, 0, where)
        load(game, {hold(game, 0): "water"})
        game.choose("act:deliver")
    assert job in game.state["zones"]["z:done_jobs@0"]
    assert ev(game, "you.contracts_done", 0) == 1


def test_vision_quest_in_three_steps() -> None:
    """Vision Quest: "While in Motown, take a [BONUS] action to take on 1 of these contracts
    ... Repeat the process until you've fulfilled the requirements of all 3 cards (A, B, C)
    in order.\""""
    game = new_game()
    with_contracts(game, "c_bsod#1", "c_vision_quest#1", "c_smuggler#1")
    game.arrange(zones={"visions": [f"vq_{s}{x}#1" for s in range(1, 6) for x in "abc"]})
    put_truck(game, 0, site(game, "motown"))
    game.choose("act:vq_take")
    game.choose("1")
    for step in range(3):
        place, cargo = ev(game, "first(you.quest).place"), ev(game, "first(you.quest).cargo")
        game.arrange(active=0, phase="act", players={0: {"fields": {"m_bonus": 0}}})
        put_truck(game, 0, site(game, place))
        load(game, {hold(game, 0, "weapons" if cargo == "weapons" else "general"): cargo})
        game.choose("act:vq_fulfil")
        assert ev(game, "you.contracts_done", 0) == (1 if step == 2 else 0)


def test_questionable_decisions() -> None:
    """Questionable Decisions: "successfully attack the Railmen Enclave ... collect a nuclear
    bomb, which can be stored only in the nuclear vault ... every time your truck enters new
    terrain, you will automatically be ambushed ... If you arrive at the Nein Nein Enclave
    with the nuclear bomb on your truck, take a [BONUS] action\""""
    game = new_game()
    with_contracts(game, "c_bsod#1", "c_questionable#1", "c_smuggler#1")
    add_to_dash(game, 0, "nuclear_vault#1")
    load(game, {"nuclear_vault#1": "empty"})
    at_enclave(game, "railmen")
    game.arrange(dice={"combat": [HIT3, HIT3]})
    game.choose("act:attack")
    assert prompt(game) == "Take a nuclear bomb instead of the cargo?"
    game.choose("opt1")
    assert ev(game, "carrying(you, bomb)", 0) == 1
    assert ev(game, "game.bombs") == 4
    game.choose("act:rest")
    assert "act:jettison" in game.legal_ids()  # a bomb aboard: it may be discarded
    game.choose("pass")
    # a failed ambush on entering new terrain returns the bomb
    game.arrange(zones={"raider_park": ["raider_1#1", "raider_2#1", "raider_3#1"]})
    game.arrange(zones={"truck_deck": ["rt_road_hogs#1"]}, dice={"combat": ["blank", "blank"]})
    start = site(game, "railmen")
    zone = next(s for s in neighbours(game, start))
    game.choose("act:drive")
    game.choose(f"act:step:{zone}")
    settle_one = game.legal_ids()
    game.choose("opt1" if "opt1" in settle_one else settle_one[0])
    assert ev(game, "carrying(you, bomb)", 0) == 0
    assert ev(game, "game.bombs") == 5
    # delivering at Nein Nein completes the contract
    game.arrange(active=0, phase="act", players={0: {"fields": {"m_bonus": 0}}})
    load(game, {"nuclear_vault#1": "bomb"})
    game.arrange(game={"fields": {"bombs": 4}})
    put_truck(game, 0, site(game, "nein_nein"))
    game.choose("act:bomb_deliver")
    assert ev(game, "you.contracts_done", 0) == 1


def test_the_big_dig() -> None:
    """The Big Dig: "select 2 empty tiles and 1 treasure tile per player"; "you can excavate
    a dig tile in the same zone as your truck by taking a [BONUS] action"; "While at the
    Library, take a [BONUS] action to deliver the treasure\""""
    game = new_game(seed=2)
    assert ev(game, "any(contracts where it.key == big_dig)")  # seed 2 draws The Big Dig
    assert ev(game, "count(spaces where any(it.pieces where it.kind == dig_tile))") == 6
    tile = "dig_treasure#1"
    zone = str(ev(game, "first(spaces where any(it.pieces where it.kind == dig_tile))"))[2:]
    game.arrange(
        zones={zone: {"cards": [tile], "others_to": "dig_pool"}}, cards={tile: {"face_down": True}}
    )
    add_to_dash(game, 0, "digger#1")
    put_truck(game, 0, zone)
    assert "act:dig" in game.legal_ids()
    game.choose("act:dig")
    assert ev(game, "carrying(you, treasure)", 0) == 1
    game.arrange(active=0, phase="act", players={0: {"fields": {"m_bonus": 0}}})
    put_truck(game, 0, site(game, "library"))
    game.choose("act:dig_deliver")
    assert ev(game, "you.contracts_done", 0) == 1


def test_a_treasure_may_take_an_empty_slot() -> None:
    """The Big Dig: "If it is a treasure tile, you must store it in any empty cargo hold or
    any empty slot on your dashboard." Holds full: the tile takes a slot until delivered;
    damage to that slot discards it like a full hold's contents."""
    game = new_game(seed=2)  # seed 2 draws The Big Dig
    tile = "dig_treasure#1"
    zone = str(ev(game, "first(spaces where any(it.pieces where it.kind == dig_tile))"))[2:]
    game.arrange(
        zones={zone: {"cards": [tile], "others_to": "dig_pool"}}, cards={tile: {"face_down": True}}
    )
    add_to_dash(game, 0, "digger#1")
    load(game, {hold(game, 0): "food", hold(game, 0, "weapons"): "weapons"})
    put_truck(game, 0, zone)
    assert ev(game, "free_slots(you)", 0) == 3
    game.choose("act:dig")
    assert tile in pieces_of_dash(game, 0)
    assert ev(game, "free_slots(you)", 0) == 2
    assert ev(game, "carrying(you, food) + carrying(you, weapons)", 0) == 2  # nothing dumped
    game.arrange(active=0, phase="act", players={0: {"fields": {"m_bonus": 0}}})
    put_truck(game, 0, site(game, "library"))
    game.choose("act:dig_deliver")
    assert ev(game, "you.contracts_done", 0) == 1
    assert tile in game.state["zones"]["z:box"]
    # damage on the treasure's slot: the treasure is lost, the slot damaged
    game2 = new_game()
    add_to_dash(game2, 0, tile)
    at_enclave(game2)
    game2.arrange(dice={"combat": ["blank", "blank"]})
    game2.choose("act:attack")
    game2.choose("opt2")  # a truck mod or cargo hold (or the treasure's slot)
    game2.choose(tile)
    assert tile in game2.state["zones"]["z:box"]
    assert ev(game2, "you.dmg_empty", 0) == 1


# ---------------------------------------------------------------------------- mods, allies
def test_mod_shop_limits() -> None:
    """Appendix A: "there must be an available slot on your dashboard"; the asterisked mods
    are "limited to 1 per truck"; "If all mods of a single type are on player trucks, that
    type is temporarily unavailable for purchase.\""""
    game = new_game()
    put_truck(game, 0, site(game, "terminus"))
    # every turbo is on some truck
    game.arrange(
        zones={"dash": {1: [*pieces_of_dash(game, 1), *[f"turbo#{n}" for n in range(1, 9)]]}},
        players={0: {"resources": {"crap": 40}}},
    )
    game.choose("act:outpost")
    offered = game.legal_ids()
    assert "armor#1" in offered and "gunner#1" in offered
    assert not any(o.startswith("turbo") for o in offered)
    game.choose("digger#1")
    assert not any(o.startswith("digger") for o in game.legal_ids())  # 1 per truck
    for mod in ("gunner#1", "gunner#2", "gunner#3"):
        game.choose(mod)
    # 6 slots: 2 holds, a digger, 3 gunners; $2 left: armor (its own slot), or a sleeper cab
    # in place of a mod removed for it
    assert game.legal_ids() == ["armor#1", "sleeper_cab#1", "done"]


def test_mod_shop_discount_is_per_visit() -> None:
    """Big John Sr.: "When you visit the Mod Shop, pay $2 less." ... "Mod Shop discounts are
    per visit, not per item purchased\""""
    game = new_game()
    game.arrange(zones={"crew": {0: ["big_john_sr#1"]}})
    put_truck(game, 0, site(game, "delos"))
    game.choose("act:outpost")
    game.choose("machine_gun#1")  # $6 - $2
    game.choose("sleeper_cab#1")  # $2, no discount left
    game.choose("done")
    assert ev(game, "you.crap", 0) == 10 - 4 - 2


def test_depot_repairs_and_trailers() -> None:
    """The Depot: "Repair all damage to your truck for $3, purchase trailers ... for $8 each,
    or both. There is a limit of 2 trailers per truck.\""""
    game = new_game()
    holds = pieces_of_dash(game, 0)
    game.arrange(
        players={0: {"resources": {"crap": 30}, "fields": {"dmg_empty": 2}}},
        cards={holds[0]: {"flags": ["damaged"]}},
    )
    assert ev(game, "free_slots(you)", 0) == 2
    game.choose("act:outpost")
    game.choose("opt1")  # repair
    game.choose("opt1")  # a trailer
    game.choose("opt1")  # a second one: no third is offered
    assert ev(game, "count(you.dash where it.def == trailer)", 0) == 2
    assert ev(game, "free_slots(you)", 0) == 8
    assert ev(game, "you.crap", 0) == 30 - 3 - 16
    assert game.decision is not None and game.decision.seat == 1


def test_hiring_allies_and_sleeper_cabs() -> None:
    """Hiring Allies: "pay $3 ... draw 2 cards from the allies deck and keep 1"; "You can
    normally carry only 1 ally, but each sleeper cab mod ... allows you to carry 1 additional
    ally"; "If a sleeper cab is damaged, you may need to discard an ally ... Discarded ally
    cards should be removed from the game.\""""
    game = new_game()
    game.arrange(zones={"crew": {0: ["cap#1"]}})
    add_to_dash(game, 0, "sleeper_cab#1")
    put_truck(game, 0, site(game, "rock"))
    game.choose("act:outpost")
    game.choose(game.legal_ids()[0])
    assert ev(game, "count(you.crew)", 0) == 2
    assert ev(game, "you.crap", 0) == 7
    assert ev(game, "count(allies)") == 14
    # the sleeper cab is damaged in combat: one ally leaves the game
    at_enclave(game)
    game.choose("act:rest")
    game.arrange(dice={"combat": ["blank", "blank"]})
    game.choose("act:attack")
    game.choose("opt2")
    game.choose("sleeper_cab#1")
    assert prompt(game) == "Too many allies for your truck: discard one"
    game.choose("cap#1")
    assert "cap#1" in game.state["zones"]["z:box"]


def test_escort_moves_anywhere_without_an_action() -> None:
    """Escort: "Immediately move your truck to anywhere in the wasteland. This does not
    require an action.\""""
    game = new_game()
    add_to_dash(game, 0, "escort#1")
    game.arrange(active=0, phase="prep")
    target = site(game, "dispatch")
    game.choose(f"act:escort:{target}")
    assert ev(game, "at_place(you, dispatch)", 0) is True
    assert prompt(game) == "Take an action" and game.decision is not None
    assert decision(game).seat == 0
    assert ev(game, "markers_left(you)", 0) == 5


def test_coffers_pay_three() -> None:
    """The Coffers: "Take $3 from the reserve.\""""
    game = new_game()
    put_truck(game, 0, site(game, "coffers"))
    game.choose("act:outpost")
    assert ev(game, "you.crap", 0) == 13


# ---------------------------------------------------------------------------- events, variants
def test_the_start_player_reveals_an_event_each_round() -> None:
    """Round Overview: "the start player reveals the top card of the events deck ... and the
    event is resolved and discarded\""""
    game = new_game()
    game.arrange(zones={"events": ["payday#1"]})
    for _ in range(10):
        game.choose("act:rest")
    assert any(line == "Event: Payday" for line in game.log)
    assert ev(game, "you.crap", 0) == 12 and ev(game, "you.crap", 1) == 12


def test_i_hate_event_decks_variant() -> None:
    """Nathan's Variant: "If you hate event decks, don't use it!\""""
    game = new_game(variant="opt4")
    assert not any(line.startswith("Event:") for line in game.log)


def test_perfect_information_palooza_ignores_bonuses() -> None:
    """Uwe and Stefan's Variant: "Ignore all players' unique character bonuses.\""""
    plain = RULESET.new_game(seed=1, players=2)
    plain.choose("opt1")
    plain.choose("tweek#1")
    while plain.decision is not None and prompt(plain) != "Take an action":
        plain.choose(plain.decision.options[0].id)
    assert ev(plain, "you.crap", 1) == 14  # Tweek's authored bonus: $4
    palooza = RULESET.new_game(seed=1, players=2)
    palooza.choose("opt5")
    palooza.choose("opt1")  # start the game: no further variant
    palooza.choose("tweek#1")
    while palooza.decision is not None and prompt(palooza) != "Take an action":
        palooza.choose(palooza.decision.options[0].id)
    assert ev(palooza, "you.crap", 1) == 10


# ---------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_play_to_the_end(players: int) -> None:
    """A whole 2-6 player game plays start to finish (issue 12, "What must be shown")."""
    for seed in range(3):
        game = play_random(players, seed)
        assert game.result is not None
        assert game.result.winners


@pytest.mark.parametrize(
    ("attacker", "defender", "pillaged", "damage"), [(HIT3, "blank", 1, 0), ("blank", HIT3, 0, 1)]
)
def test_brutal_competition_variant(
    attacker: Any, defender: Any, pillaged: int, damage: int
) -> None:
    """Ben's Variant: "Both players roll their allotted combat dice (with the defender rolling
    first ...) ... Whoever rolls more hits wins. If the attacker wins, they may pillage any 1
    cargo (but not an artifact) from the defender ... If the defender wins, the attacker takes
    1 damage.\""""
    game = new_game(variant="opt6")
    put_truck(game, 0, sp(game, "b2_nw"))
    put_truck(game, 1, sp(game, "b2_se"))
    load(game, {hold(game, 1, "weapons"): "weapons", hold(game, 1): "artifact"})
    # the defender rolls first: its two dice come first in the queue
    game.arrange(dice={"combat": [defender, "blank", attacker, "blank"]})
    game.choose(f"act:attack_driver:{ev(game, 'opponent', 0)}")
    if damage:
        game.choose("opt1")
    assert ev(game, "carrying(you, weapons)", 0) == pillaged
    assert ev(game, "carrying(you, artifact)", 1) == 1
    assert ev(game, "you.dmg_empty", 0) == damage


# ---------------------------------------------------------------------------- removing, discarding
def full_truck(game: Game, seat: int) -> list[str]:
    """Fill the 6 slots of ``seat``'s truck: its 2 holds and 4 mods (the first damaged)."""
    mods = ["machine_gun#1", "machine_gun#2", "machine_gun#3", "turbo#1"]
    add_to_dash(game, seat, *mods)
    game.arrange(cards={"machine_gun#1": {"flags": ["damaged"]}})
    assert ev(game, "free_slots(you)", seat) == 0
    return mods


def test_buying_a_mod_removes_one_to_free_a_slot() -> None:
    """Purchasing Upgrades: "When you purchase a truck mod, there must be an available slot on
    your dashboard, or else you have to remove a mod (returning it to the reserve) to free up a
    slot." A damaged mod frees no slot (its damage token stays), so it is not offered."""
    game = new_game()
    full_truck(game, 0)
    general = hold(game, 0)
    load(game, {general: "food"})
    put_truck(game, 0, site(game, "terminus"))
    game.arrange(players={0: {"resources": {"crap": 20}}})
    game.choose("act:outpost")
    assert "gunner#1" in game.legal_ids()
    game.choose("gunner#1")
    assert prompt(game) == "No free slot: remove which mod to make room for Gunner?"
    assert "machine_gun#1" not in game.legal_ids()  # damaged
    assert {"machine_gun#2", "turbo#1", general} <= set(game.legal_ids())
    game.choose(general)
    assert general in game.state["zones"]["z:tray"]
    assert "gunner#1" in pieces_of_dash(game, 0)
    assert ev(game, "carrying(you, food)", 0) == 0  # its food went back to the reserve
    assert ev(game, "you.crap", 0) == 11
    assert ev(game, "free_slots(you)", 0) == 0


def test_a_full_truck_may_discard_cargo_before_its_action() -> None:
    """Storing Cargo: "Cargo may be voluntarily discarded at any time." Offered, without an
    action marker, before the action of a driver whose holds are all full."""
    game = new_game()
    load(game, {hold(game, 0): "water", hold(game, 0, "weapons"): "weapons"})
    game.choose("act:rest")  # Player 1
    assert prompt(game) == "Take an action"  # Player 2's holds are empty: nothing to ask
    game.choose("act:rest")
    assert decision(game).seat == 0 and prompt(game) == "Before your action"
    assert game.legal_ids() == ["act:jettison", "pass"]
    game.choose("act:jettison")
    game.choose(hold(game, 0))
    game.choose("done")
    assert ev(game, "carrying(you, water)", 0) == 0
    assert ev(game, "carrying(you, weapons)", 0) == 1
    assert prompt(game) == "Take an action" and ev(game, "markers_left(you)", 0) == 4


def test_pillage_with_full_holds_offers_a_discard() -> None:
    """Normal Combat: "load them onto your truck — but only if you have the storage capacity!
    Any pillaged cargo that cannot be stored must be discarded back to the reserve" and
    "Cargo may be voluntarily discarded at any time": water makes room for pillaged food."""
    game = new_game()
    general = hold(game, 0)
    load(game, {general: "water", hold(game, 0, "weapons"): "weapons"})
    at_enclave(game)
    game.arrange(zones={"enclave_deck": ["ec_bonesaw_pit_crew#1"]}, dice={"combat": [HIT3, HIT3]})
    game.choose("act:attack")
    assert prompt(game) == "Discard cargo to make room for food?"
    game.choose(general)
    assert ev(game, "carrying(you, food)", 0) == 1
    assert ev(game, "carrying(you, water)", 0) == 0  # pit crew's water: no room, to the reserve


def fill_with(game: Game, seat: int, cargo: str, holds: list[str]) -> None:
    add_to_dash(game, seat, *holds)
    load(game, dict.fromkeys(holds, cargo))


def test_the_reserve_holds_25_of_each_cargo() -> None:
    """Components: "75 cargo (25 food / 25 water / 25 weapons)". With 24 food out (on trucks
    and in raider trucks), a purchase gets the last one however much room and $crap the buyer
    has, and a pillaged raider truck is refilled only with what the reserve has left."""
    game = new_game(players=4)
    holds = [f"general_hold#{n}" for n in range(1, 21)]
    fill_with(game, 1, "food", holds[:6])
    fill_with(game, 2, "food", holds[6:12])
    fill_with(game, 3, "food", holds[12:18])
    fill_with(game, 0, "empty", holds[18:])
    game.arrange(zones={"raider_park": ["raider_1#1", "raider_2#1", "raider_3#1"]})
    game.arrange(
        cards={
            "raider_1#1": {"fields": {"load": ["water"]}},
            "raider_2#1": {"fields": {"load": ["food", "food", "food"]}},
            "raider_3#1": {"fields": {"load": ["food", "food", "food"]}},
        }
    )
    assert ev(game, "cargo_left(food)") == 1
    where, old = supply_site(game)
    kept = [c for c in pieces(game, where) if c != old] + ["sup_food_1#1"]
    game.arrange(zones={where: {"cards": kept, "others_to": "supply_discard"}})
    game.arrange(players={0: {"resources": {"crap": 30}}})
    put_truck(game, 0, where)
    assert ev(game, "room_for(you, food)", 0) == 3
    game.choose("act:buy")  # one food is left: the quantity is not even asked
    assert ev(game, "carrying(you, food)", 0) == 1
    assert ev(game, "cargo_left(food)") == 0
    assert ev(game, "you.crap", 0) == 29
    # "refill that truck with the cargo shown on the raider card": Road Hogs show 2 food
    game.arrange(active=0, phase="act")
    raider_at(game, "raider_1#1", sp(game, "b2_c"))
    put_truck(game, 0, sp(game, "b2_nw"))
    game.arrange(zones={"truck_deck": ["rt_road_hogs#1"]}, dice={"combat": [HIT3, HIT3]})
    game.choose("act:attack")
    assert ev(game, "carrying(you, water)", 0) == 1  # the raider truck's water, pillaged
    assert ev(game, "first(game.raiders where it.number == 1).load") == []


def test_damage_is_ignored_when_the_40_tokens_are_out() -> None:
    """Components: "40 damage tokens"; Taking Damage: "take a damage token from the reserve
    and assign it to any available slot". With all 40 on trucks there is none to take: the
    damage is ignored, as when "all slots are damaged" (README, Interpretations)."""
    game = new_game(players=6)
    for seat in range(1, 6):
        armor = f"armor#{seat}"
        add_to_dash(game, seat, armor)
        damaged = [armor, *[h for h in pieces_of_dash(game, seat) if h != armor]]
        game.arrange(
            players={seat: {"fields": {"dmg_empty": 4}}},
            cards={c: {"flags": ["damaged"]} for c in damaged},
        )
    game.arrange(
        players={0: {"fields": {"dmg_empty": 3}}},
        cards={h: {"flags": ["damaged"]} for h in pieces_of_dash(game, 0)},
    )
    assert ev(game, "damage_tokens_left") == 0
    assert ev(game, "free_slots(you)", 0) == 1
    at_enclave(game)
    game.arrange(dice={"combat": ["blank", "blank"]})
    mark = len(game.log)
    game.choose("act:attack")
    assert "The reserve has no damage token left: the damage is ignored." in log_since(game, mark)
    assert ev(game, "you.dmg_empty", 0) == 3


def test_ten_progress_markers_a_driver() -> None:
    """Components: "60 progress markers (10x each)"; Appendix C: "use the 10 progress markers
    you have to track your progress"; Appendix D: "mark the fulfilled requirement with 1 of
    your progress markers. Once you've fulfilled all requirements, remove those progress
    markers". With all 10 in use a requirement that does not finish its job cannot be marked
    (not offered); one that finishes its job needs no marker."""
    game = new_game()
    with_contracts(game, "c_bsod#1", "c_kill_all#1", "c_smuggler#1")
    underway = ["nra_operation_houston#1", "nra_according_to_keikaku#1", "nra_outpost_loyalty#1"]
    game.arrange(
        zones={"underway": {0: underway}},
        players={0: {"fields": {"enclaves_hit": ["eyeless", "bonesaw", "nein_nein"]}}},
        cards={
            "nra_operation_houston#1": {"fields": {"met": [0, 1]}},
            "nra_according_to_keikaku#1": {"fields": {"progress": 4}},
            "nra_outpost_loyalty#1": {"fields": {"met": [0]}},
        },
    )
    give_job(game, 0, "nra_freedom_patrol#1")
    assert ev(game, "progress_left(you)", 0) == 0
    # Freedom Patrol's first requirement (weapons to New Alexandria) would need a marker
    put_truck(game, 0, site(game, "new_alexandria"))
    load(game, {hold(game, 0, "weapons"): "weapons"})
    assert "act:job_delivery:nra_freedom_patrol#1" not in game.legal_ids()
    # Outpost Loyalty's last requirement (weapons to New Chernobyl) finishes it: no marker
    put_truck(game, 0, site(game, "new_chernobyl"))
    game.choose("act:job_delivery:nra_outpost_loyalty#1")
    assert "nra_outpost_loyalty#1" in game.state["zones"]["z:done_jobs@0"]
    assert ev(game, "progress_left(you)", 0) == 1


def test_several_variants_at_once() -> None:
    """Appendix F lists five variants; nothing says only one may be played: the start player
    adds them one at a time (a chosen one is not offered again) and then starts the game."""
    game = RULESET.new_game(seed=1, players=2)
    assert prompt(game) == "Appendix F: add a variant?"
    game.choose("opt2")  # Matt's Risky Smuggling
    assert "opt2" not in game.legal_ids()
    game.choose("opt4")  # Nathan's "I Hate Event Decks"
    assert game.legal_ids() == ["opt1", "opt3", "opt5", "opt6"]
    game.choose("opt1")
    assert ev(game, "game.variant_risky") and ev(game, "game.variant_no_events")
    assert not ev(game, "game.variant_warping") and not ev(game, "game.variant_brutal")
