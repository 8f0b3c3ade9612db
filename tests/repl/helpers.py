"""Shared helpers for the REPL tests: a session on the fake game, writing to a string."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from io import StringIO
from typing import Any

from rich.console import Console

from repl.fakegame import FakeSource, FirstOptionAgent
from rulecraft.repl.session import Session
from rulecraft.runtime.protocols import Agent

FIRST_AGENT: Callable[[str, int], Agent] = FirstOptionAgent


def console() -> Console:
    return Console(file=StringIO(), width=100, color_system=None)


def output(session: Session) -> str:
    file = session.console.file
    assert isinstance(file, StringIO)
    return file.getvalue()


def make_session(
    seats: Mapping[int, str] | None = None,
    *,
    seed: int = 1,
    players: int = 2,
    lang: str = "en",
    agent_factory: Callable[[str, int], Agent] = FIRST_AGENT,
    **options: Any,
) -> Session:
    source = FakeSource(**options)
    game = source.new_game(players, seed, lang)
    seats = dict(seats) if seats is not None else {0: "human", 1: "first"}
    session = Session(
        source, game, seats, console(), seed=seed, lang=lang, agent_factory=agent_factory
    )
    session.start()
    return session


def feed(session: Session, lines: Iterable[str]) -> str:
    """Send lines while the session runs; return everything printed so far."""
    for line in lines:
        if not session.running:
            break
        session.handle(line)
    return output(session)
