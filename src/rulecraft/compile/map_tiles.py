"""Checks of a modular board (``map: tiles:``, ``slots:``, ``ports:``; docs/manifest.md,
"Map tiles"), each problem a located diagnostic:

* RC260, a tile: a tile id twice, a tile without spaces, one of its spaces twice, a link
  (``adjacent``) to no space of the tile, a space whose map id (``TILE_SPACE``) is already
  another space's;
* RC261, the slots: tiles without slots or slots without tiles, tiles on a map that is not
  a ``graph``, a slot id twice, not as many tiles as slots (every tile is placed);
* RC262, the ports: a port no ``ports:`` declares (on a tile's space, in a slot's ``joins``
  or a board space's ``adjacent``), a ``SLOT.PORT`` naming no slot, a board space linked to
  no space and no port.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulecraft.runtime.map import port_ref, tile_space_id
from rulecraft.suggest import did_you_mean

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

TILE = "RC260"
SLOT = "RC261"
PORT = "RC262"


def _hint(name: str, known: set[str], what: str) -> str:
    """``did you mean ...?`` when a known name is close, else the known names."""
    guess = did_you_mean(name, known)
    if guess is not None:
        return f"did you mean '{guess}'?"
    return f"the {what} are: {', '.join(sorted(known)) or 'none'}"


def check_map_tiles(c: Compiler, spec: dict[str, Any]) -> None:
    """Report every problem of the map's tiles, slots and ports (none without tiles)."""
    tiles = spec.get("tiles") or []
    slots = spec.get("slots") or []
    if not tiles and not slots:
        return
    if spec.get("kind") != "graph":
        c.error(SLOT, "map tiles need a map of kind 'graph'", c.mspan("map", "kind"))
        return
    if not tiles or not slots:
        missing = "tiles" if not tiles else "slots"
        c.error(
            SLOT,
            f"a map with {'slots' if tiles == [] else 'tiles'} needs {missing} too",
            c.mspan("map", "slots" if slots else "tiles"),
            "tiles are placed into slots at setup: declare both",
        )
        return
    ports = {str(p) for p in spec.get("ports") or ()}
    board = {str(item["id"]) for item in spec.get("spaces") or ()}
    _check_tiles(c, tiles, ports, board)
    slot_ids = _check_slots(c, slots, len(tiles), ports)
    _check_board_links(c, spec.get("spaces") or [], board, slot_ids, ports, tiles)


def _check_tiles(c: Compiler, tiles: list[Any], ports: set[str], board: set[str]) -> None:
    """RC260 for each tile problem, RC262 for a port ``ports:`` does not declare."""
    seen_tiles: set[str] = set()
    taken = set(board)
    for i, tile in enumerate(tiles):
        tid = str(tile["id"])
        if tid in seen_tiles:
            c.error(TILE, f"tile '{tid}' is declared twice", c.mspan("map", "tiles", i, "id"))
        seen_tiles.add(tid)
        items = tile.get("spaces") or []
        if not items:
            c.error(TILE, f"tile '{tid}' has no spaces", c.mspan("map", "tiles", i, "id"))
        local = [str(item["id"]) for item in items]
        for j, item in enumerate(items):
            at = ("map", "tiles", i, "spaces", j)
            sid = str(item["id"])
            if local.count(sid) > 1 and local.index(sid) < j:
                c.error(TILE, f"tile '{tid}' has two spaces '{sid}'", c.mspan(*at, "id"))
            elif tile_space_id(tid, sid) in taken:
                c.error(
                    TILE,
                    f"space '{sid}' of tile '{tid}' is map space '{tile_space_id(tid, sid)}', "
                    "which is already another space",
                    c.mspan(*at, "id"),
                    "rename the tile or the space",
                )
            taken.add(tile_space_id(tid, sid))
            for k, other in enumerate(item.get("adjacent") or ()):
                if str(other) not in local:
                    c.error(
                        TILE,
                        f"space '{sid}' of tile '{tid}' is linked to '{other}', "
                        "no space of the tile",
                        c.mspan(*at, "adjacent", k),
                        _hint(str(other), set(local), "tile's spaces")
                        + "; a tile touches other tiles and the board through its ports",
                    )
            for k, port in enumerate(item.get("ports") or ()):
                if str(port) not in ports:
                    c.error(
                        PORT,
                        f"space '{sid}' of tile '{tid}' touches port '{port}', which "
                        "map.ports does not declare",
                        c.mspan(*at, "ports", k),
                        _hint(str(port), ports, "declared ports"),
                    )


def _check_slots(c: Compiler, slots: list[Any], n_tiles: int, ports: set[str]) -> set[str]:
    """RC261 for each slot problem, RC262 for a join's unknown slot or port; the slot ids."""
    slot_ids: set[str] = set()
    for i, slot in enumerate(slots):
        sid = str(slot["id"])
        if sid in slot_ids:
            c.error(SLOT, f"slot '{sid}' is declared twice", c.mspan("map", "slots", i, "id"))
        slot_ids.add(sid)
    if n_tiles != len(slots):
        c.error(
            SLOT,
            f"{n_tiles} tiles for {len(slots)} slots: every tile is placed in one slot",
            c.mspan("map", "slots"),
            "declare as many slots as tiles",
        )
    for i, slot in enumerate(slots):
        for port, target in (slot.get("joins") or {}).items():
            at = c.mspan("map", "slots", i, "joins", port)
            if str(port) not in ports:
                c.error(
                    PORT,
                    f"slot '{slot['id']}' joins port '{port}', which map.ports does not declare",
                    at,
                    _hint(str(port), ports, "declared ports"),
                )
            _check_ref(c, str(target), slot_ids, ports, at)
    return slot_ids


def _check_ref(c: Compiler, ref: str, slots: set[str], ports: set[str], at: Any) -> None:
    """A ``SLOT.PORT`` reference: its slot and port exist (RC262)."""
    parts = port_ref(ref)
    if parts is None:
        c.error(PORT, f"'{ref}' is no port of a slot (SLOT.PORT)", at, "write it as 'a1.e'")
    elif parts[0] not in slots:
        c.error(
            PORT,
            f"'{ref}' names slot '{parts[0]}', which does not exist",
            at,
            _hint(parts[0], slots, "slots"),
        )
    elif parts[1] not in ports:
        c.error(
            PORT,
            f"'{ref}' names port '{parts[1]}', which map.ports does not declare",
            at,
            _hint(parts[1], ports, "declared ports"),
        )


def _check_board_links(
    c: Compiler,
    items: list[Any],
    board: set[str],
    slots: set[str],
    ports: set[str],
    tiles: list[Any],
) -> None:
    """A board space's ``adjacent``: another board space or a ``SLOT.PORT`` (RC262); a tile
    space named directly would stay linked wherever its tile lies."""
    tile_spaces = {
        tile_space_id(str(t["id"]), str(s["id"])) for t in tiles for s in t.get("spaces") or ()
    }
    for i, item in enumerate(items):
        for k, other in enumerate(item.get("adjacent") or ()):
            name = str(other)
            if name in board:
                continue
            at = c.mspan("map", "spaces", i, "adjacent", k)
            if name in tile_spaces:
                c.error(
                    PORT,
                    f"board space '{item['id']}' is linked to '{name}', a space of a tile",
                    at,
                    "a board space touches a tile through a port of its slot: 'SLOT.PORT'",
                )
            else:
                _check_ref(c, name, slots, ports, at)
