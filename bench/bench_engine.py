"""Benchmark: the rulecraft engine against OpenSpiel, and per bundled ruleset.

    .venv/bin/python bench/bench_engine.py            # measure, write the baseline
    .venv/bin/python bench/bench_engine.py --profile  # cProfile of the playout loop only
    .venv/bin/python bench/bench_engine.py --against HEAD~1 [RULESET ...]  # old vs new engine

In one run, side by side:

* random playouts per second, all driven from Python the same way (clone the start state,
  pick uniformly among the legal moves until the game is over): rulecraft Tic-Tac-Toe and
  Connect Four against OpenSpiel's pure-Python ``python_tic_tac_toe`` and its C++
  ``tic_tac_toe`` and ``connect_four`` (when ``open_spiel`` is installed: the ``bench``
  extra).  Each is timed in several interleaved rounds; the median round counts.
* the random Tic-Tac-Toe outcome rates (first / second / draw), expected .585/.288/.127;
* per bundled ruleset (``rulesets/*/ruleset.yaml`` globbed at run time): decisions per
  second under random play, ``clone()`` time, save round trip time (``to_json`` +
  ``json.dumps`` + ``json.loads`` + ``Game.from_json``) and its size in bytes, and the
  cost of ``clone()`` + ``choose()`` at the start of a game against deep into a long one
  (their ratio should stay near 1: a decision must not get dearer as history grows).

Prints one ``SUMMARY engine:`` line and writes ``bench/baseline/engine.json``.

``--against REV`` measures the engine of git revision ``REV`` (its ``src/`` exported to a
temporary folder) and the working tree's side by side, in interleaved rounds, each round in
a fresh process (two versions of one package cannot share a process): random playouts per
CPU second of Tic-Tac-Toe and Connect Four (from a clone of the start) and of Radlands and
Waste Knights (a new game per playout, seeds 0, 1, ..., ``new_game`` included), and the
ratio new / old of the median rounds.  Nothing is written; ``SUMMARY engine-against:`` says
it.  This is how a change to the engine shows its gain against the engine before it.
``RULECRAFT_BENCH_SRC`` names the new side's ``src/`` (say ``build/compiled/src``, the
runtime compiled with mypyc); several, joined with ``:``, are each measured against the old
engine in the same interleaved rounds.  ``--games N`` makes each round fixed work: every
side plays the same N seeds (a timed round plays more games on the faster side, so the
sides' games differ and the spread of game lengths moves the ratio); ``--rounds K`` sets
the number of rounds (3).  The summary gives each round's own ratio and their median too.
``--its-rulesets`` gives the old engine the rulesets
of ``REV`` (exported with its ``src/``) instead of the working tree's: for an engine far
back, which cannot read today's rulesets; the two sides then play their own versions of each
game, which the summary says.  ``--bot SPEC`` times whole games of that agent against
``random`` instead of random playouts (``--games`` of them a round, default 4, on seeds
``1000 * round`` on, the bot's seat alternating, as ``bench_agents.py --cpu`` plays them),
and gives each side's CPU seconds a game and milliseconds a decision (with
``--its-rulesets`` the sides play other games, of other lengths): the MCTS target's time
against the engine the issue started from, in one run::

    RULECRAFT_BENCH_SRC=build/compiled/src .venv/bin/python bench/bench_engine.py \
        --against 6943e47 --its-rulesets --bot mcts:100/d30 --rounds 1 radlands
"""

from __future__ import annotations

import cProfile
import datetime
import importlib
import io
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))  # benchkit, also when loaded by path

from benchkit import bot_games, engine_build, engine_src  # noqa: E402

sys.path.insert(0, str(engine_src()))

import rulecraft  # noqa: E402
from rulecraft import Game, Ruleset  # noqa: E402  (the public names: older engines too)

# CPU time of this process, not wall time: other developers' test runs share the two cores,
# and wall time would charge their work to whichever engine happened to be running.
clock = time.process_time

ROUNDS = 3  # interleaved timing rounds per playout engine; the median round counts
ROUND_S = 2.0  # seconds per round
RATE_PLAYOUTS = 10_000  # rulecraft Tic-Tac-Toe playouts for the outcome rates
EXPECTED_TTT_RATES = (0.585, 0.288, 0.127)
DECISION_CAP = 5_000  # a random game longer than this is cut (and counted as cut)
RULESET_PLAY_S = 2.0  # random play per ruleset for decisions/s
MICRO_S = 0.4  # time box for each micro measurement (clone, save round trip, ...)

# ---------------------------------------------------------------- playout drivers
# Each driver runs playouts for about ``seconds`` and returns (playouts, elapsed, outcomes)
# with outcomes counted as [first seat wins, second seat wins, draw].

Driver = Callable[[random.Random, float], tuple[int, float, list[int]]]


def rulecraft_driver(ruleset: Ruleset) -> Driver:
    game = ruleset.new_game(seed=0)

    def run(rng: random.Random, seconds: float) -> tuple[int, float, list[int]]:
        outcomes = [0, 0, 0]
        n = 0
        start = clock()
        deadline = start + seconds
        while True:
            g = game.clone()
            while g.result is None:
                g.choose(rng.choice(g.legal_ids()))
            result = g.result
            outcomes[2 if result.draw else result.winners[0]] += 1
            n += 1
            if n % 16 == 0 and clock() >= deadline:
                break
        return n, clock() - start, outcomes

    return run


def openspiel_driver(short_name: str) -> Driver:
    import pyspiel

    state0 = pyspiel.load_game(short_name).new_initial_state()

    def run(rng: random.Random, seconds: float) -> tuple[int, float, list[int]]:
        outcomes = [0, 0, 0]
        n = 0
        start = clock()
        deadline = start + seconds
        while True:
            s = state0.clone()
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            returns = s.returns()
            outcomes[0 if returns[0] > 0 else 1 if returns[1] > 0 else 2] += 1
            n += 1
            if n % 16 == 0 and clock() >= deadline:
                break
        return n, clock() - start, outcomes

    return run


def load_openspiel() -> tuple[dict[str, Driver], str | None]:
    """The OpenSpiel drivers, or none and the reason."""
    try:
        import pyspiel  # noqa: F401

        importlib.import_module("open_spiel.python.games")  # registers python_tic_tac_toe
    except Exception as exc:  # not installed, or a broken wheel
        return {}, f"open_spiel not available: {type(exc).__name__}: {exc}"
    return {
        "openspiel_python_tic_tac_toe": openspiel_driver("python_tic_tac_toe"),
        "openspiel_cpp_tic_tac_toe": openspiel_driver("tic_tac_toe"),
        "openspiel_cpp_connect_four": openspiel_driver("connect_four"),
    }, None


def playouts_side_by_side(drivers: dict[str, Driver]) -> dict[str, Any]:
    """Every driver in ``ROUNDS`` interleaved rounds, so drift of the machine hits all."""
    rates: dict[str, list[float]] = {name: [] for name in drivers}
    outcomes: dict[str, list[int]] = {name: [0, 0, 0] for name in drivers}
    played: dict[str, int] = dict.fromkeys(drivers, 0)
    for r in range(ROUNDS):
        for i, (name, run) in enumerate(drivers.items()):
            n, elapsed, counts = run(random.Random(1000 * r + i), ROUND_S)
            rates[name].append(n / elapsed)
            played[name] += n
            outcomes[name] = [a + b for a, b in zip(outcomes[name], counts, strict=True)]
    return {
        name: {
            "playouts_per_s": statistics.median(rates[name]),
            "rounds_playouts_per_s": [round(x, 1) for x in rates[name]],
            "playouts": played[name],
            "rates_first_second_draw": [round(k / played[name], 4) for k in outcomes[name]],
        }
        for name in drivers
    }


def tic_tac_toe_rates(ruleset: Ruleset, n: int) -> dict[str, Any]:
    """Outcome rates of ``n`` random rulecraft Tic-Tac-Toe playouts (a correctness check)."""
    game = ruleset.new_game(seed=0)
    rng = random.Random(7)
    counts = [0, 0, 0]
    start = clock()
    for _ in range(n):
        g = game.clone()
        while g.result is None:
            g.choose(rng.choice(g.legal_ids()))
        result = g.result
        counts[2 if result.draw else result.winners[0]] += 1
    elapsed = clock() - start
    rates = [k / n for k in counts]
    # Three standard errors of a binomial proportion: a fair loop lands inside nearly always.
    tolerance = [3 * (p * (1 - p) / n) ** 0.5 for p in EXPECTED_TTT_RATES]
    return {
        "playouts": n,
        "playouts_per_s": n / elapsed,
        "rates_first_second_draw": [round(x, 4) for x in rates],
        "expected": list(EXPECTED_TTT_RATES),
        "within_3_standard_errors": all(
            abs(r - e) <= t for r, e, t in zip(rates, EXPECTED_TTT_RATES, tolerance, strict=True)
        ),
    }


# ---------------------------------------------------------------- per ruleset


def per_call_us(fn: Callable[[], object], seconds: float = MICRO_S) -> float:
    """Median microseconds per call of ``fn`` over batches filling about ``seconds``."""
    fn()  # warm up (lazy caches, imports)
    batch = 1
    while True:  # grow the batch until one takes ~10 ms, so timer overhead is negligible
        t = clock()
        for _ in range(batch):
            fn()
        dt = clock() - t
        if dt >= 0.01 or batch >= 1 << 16:
            break
        batch *= 2
    samples: list[float] = []
    deadline = clock() + seconds
    while clock() < deadline or len(samples) < 3:
        t = clock()
        for _ in range(batch):
            fn()
        samples.append((clock() - t) / batch)
    return statistics.median(samples) * 1e6


def random_game_choices(ruleset: Ruleset, seed: int) -> tuple[list[str], bool]:
    """The choices of one random game (seed also picks the moves) and whether it ended."""
    game = ruleset.new_game(seed=seed)
    rng = random.Random(seed)
    choices: list[str] = []
    while game.result is None and len(choices) < DECISION_CAP:
        option = rng.choice(game.legal_ids())
        game.choose(option)
        choices.append(option)
    return choices, game.result is not None


def decisions_per_second(ruleset: Ruleset) -> dict[str, Any]:
    """Random play from fresh games (seeds 0, 1, ...; new_game is not timed)."""
    decisions = games = cut = 0
    elapsed = 0.0
    seed = 0
    while elapsed < RULESET_PLAY_S:
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        n = 0
        t = clock()
        while game.result is None and n < DECISION_CAP:
            game.choose(rng.choice(game.legal_ids()))
            n += 1
        elapsed += clock() - t
        decisions += n
        games += 1
        cut += game.result is None
        seed += 1
    return {
        "decisions_per_s": decisions / elapsed,
        "games": games,
        "games_cut_at_cap": cut,
        "mean_decisions_per_game": decisions / games,
    }


def deep_game(
    ruleset: Ruleset, tries: int = 5, replays: int = 3
) -> tuple[Game, int, list[tuple[float, float]]]:
    """The longest of ``tries`` random games, replayed (with its log and undo history) up to
    its last decision: a state deep into a long game.

    Also, for each decision of that replay, the CPU seconds of the same ``choose`` on the
    game kept with its history and on a fresh ``clone()`` of it (no log, no undo record):
    a pair at the same position, so the game's own phases cancel out.  The game is
    replayed ``replays`` times and each decision's times are the medians of its replays:
    one pause of the garbage collector falls in one replay's decision, and a single pass
    once doubled a quarter's ratio by it."""
    longest: list[str] = []
    longest_seed = 0
    for seed in range(tries):
        choices, _ = random_game_choices(ruleset, seed)
        if len(choices) > len(longest):
            longest, longest_seed = choices, seed
    keep = longest[:-1] if longest else []
    runs: list[list[tuple[float, float]]] = []
    for _ in range(replays):
        game = ruleset.new_game(seed=longest_seed)
        pairs: list[tuple[float, float]] = []
        for option in keep:
            twin = game.clone()
            t = clock()
            twin.choose(option)
            without = clock() - t
            t = clock()
            game.choose(option)
            pairs.append((clock() - t, without))
        runs.append(pairs)
    medians = [
        (statistics.median(w for w, _ in same), statistics.median(c for _, c in same))
        for same in zip(*runs, strict=True)
    ]
    return game, len(keep), medians


def along_history(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """``choose`` with history over ``choose`` on a clone, first against last quarter of the
    game: if keeping the log and the record made decisions dearer as they grow, the last
    quarter's ratio would exceed the first's."""
    if len(pairs) < 4:
        return {"skipped": "game too short"}
    q = len(pairs) // 4

    def ratio_of(part: list[tuple[float, float]]) -> float:
        return sum(w for w, _ in part) / sum(c for _, c in part)

    first, last = ratio_of(pairs[:q]), ratio_of(pairs[-q:])
    return {
        "with_history_over_clone_first_quarter": first,
        "with_history_over_clone_last_quarter": last,
        "last_over_first": last / first,
        "choose_us_last_quarter": statistics.fmean(w for w, _ in pairs[-q:]) * 1e6,
    }


def save_round_trip(ruleset: Ruleset, game: Game) -> Game:
    data = json.loads(json.dumps(game.to_json()))
    return Game.from_json(ruleset, data)


def clone_and_choose(game: Game, rng: random.Random) -> Callable[[], object]:
    def step() -> None:
        g = game.clone()
        g.choose(rng.choice(g.legal_ids()))

    return step


def measure_ruleset(path: Path) -> dict[str, Any]:
    try:
        ruleset = rulecraft.load(path)
        start_game = ruleset.new_game(seed=0)
    except Exception as exc:  # another developer's ruleset may be mid-edit
        return {"skipped": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
    out: dict[str, Any] = {"ruleset": ruleset.name}
    try:
        out["new_game_us"] = per_call_us(lambda: ruleset.new_game(seed=0))
        out["random_play"] = decisions_per_second(ruleset)
        deep, depth, replay_pairs = deep_game(ruleset)
        out["deep_game_decisions"] = depth
        out["choose_along_one_game_with_log"] = along_history(replay_pairs)
        out["clone_us"] = {
            "start": per_call_us(start_game.clone),
            "deep": per_call_us(deep.clone),
        }
        out["save_round_trip_us"] = {
            "start": per_call_us(lambda: save_round_trip(ruleset, start_game)),
            "deep": per_call_us(lambda: save_round_trip(ruleset, deep)),
        }
        out["save_bytes"] = {
            "start": len(json.dumps(start_game.to_json())),
            "deep": len(json.dumps(deep.to_json())),
            "deep_state_only": len(json.dumps(deep.state)),
        }
        if save_round_trip(ruleset, deep).state_hash() != deep.state_hash():
            out["save_round_trip_error"] = "the loaded state differs from the saved one"
        start_us = per_call_us(clone_and_choose(start_game, random.Random(1)))
        deep_us = per_call_us(clone_and_choose(deep, random.Random(1)))
        out["clone_plus_choose_us"] = {
            "start": start_us,
            "deep": deep_us,
            "deep_over_start": deep_us / start_us,
        }
    except Exception as exc:  # report, keep measuring the other rulesets
        out["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    return out


# ---------------------------------------------------------------- report


def machine_info() -> dict[str, Any]:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    try:
        openspiel = metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        openspiel = None
    return {
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "engine_src": os.environ.get("RULECRAFT_BENCH_SRC", "working tree"),
        "engine": engine_build(),
        "load_average_1min_at_start": round(os.getloadavg()[0], 2),
        "open_spiel": openspiel,
    }


def runtime_hint(build: str) -> str:
    """What the summary adds after the runtime's name: the pure-Python runtime plays about
    3x slower than the compiled one (a wheel's, ``make compiled``'s), so a run of the pure
    one while a compiled one is built says how to measure that instead (on 4 December a
    pure run's ratios, 0.03x-0.04x, were read as a loaded host's).

    >>> runtime_hint("compiled (mypyc)")
    ''
    """
    compiled = ROOT / "build" / "compiled" / "src"
    if build != "pure Python" or not compiled.is_dir():
        return ""
    return f" (RULECRAFT_BENCH_SRC={compiled.relative_to(ROOT)} measures the compiled one)"


def ratio(results: dict[str, Any], a: str, b: str) -> float | None:
    if a in results and b in results:
        return float(results[a]["playouts_per_s"] / results[b]["playouts_per_s"])
    return None


def fmt_ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3g}x"


def profile_playouts(seconds: float = 5.0, top: int = 25) -> str:
    """cProfile of rulecraft random playouts (Connect Four, then Tic-Tac-Toe)."""
    out = io.StringIO()
    for name in ("connect4", "tictactoe"):
        run = rulecraft_driver(rulecraft.load(ROOT / "rulesets" / name))
        profiler = cProfile.Profile()
        profiler.enable()
        n, _, _ = run(random.Random(0), seconds)
        profiler.disable()
        out.write(f"==== {name}: {n} playouts under cProfile\n")
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------- old engine vs new

AGAINST_RULESETS = ("tictactoe", "connect4", "radlands", "waste_knights")
AGAINST_ROUNDS = 3
AGAINST_ROUND_S = 3.0
AGAINST_BOT_GAMES = 4  # games of a bot (--bot) each side plays in a round
#: Rulesets whose playouts start from a clone of one start state (OpenSpiel's loop); the
#: others start a new game per playout, so their deals and setups differ.
FROM_CLONE = ("tictactoe", "connect4")


def worker_playouts(
    name: str, seconds: float, seed: int, games_wanted: int | None = None
) -> dict[str, float]:
    """Random playouts of ``name`` for about ``seconds`` CPU seconds, in this process; or,
    with ``games_wanted``, exactly that many (fixed work: both sides play the same seeds)."""
    # the same rulesets for both engines, unless --its-rulesets gave the old one its own
    rulesets = Path(os.environ.get("RULECRAFT_BENCH_RULESETS", str(ROOT / "rulesets")))
    ruleset = rulecraft.load(rulesets / name)
    rng = random.Random(seed)
    start = ruleset.new_game(seed=0)
    games = decisions = 0
    t0 = clock()
    while True:
        game = start.clone() if name in FROM_CLONE else ruleset.new_game(seed=seed + games)
        n = 0
        while game.result is None and n < DECISION_CAP:
            game.choose(rng.choice(game.legal_ids()))
            n += 1
        games += 1
        decisions += n
        if games_wanted is not None:
            if games >= games_wanted:
                break
        elif clock() - t0 >= seconds:
            break
    elapsed = clock() - t0
    return {"games": games, "decisions": decisions, "cpu_s": elapsed}


def worker_bot_games(name: str, spec: str, games: int, seed: int) -> dict[str, float]:
    """:func:`benchkit.bot_games` in this process, summed: the agents come from
    ``rulecraft.bots.agents``, or ``rulecraft.interpreter.agents`` in an engine from before
    the package was layered."""
    try:
        agents = importlib.import_module("rulecraft.bots.agents")
    except ImportError:
        agents = importlib.import_module("rulecraft.interpreter.agents")
    rulesets = Path(os.environ.get("RULECRAFT_BENCH_RULESETS", str(ROOT / "rulesets")))
    ruleset = rulecraft.load(rulesets / name)
    played = list(bot_games(agents, ruleset, spec, games, seed))
    return {
        "games": games,
        "decisions": sum(game.decisions for _, _, game in played),
        "cpu_s": sum(cpu for _, cpu, _ in played),
    }


def export_revision(rev: str, into: Path, parts: tuple[str, ...] = ("src",)) -> Path:
    """``src/`` (and any other ``parts``) of git revision ``rev`` written under ``into``
    (the shared tree untouched); the exported ``src``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, *parts], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def run_worker(
    src: Path,
    name: str,
    seconds: float,
    seed: int,
    rulesets: Path | None = None,
    games: int | None = None,
    bot: str | None = None,
) -> dict[str, float]:
    """One round of :func:`worker_playouts` (or with ``bot``, of
    :func:`worker_bot_games`: then ``games`` is due) in a fresh process importing ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src), "RULECRAFT_BENCH_SRC": str(src)}
    env["RULECRAFT_BENCH_RULESETS"] = str(rulesets or ROOT / "rulesets")
    fixed = [str(games)] if games is not None else []
    if bot is not None:
        assert games is not None, "a bot plays a fixed number of games"
        fixed.append(bot)
    out = subprocess.run(
        [sys.executable, __file__, "--worker", name, str(seconds), str(seed), *fixed],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def new_sides() -> dict[str, Path]:
    """The engines measured against the old one: ``RULECRAFT_BENCH_SRC``'s (``:``-joined),
    else the working tree's ``src/``."""
    given = os.environ.get("RULECRAFT_BENCH_SRC")
    if not given:
        return {"working tree": ROOT / "src"}
    return {path: Path(path) for path in given.split(os.pathsep) if path}


def against(
    rev: str,
    names: list[str],
    its_rulesets: bool = False,
    games: int | None = None,
    rounds: int = AGAINST_ROUNDS,
    bot: str | None = None,
) -> int:
    """The engine of ``rev`` and the working tree's, side by side (see the module text);
    with ``bot``, whole games of that agent against ``random`` instead of random playouts."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="rulecraft-bench-") as tmp:
        parts = ("src", "rulesets") if its_rulesets else ("src",)
        old_src = export_revision(rev, Path(tmp), parts)
        old_rulesets = Path(tmp) / "rulesets" if its_rulesets else None
        engines = {"old": old_src, **new_sides()}
        rates: dict[str, dict[str, list[float]]] = {
            n: {label: [] for label in engines} for n in names
        }
        decision_rates: dict[str, dict[str, list[float]]] = {
            n: {label: [] for label in engines} for n in names
        }
        for r in range(rounds):
            for name in names:
                for label, src in engines.items():
                    own = old_rulesets if label == "old" else None
                    got = run_worker(src, name, AGAINST_ROUND_S, 1000 * r, own, games, bot)
                    rates[name][label].append(got["games"] / got["cpu_s"])
                    decision_rates[name][label].append(got["decisions"] / got["cpu_s"])
                    print(f"round {r} {name} {label}: {got}", flush=True)
    per_decision = decision_rates if bot is not None else None
    print(against_summary(rev, rates, its_rulesets, games, bot, per_decision))
    return 0


def against_summary(
    rev: str,
    rates: dict[str, dict[str, list[float]]],
    its_rulesets: bool,
    games: int | None = None,
    bot: str | None = None,
    per_decision: dict[str, dict[str, list[float]]] | None = None,
) -> str:
    """The ``SUMMARY engine-against:`` line: each new side's median over the old one's, and
    the median of the rounds' own ratios (each round runs the sides one after the other, so
    its ratio is less moved by what else the machine does at the time).  ``rates`` are
    games per CPU second; a ``bot``'s are given as seconds a game, and with
    ``per_decision`` (decisions per CPU second) as milliseconds a decision too: with
    ``--its-rulesets`` the two engines play other games, of other lengths."""
    parts = []
    rounds = 0
    for name, by_side in rates.items():
        rounds = len(by_side["old"])
        for label, got in by_side.items():
            if label == "old":
                continue
            old, new, gain = _gain(by_side["old"], got)
            if bot is None:
                change = f"{old:,.1f} -> {new:,.1f} playouts/s"
            else:
                change = f"{bot} {1 / old:,.2f} -> {1 / new:,.2f} s CPU a game"
            part = f"{name} [{label}] {change} ({gain})"
            if per_decision is not None:
                old_d, new_d, gain_d = _gain(per_decision[name]["old"], per_decision[name][label])
                part += f", {1000 / old_d:,.1f} -> {1000 / new_d:,.1f} ms a decision ({gain_d})"
            parts.append(part)
    load = os.getloadavg()[0]
    whose = f"{rev}'s own rulesets for {rev}" if its_rulesets else "the same rulesets"
    work = f"{games} games (seeds alike)" if games is not None else f"{AGAINST_ROUND_S} s"
    if bot is not None:
        work += f" of {bot} against random"
    return (
        f"SUMMARY engine-against: {rev} -> {', '.join(new_sides())}, {whose}, "
        f"CPU time, median of {rounds} interleaved rounds of {work}, "
        f"load {load:.1f} on {os.cpu_count()} cores: " + "; ".join(parts)
    )


def _gain(old_rates: list[float], new_rates: list[float]) -> tuple[float, float, str]:
    """The median rates of the old side and the new, and the gain in words: the medians'
    ratio, then each round's own ratio and their median."""
    old = statistics.median(old_rates)
    new = statistics.median(new_rates)
    paired = sorted(n / o for n, o in zip(new_rates, old_rates, strict=True))
    rounds = ", ".join(f"{x:.2f}x" for x in paired)
    return old, new, f"{new / old:.2f}x; rounds {rounds}, median {statistics.median(paired):.2f}x"


def against_from_args(rev: str, args: list[str]) -> int:
    """``--against REV [--its-rulesets] [--games N] [--rounds K] [--bot SPEC] [RULESET ...]``
    (a bot plays 4 games a round unless ``--games`` says otherwise)."""
    options: dict[str, int] = {}
    names: list[str] = []
    its = False
    bot = None
    rest = iter(args)
    for arg in rest:
        if arg == "--its-rulesets":
            its = True
        elif arg in ("--games", "--rounds"):
            options[arg[2:]] = int(next(rest))
        elif arg == "--bot":
            bot = next(rest)
            options.setdefault("games", AGAINST_BOT_GAMES)
        else:
            names.append(arg)
    return against(
        rev,
        names or list(AGAINST_RULESETS),
        its,
        games=options.get("games"),
        rounds=options.get("rounds", AGAINST_ROUNDS),
        bot=bot,
    )


def main(argv: list[str]) -> int:
    if "--profile" in argv:
        print(profile_playouts())
        return 0
    if argv[:1] == ["--worker"]:
        wanted = int(argv[4]) if len(argv) > 4 else None
        if len(argv) > 5:  # a bot's games
            assert wanted is not None
            print(json.dumps(worker_bot_games(argv[1], argv[5], wanted, int(argv[3]))))
            return 0
        print(json.dumps(worker_playouts(argv[1], float(argv[2]), int(argv[3]), wanted)))
        return 0
    if argv[:1] == ["--against"]:
        return against_from_args(argv[1], argv[2:])
    machine = machine_info()
    tictactoe = rulecraft.load(ROOT / "rulesets" / "tictactoe")
    connect4 = rulecraft.load(ROOT / "rulesets" / "connect4")
    drivers: dict[str, Driver] = {
        "rulecraft_tic_tac_toe": rulecraft_driver(tictactoe),
        "rulecraft_connect_four": rulecraft_driver(connect4),
    }
    openspiel_drivers, openspiel_missing = load_openspiel()
    drivers.update(openspiel_drivers)
    playouts = playouts_side_by_side(drivers)
    ratios = {
        "tic_tac_toe_rulecraft_over_openspiel_python": ratio(
            playouts, "rulecraft_tic_tac_toe", "openspiel_python_tic_tac_toe"
        ),
        "tic_tac_toe_rulecraft_over_openspiel_cpp": ratio(
            playouts, "rulecraft_tic_tac_toe", "openspiel_cpp_tic_tac_toe"
        ),
        "connect_four_rulecraft_over_openspiel_cpp": ratio(
            playouts, "rulecraft_connect_four", "openspiel_cpp_connect_four"
        ),
    }
    ttt_rates = tic_tac_toe_rates(tictactoe, RATE_PLAYOUTS)
    rulesets = {
        p.parent.name: measure_ruleset(p.parent)
        for p in sorted((ROOT / "rulesets").glob("*/ruleset.yaml"))
    }
    results = {
        "machine": machine,
        "method": {
            "playouts": "clone the start state, random legal move until over, all from Python; "
            f"{ROUNDS} interleaved rounds of {ROUND_S} s, median round",
            "micro": f"median of batches over {MICRO_S} s, microseconds per call",
            "decision_cap": DECISION_CAP,
            "clock": "time.process_time (CPU seconds of this process)",
        },
        "openspiel_missing": openspiel_missing,
        "playouts": playouts,
        "ratios": ratios,
        "tic_tac_toe_rates": ttt_rates,
        "rulesets": rulesets,
    }
    out = ROOT / "bench" / "baseline" / "engine.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")

    def rate(name: str) -> str:
        return f"{playouts[name]['playouts_per_s']:,.0f}/s" if name in playouts else "n/a"

    flat = ", ".join(
        f"{name} {r['clone_plus_choose_us']['deep_over_start']:.2f}x@{r['deep_game_decisions']}"
        for name, r in rulesets.items()
        if "clone_plus_choose_us" in r
    )
    history = ", ".join(
        f"{name} {r['choose_along_one_game_with_log']['last_over_first']:.2f}x"
        for name, r in rulesets.items()
        if "last_over_first" in r.get("choose_along_one_game_with_log", {})
    )
    dps = ", ".join(
        f"{name} {r['random_play']['decisions_per_s']:,.0f}"
        for name, r in rulesets.items()
        if "random_play" in r
    )
    skipped = [name for name, r in rulesets.items() if "skipped" in r or "error" in r]
    print(
        f"SUMMARY engine: {machine['engine']} runtime{runtime_hint(machine['engine'])}; "
        "playouts/s ttt "
        f"{rate('rulecraft_tic_tac_toe')} vs OpenSpiel py {rate('openspiel_python_tic_tac_toe')} "
        f"({fmt_ratio(ratios['tic_tac_toe_rulecraft_over_openspiel_python'])}), "
        f"C++ {rate('openspiel_cpp_tic_tac_toe')} "
        f"({fmt_ratio(ratios['tic_tac_toe_rulecraft_over_openspiel_cpp'])}); "
        f"c4 {rate('rulecraft_connect_four')} vs C++ {rate('openspiel_cpp_connect_four')} "
        f"({fmt_ratio(ratios['connect_four_rulecraft_over_openspiel_cpp'])}); "
        f"ttt rates {ttt_rates['rates_first_second_draw']} "
        f"(ok={ttt_rates['within_3_standard_errors']}); "
        f"decisions/s {dps}; clone+choose deep/start {flat}; "
        f"history cost (choose with log / on a clone) last/first quarter {history}"
        + (f"; skipped {skipped}" if skipped else "")
        + (f"; {openspiel_missing}" if openspiel_missing else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
