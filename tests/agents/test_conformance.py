"""The conformance checker passes honest games and names what is broken in broken ones."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

from rulecraft.runtime.protocols import GameLike
from rulecraft.tools import conformance as conformance_module
from rulecraft.tools.conformance import check_random_games, json_round_trip, leak_check

from .fakegames import (
    BadUndoNim,
    ClassFactory,
    CountdownFactory,
    DuelClassFactory,
    DuplicateIdsNim,
    EndlessFactory,
    HiddenDuel,
    HiddenDuelFactory,
    LeakyDuel,
    LossyJsonNim,
    Nim,
    NimFactory,
    SharedCloneNim,
    StuckNim,
    TicTacToeFactory,
)


def hidden_cards(game: GameLike, seat: int) -> list[str]:
    """The cards ``seat`` must not see in a duel: the other hand and the deck.  Card ids
    like ``c1`` also occur inside ``c1x``-style text, so wrap them as JSON strings."""
    assert isinstance(game, HiddenDuel)
    unseen = game.state["hands"][1 - seat] + game.state["deck"]
    return [f'"{card}"' for card in unseen]


def test_doctests() -> None:
    failures, tried = doctest.testmod(conformance_module)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize(
    "factory",
    [
        NimFactory(),
        HiddenDuelFactory(),
        CountdownFactory(),
        CountdownFactory(coop=True),
        TicTacToeFactory(),
    ],
)
def test_honest_fakes_conform(factory: Any) -> None:
    assert check_random_games(factory, n_games=8, seed=1, hidden_ids=None) == []


def test_duel_does_not_leak_and_leaky_duel_does() -> None:
    assert check_random_games(HiddenDuelFactory(), 5, hidden_ids=hidden_cards) == []
    problems = check_random_games(DuelClassFactory(LeakyDuel), 3, hidden_ids=hidden_cards)
    assert len(problems) == 3
    assert all("decision 0: view(" in p and "shows hidden id" in p for p in problems)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (SharedCloneNim, "playing on a clone() changed the original"),
        (DuplicateIdsNim, "duplicate option ids"),
        (StuckNim, "a running game has no decision"),
        (BadUndoNim, "undo back to the start does not reach the initial state"),
        (LossyJsonNim, "to_json/from_json round trip changed the state"),
    ],
)
def test_broken_games_are_caught(broken: type[Nim], message: str) -> None:
    problems = check_random_games(ClassFactory(broken), n_games=3, seed=0)
    assert len(problems) == 3, problems
    assert all(message in p and "game seed" in p for p in problems)


def test_round_trip_is_pluggable() -> None:
    factory = ClassFactory(LossyJsonNim)
    assert check_random_games(factory, 2, round_trip=None) == []
    calls: list[str] = []

    def tracked(game: GameLike) -> GameLike:
        calls.append("trip")
        return json_round_trip(game)

    assert check_random_games(NimFactory(), 1, round_trip=tracked) == []
    assert calls


def test_endless_games_break_the_bound() -> None:
    problems = check_random_games(EndlessFactory(), 1)
    assert problems == ["game seed 0, decision 30: game still running after 30 decisions"]
    assert check_random_games(NimFactory(), 1, max_decisions=0)[0].endswith(
        "game still running after 0 decisions"
    )


def test_a_peeking_determinize_is_caught() -> None:
    class ShowingDeterminize(HiddenDuel):
        def determinize(self, seat: int, seed: int) -> ShowingDeterminize:
            world = super().determinize(seat, seed)
            world.state["scores"][seat] += 1
            return world

    problems = check_random_games(DuelClassFactory(ShowingDeterminize), 1)
    assert problems and "determinize(0, ...) changed what seat 0 sees" in problems[0]


def test_exceptions_become_problems() -> None:
    def broken_factory(seed: int) -> GameLike:
        raise RuntimeError("no such ruleset")

    assert check_random_games(broken_factory, 1, seed=4) == [
        "game seed 4: raised RuntimeError('no such ruleset')"
    ]


def test_leak_check_helper() -> None:
    duel = HiddenDuel(seed=3)
    leak_check(duel, 0, hidden_cards(duel, 0))
    with pytest.raises(AssertionError, match="shows hidden id"):
        leak_check(LeakyDuel(seed=3), 0, hidden_cards(duel, 0))
