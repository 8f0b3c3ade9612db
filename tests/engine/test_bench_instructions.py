"""bench/bench_instructions.py: the playout counted in instructions, against the earlier
engine and against OpenSpiel's C++ game through the same Python driver (issue 11's playout
ratio, in a measure a busy machine does not move)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))  # the benches import each other by name

import bench_instructions as bench  # noqa: E402


def test_the_summary_gives_the_earlier_engines_ratio_and_openspiels() -> None:
    results = {
        "tictactoe": {"abc1234": 500_000.0, "working tree": 400_000.0, "openspiel_cpp": 80_000.0},
        "dig": {"abc1234": 3_000_000.0, "working tree": 3_300_000.0},
    }
    line = bench.summary(results, "abc1234", "compiled")
    assert line == (
        "SUMMARY instructions: per random playout (compiled), working tree vs abc1234: "
        "tictactoe 400k vs 500k (0.80x; OpenSpiel C++ 80k, 0.200x of it), "
        "dig 3,300k vs 3,000k (1.10x)"
    )


def test_openspiel_is_counted_only_for_the_games_it_has() -> None:
    assert bench.openspiel_per_playout("radlands") is None
    assert set(bench.OPENSPIEL_GAMES) <= set(bench.GAMES)


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_openspiel_tic_tac_toe_costs_instructions_per_playout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("pyspiel")
    monkeypatch.setitem(bench.PLAYOUTS, "tictactoe", 20)
    count = bench.openspiel_per_playout("tictactoe")
    # a playout is 5 to 9 moves of a few thousand instructions each, the driver included
    assert count is not None and 10_000 < count < 500_000
