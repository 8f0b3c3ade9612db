"""A clone is independent of its original, however long either plays on.

``clone_state`` copies each component's record but shares its counters, flags, fields and
seen list with the original: the engine replaces those containers, never changes them in
place (issue 11: "cheap clones").  The conformance suite plays one choice on a clone at
every decision; here clones taken along seeded random games of every bundled ruleset play
on for many decisions, the original is checked to be as it was, and the original then
plays on and the clone is checked in turn (a container changed in place by either side
would show in the other's state hash).
"""

from __future__ import annotations

import random

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names

#: Decisions between two clones, and how far each clone plays on.
EVERY = 4
AHEAD = 40


def _play(game: rulecraft.Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        pending = game.pending_ids()
        if pending is None:
            return
        game.choose(rng.choice(pending[1]))


@pytest.mark.parametrize("name", bundled_names())
def test_playing_on_a_clone_leaves_the_original_as_it_was(name: str) -> None:
    ruleset = rulecraft.load(name)
    for seed in range(2):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        step = 0
        kept: list[tuple[rulecraft.Game, str]] = []  # clones, while the original plays on
        while game.pending_ids() is not None and step < game.max_decisions:
            if step % EVERY == 0:
                before = game.state_hash()
                twin = game.clone()
                twin_before = twin.state_hash()
                _play(twin, random.Random(step), AHEAD)
                assert game.state_hash() == before, (name, seed, step)
                after = twin.state_hash()
                probe = game.clone()  # the original plays on: the clone must not move
                _play(probe, random.Random(step + 1), AHEAD)
                assert twin.state_hash() == after, (name, seed, step)
                assert twin_before == before
                kept.append((twin, after))
            game.choose(rng.choice(game.legal_ids()))
            step += 1
        for twin, after in kept:
            assert twin.state_hash() == after, (name, seed, "the original played on")


def test_a_clone_shares_the_components_containers_until_one_changes() -> None:
    """What makes a clone cheap: the containers are shared, and a change replaces the
    changed side's container instead of writing into the shared one."""
    game = rulecraft.load("radlands").new_game(seed=3)
    twin = game.clone()
    cid = next(iter(game.state["comps"]))
    mine, theirs = game.state["comps"][cid], twin.state["comps"][cid]
    assert mine is not theirs
    assert mine["c"] is theirs["c"] and mine["f"] is theirs["f"] and mine["p"] is theirs["p"]
