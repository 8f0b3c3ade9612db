"""Triggers, modifiers and grants: the members that answer events or change other things,
on a component (its id the owner) or in a ``rule`` (no owner)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.compile.declarations import BUILTIN_EVENTS
from rulecraft.compile.scope import Scope, _Code
from rulecraft.language import ast
from rulecraft.runtime.instructions import _optional
from rulecraft.runtime.program import ExprFn, GrantSpec, ModifierSpec, TriggerSpec
from rulecraft.suggest import did_you_mean

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler


def trigger(
    c: Compiler, mem: ast.Trigger, owner: str | None, side: str | None, label: ast.Text | None
) -> TriggerSpec:
    """``when EVENT(...)`` / ``before EVENT(...)``: its body as a routine of its own (an
    optional trigger asks first), its condition, the names it binds."""
    c.events_listened.append((mem.event, mem.span))
    if mem.timing == "before":
        c.before_triggers.append((mem.event, mem.span))
    scope = Scope(set(mem.params) | {"you", "this"}, True)
    routine_code = _Code(f"{owner or 'rule'}.{mem.timing}.{mem.event}")
    if mem.optional:
        skip = [0]
        question = c.text_value(mem.prompt, scope, mem.span) if mem.prompt else None
        routine_code.add(_optional(skip, question), mem.span)
        c.block(mem.body, routine_code, scope)
        skip[0] = routine_code.here
    else:
        c.block(mem.body, routine_code, scope)
    return TriggerSpec(
        owner=owner,
        timing=mem.timing,
        event=mem.event,
        params=trigger_params(c, mem),
        condition=c.expr(mem.condition, scope) if mem.condition else None,
        optional=mem.optional,
        routine=c.finish(routine_code),
        label=label.as_dict() if label else {"": mem.event},
        side=side,
    )


def trigger_params(c: Compiler, mem: ast.Trigger) -> tuple[str, ...]:
    """The names a trigger binds, by position of the event's arguments.  A declared event
    binds by name (``when bust(card)`` takes the argument called ``card``), any other
    by position; more parameters than the event carries is RC255."""
    declared = c.events_declared.get(mem.event)
    if declared is None:
        arity = BUILTIN_EVENTS.get(mem.event)
        if arity is not None and len(mem.params) > arity:
            c.error(
                "RC255",
                f"the event {mem.event!r} carries {arity} argument(s), not {len(mem.params)}",
                mem.span,
                "see the table of events in docs/language.md",
            )
        return mem.params
    bound = [f"_arg{i}" for i in range(len(declared))]
    for name in mem.params:
        if name not in declared:
            guess = did_you_mean(name, list(declared))
            c.error(
                "RC255",
                f"the event {mem.event!r} has no parameter {name!r} "
                f"(it carries {', '.join(declared) or 'none'})",
                mem.span,
                f"did you mean {guess!r}?" if guess else "name a declared parameter",
            )
            continue
        bound[declared.index(name)] = name
    return tuple(bound)


def modifier_spec(
    c: Compiler, mem: ast.Modifier, owner: str | None, side: str | None, scope: Scope
) -> ModifierSpec:
    """``modify PROP of TARGETS by AMOUNT [if CONDITION] [min..max]``."""

    def optional(e: ast.Expr | None) -> ExprFn | None:
        return c.expr(e, scope) if e is not None else None

    return ModifierSpec(
        owner,
        mem.prop,
        c.expr(mem.targets, scope),
        c.expr(mem.amount, scope),
        optional(mem.condition),
        side,
        optional(mem.minimum),
        optional(mem.maximum),
        _fixed_amounts(mem),
    )


def _fixed_amounts(mem: ast.Modifier) -> tuple[int, int | None, int | None] | None:
    """A modifier's amount and bounds when each is a number written in it, else None."""
    amount = _number(mem.amount)
    low = None if mem.minimum is None else _number(mem.minimum)
    high = None if mem.maximum is None else _number(mem.maximum)
    if amount is None:
        return None
    if (mem.minimum is not None and low is None) or (mem.maximum is not None and high is None):
        return None
    return amount, low, high


def _number(e: ast.Expr) -> int | None:
    """The value of a whole number written as such (``2``, ``-1``), else None."""
    if isinstance(e, ast.Unary) and e.op == "-":
        inner = _number(e.operand)
        return None if inner is None else -inner
    if isinstance(e, ast.Const) and type(e.value) is int:
        return e.value
    return None


def grant_spec(
    c: Compiler, mem: ast.Grant, owner: str | None, side: str | None, scope: Scope
) -> GrantSpec:
    """``grant FLAG to TARGETS [if CONDITION]``."""
    return GrantSpec(
        owner,
        mem.flag,
        c.expr(mem.targets, scope),
        c.expr(mem.condition, scope) if mem.condition else None,
        side,
    )


def compile_rules(c: Compiler) -> tuple[list[TriggerSpec], list[ModifierSpec], list[GrantSpec]]:
    """Every ``rule``'s triggers, modifiers and grants (a rule holds nothing else: RC212)."""
    trig: list[TriggerSpec] = []
    mods: list[ModifierSpec] = []
    grants: list[GrantSpec] = []
    for name, rule in c.rules.items():
        scope = Scope({"you", "this"}, True)
        for mem in rule.members:
            if isinstance(mem, ast.Trigger):
                trig.append(trigger(c, mem, None, None, rule.label or ast.Text(name)))
            elif isinstance(mem, ast.Modifier):
                mods.append(modifier_spec(c, mem, None, None, scope))
            elif isinstance(mem, ast.Grant):
                grants.append(grant_spec(c, mem, None, None, scope))
            else:
                c.error("RC212", "rules hold triggers, modifiers and grants", mem.span)
    return trig, mods, grants
