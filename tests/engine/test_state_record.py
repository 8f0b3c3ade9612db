"""The state's record type says what the state holds (issue 11: "TypedDicts for the state
(still plain JSON)"): ``runtime.state.State`` is checked by mypy --strict wherever the engine
reads the state; these tests keep it true to the states the engine really makes and to the
schema a loaded save is checked against."""

from __future__ import annotations

import random

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.runtime.state import STATE_SCHEMA, ComponentState, State


def test_the_record_and_the_save_schema_require_the_same_keys() -> None:
    assert State.__required_keys__ == frozenset(STATE_SCHEMA["required"])
    component = STATE_SCHEMA["properties"]["comps"]["additionalProperties"]
    assert ComponentState.__required_keys__ == frozenset(component["required"])


@pytest.mark.parametrize("name", bundled_names())
def test_every_state_the_engine_makes_has_the_records_keys_and_no_other(name: str) -> None:
    ruleset = rulecraft.load(name)
    game = ruleset.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        st = game.state
        assert State.__required_keys__ <= st.keys(), name
        assert st.keys() <= State.__required_keys__ | State.__optional_keys__, name
        every_key = ComponentState.__required_keys__ | ComponentState.__optional_keys__
        for comp in st["comps"].values():
            assert ComponentState.__required_keys__ <= comp.keys() <= every_key
        if game.result is not None:
            break
        game.choose(rng.choice(game.legal_ids()))
