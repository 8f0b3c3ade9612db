"""``every(KIND)``: every component of a kind (the seed rulesets' ENGINE_GAPS "No collection
of every component of a kind": Knight Moves 4 "`sword_goblin + bomb_goblin` (two
definitions) is empty; the enemies on the stage are kept in a player field", Wasteland
Express 6 "The 36 demand counters of six definitions are listed once at setup").
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.errors import RuleError

MANIFEST = """\
rulecraft: 1
name: every
version: '1'
players: {min: 2, max: 2}
files: [rules.rcl]
kinds:
  goblin: {attributes: {power: number}}
  tile: {attributes: {size: number}}
zones:
  board: {per: shared}
  pit: {per: shared}
components:
  - {ids: [grunt], zone: pit, copies: 3}
  - {ids: [boss], zone: board}
  - {ids: [stone], zone: pit}
flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""

RULES = """\
goblin grunt "Grunt":
    power: 1

goblin boss "Boss":
    power: 5

tile stone "Stone":
    size: 1

define of_kind(k) = every(k)
define goblins_on_board = every(goblin) where it.zone == board

action act "Act":
    move first(every(goblin) where it.zone == pit) to board
"""


def write(tmp_path: Path, rules: str = RULES) -> Path:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return tmp_path


def game(tmp_path: Path) -> rulecraft.Game:
    return rulecraft.load(write(tmp_path)).new_game(seed=0)


def test_every_lists_each_copy_of_each_component_of_the_kind_wherever_it_is(
    tmp_path: Path,
) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("every(goblin)") == ["grunt#1", "grunt#2", "grunt#3", "boss#1"]
    assert g.evaluate_expr("every(tile)") == ["stone#1"]
    assert g.evaluate_expr("sum(every(goblin).power)") == 3 * 1 + 5


def test_where_each_one_is_is_read_as_for_any_component(tmp_path: Path) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("goblins_on_board") == ["boss#1"]
    g.choose("act:act")  # a grunt moves from the pit to the board
    assert g.evaluate_expr("count(goblins_on_board)") == 2
    assert g.evaluate_expr("count(every(goblin) where it.zone == pit)") == 2


def test_the_kind_may_be_a_value_such_as_a_parameter(tmp_path: Path) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("of_kind(tile)") == ["stone#1"]
    with pytest.raises(RuleError, match=r"every\(\) needs a kind, not board \(RC300\)"):
        g.evaluate_expr("of_kind(board)")


def test_an_unknown_kind_is_rc227_with_the_closest_kind(tmp_path: Path) -> None:
    report = check_ruleset(write(tmp_path, RULES + "\ndefine bad = every(gobln)\n"))
    found = [d for d in report.diagnostics if d.code == "RC227"]
    assert [(d.span.line, d.span.column, d.message, d.hint) for d in found] == [
        (
            16,
            20,
            "every() needs a kind: 'gobln' is no kind the manifest declares",
            "did you mean 'goblin'?",
        )
    ]


def test_every_takes_one_argument(tmp_path: Path) -> None:
    report = check_ruleset(write(tmp_path, RULES + "\ndefine bad = every(goblin, tile)\n"))
    assert [d.message for d in report.diagnostics if d.code == "RC206"] == [
        "every() takes 1 argument (a kind), not 2"
    ]


def test_a_rulesets_own_every_hides_the_built_in(tmp_path: Path) -> None:
    rules = RULES.replace("define of_kind(k) = every(k)", "define every(k) = 7\ndefine x = 1")
    rules = rules.replace("every(goblin) where it.zone == board", "[boss]")
    rules = rules.replace("first(every(goblin) where it.zone == pit)", "first(grunt)")
    g = rulecraft.load(write(tmp_path, rules)).new_game(seed=0)
    assert g.evaluate_expr("every(goblin)") == 7
