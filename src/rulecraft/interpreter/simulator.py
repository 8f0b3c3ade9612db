"""Play many games with bots, on every core, and summarise who wins and how long it takes.

``simulate(factory, n, agents, seed)`` plays game ``i`` as ``factory(seed + i)`` with the
agent specs per seat (one spec applies to every seat) and returns a
:class:`SimulationReport`.  The games are independent, so ``workers=K`` spreads chunks of
them over ``K`` processes and the report is the same whatever ``K`` is.

When the games expose ``start_seat`` (the seat that took the first turn), the report also
says how often the start player won (:class:`StartPlayerStats`): the first-player advantage
a designer balances against.

Every game that raises, or runs past its bound on decisions, becomes an error entry with
its seed and a replay file: the simulator records the option ids it fed the game, so
``replay_choices(factory, seed, choices)`` reproduces the failure without the bots.

>>> [round(x, 3) for x in wilson_interval(8, 10)]
[0.49, 0.943]
"""

from __future__ import annotations

import functools
import json
import math
import multiprocessing
import os
import statistics
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.interpreter.agents import (
    DecisionLimitExceeded,
    decision_limit,
    game_rounds,
    make_agent,
    pending_decision,
)
from rulecraft.interpreter.protocols import Agent, GameLike

GameFactory = Callable[[int], GameLike]
ProgressCallback = Callable[[int, int], None]

DEFAULT_ERRORS_DIR = Path("simulate-errors")


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for ``z=1.96``); ``(0, 1)`` for no
    trials.  Unlike the normal approximation it stays inside [0, 1] for rates near 0 or 1.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@functools.cache
def _load_ruleset(ruleset: str) -> Any:
    # A per-process memo, deliberately: loading parses every card file, and each worker
    # process plays many games of the same ruleset.
    import rulecraft

    load: Callable[[str], Any] = rulecraft.load  # type: ignore[attr-defined,unused-ignore]
    return load(ruleset)


@dataclass(frozen=True, slots=True)
class RulesetGameFactory:
    """A picklable ``factory(seed)`` for a ruleset by name or path: a new game with
    ``players`` seats; the ruleset is loaded once per process."""

    ruleset: str
    players: int

    def __call__(self, seed: int) -> GameLike:
        game: GameLike = _load_ruleset(self.ruleset).new_game(players=self.players, seed=seed)
        return game


@dataclass(frozen=True, slots=True)
class LengthStats:
    """Distribution of a game-length measure over the games that finished."""

    count: int
    mean: float
    median: float
    p90: float
    max: int

    @classmethod
    def of(cls, values: Sequence[int]) -> LengthStats:
        """
        >>> LengthStats.of([1, 2, 3, 4, 10])
        LengthStats(count=5, mean=4.0, median=3.0, p90=10.0, max=10)
        """
        if not values:
            return cls(0, 0.0, 0.0, 0.0, 0)
        ordered = sorted(values)
        # nearest-rank p90: a value that occurred, and no interpolation surprises
        p90 = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
        return cls(
            count=len(ordered),
            mean=statistics.fmean(ordered),
            median=float(statistics.median(ordered)),
            p90=float(p90),
            max=ordered[-1],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "mean": self.mean,
            "median": self.median,
            "p90": self.p90,
            "max": self.max,
        }


@dataclass(frozen=True, slots=True)
class StartPlayerStats:
    """How the player who took the first turn fared, over the finished games that say who
    that was (``start_seat``).

    ``decided`` counts the games somebody won (not drawn, not lost by everybody); ``wins``
    the games the start player won (in a co-op win every winner counts, the start player
    too); ``starts[s]`` the games seat ``s`` began.

    >>> stats = StartPlayerStats(games=100, decided=90, wins=54, starts=(50, 50))
    >>> round(stats.rate_decided()[0], 3), round(stats.rate_all()[0], 3)
    (0.6, 0.54)
    """

    games: int
    decided: int
    wins: int
    starts: tuple[int, ...]

    def rate_decided(self) -> tuple[float, float, float]:
        """Wins over decided games, with the 95% Wilson interval."""
        return _rate(self.wins, self.decided)

    def rate_all(self) -> tuple[float, float, float]:
        """Wins over all these games (a draw counts as not won), with the 95% Wilson
        interval."""
        return _rate(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        decided, all_games = self.rate_decided(), self.rate_all()
        return {
            "games": self.games,
            "decided": self.decided,
            "wins": self.wins,
            "rate_decided": decided[0],
            "wilson95_decided": list(decided[1:]),
            "rate_all": all_games[0],
            "wilson95_all": list(all_games[1:]),
            "starts": list(self.starts),
        }


def _rate(successes: int, trials: int) -> tuple[float, float, float]:
    low, high = wilson_interval(successes, trials)
    return (successes / trials if trials else 0.0, low, high)


def game_start_seat(game: Any) -> int | None:
    """``game.start_seat`` when the game tells who took the first turn (an ``int``), else
    ``None``."""
    seat = getattr(game, "start_seat", None)
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


@dataclass(frozen=True, slots=True)
class GameError:
    """A game that failed: its seed, the traceback and where its replay file is."""

    seed: int
    error: str
    choices: tuple[str, ...]
    replay_file: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "error": self.error,
            "decisions": len(self.choices),
            "replay_file": self.replay_file,
        }


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One simulated game, as a worker reports it back."""

    seed: int
    winners: tuple[int, ...] = ()
    draw: bool = False
    decisions: int = 0
    rounds: int | None = None
    error: str | None = None
    choices: tuple[str, ...] = ()  # kept only for failed games, for the replay file
    start_seat: int | None = None


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """Totals over ``games`` simulated games.

    ``wins[s]`` counts the games seat ``s`` won (in a co-op win every winner counts), so
    over finished games ``solo_wins + coop_wins + draws + no_winner == games - len(errors)``
    where ``solo_wins == sum(wins) - (winners of co-op wins)``.
    """

    games: int
    players: int
    agents: tuple[str, ...]
    seed: int
    wins: tuple[int, ...]
    draws: int
    coop_wins: int
    no_winner: int
    decisions: LengthStats
    rounds: LengthStats | None
    errors: tuple[GameError, ...]
    start_player: StartPlayerStats | None = None
    elapsed_s: float = field(default=0.0, compare=False)

    @property
    def finished(self) -> int:
        return self.games - len(self.errors)

    def win_rate(self, seat: int) -> tuple[float, float, float]:
        """Seat's win rate over finished games and its 95% Wilson interval."""
        n = self.finished
        low, high = wilson_interval(self.wins[seat], n)
        return (self.wins[seat] / n if n else 0.0, low, high)

    def to_json(self) -> dict[str, Any]:
        data = self._to_json()
        if self.start_player is not None:
            data["start_player"] = self.start_player.to_json()
        return data

    def _to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "finished": self.finished,
            "players": self.players,
            "agents": list(self.agents),
            "seed": self.seed,
            "wins": [
                {
                    "seat": s,
                    "agent": self.agents[s],
                    "wins": w,
                    "rate": self.win_rate(s)[0],
                    "wilson95": list(self.win_rate(s)[1:]),
                }
                for s, w in enumerate(self.wins)
            ],
            "draws": self.draws,
            "coop_wins": self.coop_wins,
            "no_winner": self.no_winner,
            "decisions": self.decisions.to_json(),
            "rounds": None if self.rounds is None else self.rounds.to_json(),
            "errors": [e.to_json() for e in self.errors],
            "elapsed_s": self.elapsed_s,
        }


def seat_specs(agents: Sequence[str], players: int) -> tuple[str, ...]:
    """One agent spec per seat: a single spec applies to every seat.

    >>> seat_specs(["random"], 3)
    ('random', 'random', 'random')
    """
    specs = tuple(s.strip() for s in agents)
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise ValueError(f"{len(specs)} agent specs for {players} seats (give 1 or {players})")
    return specs


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s agent in the game with ``game_seed``: distinct per seat
    and per game, and independent of which worker plays the game."""
    return game_seed * 1009 + seat


def play_one(factory: GameFactory, specs: Sequence[str], seed: int) -> GameOutcome:
    """Play game ``factory(seed)`` with fresh agents; any failure becomes an error outcome
    holding the option ids played so far."""
    choices: list[str] = []
    try:
        game = factory(seed)
        players = game.num_players
        agents: dict[int, Agent] = {
            s: make_agent(spec, agent_seed(seed, s))
            for s, spec in enumerate(seat_specs(specs, players))
        }
        limit = decision_limit(game)
        while (result := game.result) is None:
            if len(choices) >= limit:
                raise DecisionLimitExceeded(f"game still running after {limit} decisions")
            decision = pending_decision(game)
            option_id = agents[decision.seat].choose(game)
            choices.append(option_id)  # before choose: the failing choice is in the replay
            game.choose(option_id)
    except Exception:
        return GameOutcome(seed=seed, error=traceback.format_exc(), choices=tuple(choices))
    return GameOutcome(
        seed=seed,
        winners=tuple(result.winners),
        draw=result.draw,
        decisions=len(choices),
        rounds=game_rounds(game),
        # read at the end: rules may pick the start player during setup decisions
        start_seat=game_start_seat(game),
    )


def _play_chunk(task: tuple[GameFactory, tuple[str, ...], list[int]]) -> list[GameOutcome]:
    factory, specs, seeds = task
    return [play_one(factory, specs, s) for s in seeds]


def replay_choices(factory: GameFactory, seed: int, choices: Iterable[str]) -> GameLike:
    """``factory(seed)`` with ``choices`` played in order: reproduces a recorded game (and
    raises what it raised, including :class:`DecisionLimitExceeded`)."""
    game = factory(seed)
    limit = decision_limit(game)
    played = 0
    for option_id in choices:
        if game.result is None and played >= limit:
            raise DecisionLimitExceeded(f"game still running after {limit} decisions")
        game.choose(option_id)
        played += 1
    if game.result is None and played >= limit:
        raise DecisionLimitExceeded(f"game still running after {limit} decisions")
    return game


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON so that readers see the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_replay(path: Path) -> dict[str, Any]:
    """A replay file written by :func:`simulate`."""
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data


def simulate(
    factory: GameFactory,
    n: int,
    agents: Sequence[str],
    seed: int = 0,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    errors_dir: Path | str | None = DEFAULT_ERRORS_DIR,
    chunk_size: int | None = None,
) -> SimulationReport:
    """Play ``n`` games (game ``i`` is ``factory(seed + i)``) and report the totals.

    ``agents`` holds one spec per seat (or one for all seats, see :func:`make_agent`);
    ``workers > 1`` uses that many processes (``factory`` must then be picklable);
    ``progress(done, n)`` is called as chunks finish; a replay file per failed game goes
    to ``errors_dir`` (``None``: none written).
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    for spec in agents:
        make_agent(spec, 0)  # fail fast on a bad spec, before any process starts
    players = factory(seed).num_players
    specs = seat_specs(agents, players)
    started = time.perf_counter()
    workers = max(1, min(workers, n)) if n else 1
    size = chunk_size or max(1, min(32, n // (workers * 8) or 1))
    seeds = [seed + i for i in range(n)]
    tasks = [(factory, specs, seeds[i : i + size]) for i in range(0, n, size)]
    outcomes: list[GameOutcome] = []

    def collect(batch: list[GameOutcome]) -> None:
        outcomes.extend(batch)
        if progress is not None:
            progress(len(outcomes), n)

    if workers == 1:
        for task in tasks:
            collect(_play_chunk(task))
    else:
        with multiprocessing.get_context().Pool(workers) as pool:
            for batch in pool.imap(_play_chunk, tasks):
                collect(batch)
    return _report(outcomes, players, specs, seed, errors_dir, time.perf_counter() - started)


def _report(
    outcomes: list[GameOutcome],
    players: int,
    specs: tuple[str, ...],
    seed: int,
    errors_dir: Path | str | None,
    elapsed: float,
) -> SimulationReport:
    wins = [0] * players
    draws = coop = no_winner = 0
    lengths: list[int] = []
    rounds: list[int] = []
    errors: list[GameError] = []
    starts = [0] * players
    start_games = start_decided = start_wins = 0
    for out in outcomes:
        if out.error is not None:
            replay = None
            if errors_dir is not None:
                path = Path(errors_dir) / f"seed-{out.seed}.json"
                write_json_atomic(
                    path,
                    {
                        "seed": out.seed,
                        "players": players,
                        "agents": list(specs),
                        "choices": list(out.choices),
                        "error": out.error,
                    },
                )
                replay = str(path)
            errors.append(GameError(out.seed, out.error, out.choices, replay))
            continue
        for w in out.winners:
            wins[w] += 1
        if out.draw:
            draws += 1
        elif len(out.winners) > 1:
            coop += 1
        elif not out.winners:
            no_winner += 1
        lengths.append(out.decisions)
        if out.rounds is not None:
            rounds.append(out.rounds)
        if out.start_seat is not None and 0 <= out.start_seat < players:
            start_games += 1
            starts[out.start_seat] += 1
            if out.winners and not out.draw:
                start_decided += 1
                start_wins += out.start_seat in out.winners
    return SimulationReport(
        games=len(outcomes),
        players=players,
        agents=specs,
        seed=seed,
        wins=tuple(wins),
        draws=draws,
        coop_wins=coop,
        no_winner=no_winner,
        decisions=LengthStats.of(lengths),
        rounds=LengthStats.of(rounds) if rounds else None,
        errors=tuple(errors),
        start_player=(
            StartPlayerStats(start_games, start_decided, start_wins, tuple(starts))
            if start_games
            else None
        ),
        elapsed_s=elapsed,
    )
