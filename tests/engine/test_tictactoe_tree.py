"""The published Tic-Tac-Toe game tree, reproduced through the public API (issue 11).

Every complete game of Tic-Tac-Toe: 255,168 games, 131,184 won by the first player, 77,904
by the second, 46,080 drawn, through 5,478 distinct positions (the empty board and the
finished ones included).  The walk goes through ``Game.clone``, ``legal_ids``, ``choose``
and ``view``, as any tool built on rulecraft would; games from one position are counted
once per position (a transposition table keyed by what the players see: the board, whose
turn it is, the result), which is what makes a full walk take seconds.
"""

from __future__ import annotations

import json
import re

import rulecraft

COPY_NUMBER = re.compile(r"#\d+")


def position_key(game: rulecraft.Game) -> str:
    """A position as the players see it: the view minus the move counters, pieces by what
    they are (which copy of a mark stands on a square does not matter)."""
    view = game.view(0)
    for volatile in ("turn", "round"):
        view.pop(volatile, None)
    return COPY_NUMBER.sub("", json.dumps(view, sort_keys=True))


def count_games() -> tuple[dict[str, int], int]:
    """(games by outcome, distinct positions) of every complete game."""
    ruleset = rulecraft.load("tictactoe")
    positions: set[str] = set()

    memo: dict[str, tuple[int, int, int]] = {}

    def tally(game: rulecraft.Game) -> tuple[int, int, int]:
        result = game.result
        if result is not None:
            if result.draw or not result.winners:
                return (0, 0, 1)
            return (1, 0, 0) if result.winners == (0,) else (0, 1, 0)
        totals = (0, 0, 0)
        for option in game.legal_ids():
            child = game.clone()
            child.choose(option)
            sub = tally_of(child)
            totals = (totals[0] + sub[0], totals[1] + sub[1], totals[2] + sub[2])
        return totals

    def tally_of(game: rulecraft.Game) -> tuple[int, int, int]:
        key = position_key(game)
        if key not in memo:
            positions.add(key)
            memo[key] = tally(game)
        return memo[key]

    first, second, draws = tally_of(ruleset.new_game(seed=0))
    outcome = {"first": first, "second": second, "draw": draws}
    return outcome, len(positions)


def test_the_whole_tic_tac_toe_game_tree_matches_the_published_table() -> None:
    outcome, positions = count_games()
    assert outcome == {"first": 131_184, "second": 77_904, "draw": 46_080}
    assert sum(outcome.values()) == 255_168
    assert positions == 5_478
