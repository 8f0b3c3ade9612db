"""The game state: one plain-data dictionary, serialisable, cloneable and hashable.

Layout (every value is JSON data)::

    {"v": 1, "game": NAME, "lang": "en", "players": 2,
     "rng": [seed, counter],                 # the random stream (see random.py)
     "active": 0, "start": 0, "turn": 1, "round": 1, "phase": 0,
     "res": [{"gold": 3}, ...],              # per-seat resources
     "pflags": [[...], ...],                 # per-seat flags
     "gvars": {...}, "gflags": [...],        # shared resources and flags
     "zones": {"z:hand@0": ["ace#1", ...], "s:b2": [...], ...},
     "comps": {"ace#1": {"d": "ace", "z": "z:hand@0", "o": 0, "s": null, "x": false,
                         "up": false, "c": {}, "f": [], "p": {}}},
     "stack": [[routine, pc, {locals}], ...],  # where the rules stand, resumable
     "pending": null | {"seat", "prompt", "kind", "options": [[id, label, value], ...]},
     "events": [...], "used": {...}, "decisions": 0, "result": null}

Nothing else holds game progress: no generator, no object graph.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rulecraft.runtime.records import ComponentState as ComponentState
from rulecraft.runtime.records import GameResult as GameResult
from rulecraft.runtime.records import PendingDecision as PendingDecision
from rulecraft.runtime.records import State as State

STATE_VERSION = 1


def deep_copy(value: Any) -> Any:
    """A copy of JSON data, faster than ``copy.deepcopy`` for dicts, lists and scalars.

    >>> data = {"a": [1, {"b": 2}], "c": None}
    >>> copy = deep_copy(data)
    >>> copy == data, copy["a"] is data["a"], copy["a"][1] is data["a"][1]
    (True, False, False)
    """
    t = type(value)
    if t is dict:
        return _copy_dict(value)
    if t is list:
        return _copy_list(value)
    return value


# Typed apart from deep_copy: compiled (make compiled), a dict's or list's own loop and an
# identity test of the type, not an iterator over any object and a tuple of types a value.
# Each starts as a copy of the whole (the dict's keys copied at once, presized: no insert
# and no resize per key) and replaces only what holds more, usually nothing.
def _copy_dict(value: dict[str, Any]) -> dict[str, Any]:
    out = value.copy()
    for k, v in value.items():
        t = type(v)
        if t is dict:
            out[k] = _copy_dict(v)
        elif t is list:
            out[k] = _copy_list(v)
    return out


def _copy_list(value: list[Any]) -> list[Any]:
    out = value.copy()
    for i, v in enumerate(value):
        t = type(v)
        if t is dict:
            out[i] = _copy_dict(v)
        elif t is list:
            out[i] = _copy_list(v)
    return out


def clone_state(st: State) -> State:
    """An independent copy of a state.

    Each component's record is copied, but not its counters, flags, fields and seen list:
    the engine replaces those, never changes them in place, so the copies share them
    (a card game's clone took half its time copying them; ``tests/engine/test_clone.py``
    plays on clones of every bundled ruleset and checks the originals stay as they were)."""
    out: State = st.copy()
    out["res"] = [dict(r) for r in st["res"]]
    out["pflags"] = [list(f) for f in st["pflags"]]
    out["gvars"] = deep_copy(st["gvars"])
    out["gflags"] = list(st["gflags"])
    # (each table copied whole, then its values replaced by their copies: the keys copied
    # at once, no insert and no resize per key)
    zones = st["zones"]
    out_zones = zones.copy()
    for key, pile in zones.items():
        out_zones[key] = pile.copy()
    out["zones"] = out_zones
    comps = st["comps"]
    out_comps = comps.copy()
    for cid, comp in comps.items():
        out_comps[cid] = comp.copy()
    out["comps"] = out_comps
    out["stack"] = [[f[0], f[1], deep_copy(f[2])] for f in st["stack"]]
    # A pending decision and a result are never changed in place, only replaced: share them.
    out["pending"] = st["pending"]
    out["events"] = deep_copy(st["events"])
    out["used"] = dict(st["used"])
    out["rng"] = list(st["rng"])
    out["result"] = st["result"]
    out["mem"] = deep_copy(st["mem"])
    return out


def redeal(
    st: State,
    dealt_from: dict[str, ComponentState],
    group: list[str],
    places: list[tuple[str, int]],
    order: list[str],
) -> None:
    """Deal the cards of ``group`` anew in ``st``, a clone of the state whose components
    are ``dealt_from``: ``order[k]`` (a shuffle of ``group``) goes to ``places[k]``, the
    place (zone, index in its pile) where ``group[k]`` lies.

    Everything about a place (zone, owner, face down, counters, flags) stays with the
    place; only which card lies there changes, so ``order[k]`` takes ``group[k]``'s
    record with its own definition.  ``st``'s records are its own (a clone's), and each
    goes to exactly one card, so they are changed in place.  (Compiled, `make compiled`:
    a search deals every hidden card again at each of its iterations.)"""
    comps = st["comps"]
    zones = st["zones"]
    records = [comps[cid] for cid in group]
    for k in range(len(group)):
        zone, index = places[k]
        cid = order[k]
        record = records[k]
        zones[zone][index] = cid
        record["d"] = dealt_from[cid]["d"]
        comps[cid] = record


def canonical_json(st: State) -> str:
    return json.dumps(st, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(st: State) -> str:
    """A stable hash of the whole state (same state, same hash, on every machine)."""
    return hashlib.blake2b(canonical_json(st).encode("utf-8"), digest_size=16).hexdigest()


SAVE_FORMAT = "rulecraft-save"
#: The save file's version (``savefile.py`` describes the format).  Version 1 was two
#: formats (the API's and the REPL's) that refused each other; 2 is the one both write.
SAVE_VERSION = 2

_INT = {"type": "integer"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 63}
_NAMES = {"type": "array", "items": {"type": "string"}}
_NUMBERS = {"type": "object", "additionalProperties": {"type": "number"}}
STATE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": [
        "v",
        "game",
        "lang",
        "players",
        "rng",
        "active",
        "start",
        "turn",
        "round",
        "phase",
        "res",
        "pflags",
        "gvars",
        "gflags",
        "zones",
        "comps",
        "stack",
        "pending",
        "events",
        "used",
        "decisions",
        "result",
        "mem",
    ],
    "properties": {
        "v": {"const": STATE_VERSION},
        "game": {"type": "string"},
        "lang": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "rng": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
            "minItems": 2,
            "maxItems": 2,
        },
        "active": _SEAT,
        "start": _SEAT,
        "first": {"type": ["integer", "null"], "minimum": 0, "maximum": 63},
        "turn": _INT,
        "round": _INT,
        "phase": {"type": "integer", "minimum": -1},
        "decisions": {"type": "integer", "minimum": 0},
        "res": {"type": "array", "items": {"type": "object"}},
        "pflags": {"type": "array", "items": _NAMES},
        "gvars": {"type": "object"},
        "gflags": _NAMES,
        "zones": {"type": "object", "additionalProperties": _NAMES},
        "comps": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["d", "z", "o", "s", "x", "c", "f", "p"],
                "properties": {
                    "d": {"type": "string"},
                    "z": {"type": "string"},
                    "o": {"type": ["integer", "null"]},
                    "s": {"type": ["string", "null"]},
                    "x": {"type": "boolean"},
                    "c": _NUMBERS,
                    "f": _NAMES,
                    "p": {"type": "object"},
                    "up": {"type": "boolean"},
                    "down": {"type": "boolean"},
                    "seen": {"type": "array", "items": _SEAT},
                },
            },
        },
        "stack": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [
                    {"type": "integer", "minimum": 0},
                    {"type": "integer", "minimum": 0},
                    {"type": "object"},
                ],
                "minItems": 3,
                "maxItems": 3,
            },
        },
        "pending": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["seat", "prompt", "kind", "options"],
                    "properties": {
                        "seat": _SEAT,
                        "prompt": {"type": "string"},
                        "kind": {"type": "string"},
                        "options": {
                            "type": "array",
                            "minItems": 1,
                            "items": {
                                "type": "array",
                                "prefixItems": [
                                    {"type": "string"},
                                    {"type": ["string", "null"]},
                                ],
                                "minItems": 3,
                                "maxItems": 3,
                            },
                        },
                    },
                },
            ]
        },
        "events": {"type": "array"},
        "used": {"type": "object"},
        "result": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["winners", "draw"],
                    "properties": {
                        "winners": {"type": "array", "items": _SEAT},
                        "draw": {"type": "boolean"},
                        "reason": {"type": "string"},
                    },
                },
            ]
        },
        "mem": {"type": "object"},
    },
}
