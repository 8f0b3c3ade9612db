"""bench/bench_engine.py says which runtime it timed.

On 4 December a run of the pure-Python runtime gave Tic-Tac-Toe 0.032x-0.045x of
OpenSpiel's C++ game, and the ratio was put down to a loaded host; the compiled runtime
gave 0.093x-0.116x later that day, where the pure one gave 0.035x-0.037x again.
The summary line now names the runtime, and a pure run beside a compiled build says how to
time that one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))  # the benches import each other by name

import bench_engine as bench  # noqa: E402
import rulecraft  # noqa: E402
import rulecraft.bots.agents as agents  # noqa: E402
from benchkit import bot_games, engine_build  # noqa: E402


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


def test_the_summary_of_a_bots_games_gives_seconds_a_game_and_a_decision() -> None:
    rates = {"radlands": {"old": [1 / 50.0, 1 / 40.0], "working tree": [1 / 6.25, 1 / 8.0]}}
    # the old engine's games were longer: 200 decisions against the new one's 150
    per_decision = {"radlands": {"old": [200 / 50.0, 200 / 40.0], "working tree": [24.0, 18.75]}}
    line = bench.against_summary("6943e47", rates, True, 4, "mcts:100/d30", per_decision)
    assert "median of 2 interleaved rounds of 4 games (seeds alike) of mcts:100/d30" in line
    assert (
        "radlands [working tree] mcts:100/d30 44.44 -> 7.02 s CPU a game "
        "(6.33x; rounds 5.00x, 8.00x, median 6.50x), "
        "222.2 -> 46.8 ms a decision (4.75x; rounds 3.75x, 6.00x, median 4.88x)"
    ) in line
    assert "ms a decision" not in bench.against_summary("6943e47", rates, True, 4, "mcts:100/d30")


def test_a_bots_games_seat_and_seed_the_agents_as_simulate_does() -> None:
    ruleset = rulecraft.load("tictactoe")
    played = list(bot_games(agents, ruleset, "mcts:8/d4", 3, seed=5))
    assert [seed for seed, _, _ in played] == [5, 6, 7]
    for i, (seed, cpu, game) in enumerate(played):
        # the bot in seat i % 2, each agent seeded seed * 1009 + its seat
        specs = ["mcts:8/d4", "random"] if i % 2 == 0 else ["random", "mcts:8/d4"]
        seated = [agents.make_agent(spec, seed * 1009 + s) for s, spec in enumerate(specs)]
        again = agents.play_game(ruleset.new_game(players=2, seed=seed), seated)
        assert game.choices == again.choices
        assert cpu > 0
    summed = bench.worker_bot_games("tictactoe", "mcts:8/d4", 3, 5)
    assert summed["games"] == 3
    assert summed["decisions"] == sum(game.decisions for _, _, game in played)


def test_the_examples_in_the_benches_shared_code_run() -> None:
    import doctest

    import benchkit

    for module in (benchkit, bench):
        failed, tried = doctest.testmod(module)
        assert tried > 0 and failed == 0, module.__name__


@pytest.mark.parametrize(
    "script",
    [
        "bench_agents",
        "bench_c4_distribution",
        "bench_engine",
        "bench_knights",
        "bench_solver",
    ],
)
def test_every_bench_of_the_engine_imports_the_runtime_rulecraft_bench_src_names(
    script: str, tmp_path: Path
) -> None:
    # a rulecraft that says where it was found and stops the bench there
    fake = tmp_path / "src" / "rulecraft"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise SystemExit('the bench imported ' + __file__)\n")
    env = {**os.environ, "RULECRAFT_BENCH_SRC": str(tmp_path / "src")}
    env.pop("PYTHONPATH", None)
    ran = subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{script}.py")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert f"the bench imported {fake / '__init__.py'}" in ran.stderr
