"""Benchmark: MCTS knights against the scripted plot-following knight, solo Waste Knights.

    .venv/bin/python bench/bench_knights.py [--games 40] [--spec mcts:...] [--workers 2]
    .venv/bin/python bench/bench_knights.py --only mcts --spec mcts:100/d4 --games 4

Issue 11: "Waste Knights: MCTS knights, at most 60 s of one core per game, win solo
adventures at least as often as the scripted plot-following knight of the tests (5 of 40
now; MCTS wins none), over at least 40 games each".  Both play the solo adventure (one
knight, ``players=1``) on seeds 0, 1, ..., ``games - 1``:

* the script is ``follow_the_plot`` of ``tests/rulesets/test_waste_knights.py`` (imported,
  not copied): drive to the next plot location by the cheapest route, take its plot action,
  Long Fix a wrecked vehicle, camp otherwise, the first option everywhere else;
* the bot is ``--spec`` (see :data:`DEFAULT_SPEC`) with agent seed ``seed * 1009``, as
  ``simulate`` seeds seat 0.

For each it records wins with a 95% Wilson interval, the CPU seconds of each game
(``time.process_time`` in the process that played it: the bot's search and the engine, not
the neighbours' load), parts salvaged and how the adventure ended.  Games run in ``--workers``
processes (seeds are independent, so the result does not depend on their number).  Prints
one ``SUMMARY knights:`` line and writes ``bench/baseline/knights.json`` (``--only`` runs keep
the other side's entry of the previous file).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the scripted knight lives with the tests
sys.path.insert(0, str(ROOT / "bench"))  # benchkit, also when loaded by path

from benchkit import engine_src, machine  # noqa: E402

sys.path.insert(0, str(engine_src()))

import rulecraft  # noqa: E402
from rulecraft.bots.agents import make_agent, play_game  # noqa: E402
from rulecraft.tools.simulate import wilson_interval  # noqa: E402

BASELINE = ROOT / "bench" / "baseline" / "knights.json"
RULESET = ROOT / "rulesets" / "waste_knights"
#: The bot measured by default: the budget that keeps a solo game within the issue's 60 s
#: of one core (docs/bots.md, "Waste Knights").
DEFAULT_SPEC = "mcts:10/d40/g/r/h4/e/a24/t"
CPU_LIMIT_S = 60.0  # the bound on one core's seconds per game
ENDINGS = {"[32]": "rain (won)", "[60]": "time track", "[61]": "Cerbero alarm"}

_RULESET: Any = None


def ruleset() -> Any:
    """The ruleset, loaded once per process."""
    global _RULESET
    if _RULESET is None:
        _RULESET = rulecraft.load(str(RULESET))
    return _RULESET


def ending(game: Any) -> str:
    """How the adventure ended, from its log's last story entry (or eliminated)."""
    for line in reversed(game.log):
        for mark, name in ENDINGS.items():
            if line.startswith(mark):
                return name
    return "eliminated" if game.result is not None else "unfinished"


def outcome(game: Any, seed: int, cpu_s: float, decisions: int) -> dict[str, Any]:
    """One finished game's record (also printed to stderr, so a long run shows progress)."""
    record = {
        "seed": seed,
        "won": game.result is not None and 0 in game.result.winners,
        "cpu_s": round(cpu_s, 2),
        "decisions": decisions,
        "rounds": game.round,
        "parts": int(game.evaluate_expr("parts", 0)),
        "ending": ending(game),
    }
    print(json.dumps(record), file=sys.stderr, flush=True)
    return record


def play_script(seed: int) -> dict[str, Any]:
    """The tests' plot-following knight alone on ``seed``."""
    from tests.rulesets.test_waste_knights import follow_the_plot

    started = time.process_time()
    game = follow_the_plot(ruleset(), seed, 1)
    return outcome(game, seed, time.process_time() - started, len(game.record.choices))


def play_bot(spec: str, seed: int) -> dict[str, Any]:
    """``spec`` as the only knight on ``seed`` (agent seed ``seed * 1009``)."""
    game = ruleset().new_game(players=1, seed=seed)
    started = time.process_time()
    played = play_game(game, [make_agent(spec, seed * 1009)])
    return outcome(game, seed, time.process_time() - started, played.decisions)


def run_side(name: str, games: int, workers: int, spec: str) -> dict[str, Any]:
    """``games`` seeded solo games of one side, over ``workers`` processes."""
    play = play_script if name == "script" else partial(play_bot, spec)
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            records = pool.map(play, range(games), chunksize=1)
    else:
        records = [play(seed) for seed in range(games)]
    return summarize(name, spec, records, time.perf_counter() - started)


def summarize(
    name: str, spec: str, records: list[dict[str, Any]], wall_s: float | None
) -> dict[str, Any]:
    """One side's totals from its games' records (seeds in order)."""
    records = sorted(records, key=lambda r: int(r["seed"]))
    games = len(records)
    wins = sum(r["won"] for r in records)
    low, high = wilson_interval(wins, games)
    cpu = [r["cpu_s"] for r in records]
    endings: dict[str, int] = {}
    for r in records:
        endings[r["ending"]] = endings.get(r["ending"], 0) + 1
    return {
        "player": "follow_the_plot (tests/rulesets/test_waste_knights.py)"
        if name == "script"
        else spec,
        "games": games,
        "seeds": ", ".join(str(r["seed"]) for r in records),
        "wins": wins,
        "wilson95": [round(low, 4), round(high, 4)],
        "cpu_s_per_game": {
            "mean": round(statistics.fmean(cpu), 2),
            "median": round(statistics.median(cpu), 2),
            "max": round(max(cpu), 2),
            "over_limit": sum(c > CPU_LIMIT_S for c in cpu),
        },
        "parts_mean": round(statistics.fmean(r["parts"] for r in records), 2),
        "endings": endings,
        "wall_s": None if wall_s is None else round(wall_s, 1),
        "games_played": records,
    }


def script_on(script: dict[str, Any], bot: dict[str, Any]) -> dict[str, Any]:
    """The script's wins on the seeds the bot played (when the bot played fewer games)."""
    seeds = {int(r["seed"]) for r in bot["games_played"]}
    played = [r for r in script["games_played"] if int(r["seed"]) in seeds]
    return {"games": len(played), "wins": sum(r["won"] for r in played)}


def line(side: dict[str, Any]) -> str:
    """``wins/games (interval), CPU`` of one side for the summary."""
    low, high = side["wilson95"]
    cpu = side["cpu_s_per_game"]
    return (
        f"{side['wins']}/{side['games']} won (95% {low:.1%}-{high:.1%}), "
        f"{cpu['mean']:.1f} s CPU a game (max {cpu['max']:.1f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--spec", default=DEFAULT_SPEC)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("script", "mcts"))
    parser.add_argument(
        "--records",
        type=Path,
        help="with --only: rebuild that side from the per-game lines (JSON, one a line) an "
        "interrupted run printed to stderr, instead of playing",
    )
    args = parser.parse_args(argv)
    try:
        kept: dict[str, Any] = json.loads(BASELINE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    results: dict[str, Any] = {"machine": machine(), "ruleset": "waste_knights", "players": 1}
    for name in ("script", "mcts"):
        if args.only == name and args.records is not None:
            lines = args.records.read_text(encoding="utf-8").splitlines()
            records = [json.loads(x) for x in lines if x.startswith("{")]
            results[name] = summarize(name, args.spec, records, None)
        elif args.only in (None, name):
            results[name] = run_side(name, args.games, args.workers, args.spec)
        elif name in kept:
            results[name] = kept[name]
    if "script" in results and "mcts" in results:
        results["script_on_the_mcts_seeds"] = script_on(results["script"], results["mcts"])
    BASELINE.parent.mkdir(parents=True, exist_ok=True)
    BASELINE.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(
        "SUMMARY knights: solo Waste Knights, "
        + "; ".join(
            f"{'plot script' if name == 'script' else results[name]['player']} "
            + line(results[name])
            for name in ("script", "mcts")
            if name in results
        )
        + (
            f"; the script on the bot's {same['games']} seeds: {same['wins']} won"
            if (same := results.get("script_on_the_mcts_seeds"))
            else ""
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
