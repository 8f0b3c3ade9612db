"""Kinds and components: each kind's spec from the manifest, each component's definition
(constant attributes, computed ones, effect attributes, sides, copies, text), its
abilities, and the triggers, modifiers and grants its members declare; then where the
manifest places the components (``components:``).

A component's members are compiled one by one, each by the function :data:`MEMBERS` finds
for its type; a side's members are compiled the same way into the side's attributes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.compile.amounts import _is_qty, _qty_const, _unit_span, fixed_cost_parts
from rulecraft.compile.checks import check_type
from rulecraft.compile.flags import FlagLiterals, flag_literals
from rulecraft.compile.rules import grant_spec, modifier_spec, trigger
from rulecraft.compile.scope import Scope
from rulecraft.language import ast
from rulecraft.language.parser import parse_expression
from rulecraft.runtime.program import (
    AbilitySpec,
    ComponentDef,
    ExprFn,
    GrantSpec,
    KindSpec,
    ModifierSpec,
    Placement,
    TriggerSpec,
)
from rulecraft.suggest import did_you_mean

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler


@dataclass
class Components:
    """What the components compile to: their definitions, and the abilities, triggers,
    modifiers and grants of all of them (rules add theirs to the last three)."""

    defs: dict[str, ComponentDef] = field(default_factory=dict)
    abilities: dict[str, list[AbilitySpec]] = field(default_factory=dict)
    triggers: dict[str, list[TriggerSpec]] = field(default_factory=dict)
    modifiers: dict[str, list[ModifierSpec]] = field(default_factory=dict)
    grants: dict[str, list[GrantSpec]] = field(default_factory=dict)

    def add_rules(
        self,
        triggers: list[TriggerSpec],
        modifiers: list[ModifierSpec],
        grants: list[GrantSpec],
    ) -> None:
        """The triggers, modifiers and grants of the rules, after the components' own."""
        for spec in triggers:
            self.triggers.setdefault(spec.event, []).append(spec)
        for mod in modifiers:
            self.modifiers.setdefault(mod.prop, []).append(mod)
        for g in grants:
            self.grants.setdefault(g.flag, []).append(g)


@dataclass
class _Parts:
    """One component's definition under construction, filled member by member."""

    cid: str
    comp: ast.Component
    declared: dict[str, str]  # the kind's attributes: name -> type
    scope: Scope
    attrs: dict[str, Any] = field(default_factory=dict)
    dynamic: dict[str, ExprFn] = field(default_factory=dict)
    effects: dict[str, int] = field(default_factory=dict)
    side_attrs: dict[str, dict[str, Any]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    copies: int = 1
    abilities: list[AbilitySpec] = field(default_factory=list)


class _NotConstant:
    """The value of :func:`_constant` for an expression that is no constant."""


_NOT_CONSTANT: Any = _NotConstant()


# ---------------------------------------------------------------------------- kinds
def compile_kinds(c: Compiler) -> None:
    """Each kind of ``kinds:``: where its components are active and offer abilities, when
    they are active, their counters and sides."""
    for kname, spec in (c.m.get("kinds") or {}).items():
        spec = spec or {}
        active_if = c._manifest_expr(
            spec.get("active_if"), ("kinds", kname, "active_if"), Scope({"you", "this"}, True)
        )
        active_in = frozenset(spec.get("active_in") or ())
        c.kinds[kname] = KindSpec(
            active_flags=_active_flags(spec.get("active_if")),
            name=kname,
            active_in=active_in,
            abilities_in=frozenset(spec.get("abilities_in") or active_in),
            active_if=active_if,
            counters=tuple(spec.get("counters") or ()),
            sides=tuple(spec.get("sides") or ()),
        )
        for z in active_in | frozenset(spec.get("abilities_in") or ()):
            if z not in c.zones and z != "map":
                c._unknown(z, c.mspan("kinds", kname, "active_in"), c.zones, "zone")


def _active_flags(text: object) -> FlagLiterals | None:
    """An ``active_if``'s flag tests (:func:`flags.flag_literals`), if that is all it is
    (its problems, if any, are reported where it is compiled)."""
    if not isinstance(text, str):
        return None
    tree, _ = parse_expression(text, "ruleset.yaml", 1, 1)
    return None if tree is None else flag_literals(tree)


# ---------------------------------------------------------------------------- components
def compile_components(c: Compiler) -> Components:
    """The kinds, then every component's definition and members."""
    compile_kinds(c)
    out = Components()
    for cid, comp in c.comps.items():
        out.defs[cid] = _component(c, cid, comp, out)
    c.defs = out.defs
    return out


def _component(c: Compiler, cid: str, comp: ast.Component, out: Components) -> ComponentDef:
    """One component: its members compiled, its missing attributes checked or zero."""
    parts = _Parts(cid, comp, c.kind_attrs.get(comp.kind, {}), Scope({"you", "this"}, True))
    compile_members(c, parts, out, comp.members, None, parts.attrs)
    for aname, typ in parts.declared.items():
        if aname in parts.attrs or aname in parts.dynamic or aname in parts.effects:
            continue
        if typ.endswith("!"):
            c.error("RC213", f"{comp.kind} {cid!r} needs the attribute {aname!r}", comp.span)
        elif typ == "number":
            # a declared number the card does not give is 0, so sums and
            # comparisons over mixed cards need no guard (sum(you.hand.coins))
            parts.attrs[aname] = 0
    if parts.abilities:
        out.abilities[cid] = parts.abilities
    return ComponentDef(
        id=cid,
        kind=comp.kind,
        name=comp.label.as_dict() if comp.label else {"": cid},
        attributes=parts.attrs,
        dynamic=parts.dynamic,
        effects=parts.effects,
        side_attributes=parts.side_attrs,
        copies=parts.copies,
        text=parts.texts,
        span=comp.span,
    )


#: Compiles one member of a component: (compiler, the component so far, the program-wide
#: tables, the member, its side or None, the attributes it writes to).
MemberCompiler = Callable[["Compiler", _Parts, Components, Any, "str | None", dict[str, Any]], None]


def compile_members(
    c: Compiler,
    parts: _Parts,
    out: Components,
    members: tuple[ast.Member, ...],
    side: str | None,
    target: dict[str, Any],
) -> None:
    """Each member by the function registered for its type (:data:`MEMBERS`)."""
    for mem in members:
        compile_member = MEMBERS.get(type(mem))
        if compile_member is not None:
            compile_member(c, parts, out, mem, side, target)


def _attribute(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Attribute,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """``name: value``: copies, text, an effect attribute, a constant or a computed value."""
    typ = parts.declared.get(mem.name)
    if mem.name == "copies":
        e = mem.expr
        if isinstance(e, ast.Const) and isinstance(e.value, int):
            parts.copies = e.value
        else:
            c.error("RC209", "copies must be a whole number", mem.span)
        return
    if mem.name == "text":
        if isinstance(mem.expr, ast.TextLit):
            if side is None:
                parts.texts = mem.expr.text.as_dict()
            target["text"] = mem.expr.text.as_dict()
        return
    if typ is None and mem.name not in ("traits", "name"):
        _warn_undeclared(c, parts, mem)
    if typ is not None and typ.rstrip("!") == "effect":
        key = mem.name if side is None else f"{side}:{mem.name}"
        parts.effects[key] = c.routine(f"{parts.cid}.{mem.name}", mem.body, parts.scope)
        return
    if mem.expr is None:
        c.error(
            "RC209",
            f"{mem.name!r} holds a value, not effects",
            mem.span,
            f"declare it as 'effect' in kinds: {parts.comp.kind}: attributes:"
            if typ is None
            else None,
        )
        return
    _attribute_value(c, parts, mem, mem.expr, typ, target)


def _warn_undeclared(c: Compiler, parts: _Parts, mem: ast.Attribute) -> None:
    """RC210: an attribute the component's kind does not declare."""
    kind = parts.comp.kind
    c.warn(
        "RC210",
        f"{kind} has no attribute {mem.name!r} declared",
        mem.span,
        (
            f"did you mean {g!r}?"
            if (g := did_you_mean(mem.name, list(parts.declared)))
            else f"declare it under kinds: {kind}: attributes:"
        ),
    )


def _attribute_value(
    c: Compiler,
    parts: _Parts,
    mem: ast.Attribute,
    e: ast.Expr,
    typ: str | None,
    target: dict[str, Any],
) -> None:
    """An attribute's value: a constant (type-checked), a symbol or list of names kept as
    they are, a constant amount, else a function computed when read."""
    const = _constant(e)
    if const is not _NOT_CONSTANT:
        if isinstance(const, int) and not isinstance(const, bool) and abs(const) > 2**31:
            c.error(
                "RC205", f"the number {const} is too large", e.span, "numbers must stay below 2**31"
            )
        target[mem.name] = const
        check_type(c, typ, const, mem.span, mem.name)
    elif (
        isinstance(e, ast.Name)
        and e.name in c.symbols
        and e.name not in c.zones
        and e.name not in c.resources
        and e.name not in c.defines
    ):
        target[mem.name] = e.name
    elif isinstance(e, ast.ListExpr) and all(isinstance(x, ast.Name) for x in e.items):
        target[mem.name] = [x.name for x in e.items if isinstance(x, ast.Name)]
    elif isinstance(e, ast.Qty | ast.Binary) and _is_qty(e):
        fn = c.expr(e, parts.scope)
        target[mem.name] = _qty_const(e)
        if target[mem.name] is None:
            parts.dynamic[mem.name] = fn
    else:
        parts.dynamic[mem.name] = c.expr(e, parts.scope)


def _constant(e: ast.Expr) -> Any:
    """The value of a constant expression (a number, a text, a negative number)."""
    if isinstance(e, ast.Const):
        return e.value
    if isinstance(e, ast.TextLit):
        return e.text.as_dict()
    if (
        isinstance(e, ast.Unary)
        and e.op == "-"
        and isinstance(e.operand, ast.Const)
        and isinstance(e.operand.value, int)
    ):
        return -e.operand.value
    return _NOT_CONSTANT


def _ability(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Ability,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """``ability "label" [cost] [limit] [if condition]:``, its body a routine of its own."""
    scope = parts.scope
    idx = len(parts.abilities)
    parts.abilities.append(
        AbilitySpec(
            owner=parts.cid,
            index=idx,
            label=mem.label.as_dict() if mem.label else {"": "Ability"},
            cost=tuple(c.qty_parts(mem.cost, scope)) if mem.cost else (),
            limit=mem.limit,
            condition=c.expr(mem.condition, scope) if mem.condition else None,
            routine=c.routine(f"{parts.cid}.ability{idx}", mem.body, scope),
            side=side,
            fixed_cost=None if mem.cost is None else fixed_cost_parts(mem.cost),
        )
    )
    for unit, _ in parts.abilities[-1].cost:
        where = _unit_span(mem.cost, unit) if mem.cost else None
        c._check_unit(unit, where or mem.span)


def _trigger(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Trigger,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """A trigger, added to the program's triggers of its event."""
    out.triggers.setdefault(mem.event, []).append(
        trigger(c, mem, parts.cid, side, parts.comp.label)
    )


def _modifier(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Modifier,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """A modifier, added to the program's modifiers of its property."""
    out.modifiers.setdefault(mem.prop, []).append(
        modifier_spec(c, mem, parts.cid, side, parts.scope)
    )


def _grant(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Grant,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """A grant, added to the program's grants of its flag."""
    out.grants.setdefault(mem.flag, []).append(grant_spec(c, mem, parts.cid, side, parts.scope))


def _side(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Side,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """``side NAME "label":``: its members compiled into the side's own attributes."""
    kind_name = parts.comp.kind
    kind = (c.m.get("kinds") or {}).get(kind_name) or {}
    if mem.name not in (kind.get("sides") or ()):
        c.error(
            "RC211",
            f"{kind_name} has no side {mem.name!r}",
            mem.span,
            f"declare {mem.name!r} under sides: of {kind_name}",
        )
    sub: dict[str, Any] = {}
    compile_members(c, parts, out, mem.members, mem.name, sub)
    if mem.label is not None:
        sub["name"] = mem.label.as_dict()
    parts.side_attrs[mem.name] = sub


def _choice(
    c: Compiler,
    parts: _Parts,
    out: Components,
    mem: ast.Choice,
    side: str | None,
    target: dict[str, Any],
) -> None:
    """RC212: choices belong to story entries, not components."""
    c.error(
        "RC212",
        "choices belong to story entries",
        mem.span,
        "use 'choose:' with options inside an effect",
    )


#: The function that compiles each type of member of a component.
MEMBERS: dict[type, MemberCompiler] = {
    ast.Attribute: _attribute,
    ast.Ability: _ability,
    ast.Trigger: _trigger,
    ast.Modifier: _modifier,
    ast.Grant: _grant,
    ast.Side: _side,
    ast.Choice: _choice,
}


# ---------------------------------------------------------------------------- placements
def placements(c: Compiler) -> tuple[Placement, ...]:
    """``components:``: which components start in which zone, how many copies; RC214 for a
    component placed twice, RC215 for a zone whose ``size`` is not met, RC216 for a
    component never placed."""
    out: list[Placement] = []
    placed: set[str] = set()
    zone_counts: dict[str, int] = {}
    for i, spec in enumerate(c.m.get("components") or ()):
        zone = str(spec.get("zone"))
        if zone not in c.zones:
            c._unknown(zone, c.mspan("components", i, "zone"), c.zones, "zone")
            continue
        per_player = c.zones[zone].per_player
        for cid in _placed_ids(c, i, spec):
            if cid in placed:
                c.error("RC214", f"component {cid!r} is placed twice", c.mspan("components", i))
                continue
            placed.add(cid)
            copies = int(spec.get("copies", c.defs[cid].copies if cid in c.defs else 1))
            out.append(Placement(cid, copies, zone, per_player))
            zone_counts[zone] = zone_counts.get(zone, 0) + copies
    for name, z in c.zones.items():
        if z.size is not None and zone_counts.get(name, 0) != z.size:
            c.error(
                "RC215",
                f"zone {name!r} should start with {z.size} components, "
                f"but gets {zone_counts.get(name, 0)}",
                c.mspan("zones", name, "size"),
                "change the copies of its components, or its size",
            )
    for cid, comp in c.comps.items():
        if cid not in placed:
            c.warn(
                "RC216",
                f"component {cid!r} is never placed in a zone, so it never takes part",
                comp.span,
                "list it (or its kind) under components: in ruleset.yaml",
            )
    return tuple(out)


def _placed_ids(c: Compiler, i: int, spec: dict[str, Any]) -> list[str]:
    """The components one entry of ``components:`` places: by ``kind``, then by ``ids``."""
    ids: list[str] = []
    if "kind" in spec:
        kinds = spec["kind"] if isinstance(spec["kind"], list) else [spec["kind"]]
        for k in kinds:
            if k not in c.kind_attrs:
                c._unknown(k, c.mspan("components", i, "kind"), c.kind_attrs, "kind")
        ids = [cid for cid, d in c.comps.items() if d.kind in kinds]
    if "ids" in spec:
        for cid in spec["ids"]:
            if cid not in c.comps:
                c._unknown(cid, c.mspan("components", i, "ids"), c.comps, "component")
            else:
                ids.append(cid)
    return ids
