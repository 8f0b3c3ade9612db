"""Save files: their one format, its checks, and writing them safely.

A save is one JSON object, written by ``Game.save`` and by the REPL's ``save`` alike::

    {"format": "rulecraft-save", "version": 2,
     "ruleset": "sparks", "ruleset_version": "0.1",
     "players": 2, "seed": 7, "lang": "", "arranged": false,
     "choices": ["play:ember#2", ...],      # every decision since the start
     "initial": {...},                       # the state at the start (see state.py)
     "state": {...},                         # the state now
     "log": [[-1, "Player 1 starts."], ...], # or null
     "seats": {"1": "human", "2": "mcts"}}   # optional: who sits where (the REPL's)

Loading trusts nothing in it.  :func:`check_shape` checks the whole file against
:data:`SAVE_SCHEMA` (types, sizes, nesting; fastjsonschema's compiled checker answers, and
jsonschema names the place of an error) and every number for being finite and exact;
:func:`check_fits` checks that both states fit the ruleset (known cards, zones, resources
and seats, every card in exactly one place).  ``Game.from_json`` then replays the recorded
choices from the recorded start and requires the very state and log the file holds, and
requires the start to be what the ruleset makes from the recorded seed and players (an
``arranged`` start, made by ``Game.arrange``, cannot be re-made from the seed: it must hold
the ruleset's own cards and the recorded seed).  Every refusal is a ``ValueError`` that
names the problem and where it is.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.runtime import ids
from rulecraft.runtime.state import SAVE_FORMAT, SAVE_VERSION, STATE_SCHEMA, State

if TYPE_CHECKING:
    import jsonschema

    from rulecraft.runtime.program import Program

#: Deeper nesting than this is no state the engine makes (its deepest is about 8).
MAX_DEPTH = 64
#: Integers beyond this lose exactness in JSON readers that use doubles.
MAX_EXACT = 2**53
#: Temp files of an interrupted save older than this many seconds are removed.
STALE_SECONDS = 60.0
#: The prefix of the temp file a save is written to before it replaces the target.
TEMP_PREFIX = ".save-"

SAVE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": [
        "format",
        "version",
        "ruleset",
        "ruleset_version",
        "players",
        "seed",
        "lang",
        "arranged",
        "choices",
        "initial",
        "state",
        "log",
    ],
    "additionalProperties": False,
    "properties": {
        "format": {"const": SAVE_FORMAT},
        "version": {"const": SAVE_VERSION},
        "ruleset": {"type": "string"},
        "ruleset_version": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "maximum": 64},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "lang": {"type": "string", "maxLength": 16},
        "arranged": {"type": "boolean"},
        "choices": {"type": "array", "items": {"type": "string", "maxLength": 1000}},
        "initial": {"$ref": "#/$defs/state"},
        "state": {"$ref": "#/$defs/state"},
        "log": {
            "type": ["array", "null"],
            "items": {
                "type": "array",
                "prefixItems": [{"type": "integer", "minimum": -1}, {"type": "string"}],
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "seats": {
            "type": "object",
            "propertyNames": {"pattern": "^[1-9][0-9]?$"},
            "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 200},
        },
    },
    "$defs": {"state": {k: v for k, v in STATE_SCHEMA.items() if k != "$schema"}},
}


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    # Building a validator checks the schema itself: do it once, not on every load.
    import jsonschema

    return jsonschema.Draft202012Validator(SAVE_SCHEMA)


#: The draft fastjsonschema is given :data:`SAVE_SCHEMA` in (it reads drafts up to 2019-09).
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
#: Keywords whose value maps names (of properties, of definitions) to schemas.
_NAMED_SCHEMAS = frozenset({"properties", "patternProperties", "$defs", "definitions"})


def as_draft_07(schema: Any) -> Any:
    """A 2020-12 schema in draft-07's words: ``prefixItems`` is draft-07's ``items`` list,
    and an ``items`` beside it is ``additionalItems`` (the schema of the items after).

    >>> as_draft_07({"type": "array", "prefixItems": [{"type": "integer"}], "items": False})
    {'type': 'array', 'items': [{'type': 'integer'}], 'additionalItems': False}
    """
    if isinstance(schema, list):
        return [as_draft_07(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$schema":
            out[key] = DRAFT_07
        elif key in _NAMED_SCHEMAS and isinstance(value, dict):
            out[key] = {name: as_draft_07(v) for name, v in value.items()}
        elif key == "prefixItems":
            out["items"] = as_draft_07(value)
        elif key == "items" and "prefixItems" in schema:
            out["additionalItems"] = as_draft_07(value)
        else:
            out[key] = as_draft_07(value)
    return out


@lru_cache(maxsize=1)
def _fast_check() -> Callable[[Any], Any]:
    """:data:`SAVE_SCHEMA` compiled to Python by fastjsonschema: a valid save passes it
    about 20x faster than jsonschema walks it (a 150-decision save: 2.5 ms against 57 ms),
    and loading runs it on every save.  jsonschema stays the judge of an invalid one (its
    message names the place); ``tests/saves/test_schema_agreement.py`` holds the two to
    the same answers."""
    import fastjsonschema

    check: Callable[[Any], Any] = fastjsonschema.compile(as_draft_07(SAVE_SCHEMA))
    return check


def schema_error(data: Any) -> str | None:
    """Where and why ``data`` breaks :data:`SAVE_SCHEMA` (the first error by place), or
    ``None`` when it fits."""
    from fastjsonschema import JsonSchemaValueException

    try:
        _fast_check()(data)
        return None
    except JsonSchemaValueException:
        pass  # jsonschema finds the error again and names it
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    err = errors[0]
    return f"{_path(err.absolute_path)}: {err.message}"


def _path(parts: Any) -> str:
    return "/".join(str(p) for p in parts) or "(top)"


def _walk(value: Any) -> Iterator[tuple[tuple[Any, ...], Any, int]]:
    """Every value inside ``value`` with its path and depth, without recursion (a
    hostile file may nest far deeper than Python's stack)."""
    todo: list[tuple[tuple[Any, ...], Any, int]] = [((), value, 0)]
    while todo:
        path, item, depth = todo.pop()
        yield path, item, depth
        if isinstance(item, dict):
            todo.extend(((*path, k), v, depth + 1) for k, v in item.items())
        elif isinstance(item, list):
            todo.extend(((*path, i), v, depth + 1) for i, v in enumerate(item))


def check_shape(data: Any) -> None:
    """The file's outline, nesting, numbers and schema (``ValueError`` naming the place)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError("not a rulecraft save (no 'format': 'rulecraft-save')")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(
            f"unsupported save version {data.get('version')!r} "
            f"(this rulecraft reads version {SAVE_VERSION})"
        )
    for path, item, depth in _walk(data):
        if depth > MAX_DEPTH:
            raise ValueError(f"the save nests deeper than {MAX_DEPTH} levels at {_path(path)}")
        if isinstance(item, float) and not (math.isfinite(item) and abs(item) <= MAX_EXACT):
            raise ValueError(f"the save holds the number {item!r} at {_path(path)}")
        if isinstance(item, int) and abs(item) > 2**64:
            raise ValueError(f"the save holds the number {item} at {_path(path)}: too large")
    problem = schema_error(data)
    if problem is not None:
        raise ValueError(f"the save is not valid at {problem}")


def zone_keys(prog: Program, players: int) -> set[str]:
    """Every zone key a state of ``players`` seats may hold."""
    keys = {ids.space_id(space) for space in (prog.map.spaces if prog.map is not None else ())}
    for name, spec in prog.zones.items():
        if spec.per_player:
            keys.update(ids.zone_key(name, seat) for seat in range(players))
        else:
            keys.add(ids.zone_key(name))
    return keys


def check_fits(prog: Program, st: State, players: int, what: str) -> None:
    """The state ``what`` (``"state"`` or ``"initial"``) fits the ruleset: its game, seats,
    resources, zones and cards (``ValueError`` naming the problem)."""
    if st["game"] != prog.name:
        raise ValueError(f"the saved {what} is for {st['game']!r}, not {prog.name!r}")
    if st["players"] != players or not prog.min_players <= players <= prog.max_players:
        raise ValueError(
            f"the saved {what} has {st['players']} players; the save says {players} and "
            f"{prog.name} is for {prog.min_players}-{prog.max_players}"
        )
    if not 0 <= st["active"] < players:
        raise ValueError(f"the saved {what}: active seat {st['active']} does not exist")
    for key in ("res", "pflags"):
        if len(st[key]) != players:
            raise ValueError(f"the saved {what}: {key} has {len(st[key])} seats, not {players}")
    _check_resources(prog, st, what)
    _check_tiles(prog, st, what)
    _check_cards(prog, st, players, what)
    _check_stack(prog, st, what)


def _check_resources(prog: Program, st: State, what: str) -> None:
    """Declared resources hold whole numbers (a player's other fields may hold any value)."""
    for seat, res in enumerate(st["res"]):
        for name, spec in prog.resources.items():
            value = res.get(name, 0) if spec.per_player else st["gvars"].get(name, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                who = f"of seat {seat}" if spec.per_player else "of the game"
                raise ValueError(f"the saved {what}: resource {name!r} {who} is {value!r}")


def _check_tiles(prog: Program, st: State, what: str) -> None:
    """A map with tiles: the state places every tile in one slot (``state["tiles"]``)."""
    tiles = prog.map.tiles if prog.map is not None else ()
    placement = st.get("tiles")
    if not tiles:
        if placement is not None:
            raise ValueError(f"the saved {what} places map tiles; {prog.name} has none")
        return
    if not isinstance(placement, list) or sorted(map(str, placement)) != sorted(
        t.id for t in tiles
    ):
        raise ValueError(
            f"the saved {what}: the map tiles {placement!r} are not the {len(tiles)} tiles "
            f"of {prog.name}, one in each slot"
        )


def _check_cards(prog: Program, st: State, players: int, what: str) -> None:
    known = zone_keys(prog, players)
    comps = st["comps"]
    seen: dict[str, str] = {}
    for key, pile in st["zones"].items():
        if key not in known:
            raise ValueError(f"the saved {what}: unknown zone {key!r}")
        for cid in pile:
            if cid not in comps:
                raise ValueError(f"the saved {what}: unknown card {cid!r} in zone {key!r}")
            if cid in seen:
                raise ValueError(
                    f"the saved {what}: card {cid!r} is in {seen[cid]!r} and in {key!r}"
                )
            seen[cid] = key
    for cid, comp in comps.items():
        if comp["d"] not in prog.defs:
            raise ValueError(f"the saved {what}: unknown card definition {comp['d']!r} ({cid})")
        if seen.get(cid) != comp["z"]:
            raise ValueError(f"the saved {what}: card {cid!r} is not where it says it is")
        owner = comp.get("o")
        if owner is not None and not 0 <= owner < players:
            raise ValueError(f"the saved {what}: card {cid!r} has owner {owner}, no such seat")


def _check_stack(prog: Program, st: State, what: str) -> None:
    for routine, pc, _ in st["stack"]:
        if routine >= len(prog.routines) or pc > len(prog.routines[routine].code):
            raise ValueError(f"the saved {what}: the rules position does not fit this ruleset")


def first_difference(a: Any, b: Any, path: tuple[Any, ...] = ()) -> str:
    """Where two JSON values first differ (a path such as ``res/0/gold``)."""
    while True:
        if type(a) is not type(b):
            return _path(path)
        if isinstance(a, dict):
            keys = sorted(set(a) | set(b), key=str)
            diff = next((k for k in keys if k not in a or k not in b or a[k] != b[k]), None)
            if diff is None or diff not in a or diff not in b:
                return _path((*path, diff)) if diff is not None else _path(path)
            a, b, path = a[diff], b[diff], (*path, diff)
        elif isinstance(a, list):
            if len(a) != len(b):
                return _path(path)
            i = next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), None)
            if i is None:
                return _path(path)
            a, b, path = a[i], b[i], (*path, i)
        else:
            return _path(path)


def read_save(path: str | os.PathLike[str]) -> Any:
    """The decoded JSON of a save file (``ValueError`` when it cannot be read)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"cannot read the save: nested deeper than {MAX_DEPTH} levels") from None
    except (OSError, ValueError) as err:  # ValueError: bad UTF-8, bad JSON, 5000 digits
        raise ValueError(f"cannot read the save: {err}") from None


def write_save(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that a crash at any moment leaves the old file or the
    new one: a temp file beside it, written in one go, fsynced, renamed over the target,
    and the folder fsynced so the rename itself survives a power cut.  Temp files that an
    interrupted save (``kill -9``) left behind are removed first."""
    target = Path(path)
    folder = target.parent
    remove_stale_temps(folder)
    fd = -1
    tmp = folder / f"{TEMP_PREFIX}{target.name}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:  # a folder that cannot be opened (some platforms): nothing to sync
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def remove_stale_temps(folder: Path, older_than: float = STALE_SECONDS) -> list[Path]:
    """Remove save temp files in ``folder`` older than ``older_than`` seconds (a save in
    progress elsewhere is younger and is left alone); return what was removed."""
    removed: list[Path] = []
    now = time.time()
    try:
        candidates = list(folder.glob(f"{TEMP_PREFIX}*"))
    except OSError:
        return removed
    for tmp in candidates:
        try:
            if tmp.is_file() and now - tmp.stat().st_mtime > older_than:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            continue
    return removed
