"""Draw a seat's map (the ``map`` of ``Game.view``) as text that fits the terminal.

Every space becomes a short cell: its pieces' glyphs (declared by the ruleset, see
:mod:`rulecraft.repl.glyphs`, else a short code made from the piece's name), else its
terrain's letter, else ``.``.  Column and row labels come from the space ids themselves
(``a``..``c`` and ``1``..``3`` for ``a1``..``c3``; ``q`` and ``r`` for hex ``q,r``), so the
coordinates read off the drawing are the ones the options use.  A legend under the map
says what each code means and where those pieces stand.

Hex maps use axial coordinates: the neighbours of ``(q, r)`` are ``(q±1, r)``,
``(q, r±1)``, ``(q+1, r-1)`` and ``(q-1, r+1)``, so each row is drawn half a cell to the
right of the row above; the drawing's neighbours are then the map's neighbours.

>>> board = {"kind": "square", "width": 3, "height": 1, "spaces": [
...     {"id": "a1", "x": 0, "y": 0, "terrain": None, "pieces": [
...         {"id": "mark#1", "name": "Mark", "owner": 0}]},
...     {"id": "b1", "x": 1, "y": 0, "terrain": None, "pieces": []},
...     {"id": "c1", "x": 2, "y": 0, "terrain": None, "pieces": [
...         {"id": "mark#2", "name": "Mark", "owner": 1}]}]}
>>> print("\\n".join(draw_map(board, lambda p: "XO"[p["owner"]]).grid))
   a b c
 1 X . O
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Piece = Mapping[str, Any]
GlyphFn = Callable[[Piece], str | None]
HIDDEN_CODE = "?"
_TRIM = " ,;:-_/."


@dataclass(frozen=True)
class MapDrawing:
    """The drawn grid (one string per line) and the legend entries under it."""

    grid: list[str]
    legend: list[str] = field(default_factory=list)
    terrain: list[str] = field(default_factory=list)


def _common_prefix(words: Sequence[str]) -> str:
    """The longest start all ``words`` share, character by character (not a path)."""
    first, last = min(words, default=""), max(words, default="")
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def _common_suffix(words: Sequence[str]) -> str:
    return _common_prefix([w[::-1] for w in words])[::-1]


def axis_labels(spaces: Sequence[Piece]) -> tuple[dict[int, str], dict[int, str]]:
    """Column labels (by x) and row labels (by y), read from the ids of the spaces.

    >>> axis_labels([{"id": f"{q},{r}", "x": q, "y": r} for q in range(2) for r in range(2)])
    ({0: '0', 1: '1'}, {0: '0', 1: '1'})
    """
    by_x: dict[int, list[str]] = {}
    by_y: dict[int, list[str]] = {}
    for s in spaces:
        by_x.setdefault(int(s["x"]), []).append(str(s["id"]))
        by_y.setdefault(int(s["y"]), []).append(str(s["id"]))
    columns = {x: _common_prefix(ids) for x, ids in by_x.items()}
    rows = {y: _common_suffix(ids) for y, ids in by_y.items()}
    # A lone space in its column (or row) shares its whole id: the other axis's label is
    # cut off its end (or start) instead ("a1" in a one-row map is column "a").
    for s in spaces:
        x, y, sid = int(s["x"]), int(s["y"]), str(s["id"])
        if len(by_x[x]) == 1 and len(by_y[y]) > 1 and sid.endswith(rows[y]):
            columns[x] = sid[: len(sid) - len(rows[y])]
        if len(by_y[y]) == 1 and len(by_x[x]) > 1 and sid.startswith(columns[x]):
            rows[y] = sid[len(columns[x]) :]
    columns = {x: t.rstrip(_TRIM) or str(x) for x, t in columns.items()}
    rows = {y: t.lstrip(_TRIM) or str(y) for y, t in rows.items()}
    return columns, rows


def _auto_code(name: str) -> str:
    words: list[str] = re.findall(r"[^\W_]+", name)
    if not words:
        return "*"
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return words[0][:2].capitalize()


class _Codes:
    """Gives each distinct piece (name, owner) a short code, unique on this drawing."""

    def __init__(self, glyph: GlyphFn) -> None:
        self.glyph = glyph
        self.by_piece: dict[tuple[str, int | None], str] = {}
        self.used: set[str] = set()

    def code(self, piece: Piece) -> str:
        if piece.get("id") == "?":
            return HIDDEN_CODE
        owner = piece.get("owner")
        key = (str(piece.get("name", piece.get("id", "?"))), owner)
        if key in self.by_piece:
            return self.by_piece[key]
        declared = self.glyph(piece)
        if declared:
            code = declared
        else:
            base = _auto_code(key[0]) + ("" if owner is None else str(owner + 1))
            code, n = base, 2
            while code in self.used:
                code, n = f"{base}{n}", n + 1
        self.by_piece[key] = code
        self.used.add(code)
        return code


def _terrain_codes(spaces: Sequence[Piece]) -> dict[str, str]:
    """The commonest terrain draws as ``.``; the others by their first free letter."""
    counts = Counter(str(s["terrain"]) for s in spaces if s.get("terrain"))
    codes: dict[str, str] = {}
    used = {"."}
    for rank, (name, _) in enumerate(counts.most_common()):
        if rank == 0:
            codes[name] = "."
            continue
        letters = [c.lower() for c in name if c.isalnum()] or ["~"]
        code = next((c for c in letters if c not in used), None)
        code = code or next(
            f"{letters[0]}{n}" for n in range(2, 99) if f"{letters[0]}{n}" not in used
        )
        codes[name] = code
        used.add(code)
    return codes


def _cell(space: Piece, codes: _Codes, terrain: Mapping[str, str], width: int) -> str:
    pieces = [codes.code(p) for p in space.get("pieces") or []]
    if pieces:
        text = "".join(pieces) if len(pieces) == 1 else pieces[0] + "+"
    else:
        text = terrain.get(str(space.get("terrain") or ""), ".")
    return text if len(text) <= width else text[: max(1, width - 1)] + "+"


def _legend(spaces: Sequence[Piece], codes: _Codes, names: Sequence[str]) -> list[str]:
    where: dict[str, list[str]] = {}
    label: dict[str, str] = {}
    for s in spaces:
        for p in s.get("pieces") or []:
            code = codes.code(p)
            owner = p.get("owner")
            seat = (
                "" if owner is None else f" ({names[owner] if owner < len(names) else owner + 1})"
            )
            label[code] = f"{p.get('name', '?')}{seat}"
            where.setdefault(code, []).append(str(s["id"]))
    entries = []
    for code, spots in where.items():
        places = " ".join(spots) if len(spots) <= 6 else f"{len(spots)} spaces"
        entries.append(f"{code} {label[code]}: {places}")
    return entries


def draw_map(
    board: Mapping[str, Any],
    glyph: GlyphFn = lambda piece: None,
    width: int = 80,
    seat_names: Sequence[str] = (),
) -> MapDrawing:
    """Draw ``board`` in at most ``width`` columns (graphs as an adjacency list)."""
    spaces = list(board.get("spaces") or [])
    codes = _Codes(glyph)
    terrain = _terrain_codes(spaces)
    kind = board.get("kind")
    if kind in ("square", "hex") and spaces and all("x" in s and "y" in s for s in spaces):
        grid = _draw_grid(spaces, kind == "hex", codes, terrain, width)
    else:
        grid = []
        for s in spaces:
            adjacent = s.get("adjacent") or []
            edges = f" -> {', '.join(str(a) for a in adjacent)}" if adjacent else ""
            grid.append(f"{s.get('id', '?')}: {_cell(s, codes, terrain, 12)}{edges}")
    terrain_entries = (
        [f"{code} {name}" for name, code in terrain.items()] if len(terrain) > 1 else []
    )
    return MapDrawing(grid, _legend(spaces, codes, seat_names), terrain_entries)


def _draw_grid(
    spaces: Sequence[Piece], hexes: bool, codes: _Codes, terrain: Mapping[str, str], width: int
) -> list[str]:
    xs = [int(s["x"]) for s in spaces]
    ys = [int(s["y"]) for s in spaces]
    x0, y0 = min(xs), min(ys)
    cols, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    col_labels, row_labels = axis_labels(spaces)
    gutter = max(len(t) for t in row_labels.values()) + 2
    # A hex row is shifted by half a cell per row: room for rows/2 more cells.
    room = width - gutter - 1
    span = cols + (rows - 1) / 2 if hexes else cols
    by_xy = {(int(s["x"]) - x0, int(s["y"]) - y0): s for s in spaces}
    raw = [_cell(s, codes, terrain, 99) for s in by_xy.values()]
    widest = max(len(t) for t in [*raw, *col_labels.values()])
    cell = max(1, min(widest, int(room / span) - 1))
    if hexes and (cell + 1) % 2:
        cell += 1  # an even pitch, so half a cell is a whole number of columns
    pitch = cell + 1
    texts = {xy: _cell(s, codes, terrain, cell) for xy, s in by_xy.items()}

    def indent(r: int) -> int:
        return gutter + (r * pitch // 2 if hexes else 0)

    def header(r: int) -> str:
        labels = [col_labels.get(x + x0, "")[:cell].ljust(cell) for x in range(cols)]
        return (" " * indent(r) + " ".join(labels)).rstrip()

    lines = [header(0)]
    for r in range(rows):
        label = row_labels.get(r + y0, "").rjust(gutter - 1)
        line = " ".join(texts.get((x, r), " ").ljust(cell) for x in range(cols))
        lines.append((label + " " * (indent(r) - len(label)) + line).rstrip())
    if hexes and rows > 1:
        lines.append(header(rows - 1))
    return lines
