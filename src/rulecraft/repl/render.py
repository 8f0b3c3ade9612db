"""Draw one seat's view (the dict ``Game.view(seat)`` returns) with rich.

Everything drawn here comes from the view alone, so nothing the seat may not see can be
shown: a hidden card is only ever the placeholder ``(hidden)``.

>>> from io import StringIO
>>> from rich.console import Console
>>> out = StringIO()
>>> render_map_text({"kind": "square", "width": 2, "height": 1, "spaces": [
...     {"id": "a", "x": 0, "y": 0, "terrain": None, "pieces": [
...         {"id": "p", "name": "Pawn", "owner": 0}]},
...     {"id": "b", "x": 1, "y": 0, "terrain": "hill", "pieces": []}]})
'Pawn1 hill'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rulecraft.interpreter.decision import Decision

HIDDEN_LABEL = "(hidden)"


def seat_label(seat: int | None, names: Sequence[str] = ()) -> str:
    """A 0-based API seat as people read it: 1-based, with the name when known."""
    if seat is None:
        return "-"
    if 0 <= seat < len(names) and names[seat]:
        return f"{seat + 1} ({names[seat]})"
    return str(seat + 1)


def _seat_names(view: Mapping[str, Any]) -> list[str]:
    players = view.get("players") or []
    names = [""] * len(players)
    for p in players:
        seat = p.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            names[seat] = str(p.get("name", ""))
    return names


def _card_state(card: Mapping[str, Any]) -> str:
    parts: list[str] = []
    if card.get("side"):
        parts.append(str(card["side"]))
    if card.get("exhausted"):
        parts.append("exhausted")
    parts.extend(f"{k}={v}" for k, v in (card.get("counters") or {}).items())
    parts.extend(f"{k}={v}" for k, v in (card.get("props") or {}).items())
    parts.extend(str(f) for f in card.get("flags") or [])
    return ", ".join(parts)


def zone_summary(zone: Mapping[str, Any], names: Sequence[str] = ()) -> str:
    """One line for a zone whose cards the seat cannot see (or that is empty).

    >>> zone_summary({"name": "Deck", "owner": 0, "count": 2, "cards": [{"hidden": True}] * 2})
    'Deck (seat 1): 2 hidden cards'
    """
    owner = zone.get("owner")
    owner_text = "" if owner is None else f" (seat {owner + 1})"
    count = int(zone.get("count", 0))
    what = "empty" if count == 0 else f"{count} hidden card{'s' if count != 1 else ''}"
    return f"{zone.get('name', zone.get('key', '?'))}{owner_text}: {what}"


def zone_table(zone: Mapping[str, Any], names: Sequence[str] = ()) -> Table:
    """One zone as a table: a row per card, hidden cards as ``(hidden)``."""
    owner = zone.get("owner")
    owner_text = "" if owner is None else f", seat {owner + 1}"
    title = f"{zone.get('name', zone.get('key', '?'))} [{zone.get('count', 0)}{owner_text}]"
    table = Table(title=Text(title), title_justify="left", expand=False)
    table.add_column("id")
    table.add_column("card")
    table.add_column("kind")
    table.add_column("state")
    for card in zone.get("cards") or []:
        if card.get("hidden"):  # only its zone's public fields (where it lies) show
            table.add_row("", HIDDEN_LABEL, "", Text(_card_state(card)))
        else:
            # Text(...) so a card named like "[b]" is printed, not read as rich markup.
            table.add_row(
                Text(str(card.get("id", ""))),
                Text(str(card.get("name", ""))),
                Text(str(card.get("kind", ""))),
                Text(_card_state(card)),
            )
    return table


def _piece_text(piece: Mapping[str, Any]) -> str:
    owner = piece.get("owner")
    return f"{piece.get('name', piece.get('id', '?'))}{'' if owner is None else owner + 1}"


def _space_text(space: Mapping[str, Any]) -> str:
    pieces = space.get("pieces") or []
    if pieces:
        return "+".join(_piece_text(p) for p in pieces)
    terrain = space.get("terrain")
    return str(terrain) if terrain else "."


def render_map_text(board: Mapping[str, Any]) -> str:
    """A map as plain text: a grid of cells for ``square``, rows offset by half a cell for
    ``hex`` (odd rows shifted right), an adjacency list for ``graph``.

    A graph space may list its neighbours under ``adjacent`` (the view shape does not fix
    edges, so without it a graph prints its spaces only).
    """
    kind = board.get("kind")
    spaces = list(board.get("spaces") or [])
    if kind in ("square", "hex") and all("x" in s and "y" in s for s in spaces):
        width = int(board.get("width") or (max((s["x"] for s in spaces), default=-1) + 1))
        height = int(board.get("height") or (max((s["y"] for s in spaces), default=-1) + 1))
        cells = {(int(s["x"]), int(s["y"])): _space_text(s) for s in spaces}
        cell_width = max((len(t) for t in cells.values()), default=1)
        rows: list[str] = []
        for y in range(height):
            texts = [cells.get((x, y), " ").ljust(cell_width) for x in range(width)]
            indent = " " * ((cell_width + 1) // 2) if kind == "hex" and y % 2 == 1 else ""
            rows.append((indent + " ".join(texts)).rstrip())
        return "\n".join(rows)
    lines = []
    for s in spaces:
        adjacent = s.get("adjacent") or []
        edges = f" -> {', '.join(str(a) for a in adjacent)}" if adjacent else ""
        lines.append(f"{s.get('id', '?')}: {_space_text(s)}{edges}")
    return "\n".join(lines)


def render_view(console: Console, view: Mapping[str, Any]) -> None:
    """Print everything in ``view``: header, players, zones, map, globals, result."""
    names = _seat_names(view)
    header = (
        f"{view.get('title', view.get('ruleset', ''))}  |  you are seat "
        f"{seat_label(view.get('seat'), names)}  |  turn {view.get('turn', '?')}, "
        f"round {view.get('round', '?')}  |  active: {seat_label(view.get('active'), names)}"
    )
    if view.get("phase"):
        header += f"  |  phase: {view['phase']}"
    console.print(Text(header, style="bold"), soft_wrap=True)
    players = Table(title="Players", title_justify="left")
    players.add_column("seat")
    players.add_column("name")
    players.add_column("resources")
    players.add_column("flags")
    for p in view.get("players") or []:
        resources = ", ".join(f"{k} {v}" for k, v in (p.get("resources") or {}).items())
        players.add_row(
            str(p.get("seat", 0) + 1),
            Text(str(p.get("name", ""))),
            Text(resources),
            Text(", ".join(str(f) for f in p.get("flags") or [])),
        )
    console.print(players)
    for zone in view.get("zones") or []:
        cards = zone.get("cards") or []
        if any(not card.get("hidden") or card.get("props") for card in cards):
            console.print(zone_table(zone, names))
        else:
            # A zone showing nothing but its size gets one line, not an empty table.
            console.print(Text(zone_summary(zone, names)))
    board = view.get("map")
    if board:
        console.print(f"Map ({board.get('kind', '?')}):", markup=False, soft_wrap=True)
        console.print(render_map_text(board), markup=False, highlight=False)
    if view.get("globals"):
        console.print(
            "Globals: " + ", ".join(f"{k}={v}" for k, v in view["globals"].items()), markup=False
        )
    render_result(console, view.get("result"), names)


def render_result(
    console: Console, result: Mapping[str, Any] | None, names: Sequence[str] = ()
) -> None:
    """The end of the game, if it has ended."""
    if not result:
        return
    if result.get("draw"):
        text = "Game over: a draw"
    else:
        winners = ", ".join(seat_label(w, names) for w in result.get("winners") or [])
        text = f"Game over: winner(s) seat {winners}" if winners else "Game over: nobody wins"
    if result.get("reason"):
        text += f" ({result['reason']})"
    console.print(text, markup=False, soft_wrap=True)


def render_decision(console: Console, decision: Decision, names: Sequence[str] = ()) -> None:
    """The prompt and its numbered options (numbers are 1-based)."""
    console.print(
        f"Seat {seat_label(decision.seat, names)}: {decision.prompt}", markup=False, soft_wrap=True
    )
    for number, option in enumerate(decision.options, start=1):
        detail = f"  - {option.detail}" if option.detail else ""
        console.print(
            f"  {number:>2}. {option.label}  [{option.id}]{detail}", markup=False, soft_wrap=True
        )
