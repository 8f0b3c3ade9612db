"""Bazaar (``rulesets/bazaar``): hands, decks and the market deck stay hidden.  Random games
with 2, 3 and 4 players are played to the end; at every decision no seat's view, log or
offered labels names a card in another seat's hand, deck or discard pile, in its own deck,
or in the market deck (issue 10: "every other seat's view, log and prompt names nothing").
The unique Sultan's Crown is bought by its name (issue 10: "a unique card choosable by its
name without #1"), and ``score:`` fills the result's scores."""

from __future__ import annotations

import random
import re

import pytest

import rulecraft
from rulecraft.runtime.game import Game

DRAW_LINE = re.compile(r"^Player (\d) draws (.+)$")
PLAY_LINE = re.compile(r"^Player (\d): Play: (.+)$")


def secret_cards(game: Game, seat: int) -> list[str]:
    """Ids of the cards ``seat`` may not see: the market deck, every deck, the other seats'
    hands and discard piles."""
    zones = game.state["zones"]
    found = list(zones["z:market_deck"])
    for other in range(game.num_players):
        found += zones[f"z:deck@{other}"]
        if other != seat:
            found += zones[f"z:hand@{other}"] + zones[f"z:discard@{other}"]
    return found


def check_seat(game: Game, seat: int, log_seen: int) -> None:
    view = game.view(seat)
    text = str(view)
    for card in secret_cards(game, seat):
        assert f"'{card}'" not in text, card
    for zone in view["zones"]:
        if zone["key"].startswith(("z:deck@", "z:market_deck")) or (
            zone["key"].startswith(("z:hand@", "z:discard@")) and zone["owner"] != seat
        ):
            assert all(card == {"hidden": True} for card in zone["cards"]), zone
    for line in game.log_for(seat)[log_seen:]:
        for pattern in (DRAW_LINE, PLAY_LINE):
            found = pattern.match(line)
            if found and int(found.group(1)) != seat + 1:
                assert found.group(2).startswith(("a card", "hidden card")), line


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_seat_reads_a_hidden_card(players: int) -> None:
    ruleset = rulecraft.load("bazaar")
    chooser = random.Random(players)
    for seed in range(3):
        game = ruleset.new_game(seed=seed, players=players)
        read = [0] * players
        while game.decision is not None:
            for seat in range(players):
                check_seat(game, seat, read[seat])
                read[seat] = len(game.log_for(seat))
            game.choose(chooser.choice(game.decision.options).id)
        result = game.result
        assert result is not None and result.reason == "The bazaar closes."
        points = [game.evaluate_expr("points(you)", seat) for seat in range(players)]
        assert [result.scores[seat] for seat in range(players)] == points
        assert set(result.winners) == {s for s in range(players) if points[s] == max(points)}


def test_the_drawing_seat_reads_its_own_cards() -> None:
    """The check above is not vacuous: the drawer's own log names the cards it draws."""
    game = rulecraft.load("bazaar").new_game(seed=1, players=2)
    assert any(
        line.startswith("Player 1 draws ") and "a card" not in line for line in game.log_for(0)
    )
    assert "Player 1 draws a card" in game.log_for(1)


def test_the_only_crown_is_bought_by_its_name() -> None:
    game = rulecraft.load("bazaar").new_game(seed=1, players=2)
    game.arrange(
        zones={"market": {"cards": ["porter#1", "crown#1"], "others_to": "market_deck"}},
        players={0: {"resources": {"coins": 7}}},
        active=0,
        phase="play",
    )
    game.choose("pass")
    game.choose("act:buy:crown")
    assert game.evaluate_expr("any(cards_of(you) where it.def == crown)", 0) is True
    assert game.record.choices[-1] == "act:buy:crown#1"  # the record keeps the full id
    assert game.decision is not None and game.decision.seat == 1
