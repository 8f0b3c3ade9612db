"""Drawing a view: zones, hidden cards, maps of each kind, markup-safe names."""

from __future__ import annotations

from io import StringIO
from typing import Any

from repl.fakegame import FakeGame
from repl.helpers import console
from rulecraft.repl.mapdraw import draw_map
from rulecraft.repl.render import HIDDEN_LABEL, render_decision, render_view
from rulecraft.runtime.decision import Decision, Option


def render_map_text(board: dict[str, Any]) -> str:
    return "\n".join(draw_map(board).grid)


def _text(view: dict[str, Any]) -> str:
    c = console()
    render_view(c, view)
    assert isinstance(c.file, StringIO)
    return c.file.getvalue()


def _space(i: str, x: int, y: int, pieces: list[str] | None = None) -> dict[str, Any]:
    return {
        "id": i,
        "x": x,
        "y": y,
        "terrain": None,
        "pieces": [{"id": p, "name": p, "owner": 0} for p in pieces or []],
    }


def test_square_map_is_a_grid() -> None:
    board = {
        "kind": "square",
        "width": 3,
        "height": 2,
        "spaces": [
            _space(f"{x}{y}", x, y, ["K"] if (x, y) == (2, 1) else [])
            for x in range(3)
            for y in range(2)
        ],
    }
    # Columns and rows are labelled by the ids' shared parts ("0".."2" and "0".."1").
    assert render_map_text(board) == "   0  1  2\n 0 .  .  .\n 1 .  .  K1"


def test_hex_rows_shift_half_a_cell_each_so_axial_neighbours_touch() -> None:
    # Axial coordinates: (q, r) neighbours (q, r+1) down-right and (q-1, r+1) down-left.
    board = {
        "kind": "hex",
        "width": 2,
        "height": 3,
        "spaces": [_space(f"{x},{y}", x, y) for x in range(2) for y in range(3)],
    }
    assert render_map_text(board).splitlines() == [
        "   0 1",
        " 0 . .",
        " 1  . .",
        " 2   . .",
        "     0 1",
    ]


def test_graph_map_is_an_adjacency_list() -> None:
    board = {
        "kind": "graph",
        "spaces": [
            {"id": "gate", "terrain": "wall", "pieces": [], "adjacent": ["yard"]},
            {
                "id": "yard",
                "terrain": None,
                "pieces": [{"id": "t", "name": "T", "owner": None}],
                "adjacent": ["gate"],
            },
        ],
    }
    assert render_map_text(board) == "gate: . -> yard\nyard: T -> gate"


def test_view_shows_own_hand_and_only_placeholders_for_hidden_cards() -> None:
    game = FakeGame(seed=3, map_kind="hex")
    out = _text(game.view(0))
    for cid in game.hands[0]:
        assert game.catalog[cid].name in out
    for cid in game.hands[1] + game.decks[0] + game.decks[1]:
        assert game.catalog[cid].name not in out
    assert "Hand 2 (seat 2): 3 hidden cards" in out
    assert "Map (hex):" in out and "coins 0, score 0" in out and "target=8" in out


def test_a_mixed_zone_shows_hidden_rows() -> None:
    view = FakeGame(seed=3).view(0)
    view["zones"] = [
        {
            "key": "z",
            "name": "Mixed",
            "owner": None,
            "visibility": "public",
            "count": 2,
            "cards": [{"hidden": True}, FakeGame(seed=3)._card_json("c11")],
        }
    ]
    out = _text(view)
    assert HIDDEN_LABEL in out and "Ember 1" in out


def test_names_with_brackets_are_printed_not_read_as_markup() -> None:
    game = FakeGame(seed=3)
    view = game.view(0)
    view["players"][0]["name"] = "[bold]Ann[/bold]"
    out = _text(view)
    assert "[bold]Ann[/bold]" in out
    c = console()
    render_decision(c, Decision(0, "Pick [red]", (Option("x:[1]", "[b]one[/b]"),)))
    assert isinstance(c.file, StringIO)
    assert c.file.getvalue() == "Seat 1: Pick [red]\n   1. [b]one[/b]  [x:[1]]\n"


def test_result_is_drawn() -> None:
    view = FakeGame(seed=3).view(0)
    view["result"] = {"winners": [1], "draw": False, "reason": "target reached"}
    assert "Game over: winner(s) seat 2 (Player 2) (target reached)" in _text(view)
    view["result"] = {"winners": [0, 1], "draw": True, "reason": ""}
    assert "Game over: a draw" in _text(view)
