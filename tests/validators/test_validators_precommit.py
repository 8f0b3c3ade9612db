"""The published pre-commit hooks: well-formed, patterns right, commands real."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from rulecraft.cli.main import build_parser

HOOKS_FILE = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


@pytest.fixture(scope="module")
def hooks() -> dict[str, dict[str, Any]]:
    loaded = YAML(typ="safe").load(HOOKS_FILE.read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in loaded}


def test_hook_ids_and_required_fields(hooks: dict[str, dict[str, Any]]) -> None:
    assert set(hooks) == {"rulecraft-validate", "rulecraft-fmt"}
    for hook in hooks.values():
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert hook["language"] == "python"


@pytest.mark.parametrize(
    ("path", "validate", "fmt"),
    [
        ("rulesets/skirmish/cards.rcl", True, True),
        ("rulesets/skirmish/ruleset.yaml", True, False),
        ("ruleset.yaml", True, False),
        ("rulesets/skirmish/myruleset.yaml", False, False),
        ("rulesets/skirmish/cards.rcl.bak", False, False),
        ("README.md", False, False),
    ],
)
def test_file_patterns(
    hooks: dict[str, dict[str, Any]], path: str, validate: bool, fmt: bool
) -> None:
    assert bool(re.search(hooks["rulecraft-validate"]["files"], path)) is validate
    assert bool(re.search(hooks["rulecraft-fmt"]["files"], path)) is fmt


def test_validate_hook_checks_whole_rulesets(hooks: dict[str, dict[str, Any]]) -> None:
    hook = hooks["rulecraft-validate"]
    assert hook["pass_filenames"] is False
    argv = hook["entry"].split()[1:] + hook["args"]
    args = build_parser().parse_args(argv)
    assert args.command == "validate" and args.paths == ["rulesets"]


def test_fmt_hook_runs_the_fmt_command(hooks: dict[str, dict[str, Any]]) -> None:
    program, command, *options = hooks["rulecraft-fmt"]["entry"].split()
    assert (program, command, options) == ("rulecraft", "fmt", ["--check"])
    assert hooks["rulecraft-fmt"].get("pass_filenames", True) is True
