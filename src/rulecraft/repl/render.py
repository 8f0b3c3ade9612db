"""Draw one seat's view (the dict ``Game.view(seat)`` returns) with rich.

Everything drawn here comes from the view alone, so nothing the seat may not see can be
shown: a hidden card is only ever the placeholder ``(hidden)``.  Two screens:
:func:`render_view` is the whole table (the ``state`` command); the compact screen before
each decision is put together by the session from :func:`render_header`,
:func:`players_line`, :func:`render_map` and :func:`render_decision`.

Seats are 0-based in views and 1-based in everything printed here.

>>> from io import StringIO
>>> from rich.console import Console
>>> out = Console(file=StringIO(), width=80, color_system=None)
>>> render_decision(out, Decision(0, "Pick", (Option("act:place:a1", "Place: a1"),)))
>>> print(out.file.getvalue(), end="")
Seat 1: Pick
   1. Place: a1  [act:place:a1]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rulecraft.repl.mapdraw import GlyphFn, draw_map
from rulecraft.repl.messages import Messages
from rulecraft.runtime.decision import Decision, Option
from rulecraft.runtime.ids import is_player, is_space, player_id, space_name

#: A player's marker on the map is drawn as this and the player's number (``@1``).
PLAYER_GLYPH = "@"

HIDDEN_LABEL = "(hidden)"
#: ``render_view``'s default ``decider``: the view's active seat.
ACTIVE = -1
#: Up to this many resources, the compact players line shows them all, zeros included.
FEW_RESOURCES = 4
ENGLISH = Messages("en")


def seat_label(seat: int | None, names: Sequence[str] = ()) -> str:
    """A 0-based API seat as people read it: 1-based, with the name when known."""
    if seat is None:
        return "-"
    if 0 <= seat < len(names) and names[seat]:
        return f"{seat + 1} ({names[seat]})"
    return str(seat + 1)


def seat_names(view: Mapping[str, Any]) -> list[str]:
    """The players' names by 0-based seat, as the view gives them."""
    players = view.get("players") or []
    names = [""] * len(players)
    for p in players:
        seat = p.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            names[seat] = str(p.get("name", ""))
    return names


def value_text(value: Any) -> str:
    """A field's value as printed: a dice pool ``{"green": 2}`` reads ``2 green``.

    >>> value_text({"white": 1, "green": 2}), value_text([1, 2]), value_text("s:4,2")
    ('1 white + 2 green', '1, 2', '4,2')
    """
    if isinstance(value, dict):
        if value and all(isinstance(n, int) and not isinstance(n, bool) for n in value.values()):
            return " + ".join(f"{n} {face}" for face, n in value.items())
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value)
    if value is None or value == "":
        return "-"
    if is_space(value):
        return space_name(value)  # a map space as the state stores it
    return str(value)


def _card_state(card: Mapping[str, Any], say: Messages) -> str:
    parts: list[str] = []
    if card.get("side"):
        parts.append(str(card["side"]))
    if card.get("exhausted"):
        parts.append(say("exhausted"))
    parts.extend(f"{k}={value_text(v)}" for k, v in (card.get("counters") or {}).items())
    parts.extend(f"{k}={value_text(v)}" for k, v in (card.get("props") or {}).items())
    parts.extend(str(f) for f in card.get("flags") or [])
    return ", ".join(parts)


def zone_summary(
    zone: Mapping[str, Any], names: Sequence[str] = (), say: Messages = ENGLISH
) -> str:
    """One line for a zone whose cards the seat cannot see (or that is empty).

    >>> zone_summary({"name": "Deck", "owner": 0, "count": 2, "cards": [{"hidden": True}] * 2})
    'Deck (seat 1): 2 hidden cards'
    """
    owner = zone.get("owner")
    owner_text = "" if owner is None else f" ({say('zone_seat', seat=owner + 1)})"
    count = int(zone.get("count", 0))
    if count == 0:
        what = say("zone_empty")
    else:
        what = say("zone_hidden_one") if count == 1 else say("zone_hidden", count=count)
    return f"{zone.get('name', zone.get('key', '?'))}{owner_text}: {what}"


def zone_table(
    zone: Mapping[str, Any], names: Sequence[str] = (), say: Messages = ENGLISH
) -> Table:
    """One zone as a table: a row per card, hidden cards as ``(hidden)``."""
    owner = zone.get("owner")
    owner_text = "" if owner is None else f", {say('zone_seat', seat=owner + 1)}"
    title = f"{zone.get('name', zone.get('key', '?'))} [{zone.get('count', 0)}{owner_text}]"
    table = Table(title=Text(title), title_justify="left", expand=False)
    for column in ("id", say("col.card"), say("col.kind"), say("col.state")):
        table.add_column(column)
    for card in zone.get("cards") or []:
        if card.get("hidden"):  # only its zone's public fields (where it lies) show
            table.add_row("", say("hidden"), "", Text(_card_state(card, say)))
        else:
            # Text(...) so a card named like "[b]" is printed, not read as rich markup.
            table.add_row(
                Text(str(card.get("id", ""))),
                Text(str(card.get("name", ""))),
                Text(str(card.get("kind", ""))),
                Text(_card_state(card, say)),
            )
    return table


def render_header(
    console: Console,
    view: Mapping[str, Any],
    decider: int | None,
    say: Messages = ENGLISH,
    *,
    full: bool = False,
) -> None:
    """The first line of a screen: game, turn, round, the seat that decides, the phase."""
    names = seat_names(view)
    who = (
        say("decides", seat=seat_label(decider, names))
        if decider is not None
        else say("nobody_decides")
    )
    if full:
        who = f"{say('you_are', seat=seat_label(view.get('seat'), names))} | {who}"
    header = say(
        "header",
        title=view.get("title", view.get("ruleset", "")),
        turn=view.get("turn", "?"),
        round=view.get("round", "?"),
        decider=who,
    )
    if view.get("phase"):
        header += say("header_phase", phase=view["phase"])
    console.print(Text(header, style="bold"), soft_wrap=True)


def players_line(view: Mapping[str, Any], say: Messages = ENGLISH, width: int = 80) -> list[str]:
    """Every player's resources and flags in one line, or a line per player when one line
    would not fit ``width``; no lines when nobody has any.  With more than
    :data:`FEW_RESOURCES` resources, those at 0 are left out (``state`` shows them all).

    >>> players_line({"players": [{"seat": 0, "name": "Ann", "resources": {"gold": 2}},
    ...                           {"seat": 1, "name": "Bo", "resources": {"gold": 0}}]})
    ['Players: 1 (Ann) gold 2 | 2 (Bo) gold 0']
    """
    parts = []
    for p in view.get("players") or []:
        resources = p.get("resources") or {}
        many = len(resources) > FEW_RESOURCES
        values = [f"{k} {value_text(v)}" for k, v in resources.items() if not (many and v == 0)]
        values += [str(f) for f in p.get("flags") or []]
        parts.append(f"{p.get('seat', 0) + 1} ({p.get('name', '')}) {', '.join(values) or '-'}")
    if not any(p.get("resources") or p.get("flags") for p in view.get("players") or []):
        return []
    line = say("players_line", players=" | ".join(parts))
    if len(line) <= width:
        return [line]
    return [say("players_line", players=part) for part in parts]


def with_player_markers(board: Mapping[str, Any], view: Mapping[str, Any]) -> dict[str, Any]:
    """``board`` plus a marker piece for each player resource that holds one of its
    spaces (a ruleset may keep where a player stands as a resource, not a piece).

    >>> board = {"kind": "graph", "spaces": [{"id": "a", "pieces": []}]}
    >>> view = {"players": [{"seat": 0, "name": "Ann", "resources": {"at": "s:a"}}]}
    >>> with_player_markers(board, view)["spaces"][0]["pieces"]
    [{'id': '@0', 'name': 'Ann (at)', 'owner': 0}]
    """
    spaces = [dict(s) for s in board.get("spaces") or []]
    by_id = {str(s.get("id")): s for s in spaces}
    for p in view.get("players") or []:
        seat = int(p.get("seat", 0))
        for resource, value in (p.get("resources") or {}).items():
            if is_space(value) and space_name(value) in by_id:
                space = by_id[space_name(value)]
                marker = {
                    "id": player_id(seat),
                    "name": f"{p.get('name', '')} ({resource})",
                    "owner": seat,
                }
                space["pieces"] = [*(space.get("pieces") or []), marker]
    return {**board, "spaces": spaces}


def _marker_glyph(glyph: GlyphFn) -> GlyphFn:
    """Player markers draw as ``@`` and the seat number; pieces as ``glyph`` says."""

    def draw(piece: Mapping[str, Any]) -> str | None:
        if is_player(piece.get("id")) and isinstance(piece.get("owner"), int):
            return f"{PLAYER_GLYPH}{piece['owner'] + 1}"
        return glyph(piece)

    return draw


def render_map(
    console: Console,
    board: Mapping[str, Any],
    names: Sequence[str] = (),
    say: Messages = ENGLISH,
    glyph: GlyphFn = lambda piece: None,
    view: Mapping[str, Any] | None = None,
) -> None:
    """The map with coordinates, fitted to the console's width, and its legend (with the
    players standing on it when ``view`` is given)."""
    if view is not None:
        board = with_player_markers(board, view)
    drawing = draw_map(board, _marker_glyph(glyph), console.width, names)
    console.print(say("map_title", kind=board.get("kind", "?")), markup=False, soft_wrap=True)
    if board.get("kind") == "hex":
        console.print(say("map_hex_axes"), markup=False, highlight=False, soft_wrap=True)
    for line in drawing.grid:
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    if drawing.terrain:
        terrain = say("map_terrain", entries=" · ".join(drawing.terrain))
        console.print(terrain, markup=False, highlight=False)
    if drawing.legend:
        legend = say("map_legend", entries=" · ".join(drawing.legend))
        console.print(legend, markup=False, highlight=False)


def render_view(
    console: Console,
    view: Mapping[str, Any],
    say: Messages = ENGLISH,
    glyph: GlyphFn = lambda piece: None,
    decider: int | None = ACTIVE,
) -> None:
    """Print everything in ``view``: header, players, zones, map, globals, result.

    ``decider`` is the seat the header says decides (``None``: nobody, the game is over);
    by default the view's active seat."""
    names = seat_names(view)
    render_header(
        console, view, view.get("active") if decider == ACTIVE else decider, say, full=True
    )
    players = Table(title=say("players_title"), title_justify="left")
    for column in ("col.seat", "col.name", "col.resources", "col.flags"):
        players.add_column(say(column))
    for p in view.get("players") or []:
        resources = ", ".join(f"{k} {value_text(v)}" for k, v in (p.get("resources") or {}).items())
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
            console.print(zone_table(zone, names, say))
        else:
            # A zone showing nothing but its size gets one line, not an empty table.
            console.print(Text(zone_summary(zone, names, say)))
    board = view.get("map")
    if board:
        render_map(console, board, names, say, glyph, view)
    if view.get("globals"):
        values = ", ".join(f"{k}={value_text(v)}" for k, v in view["globals"].items())
        console.print(say("globals", values=values), markup=False)
    render_result(console, view.get("result"), names, say)


def render_result(
    console: Console,
    result: Mapping[str, Any] | None,
    names: Sequence[str] = (),
    say: Messages = ENGLISH,
) -> None:
    """The end of the game, if it has ended."""
    if not result:
        return
    if result.get("draw"):
        text = say("result_draw")
    else:
        winners = ", ".join(seat_label(w, names) for w in result.get("winners") or [])
        text = say("result_winners", seats=winners) if winners else say("result_nobody")
    if result.get("reason"):
        text += f" ({result['reason']})"
    console.print(text, markup=False, soft_wrap=True)


def option_line(number: int, option: Option) -> str:
    """One numbered option, as shown and as ``number`` chooses it."""
    detail = f"  - {option.detail}" if option.detail else ""
    return f"  {number:>2}. {option.label}  [{option.id}]{detail}"


def render_decision(
    console: Console, decision: Decision, names: Sequence[str] = (), say: Messages = ENGLISH
) -> None:
    """The prompt and its numbered options (numbers are 1-based)."""
    console.print(
        say("decision_line", seat=seat_label(decision.seat, names), prompt=decision.prompt),
        markup=False,
        soft_wrap=True,
    )
    for number, option in enumerate(decision.options, start=1):
        console.print(option_line(number, option), markup=False, soft_wrap=True)
