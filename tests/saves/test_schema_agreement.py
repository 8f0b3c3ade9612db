"""Loading checks a save against ``SAVE_SCHEMA`` with fastjsonschema's compiled checker and
asks jsonschema only to name the error of an invalid one (``savefile.schema_error``).  That
is sound only while the two agree on every document: a save the fast checker let through
but jsonschema would refuse would reach the engine.  These tests hold them to the same
answer on honest saves of every bundled ruleset and on thousands of tamperings of them
(a value replaced by one of another type or size, a key removed, a key added)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastjsonschema import JsonSchemaValueException

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.runtime import savefile

#: What a tampering puts in place of a value: every JSON type, empty and oversized ones.
REPLACEMENTS: tuple[Any, ...] = (
    None, True, 0, -1, -2, 1.5, 2.0, 70, 2**64, "", "x", "z:hand@0", "x" * 1001,
    [], [0], ["a"], [[0, "a"]], [1, "a", 2], {}, {"a": 1}, {"": []},
)  # fmt: skip
#: Tamperings of each ruleset's save: many of Tic-Tac-Toe's (a small save, quick to judge),
#: fewer of the others' (larger saves, each judged in tens of milliseconds by jsonschema),
#: whose states hold what Tic-Tac-Toe's does not (hidden cards, counters, flags, frames).
TAMPERINGS = {"tictactoe": 600}
OTHERS = 30


def fast_valid(data: Any) -> bool:
    try:
        savefile._fast_check()(data)
    except JsonSchemaValueException:
        return False
    return True


def judged_valid(data: Any) -> bool:
    return bool(savefile._validator().is_valid(data))


def honest_save(name: str, seed: int = 3, moves: int = 12) -> dict[str, Any]:
    ruleset = rulecraft.load(name)
    game = ruleset.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        ids = game.legal_ids()
        if not ids:
            break
        game.choose(rng.choice(ids))
    data: dict[str, Any] = json.loads(json.dumps(game.to_json()))
    return data


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside ``value`` (the whole document is ``()``)."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, (*path, i))


def tampered(data: dict[str, Any], rng: random.Random, paths: list[tuple[Any, ...]]) -> Any:
    """A deep copy of ``data`` with one value replaced, one key removed or one key added."""
    out = copy.deepcopy(data)
    path = rng.choice(paths[1:])
    parent: Any = out
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    how = rng.random()
    if how < 0.15 and isinstance(parent, dict):
        del parent[last]
    elif how < 0.25 and isinstance(parent[last], dict):
        parent[last][rng.choice(["zz", "p", "", "1"])] = rng.choice(REPLACEMENTS)
    else:
        parent[last] = copy.deepcopy(rng.choice(REPLACEMENTS))
    return out


@pytest.mark.parametrize("name", bundled_names())
def test_the_fast_checker_and_jsonschema_agree_on_tampered_saves(name: str) -> None:
    data = honest_save(name)
    assert fast_valid(data) and judged_valid(data)
    rng = random.Random(name)
    paths = list(places(data))
    refused = 0
    count = TAMPERINGS.get(name, OTHERS)
    for _ in range(count):
        doc = tampered(data, rng, paths)
        judged = judged_valid(doc)
        assert fast_valid(doc) == judged, (name, json.dumps(doc)[:300])
        refused += not judged
    # the tamperings exercise the schema: most of them break it, some do not
    assert count // 2 < refused < count


def test_a_refused_save_is_named_by_jsonschema() -> None:
    data = honest_save("tictactoe")
    data["state"]["players"] = "two"
    assert savefile.schema_error(data) == "state/players: 'two' is not of type 'integer'"
    data["state"]["players"] = 2
    assert savefile.schema_error(data) is None


def test_the_draft_07_schema_reads_prefix_items_as_an_items_list() -> None:
    """2020-12's ``prefixItems`` (a log line: [seat, text]) in draft-07's words."""
    log = savefile.as_draft_07(savefile.SAVE_SCHEMA)["properties"]["log"]
    assert log["items"]["items"] == [{"type": "integer", "minimum": -1}, {"type": "string"}]
    assert "prefixItems" not in json.dumps(savefile.as_draft_07(savefile.SAVE_SCHEMA))
    data = honest_save("tictactoe")
    data["log"] = [[-1, "ok"], ["no", "ok"]]
    assert not fast_valid(data) and not judged_valid(data)
