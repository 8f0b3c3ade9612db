"""Root-parallel MCTS: the same search run in several processes, their root visits summed.

Each worker process runs an independent :class:`~rulecraft.bots.agents.MCTSAgent` (its own
random stream, the same budget) from the same position, and the option visited most over
all of them is played (Chaslot, Winands and van den Herik, "Parallel Monte-Carlo Tree
Search", 2008: root parallelisation).  With ``N`` workers a decision costs about the wall
time of one search and ``N`` times its CPU time, and sees ``N`` times as many iterations.

A game goes to a worker as its state (plain JSON data) and the folder of its ruleset, which
each worker loads once; so this works for games of a compiled ruleset (``rulecraft.load``).
Any other :class:`~rulecraft.runtime.protocols.GameLike`, and any game inside a simulation
worker process (which may not start processes of its own), gets the same searches one after
the other in this process: the same answer, without the speed-up.

``mcts:200/p2`` names it in agent specs (``rulecraft simulate --agents``, the REPL's
``--seat``).  The answer depends only on the seed, the position and the budget: the
workers' seeds come from this agent's random stream, and their counts are summed in order.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(seed=3)
>>> agent = RootParallelMCTS(MCTSAgent(7, iterations=40), workers=2)
>>> agent.name
'mcts:40/p2'
>>> agent.choose(game) in game.legal_ids()
True
>>> sum(agent.last_visits.values())
80
>>> agent.close()
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rulecraft.bots.agents import MCTSAgent, pending_decision
from rulecraft.runtime.protocols import GameLike
from rulecraft.runtime.state import State

__all__ = ["RootParallelMCTS"]

#: The rulesets a worker process has loaded, by folder (one load per process).
_LOADED: dict[str, Any] = {}


#: An MCTS search's configuration: :meth:`MCTSAgent.settings` (keyword arguments of
#: :class:`MCTSAgent` but the seed; plain values, so it pickles to a worker).
Budget = dict[str, Any]


def _searcher(seed: int, budget: Budget) -> MCTSAgent:
    return MCTSAgent(seed, **budget)


def _search(root: str, state: State, seed: int, budget: Budget) -> dict[str, int]:
    """In a worker: the root visits of one search of ``state``."""
    from rulecraft.compile.load import load
    from rulecraft.runtime.game import Game

    ruleset = _LOADED.get(root)
    if ruleset is None:
        ruleset = _LOADED[root] = load(root)
    game = Game(ruleset, state, None, None)
    return _searcher(seed, budget).root_visits(game)


class RootParallelMCTS:
    """``workers`` searches of ``base``'s budget in as many processes; plays the option with
    the most visits summed over them (ties broken by ``base``'s random stream)."""

    def __init__(self, base: MCTSAgent, workers: int) -> None:
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.base = base
        self.workers = workers
        self.name = f"{base.name}/p{workers}"
        #: The summed root visits of the last decision searched (for tests and benchmarks).
        self.last_visits: dict[str, int] = {}
        self._pool: ProcessPoolExecutor | None = None

    def choose(self, game: GameLike) -> str:
        decision = pending_decision(game)
        if len(decision.options) == 1:
            return decision.options[0].id
        budget: Budget = self.base.settings()
        seeds = [self.base.rng.getrandbits(62) for _ in range(self.workers)]
        root = _ruleset_folder(game)
        total: Counter[str] = Counter()
        if root is None or multiprocessing.current_process().daemon:
            # Not a compiled ruleset, or inside a simulation worker (which may not start
            # processes): the same searches one after the other, so the same answer.
            for seed in seeds:
                total.update(_searcher(seed, budget).root_visits(game))
        else:
            state = game.state  # type: ignore[attr-defined]
            pool = self._workers()
            futures = [pool.submit(_search, root, state, seed, budget) for seed in seeds]
            for future in futures:  # in submission order: the sum does not depend on timing
                total.update(future.result())
        self.last_visits = dict(total)
        return self.base.pick(decision.ids, self.last_visits)

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the caller may run threads (the REPL's prompt) that a fork
            # would copy in a locked state
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (they also stop when this process exits)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _ruleset_folder(game: GameLike) -> str | None:
    """The folder of the compiled ruleset ``game`` plays, if it is one."""
    program = getattr(getattr(game, "ruleset", None), "program", None)
    root = getattr(program, "root", "")
    return str(Path(root).resolve()) if root and hasattr(game, "state") else None
