"""The checks of a compilation that look at more than one node: values given to declared
fields and attributes (RC209, RC253), enum values shadowed by other names (RC223), units
(RC201), and the checks run once every body is compiled: goto targets, flags tested but
never set, events nobody emits, before-triggers that never run, field reads nothing
declares, and effects, definitions and actions never used."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rulecraft.compile.declarations import BUILTIN_EVENTS, RESOURCE_VERBS
from rulecraft.compile.fields import PLAYER_NAMES, FieldRead, catalogue
from rulecraft.diagnostics import Span
from rulecraft.language import ast
from rulecraft.suggest import did_you_mean

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler


def check_field_value(c: Compiler, name: str, value: ast.Expr, span: Span) -> None:
    """RC253: a constant of the wrong type given to a declared field."""
    spec = c.fields.get(name)
    if spec is None:
        return
    if isinstance(value, ast.Conditional):  # either branch may be the value
        for branch in (value.then, value.otherwise):
            where = branch.span if branch.span is not ast.NOWHERE else span
            check_field_value(c, name, branch, where)
        return
    typ = spec.type
    wrong = False
    if isinstance(value, ast.Const) and value.value is not None:
        v = value.value
        wrong = (typ == "number" and (isinstance(v, bool) or not isinstance(v, int))) or (
            typ == "flag" and not isinstance(v, bool)
        )
        wrong = wrong or typ.startswith("enum(")
    elif isinstance(value, ast.Name) and typ.startswith("enum("):
        allowed = [x.strip() for x in typ[5:-1].split(",")]
        # a symbol of another enum, a card, a zone, a resource or a player is no value
        # of this one (set game.trump to ash_3, to you)
        others = (c.symbols, c.comps, c.zones, c.resources, PLAYER_NAMES)
        wrong = value.name not in allowed and any(value.name in o for o in others)
    elif isinstance(value, ast.Name) and typ in ("card", "player"):
        is_player = value.name in PLAYER_NAMES
        wrong = (typ == "card" and is_player) or (
            typ == "player" and (value.name in c.comps or value.name in c.symbols)
        )
    elif isinstance(value, ast.TextLit):
        wrong = typ not in ("text",)
    if wrong:
        article = "an" if typ[:1] in "aeiou" else "a"
        c.error(
            "RC253",
            f"the field {name!r} holds {article} {typ}: this value is not one",
            span,
            f"declared under fields: {name}: type: {typ}",
        )


def check_enum_shadows(c: Compiler) -> None:
    """RC223: an enum value that is also a zone, resource or component id means that
    other thing in expressions, so ``it.type == armor`` never compares with the value."""
    for value, kind, attr in c.enum_values:
        shadow = (
            "zone"
            if value in c.zones
            else "resource"
            if value in c.resources
            else "component"
            if value in c.comps
            else None
        )
        if shadow is not None:
            c.warn(
                "RC223",
                f"{value!r} is a value of {kind}.{attr} and also a {shadow}: "
                f"in expressions it means the {shadow}",
                c.mspan("kinds", kind, "attributes", attr),
                f"rename the {shadow} or the value (say {value}_slot)",
            )


def check_unit(c: Compiler, unit: str, span: Span) -> None:
    """RC201: the unit of an amount is neither a resource nor a counter."""
    counters: set[str] = set()
    for k in c.kinds.values():
        counters.update(k.counters)
    for spec in (c.m.get("kinds") or {}).values():
        counters.update((spec or {}).get("counters") or ())
    if unit not in c.resources and unit not in counters:
        c._unknown(unit, span, list(c.resources) + sorted(counters), "resource or counter")


def check_type(c: Compiler, typ: str | None, value: Any, span: Span, name: str) -> None:
    """RC209: a component's constant attribute is not of its declared type."""
    if typ is None:
        return
    typ = typ.rstrip("!")
    ok = True
    if typ == "number":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif typ == "text":
        ok = isinstance(value, dict)
    elif typ == "bool":
        ok = isinstance(value, bool)
    elif typ == "list":
        ok = isinstance(value, list)
    if not ok:
        c.error("RC209", f"{name!r} must be a {typ}, not {_describe(value)}", span)


def _describe(value: Any) -> str:
    """A value's sort, as a message says it."""
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, dict):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return repr(value)


# ---------------------------------------------------------------------------- after the bodies
def post_checks(c: Compiler) -> None:
    """The checks that need every body compiled first."""
    for number, span, _ in c.goto_targets:
        if number not in c.entries:
            c._unknown(str(number), span, [str(n) for n in c.entries], "entry")
    for flag, span in c.flags_tested:
        if flag not in c.flags_set and flag not in c.kind_attrs:
            c.warn(
                "RC217",
                f"the flag {flag!r} is tested but never set",
                span,
                "set it with 'set flag NAME', a grant or traits, or remove the test",
            )
    for event, span in c.events_listened:
        if (
            event not in BUILTIN_EVENTS
            and event not in c.events_emitted
            and event not in c.events_declared
        ):
            c.warn(
                "RC218",
                f"nothing ever emits the event {event!r}",
                span,
                f"emit it with 'emit {event}(...)', or listen to a built-in event",
            )
    check_before_triggers(c)
    check_field_reads(c, c.field_reads)
    _check_unused(c)


def _check_unused(c: Compiler) -> None:
    """RC219: an effect, definition or action nothing uses."""
    for name, eff in c.effects.items():
        if name not in c.used_names:
            c.warn("RC219", f"effect {name!r} is never used", eff.span)
    for name, d in c.defines.items():
        if name not in c.used_names:
            c.warn("RC219", f"definition {name!r} is never used", d.span)
    for name, a in c.actions_ast.items():
        if name not in c.used_names:
            c.warn(
                "RC219",
                f"action {name!r} is in no phase's actions",
                a.span,
                "list it under flow: phases: actions:",
            )


def check_before_triggers(c: Compiler) -> None:
    """RC222: a before-trigger of a built-in event that is not a resource change never
    runs (custom events and resource changes can be replaced beforehand)."""
    preventable = {event for event, _ in RESOURCE_VERBS.values()}
    for event, span in c.before_triggers:
        if event in BUILTIN_EVENTS and event not in preventable:
            c.warn(
                "RC222",
                f"'before {event}' never runs: of the built-in events only resource "
                "changes can be replaced beforehand",
                span,
                "before-triggers answer "
                + ", ".join(sorted(preventable))
                + " and custom events; use 'when'",
            )


def _component_fields(c: Compiler) -> set[str]:
    """Every field a component may have: declared, counted, given or shown by a zone."""
    component_fields: set[str] = set()
    for attrs in c.kind_attrs.values():
        component_fields.update(attrs)
    for kind in c.kinds.values():
        component_fields.update(kind.counters)
    for d in c.defs.values():
        component_fields.update(d.attributes, d.dynamic, d.effects)
        for side in d.side_attributes.values():
            component_fields.update(side)
    for zone in c.zones.values():
        component_fields.update(zone.public_fields, zone.local_fields)
    return component_fields


def check_field_reads(c: Compiler, reads: Iterable[FieldRead]) -> None:
    """RC250 for a field nothing declares or sets, RC251 for a definition read as one."""
    known = catalogue(
        zones=c.zones,
        resources=c.resources,
        player_fields=[n for n, f in c.fields.items() if f.per_player],
        game_fields=[n for n, f in c.fields.items() if not f.per_player]
        + [n for n, r in c.resources.items() if not r.per_player],
        component_fields=_component_fields(c),
        set_fields=c.set_fields,
        symbols=c.symbols,
    )
    for read in reads:
        if known.known(read):
            continue
        sort = {"player": "a player", "game": "the game"}.get(read.kind, "anything in this ruleset")
        if read.field in c.defines:
            c.error(
                "RC251",
                f"{read.field!r} is a definition, not a field",
                read.span,
                f"call it: {read.field}(x), or over a list: "
                f"[{read.field}(p) for p in players] is written map(players, {read.field})",
            )
            continue
        guess = did_you_mean(read.field, known.candidates(read))
        c.error(
            "RC250",
            f"{sort} has no field {read.field!r}: nothing declares it or sets it",
            read.span,
            f"did you mean {guess!r}?"
            if guess
            else "declare it (kinds: attributes:, fields:) or give it a value with set",
        )
