"""The map: one model for square grids, hex grids and graphs of areas.

A :class:`~rulecraft.runtime.program.MapSpec` gives every space an id, coordinates,
a terrain and its neighbours.  Square grids name spaces like a chess board (``a1`` is
column 0, row 0); hex grids use axial coordinates ``q,r``; graphs name areas freely.
Movement costs come from terrain; line of sight is blocked by terrain listed in
``blocks_sight``.

>>> from rulecraft.runtime.map import build_map
>>> m = build_map({"kind": "square", "width": 3, "height": 3})
>>> m.spaces[:4], m.adjacency["b2"]
(('a1', 'b1', 'c1', 'a2'), ('b1', 'a2', 'c2', 'b3'))
"""

from __future__ import annotations

import dataclasses
import heapq
from collections import deque
from typing import TYPE_CHECKING, Any, Final

from rulecraft.rng import Rng, mix64, shuffled
from rulecraft.runtime import ids, incremental
from rulecraft.runtime.program import MapSlot, MapSpec, MapTile
from rulecraft.runtime.values import as_int

if TYPE_CHECKING:
    from rulecraft.runtime.engine import Ctx

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
SQUARE_DIRECTIONS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
HEX_DIRECTIONS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def square_id(x: int, y: int) -> str:
    return f"{_LETTERS[x]}{y + 1}" if x < len(_LETTERS) else f"{x},{y}"


def _square_grid(
    spec: dict[str, Any],
    width: int,
    height: int,
    spaces: list[str],
    coords: dict[str, tuple[int, int]],
    adjacency: dict[str, tuple[str, ...]],
) -> None:
    """A square grid's spaces (row by row, named A1, B1, ...) and their neighbours (the
    four sides, and the corners when ``diagonal``), added to the tables given."""
    diagonal = bool(spec.get("diagonal", False))
    for y in range(height):
        for x in range(width):
            sid = square_id(x, y)
            spaces.append(sid)
            coords[sid] = (x, y)
    steps = [(0, -1), (-1, 0), (1, 0), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    for sid, (x, y) in coords.items():
        adjacency[sid] = tuple(
            square_id(x + dx, y + dy)
            for dx, dy in steps
            if 0 <= x + dx < width and 0 <= y + dy < height
        )


def tile_space_id(tile: str, space: str) -> str:
    """The map's id of space ``space`` of tile ``tile``: the two joined by ``_``.

    >>> tile_space_id("moor", "a")
    'moor_a'
    """
    return f"{tile}_{space}"


def port_ref(ref: str) -> tuple[str, str] | None:
    """``"SLOT.PORT"`` as (slot, port); None for anything else.

    >>> port_ref("a1.e"), port_ref("inn")
    (('a1', 'e'), None)
    """
    slot, dot, port = ref.partition(".")
    return (slot, port) if dot and slot and port and "." not in port else None


def _tiles(spec: dict[str, Any], terrain: dict[str, str]) -> tuple[MapTile, ...]:
    """The tiles of ``map: tiles:``, their spaces' terrain added to ``terrain``."""
    out: list[MapTile] = []
    for tile in spec.get("tiles") or ():
        tid = str(tile["id"])
        spaces: list[str] = []
        offsets: dict[str, tuple[int, int]] = {}
        ports: dict[str, list[str]] = {}
        for item in tile.get("spaces") or ():
            sid = tile_space_id(tid, str(item["id"]))
            spaces.append(sid)
            offsets[sid] = (int(item.get("x", 0)), int(item.get("y", 0)))
            if "terrain" in item:
                terrain[sid] = str(item["terrain"])
            for port in item.get("ports") or ():
                ports.setdefault(str(port), []).append(sid)
        out.append(MapTile(tid, tuple(spaces), offsets, {k: tuple(v) for k, v in ports.items()}))
    return tuple(out)


def _tile_links(spec: dict[str, Any], links: dict[str, set[str]]) -> None:
    """The links inside each tile (``adjacent`` names the tile's own spaces), both ways."""
    for tile in spec.get("tiles") or ():
        tid = str(tile["id"])
        local = {str(item["id"]) for item in tile.get("spaces") or ()}
        for item in tile.get("spaces") or ():
            sid = tile_space_id(tid, str(item["id"]))
            for other in item.get("adjacent") or ():
                if str(other) in local:
                    oid = tile_space_id(tid, str(other))
                    links.setdefault(sid, set()).add(oid)
                    links.setdefault(oid, set()).add(sid)


def _graph_links(
    spec: dict[str, Any], links: dict[str, set[str]]
) -> tuple[tuple[str, str, str], ...]:
    """The links between the board's own spaces (both ways), added to ``links``; an
    ``adjacent`` entry ``SLOT.PORT`` that names no space is returned as a board port."""
    ports: list[tuple[str, str, str]] = []
    for item in spec.get("spaces") or ():
        sid = str(item["id"])
        for other in item.get("adjacent") or ():
            ref = port_ref(str(other))
            if str(other) not in links and ref is not None and spec.get("tiles"):
                ports.append((sid, ref[0], ref[1]))
                continue
            links.setdefault(sid, set()).add(str(other))
            links.setdefault(str(other), set()).add(sid)
    return tuple(ports)


def _joins(spec: dict[str, Any]) -> tuple[tuple[str, str, str, str], ...]:
    """``slots: joins:`` as (slot, port, slot, port), each pair once."""
    out: list[tuple[str, str, str, str]] = []
    for item in spec.get("slots") or ():
        for port, target in (item.get("joins") or {}).items():
            ref = port_ref(str(target))
            if ref is not None:
                out.append((str(item["id"]), str(port), ref[0], ref[1]))
    return tuple(out)


def build_map(spec: dict[str, Any]) -> MapSpec:
    """Build the map model from the manifest's ``map`` section."""
    kind = spec["kind"]
    terrain: dict[str, str] = {}
    coords: dict[str, tuple[int, int]] = {}
    adjacency: dict[str, tuple[str, ...]] = {}
    spaces: list[str] = []
    width = int(spec.get("width", 0))
    height = int(spec.get("height", 0))
    default_terrain = spec.get("default_terrain")
    tiles: tuple[MapTile, ...] = ()
    board_ports: tuple[tuple[str, str, str], ...] = ()
    if kind == "square":
        _square_grid(spec, width, height, spaces, coords, adjacency)
    elif kind == "hex":
        listed = spec.get("spaces")
        if listed:
            for item in listed:
                q, r = int(item["q"]), int(item["r"])
                sid = str(item.get("id", f"{q},{r}"))
                spaces.append(sid)
                coords[sid] = (q, r)
        else:
            for r in range(height):
                for q in range(width):
                    sid = f"{q},{r}"
                    spaces.append(sid)
                    coords[sid] = (q, r)
        by_coord = {v: k for k, v in coords.items()}
        for sid, (q, r) in coords.items():
            adjacency[sid] = tuple(
                by_coord[(q + dq, r + dr)]
                for dq, dr in HEX_DIRECTIONS
                if (q + dq, r + dr) in by_coord
            )
    else:  # graph
        for i, item in enumerate(spec.get("spaces") or ()):
            sid = str(item["id"])
            spaces.append(sid)
            coords[sid] = (int(item.get("x", i)), int(item.get("y", 0)))
        tiles = _tiles(spec, terrain)
        links: dict[str, set[str]] = {s: set() for s in spaces}
        for tile in tiles:
            spaces.extend(tile.spaces)
        _tile_links(spec, links)
        board_ports = _graph_links(spec, links)
        adjacency = {s: tuple(sorted(links.get(s, ()))) for s in spaces}
    for item in spec.get("spaces", []) or []:
        if isinstance(item, dict) and "terrain" in item:
            sid = str(item.get("id", f"{item.get('q')},{item.get('r')}"))
            terrain[sid] = str(item["terrain"])
    for sid, t in (spec.get("terrain") or {}).items():
        terrain[str(sid)] = str(t)
    if default_terrain:
        for sid in spaces:
            terrain.setdefault(sid, str(default_terrain))
    costs = {str(k): int(v) for k, v in (spec.get("costs") or {}).items()}
    return MapSpec(
        kind=kind,
        width=width,
        height=height,
        spaces=tuple(spaces),
        coords=coords,
        terrain=terrain,
        adjacency=adjacency,
        costs=costs,
        blocks_sight=frozenset(spec.get("blocks_sight", [])),
        by_coord={xy: sid for sid, xy in coords.items()},
        zone_keys=tuple((ids.space_id(sid), coords[sid]) for sid in spaces if sid in coords),
        tiles=tiles,
        slots=tuple(
            MapSlot(str(item["id"]), (int(item.get("x", 0)), int(item.get("y", 0))))
            for item in spec.get("slots") or ()
        ),
        joins=_joins(spec),
        board_ports=board_ports,
        place_tiles=str(spec.get("place_tiles", "shuffle")),
    )


# ---------------------------------------------------------------------------- tiles placed
#: placed maps kept per map (a game keeps its placement; a long run meets many)
_PLACED_KEPT = 512


#: the tiles are shuffled with a stream of their own, derived from the game's seed, so a
#: board of tiles leaves every other random event of a seed as it was
_TILE_STREAM = 0x7469_6C65_735F_6D61


def deal_tiles(mp: MapSpec, seed: int) -> list[str]:
    """The tile of each slot at the start of a game (tile ids, slot by slot): shuffled
    with the game's seed (``place_tiles: shuffle``), or the tiles in the order listed
    (``listed``).  Same seed, same board."""
    order = [t.id for t in mp.tiles]
    if mp.place_tiles == "listed":
        return order
    mixed, _ = shuffled(Rng(mix64((seed ^ _TILE_STREAM) & ((1 << 64) - 1))), order)
    return mixed


def placed_map(mp: MapSpec, placement: tuple[str, ...]) -> MapSpec:
    """The map with its tiles in the slots ``placement`` names (tile ids, slot by slot),
    built once per placement and kept."""
    hit = mp.placed.get(placement)
    if hit is None:
        if len(mp.placed) >= _PLACED_KEPT:
            mp.placed.clear()
        hit = mp.placed[placement] = _place(mp, placement)
    return hit


def _place(mp: MapSpec, placement: tuple[str, ...]) -> MapSpec:
    """Build the map of one placement: where each tile space lies (its slot's origin plus
    its offset) and the links across slots (``joins``) and to the board (``board_ports``)."""
    tiles = {t.id: t for t in mp.tiles}
    in_slot = {slot.id: tiles[tid] for slot, tid in zip(mp.slots, placement, strict=True)}
    coords = dict(mp.coords)
    for slot in mp.slots:
        ox, oy = slot.origin
        for sid, (dx, dy) in in_slot[slot.id].offsets.items():
            coords[sid] = (ox + dx, oy + dy)
    links = {s: set(adj) for s, adj in mp.adjacency.items()}

    def touch(a: str, b: str) -> None:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for slot_a, port_a, slot_b, port_b in mp.joins:
        for a in in_slot[slot_a].ports.get(port_a, ()):
            for b in in_slot[slot_b].ports.get(port_b, ()):
                touch(a, b)
    for sid, slot_id, port in mp.board_ports:
        for b in in_slot[slot_id].ports.get(port, ()):
            touch(sid, b)
    return dataclasses.replace(
        mp,
        coords=coords,
        adjacency={s: tuple(sorted(links.get(s, ()))) for s in mp.spaces},
        by_coord={xy: sid for sid, xy in coords.items()},
        zone_keys=tuple((ids.space_id(sid), coords[sid]) for sid in mp.spaces),
        placement=placement,
        # its own caches: its spaces lie elsewhere, and link otherwise, than the board's
        # alone (dataclasses.replace would hand it the board's dictionaries)
        placed={},
        lines={},
        lines_through={},
        routes={},
        neighbor_keys={},
        key_costs={},
        distances={},
    )


def current_map(ctx: Ctx) -> MapSpec:
    """The map of this game: the ruleset's map, with its tiles where this game placed them
    (``state["tiles"]``, slot by slot; the listed order in a state that has none)."""
    mp = ctx.prog.map
    if mp is None:
        from rulecraft.runtime.engine import RuleError

        raise RuleError("this ruleset has no map")
    if not mp.tiles:
        return mp
    placement = ctx.st.get("tiles")
    last = _LAST_PLACED
    if last[1] is placement and last[0] is mp and placement is not None:
        # the same list as the last call's (a clone shares it: it is replaced, never
        # changed in place); holding it keeps its identity from being reused
        hit: MapSpec = last[2]
        return hit
    placed = placed_map(mp, tuple(placement) if placement else tuple(t.id for t in mp.tiles))
    _LAST_PLACED[:] = [mp, placement, placed]
    return placed


#: (map, the state's placement list, its placed map) of the last call of current_map
_LAST_PLACED: list[Any] = [None, None, None]


def _sid(value: Any) -> str:
    if ids.is_space(value):
        return ids.space_name(value)
    return str(value)


def space_of(ctx: Ctx, value: Any) -> str | None:
    """The space id of a space value, or of the space a component stands on."""
    if ids.is_space(value):
        return ids.space_name(value)
    if ids.is_component(value):
        z = ctx.comps[value]["z"]
        return ids.space_name(z) if ids.is_space(z) else None
    return None


def adjacent(ctx: Ctx, a: list[Any]) -> bool:
    mp = current_map(ctx)
    x, y = space_of(ctx, a[0]), space_of(ctx, a[1])
    return x is not None and y is not None and y in mp.adjacency.get(x, ())


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


#: Maps with more spaces than this work each distance out afresh: a table of every pair
#: would hold a million entries.
MAX_DISTANCE_TABLE = 1024


def distance(ctx: Ctx, a: list[Any]) -> int:
    """Steps between two spaces or the spaces two pieces stand on (hex distance on hex
    grids, steps along the links otherwise; -1 when there is no way, or no space).  The
    steps from a space to every other are worked out once per map (a map's links and
    coordinates never change while it lies: a placement of tiles is a map of its own)."""
    mp = current_map(ctx)
    x, y = a[0], a[1]
    if type(x) is str and type(y) is str:  # two spaces' piles: one lookup in the table
        row = mp.distances.get(x)
        if row is not None:
            known = row.get(y)
            if known is not None:
                return known
    sx, sy = space_of(ctx, x), space_of(ctx, y)
    if sx is None or sy is None:
        return -1
    coords = mp.coords
    if len(mp.spaces) > MAX_DISTANCE_TABLE or sx not in coords or sy not in coords:
        return _distance_afresh(mp, sx, sy)
    key = ids.space_id(sx)
    row = mp.distances.get(key)
    if row is None:
        steps = _steps_from(mp, sx)
        row = mp.distances[key] = {ids.space_id(s): steps.get(s, -1) for s in mp.spaces}
    return row[ids.space_id(sy)]


def _steps_from(mp: MapSpec, start: str) -> dict[str, int]:
    """The distance from space ``start`` to every space that has one: hex distance on a
    hex grid (every space), else the fewest links (every space linked to it at all)."""
    if mp.kind == "hex":
        here = mp.coords[start]
        return {s: hex_distance(here, mp.coords[s]) for s in mp.spaces}
    seen = {start: 0}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        for nxt in mp.adjacency.get(cur, ()):
            if nxt not in seen:
                seen[nxt] = seen[cur] + 1
                todo.append(nxt)
    return seen


def _distance_afresh(mp: MapSpec, x: str, y: str) -> int:
    """The distance between spaces ``x`` and ``y`` worked out (no table): hex distance on
    a hex grid, else the fewest links from one to the other (-1: none)."""
    if mp.kind == "hex":
        return hex_distance(mp.coords[x], mp.coords[y])
    return _steps_from(mp, x).get(y, -1)


def space_at(ctx: Ctx, a: list[Any]) -> str | None:
    sid = current_map(ctx).by_coord.get((int(a[0]), int(a[1])))
    return None if sid is None else ids.space_id(sid)


def in_a_row(ctx: Ctx, a: list[Any]) -> bool:
    """Does player a[0] own pieces on ``a[1]`` spaces in a straight line (any direction)?

    A space is the player's when one of its pieces is.  On a map of at most
    :data:`MAX_MASKED_SPACES` spaces the player's spaces are one integer's bits, tested
    against every line of ``n`` spaces of the map, worked out once (:func:`lines_of`);
    a larger map walks the lines out from the player's own spaces instead."""
    mp = current_map(ctx)
    seat = ids.seat_of(a[0])
    n = as_int(a[1])
    if len(mp.zone_keys) > MAX_MASKED_SPACES:
        return _in_a_row_walking(ctx, mp, seat, n)
    if mp is ctx.prog.map:  # no tiles: each seat's spaces kept up to date as pieces move
        masks = incremental.owned_spaces(ctx, mp)
        mask = masks[seat] if 0 <= seat < len(masks) else 0
        if n <= 1:
            return mask != 0
        if n > MAX_MASKED_SPACES:
            return False  # longer than the map has spaces (and than _has_line's keys tell)
        return _has_line(ctx, mp, seat, n, mask)
    zones = ctx.zones
    comps = ctx.comps
    mask = 0
    bit = 1
    owned = 0
    for key, _ in mp.zone_keys:
        pile = zones.get(key)
        if pile:
            for cid in pile:
                if comps[cid]["o"] == seat:
                    mask |= bit
                    owned += 1
                    break
        bit <<= 1
    if n <= 1:
        return owned > 0  # a line of one space (or none) is any space of the player's
    if owned < n:
        return False
    # a loop, not any(): compiled (make compiled), a generator costs a call a line
    for line in lines_of(mp, n):  # noqa: SIM110
        if (mask & line) == line:
            return True
    return False


def _has_line(ctx: Ctx, mp: MapSpec, seat: int, n: int, mask: int) -> bool:
    """Does ``mask`` (``seat``'s spaces) hold a line of ``n``?  Near the last move: when
    the seat's spaces are those of its last "no" and more, only the lines through the
    spaces gained since are looked at (a line through none of them was not whole then,
    and is not now)."""
    rows = ctx.rows
    if rows is None:
        rows = ctx.rows = {}
    key = seat * (MAX_MASKED_SPACES + 1) + n  # (seat, n) as one int: no tuple to hash
    found = rows.get(key)
    checked: int = -1 if found is None else found
    if checked != -1 and (checked & ~mask) == 0:
        gained: int = mask & ~checked
        through = lines_through(mp, n)
        while gained:
            low = gained & -gained
            gained ^= low
            for line in through[low.bit_length() - 1]:
                if (mask & line) == line:
                    return True
    else:
        for line in lines_of(mp, n):
            if (mask & line) == line:
                return True
    rows[key] = mask
    return False


def lines_through(mp: MapSpec, n: int) -> tuple[tuple[int, ...], ...]:
    """Space by space (bit ``i`` for ``mp.zone_keys[i]``), the lines of :func:`lines_of`
    that pass through it, kept with the map.

    >>> from rulecraft.runtime.program import MapSpec
    >>> coords = {f"{x}{y}": (x, y) for x in range(3) for y in range(3)}
    >>> mp = MapSpec("square", 3, 3, tuple(coords), coords, {}, {}, {}, frozenset(),
    ...              zone_keys=tuple((k, xy) for k, xy in coords.items()))
    >>> [len(lines) for lines in lines_through(mp, 3)]  # the centre is on four lines
    [3, 2, 3, 2, 4, 2, 3, 2, 3]
    """
    found = mp.lines_through.get(n)
    if found is None:
        lines = lines_of(mp, n)
        found = tuple(
            tuple(line for line in lines if line >> i & 1) for i in range(len(mp.zone_keys))
        )
        mp.lines_through[n] = found
    return found


#: The most spaces a map may have for :func:`in_a_row` to keep its lines as bit masks
#: (each line an integer of that many bits; beyond, the lines of a big map would cost
#: more memory than walking them).
MAX_MASKED_SPACES: Final = 256


def _directions(mp: MapSpec) -> list[tuple[int, int]]:
    """The straight lines' directions: three on a hex grid, four (with the diagonals) else."""
    return [(1, 0), (0, 1), (1, -1)] if mp.kind == "hex" else [(1, 0), (0, 1), (1, 1), (1, -1)]


def lines_of(mp: MapSpec, n: int) -> tuple[int, ...]:
    """Every line of ``n`` spaces of the map in a straight line, as a bit mask over
    ``mp.zone_keys`` (bit ``i`` for the ``i``-th space), kept with the map.

    >>> from rulecraft.runtime.program import MapSpec
    >>> coords = {f"{x}{y}": (x, y) for x in range(3) for y in range(3)}
    >>> mp = MapSpec("square", 3, 3, tuple(coords), coords, {}, {}, {}, frozenset(),
    ...              zone_keys=tuple((k, xy) for k, xy in coords.items()))
    >>> len(lines_of(mp, 3)), len(lines_of(mp, 2))  # 3 rows, 3 columns, 2 diagonals
    (8, 20)
    """
    found = mp.lines.get(n)
    if found is None:
        index = {xy: i for i, (_, xy) in enumerate(mp.zone_keys)}
        lines = []
        for (x, y), _ in index.items():
            for dx, dy in _directions(mp):
                line = 0
                for k in range(n):
                    i = index.get((x + dx * k, y + dy * k))
                    if i is None:
                        break
                    line |= 1 << i
                else:
                    lines.append(line)
        found = mp.lines[n] = tuple(lines)
    return found


def _in_a_row_walking(ctx: Ctx, mp: MapSpec, seat: int, n: int) -> bool:
    """:func:`in_a_row` on a big map: from each of the player's spaces that starts a line."""
    zones = ctx.zones
    comps = ctx.comps
    owned: set[tuple[int, int]] = set()
    for key, xy in mp.zone_keys:
        pile = zones.get(key)
        if pile:
            for cid in pile:
                if comps[cid]["o"] == seat:
                    owned.add(xy)
                    break
    if len(owned) < n:
        return False
    dirs = _directions(mp)
    for x, y in owned:
        for dx, dy in dirs:
            if (x - dx, y - dy) in owned:
                continue  # not the start of this line
            length = 1
            while (x + dx * length, y + dy * length) in owned:
                length += 1
            if length >= n:
                return True
    return False


def enter_cost(mp: MapSpec, sid: str) -> int:
    """What entering space ``sid`` costs: its terrain's cost (1 if none is given; a
    negative cost: it cannot be entered).  A space's ``cost`` field reads it too."""
    return mp.costs.get(mp.terrain.get(sid, ""), 1)


def routes_from(mp: MapSpec, start: str) -> tuple[dict[str, int], dict[str, str]]:
    """Dijkstra from ``start`` over the whole map: the cheapest cost of every space reached
    (entering a space costs its terrain; a negative cost is impassable) and the step each
    came from.  Worked out once per map and start: a map's terrain and links are fixed.

    A space's cost and step are final once it leaves the heap and are never improved
    after, so a search stopped at a goal or held to a budget would have found the same.

    >>> from rulecraft.runtime.program import MapSpec
    >>> line = {"a": ("b",), "b": ("a", "c"), "c": ("b",)}
    >>> mp = MapSpec("graph", 0, 0, ("a", "b", "c"), {}, {"c": "hill"}, line, {"hill": 2},
    ...              frozenset())
    >>> routes_from(mp, "a")
    ({'a': 0, 'b': 1, 'c': 3}, {'b': 'a', 'c': 'b'})
    >>> routes_from(mp, "a") is routes_from(mp, "a")
    True
    """
    found = mp.routes.get(start)
    if found is not None:
        return found
    best = {start: 0}
    previous: dict[str, str] = {}
    heap = [(0, start)]
    while heap:
        cost, cur = heapq.heappop(heap)
        if cost > best[cur]:
            continue
        for nxt in mp.adjacency.get(cur, ()):
            step_cost = enter_cost(mp, nxt)
            if step_cost < 0:
                continue
            nc = cost + step_cost
            if nc < best.get(nxt, 1 << 30):
                best[nxt] = nc
                previous[nxt] = cur
                heapq.heappush(heap, (nc, nxt))
    found = mp.routes[start] = (best, previous)
    return found


def path_cost(ctx: Ctx, a: list[Any]) -> int:
    """The cheapest cost to move from a[0] to a[1] (entering a space costs its terrain)."""
    mp = current_map(ctx)
    x, y = space_of(ctx, a[0]), space_of(ctx, a[1])
    if x is None or y is None:
        return -1
    return routes_from(mp, x)[0].get(y, -1)


def path(ctx: Ctx, a: list[Any]) -> list[str]:
    """The spaces of the cheapest route from a[0] to a[1], both ends included ([] if none)."""
    mp = current_map(ctx)
    x, y = space_of(ctx, a[0]), space_of(ctx, a[1])
    if x is None or y is None:
        return []
    best, previous = routes_from(mp, x)
    if y not in best:
        return []
    route = [y]
    while route[-1] != x:
        route.append(previous[route[-1]])
    return [ids.space_id(s) for s in reversed(route)]


def reach(ctx: Ctx, a: list[Any]) -> list[str]:
    """Every space reachable from a[0] with a budget of a[1] movement points."""
    mp = current_map(ctx)
    x = space_of(ctx, a[0])
    if x is None:
        return []
    budget = int(a[1])
    best = routes_from(mp, x)[0]
    return [ids.space_id(s) for s in mp.spaces if s != x and best.get(s, budget + 1) <= budget]


def _line(mp: MapSpec, x: str, y: str) -> list[str]:
    """The spaces a straight line from x to y passes through (ends excluded)."""
    by_coord = mp.by_coord
    (x0, y0), (x1, y1) = mp.coords[x], mp.coords[y]
    out: list[str] = []
    if mp.kind == "hex":
        n = hex_distance((x0, y0), (x1, y1))
        for i in range(1, n):
            t = i / n
            q = x0 + (x1 - x0) * t + 1e-6
            r = y0 + (y1 - y0) * t + 1e-6
            s = -q - r
            rq, rr, rs = round(q), round(r), round(s)
            dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
            if dq > dr and dq > ds:
                rq = -rr - rs
            elif dr > ds:
                rr = -rq - rs
            sid = by_coord.get((rq, rr))
            if sid:
                out.append(sid)
        return out
    n = max(abs(x1 - x0), abs(y1 - y0))
    for i in range(1, n):
        px = round(x0 + (x1 - x0) * i / n)
        py = round(y0 + (y1 - y0) * i / n)
        sid = by_coord.get((px, py))
        if sid:
            out.append(sid)
    return out


def line_of_sight(ctx: Ctx, a: list[Any]) -> bool:
    """No space strictly between a[0] and a[1] has sight-blocking terrain or a piece that
    blocks sight (a piece with the flag ``blocks_sight``)."""
    mp = current_map(ctx)
    x, y = space_of(ctx, a[0]), space_of(ctx, a[1])
    if x is None or y is None:
        return False
    zones = ctx.zones
    comps = ctx.comps
    for sid in _line(mp, x, y):
        if mp.terrain.get(sid) in mp.blocks_sight:
            return False
        for cid in zones.get(ids.space_id(sid), ()):
            if "blocks_sight" in comps[cid]["f"]:
                return False
    return True


def step(ctx: Ctx, a: list[Any]) -> str | None:
    """The space one step from a[0] in direction a[1] (north/south/east/west, or a hex
    direction 0-5), or none at the edge of the map."""
    mp = current_map(ctx)
    x = space_of(ctx, a[0])
    if x is None:
        return None
    cx, cy = mp.coords[x]
    if mp.kind == "hex":
        dq, dr = HEX_DIRECTIONS[int(a[1]) % 6]
    else:
        dq, dr = SQUARE_DIRECTIONS[str(a[1])]
    sid = mp.by_coord.get((cx + dq, cy + dr))
    return None if sid is None else ids.space_id(sid)


def direction(ctx: Ctx, a: list[Any]) -> str | None:
    """The direction from a[0] to an orthogonally adjacent or aligned a[1] (square grids)."""
    mp = current_map(ctx)
    x, y = space_of(ctx, a[0]), space_of(ctx, a[1])
    if x is None or y is None:
        return None
    (x0, y0), (x1, y1) = mp.coords[x], mp.coords[y]
    if x0 == x1 and y1 != y0:
        return "south" if y1 > y0 else "north"
    if y0 == y1 and x1 != x0:
        return "east" if x1 > x0 else "west"
    return None
