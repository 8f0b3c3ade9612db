"""bench/bench_engine.py says which runtime it timed.

On 4 December a run of the pure-Python runtime gave Tic-Tac-Toe 0.032x-0.045x of
OpenSpiel's C++ game, and the ratio was put down to a loaded host; the compiled runtime
gave 0.093x-0.116x later that day, where the pure one gave 0.035x-0.037x again.
The summary line now names the runtime, and a pure run beside a compiled build says how to
time that one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))  # the benches import each other by name

import bench_engine as bench  # noqa: E402
from benchkit import engine_build  # noqa: E402


def test_the_machine_record_names_the_runtime_this_process_runs() -> None:
    assert bench.machine_info()["engine"] == engine_build()
    assert engine_build() in ("pure Python", "compiled (mypyc)")


def test_a_pure_run_beside_a_compiled_build_says_how_to_time_the_compiled_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "ROOT", tmp_path)
    assert bench.runtime_hint("pure Python") == ""  # nothing built: nothing to point at
    (tmp_path / "build" / "compiled" / "src").mkdir(parents=True)
    hint = bench.runtime_hint("pure Python")
    assert hint == " (RULECRAFT_BENCH_SRC=build/compiled/src measures the compiled one)"
    assert bench.runtime_hint("compiled (mypyc)") == ""
