from __future__ import annotations

import pytest

import rulecraft
from rulecraft.tools.scenario import Outcome, Scenario, load_scenario, run_scenario


@pytest.fixture(scope="session")
def tictactoe() -> rulecraft.Ruleset:
    return rulecraft.load("tictactoe")


def scenario_from(text: str, file: str = "s.yaml") -> Scenario:
    scenario, problems = load_scenario(text, file)
    assert problems == [], [str(p) for p in problems]
    assert scenario is not None
    return scenario


def run_text(ruleset: rulecraft.Ruleset, text: str, file: str = "s.yaml") -> Outcome:
    return run_scenario(ruleset, scenario_from(text, file))
