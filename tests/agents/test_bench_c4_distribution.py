"""bench/bench_c4_distribution.py: its bins meet the chi-square condition, and its tests
tell equal from different distributions (issue 11: 'a Connect Four random-play comparison
with OpenSpiel (outcome and length distributions agree, chi-square) in bench/')."""

from __future__ import annotations

import doctest
import importlib.util
import itertools
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_c4_distribution", ROOT / "bench" / "bench_c4_distribution.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = load_bench()


def fake_sample(rng: random.Random, games: int, first_win: float, mean: int) -> dict[str, Any]:
    """A sample shaped like the bench's: outcomes by rate, lengths around ``mean``."""
    outcomes = [0, 0, 0]
    lengths: dict[str, int] = {}
    for _ in range(games):
        u = rng.random()
        outcomes[0 if u < first_win else 1 if u < 0.995 else 2] += 1
        key = str(max(7, min(42, round(rng.gauss(mean, 6)))))
        lengths[key] = lengths.get(key, 0) + 1
    return {"outcomes": dict(zip(bench.OUTCOMES, outcomes, strict=True)), "lengths": lengths}


def test_doctests() -> None:
    assert doctest.testmod(bench).failed == 0


def test_every_length_bin_expects_five_games_and_covers_every_length() -> None:
    rng = random.Random(1)
    a, b = fake_sample(rng, 900, 0.55, 21), fake_sample(rng, 400, 0.55, 21)
    bins = bench.length_bins(a["lengths"], b["lengths"])
    lengths = sorted({int(k) for k in a["lengths"]} | {int(k) for k in b["lengths"]})
    assert bins[0][0] == lengths[0] and bins[-1][1] == lengths[-1]
    assert all(hi + 1 == lo for (_, hi), (lo, _) in itertools.pairwise(bins))
    rows = [bench.binned(s["lengths"], bins) for s in (a, b)]
    assert [sum(r) for r in rows] == [900, 400]
    assert bench.chi_square(rows)["min_expected"] >= bench.MIN_EXPECTED


def test_samples_of_one_distribution_agree_and_of_two_differ() -> None:
    rng = random.Random(2)
    same = bench.compare(fake_sample(rng, 3000, 0.55, 21), fake_sample(rng, 3000, 0.55, 21))
    assert same["outcomes"]["p_value"] > 0.001 and same["lengths"]["p_value"] > 0.001
    other = bench.compare(fake_sample(rng, 3000, 0.55, 21), fake_sample(rng, 3000, 0.62, 19))
    assert other["outcomes"]["p_value"] < 1e-6 and other["lengths"]["p_value"] < 1e-6
    assert not other["outcomes"]["agree_at_alpha"]


def test_openspiel_and_rulecraft_games_are_connect_four() -> None:
    """A few games of each player: lengths 7-42, a draw only on a full board (42 moves),
    a first-player win only after an odd number of moves."""
    for play in (bench.rulecraft_play(), bench.openspiel_play()):
        sample = bench.sample(play, 20, seed=3)
        assert sum(sample["outcomes"].values()) == 20
        assert all(7 <= int(k) <= 42 for k in sample["lengths"])
    rng = random.Random(4)
    rulecraft = bench.rulecraft_play()
    for _ in range(20):
        outcome, moves = rulecraft(rng)
        assert outcome != 2 or moves == 42
        assert outcome != 0 or moves % 2 == 1
