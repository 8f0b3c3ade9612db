"""What one seat may see: the player view.

:func:`player_view` builds the JSON view the REPL renders and bots that must not cheat
read.  A card the seat may not see appears only as ``{"hidden": true}``: no id, no name,
nothing that tells it apart from another hidden card (only the fields its zone declares
``public_fields``, under ``"props"``: where it lies, such as a sector).
"""

from __future__ import annotations

from typing import Any

from rulecraft.runtime import engine as E
from rulecraft.runtime import ids
from rulecraft.runtime import map as spatial
from rulecraft.runtime.builtins import comp_field
from rulecraft.runtime.engine import Ctx


def card_view(ctx: Ctx, cid: str) -> dict[str, Any]:
    comp = ctx.comps[cid]
    d = ctx.prog.defs[comp["d"]]
    side = comp.get("s")
    name = d.name
    text = d.text
    if side is not None and side in d.side_attributes:
        sattrs = d.side_attributes[side]
        name = sattrs.get("name", name)
        text = sattrs.get("text", text)
    props: dict[str, Any] = {}
    for key in d.attributes:
        if key in ("text", "name", "traits"):
            continue
        value = comp_field(ctx, cid, key)
        props[key] = E.text_of(ctx, value) if isinstance(value, dict) else value
    for key, value in comp["p"].items():
        props[key] = E.text_of(ctx, value) if isinstance(value, dict) else value
    return {
        "id": cid,
        "name": E.text_of(ctx, name),
        "kind": d.kind,
        "side": side,
        "exhausted": bool(comp.get("x")),
        "counters": dict(comp["c"]),
        "flags": list(comp["f"]),
        "text": E.text_of(ctx, text),
        "props": props,
    }


def _shown(prog: Any, name: str) -> bool:
    """A resource, or a declared field marked ``shown`` (bookkeeping stays out of views)."""
    spec = prog.fields.get(name)
    return spec is None or bool(spec.shown)


def player_view(ctx: Ctx, seat: int) -> dict[str, Any]:
    st = ctx.st
    prog = ctx.prog
    players = []
    for i in range(st["players"]):
        players.append(
            {
                "seat": i,
                "name": f"Player {i + 1}",
                "resources": {k: v for k, v in st["res"][i].items() if _shown(prog, k)},
                "flags": list(st["pflags"][i]),
            }
        )
    zones = []
    for key, pile in st["zones"].items():
        if not ids.is_zone(key):
            continue
        name = E.zone_name(key)
        spec = prog.zones.get(name)
        if spec is None:
            continue
        cards: list[dict[str, Any]] = []
        for cid in pile:
            if E.visible_to(ctx, cid, seat):
                cards.append(card_view(ctx, cid))
            else:
                public = E.public_props(ctx, cid)
                cards.append({"hidden": True, "props": public} if public else {"hidden": True})
        zones.append(
            {
                "key": key,
                "name": E.text_of(ctx, key),
                "owner": E.zone_owner(key),
                "visibility": spec.visibility,
                "count": len(pile),
                "cards": cards,
            }
        )
    map_view = None
    if prog.map is not None:
        board = spatial.current_map(ctx)  # with map tiles, where this game placed them
        spaces = []
        for sid in board.spaces:
            pieces = []
            for cid in st["zones"].get(ids.space_id(sid), ()):
                if E.visible_to(ctx, cid, seat):
                    o = st["comps"][cid].get("o")
                    pieces.append({"id": cid, "name": E.text_of(ctx, cid), "owner": o})
                else:
                    pieces.append({"id": "?", "name": "hidden", "owner": None})
            x, y = board.coords[sid]
            spaces.append(
                {"id": sid, "x": x, "y": y, "terrain": board.terrain.get(sid), "pieces": pieces}
            )
        map_view = {
            "kind": board.kind,
            "width": board.width,
            "height": board.height,
            "spaces": spaces,
        }
        if board.placement:
            map_view["tiles"] = dict(zip((s.id for s in board.slots), board.placement, strict=True))
    phase = st["phase"]
    result = st["result"]
    return {
        "ruleset": prog.name,
        "title": E.text_of(ctx, prog.title),
        "seat": seat,
        "turn": st["turn"],
        "round": st["round"],
        "active": st["active"],
        "phase": prog.phases[phase].name if 0 <= phase < len(prog.phases) else None,
        "players": players,
        "zones": zones,
        "map": map_view,
        "globals": {k: v for k, v in st["gvars"].items() if _shown(prog, k)},
        "result": dict(result) if result else None,
    }


def describe(ctx: Ctx, name_or_id: str, seat: int) -> str | None:
    """The full text of a card ``seat`` can see, found by id or (case-insensitive) name."""
    st = ctx.st
    wanted = name_or_id.strip().lower()
    for cid in st["comps"]:
        if not E.visible_to(ctx, cid, seat):
            continue
        card = card_view(ctx, cid)
        if cid.lower() == wanted or card["name"].lower() == wanted:
            lines = [f"{card['name']} ({card['kind']}, {cid})"]
            if card["side"]:
                lines.append(f"side: {card['side']}")
            for k, v in card["props"].items():
                lines.append(f"{k}: {v}")
            if card["counters"]:
                lines.append(
                    "counters: " + ", ".join(f"{k} {v}" for k, v in card["counters"].items())
                )
            if card["flags"]:
                lines.append("flags: " + ", ".join(card["flags"]))
            if card["text"]:
                lines.append(card["text"])
            d = ctx.prog.defs[st["comps"][cid]["d"]]
            for ab in ctx.prog.abilities.get(d.id, ()):
                lines.append(f"ability: {E.text_of(ctx, ab.label)}")
            return "\n".join(lines)
    return None
