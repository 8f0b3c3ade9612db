"""Issue 17, saves: "Of 55 tampered saves, 30 were accepted and 11 then crashed ...
`Game.load_file`/`from_json` must refuse every one with a ValueError naming the problem."

Each case below tampers with one thing in an honest save (Sparks, seed 9, 15 random
decisions, so hands, deck, discard and a board are populated) and expects a ``ValueError``
whose message names it.  The suite counts: every case must be refused, none may raise
anything else, and the honest save must still load.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime.game import Game

Save = dict[str, Any]


@pytest.fixture(scope="module")
def sparks() -> rulecraft.Ruleset:
    return rulecraft.load("sparks")


def played(ruleset: rulecraft.Ruleset, seed: int = 9, moves: int = 15) -> Game:
    game = ruleset.new_game(players=2, seed=seed)
    rng = random.Random(1)
    for _ in range(moves):
        game.choose(rng.choice(game.legal_ids()))
    return game


@pytest.fixture(scope="module")
def honest(sparks: rulecraft.Ruleset) -> Save:
    data: Save = json.loads(json.dumps(played(sparks).to_json()))
    return data


def hand(d: Save) -> str:
    return "z:hand@0"


def first_card(d: Save, zone: str = "z:hand@0") -> str:
    card: str = d["state"]["zones"][zone][0]
    return card


def _set(path: str, value: Any) -> Callable[[Save], None]:
    """A tampering that sets the value at ``path`` (``state/res/0/points``)."""

    def change(d: Save) -> None:
        *parents, last = path.split("/")
        node: Any = d
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _drop(key: str) -> Callable[[Save], None]:
    return lambda d: d.pop(key)


def _dup_card(d: Save) -> None:
    d["state"]["zones"]["z:discard"].append(first_card(d))


def _dup_in_zone(d: Save) -> None:
    d["state"]["zones"]["z:hand@0"].append(first_card(d))


def _ghost_card(d: Save) -> None:
    d["state"]["zones"]["z:hand@0"].append("ghost#1")


def _lost_card(d: Save) -> None:
    d["state"]["zones"]["z:hand@0"].pop(0)


def _card_without_record(d: Save) -> None:
    del d["state"]["comps"][first_card(d)]


def _card_field(field: str, value: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        d["state"]["comps"][first_card(d)][field] = value

    return change


def _deep(d: Save) -> None:
    nested: Any = 0
    for _ in range(200):
        nested = [nested]
    d["state"]["mem"]["x"] = nested


def _other_seed(what: str, sparks_seed: int = 10) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        other = json.loads(json.dumps(played(rulecraft.load("sparks"), seed=sparks_seed).to_json()))
        d[what] = other[what]

    return change


def _other_seed_everywhere(d: Save) -> None:
    other = json.loads(json.dumps(played(rulecraft.load("sparks"), seed=10).to_json()))
    d["seed"], d["initial"] = other["seed"], other["initial"]


def _swap_choice(index: int, choice: str) -> Callable[[Save], None]:
    return _set(f"choices/{index}", choice)


def _swap_legal_choice(d: Save) -> None:
    # An option that was offered at that point, but not the one taken: the choices then
    # lead to another state than the saved one.
    game = rulecraft.load("sparks").new_game(players=2, seed=9)
    for choice in d["choices"][:3]:
        game.choose(choice)
    other = next(o for o in game.legal_ids() if o != d["choices"][3])
    d["choices"][3] = other


def _log_line(d: Save) -> None:
    d["log"][1][1] = "Player 2 draws the Ace of Spades."


def _extend(key: str, value: Any) -> Callable[[Save], None]:
    return lambda d: d[key].append(value)


def _truncate(key: str) -> Callable[[Save], None]:
    return lambda d: d[key].pop()


def _unknown_zone(name: str) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        d["state"]["zones"][name] = []

    return change


def _res(value: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        d["state"]["res"][0]["points"] = value

    return change


def _extra_resource(d: Save) -> None:
    d["state"]["res"][0]["gold"] = 3


def _bump(path: str) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        *parents, last = path.split("/")
        node: Any = d
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        key: Any = int(last) if isinstance(node, list) else last
        node[key] = node[key] + 1

    return change


def _pending_seat(d: Save) -> None:
    d["state"]["pending"]["seat"] = 1 - d["state"]["pending"]["seat"]


def _pending_option(d: Save) -> None:
    d["state"]["pending"]["options"].append(["win:now", "Win the game", None])


def _winner(d: Save) -> None:
    d["state"]["result"] = {"winners": [0], "draw": False, "reason": "Ten points!"}


CASES: list[tuple[str, Callable[[Save], None], str]] = [
    # the envelope
    ("format", _set("format", "chess-save"), "not a rulecraft save"),
    ("no format", _drop("format"), "not a rulecraft save"),
    ("version 1", _set("version", 1), "unsupported save version 1"),
    ("ruleset version as version", _set("version", "0.1"), "unsupported save version '0.1'"),
    ("no version", _drop("version"), "unsupported save version None"),
    ("other ruleset", _set("ruleset", "chess"), "this save is for 'chess'"),
    ("ruleset version", _set("ruleset_version", "9.9"), "version '9.9' of sparks"),
    ("unknown key", _set("cheat", True), "Additional properties"),
    ("no choices", _drop("choices"), "'choices' is a required property"),
    ("no state", _drop("state"), "'state' is a required property"),
    ("players text", _set("players", "two"), "at players"),
    ("players 0", _set("players", 0), "at players"),
    ("players 3", _set("players", 3), "has 2 players; the save says 3"),
    ("negative seed", _set("seed", -1), "at seed"),
    ("other seed", _set("seed", 8), "not the one of seed 8"),
    ("lang number", _set("lang", 5), "at lang"),
    ("lang other", _set("lang", "de"), "language is not 'de'"),
    ("arranged text", _set("arranged", "yes"), "at arranged"),
    ("seats table", _set("seats", {"0": "human"}), "at seats"),
    # choices
    ("choice number", _set("choices/0", 1), "at choices/0"),
    ("made-up choice", _swap_choice(2, "play:dragon#1"), "saved choice 3 of 15, 'play:dragon#1'"),
    ("another legal choice", _swap_legal_choice, "not what the saved choices lead to"),
    ("choice dropped", _truncate("choices"), "not what the saved choices lead to"),
    ("choice added", _extend("choices", "pass"), "saved choice 16 of 16"),
    ("choices garbage", _set("choices", {"a": 1}), "at choices"),
    # the log
    ("log garbage", _set("log", "x"), "at log"),
    ("log object", _set("log", {}), "at log"),
    ("log line text", _log_line, "the saved log is not what the saved choices say"),
    ("log line dropped", _truncate("log"), "the saved log is not what the saved choices say"),
    ("log line added", _extend("log", [-1, "Player 1 wins."]), "the saved log is not"),
    ("log audience", _set("log/0/0", -5), "at log/0/0"),
    # the start
    ("no start", _set("initial", None), "at initial"),
    ("start of another seed", _other_seed("initial"), "not the one of seed 9"),
    ("start and seed of another seed", _other_seed_everywhere, "not the one of seed 10"),
    ("start resources", _bump("initial/res/0/points"), "the saved start is not what sparks"),
    ("start order", lambda d: d["initial"]["zones"]["z:deck"].reverse(), "saved start"),
    # the state
    ("state of another seed", _other_seed("state"), "not the one of seed 9"),
    ("random counter", _bump("state/rng/1"), "differs at state/rng/1"),
    ("random seed", _bump("state/rng/0"), "not the one of seed 9"),
    ("random text", _set("state/rng", ["a", 0]), "at state/rng/0"),
    ("state version", _set("state/v", 2), "at state/v"),
    ("state game", _set("state/game", "chess"), "is for 'chess', not 'sparks'"),
    ("state players", _set("state/players", 3), "state has 3 players"),
    ("no comps", lambda d: d["state"].pop("comps"), "'comps' is a required property"),
    ("unknown card id", _ghost_card, "unknown card 'ghost#1'"),
    ("card in two zones", _dup_card, "is in 'z:discard' and in 'z:hand@0'"),
    ("card twice in a zone", _dup_in_zone, "and in 'z:hand@0'"),
    ("card in no zone", _lost_card, "is not where it says it is"),
    ("card without a record", _card_without_record, "unknown card"),
    ("unknown definition", _card_field("d", "dragon"), "unknown card definition 'dragon'"),
    ("card in an unknown zone", _card_field("z", "z:vault"), "is not where it says it is"),
    ("owner out of range", _card_field("o", 5), "has owner 5, no such seat"),
    ("negative owner", _card_field("o", -1), "has owner -1"),
    ("owner text", _card_field("o", "me"), "/o: 'me' is not of type"),
    ("exhausted text", _card_field("x", "yes"), "/x: 'yes' is not of type 'boolean'"),
    ("counter NaN", _card_field("c", {"charge": float("nan")}), "the number nan"),
    ("flags garbage", _card_field("f", "hot"), "is not of type 'array'"),
    ("resource text", _res("lots"), "resource 'points' of seat 0 is 'lots'"),
    ("resource NaN", _res(float("nan")), "the number nan at state/res/0/points"),
    ("resource infinity", _res(float("inf")), "the number inf"),
    ("resource 1e30", _res(1e30), "the number 1e+30"),
    ("resource huge int", _res(10**30), "too large"),
    ("resource true", _res(True), "resource 'points' of seat 0 is True"),
    ("resource changed", _bump("state/res/0/points"), "differs at state/res/0/points"),
    ("unknown resource", _extra_resource, "differs at state/res/0/gold"),
    ("resources of one seat", lambda d: d["state"]["res"].pop(), "res has 1 seats, not 2"),
    ("unknown zone", _unknown_zone("z:vault"), "unknown zone 'z:vault'"),
    ("zone of a seat 7", _unknown_zone("z:hand@7"), "unknown zone 'z:hand@7'"),
    ("active seat", _set("state/active", 5), "active seat 5 does not exist"),
    ("turn", _bump("state/turn"), "differs at state/turn"),
    ("decisions negative", _set("state/decisions", -1), "at state/decisions"),
    ("pending garbage", _set("state/pending", "x"), "at state/pending"),
    ("pending no options", _set("state/pending/options", []), "at state/pending"),
    ("pending seat", _pending_seat, "differs at state/pending/seat"),
    ("pending extra option", _pending_option, "differs at state/pending/options"),
    ("stack garbage", _set("state/stack", "x"), "at state/stack"),
    ("stack routine text", _set("state/stack/0/0", "x"), "at state/stack/0/0"),
    ("stack routine 999", _set("state/stack/0/0", 999), "the rules position does not fit"),
    ("stack pc far", _set("state/stack/0/1", 10**6), "the rules position does not fit"),
    ("result garbage", _set("state/result", 5), "at state/result"),
    ("result winner", _winner, "differs at state/result"),
    ("events garbage", _set("state/events", "x"), "at state/events"),
    ("deep nesting", _deep, "nests deeper than 64 levels"),
]


def test_there_are_at_least_fifty_cases() -> None:
    assert len(CASES) >= 50
    assert len({name for name, _, _ in CASES}) == len(CASES)


def test_the_honest_save_loads(sparks: rulecraft.Ruleset, honest: Save) -> None:
    game = Game.from_json(sparks, json.loads(json.dumps(honest)))
    assert game.to_json() == honest


@pytest.mark.parametrize(("name", "tamper", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_tampered_save_is_refused_naming_the_problem(
    sparks: rulecraft.Ruleset,
    honest: Save,
    name: str,
    tamper: Callable[[Save], None],
    message: str,
) -> None:
    data = json.loads(json.dumps(honest))
    tamper(data)
    assert data != honest, f"{name}: the tampering changed nothing"
    with pytest.raises(ValueError) as refused:
        Game.from_json(sparks, data)
    assert message in str(refused.value), str(refused.value)


def test_refusals_are_value_errors_only(sparks: rulecraft.Ruleset) -> None:
    for data in ([], None, "save", 3, {"format": "rulecraft-save", "version": 2}):
        with pytest.raises(ValueError, match=r"not a rulecraft save|at \(top\)"):
            Game.from_json(sparks, data)
