"""The language's integer arithmetic (docs/language.md: "`/` divides rounding down, and
dividing (or `%`) by 0 gives 0"), in both compiled forms: closures for small expressions
and generated Python (compile/codegen.py) for larger ones.

Issue 17's hostile-input run found ``7 / -2`` giving 7: a negative divisor was read as 1.
"""

from __future__ import annotations

import pytest

import rulecraft
from rulecraft.runtime.game import Game


@pytest.fixture(scope="module")
def game() -> Game:
    return rulecraft.load("tictactoe").new_game(seed=1)  # 9 spaces


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7 / 2", 3),
        ("7 / -2", -4),  # rounding down, as Python's // and the docs say
        ("-7 / 2", -4),
        ("7 / 0", 0),
        ("7 % -2", -1),
        ("-7 % 2", 1),
        ("7 % 0", 0),
        # larger expressions go through the code generator
        ("count(spaces) / -2", -5),
        ("count(spaces) % -2", -1),
        ("(count(spaces) + 1) / (0 - 3)", -4),
        ("count(spaces) / (count(spaces) - 9)", 0),
    ],
)
def test_division_rounds_down_and_by_zero_gives_zero(game: Game, text: str, value: int) -> None:
    assert game.evaluate_expr(text) == value
