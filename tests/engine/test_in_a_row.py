"""``in_a_row`` (runtime/map.py): the bit-mask test over a map's precomputed lines answers
what walking the lines out from each of the player's spaces answers, on square and hex maps
of bundled rulesets, for any pieces on any spaces and any length; and the rulebook cases."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulecraft
from rulecraft.runtime import map as spatial
from rulecraft.runtime.engine import Ctx
from rulecraft.runtime.program import Program

ROOT = Path(__file__).resolve().parents[2]
_PROGRAMS: dict[str, Program] = {}


def program(name: str) -> Program:
    if name not in _PROGRAMS:
        _PROGRAMS[name] = rulecraft.load(ROOT / "rulesets" / name).new_game(seed=0).program
    return _PROGRAMS[name]


def board(name: str, owners: list[int | None]) -> Ctx:
    """A state of ``name``'s map with a piece of ``owners[i]`` on its i-th space (none for
    ``None``; a space with two pieces, the second the other seat's, every third one)."""
    prog = program(name)
    assert prog.map is not None and not prog.map.tiles
    zones: dict[str, list[str]] = {}
    comps: dict[str, Any] = {}
    for i, ((key, _), owner) in enumerate(zip(prog.map.zone_keys, owners, strict=False)):
        if owner is None:
            continue
        pile = []
        if i % 3 == 0:
            comps[f"under#{i}"] = {"o": 1 - owner}
            pile.append(f"under#{i}")
        comps[f"piece#{i}"] = {"o": owner}
        pile.append(f"piece#{i}")
        zones[key] = pile
    return Ctx(prog, {"zones": zones, "comps": comps, "players": 2})  # type: ignore[typeddict-item]


def walking(ctx: Ctx, seat: int, n: int) -> bool:
    return spatial._in_a_row_walking(ctx, spatial.current_map(ctx), seat, n)


@pytest.mark.parametrize("name", ["connect4", "tictactoe", "waste_knights"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_masks_answer_what_walking_answers(name: str, data: st.DataObject) -> None:
    spaces = len(program(name).map.zone_keys)  # type: ignore[union-attr]
    owners = data.draw(
        st.lists(st.sampled_from([None, None, 0, 1]), min_size=spaces, max_size=spaces)
    )
    n = data.draw(st.integers(0, 7))
    ctx = board(name, owners)
    for seat in (0, 1):
        assert spatial.in_a_row(ctx, [f"@{seat}", n]) == walking(ctx, seat, n)


def test_connect_four_lines() -> None:
    # 7 x 6: 24 horizontal, 21 vertical and 2 x 12 diagonal lines of four
    mp = program("connect4").map
    assert mp is not None and len(spatial.lines_of(mp, 4)) == 24 + 21 + 12 + 12


def test_tic_tac_toe_rows() -> None:
    # "The first player to get 3 of her marks in a row (up, down, across, or diagonally)"
    xy = [xy for _, xy in program("tictactoe").map.zone_keys]  # type: ignore[union-attr]

    def owning(cells: set[tuple[int, int]]) -> Ctx:
        return board("tictactoe", [0 if c in cells else None for c in xy])

    x0, y0 = min(xy)
    diagonal = {(x0 + k, y0 + k) for k in range(3)}
    corner = {(x0, y0), (x0 + 2, y0), (x0, y0 + 2)}
    assert spatial.in_a_row(owning(diagonal), ["@0", 3])
    assert not spatial.in_a_row(owning(corner), ["@0", 3])
    assert not spatial.in_a_row(owning(diagonal), ["@1", 3])


def test_a_big_map_walks_instead() -> None:
    prog = program("connect4")
    assert prog.map is not None
    size = spatial.MAX_MASKED_SPACES + 1
    coords = {f"c{i}": (i, 0) for i in range(size)}
    wide = dataclasses.replace(
        prog.map,
        spaces=tuple(coords),
        coords=coords,
        by_coord={xy: k for k, xy in coords.items()},
        zone_keys=tuple((f"s:{k}", xy) for k, xy in coords.items()),
        lines={},
    )
    ctx = Ctx(
        dataclasses.replace(prog, map=wide),
        {  # type: ignore[typeddict-item]
            "zones": {f"s:c{i}": [f"p#{i}"] for i in range(100, 104)},
            "comps": {f"p#{i}": {"o": 0} for i in range(100, 104)},
        },
    )
    assert spatial.in_a_row(ctx, ["@0", 4]) and not spatial.in_a_row(ctx, ["@0", 5])
    assert wide.lines == {}  # no masks were made for it
