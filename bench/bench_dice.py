"""Dice engine speed, measured side by side in one run (issue 4).

1. Joint success/fate/botch distribution of a 12-die pool of four custom colours:
   rulecraft (uncached and cached) against icepool computing the same joint distribution.
2. Batch sampling of 5-die pools: rulecraft's sampler against a bare numpy lookup table.
3. One in-game roll of a 5-die pool through the engine (from the game's Rng).

Run: .venv/bin/python bench/bench_dice.py  (writes bench/baseline/dice.json)
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
import sys
import timeit
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import numpy as np

from rulecraft.dice import DiceSet, Pool, distribution, roll, sample
from rulecraft.dice import exact as dice_exact
from rulecraft.rng import Rng

COLOURS = {
    "c1": [[], [], ["fate"], ["success"], ["success"], ["botch"]],
    "c2": [[], ["fate"], ["success"], ["success"], ["success"], ["botch"]],
    "c3": [[], ["fate"], ["success"], ["success"], ["success", "success"], ["botch"]],
    "c4": [["fate"], ["success"], ["success", "success"], ["success", "success"], ["botch"],
           ["success", "botch"]],
}  # fmt: skip
SYMBOLS = ("botch", "fate", "success")


def best_of(fn: Any, repeat: int, number: int) -> float:
    """Median seconds per call over ``repeat`` runs of ``number`` calls."""
    return statistics.median(timeit.repeat(fn, repeat=repeat, number=number)) / number


def icepool_joint(dice: DiceSet, pool: Pool) -> icepool.Die:
    """The same joint distribution in icepool: Vector outcomes summed die by die."""
    total: icepool.Die = icepool.Die([icepool.Vector((0, 0, 0))])
    for die in pool.each_die():
        faces = [icepool.Vector(tuple(die.face_counts(f).get(s, 0) for s in SYMBOLS))
                 for f in range(len(die.faces))]  # fmt: skip
        total = total + icepool.Die(faces)
    return total


def bench_joint(dice: DiceSet) -> dict[str, Any]:
    pool = Pool.parse("3 c1 + 3 c2 + 3 c3 + 3 c4", dice)
    uncached = best_of(lambda: dice_exact._compute(pool), repeat=7, number=50)
    distribution(pool)
    cached = best_of(lambda: distribution(pool), repeat=7, number=20000)
    ice_times = []
    for _ in range(3):  # fresh dice each time, so icepool's caches do not help
        ice_times.append(timeit.timeit(lambda: icepool_joint(dice, pool), number=1))
    ice = statistics.median(ice_times)
    ours = distribution(pool).outcomes()
    reference = icepool_joint(dice, pool)
    same = ours == {tuple(k): Fraction(q, reference.denominator()) for k, q in reference.items()}
    return {
        "pool": str(pool),
        "rulecraft_uncached_us": uncached * 1e6,
        "rulecraft_cached_us": cached * 1e6,
        "icepool_ms": ice * 1e3,
        "speedup_vs_icepool": ice / uncached,
        "same_result_as_icepool": same,
        "targets": {"speedup_min": 100, "cached_us_max": 20},
    }


def bare_lut_sampler(tables: np.ndarray, n: int, seed: int) -> np.ndarray:
    """A tuned bare numpy sampler: uint8 draws, symbol counts packed 8 bits apart in one
    int32 per face so each die is one gather and one add, unpacked at the end."""
    generator = np.random.default_rng(seed)
    n_dice, n_faces, n_symbols = tables.shape
    packed = (tables.astype(np.int32) << (8 * np.arange(n_symbols, dtype=np.int32))).sum(axis=2)
    draws = generator.integers(0, n_faces, size=(n_dice, n), dtype=np.uint8)
    total = packed[0][draws[0]]
    for d in range(1, n_dice):
        total += packed[d][draws[d]]
    return np.stack([(total >> (8 * a)) & 0xFF for a in range(n_symbols)], axis=1)


def bench_sampling(dice: DiceSet) -> dict[str, Any]:
    pool = Pool.parse("2 c1 + 1 c2 + 1 c3 + 1 c4", dice)
    tables = np.asarray(
        [[[d.face_counts(f).get(s, 0) for s in SYMBOLS] for f in range(6)] for d in pool.each_die()]
    )
    n = 1_000_000
    sample(pool, 10, seed=0)  # build the pool's tables once, as a simulation would
    ours = best_of(lambda: sample(pool, n, seed=1), repeat=5, number=1)
    ours_dice = best_of(lambda: sample(pool, n, seed=1, method="dice"), repeat=5, number=1)
    bare = best_of(lambda: bare_lut_sampler(tables, n, seed=1), repeat=5, number=1)
    mean_gap = np.abs(bare_lut_sampler(tables, n, 2).mean(0) - sample(pool, n, 2).mean(0)).max()
    return {
        "pool": str(pool),
        "rolls": n,
        "rulecraft_dice_per_s": 5 * n / ours,
        "rulecraft_per_die_lut_dice_per_s": 5 * n / ours_dice,
        "bare_numpy_lut_dice_per_s": 5 * n / bare,
        "throughput_ratio": bare / ours,
        "max_mean_gap_bare_vs_rulecraft": float(mean_gap),
        "targets": {"throughput_ratio_min": 0.5},
    }


def bench_roll(dice: DiceSet) -> dict[str, Any]:
    pool = Pool.parse("2 c1 + 1 c2 + 1 c3 + 1 c4", dice)
    rolls = 2000

    def game_loop() -> None:
        rng = Rng(2024)
        for _ in range(rolls):
            _, rng = roll(pool, rng)

    game_loop()  # tables are built on first use of a pool
    per_call = best_of(game_loop, repeat=7, number=5) / rolls
    cold = Pool.parse("1 c1 + 1 c2 + 2 c3 + 1 c4", dice)
    first = best_of(lambda: roll(cold, Rng(1)), repeat=1, number=1)
    return {
        "pool": str(pool),
        "roll_us": per_call * 1e6,
        "first_roll_of_a_new_pool_us": first * 1e6,
        "targets": {"roll_us_max": 10},
    }


def main() -> int:
    dice = DiceSet.from_spec(COLOURS)
    results = {
        "name": "dice",
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "numpy": np.__version__,
            "icepool": icepool.__version__,
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        },
        "joint_distribution": bench_joint(dice),
        "batch_sampling": bench_sampling(dice),
        "single_roll": bench_roll(dice),
    }
    joint, batch, one = (
        results["joint_distribution"],
        results["batch_sampling"],
        results["single_roll"],
    )
    ok = (
        joint["speedup_vs_icepool"] >= 100
        and joint["rulecraft_cached_us"] <= 20
        and joint["same_result_as_icepool"]
        and batch["throughput_ratio"] >= 0.5
        and one["roll_us"] <= 10
    )
    results["all_targets_met"] = ok
    out = Path(__file__).parent / "baseline" / "dice.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(
        f"SUMMARY dice: joint 12 dice {joint['rulecraft_uncached_us']:.0f} us "
        f"({joint['speedup_vs_icepool']:.0f}x icepool {joint['icepool_ms']:.1f} ms), "
        f"cached {joint['rulecraft_cached_us']:.2f} us; "
        f"batch {batch['rulecraft_dice_per_s'] / 1e6:.0f}M dice/s "
        f"({batch['throughput_ratio']:.2f}x bare numpy "
        f"{batch['bare_numpy_lut_dice_per_s'] / 1e6:.0f}M); "
        f"roll {one['roll_us']:.2f} us; targets {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
