"""Rolls and batch samples: determinism, records, and agreement with the exact odds."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from rulecraft.dice import DiceSet, Pool, RollResult, distribution, roll, sample
from rulecraft.rng import Rng


def chi_square_critical(dof: int, z: float = 4.265) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (z=4.265: p about 1e-5)."""
    h = 2.0 / (9.0 * dof)
    return dof * (1.0 - h + z * math.sqrt(h)) ** 3


def chi_square(
    observed: dict[tuple[int, ...], int], exact: dict[tuple[int, ...], Fraction], n: int
) -> tuple[float, int]:
    """Pearson's statistic, pooling cells expected below 5 into one bin; and its dof."""
    stat, rest_obs, rest_exp, bins = 0.0, 0, 0.0, 0
    assert set(observed) <= set(exact), "sampled an impossible outcome"
    for key, p in exact.items():
        expected = float(p) * n
        got = observed.get(key, 0)
        if expected < 5:
            rest_obs += got
            rest_exp += expected
            continue
        stat += (got - expected) ** 2 / expected
        bins += 1
    if rest_exp > 0:
        stat += (rest_obs - rest_exp) ** 2 / max(rest_exp, 1e-9)
        bins += 1
    return stat, bins - 1


def observed_counts(rows: np.ndarray) -> dict[tuple[int, ...], int]:
    keys, counts = np.unique(rows, axis=0, return_counts=True)
    return {tuple(int(v) for v in k): int(c) for k, c in zip(keys, counts, strict=True)}


@pytest.mark.parametrize("method", ["joint", "dice"])
@pytest.mark.parametrize(
    "expr",
    [
        "3 white + 3 green + 3 blue + 3 red + 1 fate",  # joint: searches cumulative counts
        "2 white + 1 green + 1 blue + 1 red",  # joint: direct lookup of 7776 outcomes
    ],
)
def test_batch_sample_agrees_with_exact_chi_square(
    method: str, expr: str, knights: DiceSet
) -> None:
    pool = Pool.parse(expr, knights)
    n = 300_000
    rows = sample(pool, n, seed=20240401, method=method)  # type: ignore[arg-type]
    assert rows.shape == (n, 3)
    stat, dof = chi_square(observed_counts(rows), distribution(pool).outcomes(), n)
    assert stat < chi_square_critical(dof), (stat, dof)


def test_batch_sample_chi_square_detects_a_wrong_distribution(knights: DiceSet) -> None:
    """The test above can fail: the same check rejects samples of a different pool."""
    pool = Pool.parse("3 white + 3 green + 3 blue + 3 red", knights)
    wrong = Pool.parse("4 white + 3 green + 3 blue + 2 red", knights)
    rows = sample(wrong, 100_000, seed=1, method="dice")
    exact = distribution(pool).outcomes()
    observed = {k: v for k, v in observed_counts(rows).items() if k in exact}
    stat, dof = chi_square(observed, exact, 100_000)
    assert stat > chi_square_critical(dof)


def test_batch_sample_is_seeded(express: DiceSet) -> None:
    pool = Pool.parse("5 combat", express)
    a, b = sample(pool, 1000, seed=3), sample(pool, 1000, seed=3)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, sample(pool, 1000, seed=4))
    assert sample(pool, 0, seed=1).shape == (0, 1)
    with pytest.raises(ValueError):
        sample(pool, 10, seed=1, method="magic")  # type: ignore[arg-type]


def test_huge_pools_sample_by_dice() -> None:
    rows = sample(Pool.parse("30d6"), 2000, seed=5)
    assert rows.shape == (2000, 1)
    assert rows.min() >= 30 and rows.max() <= 180
    assert abs(rows.mean() - 105) < 3


def test_roll_is_deterministic_and_advances_the_stream(waylanders: DiceSet) -> None:
    pool = Pool.parse("2 forest + 2 auxiliary + 1 bonus", waylanders)
    first, rng = roll(pool, Rng(11))
    again, rng_again = roll(pool, Rng(11))
    assert first == again and rng == rng_again and rng.counter >= 1
    assert [name for name, _ in first.faces] == ["auxiliary", "auxiliary", "forest", "forest"]
    shown = {s: 0 for s in pool.symbols}
    shown["bonus"] += 1
    for name, face in first.faces:
        for symbol, count in waylanders[name].face_counts(face).items():
            shown[symbol] += count
    assert dict(first.counts) == shown
    assert first.counts["not_a_symbol"] == 0


def test_rolls_over_a_stream_agree_with_exact_chi_square(knights: DiceSet) -> None:
    pool = Pool.parse("2 white + 1 green + 1 blue + 1 red", knights)
    rng = Rng(99)
    observed: dict[tuple[int, ...], int] = {}
    n = 30_000
    for _ in range(n):
        result, rng = roll(pool, rng)
        key = tuple(result.counts[s] for s in pool.symbols)
        observed[key] = observed.get(key, 0) + 1
    stat, dof = chi_square(observed, distribution(pool).outcomes(), n)
    assert stat < chi_square_critical(dof), (stat, dof)


def test_large_pools_roll_in_groups_and_match_their_faces() -> None:
    pool = Pool.parse("12d10 + 3")
    result, rng = roll(pool, Rng(1))
    assert rng.counter >= 3  # 10**12 outcomes do not fit one group
    assert len(result.faces) == 12
    assert result.counts["value"] == 3 + sum(face + 1 for _, face in result.faces)


def test_weighted_dice_roll_their_real_faces(knights: DiceSet) -> None:
    white = knights["white"].rerolling_once([0, 1])
    pool = Pool.of({white: 1})
    seen = {roll(pool, Rng(seed))[0].faces[0][1] for seed in range(300)}
    assert seen <= set(range(6)) and len(seen) == 6


def test_roll_result_json_round_trip(knights: DiceSet) -> None:
    result, _ = roll(Pool.parse("2 red + 1 white + 1 fate", knights), Rng(5))
    text = json.dumps(result.to_json())
    back = RollResult.from_json(json.loads(text))
    assert back == result and back.faces == result.faces
    with pytest.raises(ValueError):
        RollResult.from_json({"faces": [["red"]], "counts": {}})
    with pytest.raises(TypeError):
        result.counts["success"] = 9  # type: ignore[index]
