"""What the benchmark scripts share: where and when their numbers were taken, and how a
bot's whole games are played and timed.

>>> sorted(machine())
['cpu_count', 'date', 'engine', 'load_average_1m', 'platform', 'python']
"""

from __future__ import annotations

import datetime
import os
import platform
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any


def engine_src() -> Path:
    """The ``src/`` whose ``rulecraft`` a bench imports, put first on ``sys.path`` before
    anything imports it: ``RULECRAFT_BENCH_SRC`` (its first entry, when several are joined
    with ``:`` as ``bench_engine.py --against`` takes them; ``build/compiled/src`` times the
    runtime compiled with mypyc, ``make bench-compiled``), else this checkout's ``src/``."""
    given = os.environ.get("RULECRAFT_BENCH_SRC", "").split(os.pathsep)[0]
    return Path(given) if given else Path(__file__).resolve().parent.parent / "src"


def machine() -> dict[str, Any]:
    """The machine, the Python, the time (UTC) and the load when the numbers were taken."""
    return {
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "engine": engine_build(),
    }


def engine_build() -> str:
    """Which runtime the numbers are of: the mypyc-compiled one (``make compiled``, an
    installed wheel) or the pure-Python one."""
    try:
        import rulecraft.runtime.engine as engine
    except ImportError:
        return "unknown"
    return "pure Python" if str(engine.__file__).endswith(".py") else "compiled (mypyc)"


def bot_games(
    agents: ModuleType, ruleset: Any, spec: str, games: int, seed: int = 0
) -> Iterator[tuple[int, float, Any]]:
    """``games`` whole games of the agent ``spec`` against ``random`` on seeds ``seed``,
    ``seed + 1``, ...: the bot in seat ``i % 2`` of game ``i``, each agent seeded
    ``game_seed * 1009 + seat`` (as ``simulate`` seeds them); for each, its seed, the CPU
    seconds of its play (``time.process_time``) and the played game.  ``agents`` is the
    module with ``make_agent`` and ``play_game`` (``rulecraft.bots.agents``, or an older
    engine's), so any engine's games can be timed the same way.

    >>> import rulecraft, rulecraft.bots.agents as agents
    >>> played = list(bot_games(agents, rulecraft.load("tictactoe"), "random", 2))
    >>> [(seed, game.result is not None) for seed, _, game in played]
    [(0, True), (1, True)]
    """
    for i in range(games):
        game_seed = seed + i
        specs = [spec, "random"] if i % 2 == 0 else ["random", spec]
        seated = [agents.make_agent(sp, game_seed * 1009 + s) for s, sp in enumerate(specs)]
        game = ruleset.new_game(players=2, seed=game_seed)
        started = time.process_time()
        played = agents.play_game(game, seated)
        yield game_seed, time.process_time() - started, played
