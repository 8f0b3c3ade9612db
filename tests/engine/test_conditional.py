"""The conditional expression ``A if C else B`` (the seed rulesets' ENGINE_GAPS: "No
conditional expression", Knight Moves 5, Wasteland Express 5, Waylanders 5: "define cannot
say 'A if C, else B'; rulesets write arithmetic on 0/1 counts").

Parsing (precedence, chaining, spans), formatting, evaluation by the closures and by the
generated code (only the chosen branch runs), amounts, and the diagnostics RC226/RC253.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.compile import codegen
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.language import ast
from rulecraft.language.formatter import format_expr, format_source, strip_spans
from rulecraft.language.parser import build_parser, parse_expression, parse_source

MANIFEST = """\
rulecraft: 1
name: conditional
version: '1'
players: {min: 2, max: 2}
files: [rules.rcl]
kinds:
  card: {attributes: {power: number}}
resources:
  gold: {per: player, start: 0}
  water: {per: player, start: 0}
fields:
  mood: {of: player, type: "enum(happy, glum)"}
flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""

RULES = """\
define fact(n) = 1 if n <= 1 else n * fact(n - 1)
define sign(n) = -1 if n < 0 else 0 if n == 0 else 1
define never(n) = 0 if true else never(n + 1)
define big(xs, n) = xs where (it > 3 if n > 1 else it > 0)

action act "Act":
    gain 2 gold if you.gold == 0 else 1 water
    gain (3 if you.water > 0 else 4) water
    set you.mood to happy if you.gold > 1 else glum
"""


def write(tmp_path: Path, rules: str, manifest: str = MANIFEST) -> Path:
    (tmp_path / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return tmp_path


def diagnostics(tmp_path: Path, rules: str) -> list[tuple[str, int, int, str]]:
    report = check_ruleset(write(tmp_path, rules))
    return [(d.code, d.span.line, d.span.column, d.message) for d in report.diagnostics]


def parse(text: str) -> ast.Expr:
    tree, problems = parse_expression(text, "x.rcl")
    assert problems == [] and tree is not None
    return tree


# ---------------------------------------------------------------------------- grammar
def test_the_grammar_has_no_conflict_with_the_conditional() -> None:
    build_parser(strict=True)  # raises GrammarError on any shift/reduce conflict


def test_a_conditional_is_looser_than_or_and_where() -> None:
    e = parse("a or b if c or d else e where f")
    assert isinstance(e, ast.Conditional)
    assert isinstance(e.then, ast.Binary) and e.then.op == "or"
    assert isinstance(e.condition, ast.Binary) and e.condition.op == "or"
    assert isinstance(e.otherwise, ast.Where)


def test_conditionals_chain_to_the_right() -> None:
    e = parse("a if c else b if d else e")
    assert isinstance(e, ast.Conditional) and isinstance(e.otherwise, ast.Conditional)
    assert strip_spans(e) == strip_spans(parse("a if c else (b if d else e)"))
    grouped = parse("(a if c else b) if d else e")
    assert isinstance(grouped, ast.Conditional) and isinstance(grouped.then, ast.Conditional)


def test_a_conditional_spans_from_its_first_value_to_its_last() -> None:
    e = parse("12 if c else total")
    assert (e.span.line, e.span.column, e.span.end_column) == (1, 1, 18)


def test_a_conditional_cost_needs_parentheses_its_if_is_the_condition() -> None:
    source = 'action buy "Buy" costs 2 gold if rich else 1 gold:\n    win\n'
    _, problems = parse_source(source, "x.rcl")
    assert [(p.code, p.span.line, p.span.column) for p in problems] == [("RC101", 1, 39)]
    fine = 'action buy "Buy" costs (2 if rich else 1) gold if ready:\n    win\n'
    _, problems = parse_source(fine, "x.rcl")
    assert problems == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("(a if c else b)", "a if c else b"),
        ("a if c else (b if d else e)", "a if c else b if d else e"),
        ("(a if c else b) if d else e", "(a if c else b) if d else e"),
        ("x + (1 if c else 2)", "x + (1 if c else 2)"),
        ("xs where (a if b else c)", "xs where (a if b else c)"),
        ("not (a if b else c)", "not (a if b else c)"),
        ("f(a if b else c)", "f(a if b else c)"),
        ("(xs where a) if b else c", "xs where a if b else c"),
    ],
)
def test_the_formatter_brackets_a_conditional_only_where_needed(source: str, expected: str) -> None:
    e = parse(source)
    assert format_expr(e) == expected
    assert strip_spans(parse(expected)) == strip_spans(e)


def test_the_formatter_keeps_brackets_around_a_conditional_cost_and_for_collection() -> None:
    source = (
        'action buy "Buy" for x in (a if b else c) costs (1 if d else 2) gold if e:\n'
        "    gain 1 gold if c else 2 water\n"
    )
    assert format_source(source, "x.rcl") == source


# ---------------------------------------------------------------------------- evaluation
def test_a_conditional_gives_the_value_its_condition_picks(tmp_path: Path) -> None:
    game = rulecraft.load(write(tmp_path, RULES)).new_game(seed=0)
    assert [game.evaluate_expr(f"sign({n})") for n in (-3, 0, 7)] == [-1, 0, 1]
    assert game.evaluate_expr("big([1, 2, 4, 5], 1)") == [1, 2, 4, 5]
    assert game.evaluate_expr("big([1, 2, 4, 5], 2)") == [4, 5]
    assert game.evaluate_expr('"yes" if 2 > 1 else "no"') == "yes"


def test_only_the_chosen_branch_is_evaluated(tmp_path: Path) -> None:
    """A definition that calls itself in the branch not taken ends (evaluating both
    branches would recurse without end), and RC225 does not call it endless."""
    assert [d for d in diagnostics(tmp_path, RULES) if d[0] == "RC225"] == []
    game = rulecraft.load(write(tmp_path, RULES)).new_game(seed=0)
    assert game.evaluate_expr("fact(6)") == 720
    assert game.evaluate_expr("never(1)") == 0


def test_the_generated_code_gives_what_the_closures_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = ["fact(5)", "sign(-2) * 10 + sign(0) + sign(4) * 3", "big([1, 5, 9], 2)", "never(3)"]
    built: list[str] = []
    real_build = codegen.build

    def counting_build(compiler: Any, plan: codegen.Plan) -> Any:
        built.append(plan.source)
        return real_build(compiler, plan)

    monkeypatch.setattr(codegen, "build", counting_build)
    game = rulecraft.load(write(tmp_path, RULES)).new_game(seed=0)
    generated = [game.evaluate_expr(t) for t in texts]
    assert any(" if " in source and " else " in source for source in built), built
    monkeypatch.setattr(codegen, "plan", lambda *args: None)
    assert [game.evaluate_expr(t) for t in texts] == generated == [120, -7, [5, 9], 0]


def test_an_amount_may_be_conditional_whole_or_in_its_number(tmp_path: Path) -> None:
    game = rulecraft.load(write(tmp_path, RULES)).new_game(seed=0)
    game.choose("act:act")
    # gold was 0: 2 gold, no water; then water was 0: 4 water; gold 2 > 1: happy
    assert game.evaluate_expr("you.gold", 0) == 2
    assert game.evaluate_expr("you.water", 0) == 4
    assert game.evaluate_expr("you.mood", 0) == "happy"


# ---------------------------------------------------------------------------- diagnostics
def test_branches_of_different_sorts_are_rc226_at_the_conditional(tmp_path: Path) -> None:
    rules = 'define bonus = 2 if true else "none"\n\naction act "Act":\n    say bonus\n'
    found = [d for d in diagnostics(tmp_path, rules) if d[0] == "RC226"]
    assert found == [
        (
            "RC226",
            1,
            16,
            "the two values of this conditional cannot agree: a number if the condition "
            "holds, else a text",
        )
    ]


@pytest.mark.parametrize(
    "value",
    [
        "2 if true else none",
        "you if true else opponent",
        "[1] if true else [2, 3]",
        "x if true else 1",
    ],
)
def test_branches_that_may_agree_are_not_reported(tmp_path: Path, value: str) -> None:
    rules = f'define x = 1\ndefine v = {value}\n\naction act "Act":\n    say v\n'
    assert [d for d in diagnostics(tmp_path, rules) if d[0] == "RC226"] == []


def test_a_typed_field_checks_each_branch_where_it_stands(tmp_path: Path) -> None:
    rules = 'action act "Act":\n    set you.mood to happy if true else "sad"\n'
    found = [d[:3] for d in diagnostics(tmp_path, rules) if d[0] in ("RC253", "RC226")]
    assert ("RC253", 2, 40) in found
    assert not any(d[0] == "RC253" and d[2] == 21 for d in found)  # happy is an enum value


# ---------------------------------------------------------------------------- a bundled ruleset
def test_knight_moves_moves_in_the_directions_of_its_conditional_define() -> None:
    """rulesets/knight_moves/scenarios/move_directions.yaml: the directions of a move are
    ``directions(kind)``, a conditional (ENGINE_GAPS.md 5, closed)."""
    from rulecraft.tools.scenario import Status, load_scenario, run_scenario

    path = (
        Path(__file__).resolve().parents[2]
        / "rulesets"
        / "knight_moves"
        / "scenarios"
        / "move_directions.yaml"
    )
    scenario, problems = load_scenario(path)
    assert problems == [] and scenario is not None
    outcome = run_scenario(rulecraft.load("knight_moves"), scenario)
    assert outcome.status == Status.PASSED, outcome.message
