"""A menu asks an ability's fixed cost (``costs 1 water``) before its condition: the
condition costs more to work out (Radlands' ``ready(this)`` reads five fields), and an
ability the seat cannot pay for is not offered whatever it says.  A computed cost keeps
its place after the condition, which may be what guards it."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecraft
from rulecraft import RuleError

MANIFEST = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: GOLD}
kinds:
  gem:
    active_in: [hand]
zones:
  hand: {per: player, visibility: owner}
  table: {per: player, visibility: public}
components:
  - {kind: gem, zone: hand}
flow:
  phases:
    - name: main
      actions: [abilities]
"""

# `you.table > 0` compares a pile with a number: a rule error whenever it is worked out.
FIXED = """gem ruby "Ruby":
    ability "Shine" costs 1 gold if you.table > 0:
        gain 1 gold
"""

# The cost is negative (a rule error) unless the table holds a card; the condition says so.
COMPUTED = """gem ruby "Ruby":
    ability "Glow" costs (count(you.table) - 1) gold if count(you.table) > 0:
        gain 1 gold
    ability "Gleam" costs 1 gold:
        gain 1 gold
"""


def _game(tmp_path: Path, rules: str, gold: int) -> rulecraft.Game:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST.replace("GOLD", str(gold)), encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return rulecraft.load(tmp_path).new_game(seed=1)


def test_a_fixed_cost_the_seat_cannot_pay_is_asked_before_the_condition(tmp_path: Path) -> None:
    game = _game(tmp_path, FIXED, gold=0)
    assert game.legal_ids() == ["pass"]


def test_the_condition_is_still_asked_when_the_seat_can_pay(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="'>' not supported"):
        _game(tmp_path, FIXED, gold=1)


def test_a_computed_cost_is_asked_only_after_its_condition(tmp_path: Path) -> None:
    game = _game(tmp_path, COMPUTED, gold=1)
    labels = {o.label for o in game.decision.options} if game.decision else set()
    assert "Gleam" in " ".join(labels)
    assert not any("Glow" in label for label in labels)
