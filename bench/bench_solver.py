"""Benchmark: the generic solver (rulecraft.tools.solver) on Knight Moves stages.

    .venv/bin/python bench/bench_solver.py            # every stage card, both sides
    .venv/bin/python bench/bench_solver.py --stages 2 # the first 2 stage cards and level 1 bosses

For every standard stage card (both sides) and every boss stage card (both sides; with
``--stages N`` only the first N stage cards and the level 1 bosses), with Wren (2 health)
and the display Step or Stride, Dash or Sidestep, Charge or Brace, Leap or Step, Run or
Rest, it measures:

* the time to the first crossing plan (``Stretch(first_goal=True)``, cut at
  ``FIRST_NODES`` positions) and its positions/s;
* the time of the best-line search (objective health, then XP, then treasure) cut at
  ``FULL_NODES`` positions, its positions/s, whether it completed, and the share of
  crossing lines among the lines it searched (all lines of play when it completed): how
  much of a stage's planning space crosses it.

A side *needs a good plan* when at most ``GOOD_PLAN_SHARE`` of the lines the solver reports
cross it (issue 13: "at least a third of the hard sides needing a good plan (the solver's
share of crossing plans among all plans reported)"); the summary counts the hard sides
that do.  The share is over the lines the bounded search reached (a depth-first search: the
first cards' lines), not over every line, since a complete search of one stage takes
minutes.

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
sys.path.insert(0, str(ROOT / "bench"))  # benchkit, also when loaded by path

from benchkit import engine_src  # noqa: E402

sys.path.insert(0, str(engine_src()))

import rulecraft  # noqa: E402
from rulecraft.runtime.game import Game, Ruleset  # noqa: E402
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
STANDARD = "opt1"  # "Which game?": a standard game, not a campaign
OBJECTIVE = ("you.health", "you.xp", "count(carried)")
FULL_NODES = 2_000
FIRST_NODES = 30_000
GOOD_PLAN_SHARE = 0.01


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
    game.choose(STANDARD)
    return game


def timed(game: Game, stretch: Stretch) -> tuple[SolveResult, float]:
    started = clock()
    result = solve(game, stretch=stretch)
    return result, clock() - started


def measure(rules: Ruleset, card: str, side: str) -> dict[str, Any]:
    first, first_s = timed(
        stage_game(rules, card, side), Stretch(first_goal=True, max_nodes=FIRST_NODES)
    )
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
        "needs_a_good_plan": bool(full.lines) and full.goal_lines / full.lines <= GOOD_PLAN_SHARE,
    }


def stage_sides(rules: Ruleset, stages: int | None) -> list[tuple[str, str]]:
    """The stage cards to time, each side: all of them, or the first ``stages`` standard
    cards and the level 1 bosses."""
    defs = rules.program.defs
    cards = sorted(d for d, spec in defs.items() if spec.kind == "stage")
    bosses = [c for c in cards if c.startswith("boss_")]
    standard = [c for c in cards if not c.startswith("boss_")]
    if stages is not None:
        standard = standard[:stages]
        bosses = [c for c in bosses if c.startswith("boss_1")]
    return [(card, side) for card in standard + bosses for side in ("normal", "hard")]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stages", type=int, default=None, help="standard stage cards to time")
    args = parser.parse_args(argv)
    rules = rulecraft.load("knight_moves")
    rows = []
    for card, side in stage_sides(rules, args.stages):
        rows.append(measure(rules, card, side))
        print(json.dumps(rows[-1]), flush=True)
    rates = [r["best_nodes_per_s"] for r in rows if r["best_nodes_per_s"]]
    firsts = [r["first_plan_s"] for r in rows]
    hard = [r for r in rows if r["stage"].startswith("stage_") and r["stage"].endswith(":hard")]
    summary = {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "full_search_node_bound": FULL_NODES,
        "median_positions_per_s": statistics.median(rates) if rates else None,
        "median_first_plan_s": statistics.median(firsts),
        "max_first_plan_s": max(firsts),
        "first_plan_node_bound": FIRST_NODES,
        "all_crossable": all(r["crossable"] for r in rows),
        "not_crossed_within_bound": [r["stage"] for r in rows if not r["crossable"]],
        "good_plan_share": GOOD_PLAN_SHARE,
        "hard_sides": len(hard),
        "hard_sides_needing_a_good_plan": sum(r["needs_a_good_plan"] for r in hard),
        "rows": rows,
    }
    out = ROOT / "bench" / "baseline" / "solver.json"
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(
        f"SUMMARY solver: {summary['median_positions_per_s']} positions/s (median), first "
        f"crossing plan {summary['median_first_plan_s']:.2f} s median / "
        f"{summary['max_first_plan_s']:.2f} s max over {len(rows)} stage sides; "
        f"{summary['hard_sides_needing_a_good_plan']} of {len(hard)} hard sides need a good "
        f"plan (at most {GOOD_PLAN_SHARE:.0%} of the lines cross)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
