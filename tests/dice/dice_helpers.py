"""Helpers for the dice tests: a brute-force enumerator independent of the convolution."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from rulecraft.dice import Pool


def enumerate_pool(pool: Pool) -> dict[tuple[int, ...], Fraction]:
    """Every outcome of ``pool`` by listing all weighted face combinations (no convolution)."""
    symbols = pool.symbols
    auto = dict(pool.auto)
    per_die = [
        [dict(die.faces[f]) for f, w in enumerate(die.weights) for _ in range(w)]
        for die in pool.each_die()
    ]
    ways: Counter[tuple[int, ...]] = Counter()
    total = 0
    for combo in itertools.product(*per_die):
        key = tuple(auto.get(s, 0) + sum(face.get(s, 0) for face in combo) for s in symbols)
        ways[key] += 1
        total += 1
    return {k: Fraction(n, total) for k, n in ways.items()}
