"""Balance statistics over simulated games: win rates by start position, scores, and what
each card did for the seats that played it.

The simulator hands every finished game over as a :class:`GameFacts` (who won, the start
seat, the scores, which cards each seat chose through which action); the functions here
fold a list of them into typed records with 95% Wilson intervals.  Every record has
``to_json`` with seats and positions numbered from 1, as every user-facing output.

A card counts as "played" by a seat through an action when the seat chose an option of
that action naming the card (``act:ACTION:CARD``, what a ruleset's ``play``, ``buy`` or
``recruit`` action offers), and as "used" when the seat chose one of its abilities
(``ab:CARD:I``).  Cards are grouped by definition (``scout#2`` counts as ``scout``).  A
card the seat could not see is offered by position, never by id, so it is never counted.

>>> card_choice("act:buy:copper#3")
('buy', 'copper')
>>> card_choice("ab:scout#1:0")
('ability', 'scout')
>>> card_choice("act:place:b2") is None
True
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rulecraft.runtime.ids import component_def, is_component, split_option

ABILITY = "ability"


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for ``z=1.96``); ``(0, 1)`` for no
    trials.  Unlike the normal approximation it stays inside [0, 1] for rates near 0 or 1.

    >>> [round(x, 3) for x in wilson_interval(8, 10)]
    [0.49, 0.943]
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


def rate(successes: int, trials: int) -> tuple[float, float, float]:
    """``successes / trials`` (0 for no trials) with its 95% Wilson interval."""
    low, high = wilson_interval(successes, trials)
    return (successes / trials if trials else 0.0, low, high)


def _rate_json(successes: int, trials: int) -> dict[str, Any]:
    value, low, high = rate(successes, trials)
    return {"rate": value, "wilson95": [low, high]}


def card_choice(option_id: str) -> tuple[str, str] | None:
    """``(action, card definition)`` when an option id names a visible card through an
    action or an ability, else ``None``."""
    sort, name, target = split_option(option_id)
    if sort == "act" and is_component(target):
        return name, component_def(target)
    if sort == "ab" and is_component(name):
        return ABILITY, component_def(name)
    return None


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the balance statistics need of one finished game."""

    players: int
    winners: tuple[int, ...]
    draw: bool
    start_seat: int | None
    scores: tuple[float, ...]
    #: ((seat, action, card definition), times chosen in this game), sorted
    cards: tuple[tuple[tuple[int, str, str], int], ...]


def count_cards(choices: Iterable[tuple[int, str]]) -> tuple[tuple[tuple[int, str, str], int], ...]:
    """The ``cards`` of :class:`GameFacts` from ``(seat, option id)`` choices.

    >>> count_cards([(0, "act:buy:gold#1"), (0, "act:buy:gold#2"), (1, "pass")])
    (((0, 'buy', 'gold'), 2),)
    """
    counts: Counter[tuple[int, str, str]] = Counter()
    for seat, option_id in choices:
        found = card_choice(option_id)
        if found is not None:
            counts[(seat, found[0], found[1])] += 1
    return tuple(sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class PositionStats:
    """Wins by start position: position 1 took the first turn, position 2 is the next
    seat after it (in seat order), and so on; over the finished games that say who
    started."""

    games: int
    wins: tuple[int, ...]

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {"position": i + 1, "games": self.games, "wins": w, **_rate_json(w, self.games)}
            for i, w in enumerate(self.wins)
        ]


@dataclass(frozen=True, slots=True)
class ScoreStats:
    """One seat's final scores over the finished games that gave scores."""

    seat: int
    count: int
    mean: float
    stdev: float
    min: float
    max: float

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat + 1,
            "count": self.count,
            "mean": self.mean,
            "stdev": self.stdev,
            "min": self.min,
            "max": self.max,
        }


@dataclass(frozen=True, slots=True)
class CardStats:
    """One card definition chosen through one action: ``times`` chosen in all, by a
    seat in ``seat_games`` (seat, game) pairs, ``wins`` of which that seat won."""

    card: str
    action: str
    times: int
    seat_games: int
    wins: int

    def win_rate(self) -> tuple[float, float, float]:
        """Wins of the seats that chose it, with the 95% Wilson interval."""
        return rate(self.wins, self.seat_games)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "action": self.action,
            "times": self.times,
            "seat_games": self.seat_games,
            "wins": self.wins,
            **_rate_json(self.wins, self.seat_games),
        }


def position_stats(games: Sequence[GameFacts], players: int) -> PositionStats | None:
    """Wins by start position (``None`` when no game says who started)."""
    wins = [0] * players
    counted = 0
    for game in games:
        if game.start_seat is None or not 0 <= game.start_seat < players:
            continue
        counted += 1
        if game.draw:
            continue
        for seat in game.winners:
            wins[(seat - game.start_seat) % players] += 1
    return PositionStats(counted, tuple(wins)) if counted else None


def score_stats(games: Sequence[GameFacts], players: int) -> tuple[ScoreStats, ...]:
    """Per-seat final scores (empty when no game gave scores)."""
    out = []
    for seat in range(players):
        values = [g.scores[seat] for g in games if len(g.scores) > seat]
        if not values:
            return ()
        out.append(
            ScoreStats(
                seat=seat,
                count=len(values),
                mean=statistics.fmean(values),
                stdev=statistics.pstdev(values),
                min=min(values),
                max=max(values),
            )
        )
    return tuple(out)


def card_stats(games: Sequence[GameFacts]) -> tuple[CardStats, ...]:
    """Per (card, action) counts and the win rate of the seats that chose it, most
    chosen first."""
    times: Counter[tuple[str, str]] = Counter()
    seat_games: Counter[tuple[str, str]] = Counter()
    wins: Counter[tuple[str, str]] = Counter()
    for game in games:
        for (seat, action, card), count in game.cards:
            key = (card, action)
            times[key] += count
            seat_games[key] += 1
            wins[key] += (not game.draw) and seat in game.winners
    return tuple(
        sorted(
            (
                CardStats(card, action, times[(card, action)], n, wins[(card, action)])
                for (card, action), n in seat_games.items()
            ),
            key=lambda c: (-c.times, c.card, c.action),
        )
    )
