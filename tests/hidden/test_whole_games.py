"""The hidden-information leak check over whole games of The Waylanders (marked ``slow``).

``test_hidden_information.py`` checks every channel of the two longest rulesets over their
first 150 decisions only, to keep ``make test`` fast. Here five whole random games of The
Waylanders (2, 3 and 4 players; about 1,100 decisions each) go through the same check
(view, new log lines, prompt, option ids, labels and details, ``describe`` and the error of
choosing an unseen card, for every seat at every decision). A leak only a late position
shows is caught here: this test found one, an ability of an event card in a hand, which
named the card to every seat in the log ("Player 2 uses Flash Flood of Flash Flood", seed
0, decision 749); the hand cards are played by an action since (events.rcl: play_event).

The conformance check also undoes every decision at the end of a game, one step at a time,
each step a replay from the start: quadratic (453 s of CPU for the first 200 decisions of a
Waylanders game, measured with cProfile), and the reason a whole game once took over 50
minutes. Undo is not what this test is about (tests/agents/test_bundled_rulesets.py checks
it), so the games are handed to the check without ``undo``: the five whole games took 133 s
of CPU (11 min 44 s of wall time on the shared machine, load about 10; 1 December 2026).

Run it with ``.venv/bin/python -m pytest -m slow tests/hidden/test_whole_games.py``
(``make test`` deselects ``slow``).
"""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.runtime.protocols import GameLike
from rulecraft.tools.conformance import check_random_games

from .test_hidden_information import ROOT, factory_for, hidden_for


class WithoutUndo:
    """A game as the check sees it, less ``undo`` (the check skips its undo test then)."""

    def __init__(self, game: GameLike) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "undo":
            raise AttributeError(name)
        return getattr(self._game, name)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seeds"), [(2, (0, 1, 2)), (3, (0,)), (4, (0,))])
def test_no_channel_leaks_a_hidden_card_in_whole_waylanders_games(
    players: int, seeds: tuple[int, ...]
) -> None:
    make = factory_for(ROOT / "waylanders", players)
    played: dict[int, Any] = {}

    def factory(seed: int) -> Any:
        played[seed] = make(seed)
        return WithoutUndo(played[seed])

    for seed in seeds:
        problems = check_random_games(
            factory, 1, seed=seed, round_trip=None, hidden_ids=hidden_for("waylanders")
        )
        assert problems == []
        # Whole games: each ran to its end (no stop_after).
        assert played[seed].result is not None
