"""Play many games with bots, on every core, and summarise who wins and how long it takes.

``simulate(factory, n, agents, seed)`` plays game ``i`` as ``factory(seed + i)`` with the
agent specs per seat (one spec applies to every seat) and returns a
:class:`SimulationReport`.  The games are independent, so ``workers=K`` spreads chunks of
them over ``K`` processes and the report is the same whatever ``K`` is.

When the games expose ``start_seat`` (the seat that took the first turn), the report also
says how often the start player won (:class:`StartPlayerStats`) and how each start
position fared: the first-player advantage a designer balances against.  It also gives the
seats' final scores (``Result.scores``), the distribution of game lengths, and per-card
statistics (:mod:`rulecraft.tools.balance`).

Games run in-process, on ``workers`` local processes, or as Ray tasks (``backend="ray"``,
:mod:`rulecraft.tools.cluster`); the report is built from the outcomes sorted by seed, so
it is the same whatever ran them.

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
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.bots.agents import (
    DecisionLimitExceeded,
    decision_limit,
    game_rounds,
    make_agent,
    pending_decision,
)
from rulecraft.runtime.protocols import Agent, GameLike
from rulecraft.tools.balance import (
    CardStats,
    GameFacts,
    PositionStats,
    ScoreStats,
    card_stats,
    count_cards,
    position_stats,
    score_stats,
    wilson_interval,
)

__all__ = [
    "GameError",
    "GameOutcome",
    "LengthStats",
    "RulesetGameFactory",
    "SimulationReport",
    "StartPlayerStats",
    "play_one",
    "replay_choices",
    "simulate",
    "wilson_interval",
]

GameFactory = Callable[[int], GameLike]
ProgressCallback = Callable[[int, int], None]

DEFAULT_ERRORS_DIR = Path("simulate-errors")


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
    ``players`` seats (``None``: the manifest's ``players.default``); the ruleset is
    loaded once per process."""

    ruleset: str
    players: int | None = None

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


def game_is_cooperative(game: Any) -> bool | None:
    """Whether the ruleset can end with every seat winning or every seat losing together
    (an ``all_win`` or ``all_lose`` end), read from ``game.program`` when the game has
    one; ``None`` when it cannot tell."""
    ends = getattr(getattr(game, "program", None), "end_conditions", None)
    if ends is None:
        return None
    return any(getattr(end, "outcome", "") in ("all_win", "all_lose") for end in ends)


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
    #: the final scores by seat (``Result.scores``), empty when the game gives none
    scores: tuple[float, ...] = ()
    #: several winners in a cooperative game (not a shared victory in a competitive one)
    coop: bool = False
    #: ((seat, action, card definition), times) of this game: see rulecraft.tools.balance
    cards: tuple[tuple[tuple[int, str, str], int], ...] = ()


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """Totals over ``games`` simulated games.

    ``wins[s]`` counts the games seat ``s`` won (every winner of a game with several), so
    over finished games ``solo_wins + coop_wins + shared_wins + draws + no_winner ==
    games - len(errors)``.  A co-op win is one where the seats of a cooperative ruleset
    won together; a shared win is a competitive game that ended with several winners
    (a tie for first).  Seats are 0-based here and numbered from 1 in ``to_json`` and the
    printed reports.
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
    shared_wins: int = 0
    positions: PositionStats | None = None
    scores: tuple[ScoreStats, ...] = ()
    cards: tuple[CardStats, ...] = ()
    #: (decisions, games) pairs: the distribution of game lengths, by length
    length_counts: tuple[tuple[int, int], ...] = ()

    @property
    def finished(self) -> int:
        return self.games - len(self.errors)

    @property
    def solo_wins(self) -> int:
        """Finished games with exactly one winner."""
        return self.finished - self.coop_wins - self.shared_wins - self.draws - self.no_winner

    def win_rate(self, seat: int) -> tuple[float, float, float]:
        """Seat's win rate over finished games and its 95% Wilson interval."""
        n = self.finished
        low, high = wilson_interval(self.wins[seat], n)
        return (self.wins[seat] / n if n else 0.0, low, high)

    def to_json(self) -> dict[str, Any]:
        data = self._to_json()
        if self.start_player is not None:
            data["start_player"] = self.start_player.to_json()
        data["positions"] = None if self.positions is None else self.positions.to_json()
        data["scores"] = [s.to_json() for s in self.scores]
        data["cards"] = [c.to_json() for c in self.cards]
        data["length_counts"] = [list(pair) for pair in self.length_counts]
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
                    "seat": s + 1,
                    "agent": self.agents[s],
                    "wins": w,
                    "rate": self.win_rate(s)[0],
                    "wilson95": list(self.win_rate(s)[1:]),
                }
                for s, w in enumerate(self.wins)
            ],
            "solo_wins": self.solo_wins,
            "draws": self.draws,
            "coop_wins": self.coop_wins,
            "shared_wins": self.shared_wins,
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
    seats: list[int] = []
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
            seats.append(decision.seat)
            game.choose(option_id)
    except Exception:
        return GameOutcome(seed=seed, error=traceback.format_exc(), choices=tuple(choices))
    winners = tuple(result.winners)
    cooperative = game_is_cooperative(game)
    several = len(winners) > 1 and not result.draw
    return GameOutcome(
        seed=seed,
        winners=winners,
        draw=result.draw,
        decisions=len(choices),
        rounds=game_rounds(game),
        # read at the end: rules may pick the start player during setup decisions
        start_seat=game_start_seat(game),
        scores=_scores(result.scores, players),
        coop=several and (cooperative if cooperative is not None else len(winners) == players),
        cards=count_cards(zip(seats, choices, strict=True)),
    )


def _scores(scores: Mapping[int, float], players: int) -> tuple[float, ...]:
    """Scores by seat when the result gives one for every seat, else none."""
    if not scores or any(seat not in scores for seat in range(players)):
        return ()
    return tuple(float(scores[seat]) for seat in range(players))


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


Task = tuple[GameFactory, tuple[str, ...], list[int]]
BACKENDS = ("local", "ray")


def simulate(
    factory: GameFactory,
    n: int,
    agents: Sequence[str],
    seed: int = 0,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    errors_dir: Path | str | None = DEFAULT_ERRORS_DIR,
    chunk_size: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SimulationReport:
    """Play ``n`` games (game ``i`` is ``factory(seed + i)``) and report the totals.

    ``agents`` holds one spec per seat (or one for all seats, see :func:`make_agent`);
    ``workers > 1`` uses that many processes (``factory`` must then be picklable);
    ``backend="ray"`` runs batches of games as Ray tasks instead, on the cluster at
    ``address`` (``None``: a local Ray instance); ``progress(done, n)`` is called as
    batches finish; a replay file per failed game goes to ``errors_dir`` (``None``: none
    written).
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (choose {' or '.join(BACKENDS)})")
    for spec in agents:
        make_agent(spec, 0)  # fail fast on a bad spec, before any process starts
    players = factory(seed).num_players
    specs = seat_specs(agents, players)
    started = time.perf_counter()
    workers = max(1, min(workers, n)) if n else 1
    size = chunk_size or max(1, min(32, n // (workers * 8) or 1))
    seeds = [seed + i for i in range(n)]
    tasks: list[Task] = [(factory, specs, seeds[i : i + size]) for i in range(0, n, size)]
    outcomes: list[GameOutcome] = []

    def collect(batch: list[GameOutcome]) -> None:
        outcomes.extend(batch)
        if progress is not None:
            progress(len(outcomes), n)

    if backend == "ray":
        from rulecraft.tools.cluster import run_on_ray

        run_on_ray(_play_chunk, tasks, collect, address=address, num_cpus=workers)
    elif workers == 1:
        for task in tasks:
            collect(_play_chunk(task))
    else:
        with multiprocessing.get_context().Pool(workers) as pool:
            for batch in pool.imap(_play_chunk, tasks):
                collect(batch)
    return _report(outcomes, players, specs, seed, errors_dir, time.perf_counter() - started)


def _write_replay(
    out: GameOutcome, players: int, specs: tuple[str, ...], errors_dir: Path | str | None
) -> GameError:
    assert out.error is not None
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
    return GameError(out.seed, out.error, out.choices, replay)


def _report(
    outcomes: list[GameOutcome],
    players: int,
    specs: tuple[str, ...],
    seed: int,
    errors_dir: Path | str | None,
    elapsed: float,
) -> SimulationReport:
    # by seed: the report must not depend on which worker or task finished first
    ordered = sorted(outcomes, key=lambda o: o.seed)
    errors = [_write_replay(o, players, specs, errors_dir) for o in ordered if o.error]
    done = [o for o in ordered if o.error is None]
    wins = [0] * players
    for out in done:
        for w in out.winners:
            wins[w] += 1
    several = [o for o in done if not o.draw and len(o.winners) > 1]
    lengths = [o.decisions for o in done]
    rounds = [o.rounds for o in done if o.rounds is not None]
    facts = [GameFacts(players, o.winners, o.draw, o.start_seat, o.scores, o.cards) for o in done]
    return SimulationReport(
        games=len(ordered),
        players=players,
        agents=specs,
        seed=seed,
        wins=tuple(wins),
        draws=sum(o.draw for o in done),
        coop_wins=sum(o.coop for o in several),
        no_winner=sum(not o.draw and not o.winners for o in done),
        decisions=LengthStats.of(lengths),
        rounds=LengthStats.of(rounds) if rounds else None,
        errors=tuple(errors),
        start_player=_start_player(done, players),
        elapsed_s=elapsed,
        shared_wins=sum(not o.coop for o in several),
        positions=position_stats(facts, players),
        scores=score_stats(facts, players),
        cards=card_stats(facts),
        length_counts=tuple(sorted(Counter(lengths).items())),
    )


def _start_player(done: list[GameOutcome], players: int) -> StartPlayerStats | None:
    starts = [0] * players
    games = decided = wins = 0
    for out in done:
        if out.start_seat is None or not 0 <= out.start_seat < players:
            continue
        games += 1
        starts[out.start_seat] += 1
        if out.winners and not out.draw:
            decided += 1
            wins += out.start_seat in out.winners
    return StartPlayerStats(games, decided, wins, tuple(starts)) if games else None
