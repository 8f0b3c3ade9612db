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
from rulecraft.interpreter.game import Game

RULESET = rulecraft.load("wasteland_express")


# ---------------------------------------------------------------------------- helpers
def new_game(players: int = 2, seed: int = 1, variant: str = "opt5") -> Game:
    """A game past its setup decisions: the variant, the drivers (first offered), the jobs."""
    game = RULESET.new_game(seed=seed, players=players)
    game.choose(variant)
    while game.decision is not None and prompt(game) != "Take an action":
        game.choose(game.decision.options[0].id)
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


def neighbours(space: str) -> list[str]:
    mp = RULESET.program.map
    assert mp is not None
    return list(mp.adjacency[space])


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
        game.choose(rng.choice(game.decision.options).id)
    return game


# ---------------------------------------------------------------------------- setup 001-005
def test_setup_builds_the_wasteland() -> None:
    """001 A-E: 16 octagons in a 4x4 grid, the Depot in the middle, the 4 enclaves on the
    edge centres with "The Railmen Enclave and the Nein Nein Enclave ... directly opposite",
    16 outposts, "the 3 raider trucks at random in 3 different corner terrain octagons"."""
    for seed in range(6):
        game = new_game(seed=seed)
        assert (
            ev(
                game,
                "count(spaces where it.terrain == centre"
                " and any(it.pieces where it.kind == terrain_tile))",
            )
            == 16
        )
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
        assert set(corners) <= {"s:a1_c", "s:d1_c", "s:a4_c", "s:d4_c"}


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
        order.append(game.decision.seat)
        game.choose(game.decision.options[0].id)
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
        seats.append(game.decision.seat)
        game.choose("act:rest")
    assert seats == [0, 1] * 5
    # round 2: the events deck passed to Player 2, who starts; every marker is available
    assert ev(game, "game.game_round") == 2
    assert game.decision.seat == 1
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
        label = next(o.label for o in game.decision.options if o.id == "act:drive")
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
    start = neighbours(target)[0]
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
    assert game.decision.seat == 1  # "This is the only way to take 2 actions in the same turn."


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
    put_truck(game, 0, neighbours("g22")[0])
    game.choose("act:drive")
    game.choose("act:step:g22")
    game.choose("pass")
    assert not any(o.startswith("act:bsod") for o in game.legal_ids())
    game.choose("pass")
    game.choose("act:rest")
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
    assert game.decision.seat == 1


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
    zone = str(ev(game, "first(spaces where on_ring(it) and it.terrain in tile_of(it).icon)"))
    rt = str(
        ev(game, f"first(game.raiders where it.number == tile_of(space_at({coords(zone)})).raider)")
    )
    return zone[2:], rt


def coords(space: str) -> str:
    mp = RULESET.program.map
    assert mp is not None
    x, y = mp.coords[space.removeprefix("s:")]
    return f"{x}, {y}"


def centre(space: str) -> str:
    mp = RULESET.program.map
    assert mp is not None
    x, y = mp.coords[space]
    return mp.by_coord[(4 * (x // 4) + 2, 4 * (y // 4) + 2)]


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
    home = "b2_c" if centre(zone) != "b2_c" else "c3_c"
    for other in ("a1_c", "d1_c", "a4_c", "d4_c", "b2_c", "c3_c"):
        kept = [p for p in pieces(game, other) if "raider_" not in p]
        game.arrange(zones={other: {"cards": kept, "others_to": "raider_park"}})
    raider_at(game, rt, home)
    target = neighbours(home)[0]
    ring_zone = target.replace("_c", "_nw")
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
        kept = [p for p in pieces(game, other) if "raider_" not in p]
        game.arrange(zones={other: {"cards": kept, "others_to": "raider_park"}})
    others = [r for r in ("raider_1#1", "raider_2#1", "raider_3#1") if r != rt]
    raider_at(game, rt, "a1_c")
    raider_at(game, others[0], "b1_c")
    put_truck(game, 0, zone)
    game.choose("act:drive")
    game.choose("pass")
    assert prompt(game).startswith("Raider icon: move")
    assert set(game.legal_ids()) == {"c1_c", "a2_c"}
