"""What the REPL needs from a game and from where games come, as Protocols.

The REPL programs against these, not against the concrete engine, so it can be tested
with a small fake game and can play anything that honours the ``Game`` contract
(``rulecraft.runtime.game``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rulecraft.repl.glyphs import GlyphTable
from rulecraft.runtime.chance import RollOdds
from rulecraft.runtime.decision import Decision, Result
from rulecraft.runtime.protocols import Agent, GameLike


class PlayableGame(GameLike, Protocol):
    """A :class:`GameLike` plus the extras a person at the table uses."""

    @property
    def decision(self) -> Decision | None: ...

    @property
    def result(self) -> Result | None: ...

    @property
    def can_undo(self) -> bool: ...

    def log_for(self, seat: int) -> list[str]:
        """The log lines ``seat`` may read (``Game.log`` is all-seeing: never shown)."""
        ...

    @property
    def seat_names(self) -> list[str]: ...

    def undo(self, steps: int = 1) -> None: ...

    def to_json(self) -> dict[str, Any]: ...

    def describe(self, name_or_id: str, seat: int) -> str | None: ...

    def odds(self) -> str | None: ...

    def option_odds(self) -> list[RollOdds]: ...


class GameSource(Protocol):
    """Where games come from: one ruleset, able to start a game or restore a saved one."""

    @property
    def name(self) -> str: ...

    def new_game(self, players: int | None, seed: int, lang: str | None) -> PlayableGame:
        """A new game; ``None`` players or lang means the ruleset's default."""
        ...

    def restore(self, data: dict[str, Any]) -> PlayableGame:
        """The game ``data`` (from ``to_json``) describes; raises ``ValueError`` if it is bad."""
        ...

    def glyph_table(self) -> GlyphTable:
        """The glyphs the ruleset declares for its map pieces (may be empty)."""
        ...

    def default_lang(self) -> str | None:
        """The language a game gets when none is asked for (``None``: unknown)."""
        ...

    def pool_fields(self, game: PlayableGame, card_id: str) -> dict[str, dict[str, int]]:
        """The fields of a card that hold dice pools (``{"blades": {"green": 2}}``).

        The view writes a pool as text that comes out empty; the REPL fills it in from
        here (only for cards the view already shows).
        """
        ...


AgentFactory = Callable[[str, int], Agent]
"""Builds a bot from a spec such as ``"mcts:200"`` and a seed (``make_agent``'s shape)."""


def engine_agent_factory(spec: str, seed: int) -> Agent:
    """The engine's ``make_agent``, imported only when a bot is actually needed."""
    from rulecraft.bots.agents import make_agent

    agent: Agent = make_agent(spec, seed)
    return agent
