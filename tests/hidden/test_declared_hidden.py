"""``declared_hidden``'s names: a name written inside a name the seat sees is no secret.

The Waylanders lays every adventurer's emblem face up ("Rowan (emblem)") while the
adventurers themselves are in hands: the leak check called 'Rowan' in the public emblem's
name a leak of the hand card 'Rowan' (every random game failed).  A name nothing public
shows stays secret, and hidden ids are checked as before.
"""

from __future__ import annotations

from pathlib import Path

import rulecraft
from rulecraft.tools.conformance import DeclaredHidden, declared_hidden, leak_report

MANIFEST = """\
rulecraft: 1
name: names
title: "Names"
players: {min: 2, max: 2}
files: [rules.rcl]
kinds:
  card:
    attributes: {cost: number}
zones:
  hand: {per: player, visibility: owner}
  table: {visibility: public}
  deck: {visibility: hidden}
components:
  - {ids: [rowan, ash], zone: deck}
  - {ids: [rowan_emblem], zone: table}
flow:
  phases:
    - name: main
      actions: [play]
      max: 1
"""

RULES = """\
card rowan "Rowan":
    cost: 1

card ash "Ash":
    cost: 1

card rowan_emblem "Rowan (emblem)":
    cost: 0

action play "Play":
    say "go"
"""


def game_with_a_hand(tmp_path: Path) -> rulecraft.Game:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(RULES, encoding="utf-8")
    game = rulecraft.load(str(tmp_path)).new_game(seed=1)
    game.arrange(zones={"hand": {1: ["rowan#1", "ash#1"]}})
    return game


def test_a_name_shown_inside_a_public_name_is_not_secret(tmp_path: Path) -> None:
    game = game_with_a_hand(tmp_path)
    assert declared_hidden(game, 0) == ["rowan#1", "ash#1", "Ash"]
    assert declared_hidden(game, 0, names=False) == ["rowan#1", "ash#1"]
    assert declared_hidden(game, 1) == []  # its own hand; the table is public


def test_the_public_name_is_no_leak_but_a_hidden_id_still_is(tmp_path: Path) -> None:
    game = game_with_a_hand(tmp_path)
    terms = DeclaredHidden()(game, 0)
    assert leak_report(game, 0, terms) == []
    # The check still bites: seat 0 reading seat 1's card id is a leak.
    assert leak_report(game, 0, [*terms, "rowan_emblem#1"])[0].endswith("['rowan_emblem#1']")
