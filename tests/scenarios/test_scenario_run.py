"""Playing scenarios strictly: every way a scenario fails, located at its YAML line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime.decision import Decision, Option, Result
from rulecraft.tools.scenario import Status, play, run_scenario

from .conftest import run_text, scenario_from

HEAD = "name: n\ncites: c\nstart: {players: 2, seed: 1}\n"
# Player 1 takes the left column: a1, a2, a3 (Player 2 plays b1, b2).
P1_WINS = "".join(f"  - choose: act:place:{c}\n" for c in ("a1", "b1", "a2", "b2", "a3"))


def test_a_complete_scenario_passes_and_counts_its_steps(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(
        tictactoe,
        HEAD + "script:\n" + P1_WINS + "after:\n  - expect_result: {winners: [1]}\n",
    )
    assert outcome.passed, outcome.message
    assert outcome.steps_run == 6


def test_an_unanswered_decision_fails_at_the_last_line(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(tictactoe, HEAD + "script:\n  - choose: act:place:a1\n")
    assert outcome.status == Status.FAILED
    assert outcome.span is not None and outcome.span.line == 5
    assert "the script ran out while the game still asks Player 2" in outcome.message
    assert "act:place:b1" in outcome.message and "act:place:a1 " not in outcome.message


def test_an_empty_script_fails_when_the_game_asks(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(tictactoe, HEAD + "script: []\n")
    assert outcome.status == Status.FAILED and "ran out" in outcome.message


def test_stop_ends_a_script_on_purpose(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(
        tictactoe,
        HEAD + "script:\n  - choose: act:place:a1\n  - stop: opening only\n"
        'after:\n  - expect: "count(spaces where empty(it)) == 8"\n',
    )
    assert outcome.passed, outcome.message


def test_stop_after_the_game_ended_fails(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(tictactoe, HEAD + "script:\n" + P1_WINS + "  - stop: too late\n")
    assert outcome.status == Status.FAILED and outcome.span is not None
    assert outcome.span.line == 10 and "the game is over" in outcome.message


def test_an_illegal_choice_fails_and_lists_the_legal_ones(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(
        tictactoe, HEAD + "script:\n  - choose: act:place:a1\n  - choose: act:place:a1\n"
    )
    assert outcome.status == Status.FAILED
    assert outcome.span is not None and (outcome.span.line, outcome.span.column) == (6, 13)
    assert outcome.step == "script step 2 (choose: act:place:a1)"
    assert "'act:place:a1' is not a legal option for Player 2" in outcome.message
    assert "legal: act:place:b1 (Place a mark: b1)" in outcome.message
    assert outcome.steps_run == 1


def test_a_choice_may_name_an_option_by_its_exact_label(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(
        tictactoe,
        HEAD + 'script:\n  - choose: "Place a mark: b2"\n'
        '  - expect: "count(spaces where empty(it)) == 8"\n  - stop: ""\n',
    )
    assert outcome.passed, outcome.message
    partial = run_text(tictactoe, HEAD + 'script:\n  - choose: "Place a mark"\n')
    assert "not a legal option" in partial.message  # labels match exactly, not by prefix


def test_a_false_expectation_shows_the_expression_and_both_sides(
    tictactoe: rulecraft.Ruleset,
) -> None:
    outcome = run_text(
        tictactoe,
        HEAD
        + 'script:\n  - choose: act:place:a1\n  - expect: "count(spaces where empty(it)) == 7"\n',
    )
    assert outcome.status == Status.FAILED
    assert outcome.span is not None and outcome.span.line == 6
    assert "`count(spaces where empty(it)) == 7` to be true, but it is false" in outcome.message
    assert "`count(spaces where empty(it))` is 8, `7` is 7" in outcome.message


def test_a_false_expectation_without_sides_shows_its_value(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(tictactoe, HEAD + 'script:\n  - expect: "in_a_row(you, 3)"\n')
    assert outcome.status == Status.FAILED
    assert "`in_a_row(you, 3)` to be true, but it is false (as Player 1)" in outcome.message


def test_an_expectation_that_is_not_a_condition_fails(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(tictactoe, HEAD + 'script:\n  - expect: "count(spaces)"\n')
    assert outcome.status == Status.FAILED
    assert outcome.message == "`count(spaces)` gave 9, not true or false"


def test_an_expression_that_does_not_compile_fails_with_the_reason(
    tictactoe: rulecraft.Ruleset,
) -> None:
    outcome = run_text(tictactoe, HEAD + 'script:\n  - expect: "fnord(spaces) == 1"\n')
    assert outcome.status == Status.FAILED
    assert "cannot evaluate `fnord(spaces) == 1`: at column 1:" in outcome.message
    assert "fnord" in outcome.message


def test_as_reads_an_expression_from_another_seat(tictactoe: rulecraft.Ruleset) -> None:
    script = 'script:\n  - choose: act:place:a1\n  - {expect: "count(you.supply) == 4", as: %d}\n'
    script += '  - stop: ""\n'
    assert run_text(tictactoe, HEAD + script % 1).passed
    failed = run_text(tictactoe, HEAD + script % 2)
    assert "`count(you.supply)` is 5" in failed.message and "(as Player 2)" in failed.message
    beyond = run_text(tictactoe, HEAD + script % 3)
    assert "this game has seats 1 to 2" in beyond.message


def test_a_line_left_unused_because_the_game_ended_fails(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(
        tictactoe,
        HEAD + "script:\n" + P1_WINS + '  - expect_log: "Player 1 wins"\n'
        "  - choose: act:place:c3\n",
    )
    assert outcome.status == Status.FAILED
    assert outcome.span is not None and outcome.span.line == 11
    assert "the game is already over (won by Player 1" in outcome.message
    assert "never used" in outcome.message
    assert outcome.steps_run == 6  # the log check after the end still ran


def test_expect_decision_checks_seat_prompt_and_options(tictactoe: rulecraft.Ruleset) -> None:
    def outcome_of(check: str) -> str:
        text = HEAD + f"script:\n  - expect_decision: {check}\n  - stop: ''\n"
        return run_text(tictactoe, text).message

    assert outcome_of("{seat: 1, prompt: Place a mark, options_include: [act:place:c3]}") == ""
    assert "expected Player 2 to decide, but Player 1 decides" in outcome_of("{seat: 2}")
    assert "expected the prompt 'Place', but it is 'Place a mark'" in outcome_of("{prompt: Place}")
    missing = outcome_of("{options_include: [act:place:d4, 'Place a mark: a1']}")
    assert "to include act:place:d4;" in missing
    assert "expected no option act:place:b2" in outcome_of("{options_exclude: [act:place:b2]}")


def test_expect_log_looks_for_a_substring_of_the_log_so_far(tictactoe: rulecraft.Ruleset) -> None:
    ok = run_text(tictactoe, HEAD + "script:\n" + P1_WINS + '  - expect_log: "1 wins"\n')
    assert ok.passed, ok.message
    early = run_text(tictactoe, HEAD + 'script:\n  - expect_log: "wins"\n  - stop: ""\n')
    assert early.status == Status.FAILED
    assert "'wins' is not in the log; its last lines: Player 1 starts." in early.message


def test_expect_result_checks_winners_draw_and_reason(tictactoe: rulecraft.Ruleset) -> None:
    def message(after: str) -> str:
        return run_text(tictactoe, HEAD + "script:\n" + P1_WINS + f"after:\n  - {after}\n").message

    assert message("expect_result: {winners: [1], draw: false, reason: wins}") == ""
    assert "expected winners Player 2, but: won by Player 1" in message(
        "expect_result: {winners: [2]}"
    )
    assert "expected a draw" in message("expect_result: {draw: true}")
    assert "expected the reason to contain 'tie'" in message("expect_result: {reason: tie}")


def test_expect_result_fails_while_the_game_goes_on(tictactoe: rulecraft.Ruleset) -> None:
    outcome = run_text(
        tictactoe,
        HEAD + "script:\n  - stop: ''\nafter:\n  - expect_result: {winners: [1]}\n",
    )
    assert outcome.status == Status.FAILED
    assert outcome.step.startswith("after step 1 (expect_result")
    assert "expected the game to be over, but it goes on: Player 1 is asked" in outcome.message


def test_a_scenario_can_start_from_a_save(tictactoe: rulecraft.Ruleset, tmp_path: Path) -> None:
    game = tictactoe.new_game(players=2, seed=1)
    for cell in ("a1", "b1", "a2", "b2"):
        game.choose(f"act:place:{cell}")
    (tmp_path / "saves").mkdir()
    game.save(tmp_path / "saves" / "x.json")
    text = (
        "name: n\ncites: c\nstart: {save: saves/x.json}\n"
        "script:\n  - expect_decision: {seat: 1}\n  - choose: act:place:a3\n"
        "after:\n  - expect_result: {winners: [1]}\n  - expect_log: 'Mark -> a1'\n"
    )
    outcome = run_scenario(tictactoe, scenario_from(text, str(tmp_path / "s.yaml")))
    assert outcome.passed, outcome.message


# ---------------------------------------------------------------------------- fake games
class FakeGame:
    """A game whose one decision has two options with the same label; choosing breaks."""

    num_players = 2
    result: Result | None = None
    log: list[str] = []  # noqa: RUF012 - read only

    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.decision: Decision | None = Decision(
            0, "Pick", (Option("x:1", "Same"), Option("x:2", "Same"), Option("x:3", "Other"))
        )

    def choose(self, option_id: str) -> None:
        if self.error is not None:
            raise self.error
        self.decision = None
        self.result = Result((0,), False, "picked " + option_id)

    def log_for(self, seat: int) -> list[str]:
        return [f"secret for {seat}"]

    def evaluate_expr(self, text: str, seat: int | None = None) -> Any:
        return True

    def view(self, seat: int) -> dict[str, Any]:
        return {"seat": seat}

    def arrange(self, setup: Any = None, **parts: Any) -> None:
        raise ValueError("setup: this fake cannot arrange")


def test_a_label_shared_by_several_options_must_be_chosen_by_id() -> None:
    scenario = scenario_from("name: n\ncites: c\nscript:\n  - choose: Same\n")
    outcome = play(FakeGame(), scenario)
    assert outcome.status == Status.FAILED
    assert outcome.message == "'Same' is the label of several options (x:1, x:2): choose by id"
    assert play(FakeGame(), scenario_from("name: n\ncites: c\nscript:\n  - choose: Other\n")).passed


@pytest.mark.parametrize("error", [RuntimeError("rules broke"), KeyError("zone")])
def test_an_engine_error_fails_the_step_without_a_traceback(error: Exception) -> None:
    scenario = scenario_from("name: n\ncites: c\nscript:\n  - choose: x:3\n")
    outcome = play(FakeGame(error), scenario)
    assert outcome.status == Status.FAILED
    assert outcome.message.startswith(f"the engine raised {type(error).__name__}:")
    assert outcome.span is not None and outcome.span.line == 4


def test_expect_log_as_a_seat_reads_that_seats_log() -> None:
    text = "name: n\ncites: c\nscript:\n  - {expect_log: secret for 1, as: 2}\n  - stop: ''\n"
    assert play(FakeGame(), scenario_from(text)).passed
    text = text.replace("as: 2", "as: 1")
    failed = play(FakeGame(), scenario_from(text))
    assert "not in Player 1's log" in failed.message
