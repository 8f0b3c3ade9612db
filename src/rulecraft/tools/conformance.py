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
  deciding seat's view and options unchanged, and optional hidden ids (or names) never
  leak through any channel a seat reads: its view, its new log lines (``log_for``), the
  prompt, option ids, labels and details of its decision, ``describe`` (a hidden id is
  "not found", as a made-up one is) and the error of choosing a hidden id (the same as for
  a made-up id);
- the game ends within its bound on decisions; ``undo`` back to the start reaches the
  initial hash (when the game has ``undo``).

>>> from rulecraft.runtime.decision import Decision, Option, Result
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

from rulecraft.bots.agents import decision_limit
from rulecraft.runtime.ids import has_copy_number, is_zone, split_zone_key
from rulecraft.runtime.protocols import GameLike

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


MADE_UP_ID = "no-such-card#0"
"""An id no game has: choosing or describing a hidden id must look exactly like this."""


def _found(term: str, text: str) -> bool:
    """``term`` occurs in ``text`` as a whole id or word (``ace#1`` is not in ``ace#10``)."""
    return term in text and re.search(rf"(?<![\w#]){re.escape(term)}(?![\w#])", text) is not None


def _choice_error(game: GameLike, option_id: str) -> str:
    """What choosing ``option_id`` on a copy raises (type and message, the id blanked)."""
    try:
        game.clone().choose(option_id)
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).replace(option_id, '<id>')}"
    return "accepted"


def seat_channels(game: GameLike, seat: int, log_from: int = 0) -> dict[str, str]:
    """Everything ``seat`` reads, as text per channel: its view, its log lines from
    ``log_from`` on, and (when it decides) the prompt and the options."""
    channels = {"view": json.dumps(game.view(seat), ensure_ascii=False)}
    if _has(game, "log_for"):
        channels["log"] = "\n".join(_call(game, "log_for", seat)[log_from:])
    decision = game.decision
    if decision is not None and decision.seat == seat:
        channels["prompt"] = decision.prompt
        channels["options"] = "\n".join(
            f"{o.id}\t{o.label}\t{getattr(o, 'detail', '')}" for o in decision.options
        )
    return channels


def leak_report(
    game: GameLike, seat: int, hidden: Iterable[str], log_from: int = 0, probes: int = 3
) -> list[str]:
    """Every way ``hidden`` (ids or names ``seat`` must not learn) reaches ``seat``: a
    whole-word match in any of :func:`seat_channels`, a ``describe`` that finds a hidden
    id, or choosing a hidden id failing otherwise than choosing :data:`MADE_UP_ID`
    (``probes`` hidden ids are tried for the last two)."""
    terms = sorted(set(hidden))
    problems = [
        f"{channel}({seat}) shows hidden id(s) {leaked}"
        for channel, text in seat_channels(game, seat, log_from).items()
        if (leaked := [t for t in terms if _found(t, text)])
    ]
    ids = [t for t in terms if has_copy_number(t)][:probes]
    if _has(game, "describe"):
        told = [h for h in ids if _call(game, "describe", h, seat) is not None]
        if told:
            problems.append(f"describe tells seat {seat} about hidden {told}")
    decision = game.decision
    if decision is not None and decision.seat == seat and ids:
        expected = _choice_error(game, MADE_UP_ID)
        odd = [h for h in ids if _choice_error(game, h) != expected]
        if odd:
            problems.append(f"choosing hidden {odd} fails unlike a made-up id ({expected})")
    return problems


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
    logs: dict[int, int] | None = None,
) -> None:
    """Every per-decision invariant of ``game``; raise :class:`NonConformance` at the first
    broken one.  ``logs`` (seat -> log lines already checked) is advanced for the leak
    check, which reads only new lines: an old line named a card that was visible then."""
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
            seen = {} if logs is None else logs
            leaks = leak_report(game, seat, hidden_ids(game, seat), seen.get(seat, 0))
            if leaks:
                raise NonConformance("; ".join(leaks))
            if _has(game, "log_for"):
                seen[seat] = len(_call(game, "log_for", seat))

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
    stop_after: int | None = None,
) -> list[str]:
    """Play ``n_games`` random games (game ``i`` is ``factory(seed + i)``) and return the
    problems found, one readable line each (empty: conforming).  A game stops at its first
    problem, since what follows would be noise.

    ``round_trip``: ``"auto"`` uses :func:`json_round_trip` when the game has ``to_json``,
    ``from_json`` and ``state_hash``; ``None`` skips it; or pass your own function.
    ``hidden_ids(game, seat)`` names ids ``seat`` must not see (checked in every view).
    ``max_decisions`` overrides the game's declared bound; ``stop_after`` checks only the
    first that many decisions of each game (a long game's every channel at every decision
    costs minutes).
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
            logs: dict[int, int] = {}
            while True:
                where = f"game seed {game_seed}, decision {played}"
                _check_position(game, rng, trip, hidden_ids, logs)
                if game.result is not None or (stop_after is not None and played >= stop_after):
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


# ---------------------------------------------------------------------------- rulecraft games
VISIBILITY_RANK = {"public": 0, "owner": 1, "hidden": 2}


def _sees(visibility: str, owner: int | None, seat: int) -> bool:
    return visibility == "public" or (visibility == "owner" and owner == seat)


def _card_names(game: Any, comp: dict[str, Any]) -> set[str]:
    d = game.program.defs[comp["d"]]
    lang = game.state.get("lang", "")
    names = {d.name.get(lang) or d.name.get("", "")}
    side = comp.get("s")
    side_name = d.side_attributes.get(side, {}).get("name") if side is not None else None
    if isinstance(side_name, dict):
        names.add(side_name.get(lang) or side_name.get("", ""))
    return {n for n in names if n}


def declared_hidden(
    game: Any, seat: int, private: dict[str, str] | None = None, names: bool = True
) -> list[str]:
    """The ids (and, with ``names``, the names no card ``seat`` sees shares, of the cards in
    other seats' own zones such as hands: a card drawn from a deck or bag and put back in
    one step was named while it showed) of the cards ``seat`` must not see in a rulecraft
    ``Game``, derived from the zones' *declared*
    visibility and the cards' face-down / revealed marks, not from ``engine.visible_to``
    (the function under test).  ``private`` (zone name -> ``"owner"`` or ``"hidden"``) is
    what the game's rulebook requires: the stricter of it and the declaration counts, so a
    ruleset that declares a secret zone ``public`` by mistake leaks in this check."""
    st = game.state
    required = private or {}
    hidden: list[str] = []
    hidden_names: set[str] = set()
    seen_names: set[str] = set()
    for key, pile in st["zones"].items():
        zone, owner = _zone_parts(key)
        spec = game.program.zones.get(zone) if zone is not None else None
        declared = spec.visibility if spec is not None else "public"
        wanted = required.get(zone or "", "public")
        rule = max(declared, wanted, key=lambda v: VISIBILITY_RANK.get(v, 2))
        for cid in pile:
            comp = st["comps"][cid]
            if comp.get("down"):
                sees = seat in comp.get("seen", ())
            else:
                sees = bool(comp.get("up")) or _sees(rule, owner, seat)
            if sees:
                seen_names |= _card_names(game, comp)
            else:
                hidden.append(cid)
                if rule == "owner":
                    hidden_names |= _card_names(game, comp)
    if not names:
        return hidden
    # A name written inside a name the seat sees is public ('Rowan' in a shown 'Rowan
    # (emblem)', a card named after another lying face up): finding it there is no leak.
    secret = {
        name
        for name in hidden_names - seen_names
        if not any(_found(name, seen) for seen in seen_names)
    }
    return hidden + sorted(secret)


class DeclaredHidden:
    """``hidden_ids`` for :func:`check_random_games` on rulecraft games: the ids and names
    of :func:`declared_hidden`, less the names ``seat`` saw at the previous decision of the
    same game (a card seen on the table, then shuffled into the deck in one step, was
    named in the log while it was visible)."""

    def __init__(self, private: dict[str, str] | None = None) -> None:
        self.private = private
        self._game: Any = None
        self._seen: dict[int, set[str]] = {}

    def __call__(self, game: Any, seat: int) -> list[str]:
        if game is not self._game:
            self._game, self._seen = game, {}
        terms = declared_hidden(game, seat, self.private)
        ids = [t for t in terms if t in game.state["comps"]]
        names = set(terms) - set(ids)
        visible = {n for c in game.state["comps"].values() for n in _card_names(game, c)} - names
        previously = self._seen.get(seat, set())
        self._seen[seat] = visible
        return ids + sorted(names - previously)


def _zone_parts(key: str) -> tuple[str | None, int | None]:
    """``z:hand@1`` -> ``("hand", 1)``; a map space -> ``(None, None)``."""
    if not is_zone(key):
        return None, None
    return split_zone_key(key)


def random_endings(factory: GameFactory, n_games: int, seed: int = 0) -> dict[str, int]:
    """How often each ending (the result's reason, or ``"(no reason)"``) closed
    ``n_games`` seeded random games (game ``i`` is ``factory(seed + i)``)."""
    counts: dict[str, int] = {}
    for i in range(n_games):
        game = factory(seed + i)
        rng = random.Random(seed + i)
        limit = decision_limit(game, None)
        for _ in range(limit):
            decision = game.decision
            if decision is None:
                break
            game.choose(rng.choice(decision.ids))
        result = game.result
        reason = "(running)" if result is None else (result.reason or "(no reason)")
        counts[reason] = counts.get(reason, 0) + 1
    return counts


def check_endings(
    factory: GameFactory,
    declared: Iterable[str],
    n_games: int,
    seed: int = 0,
    unreachable: Iterable[str] = (),
) -> list[str]:
    """Every ``declared`` ending (by its reason) must close at least one of ``n_games``
    random games, unless listed in ``unreachable`` (shown unreachable on purpose, say by a
    test of its own); a listed one that random play does reach is reported too."""
    seen = random_endings(factory, n_games, seed)
    skip = set(unreachable)
    problems = [
        f"ending {reason!r} closed none of {n_games} random games"
        for reason in declared
        if reason not in skip and reason not in seen
    ]
    problems += [
        f"ending {r!r} is listed unreachable but closed {seen[r]} games" for r in skip & set(seen)
    ]
    return problems


def check_lines(factory: GameFactory, lines: Iterable[tuple[tuple[str, ...], bool]]) -> list[str]:
    """Known lines of play: each ``(choices, ends)`` from ``factory(0)`` must end the game
    (``ends``) or leave it running after the last choice (a non-winning line)."""
    problems = []
    for choices, ends in lines:
        game = factory(0)
        done = 0
        for choice in choices:
            if game.result is not None:  # ended early: a non-winning line must not
                break
            game.choose(choice)
            done += 1
        line = " ".join(choices)
        if game.result is not None and not ends:
            problems.append(f"the line {line} ended after {done} choices")
        elif game.result is None and ends:
            problems.append(f"the line {line} did not end")
    return problems
