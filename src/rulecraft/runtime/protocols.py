"""The extension points of the interpreter, as Protocols.

:class:`GameLike` is what every agent, the REPL, the simulator and the scenario runner
program against.  :class:`rulecraft.runtime.game.Game` implements it.
"""

from __future__ import annotations

from typing import Any, Protocol, Self

from rulecraft.runtime.decision import Decision, Result


class GameLike(Protocol):
    """A game in progress, seen through the decision door."""

    @property
    def num_players(self) -> int: ...

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` once the game is over."""
        ...

    @property
    def result(self) -> Result | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def choose(self, option_id: str) -> None:
        """Answer the pending decision and run until the next one (mutates this game)."""
        ...

    def clone(self) -> Self:
        """An independent copy (cheap: plain data)."""
        ...

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as JSON-ready data; hidden cards are not in it."""
        ...

    def determinize(self, seat: int, seed: int) -> Self:
        """A copy in which everything hidden from ``seat`` is re-dealt at random among the
        places it could be (and future chance re-seeded): what a fair bot may search."""
        ...

    def evaluate(self, seat: int) -> float:
        """The ruleset's declared evaluation of the position for ``seat`` (higher is better)."""
        ...


class Agent(Protocol):
    """Anything that answers decisions: a bot, a script, a person at the REPL."""

    name: str

    def choose(self, game: GameLike) -> str:
        """The id of the option this agent picks for ``game.decision``."""
        ...
