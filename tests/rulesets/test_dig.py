"""Dig (``rulesets/dig``): hidden tools stay hidden.  Random games are played to the end; at
every decision, no seat's view, log or offered labels names a tool in another seat's kit
(issue 10: "every other seat's view, log and prompt names nothing")."""

from __future__ import annotations

import random
import re

import pytest

import rulecraft
from rulecraft.runtime.game import Game

TOOL_NAMES = ("Medkit", "Lantern", "Pickaxe")
DRAW_LINE = re.compile(r"^Player (\d) draws (.+)$")


def other_kits(game: Game, seat: int) -> list[str]:
    """Ids of the tools in the kits of every seat but ``seat``."""
    found: list[str] = []
    for other in range(game.num_players):
        if other != seat:
            found += game.state["zones"][f"z:kit@{other}"]
    return found


def check_seat(game: Game, seat: int) -> None:
    view = game.view(seat)
    kits = [z for z in view["zones"] if z["key"].startswith("z:kit@")]
    for zone in kits:
        if zone["owner"] != seat:
            assert all(card == {"hidden": True} for card in zone["cards"]), zone
    for line in game.log_for(seat):
        drew = DRAW_LINE.match(line)
        if drew and int(drew.group(1)) != seat + 1:
            assert drew.group(2) == "a card", line
    text = str(view)
    for card in other_kits(game, seat):
        assert card not in text
    decision = game.decision
    if decision is not None and decision.seat == seat:
        labels = " ".join([decision.prompt] + [o.label for o in decision.options])
        assert not any(name in labels for name in TOOL_NAMES if name not in str(view)), labels


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_seat_reads_another_seats_tools(players: int) -> None:
    ruleset = rulecraft.load("dig")
    chooser = random.Random(players)
    for seed in range(8):
        game = ruleset.new_game(seed=seed, players=players)
        draws_checked = 0
        while game.decision is not None:
            for seat in range(players):
                check_seat(game, seat)
            draws_checked += sum(1 for line in game.log if DRAW_LINE.match(line))
            game.choose(chooser.choice(game.decision.options).id)
        assert game.result is not None
        assert draws_checked > 0  # tools were drawn, so the check had something to check


def test_the_drawing_seat_reads_its_own_tool() -> None:
    """The check above is not vacuous: the drawer's own log names the tool."""
    game = rulecraft.load("dig").new_game(seed=1, players=2)
    game.arrange(active=0, phase="dig", dice={"dig": ["tool", "rock", "rock"]})
    game.choose("act:push")
    drawn = game.state["zones"]["z:kit@0"]
    assert len(drawn) == 1
    assert any(DRAW_LINE.match(line) and "a card" not in line for line in game.log_for(0))
    assert any(line == "Player 1 draws a card" for line in game.log_for(1))
