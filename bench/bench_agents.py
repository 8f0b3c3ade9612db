"""Benchmark: bots and the simulator on small fake games (and the real default ruleset
once ``rulecraft.load`` exists).

    .venv/bin/python bench/bench_agents.py

Measures random playouts per second through ``play_game`` (tic-tac-toe, whose random
outcome rates .585 / .288 / .127 double as a correctness check), MCTS iterations per
second, and ``simulate`` throughput with 1 and 2 worker processes.  Prints one
``SUMMARY agents:`` line and writes ``bench/baseline/agents.json``.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fake games live with the tests

from tests.agents.fakegames import HiddenDuel, Nim, TicTacToe, TicTacToeFactory  # noqa: E402

from rulecraft.interpreter.agents import MCTSAgent, RandomAgent, play_game  # noqa: E402
from rulecraft.interpreter.decision import Decision, Option, Result  # noqa: E402
from rulecraft.interpreter.simulator import simulate  # noqa: E402


class LeanTicTacToe:
    """A minimal GameLike tic-tac-toe (tuple board, no history) so the driver's own cost
    (play_game + RandomAgent + Decision records) shows, not the fake games' JSON copies."""

    LINES = TicTacToe.LINES
    num_players = 2

    def __init__(self, cells: tuple[int, ...] = (-1,) * 9, to_move: int = 0) -> None:
        self.cells, self.to_move = cells, to_move
        self.result: Result | None = None

    @property
    def decision(self) -> Decision | None:
        if self.result is not None:
            return None
        free = tuple(_CELL_OPTIONS[i] for i, c in enumerate(self.cells) if c < 0)
        return Decision(self.to_move, "Mark", free)

    def choose(self, option_id: str) -> None:
        cells = list(self.cells)
        cells[int(option_id[5:])] = self.to_move
        self.cells = tuple(cells)
        for a, b, c in self.LINES:
            if cells[a] >= 0 and cells[a] == cells[b] == cells[c]:
                self.result = Result((cells[a],))
                return
        if min(cells) >= 0:
            self.result = Result((), draw=True)
        self.to_move = 1 - self.to_move

    def clone(self) -> LeanTicTacToe:
        twin = LeanTicTacToe(self.cells, self.to_move)
        twin.result = self.result
        return twin

    def view(self, seat: int) -> dict[str, Any]:
        return {"cells": list(self.cells), "to_move": self.to_move}

    def determinize(self, seat: int, seed: int) -> LeanTicTacToe:
        return self.clone()

    def evaluate(self, seat: int) -> float:
        return 0.0


_CELL_OPTIONS = tuple(Option(f"cell:{i}", str(i)) for i in range(9))


def random_playouts(n: int, make: Any = TicTacToe, label: str = "fake") -> dict[str, Any]:
    outcomes = [0, 0, 0]
    start = time.perf_counter()
    for i in range(n):
        result = play_game(make(), [RandomAgent(i), RandomAgent(i + 1_000_000)]).result
        outcomes[2 if result.draw else result.winners[0]] += 1
    elapsed = time.perf_counter() - start
    return {
        "game": f"tic-tac-toe ({label})",
        "playouts": n,
        "playouts_per_s": n / elapsed,
        "rates_first_second_draw": [round(k / n, 4) for k in outcomes],
        "expected_rates": [0.585, 0.288, 0.127],
    }


def mcts_speed(iterations: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, game in (
        ("tic-tac-toe", TicTacToe()),
        ("tic-tac-toe-lean", LeanTicTacToe()),
        ("nim-3-4-5", Nim((3, 4, 5))),
        ("hidden-duel", HiddenDuel(0)),
    ):
        agent = MCTSAgent(0, iterations=iterations)
        start = time.perf_counter()
        agent.choose(game)
        elapsed = time.perf_counter() - start
        out[name] = {"iterations": iterations, "iterations_per_s": iterations / elapsed}
    return out


def simulate_speed(n: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for workers in (1, 2):
        start = time.perf_counter()
        report = simulate(TicTacToeFactory(), n, ["random"], seed=0, workers=workers)
        elapsed = time.perf_counter() - start
        out[f"workers_{workers}"] = {
            "games": report.games,
            "games_per_s": n / elapsed,
            "wall_s": elapsed,
        }
    return out


def real_ruleset(n: int) -> dict[str, Any] | None:
    """Random games of the bundled default ruleset, if the engine can load it yet."""
    try:
        from rulecraft.interpreter.simulator import RulesetGameFactory

        factory = RulesetGameFactory("default", 2)
        factory(0)
    except Exception as exc:
        return {"skipped": f"engine not available: {exc}"}
    start = time.perf_counter()
    report = simulate(factory, n, ["random"], seed=0, workers=1, errors_dir=None)
    elapsed = time.perf_counter() - start
    return {
        "ruleset": "default",
        "games": n,
        "games_per_s": n / elapsed,
        "errors": len(report.errors),
        "decisions_mean": report.decisions.mean,
    }


def main() -> int:
    results: dict[str, Any] = {
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "date": datetime.date.today().isoformat(),
        },
        "random_playouts": random_playouts(20_000),
        "random_playouts_lean": random_playouts(50_000, LeanTicTacToe, "lean, in bench"),
        "mcts": mcts_speed(2_000),
        "simulate_tic_tac_toe_random": simulate_speed(20_000),
        "default_ruleset_random": real_ruleset(200),
    }
    out = ROOT / "bench" / "baseline" / "agents.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    rp = results["random_playouts"]
    sim = results["simulate_tic_tac_toe_random"]
    print(
        "SUMMARY agents: "
        f"random ttt playouts {rp['playouts_per_s']:,.0f}/s "
        f"(rates {rp['rates_first_second_draw']}, expected [0.585, 0.288, 0.127]), "
        f"lean {results['random_playouts_lean']['playouts_per_s']:,.0f}/s; "
        f"mcts ttt {results['mcts']['tic-tac-toe']['iterations_per_s']:,.0f} it/s "
        f"(lean {results['mcts']['tic-tac-toe-lean']['iterations_per_s']:,.0f}); "
        f"simulate {sim['workers_1']['games_per_s']:,.0f} games/s x1, "
        f"{sim['workers_2']['games_per_s']:,.0f} games/s x2"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
