"""Decisions: the one door through which humans, bots, scripts and tests act.

The engine runs until somebody must decide, then exposes exactly one :class:`Decision`:
who decides (``seat``), a ``prompt``, and the legal :class:`Option` s, each with a stable
``id`` (the same game position always yields the same ids) and a readable ``label``.
Every decision is "pick one option": "up to N", "an order" and "a number in a range" are
asked as a sequence of single picks, so every agent needs exactly one skill.

>>> d = Decision(seat=0, prompt="Pick a cell", options=(Option("cell:a1", "a1"),))
>>> d.option("cell:a1").label
'a1'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer to a decision."""

    id: str
    label: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits for: ``seat`` must pick one of ``options``."""

    seat: int
    prompt: str
    options: tuple[Option, ...]
    kind: str = "choose"
    source: str = ""

    def option(self, option_id: str) -> Option:
        """The option with this id (``KeyError`` when it is not legal)."""
        for opt in self.options:
            if opt.id == option_id:
                return opt
        raise KeyError(option_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options)


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: the winning seats (all of them in a co-op win),
    ``draw`` for a tie, and the rule that ended it."""

    winners: tuple[int, ...]
    draw: bool = False
    reason: str = ""
    scores: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "reason": self.reason,
            "scores": {str(k): v for k, v in self.scores.items()},
        }


@dataclass(frozen=True)
class GameRecord:
    """Enough to replay a game exactly: the ruleset, its version, seats, seed, choices
    (:attr:`Game.record <rulecraft.runtime.game.Game.record>`; a record users copy and
    pickle, kept here with the other records, in a module that is never compiled)."""

    ruleset: str
    version: str
    players: int
    seed: int
    lang: str
    choices: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "version": self.version,
            "players": self.players,
            "seed": self.seed,
            "lang": self.lang,
            "choices": list(self.choices),
        }
