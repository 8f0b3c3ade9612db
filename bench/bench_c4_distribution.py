"""Benchmark: random Connect Four in rulecraft plays the same game as OpenSpiel's C++ one.

    .venv/bin/python bench/bench_c4_distribution.py [--games N] [--seed S]

Issue 11 asks for "a Connect Four random-play comparison with OpenSpiel (outcome and length
distributions agree, chi-square) in bench/".  Both engines play ``N`` games (default 5,000)
from the start, each move uniform among the legal ones, drawn from ``random.Random`` seeded
per engine, driven from Python the same way.  For each game it records the outcome (first
player wins, second player wins, draw) and the length in moves (7 to 42).  Then two
chi-square tests of homogeneity (``scipy.stats.chi2_contingency``, 2 x k tables):

* outcomes: 2 x 3;
* lengths: 2 x k, adjacent lengths merged (from the shortest up, then the rest into the last
  bin) until every cell's expected count is at least 5, the usual condition for the
  chi-square approximation.

The same tests run on a control that must fail: OpenSpiel against OpenSpiel where the first
player drops into the centre column whenever it can on half of its moves.  A p-value near 0
there shows the tests have the power to see a real difference at this ``N``.

Prints one ``SUMMARY c4_distribution:`` line and writes
``bench/baseline/c4_distribution.json``.  Needs the ``bench`` extra (open_spiel, which brings
scipy); without it the script says so and writes nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))  # benchkit, also when loaded by path

from benchkit import engine_src, machine  # noqa: E402

sys.path.insert(0, str(engine_src()))

import rulecraft  # noqa: E402

BASELINE = ROOT / "bench" / "baseline" / "c4_distribution.json"
OUTCOMES = ("first", "second", "draw")
MIN_EXPECTED = 5.0  # every expected cell count at least this (chi-square approximation)
ALPHA = 0.01  # "agree": the test does not reject equal distributions at this level
CENTRE = 3  # OpenSpiel's action (column) for the centre column, used by the control

#: One random game: ``(outcome index, length in moves)``.
Play = Callable[[random.Random], tuple[int, int]]


def rulecraft_play() -> Play:
    """Random games of ``rulesets/connect4`` through the public API (seat 0 moves first)."""
    start = rulecraft.load(ROOT / "rulesets" / "connect4").new_game(seed=0)

    def play(rng: random.Random) -> tuple[int, int]:
        game = start.clone()
        moves = 0
        while game.result is None:
            game.choose(rng.choice(game.legal_ids()))
            moves += 1
        result = game.result
        return (2 if result.draw else result.winners[0]), moves

    return play


def openspiel_play(centre_bias: float = 0.0) -> Play:
    """Random games of OpenSpiel's C++ ``connect_four``; with ``centre_bias`` the first
    player takes the centre column on that share of its moves when it is open (the
    control)."""
    import pyspiel

    start = pyspiel.load_game("connect_four").new_initial_state()

    def play(rng: random.Random) -> tuple[int, int]:
        state = start.clone()
        moves = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            biased = state.current_player() == 0 and rng.random() < centre_bias
            state.apply_action(CENTRE if biased and CENTRE in legal else rng.choice(legal))
            moves += 1
        returns = state.returns()
        return (0 if returns[0] > 0 else 1 if returns[1] > 0 else 2), moves

    return play


def sample(play: Play, games: int, seed: int) -> dict[str, Any]:
    """``games`` games of ``play`` from ``random.Random(seed)``: outcome counts, length
    counts and the CPU seconds they took."""
    rng = random.Random(seed)
    outcomes = [0, 0, 0]
    lengths: Counter[int] = Counter()
    started = time.process_time()
    for _ in range(games):
        outcome, moves = play(rng)
        outcomes[outcome] += 1
        lengths[moves] += 1
    return {
        "games": games,
        "seed": seed,
        "outcomes": dict(zip(OUTCOMES, outcomes, strict=True)),
        "lengths": {str(k): lengths[k] for k in sorted(lengths)},
        "mean_length": sum(k * v for k, v in lengths.items()) / games,
        "cpu_s": time.process_time() - started,
    }


def length_bins(a: dict[str, int], b: dict[str, int]) -> list[tuple[int, int]]:
    """Adjacent lengths merged into ``(first, last)`` bins, shortest first, so that each
    bin's expected count in both samples is at least :data:`MIN_EXPECTED` (a short tail
    joins the last bin).

    >>> length_bins({"7": 3, "8": 9, "9": 20}, {"7": 4, "8": 8, "9": 20})
    [(7, 8), (9, 9)]
    """
    lengths = sorted({int(k) for k in a} | {int(k) for k in b})
    n_a, n_b = sum(a.values()), sum(b.values())
    share = min(n_a, n_b) / (n_a + n_b)  # expected = bin total x sample share
    bins: list[tuple[int, int]] = []
    first, total = lengths[0], 0
    for length in lengths:
        total += a.get(str(length), 0) + b.get(str(length), 0)
        if total * share >= MIN_EXPECTED:
            bins.append((first, length))
            first, total = length + 1, 0
    if total and bins:
        bins[-1] = (bins[-1][0], lengths[-1])
    elif total:
        bins.append((first, lengths[-1]))
    return bins


def binned(counts: dict[str, int], bins: Sequence[tuple[int, int]]) -> list[int]:
    """``counts`` (length -> games) added up per bin."""
    return [sum(v for k, v in counts.items() if lo <= int(k) <= hi) for lo, hi in bins]


def chi_square(rows: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Pearson's chi-square test of homogeneity of the rows (scipy), with the smallest
    expected cell count, so a reader can check the approximation's condition."""
    from scipy.stats import chi2_contingency

    test = chi2_contingency([list(r) for r in rows], correction=False)
    return {
        "statistic": float(test.statistic),
        "dof": int(test.dof),
        "p_value": float(test.pvalue),
        "min_expected": float(test.expected_freq.min()),
        "agree_at_alpha": bool(test.pvalue >= ALPHA),
    }


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Outcome and binned-length chi-square tests of two samples."""
    bins = length_bins(a["lengths"], b["lengths"])
    outcome_rows = [[s["outcomes"][o] for o in OUTCOMES] for s in (a, b)]
    length_rows = [binned(s["lengths"], bins) for s in (a, b)]
    return {
        "outcomes": {"table": outcome_rows, **chi_square(outcome_rows)},
        "lengths": {
            "bins": [f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in bins],
            "table": length_rows,
            **chi_square(length_rows),
        },
    }


def summary(results: dict[str, Any]) -> str:
    """The one ``SUMMARY`` line: rates, p-values and the control's p-values."""
    main, control = results["rulecraft_vs_openspiel"], results["control_biased_openspiel"]
    rates = {
        name: "/".join(f"{v / s['games']:.3f}" for v in s["outcomes"].values())
        for name, s in results["samples"].items()
    }
    return (
        f"SUMMARY c4_distribution: {results['games']} random games each; outcomes "
        f"first/second/draw rulecraft {rates['rulecraft']}, openspiel {rates['openspiel']}; "
        f"chi-square outcomes p={main['outcomes']['p_value']:.3f}, lengths "
        f"p={main['lengths']['p_value']:.3f} ({main['lengths']['dof']} dof): "
        + (
            "agree"
            if main["outcomes"]["agree_at_alpha"] and main["lengths"]["agree_at_alpha"]
            else "DIFFER"
        )
        + f" at {ALPHA}; control (centre-biased first player) outcomes "
        f"p={control['outcomes']['p_value']:.2g}, lengths p={control['lengths']['p_value']:.2g}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        openspiel = openspiel_play()
        import scipy.stats  # noqa: F401
    except ImportError as exc:
        print(f"SUMMARY c4_distribution: skipped, {exc} (pip install -e '.[bench]')")
        return 0
    samples = {
        "rulecraft": sample(rulecraft_play(), args.games, args.seed),
        "openspiel": sample(openspiel, args.games, args.seed + 1),
        "openspiel_centre_biased": sample(openspiel_play(0.5), args.games, args.seed + 2),
    }
    results = {
        "machine": machine(),
        "games": args.games,
        "alpha": ALPHA,
        "samples": samples,
        "rulecraft_vs_openspiel": compare(samples["rulecraft"], samples["openspiel"]),
        "control_biased_openspiel": compare(
            samples["openspiel"], samples["openspiel_centre_biased"]
        ),
    }
    BASELINE.parent.mkdir(parents=True, exist_ok=True)
    BASELINE.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
