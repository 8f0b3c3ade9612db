"""The player view (``runtime/view.py``), shape by shape.

Issue 17: "`runtime/view.py`: 23 of 39 mutants survive the engine and conformance tests
(the shape of a hidden card, player names, zone keys)".  These tests pin the whole view of a
known position (Sparks, seed 1; Tic-Tac-Toe, seed 1) for each seat: what a hidden card
shows (nothing but ``{"hidden": true}``), a visible card's fields, the players, every zone's
key, name, owner, visibility and count, the map, and ``describe``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime.game import Game

SPARKS_ZONES = [
    ("z:deck", "Deck", None, "hidden", 31),
    ("z:discard", "Discard pile", None, "public", 0),
    ("z:hand@0", "Hand of Player 1", 0, "owner", 5),
    ("z:hand@1", "Hand of Player 2", 1, "owner", 4),
    ("z:board@0", "Board of Player 1", 0, "public", 0),
    ("z:board@1", "Board of Player 2", 1, "public", 0),
]


@pytest.fixture(scope="module")
def sparks() -> rulecraft.Ruleset:
    return rulecraft.load("sparks")


@pytest.fixture
def game(sparks: rulecraft.Ruleset) -> Game:
    return sparks.new_game(players=2, seed=1)


def zone(view: dict[str, Any], key: str) -> dict[str, Any]:
    found: dict[str, Any] = next(z for z in view["zones"] if z["key"] == key)
    return found


def test_the_top_of_a_view(game: Game) -> None:
    view = game.view(1)
    assert {k: v for k, v in view.items() if k not in ("players", "zones")} == {
        "ruleset": "sparks",
        "title": "Sparks",
        "seat": 1,
        "turn": 1,
        "round": 1,
        "active": 0,
        "phase": "main",
        "map": None,
        "globals": {},
        "result": None,
    }


def test_players_are_named_by_seat_with_their_resources(game: Game) -> None:
    assert game.view(0)["players"] == [
        {"seat": 0, "name": "Player 1", "resources": {"energy": 3, "points": 0}, "flags": []},
        {"seat": 1, "name": "Player 2", "resources": {"energy": 0, "points": 0}, "flags": []},
    ]


@pytest.mark.parametrize("seat", [0, 1])
def test_every_zone_has_its_key_name_owner_visibility_and_count(game: Game, seat: int) -> None:
    zones = game.view(seat)["zones"]
    assert [
        (z["key"], z["name"], z["owner"], z["visibility"], z["count"]) for z in zones
    ] == SPARKS_ZONES
    assert all(len(z["cards"]) == z["count"] for z in zones)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_hidden_card_is_only_hidden(game: Game, seat: int) -> None:
    view = game.view(seat)
    other = 1 - seat
    for key in ("z:deck", f"z:hand@{other}"):
        assert zone(view, key)["cards"] == [{"hidden": True}] * zone(view, key)["count"]
    assert all("hidden" not in card for card in zone(view, f"z:hand@{seat}")["cards"])


def test_a_visible_card_shows_every_field(game: Game) -> None:
    first = zone(game.view(0), "z:hand@0")["cards"][0]
    assert first == {
        "id": "spark_imp#2",
        "name": "Spark Imp",
        "kind": "creature",
        "side": None,
        "exhausted": False,
        "counters": {},
        "flags": [],
        "text": "When it enters your board: draw a card.",
        "props": {"cost": 1, "power": 1},
    }
    assert [c["id"] for c in zone(game.view(0), "z:hand@0")["cards"]] == game.state["zones"][
        "z:hand@0"
    ]


def test_a_finished_game_shows_its_result(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(players=2, seed=2)
    rng = random.Random(2)
    while game.decision is not None:
        game.choose(rng.choice(game.legal_ids()))
    view = game.view(0)
    assert view["result"] == game.state["result"]
    assert view["result"] is not game.state["result"]  # a copy


def test_the_map_of_tictactoe() -> None:
    game = rulecraft.load("tictactoe").new_game(seed=1)
    game.choose("act:place:b2")
    for seat in (0, 1):
        board = game.view(seat)["map"]
        assert {k: v for k, v in board.items() if k != "spaces"} == {
            "kind": "square",
            "width": 3,
            "height": 3,
        }
        spaces = {s["id"]: s for s in board["spaces"]}
        assert sorted(spaces) == sorted(f"{c}{r}" for c in "abc" for r in "123")
        assert spaces["b2"] == {
            "id": "b2",
            "x": 1,
            "y": 1,
            "terrain": None,
            "pieces": [{"id": "mark#1", "name": "Mark", "owner": 0}],
        }
        assert spaces["a1"]["pieces"] == [] and (spaces["a1"]["x"], spaces["a1"]["y"]) == (0, 0)
        assert (spaces["c3"]["x"], spaces["c3"]["y"]) == (2, 2)


def test_describe_finds_a_visible_card_by_id_or_name_and_nothing_hidden(game: Game) -> None:
    text = (
        "Spark Imp (creature, spark_imp#2)\ncost: 1\npower: 1\n"
        "When it enters your board: draw a card."
    )
    assert game.describe("spark_imp#2", 0) == text
    assert game.describe("  SPARK IMP ", 0) == text
    unseen = game.state["zones"]["z:hand@1"][0]
    assert game.describe(unseen, 0) is None
    assert game.describe(unseen, 1) is not None
    assert game.describe("no-such-card#0", 0) is None
    assert game.describe(game.state["zones"]["z:deck"][0], 0) is None


def test_describe_lists_counters_flags_and_abilities(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(players=2, seed=1)
    cid = game.state["zones"]["z:hand@0"][0]
    game.state["comps"][cid]["c"] = {"charge": 2}
    game.state["comps"][cid]["f"] = ["burning"]
    lines = (game.describe(cid, 0) or "").splitlines()
    assert "counters: charge 2" in lines and "flags: burning" in lines
    golem = next((c for c, v in game.state["comps"].items() if v["d"] == "ember_golem"), None)
    assert golem is not None
    game.state["zones"][game.state["comps"][golem]["z"]].remove(golem)
    game.state["zones"]["z:board@0"].append(golem)
    game.state["comps"][golem]["z"] = "z:board@0"
    assert any(
        line.startswith("ability: ") for line in (game.describe(golem, 1) or "").splitlines()
    )


def test_a_hidden_card_shows_only_where_it_lies() -> None:
    """A face-down Radlands punk: every seat sees that a card lies in column 1, row 1 (the
    zone's ``public_fields``), nothing else."""
    game = rulecraft.load("radlands").new_game(seed=1)
    game.arrange(
        zones={"people": {0: ["kundschafter#4"]}},
        cards={"kundschafter#4": {"face_down": True, "fields": {"col": 1, "row": 1}}},
    )
    for seat in (0, 1):
        assert zone(game.view(seat), "z:people@0")["cards"] == [
            {"hidden": True, "props": {"col": 1, "row": 1}}
        ]
        assert game.describe("kundschafter#4", seat) is None


def test_a_visible_card_shows_the_fields_the_rules_set() -> None:
    """Fields set on a copy (a Radlands person's column and row) are shown as they are,
    numbers as numbers, beside the definition's attributes."""
    game = rulecraft.load("radlands").new_game(seed=1)
    game.arrange(
        zones={"people": {0: ["kundschafter#4"]}},
        cards={"kundschafter#4": {"fields": {"col": 2, "row": 1}}},
    )
    [card] = zone(game.view(1), "z:people@0")["cards"]
    assert card["id"] == "kundschafter#4"
    assert (card["props"]["col"], card["props"]["row"]) == (2, 1)
