"""The grammar and the parser: conflict-free, located errors, recovery."""

from __future__ import annotations

from pathlib import Path

from rulecraft.language import ast
from rulecraft.language.parser import build_parser, parse_source


def test_the_grammar_has_no_conflicts_or_token_collisions() -> None:
    # strict mode turns shift/reduce conflicts and regex collisions into errors
    build_parser(strict=True)


def test_one_broken_item_costs_one_diagnostic_and_hides_nothing_else() -> None:
    text = (
        'card a "A":\n    cost: 1\n'
        'card b "B"\n    cost: 2\n'  # missing ':'
        'card c "C":\n    cost: 3\n'
        'card d "D":\n    cost: = 4\n'  # bad expression
        'card e "E":\n    cost: 5\n'
    )
    unit, problems = parse_source(text, "cards.rcl")
    assert [(p.code, p.span.line) for p in problems] == [("RC101", 3), ("RC101", 8)]
    assert [i.id for i in unit.items if isinstance(i, ast.Component)] == ["a", "c", "e"]


def test_an_unclosed_text_and_a_stray_character_are_named() -> None:
    _, problems = parse_source('card a "A:\n    cost: 1\n', "x.rcl")
    assert problems[0].code == "RC105" and problems[0].span.line == 1
    _, problems = parse_source('card a "A":\n    cost: 1 $\n', "x.rcl")
    assert problems[0].code == "RC102" and (problems[0].span.line, problems[0].span.column) == (
        2,
        13,
    )


def test_bad_indentation_is_located() -> None:
    text = 'card a "A":\n        cost: 1\n      power: 2\n'
    _, problems = parse_source(text, "x.rcl")
    assert problems and problems[0].code == "RC103" and problems[0].span.line == 3


def test_deep_nesting_is_a_diagnostic_not_a_crash(tmp_path: Path) -> None:
    from rulecraft.compile.pipeline import validate_paths

    (tmp_path / "ruleset.yaml").write_text(
        "rulecraft: 1\nname: deep\nplayers: {min: 1, max: 1}\n"
        "flow:\n  phases:\n    - name: p\n      do: say x\n",
        encoding="utf-8",
    )
    (tmp_path / "deep.rcl").write_text(
        "define x = " + "[" * 3000 + "1" + "]" * 3000 + "\n", encoding="utf-8"
    )
    problems = validate_paths([tmp_path])
    assert any(p.code == "RC104" for p in problems)
    assert all(p.span.line >= 1 for p in problems)


def test_statements_keep_their_keyword_position() -> None:
    unit, problems = parse_source("effect e:\n    gain 1 gold; win\n", "x.rcl")
    assert not problems
    body = unit.items[0].body  # type: ignore[attr-defined]
    assert [(s.verb, s.span.column) for s in body] == [("gain", 5), ("win", 18)]


def test_verbs_are_names_where_a_name_is_expected() -> None:
    # a zone may be called "discard" or "draw"
    unit, problems = parse_source("effect e:\n    move top(draw) to discard\n", "x.rcl")
    assert not problems
    move = unit.items[0].body[0]  # type: ignore[attr-defined]
    assert isinstance(move.target, ast.Name) and move.target.name == "discard"
