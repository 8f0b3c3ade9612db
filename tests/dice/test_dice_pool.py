"""Pools: parsing, gaining and losing dice, caps, hashing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.dice import DiceSet, Pool, PoolError, PoolRules


def test_parse_mixed_pool_and_auto_symbols(knights: DiceSet) -> None:
    pool = Pool.parse("2 white + red + 1 blue + 2 success + 1 white", knights)
    assert pool.signature == (("blue", 1), ("red", 1), ("white", 3))
    assert pool.auto == (("success", 2),)
    assert pool.size == 5
    assert pool.symbols == ("botch", "fate", "success")


def test_parse_plain_dice_and_constants() -> None:
    pool = Pool.parse("3d6 + d8 + 2")
    assert pool.signature == (("d6", 3), ("d8", 1))
    assert pool.auto == (("value", 2),)
    assert str(pool) == "3d6 + 1d8 + 2 value"
    assert Pool.parse(str(pool)) == pool


@pytest.mark.parametrize("text", ["", "2 purple", "3d0", "2 +", "two white", "0 white"])
def test_parse_errors_are_pool_errors(text: str, knights: DiceSet) -> None:
    with pytest.raises(PoolError):
        Pool.parse(text, knights)


def test_pools_are_hashable_and_order_free(knights: DiceSet) -> None:
    a = Pool.parse("2 white + 1 red", knights)
    b = Pool.parse("1 red + 1 white + 1 white", knights)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.with_auto("success")


def test_two_dice_with_one_name_are_refused(knights: DiceSet) -> None:
    other = DiceSet.from_spec({"white": [1, 2]})
    with pytest.raises(PoolError, match="two different dice"):
        Pool.of({knights["white"]: 1, other["white"]: 1})


@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 12), st.sampled_from(["white", "red"]))
def test_losing_dice_never_leaves_fewer_than_one(w: int, r: int, lose: int, name: str) -> None:
    dice = DiceSet.from_spec({"white": [[], ["success"]], "red": [["success"], ["botch"]]})
    pool = Pool.of({dice["white"]: w + 1, dice["red"]: r})
    after = pool.remove(name, lose)
    assert after.size >= 1
    assert after.size == max(1, pool.size - min(lose, pool.count(name)))
    assert after.count(name) == pool.count(name) - (pool.size - after.size)


def test_gaining_dice_and_caps(waylanders: DiceSet) -> None:
    rules = PoolRules(max_per_die=2, max_total=8)
    pool = Pool.parse("3 forest + 3 plain + 2 mountain + 3 auxiliary", waylanders)
    assert not rules.admits(pool)
    capped = rules.apply(pool)
    assert rules.admits(capped)
    assert capped.signature == (("auxiliary", 2), ("forest", 2), ("mountain", 2), ("plain", 2))
    assert rules.apply(capped.add(waylanders["forest"])) == capped
    assert PoolRules(per_die={"auxiliary": 1}).apply(pool).count("auxiliary") == 1


def test_total_cap_drops_the_weakest_colour_first(knights: DiceSet) -> None:
    pool = Pool.parse("3 white + 3 red + 3 green", knights)
    capped = PoolRules(max_total=4).apply(pool)
    assert capped.signature == (("green", 1), ("red", 3))


def test_caps_never_empty_a_pool(knights: DiceSet) -> None:
    pool = Pool.parse("2 white", knights)
    assert PoolRules(max_per_die=0).apply(pool).size == 1
    assert PoolRules(max_total=0).apply(pool).size == 1
