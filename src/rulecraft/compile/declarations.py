"""Names and declarations: the language's fixed words, and the first pass of a compilation,
which reads what the manifest declares (zones, resources, kinds, fields, dice, the map,
policies) and collects the items of the ``.rcl`` files (components, entries, effects,
definitions, actions, rules) into the compiler's tables before any body is compiled."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rulecraft.compile.generate import generated_components
from rulecraft.compile.map_tiles import check_map_tiles
from rulecraft.diagnostics import Span
from rulecraft.language import ast
from rulecraft.runtime.map import build_map
from rulecraft.runtime.program import FieldSpec, PolicySpec, ResourceSpec, ZoneSpec

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

RESOURCE_VERBS = {
    "gain": ("gained", 1),
    "lose": ("lost", -1),
    "spend": ("spent", -1),
    "suffer": ("suffered", 1),
    "heal": ("healed", -1),
    "deal": ("dealt", 1),
}
SPECIAL_NAMES = {
    "you",
    "this",
    "it",
    "active",
    "start_player",
    "players",
    "opponents",
    "opponent",
    "game",
    "round",
    "turn",
    "spaces",
    "amount",
}
# Words that begin a statement: an effect with one of these names could never be called,
# since `deal` on a line of its own is the start of a deal statement.
STATEMENT_WORDS = frozenset(
    [
        "gain",
        "lose",
        "spend",
        "suffer",
        "heal",
        "deal",
        "draw",
        "discard",
        "move",
        "shuffle",
        "reveal",
        "look",
        "roll",
        "reroll",
        "go",
        "set",
        "clear",
        "let",
        "end",
        "emit",
        "prevent",
        "flip",
        "exhaust",
        "ready",
        "say",
        "return",
        "win",
        "tie",
    ]
)
ENDS = ("turn", "phase", "stage", "round", "game", "activation")
DURATIONS = ("turn_end", "round_end", "phase_end")
# The arguments each built-in event carries (docs/language.md, "Events"), in order.
BUILTIN_EVENTS: dict[str, int] = {
    **dict.fromkeys(("turn_start", "turn_end", "round_start", "round_end"), 1),
    **dict.fromkeys(("phase_start", "phase_end", "discarded", "rolled", "flipped"), 1),
    **dict.fromkeys(("entered", "reshuffled", "exhausted"), 1),
    **dict.fromkeys(("gained", "lost", "spent", "suffered", "healed", "dealt"), 3),
    **dict.fromkeys(("moved", "tested"), 3),
    "drew": 2,
}


def _text(value: Any, default: str = "") -> dict[str, str]:
    """A manifest text (a string or a {lang: text} mapping) as a translation dict."""
    if value is None:
        return {"": default}
    if isinstance(value, dict):
        out = {str(k): str(v) for k, v in value.items()}
        out.setdefault("", next(iter(out.values()), default))
        return out
    return {"": str(value)}


def _enum_values(typ: str) -> list[str] | None:
    """The values of an ``enum(a, b, c)`` type, None for any other type."""
    if typ.startswith("enum(") and typ.endswith(")"):
        return [x.strip() for x in typ[5:-1].split(",")]
    return None


# ---------------------------------------------------------------------------- the manifest
def declare_manifest(c: Compiler) -> None:
    """Everything ``ruleset.yaml`` declares, into the compiler's tables."""
    _declare_zones(c)
    _declare_resources(c)
    _declare_kinds(c)
    declare_fields(c)
    _declare_dice(c)
    m = c.m
    c.symbols.update(str(s) for s in (m.get("symbols") or ()))
    c.symbols.update(str(s) for s in (m.get("flags") or ()))
    c.flags_set.update(str(s) for s in (m.get("flags") or ()))
    _declare_map(c)
    flow = m.get("flow") or {}
    for stage in [flow, *(flow.get("stages") or ())]:
        for phase in stage.get("phases") or ():
            c.symbols.add(str(phase.get("name")))
    players = m.get("players") or {}
    if "default" in players and not (
        players.get("min", 1) <= players["default"] <= players.get("max", players["default"])
    ):
        c.error(
            "RC209",
            "players.default must lie between players.min and players.max",
            c.mspan("players", "default"),
        )
    for name, spec in (m.get("policies") or {}).items():
        c.policies[name] = PolicySpec(name, str(spec.get("pick", "first")), None)
    c.symbols.update(("front", "back"))


def _declare_zones(c: Compiler) -> None:
    """Each zone of ``zones:``: shared or per player, visibility, order, capacity, size."""
    for name, spec in (c.m.get("zones") or {}).items():
        spec = spec or {}
        c.zones[name] = ZoneSpec(
            name=name,
            per_player=spec.get("per", "shared") == "player",
            visibility=spec.get("visibility", "public"),
            order=spec.get("order", "ordered"),
            capacity=spec.get("capacity"),
            label=_text(spec.get("label"), name),
            size=spec.get("size"),
            public_fields=tuple(spec.get("public_fields") or ()),
            local_fields=tuple(spec.get("local_fields") or ()),
        )


def _declare_resources(c: Compiler) -> None:
    """Each resource of ``resources:``: per player or shared, its bounds, start and unit."""
    for name, spec in (c.m.get("resources") or {}).items():
        spec = spec or {}
        c.resources[name] = ResourceSpec(
            name=name,
            per_player=spec.get("per", "player") == "player",
            minimum=spec.get("min", 0),
            maximum=spec.get("max"),
            start=int(spec.get("start", 0)),
            label=_text(spec.get("label"), name),
            unit=_text(spec.get("unit"), name),
        )


def _declare_kinds(c: Compiler) -> None:
    """Each kind's attributes (the values of its enums become symbols), sides and counters."""
    for name, spec in (c.m.get("kinds") or {}).items():
        spec = spec or {}
        attrs = {str(k): str(v) for k, v in (spec.get("attributes") or {}).items()}
        c.kind_attrs[name] = attrs
        for attr, t in attrs.items():
            values = _enum_values(t)
            if values is not None:
                c.symbols.update(values)
                c.enum_values.extend((value, name, attr) for value in values)
        sides = tuple(spec.get("sides") or ())
        c.symbols.update(sides)
        c.symbols.update(spec.get("counters") or ())
        c.symbols.add(name)


def _declare_dice(c: Compiler) -> None:
    """The dice's names and the symbols on their faces."""
    for name, spec in (c.m.get("dice") or {}).items():
        c.dice_names.add(name)
        for face in (spec or {}).get("faces", []):
            if isinstance(face, (list, dict)):
                c.face_symbols.update(str(x) for x in face)
            elif isinstance(face, str):
                c.face_symbols.add(face)
    c.symbols.update(c.face_symbols)
    c.symbols.update(c.dice_names)


def _declare_map(c: Compiler) -> None:
    """The map: its terrains, costs and the four directions are symbols."""
    m = c.m
    if m.get("map"):
        check_map_tiles(c, m["map"])
        c.map = build_map(m["map"])
        c.symbols.update(c.map.terrain.values())
        c.symbols.update((m["map"].get("costs") or {}).keys())
        c.symbols.update(("north", "south", "east", "west"))


def declare_fields(c: Compiler) -> None:
    """``fields:``: typed game and player values that are not resources."""
    for name, spec in (c.m.get("fields") or {}).items():
        spec = spec or {}
        typ = str(spec.get("type", "number"))
        values = _enum_values(typ)
        if values is not None:
            c.symbols.update(values)
            c.enum_values.extend((value, "fields", name) for value in values)
        default = spec.get("default", 0 if typ == "number" else None)
        if name in c.resources or name in c.zones:
            c.error(
                "RC253",
                f"the field {name!r} has the name of a "
                + ("resource" if name in c.resources else "zone"),
                c.mspan("fields", name),
                "give the field its own name",
            )
        c.fields[name] = FieldSpec(
            name=name,
            per_player=spec.get("of", "player") == "player",
            type=typ,
            default=default,
            shown=bool(spec.get("shown", False)),
        )


# ---------------------------------------------------------------------------- the items
#: ``unique(key, span, what)``: True the first time a key is seen, else RC202 and False.
Unique = Callable[[str, Span, str], bool]


def _collect_component(c: Compiler, item: ast.Component, unique: Unique) -> None:
    """A component of a declared kind (RC201 for another)."""
    if item.kind not in c.kind_attrs:
        c._unknown(
            item.kind,
            item.span,
            c.kind_attrs,
            "component kind",
            "declare it under kinds: in ruleset.yaml",
        )
        return
    if unique("c:" + item.id, item.span, f"component {item.id!r}"):
        c.comps[item.id] = item


def _collect_entry(c: Compiler, item: ast.Entry, unique: Unique) -> None:
    """A story entry, by its number."""
    if unique(f"e:{item.number}", item.span, f"entry {item.number}"):
        c.entries[item.number] = item


def _collect_effect(c: Compiler, item: ast.EffectDef, unique: Unique) -> None:
    """An effect (RC252 when its name is a statement's first word)."""
    if item.name in STATEMENT_WORDS:
        c.error(
            "RC252",
            f"{item.name!r} is a statement keyword: an effect of that name could never be called",
            item.span,
            f"rename the effect (say {item.name}_effect)",
        )
    if unique("f:" + item.name, item.span, f"effect {item.name!r}"):
        c.effects[item.name] = item


def _collect_define(c: Compiler, item: ast.Define, unique: Unique) -> None:
    """A definition (it shares its names with effects)."""
    if unique("f:" + item.name, item.span, f"definition {item.name!r}"):
        c.defines[item.name] = item


def _collect_action(c: Compiler, item: ast.ActionDef, unique: Unique) -> None:
    """An action a phase may offer."""
    if unique("a:" + item.name, item.span, f"action {item.name!r}"):
        c.actions_ast[item.name] = item


def _collect_rule(c: Compiler, item: ast.Rule, unique: Unique) -> None:
    """A rule: triggers, modifiers and grants of no component."""
    if unique("r:" + item.name, item.span, f"rule {item.name!r}"):
        c.rules[item.name] = item


#: The collector of each sort of item, found by the item's type.
COLLECTORS: dict[type, Callable[[Compiler, Any, Unique], None]] = {
    ast.Component: _collect_component,
    ast.Entry: _collect_entry,
    ast.EffectDef: _collect_effect,
    ast.Define: _collect_define,
    ast.ActionDef: _collect_action,
    ast.Rule: _collect_rule,
}


def collect_items(c: Compiler) -> None:
    """The items of every unit (and the manifest's ``generate:``d components) into the
    compiler's tables, each id once (RC202); then what their members declare."""
    seen: dict[str, Span] = {}

    def unique(key: str, span: Span, what: str) -> bool:
        if key in seen:
            c.error(
                "RC202",
                f"{what} is defined twice (first at {seen[key]})",
                span,
                "give each definition its own id",
            )
            return False
        seen[key] = span
        return True

    generated, problems = generated_components(c.m.get("generate") or (), c.mspan_of)
    c.diags.extend(problems)
    for unit in [*c.units, ast.Unit("ruleset.yaml", tuple(generated))]:
        for item in unit.items:
            collector = COLLECTORS.get(type(item))
            if collector is not None:
                collector(c, item, unique)
    _declare_members(c)


def _declare_members(c: Compiler) -> None:
    """What members declare before bodies are compiled: side names are symbols; events
    with replacement ("before") triggers need a two-step instruction; grants and traits
    set flags."""
    for comp in c.comps.values():
        for member in comp.members:
            if isinstance(member, ast.Side):
                c.symbols.add(member.name)
    for members in [comp.members for comp in c.comps.values()] + [
        r.members for r in c.rules.values()
    ]:
        for member in all_members(members):
            if isinstance(member, ast.Trigger) and member.timing == "before":
                c.before_events.add(member.event)
            if isinstance(member, ast.Grant):
                c.flags_set.add(member.flag)
        for member in all_members(members):
            if isinstance(member, ast.Attribute) and member.name == "traits":
                e = member.expr
                if isinstance(e, ast.ListExpr):
                    for x in e.items:
                        if isinstance(x, ast.Name):
                            c.flags_set.add(x.name)
                            c.symbols.add(x.name)


def all_members(members: Iterable[ast.Member]) -> Iterable[ast.Member]:
    """Every member, the members of sides included."""
    for member in members:
        yield member
        if isinstance(member, ast.Side):
            yield from all_members(member.members)
