"""docs/scenarios.md stays true: its example runs, every step kind and code is documented;
the module's doctests pass."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import rulecraft
from rulecraft.tools import scenario as scenario_module
from rulecraft.tools.scenario import CHECK_STEPS, SCRIPT_STEPS, load_scenario, run_scenario

DOC = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")


def test_the_documented_examples_pass(tictactoe: rulecraft.Ruleset) -> None:
    examples = re.findall(r"```yaml\n(.*?)```", DOC, re.S)
    assert len(examples) == 2  # the first scenario, and the one with a `setup:`
    for example in examples:
        scenario, problems = load_scenario(example, "example.yaml")
        assert problems == [] and scenario is not None
        outcome = run_scenario(tictactoe, scenario)
        assert outcome.passed, outcome.message


def test_every_step_kind_and_code_is_documented() -> None:
    for kind in {*SCRIPT_STEPS, *CHECK_STEPS}:
        assert f"`{kind}: " in DOC or f"| `{kind}" in DOC, kind
    codes = {v for k, v in vars(scenario_module).items() if k.isupper() and isinstance(v, str)}
    for code in (c for c in codes if re.fullmatch(r"RCT\d\d", c)):
        assert f"| `{code}` |" in DOC, code


def test_module_doctests() -> None:
    failures, tried = doctest.testmod(scenario_module)
    assert tried >= 5 and failures == 0


def test_arrange_module_doctests() -> None:
    from rulecraft.runtime import arrange

    failures, tried = doctest.testmod(arrange)
    assert tried >= 3 and failures == 0
