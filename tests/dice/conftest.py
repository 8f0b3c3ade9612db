"""Shared fixtures for the dice tests: the seed games' dice."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from rulecraft.dice import DiceSet

FIXTURES = Path(__file__).parent / "fixtures"


def load_fixture(game: str) -> DiceSet:
    data = YAML(typ="safe", pure=True).load((FIXTURES / game / "ruleset.yaml").read_text())
    return DiceSet.from_spec(data["dice"])


@pytest.fixture(scope="session")
def knights() -> DiceSet:
    return load_fixture("waste_knights")


@pytest.fixture(scope="session")
def express() -> DiceSet:
    return load_fixture("wasteland_express")


@pytest.fixture(scope="session")
def waylanders() -> DiceSet:
    return load_fixture("waylanders")
