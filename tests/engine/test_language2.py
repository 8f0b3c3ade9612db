"""The language's second edition (issue 10): loops, modifier bounds, typed fields, ...

Each test writes a tiny ruleset inline and checks what the feature does when the game runs,
or which diagnostic the validator gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecraft
from rulecraft.interpreter.engine import RuleError
from rulecraft.validators.pipeline import check_ruleset


def write(tmp_path: Path, manifest: str, rules: str) -> Path:
    (tmp_path / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return tmp_path


def make(tmp_path: Path, manifest: str, rules: str) -> rulecraft.Ruleset:
    return rulecraft.load(write(tmp_path, manifest, rules))


def codes(tmp_path: Path, manifest: str, rules: str) -> list[tuple[str, int, str]]:
    """(code, line, message) of every diagnostic of the ruleset, errors and warnings."""
    report = check_ruleset(write(tmp_path, manifest, rules))
    return [(d.code, d.span.line, d.message) for d in report.diagnostics]


BASE = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: 0}
"""

ONE_ACTION = """flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""


def test_while_repeats_its_block_as_long_as_the_condition_holds(tmp_path: Path) -> None:
    ruleset = make(
        tmp_path,
        BASE + ONE_ACTION,
        """action act "Act":
    while you.gold < 3:
        gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    assert game.evaluate_expr("gold", 0) == 3


def test_a_while_that_never_ends_stops_at_the_step_limit_with_its_location(
    tmp_path: Path,
) -> None:
    ruleset = make(
        tmp_path,
        BASE + ONE_ACTION,
        """action act "Act":
    while you.gold >= 0:
        say "again"
""",
    )
    game = ruleset.new_game(seed=1)
    with pytest.raises(RuleError, match=r"rules\.rcl:[23]:\d+: the rules run in a loop"):
        game.choose("act:act")


CARDS = """kinds:
  card:
    attributes: {cost: number}
zones:
  box: {}
  hand: {per: player}
components:
  - {kind: card, zone: box}
setup: |
  move box to you.hand
flow:
  phases:
    - name: main
      actions: [noop]
"""


@pytest.mark.parametrize(
    ("bound", "cost"),
    [("", -1), (" (min 0)", 0), (" (max 0)", -1), (" (min 0) (max 0)", 0)],
)
def test_two_discounts_with_a_floor_never_make_a_card_cost_less_than_it(
    tmp_path: Path, bound: str, cost: int
) -> None:
    """Radlands, Trader: "your people cost 1 water less (at least 0)": two in play make a
    cost-1 person cost 0, not -1 (issue 10)."""
    ruleset = make(
        tmp_path,
        BASE + CARDS,
        f"""card cheap "Cheap":
    cost: 1

rule trader_a:
    modify cost of you.hand by -1{bound}

rule trader_b:
    modify cost of you.hand by -1{bound}

action noop "Nothing":
    say "nothing"
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("first(you.hand).cost", 0) == cost


def test_a_ceiling_caps_a_bonus(tmp_path: Path) -> None:
    ruleset = make(
        tmp_path,
        BASE + CARDS,
        """card cheap "Cheap":
    cost: 1

rule boost:
    modify cost of you.hand by 5 (max 3)

action noop "Nothing":
    say "nothing"
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("first(you.hand).cost", 0) == 3
