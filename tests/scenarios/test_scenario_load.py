"""Loading scenario files: the schema, the one-thing-per-line rule, located problems."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecraft
from rulecraft.language.schema_check import check_schema_itself
from rulecraft.tools.scenario import SCENARIO_SCHEMA, Status, load_scenario, run_scenario

from .conftest import scenario_from

HEAD = "name: n\ncites: c\n"


def problems_of(text: str) -> list[str]:
    scenario, problems = load_scenario(text, "s.yaml")
    assert scenario is None
    assert problems
    return [str(p) for p in problems]


def test_the_schema_itself_is_valid_and_has_no_misspelled_keywords() -> None:
    assert check_schema_itself(SCENARIO_SCHEMA) == []


def test_a_full_scenario_loads_with_positions_and_seats_from_one() -> None:
    s = scenario_from(
        HEAD + "start: {players: 2, seed: 4, lang: de}\n"
        'script:\n  - choose: act:place:a1\n  - {expect: "1 == 1", as: 2}\n'
        "after:\n  - expect_result: {draw: true}\n"
    )
    assert (s.name, s.cites) == ("n", "c")
    assert (s.start.players, s.start.seed, s.start.lang, s.start.save) == (2, 4, "de", None)
    assert [(st.kind, st.span.line, st.number) for st in s.script] == [
        ("choose", 5, 1),
        ("expect", 6, 2),
    ]
    assert s.script[1].seat == 1  # `as: 2` is the second seat, 0-based inside
    assert s.after[0].section == "after" and s.after[0].value == {"draw": True}


def test_a_save_is_found_next_to_the_scenario_file() -> None:
    s = scenario_from(HEAD + "start: {save: saves/x.json}\nscript: []\n", "rs/scenarios/a.yaml")
    assert s.start.save == Path("rs/scenarios/saves/x.json")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cites: c\nscript: []\n", "s.yaml:1:1: error RC011: missing required key `name`"),
        ("name: n\nscript: []\n", "missing required key `cites`"),
        (HEAD + "script:\n  - chose: a1\n", "s.yaml:4:5: error RC010: unknown key `chose`"),
        (HEAD + "script:\n  - expect: 3\n", "s.yaml:4:13: error RC012"),
        (HEAD + "script:\n  - {expect: x, as: 0}\n", "s.yaml:4:21: error RC014"),
        (HEAD + "script: []\nafter:\n  - choose: a1\n", "s.yaml:5:5: error RC010"),
        (HEAD + "script:\n  - expect_result: {draw: true}\n", "s.yaml:4:5: error RC010"),
        (HEAD + "script: []\nafter:\n  - expect_result: {}\n", "s.yaml:5:20: error RC014"),
        (HEAD + "start: {players: 2, sed: 1}\nscript: []\n", "did you mean `seed`"),
        (HEAD + "script: [\n", "s.yaml:4:1: error RC001"),
    ],
)
def test_schema_and_yaml_problems_are_located(text: str, expected: str) -> None:
    assert any(expected in p for p in problems_of(text)), problems_of(text)


def test_a_line_does_exactly_one_thing() -> None:
    (problem,) = problems_of(HEAD + 'script:\n  - {choose: a1, expect: "1 == 1"}\n')
    assert problem.startswith("s.yaml:4:5: error RCT01:")
    assert "`choose`, `expect`" in problem


def test_as_is_only_for_expect_and_expect_log() -> None:
    (problem,) = problems_of(HEAD + "script:\n  - {choose: a1, as: 2}\n")
    assert problem.startswith("s.yaml:4:18: error RCT01:")


def test_stop_must_be_the_last_script_line() -> None:
    (problem,) = problems_of(HEAD + "script:\n  - stop: here\n  - choose: a1\n")
    assert problem.startswith("s.yaml:4:11: error RCT02:")


def test_a_save_start_takes_nothing_else() -> None:
    (problem,) = problems_of(HEAD + "start: {save: a.json, seed: 2}\nscript: []\n")
    assert problem.startswith("s.yaml:3:1: error RCT03:") and "`seed`" in problem


def test_every_bundled_tictactoe_scenario_loads() -> None:
    folder = Path(__file__).resolve().parents[2] / "rulesets" / "tictactoe" / "scenarios"
    files = sorted(folder.glob("*.yaml"))
    assert len(files) >= 4
    for path in files:
        scenario, problems = load_scenario(path)
        assert problems == [] and scenario is not None, path


def test_a_save_that_does_not_exist_is_an_error_not_a_failure(tictactoe: rulecraft.Ruleset) -> None:
    s = scenario_from(HEAD + "start: {save: nothere.json}\nscript: []\n", "/nonexistent/a.yaml")
    outcome = run_scenario(tictactoe, s)
    assert outcome.status == Status.ERROR
    assert "cannot read the save" in outcome.message
    assert outcome.diagnostics[0].code == "RCT03"
    assert (outcome.diagnostics[0].span.line, outcome.diagnostics[0].span.column) == (3, 15)


def test_a_player_count_the_ruleset_refuses_is_an_error(tictactoe: rulecraft.Ruleset) -> None:
    s = scenario_from(HEAD + "start: {players: 5}\nscript: []\n")
    outcome = run_scenario(tictactoe, s)
    assert outcome.status == Status.ERROR
    assert "not 5" in outcome.message
