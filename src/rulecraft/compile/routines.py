"""The named bodies of a ruleset: definitions (``define``), effects (``effect``), actions
(``action``) and story entries (``entry``), each compiled to a function or a routine."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from rulecraft.compile import incremental
from rulecraft.compile.amounts import _unit_span
from rulecraft.compile.routine_code import compiled_routine
from rulecraft.compile.scope import Scope, _Code
from rulecraft.language import ast
from rulecraft.runtime import ids
from rulecraft.runtime.instructions import _enter_entry, limit_key
from rulecraft.runtime.program import ActionSpec, EntryDef, Routine

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler


def compile_defines(c: Compiler) -> None:
    """Each ``define`` as a function of the context (its parameters are locals)."""
    for name, d in c.defines.items():
        c.define_fns[name] = c.expr(d.expr, Scope(set(d.params) | {"you", "this"}, True))


def reserve_effects(c: Compiler) -> None:
    """A routine number for every effect before any body is compiled, so that bodies can
    call effects defined later (and effects each other)."""
    for name in c.effects:
        c.effect_routines[name] = len(c.routines)
        c.routines.append(Routine(name, (), ()))


def fill_effects(c: Compiler) -> None:
    """Each effect's body, compiled into the routine reserved for it."""
    for name, eff in c.effects.items():
        code = _Code(name)
        c.block(eff.body, code, Scope(set(eff.params) | {"you", "this"}, True))
        c.routines[c.effect_routines[name]] = compiled_routine(code, eff.params)


def compile_actions(c: Compiler) -> dict[str, ActionSpec]:
    """Each ``action``: its label, what it iterates over, cost, limit, condition, body."""
    out: dict[str, ActionSpec] = {}
    for name, a in c.actions_ast.items():
        scope = Scope({"you"})
        coll = kept = None
        if a.for_var is not None and a.for_collection is not None:
            coll = c.expr(a.for_collection, scope)
            kept = incremental.kept_where(c, a.for_collection, scope)
            scope = scope.child(a.for_var)
        cost = tuple(c.qty_parts(a.cost, scope)) if a.cost else ()
        for unit, _ in cost:
            c._check_unit(unit, (_unit_span(a.cost, unit) if a.cost else None) or a.span)
        out[name] = ActionSpec(
            name=name,
            label=c.text_value(a.label, scope, a.span) if a.label else {"": name},
            for_var=a.for_var,
            for_collection=coll,
            cost=cost,
            limit=a.limit,
            condition=c.expr(a.condition, scope) if a.condition else None,
            routine=c.routine(f"action.{name}", a.body, scope),
            option=ids.action_option(name),
            option_stem=ids.action_option(name, ""),
            limit_key=limit_key(a.limit, ids.action_option(name)),
            kept=kept,
            kept_options=() if kept is None else _kept_options(name, kept.spaces),
        )
    return out


def _kept_options(name: str, spaces: tuple[str, ...]) -> tuple[list[Any], ...]:
    """The option a menu offers action ``name`` under for each of ``spaces``, built once:
    the menu appends these very lists (options are replaced, never changed in place)."""
    return tuple(
        [sys.intern(ids.action_option(name, ids.space_name(s))), None, ["act", name, s]]
        for s in spaces
    )


def compile_entries(c: Compiler) -> dict[int, EntryDef]:
    """Each story ``entry``: its text, its ``do:`` statements, then its choices."""
    out: dict[int, EntryDef] = {}
    for number, entry in c.entries.items():
        out[number] = _entry(c, number, entry)
    return out


def _entry(c: Compiler, number: int, entry: ast.Entry) -> EntryDef:
    """One entry: text and chooser from its attributes, ``do:`` statements, then choices."""
    scope = Scope({"you", "this"}, True, True)
    code = _Code(f"entry.{number}")
    text: dict[str, str] = {}
    choices: list[ast.Choice] = []
    chooser: ast.Expr | None = None
    for mem in entry.members:
        if isinstance(mem, ast.Attribute):
            if mem.name == "text" and isinstance(mem.expr, ast.TextLit):
                text = mem.expr.text.as_dict()
            elif mem.name == "do":
                continue
            elif mem.name == "chooser":
                chooser = mem.expr
            else:
                c.warn(
                    "RC210",
                    f"entries have no attribute {mem.name!r}",
                    mem.span,
                    "entries take text:, do: and choice",
                )
        elif isinstance(mem, ast.Choice):
            choices.append(mem)
        else:
            c.error("RC212", "entries hold text:, do: and choice", mem.span)
    title = entry.label.as_dict() if entry.label else {"": f"Entry {number}"}
    code.add(_enter_entry(number, title, text), entry.span)
    for mem in entry.members:
        if isinstance(mem, ast.Attribute) and mem.name == "do":
            c.block(mem.body, code, scope)
    if choices:
        c.options(
            chooser,
            entry.label,
            [(ch.label, ch.condition, ch.body, ch.span) for ch in choices],
            code,
            scope,
            entry.span,
        )
    return EntryDef(number, title, text, c.finish(code), entry.span)
