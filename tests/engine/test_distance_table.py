"""``distance`` reads a table of the map, made once per space it is asked about, instead
of working every distance out again (a breadth-first walk on square and graph maps, the
space's lookups on hex grids): The Waylanders' menus ask it tens of times a decision.
The table must give what working it out gives: for every pair of spaces of every bundled
map, for pieces standing on spaces, for each placement of map tiles, and -1 where no
links lead."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_map_tiles import MANIFEST, make, seed_with

import rulecraft
from rulecraft.runtime import ids
from rulecraft.runtime import map as spatial

MAPPED = ["connect4", "knight_moves", "waste_knights", "waylanders"]


def afresh(game: rulecraft.Game, a: str, b: str) -> int:
    """The distance between two spaces' piles worked out, as before the table."""
    mp = spatial.current_map(game._ctx())
    return spatial._distance_afresh(mp, ids.space_name(a), ids.space_name(b))


def pile_keys(game: rulecraft.Game) -> list[str]:
    return [ids.space_id(s) for s in spatial.current_map(game._ctx()).spaces]


@pytest.mark.parametrize("name", MAPPED)
def test_every_pair_of_spaces_is_as_far_as_working_it_out_says(name: str) -> None:
    game = rulecraft.load(name).new_game(seed=0)
    ctx = game._ctx()
    keys = pile_keys(game)
    for _ in range(2):  # the first pass fills the table, the second reads it
        for a in keys:
            for b in keys:
                assert spatial.distance(ctx, [a, b]) == afresh(game, a, b), (name, a, b)
    assert spatial.current_map(ctx).distances  # the table was made


@pytest.mark.parametrize("name", ["connect4", "waylanders"])
def test_a_piece_is_as_far_as_the_space_it_stands_on(name: str) -> None:
    game = rulecraft.load(name).new_game(seed=1)
    rng = random.Random(1)
    for _ in range(12):
        game.choose(rng.choice(game.legal_ids()))
    ctx = game._ctx()
    keys = pile_keys(game)
    pieces = [(cid, c["z"]) for cid, c in game.state["comps"].items() if c["z"] in keys]
    assert pieces, "no piece on the map"
    for cid, where in pieces[:6]:
        for b in keys:
            assert spatial.distance(ctx, [cid, b]) == afresh(game, where, b)
            assert spatial.distance(ctx, [b, cid]) == afresh(game, b, where)
        assert spatial.distance(ctx, [cid, None]) == -1


def test_each_placement_of_tiles_has_its_own_distances(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    found = set()
    for west in ("moor", "pass"):
        game = ruleset.new_game(seed=seed_with(ruleset, west))
        ctx = game._ctx()
        keys = pile_keys(game)
        for a in keys:
            for b in keys:
                assert spatial.distance(ctx, [a, b]) == afresh(game, a, b)
        found.add(spatial.distance(ctx, [ids.space_id("inn"), ids.space_id("moor_a")]))
    # the moor's space a is next to the inn with the moor in the east slot, two steps
    # away with it in the west one: one table for both placements would give one answer
    assert found == {1, 2}


def test_a_space_no_link_leads_to_is_minus_one_away(tmp_path: Path) -> None:
    lonely = MANIFEST.replace(
        "    - {id: inn, x: 2, y: 0, adjacent: [west.e, east.w]}",
        "    - {id: inn, x: 2, y: 0, adjacent: [west.e, east.w]}\n    - {id: far, x: 9, y: 9}",
    )
    game = make(tmp_path, lonely).new_game(seed=0)
    ctx = game._ctx()
    far, inn = ids.space_id("far"), ids.space_id("inn")
    assert spatial.distance(ctx, [inn, far]) == spatial.distance(ctx, [far, inn]) == -1
    assert spatial.distance(ctx, [far, far]) == 0
    assert spatial.distance(ctx, [inn, inn]) == 0
