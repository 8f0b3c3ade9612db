"""Small honest GameLike implementations for testing agents, simulator and conformance.

They stand in for the engine's Game until it lands: each implements the GameLike protocol
plus ``to_json``/``from_json``/``state_hash``/``undo``/``max_decisions`` like the contract.

- :class:`Nim`: perfect information; taking the last object wins.
- :class:`HiddenDuel`: two hidden hands and a shuffled deck (chance draws); ``view(seat)``
  hides the other hand; a "strict" true game raises on anything but ``determinize``,
  ``view`` and ``decision``, so a bot that peeks fails loudly.
- :class:`Countdown`: three (or more) players subtract 1-3 from a counter; optional co-op.
- Broken variants for the conformance checker and erroring games for the simulator.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any, Self

from rulecraft.runtime.decision import Decision, Option, Result


def _hash(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


class _History:
    """Undo and serialisation shared by the fakes: the state is one JSON-ready dict."""

    max_decisions = 200

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.history: list[dict[str, Any]] = []

    # -- contract extras --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "history": self.history}

    @classmethod
    def from_json(cls, ruleset: Any, data: dict[str, Any]) -> Self:
        game = cls.__new__(cls)
        _History.__init__(game, data["state"])
        game.history = list(data["history"])
        return game

    def state_hash(self) -> str:
        return _hash(self.state)

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    def undo(self, steps: int = 1) -> None:
        for _ in range(steps):
            self.state = self.history.pop()

    def clone(self) -> Self:
        game = type(self).__new__(type(self))
        game.__dict__.update(self.__dict__)
        game.state = json.loads(json.dumps(self.state))
        game.history = list(self.history)
        return game

    @property
    def num_players(self) -> int:
        return int(self.state["players"])

    def _check(self, option_id: str) -> Decision:
        decision = self.decision
        if decision is None or option_id not in decision.ids:
            raise ValueError(f"illegal choice {option_id!r}")
        self.history.append(json.loads(json.dumps(self.state)))
        return decision

    @property
    def decision(self) -> Decision | None:
        raise NotImplementedError

    @property
    def result(self) -> Result | None:
        raise NotImplementedError


class Nim(_History):
    """Normal-play Nim: take 1+ objects from one pile; whoever takes the last one wins."""

    def __init__(self, piles: tuple[int, ...] = (3, 4, 5), to_move: int = 0) -> None:
        super().__init__({"players": 2, "piles": list(piles), "to_move": to_move, "winner": None})

    @property
    def round(self) -> int:
        return len(self.history) // 2 + 1

    @property
    def decision(self) -> Decision | None:
        if self.state["winner"] is not None:
            return None
        options = tuple(
            Option(f"take:{p}:{k}", f"take {k} from pile {p}")
            for p, size in enumerate(self.state["piles"])
            for k in range(1, size + 1)
        )
        return Decision(seat=self.state["to_move"], prompt="Take", options=options)

    @property
    def result(self) -> Result | None:
        w = self.state["winner"]
        return None if w is None else Result(winners=(w,), reason="took the last object")

    def choose(self, option_id: str) -> None:
        self._check(option_id)
        _, p, k = option_id.split(":")
        self.state["piles"][int(p)] -= int(k)
        if sum(self.state["piles"]) == 0:
            self.state["winner"] = self.state["to_move"]
        self.state["to_move"] = 1 - self.state["to_move"]

    def view(self, seat: int) -> dict[str, Any]:
        return dict(self.state)

    def determinize(self, seat: int, seed: int) -> Self:
        return self.clone()

    def evaluate(self, seat: int) -> float:
        return 0.0


@dataclass(frozen=True)
class NimFactory:
    """``factory(seed)``: Nim with 2-3 random piles of 1-5 (fixed ``piles`` if given)."""

    piles: tuple[int, ...] | None = None

    def __call__(self, seed: int) -> Nim:
        if self.piles is not None:
            return Nim(self.piles)
        rng = random.Random(seed)
        return Nim(tuple(rng.randint(1, 5) for _ in range(rng.randint(2, 3))))


class HiddenDuel(_History):
    """Two players, cards 1..8, hands of 2 dealt from a shuffled deck.  On your turn play a
    card from your hand (its value scores for you) or "bank" one (scores double, but only
    if it is odd; an even banked card scores 0); then draw from the deck if it is not
    empty.  When both hands are empty the higher score wins.

    ``strict=True`` marks the true game of a test: anything that would read the hidden
    hands (``clone``, ``choose``, ``evaluate``, ``to_json``) raises, so a bot must search
    ``determinize`` copies, which are not strict.
    """

    def __init__(self, seed: int = 0, strict: bool = False) -> None:
        deck = [f"c{v}" for v in range(1, 9)]
        random.Random(seed).shuffle(deck)
        super().__init__(
            {
                "players": 2,
                "hands": [deck[0:2], deck[2:4]],
                "deck": deck[4:],
                "scores": [0, 0],
                "to_move": 0,
            }
        )
        self.strict = strict

    def _peek(self, what: str) -> None:
        if self.strict:
            raise AssertionError(f"a bot called {what} on the true game with hidden hands")

    def clone(self) -> Self:
        self._peek("clone")
        return super().clone()

    def to_json(self) -> dict[str, Any]:
        self._peek("to_json")
        return super().to_json()

    @property
    def decision(self) -> Decision | None:
        if self.result is not None:
            return None
        seat = self.state["to_move"]
        hand = sorted(self.state["hands"][seat], key=lambda c: int(c[1:]))
        options = tuple(Option(f"play:{c}", f"play {c}") for c in hand) + tuple(
            Option(f"bank:{c}", f"bank {c}") for c in hand
        )
        return Decision(seat=seat, prompt="Play or bank a card", options=options)

    @property
    def result(self) -> Result | None:
        if any(self.state["hands"]):
            return None
        a, b = self.state["scores"]
        if a == b:
            return Result(winners=(), draw=True, scores={0: a, 1: b})
        return Result(winners=(0 if a > b else 1,), scores={0: a, 1: b})

    def choose(self, option_id: str) -> None:
        self._peek("choose")
        self._check(option_id)
        seat = self.state["to_move"]
        verb, card = option_id.split(":")
        value = int(card[1:])
        self.state["hands"][seat].remove(card)
        if verb == "play":
            self.state["scores"][seat] += value
        else:
            self.state["scores"][seat] += 2 * value if value % 2 else 0
        if self.state["deck"]:
            self.state["hands"][seat].append(self.state["deck"].pop(0))
        other = 1 - seat
        self.state["to_move"] = other if self.state["hands"][other] else seat

    def view(self, seat: int) -> dict[str, Any]:
        return {
            "hand": sorted(self.state["hands"][seat]),
            "other_hand_size": len(self.state["hands"][1 - seat]),
            "deck_size": len(self.state["deck"]),
            "scores": list(self.state["scores"]),
            "to_move": self.state["to_move"],
        }

    def determinize(self, seat: int, seed: int) -> Self:
        other = 1 - seat
        state = json.loads(json.dumps(self.state))
        unseen = state["hands"][other] + state["deck"]
        random.Random(seed).shuffle(unseen)
        n = len(state["hands"][other])
        state["hands"][other], state["deck"] = unseen[:n], unseen[n:]
        game = type(self).__new__(type(self))
        _History.__init__(game, state)
        game.history = []  # the past of a re-dealt world is unknown: no undo into it
        game.strict = False
        return game

    def evaluate(self, seat: int) -> float:
        self._peek("evaluate")
        return float(self.state["scores"][seat] - self.state["scores"][1 - seat])


@dataclass(frozen=True)
class HiddenDuelFactory:
    def __call__(self, seed: int) -> HiddenDuel:
        return HiddenDuel(seed)


class Countdown(_History):
    """``players`` seats in turn subtract 1-3 from a counter; whoever reaches 0 wins (in
    co-op mode everybody wins if the last step is exactly a 1, everybody loses otherwise)."""

    coop = False

    def __init__(self, start: int = 12, players: int = 3, coop: bool = False) -> None:
        super().__init__({"players": players, "counter": start, "to_move": 0, "last": None})
        self.coop = coop

    @property
    def decision(self) -> Decision | None:
        if self.state["counter"] <= 0:
            return None
        top = min(3, self.state["counter"])
        options = tuple(Option(f"sub:{k}", f"subtract {k}") for k in range(1, top + 1))
        return Decision(seat=self.state["to_move"], prompt="Subtract", options=options)

    @property
    def result(self) -> Result | None:
        if self.state["counter"] > 0:
            return None
        if self.coop:
            won = self.state["last"] == 1
            return Result(winners=tuple(range(self.num_players)) if won else ())
        return Result(winners=(self.state["to_move_prev"],))

    def choose(self, option_id: str) -> None:
        self._check(option_id)
        k = int(option_id.split(":")[1])
        self.state["counter"] -= k
        self.state["last"] = k
        self.state["to_move_prev"] = self.state["to_move"]
        self.state["to_move"] = (self.state["to_move"] + 1) % self.num_players

    def view(self, seat: int) -> dict[str, Any]:
        return dict(self.state)

    def determinize(self, seat: int, seed: int) -> Self:
        return self.clone()

    def evaluate(self, seat: int) -> float:
        return 0.0


@dataclass(frozen=True)
class CountdownFactory:
    players: int = 3
    coop: bool = False

    def __call__(self, seed: int) -> Countdown:
        return Countdown(start=8 + seed % 7, players=self.players, coop=self.coop)


class TicTacToe(_History):
    """Tic-tac-toe, for the known random-playout outcome rates (.585 / .288 / .127)."""

    LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

    def __init__(self) -> None:
        super().__init__({"players": 2, "cells": [None] * 9, "to_move": 0})

    def _winner(self) -> int | None:
        cells = self.state["cells"]
        for a, b, c in self.LINES:
            if cells[a] is not None and cells[a] == cells[b] == cells[c]:
                return int(cells[a])
        return None

    @property
    def result(self) -> Result | None:
        w = self._winner()
        if w is not None:
            return Result(winners=(w,))
        if all(c is not None for c in self.state["cells"]):
            return Result(winners=(), draw=True)
        return None

    @property
    def decision(self) -> Decision | None:
        if self.result is not None:
            return None
        free = [i for i, c in enumerate(self.state["cells"]) if c is None]
        return Decision(
            self.state["to_move"], "Mark", tuple(Option(f"cell:{i}", str(i)) for i in free)
        )

    def choose(self, option_id: str) -> None:
        self._check(option_id)
        self.state["cells"][int(option_id.split(":")[1])] = self.state["to_move"]
        self.state["to_move"] = 1 - self.state["to_move"]

    def view(self, seat: int) -> dict[str, Any]:
        return dict(self.state)

    def determinize(self, seat: int, seed: int) -> Self:
        return self.clone()

    def evaluate(self, seat: int) -> float:
        return 0.0


@dataclass(frozen=True)
class TicTacToeFactory:
    def __call__(self, seed: int) -> TicTacToe:
        return TicTacToe()


# -- games that fail on purpose ---------------------------------------------------------


class CrashingNim(Nim):
    """Nim whose rules crash on the third decision of every game with an even seed."""

    def __init__(self, piles: tuple[int, ...], seed: int) -> None:
        super().__init__(piles)
        self.seed = seed

    def choose(self, option_id: str) -> None:
        if self.seed % 2 == 0 and len(self.history) == 2:
            raise RuntimeError(f"rule bug reached by {option_id} (seed {self.seed})")
        super().choose(option_id)


@dataclass(frozen=True)
class CrashingNimFactory:
    def __call__(self, seed: int) -> CrashingNim:
        return CrashingNim((3, 4, 5), seed)


class EndlessGame(Nim):
    """A game that never ends: taking never empties the piles."""

    max_decisions = 30

    def choose(self, option_id: str) -> None:
        super().choose(option_id)
        self.state["piles"] = [3, 3]
        self.state["winner"] = None


@dataclass(frozen=True)
class EndlessFactory:
    def __call__(self, seed: int) -> EndlessGame:
        return EndlessGame((3, 3))


class SharedCloneNim(Nim):
    """Broken: ``clone`` shares the piles list with the original."""

    def clone(self) -> Self:
        game = type(self).__new__(type(self))
        game.__dict__.update(self.__dict__)
        game.state = dict(self.state)  # shallow: "piles" is the same list
        game.history = list(self.history)
        return game


class DuplicateIdsNim(Nim):
    """Broken: two options share one id and one label is empty."""

    @property
    def decision(self) -> Decision | None:
        d = super().decision
        if d is None:
            return None
        first = d.options[0]
        return Decision(d.seat, d.prompt, (*d.options, Option(first.id, "")))


class LeakyDuel(HiddenDuel):
    """Broken: ``view`` shows the other seat's hand."""

    def view(self, seat: int) -> dict[str, Any]:
        return {**super().view(seat), "other_hand": list(self.state["hands"][1 - seat])}


class StuckNim(Nim):
    """Broken: once a pile is empty the game neither decides nor ends."""

    @property
    def decision(self) -> Decision | None:
        if 0 in self.state["piles"] and self.state["winner"] is None:
            return None
        return super().decision


class BadUndoNim(Nim):
    """Broken: ``undo`` forgets to restore the piles."""

    def undo(self, steps: int = 1) -> None:
        for _ in range(steps):
            piles = self.state["piles"]
            self.state = self.history.pop()
            self.state["piles"] = piles


class LossyJsonNim(Nim):
    """Broken: ``to_json`` drops whose turn it is."""

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["state"] = {**data["state"], "to_move": 0}
        return data


@dataclass(frozen=True)
class ClassFactory:
    """``factory(seed)`` for a Nim-like class with fixed piles."""

    cls: type[Nim]
    piles: tuple[int, ...] = (2, 3, 4)

    def __call__(self, seed: int) -> Nim:
        return self.cls(self.piles)


@dataclass(frozen=True)
class DuelClassFactory:
    cls: type[HiddenDuel]

    def __call__(self, seed: int) -> HiddenDuel:
        return self.cls(seed)


# -- games that say who started ---------------------------------------------------------


class StartingNim(Nim):
    """Nim that exposes ``start_seat`` (the seat that moved first), like the engine's Game.

    With one pile of 1 the start player always wins; with two piles of 1 it always loses.
    """

    def __init__(self, piles: tuple[int, ...], start: int) -> None:
        super().__init__(piles, to_move=start)
        self.state["start"] = start

    @property
    def start_seat(self) -> int:
        return int(self.state["start"])


@dataclass(frozen=True)
class StartingNimFactory:
    """``factory(seed)``: seat ``seed % 2`` starts; seeds ``0, 1 (mod 4)`` deal one pile of 1
    (the start player wins), ``2, 3 (mod 4)`` two piles of 1 (the start player loses)."""

    def __call__(self, seed: int) -> StartingNim:
        piles = (1,) if seed % 4 < 2 else (1, 1)
        return StartingNim(piles, start=seed % 2)


class StartingTicTacToe(TicTacToe):
    """Tic-tac-toe whose ``start_seat`` is always seat 0 (it has draws)."""

    @property
    def start_seat(self) -> int:
        return 0


@dataclass(frozen=True)
class StartingTicTacToeFactory:
    def __call__(self, seed: int) -> StartingTicTacToe:
        return StartingTicTacToe()
