"""A generic conformance check for anything that claims to be a :class:`GameLike`.

In the spirit of OpenSpiel's ``RandomSimTest``: play seeded random games and, at every
decision, check the invariants every agent, the REPL and the simulator rely on:

- a running game has a decision for a real seat with at least one option; option ids are
  unique and labels non-empty; a finished game has a result and no decision;
- ``clone()`` has the same ``state_hash()`` and decision ids, and is independent: playing
  on the clone leaves the original untouched;
- ``to_json()`` -> ``json.dumps`` -> ``json.loads`` -> ``type(game).from_json`` gives the same
  hash (when the game offers them; the round trip is pluggable);
- ``view(seat)`` is JSON-serialisable for every seat, ``determinize(seat, ...)`` leaves the
  deciding seat's view and options unchanged, and optional hidden ids never leak;
- the game ends within its bound on decisions; ``undo`` back to the start reaches the
  initial hash (when the game has ``undo``).

>>> from rulecraft.interpreter.decision import Decision, Option, Result
>>> class Pick:  # one decision, then seat 0 wins
...     num_players = 1
...     def __init__(self): self.done = False
...     go = Decision(0, "go", (Option("a", "A"),))
...     decision = property(lambda self: None if self.done else self.go)
...     result = property(lambda self: Result((0,)) if self.done else None)
...     def choose(self, oid): self.done = True
...     def clone(self): c = Pick(); c.done = self.done; return c
...     def view(self, seat): return {"done": self.done}
...     def determinize(self, seat, seed): return self.clone()
...     def evaluate(self, seat): return 0.0
>>> check_random_games(lambda seed: Pick(), n_games=2, seed=0)
[]
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable
from typing import Any

from rulecraft.interpreter.agents import decision_limit
from rulecraft.interpreter.protocols import GameLike

GameFactory = Callable[[int], GameLike]
RoundTrip = Callable[[GameLike], GameLike]
HiddenIds = Callable[[GameLike, int], Iterable[str]]


class NonConformance(Exception):
    """One broken invariant (internal: collected into the problem list)."""


def json_round_trip(game: GameLike) -> GameLike:
    """The default serialisation round trip: ``to_json`` through JSON text and back with
    ``type(game).from_json(game.ruleset, data)`` (``ruleset`` is ``None`` if absent)."""
    data = json.loads(json.dumps(_call(game, "to_json")))
    from_json = type(game).from_json  # type: ignore[attr-defined]
    restored: GameLike = from_json(getattr(game, "ruleset", None), data)
    return restored


def leak_check(game: GameLike, seat: int, hidden_ids: Iterable[str]) -> None:
    """Assert that no id in ``hidden_ids`` (say, the cards ``seat`` must not see) occurs in
    ``json.dumps(game.view(seat))`` as a whole id: ``ace#1`` is not found inside the
    visible ``space_ace#1`` or ``ace#10``.

    >>> class Table:
    ...     def view(self, seat): return {"hand": ["card-7", "space_ace#1"], "other": 2}
    >>> leak_check(Table(), 0, ["card-3", "ace#1"])
    >>> leak_check(Table(), 0, ["card-3", "card-7"])
    Traceback (most recent call last):
    ...
    AssertionError: view(0) shows hidden id(s) ['card-7']
    """
    text = json.dumps(game.view(seat))
    leaked = sorted(
        {
            h
            for h in hidden_ids
            if h in text and re.search(rf"(?<![\w#]){re.escape(h)}(?![\w#])", text)
        }
    )
    if leaked:
        raise AssertionError(f"view({seat}) shows hidden id(s) {leaked}")


def _call(game: Any, name: str, *args: Any) -> Any:
    return getattr(game, name)(*args)


def _has(game: Any, *names: str) -> bool:
    return all(callable(getattr(game, n, None)) for n in names)


def _fingerprint(game: GameLike) -> str:
    """``state_hash()`` when the game has it, else everything the seats can observe."""
    if _has(game, "state_hash"):
        return str(_call(game, "state_hash"))
    decision = game.decision
    observed = {
        "views": [game.view(s) for s in range(game.num_players)],
        "decision": None if decision is None else [decision.seat, list(decision.ids)],
        "result": None if game.result is None else game.result.to_json(),
    }
    return json.dumps(observed, sort_keys=True, default=str)


def _ids(game: GameLike) -> tuple[str, ...] | None:
    decision = game.decision
    return None if decision is None else decision.ids


def _check_position(
    game: GameLike,
    rng: random.Random,
    round_trip: RoundTrip | None,
    hidden_ids: HiddenIds | None,
) -> None:
    """Every per-decision invariant of ``game``; raise :class:`NonConformance` at the first
    broken one."""
    decision, result = game.decision, game.result
    players = game.num_players
    if result is not None:
        if decision is not None:
            raise NonConformance("a finished game still has a decision")
        bad = [w for w in result.winners if not 0 <= w < players]
        if bad:
            raise NonConformance(f"result names seats {bad} that do not exist")
        return
    if decision is None:
        raise NonConformance("a running game has no decision (and no result)")
    if not decision.options:
        raise NonConformance(f"decision {decision.prompt!r} has no options")
    if not 0 <= decision.seat < players:
        raise NonConformance(f"decision for seat {decision.seat} of {players}")
    ids = decision.ids
    if len(set(ids)) != len(ids):
        dups = sorted({i for i in ids if ids.count(i) > 1})
        raise NonConformance(f"duplicate option ids {dups}")
    empty = [o.id for o in decision.options if not o.label.strip()]
    if empty:
        raise NonConformance(f"options with empty labels {empty}")

    before = _fingerprint(game)
    twin = game.clone()
    if _fingerprint(twin) != before or _ids(twin) != ids:
        raise NonConformance("clone() differs from the original")
    twin.choose(rng.choice(ids))
    if _fingerprint(game) != before or _ids(game) != ids:
        raise NonConformance("playing on a clone() changed the original (shared state)")

    if round_trip is not None:
        try:
            restored = round_trip(game)
        except Exception as exc:
            raise NonConformance(f"serialisation round trip failed: {exc!r}") from exc
        if _fingerprint(restored) != before or _ids(restored) != ids:
            raise NonConformance("to_json/from_json round trip changed the state")

    for seat in range(players):
        try:
            json.dumps(game.view(seat))
        except (TypeError, ValueError) as exc:
            raise NonConformance(f"view({seat}) is not JSON-serialisable: {exc}") from exc
        if hidden_ids is not None:
            try:
                leak_check(game, seat, hidden_ids(game, seat))
            except AssertionError as exc:
                raise NonConformance(str(exc)) from exc

    seat = decision.seat
    world = game.determinize(seat, rng.getrandbits(62))
    if world.view(seat) != game.view(seat) or _ids(world) != ids:
        raise NonConformance(f"determinize({seat}, ...) changed what seat {seat} sees")
    if _fingerprint(game) != before:
        raise NonConformance("determinize() changed the original")


def _check_undo(game: GameLike, initial: str, played: int) -> None:
    """Undo every decision of ``game`` (mutated) and compare with the initial hash."""
    undo = getattr(game, "undo", None)
    if not callable(undo) or played == 0:
        return
    if hasattr(game, "can_undo"):
        steps = 0
        while getattr(game, "can_undo", False) and steps <= played:
            undo()
            steps += 1
        if steps != played:
            raise NonConformance(f"undo went back {steps} steps after {played} decisions")
    else:
        undo(played)
    if _fingerprint(game) != initial:
        raise NonConformance("undo back to the start does not reach the initial state")


def check_random_games(
    factory: GameFactory,
    n_games: int = 20,
    seed: int = 0,
    *,
    round_trip: RoundTrip | str | None = "auto",
    hidden_ids: HiddenIds | None = None,
    max_decisions: int | None = None,
) -> list[str]:
    """Play ``n_games`` random games (game ``i`` is ``factory(seed + i)``) and return the
    problems found, one readable line each (empty: conforming).  A game stops at its first
    problem, since what follows would be noise.

    ``round_trip``: ``"auto"`` uses :func:`json_round_trip` when the game has ``to_json``,
    ``from_json`` and ``state_hash``; ``None`` skips it; or pass your own function.
    ``hidden_ids(game, seat)`` names ids ``seat`` must not see (checked in every view).
    ``max_decisions`` overrides the game's declared bound.
    """
    problems: list[str] = []
    for i in range(n_games):
        game_seed = seed + i
        where = f"game seed {game_seed}"
        try:
            game = factory(game_seed)
            trip: RoundTrip | None
            if round_trip == "auto":
                auto = _has(game, "to_json", "state_hash") and _has(type(game), "from_json")
                trip = json_round_trip if auto else None
            else:
                trip = round_trip if callable(round_trip) else None
            rng = random.Random(game_seed)
            limit = decision_limit(game, max_decisions)
            initial = _fingerprint(game)
            played = 0
            while True:
                where = f"game seed {game_seed}, decision {played}"
                _check_position(game, rng, trip, hidden_ids)
                if game.result is not None:
                    break
                if played >= limit:
                    raise NonConformance(f"game still running after {limit} decisions")
                decision = game.decision
                assert decision is not None  # _check_position guarantees it
                game.choose(rng.choice(decision.ids))
                played += 1
            where = f"game seed {game_seed}, undo"
            _check_undo(game, initial, played)
        except NonConformance as problem:
            problems.append(f"{where}: {problem}")
        except Exception as exc:
            problems.append(f"{where}: raised {exc!r}")
    return problems
