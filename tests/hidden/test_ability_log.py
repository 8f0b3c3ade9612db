"""Using an ability of a card the other seats cannot see does not name it to them (design
rule 5; found by the whole-game leak check of the Waylanders, issue 14: "Player 2 uses Flash
Flood of Flash Flood" was logged to every seat for an event card played from a hand)."""

from __future__ import annotations

from pathlib import Path

import rulecraft

MANIFEST = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: 0}
kinds:
  gem:
    active_in: [hand, table]
zones:
  hand: {per: player, visibility: owner}
  table: {visibility: public}
components:
  - {kind: gem, zone: hand}
flow:
  phases:
    - name: main
      actions: [abilities]
"""

RULES = """gem ruby "Ruby":
    ability "Sparkle":
        gain 1 gold
"""


def test_an_ability_of_a_hidden_card_is_logged_without_its_name(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(RULES, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=1)
    assert game.decision is not None
    [use, *_] = [o for o in game.decision.options if o.id != "pass"]
    game.choose(use.id)
    assert "Player 1 uses Sparkle of Ruby" in game.log_for(0)
    theirs = game.log_for(1)
    assert "Player 1 uses an ability of a card" in theirs
    assert not any("Ruby" in line or "Sparkle" in line for line in theirs)


def test_an_ability_of_a_public_card_is_logged_to_everybody(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(
        MANIFEST.replace("{kind: gem, zone: hand}", "{kind: gem, zone: table}"),
        encoding="utf-8",
    )
    (tmp_path / "rules.rcl").write_text(RULES, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=1)
    assert game.decision is not None
    [use, *_] = [o for o in game.decision.options if o.id != "pass"]
    game.choose(use.id)
    assert "Player 1 uses Sparkle of Ruby" in game.log_for(0)
    assert "Player 1 uses Sparkle of Ruby" in game.log_for(1)
