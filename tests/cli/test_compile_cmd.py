"""`rulecraft compile`: the compiled form of a ruleset, rule by rule (issue 11: 'readable
(rulecraft compile RULESET --show NAME prints the generated code of one rule)')."""

from __future__ import annotations

import pytest

import rulecraft
from rulecraft.cli.main import main


def test_show_lists_a_rules_instructions_with_their_source_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["compile", "dig", "--show", "push"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("action.push  (")
    assert "roll              rules.rcl:5:5       roll 3 dig as r" in out
    assert "draw              rules.rcl:9:9       draw 1 from tools to you.kit" in out
    assert "   condition: none" in out
    assert "   label: closures" in out  # it interpolates chance(...): closures


def test_a_generated_expression_is_shown_as_python(capsys: pytest.CaptureFixture[str]) -> None:
    """Knight Moves' top action ranges over the display's unspent cards: a 'where' the code
    generator writes as one comprehension."""
    action = rulecraft.load("knight_moves").program.actions["use_top"]
    assert main(["compile", "knight_moves", "--show", "use_top"]) == 0
    out = capsys.readouterr().out
    source = getattr(action.for_collection, "__rulecraft_source__", None)
    assert source is not None
    shown = out.split(f"   for {action.for_var} in:\n", 1)[1].split("   condition:")[0]
    assert shown.splitlines() == [f"      {line}" for line in source.rstrip().splitlines()]
    assert " for _it0 in " in shown  # a comprehension, not a tree of closures


def test_a_kept_where_reads_what_is_remembered(capsys: pytest.CaptureFixture[str]) -> None:
    """Connect Four's open spaces, and the empty ones its tie counts, are read from what
    is kept up to date as discs drop, not listed space by space."""
    assert main(["compile", "connect4", "--show", "drop"]) == 0
    out = capsys.readouterr().out
    assert "   for space in:\n      def _generated(ctx):\n" in out
    assert "          return _kept_spaces(ctx, _k0)\n" in out
    assert "return (not (_kept_mask(ctx, _k0) != 0))" in out  # count(...) == 0: any bit


def test_a_kept_collection_shows_its_test_and_the_piles_it_watches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Connect Four's open spaces are kept up to date as discs drop (runtime/incremental.py):
    each space's test reads its own pile and the one below it."""
    assert main(["compile", "connect4", "--show", "drop"]) == 0
    out = capsys.readouterr().out
    kept = rulecraft.load("connect4").program.actions["drop"].kept
    assert kept is not None
    assert (
        "   kept up to date as pieces move: 42 spaces, tested again when one of 42 piles "
        "changes (at most 2 tests a pile)\n"
        f"      {kept.source}\n"
    ) in out


def test_the_summary_counts_every_routine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "tictactoe"]) == 0
    out = capsys.readouterr().out.splitlines()
    program = rulecraft.load("tictactoe").program
    assert len(out) == len(program.routines) + 1
    total = sum(len(r.code) for r in program.routines)
    assert out[-1] == f"{len(program.routines)} routines, {total} instructions"


def test_an_unknown_rule_lists_the_routines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "dig", "--show", "nope"]) == 1
    assert "no routine 'nope'; routines: " in capsys.readouterr().err
    assert main(["compile", "no_such_ruleset"]) == 2


def test_a_statements_generated_condition_is_shown_under_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Tic-Tac-Toe's 'elif count(spaces where empty(it)) == 0' (rules.rcl line 9) is
    generated code that asks whether any empty space is kept (the spaces its menu keeps
    up to date); the listing shows it under the instruction that tests it, and names the
    elif's own line."""
    assert main(["compile", "tictactoe", "--show", "place"]) == 0
    out = capsys.readouterr().out.splitlines()
    test = next(i for i, line in enumerate(out) if "jump_unless       rules.rcl:9:" in line)
    assert out[test].endswith("elif count(spaces where empty(it)) == 0:")
    shown = []
    for line in out[test + 1 :]:
        if not line.lstrip().startswith("|"):
            break
        shown.append(line.split("| ", 1)[1])
    assert shown[0] == "def _generated(ctx):"
    assert shown[-1].strip() == "return (not (_kept_mask(ctx, _k0) != 0))"
