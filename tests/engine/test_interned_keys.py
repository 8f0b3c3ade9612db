"""Interned zone and card keys (issue 11, "interned zone and card keys").

The keys of a state's piles and components are made by :mod:`rulecraft.runtime.ids`, and
it interns them (``sys.intern``): the key a rule's compiled code holds as a constant
(``s:b2``, ``z:hand@0``) and the key in the state are then one object, and a dictionary
finds it by identity instead of comparing the characters.  Moves never make a key again,
so a game played on keeps them interned.
"""

from __future__ import annotations

import random
import sys

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.runtime import ids
from rulecraft.runtime.state import State


def _not_interned(st: State) -> list[str]:
    """The pile keys, component ids and component places of ``st`` that are not the
    interned string of their text."""
    keys: list[str] = [*st["zones"], *st["comps"]]
    keys += [cid for pile in st["zones"].values() for cid in pile]
    keys += [comp["z"] for comp in st["comps"].values()]
    return [key for key in keys if sys.intern(key) is not key]


@pytest.mark.parametrize("name", bundled_names())
def test_a_games_keys_are_interned_from_the_start_and_stay_so(name: str) -> None:
    game = rulecraft.load(name).new_game(seed=3)
    assert _not_interned(game.state) == []
    rng = random.Random(3)
    for _ in range(40):
        if game.result is not None:
            break
        game.choose(rng.choice(game.legal_ids()))
        assert _not_interned(game.state) == []


def test_the_id_makers_give_interned_keys() -> None:
    made = [
        ids.zone_key("hand", 1),
        ids.zone_key("pile"),
        ids.space_id("b2"),
        ids.def_id("goblin"),
        ids.component_id("goblin", 12),
    ]
    # built from pieces at run time, so not constants Python interned by itself
    assert [sys.intern("".join(list(key))) is key for key in made] == [True] * len(made)


def test_a_kept_space_of_the_compiled_rules_is_the_states_own_key() -> None:
    """Tic-Tac-Toe's ``spaces where empty(it)`` is kept by the compiler as a tuple of space
    keys; each is the very object that keys the state's pile of that space."""
    game = rulecraft.load("tictactoe").new_game(seed=0)
    kept = game.program.actions["place"].kept
    assert kept is not None
    zones = game.state["zones"]
    state_keys = {key: key for key in zones}
    assert all(state_keys[space] is space for space in kept.spaces)


@pytest.mark.parametrize("name", bundled_names())
def test_a_piles_zone_is_what_its_key_says_asked_once_or_again(name: str) -> None:
    """``engine.pile_zone`` (what a move asks of the piles it leaves and enters) keeps each
    key's answer in the program: the zone its key names, or none for a space, asked the
    first time and again."""
    from rulecraft.runtime import engine as E

    game = rulecraft.load(name).new_game(seed=5)
    prog = game.program
    for _ in range(2):
        for key in game.state["zones"]:
            expected = prog.zones.get(ids.zone_name(key)) if ids.is_zone(key) else None
            assert E.pile_zone(prog, key) is expected, key
    assert set(game.state["zones"]) <= set(prog.pile_zones)
