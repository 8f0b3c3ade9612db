"""Connect Four (``rulesets/connect4``) through the public API: ``rulecraft.load``, real
option ids and ``game.choose``.  A small independent Connect Four in this file is the
reference the engine's legal moves and results are checked against."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulecraft
from rulecraft.runtime.engine import IllegalChoice
from rulecraft.runtime.game import Game, Ruleset

WIDTH, HEIGHT = 7, 6
COLUMNS = "abcdefg"

# A full board with no four in a row (found by a random search, replayed in the engine).
TIE_COLUMNS = "edgabeffbbfabgabffbaegdcggaegfcaececccdddd"


@cache
def ruleset() -> Ruleset:
    return rulecraft.load("connect4")


def new_game(lang: str | None = None) -> Game:
    return ruleset().new_game(seed=0, lang=lang)


def drop_id(game: Game, column: str) -> str:
    """The real option id for a drop into ``column`` (the only legal one in that column)."""
    ids = [i for i in game.legal_ids() if i.startswith(f"act:drop:{column}")]
    assert len(ids) == 1, (column, game.legal_ids())
    return ids[0]


def play(game: Game, columns: str) -> None:
    for column in columns:
        assert game.result is None, f"the game ended before the drop into {column}"
        game.choose(drop_id(game, column))


class Reference:
    """A plain Connect Four: ``heights[c]`` discs in column c, ``cells[(x, y)]`` = seat,
    y = 5 is the bottom row (the ruleset's convention, so space ``a6`` is x=0, y=5)."""

    def __init__(self) -> None:
        self.heights = [0] * WIDTH
        self.cells: dict[tuple[int, int], int] = {}
        self.to_move = 0
        self.winner: int | None = None
        self.full = False

    def legal_ids(self) -> set[str]:
        return {
            f"act:drop:{COLUMNS[c]}{HEIGHT - h}"
            for c, h in enumerate(self.heights)
            if h < HEIGHT and self.winner is None
        }

    def drop(self, column: int) -> None:
        y = HEIGHT - 1 - self.heights[column]
        self.heights[column] += 1
        self.cells[(column, y)] = self.to_move
        if self._four(column, y):
            self.winner = self.to_move
        self.full = sum(self.heights) == WIDTH * HEIGHT
        self.to_move = 1 - self.to_move

    def _four(self, x: int, y: int) -> bool:
        seat = self.cells[(x, y)]
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                k = 1
                while self.cells.get((x + sign * k * dx, y + sign * k * dy)) == seat:
                    run += 1
                    k += 1
            if run >= 4:
                return True
        return False


def test_start_offers_the_bottom_row_to_the_first_seat_with_21_discs_each() -> None:
    game = new_game()
    assert game.decision is not None and game.decision.seat == 0
    assert game.legal_ids() == [f"act:drop:{c}6" for c in COLUMNS]
    assert game.evaluate_expr("count(you.supply)", 0) == 21
    assert game.evaluate_expr("count(you.supply)", 1) == 21
    assert game.evaluate_expr("count(spaces)") == 42


def test_discs_stack_and_a_full_column_closes() -> None:
    game = new_game()
    game.choose("act:drop:c6")
    assert "act:drop:c5" in game.legal_ids() and "act:drop:c6" not in game.legal_ids()
    assert game.decision is not None and game.decision.seat == 1
    game.choose("act:drop:c5")
    assert "act:drop:c4" in game.legal_ids()
    play(game, "cccc")  # rows 4..1: the column is now full, alternating seats
    assert game.result is None
    assert not any(i.startswith("act:drop:c") for i in game.legal_ids())
    assert len(game.legal_ids()) == 6
    owners = [game.evaluate_expr(f"owner(first(space_at(2, {y}).pieces))") for y in range(6)]
    assert owners == [game.evaluate_expr(f"players[{i % 2}]") for i in (1, 0, 1, 0, 1, 0)]
    with pytest.raises(IllegalChoice):
        game.choose("act:drop:c6")


def test_a_disc_cannot_float() -> None:
    game = new_game()
    with pytest.raises(IllegalChoice):
        game.choose("act:drop:d5")


def test_vertical_win() -> None:
    game = new_game()
    play(game, "abababa")
    assert game.result is not None
    assert game.result.winners == (0,) and not game.result.draw
    assert game.decision is None and game.legal_ids() == []


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("aabbccd", 0),  # seat 0: a6 b6 c6 d6 (seat 1 stacks a5 b5 c5 on top)
        ("gaabbccd", 1),  # seat 1: a6 b6 c6 d6 (seat 0 holds g6 a5 b5 c5: no four)
    ],
)
def test_horizontal_win(moves: str, winner: int) -> None:
    game = new_game()
    play(game, moves[:-1])
    assert game.result is None
    play(game, moves[-1])
    assert game.result is not None and game.result.winners == (winner,)


@pytest.mark.parametrize("mirror", [False, True], ids=["rising", "falling"])
def test_diagonal_win(mirror: bool) -> None:
    moves = "abbccdcddgd"  # seat 0: a6 b5 c4 d3 on one diagonal
    if mirror:
        moves = moves.translate(str.maketrans("abcdefg", "gfedcba"))
    game = new_game()
    play(game, moves[:-1])
    assert game.result is None
    play(game, moves[-1])
    assert game.result is not None and game.result.winners == (0,)


def test_full_board_ties_and_uses_every_disc() -> None:
    game = new_game()
    play(game, TIE_COLUMNS[:-1])
    assert game.result is None and len(game.legal_ids()) == 1
    play(game, TIE_COLUMNS[-1])
    assert game.result is not None and game.result.draw and game.result.winners == ()
    assert game.evaluate_expr("count(you.supply)", 0) == 0
    assert game.evaluate_expr("count(you.supply)", 1) == 0


def test_german_texts() -> None:
    game = new_game("de")
    assert ruleset().title("de") == "Vier gewinnt"
    assert game.decision is not None
    assert game.decision.options[0].label.startswith("Wirf einen Stein ein")
    english = new_game().decision
    assert english is not None and english.options[0].label.startswith("Drop a disc")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, WIDTH - 1), min_size=1, max_size=60))
def test_random_games_match_a_reference_connect_four(picks: list[int]) -> None:
    """Every legal move set and every result agree with the reference, move by move;
    a pick of a full column takes the next open column to the right."""
    game = new_game()
    ref = Reference()
    for pick in picks:
        assert set(game.legal_ids()) == ref.legal_ids()
        if game.result is not None:
            break
        column = _open_column(ref, pick)
        ref.drop(column)
        game.choose(f"act:drop:{COLUMNS[column]}{HEIGHT - ref.heights[column] + 1}")
        result = game.result
        if ref.winner is not None:
            assert result is not None and result.winners == (ref.winner,)
        elif ref.full:
            assert result is not None and result.draw
        else:
            assert result is None
            assert game.decision is not None and game.decision.seat == ref.to_move


def _open_column(ref: Reference, pick: int) -> int:
    for k in range(WIDTH):
        column = (pick + k) % WIDTH
        if ref.heights[column] < HEIGHT:
            return column
    raise AssertionError("no open column on a board that is not over")
