"""Tricks (``rulesets/tricks``): hands stay hidden.  Random games with 3 and 4 players are
played to the end; at every decision, no seat's view, log or offered labels names a card in
another seat's hand, the deck or the played tricks (issue 10: "every other seat's view, log
and prompt names nothing"), and every game ends after three hands."""

from __future__ import annotations

import random
import re

import pytest

import rulecraft
from rulecraft.runtime.game import Game

DRAW_LINE = re.compile(r"^Player (\d) draws (.+)$")
PLAY_LINE = re.compile(r"^Player (\d): Play: (.+)$")
TAKES_LINE = re.compile(r"^Player (\d) takes the trick with ")
SECRET_ZONES = ("z:deck", "z:taken")


def secret_cards(game: Game, seat: int) -> list[str]:
    """Ids of the cards ``seat`` may not see now: the other hands (but the turned-up trump
    card, shown to all until it is played), the deck, the tricks already taken."""
    zones = game.state["zones"]
    found = [card for key in SECRET_ZONES for card in zones[key]]
    for other in range(game.num_players):
        if other != seat:
            found += [c for c in zones[f"z:hand@{other}"] if not game.state["comps"][c].get("up")]
    return found


def card_name(card: str) -> str:
    """'ash_3#1' is named '3 of ash' (the manifest's name template)."""
    suit, rank = card.split("#")[0].split("_")
    return f"{rank} of {suit}"


def check_seat(game: Game, seat: int, log_seen: int, seen_before: set[str]) -> set[str]:
    """Check what ``seat`` reads now; return the names of the cards its view shows (a card
    another seat plays may be named in the log only if it was shown before: the trump card)."""
    view = game.view(seat)
    for zone in view["zones"]:
        if zone["key"] in SECRET_ZONES or (
            zone["key"].startswith("z:hand@") and zone["owner"] != seat
        ):
            shown = [card["id"] for card in zone["cards"] if card != {"hidden": True}]
            assert all(game.state["comps"][card].get("up") for card in shown), zone
    secrets = secret_cards(game, seat)
    text = str(view)
    for card in secrets:
        assert card not in text and f"'{card_name(card)}'" not in text, card
    for line in game.log_for(seat)[log_seen:]:
        for pattern in (DRAW_LINE, PLAY_LINE):
            found = pattern.match(line)
            if found and int(found.group(1)) != seat + 1:
                what = found.group(2).split(" (")[0]
                assert what in seen_before or what.startswith(("a card", "hidden card")), line
    decision = game.decision
    if decision is not None and decision.seat == seat:
        labels = " | ".join([decision.prompt] + [o.label for o in decision.options])
        assert not any(card_name(card) + " " in labels + " " for card in secrets), labels
    return {card["name"] for zone in view["zones"] for card in zone["cards"] if "name" in card}


@pytest.mark.parametrize("players", [3, 4])
def test_no_seat_reads_another_seats_hand(players: int) -> None:
    ruleset = rulecraft.load("tricks")
    chooser = random.Random(players)
    for seed in range(4):
        game = ruleset.new_game(seed=seed, players=players)
        read = [0] * players
        shown: list[set[str]] = [set() for _ in range(players)]
        while game.decision is not None:
            for seat in range(players):
                shown[seat] = check_seat(game, seat, read[seat], shown[seat])
                read[seat] = len(game.log_for(seat))
            game.choose(chooser.choice(game.decision.options).id)
        assert game.result is not None
        assert game.evaluate_expr("game.hands") == 3
        # 9 cards for every player in each of three hands, every card played once.
        assert sum(1 for line in game.log if PLAY_LINE.match(line)) >= 3 * 9 * players


def test_the_trump_card_is_shown_to_every_seat() -> None:
    """The dealer's last card is turned up: every seat's view shows it in the dealer's hand,
    and only that card of the hand."""
    game = rulecraft.load("tricks").new_game(seed=2, players=4)
    dealer = game.evaluate_expr("seat(start_player.previous)")
    trump_card = game.state["zones"][f"z:hand@{dealer}"][-1]
    assert game.evaluate_expr("game.trump") == trump_card.split("_")[0]
    for seat in range(4):
        hand = next(z for z in game.view(seat)["zones"] if z["key"] == f"z:hand@{dealer}")
        shown = [card["id"] for card in hand["cards"] if card != {"hidden": True}]
        assert shown == (hand_ids(game, dealer) if seat == dealer else [trump_card])


def hand_ids(game: Game, seat: int) -> list[str]:
    return list(game.state["zones"][f"z:hand@{seat}"])


def test_the_owner_reads_its_own_cards() -> None:
    """The checks above are not vacuous: the drawing seat's log and the player's own play
    options name its cards, the other seats' do not."""
    game = rulecraft.load("tricks").new_game(seed=1, players=3)
    own = [line for line in game.log_for(0) if DRAW_LINE.match(line)]
    assert any(line.startswith("Player 1 draws ") and "a card" not in line for line in own)
    game.arrange(
        zones={"hand": {0: {"cards": ["ash_5#1", "coal_2#1"], "others_to": "deck"}}},
        game={"fields": {"trump": "dust"}},
        active=0,
        phase="play",
    )
    assert game.decision is not None
    labels = [o.label for o in game.decision.options]
    assert any("5 of ash" in label for label in labels), labels
    game.choose("act:play:ash_5#1")
    assert "Player 1: Play: 5 of ash (Hand of Player 1)" in game.log_for(0)
    assert any(line.startswith("Player 1: Play: hidden card") for line in game.log_for(1)), (
        game.log_for(1)[-3:]
    )


def test_a_hand_is_a_round_of_stages() -> None:
    """Issue 10: 'a round made of stages that repeat (deal, bid, then tricks until hands are
    empty, then score) without a numeric stage variable'.  Every round is one hand: each
    player bids once from the opener on, then 9 tricks, the first led by the opener and each
    next one by the taker of the last; the opener moves one seat on every hand."""
    game = rulecraft.load("tricks").new_game(seed=7, players=4)
    chooser = random.Random(7)
    turns: list[tuple[int, str, int]] = []
    leaders: list[int] = []
    while game.decision is not None:
        view = game.view(0)
        turns.append((view["round"], view["phase"], game.decision.seat))
        if view["phase"] == "play" and not game.state["zones"]["z:trick"]:
            leaders.append(game.decision.seat)
        game.choose(chooser.choice(game.decision.options).id)
    takers = [int(m.group(1)) - 1 for m in map(TAKES_LINE.match, game.log) if m]
    assert [r for r, _, _ in turns] == [r for r in (1, 2, 3) for _ in range(40)]
    openers = [turns[40 * hand][2] for hand in range(3)]
    assert openers[1] == (openers[0] + 1) % 4 and openers[2] == (openers[0] + 2) % 4
    for hand, opener in enumerate(openers):
        bids = turns[40 * hand : 40 * hand + 4]
        assert bids == [(hand + 1, "bid", (opener + k) % 4) for k in range(4)]
        assert leaders[9 * hand] == opener
        assert leaders[9 * hand + 1 : 9 * hand + 9] == takers[9 * hand : 9 * hand + 8]
    assert len(takers) == 27
