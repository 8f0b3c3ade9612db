"""did_you_mean: close names only, case- and separator-insensitive."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.suggest import did_you_mean

NAMES = ["cost", "name", "max_players", "min_players", "description", "setup"]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("cots", "cost"),
        ("Name", "name"),
        ("NAME", "name"),
        ("maxPlayers", "max_players"),
        ("max-players", "max_players"),
        ("min_playrs", "min_players"),
        ("descripton", "description"),
        ("stup", "setup"),
        ("zzz", None),
        ("x", None),
        ("players", None),  # equally far from max_ and min_players: no confident guess
    ],
)
def test_suggestions(typed: str, expected: str | None) -> None:
    assert did_you_mean(typed, NAMES) == expected


def test_never_suggests_the_name_itself_or_from_nothing() -> None:
    assert did_you_mean("cost", ["cost"]) is None
    assert did_you_mean("cost", []) is None


def test_cutoff_is_adjustable() -> None:
    assert did_you_mean("cst", ["cost"], cutoff=0.95) is None
    assert did_you_mean("cst", ["cost"]) == "cost"


@given(st.text(max_size=12), st.lists(st.text(max_size=12), max_size=8))
def test_answer_is_a_candidate(name: str, candidates: list[str]) -> None:
    answer = did_you_mean(name, candidates)
    assert answer is None or (answer in candidates and answer != name)
