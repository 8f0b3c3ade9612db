"""Benchmark: the generic solver (rulecraft.tools.solver) on Knight Moves stages.

    .venv/bin/python bench/bench_solver.py            # measure, write the baseline
    .venv/bin/python bench/bench_solver.py --stages 6 # fewer stages (each side counts)

For the first N standard stage cards (both sides) and the level 1 boss stages, with Wren
(2 health) and the display Step or Stride, Dash or Sidestep, Charge or Brace, Leap or Step,
Run or Rest, it measures:

* the time to the first crossing plan (``Stretch(first_goal=True)``) and its positions/s;
* the time of the best-line search (objective health, then XP, then treasure) cut at
  ``FULL_NODES`` positions, its positions/s, whether it completed, and the share of
  crossing lines among the lines it searched (all lines of play when it completed): how
  much of a stage's planning space crosses it.

Times are CPU time of this process (other developers share the cores).  Prints one
``SUMMARY solver:`` line and writes ``bench/baseline/solver.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import rulecraft  # noqa: E402
from rulecraft.interpreter.game import Game, Ruleset  # noqa: E402
from rulecraft.tools.solver import SolveResult, Stretch, solve  # noqa: E402

clock = time.process_time
DISPLAY = [
    "step_or_stride#1",
    "dash_or_sidestep#1",
    "charge_or_brace#1",
    "leap_or_step#1",
    "run_or_rest#1",
]
WREN = "opt2"
OBJECTIVE = ("you.health", "you.xp", "count(carried)")
FULL_NODES = 5_000


def stage_game(rules: Ruleset, card: str, side: str) -> Game:
    """A new game at the plan of ``card`` (its first stage), Wren and the display above."""
    game = rules.new_game(seed=1)
    game.arrange(
        zones={
            "stage_deck": [f"{card}#1"],
            "display": {"cards": DISPLAY, "others_to": "draw_pile"},
        },
        cards={f"{card}#1": {"side": side}},
    )
    game.choose(WREN)
    return game


def timed(game: Game, stretch: Stretch) -> tuple[SolveResult, float]:
    started = clock()
    result = solve(game, stretch=stretch)
    return result, clock() - started


def measure(rules: Ruleset, card: str, side: str) -> dict[str, Any]:
    first, first_s = timed(stage_game(rules, card, side), Stretch(first_goal=True))
    full, full_s = timed(
        stage_game(rules, card, side), Stretch(objective=OBJECTIVE, max_nodes=FULL_NODES)
    )
    return {
        "stage": f"{card}:{side}",
        "first_plan_s": round(first_s, 3),
        "first_plan_nodes": first.nodes,
        "first_plan_nodes_per_s": round(first.nodes / first_s) if first_s else None,
        "crossable": first.reachable,
        "best_s": round(full_s, 3),
        "best_nodes": full.nodes,
        "best_nodes_per_s": round(full.nodes / full_s) if full_s else None,
        "best_complete": full.complete,
        "best_objective": list(full.objective),
        "crossing_lines": full.goal_lines,
        "lines": full.lines,
        "crossing_share": round(full.goal_lines / full.lines, 4) if full.lines else None,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stages", type=int, default=2, help="standard stage cards to time")
    args = parser.parse_args(argv)
    rules = rulecraft.load("knight_moves")
    cards = [f"stage_{n:02d}" for n in range(1, args.stages + 1)]
    rows = [measure(rules, card, side) for card in cards for side in ("normal", "hard")]
    rows += [measure(rules, boss, "normal") for boss in ("boss_1a", "boss_1b", "boss_1c")]
    for row in rows:
        print(json.dumps(row))
    rates = [r["best_nodes_per_s"] for r in rows if r["best_nodes_per_s"]]
    firsts = [r["first_plan_s"] for r in rows]
    summary = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "full_search_node_bound": FULL_NODES,
        "median_positions_per_s": statistics.median(rates) if rates else None,
        "median_first_plan_s": statistics.median(firsts),
        "max_first_plan_s": max(firsts),
        "all_crossable": all(r["crossable"] for r in rows),
        "rows": rows,
    }
    out = ROOT / "bench" / "baseline" / "solver.json"
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(
        f"SUMMARY solver: {summary['median_positions_per_s']} positions/s (median), first "
        f"crossing plan {summary['median_first_plan_s']:.2f} s median / "
        f"{summary['max_first_plan_s']:.2f} s max over {len(rows)} stage sides"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
