"""``flatten(C)`` and ``X has t`` with ``t`` a variable (the Waylanders' ENGINE_GAPS 6: "A
list of spaces' pieces does not flatten. `spaces.pieces` is a list of lists and `where`
filters the lists, not the pieces", and 7: "`has` takes a literal name. `u has t` with `t` a
parameter tests the flag named `t`").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.compile import codegen
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.errors import RuleError

MANIFEST = """\
rulecraft: 1
name: flatten
version: '1'
players: {min: 2, max: 2}
files: [rules.rcl]
kinds:
  unit: {attributes: {power: number}}
  rock: {}
map: {kind: square, width: 3, height: 1}
zones:
  box: {per: shared}
components:
  - {ids: [knight, archer, boulder, spare], zone: box}
flags: [climber, swimmer]
setup: |
  move first(knight) to space_at(0, 0)
  move first(archer) to space_at(2, 0)
  move first(boulder) to space_at(2, 0)
  set flag climber on first(knight)
flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""

RULES = """\
unit knight "Knight":
    power: 3

unit archer "Archer":
    power: 1

unit spare "Spare":
    power: 9

rock boulder "Boulder":
    traits: [swimmer]

define units_on_map = flatten(spaces.pieces) where it.kind == unit
define able(u, skill) = u has skill
define with_skill(skill) = flatten(spaces) where it has skill and it.kind == unit
define count_with(skill) = count(flatten(spaces.pieces) where able(it, skill))

action act "Act":
    for each s in [climber, swimmer]:
        if first(knight) has s:
            say "The knight has {s}."
"""


def write(tmp_path: Path, rules: str = RULES) -> Path:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return tmp_path


def game(tmp_path: Path) -> rulecraft.Game:
    return rulecraft.load(write(tmp_path)).new_game(seed=0)


# ---------------------------------------------------------------------------- flatten
def test_a_list_of_spaces_pieces_is_a_list_of_lists_and_flatten_makes_it_one(
    tmp_path: Path,
) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("spaces.pieces") == [["knight#1"], [], ["archer#1", "boulder#1"]]
    assert g.evaluate_expr("count(spaces.pieces)") == 3  # one list per space, as before
    assert g.evaluate_expr("flatten(spaces.pieces)") == ["knight#1", "archer#1", "boulder#1"]
    assert g.evaluate_expr("units_on_map") == ["knight#1", "archer#1"]
    assert g.evaluate_expr("sum(units_on_map.power)") == 4


def test_flatten_goes_one_level_deep_and_opens_zones_and_spaces(tmp_path: Path) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("flatten([[1, 2], [], [3, [4]], 5])") == [1, 2, 3, [4], 5]
    assert g.evaluate_expr("flatten(spaces)") == ["knight#1", "archer#1", "boulder#1"]
    assert g.evaluate_expr("flatten([box, [7]])") == ["spare#1", 7]


def test_flatten_takes_one_argument(tmp_path: Path) -> None:
    report = check_ruleset(write(tmp_path, RULES + "\ndefine bad = flatten(spaces, box)\n"))
    assert [d.message for d in report.diagnostics if d.code == "RC206"] == [
        "flatten() takes 1 argument (a list of collections), not 2"
    ]


# ---------------------------------------------------------------------------- has
def test_has_with_a_parameter_tests_the_flag_the_parameter_names(tmp_path: Path) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("able(first(knight), climber)") is True
    assert g.evaluate_expr("able(first(knight), swimmer)") is False
    assert g.evaluate_expr("able(first(boulder), swimmer)") is True  # a trait
    assert g.evaluate_expr("with_skill(climber)") == ["knight#1"]
    assert g.evaluate_expr("count_with(swimmer)") == 1


def test_has_with_a_loop_variable(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.choose("act:act")
    assert any("The knight has climber." in line for line in g.log)
    assert not any("The knight has swimmer." in line for line in g.log)


def test_has_with_a_name_that_is_no_variable_still_tests_that_flag(tmp_path: Path) -> None:
    g = game(tmp_path)
    assert g.evaluate_expr("first(knight) has climber") is True
    assert g.evaluate_expr("first(archer) has climber") is False


def test_a_variable_that_holds_no_flag_name_is_a_runtime_error(tmp_path: Path) -> None:
    g = game(tmp_path)
    with pytest.raises(RuleError, match=r"'has skill' needs the name of a flag in skill, not 3"):
        g.evaluate_expr("able(first(knight), 3)")


def test_the_generated_code_gives_what_the_closures_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [
        "count_with(swimmer)",
        "with_skill(climber)",
        "able(first(knight), climber) and not able(first(archer), climber)",
        "count(flatten(spaces.pieces) where able(it, swimmer) or it.kind == unit)",
    ]
    built: list[str] = []
    real_build = codegen.build

    def counting_build(compiler: Any, plan: codegen.Plan) -> Any:
        built.append(plan.source)
        return real_build(compiler, plan)

    monkeypatch.setattr(codegen, "build", counting_build)
    g = game(tmp_path)
    generated = [g.evaluate_expr(t) for t in texts]
    assert any("has_named_flag" in source for source in built), built
    monkeypatch.setattr(codegen, "plan", lambda *args: None)
    assert [g.evaluate_expr(t) for t in texts] == generated == [1, ["knight#1"], True, 3]
