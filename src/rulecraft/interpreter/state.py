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

STATE_VERSION = 1

State = dict[str, Any]


def deep_copy(value: Any) -> Any:
    """A copy of JSON data, faster than ``copy.deepcopy`` for dicts, lists and scalars."""
    t = type(value)
    if t is dict:
        return {k: deep_copy(v) if type(v) in (dict, list) else v for k, v in value.items()}
    if t is list:
        return [deep_copy(v) if type(v) in (dict, list) else v for v in value]
    return value


def clone_state(st: State) -> State:
    """An independent copy of a state."""
    out: State = dict(st)
    out["res"] = [dict(r) for r in st["res"]]
    out["pflags"] = [list(f) for f in st["pflags"]]
    out["gvars"] = deep_copy(st["gvars"])
    out["gflags"] = list(st["gflags"])
    out["zones"] = {k: list(v) for k, v in st["zones"].items()}
    comps = {}
    for cid, c in st["comps"].items():
        cc = dict(c)
        cc["c"] = dict(c["c"]) if c["c"] else {}
        cc["f"] = list(c["f"]) if c["f"] else []
        cc["p"] = deep_copy(c["p"]) if c["p"] else {}
        if "seen" in c:
            cc["seen"] = list(c["seen"])
        comps[cid] = cc
    out["comps"] = comps
    out["stack"] = [[f[0], f[1], deep_copy(f[2])] for f in st["stack"]]
    # A pending decision and a result are never changed in place, only replaced: share them.
    out["pending"] = st["pending"]
    out["events"] = deep_copy(st["events"])
    out["used"] = dict(st["used"])
    out["rng"] = list(st["rng"])
    out["result"] = st["result"]
    out["mem"] = deep_copy(st["mem"])
    return out


def canonical_json(st: State) -> str:
    return json.dumps(st, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(st: State) -> str:
    """A stable hash of the whole state (same state, same hash, on every machine)."""
    return hashlib.blake2b(canonical_json(st).encode("utf-8"), digest_size=16).hexdigest()


STATE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": [
        "v",
        "game",
        "players",
        "rng",
        "active",
        "res",
        "zones",
        "comps",
        "stack",
        "pending",
        "result",
    ],
    "properties": {
        "v": {"const": STATE_VERSION},
        "game": {"type": "string"},
        "lang": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "rng": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "active": {"type": "integer", "minimum": 0},
        "res": {"type": "array", "items": {"type": "object"}},
        "zones": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "comps": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["d", "z", "c", "f", "p"],
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
        "pending": {"type": ["object", "null"]},
        "result": {"type": ["object", "null"]},
    },
}
