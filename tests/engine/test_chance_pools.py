"""A roll's pool is made once per amounts and kept on the program (``chance._pool_of``,
``Program.pools``): making one (die types looked up, checked, hashed) cost more than
rolling it.  What is kept must be what ``make_pool`` makes, and what it refuses must still
be refused at every roll."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from rulecraft import RuleError
from rulecraft.dice import DiceSet
from rulecraft.runtime import chance

DICE = DiceSet.from_spec(
    {
        "white": {"faces": [[], ["hit"]], "order": 1},
        "red": {"faces": [["hit"], ["hit", "hit"]], "order": 2},
    }
)


def _ctx(min_dice: int = 0) -> Any:
    return SimpleNamespace(prog=SimpleNamespace(dice=DICE, min_dice=min_dice, pools={}))


def test_the_same_amounts_give_the_kept_pool() -> None:
    ctx = _ctx(min_dice=1)
    first = chance._pool_of(ctx, {"white": 2, "red": 0})
    assert first == chance.make_pool(DICE, {"white": 2, "red": 0}, 1)
    assert chance._pool_of(ctx, {"white": 2, "red": 0}) is first
    assert str(chance._pool_of(ctx, {"white": -1, "red": 0})) == "1 red"  # min_dice kept
    assert len(ctx.prog.pools) == 2


def test_refused_amounts_are_refused_every_time_and_never_kept() -> None:
    ctx = _ctx()
    for _ in range(2):
        with pytest.raises(RuleError, match="unknown die type"):
            chance._pool_of(ctx, {"green": 1})
        with pytest.raises(RuleError, match="expected dice"):
            chance._pool_of(ctx, ["white"])
        with pytest.raises(TypeError):  # as make_pool itself refuses a list for a count
            chance._pool_of(ctx, {"white": [1]})
    assert ctx.prog.pools == {}


def test_only_so_many_pools_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chance, "POOLS_KEPT", 2)
    ctx = _ctx()
    pools = [chance._pool_of(ctx, {"white": n}) for n in range(1, 5)]
    assert [str(p) for p in pools] == ["1 white", "2 white", "3 white", "4 white"]
    assert len(ctx.prog.pools) == 2
