"""The statements of the language, compiled: one function per statement, found by type.

The parser gives every simple statement as a node of its own type (``ast.Draw``,
``ast.Move``, ``ast.SetValue``, ...; see :class:`rulecraft.language.ast.SimpleStmt`);
:data:`STATEMENTS` maps each type to the function that checks it and appends its
instructions (:mod:`rulecraft.runtime.instructions`) to the routine under construction.
A new statement is a grammar rule, a node type, a parser method, one function here and its
instruction.

>>> sorted(t.verb for t in STATEMENTS)[:5]
['call', 'clear_flag', 'deal', 'discard', 'draw']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulecraft.compile.compiler import (
    DURATIONS,
    ENDS,
    RESOURCE_VERBS,
    Compiler,
    Scope,
    _Code,
    _unit_span,
)
from rulecraft.compile.fields import static_kind
from rulecraft.compile.routine_code import SetLocal
from rulecraft.language import ast
from rulecraft.runtime.instructions import (
    _draw,
    _emit,
    _emit_after_before,
    _emit_before,
    _end,
    _exhaust,
    _flag,
    _flip,
    _game_over,
    _goto,
    _move,
    _prevent,
    _reroll,
    _resource,
    _return,
    _reveal,
    _reveal_to,
    _roll,
    _say,
    _set_field,
    _set_game_field,
    _set_resource,
    _set_start_player,
    _shuffle,
)
from rulecraft.runtime.program import ExprFn

#: Compiles one statement (of the type it is registered for) into the routine under
#: construction; gives the scope after it.
StatementCompiler = Callable[[Compiler, Any, _Code, Scope], Scope]
ResourceStmt = ast.Gain | ast.Lose | ast.Spend | ast.Suffer | ast.Heal | ast.Deal


def compile_resource(c: Compiler, s: ResourceStmt, code: _Code, scope: Scope) -> Scope:
    """``gain``/``spend``/``lose``/``suffer``/``heal``/``deal`` an amount: one
    instruction per unit (two when a ``before`` trigger may change the amount)."""
    v = s.verb
    span = s.span
    if s.value is None:
        c.error("RC204", f"'{v}' needs an amount, such as '{v} 1 gold'", span)
        return scope
    event, sign = RESOURCE_VERBS[v]
    parts = c.qty_parts(s.value, scope)
    for unit, _ in parts:
        c._check_unit(unit, _unit_span(s.value, unit) or s.value.span)
    owner_ast = s.target if isinstance(s, ast.Gain | ast.Suffer | ast.Deal) else s.source
    owner = c.expr(owner_ast, scope) if owner_ast is not None else None
    if v == "deal" and owner is None:
        c.error("RC204", "'deal' needs a target: deal 1 damage to card", span)
    shared = {u for u, _ in parts if u in c.resources and not c.resources[u].per_player}
    for unit, amount in parts:
        two_step = event in c.before_events
        code.add(
            _resource(unit, amount, owner, sign, event, v, unit in shared, two_step, "begin"),
            span,
        )
        if two_step:
            code.add(
                _resource(unit, amount, owner, sign, event, v, unit in shared, True, "apply"),
                span,
            )
    return scope


def compile_draw(c: Compiler, s: ast.Draw, code: _Code, scope: Scope) -> Scope:
    """``draw N [from Z] [to Z]``: the manifest's default zones when not named."""
    span = s.span
    count = c.expr(s.value, scope) if s.value else (lambda ctx: 1)
    src = c.expr(s.source, scope) if s.source else c._default_zone("draw_from", span, scope)
    dst = c.expr(s.target, scope) if s.target else c._default_zone("draw_to", span, scope)
    reshuffle = c._default_zone_opt("reshuffle_from", scope)
    code.add(_draw(count, src, dst, reshuffle), span)
    return scope


def compile_discard(c: Compiler, s: ast.Discard, code: _Code, scope: Scope) -> Scope:
    """``discard X [to Z]``."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: [])
    dst = c.expr(s.target, scope) if s.target else c._default_zone("discard_to", span, scope)
    code.add(_move(what, dst, None, "discarded"), span)
    return scope


def compile_move(c: Compiler, s: ast.Move, code: _Code, scope: Scope) -> Scope:
    """``move X to Z [on top|at the bottom] [face down]``."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: [])
    if s.target is None:
        c.error("RC204", "'move' needs a destination: move card to zone", span)
        return scope
    dst = c.expr(s.target, scope)
    code.add(_move(what, dst, s.position, "moved", s.facedown), span)
    return scope


def compile_shuffle(c: Compiler, s: ast.Shuffle, code: _Code, scope: Scope) -> Scope:
    """``shuffle Z``."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: None)
    code.add(_shuffle(what), span)
    return scope


def compile_reveal(c: Compiler, s: ast.Reveal | ast.Look, code: _Code, scope: Scope) -> Scope:
    """``reveal X`` to everybody, ``reveal X to P`` or ``look at X`` to some seats only."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: [])
    target = s.target if isinstance(s, ast.Reveal) else None
    if isinstance(s, ast.Look) or target is not None:
        seers = c.expr(target, scope) if target else (lambda ctx: ctx.loc["you"])
        code.add(_reveal_to(what, seers), span)
    else:
        code.add(_reveal(what), span)
    return scope


def compile_roll(c: Compiler, s: ast.Roll, code: _Code, scope: Scope) -> Scope:
    """``roll POOL [as NAME]``: the result is a local (``roll`` by default)."""
    span = s.span
    if s.value is None:
        return scope
    pool = c.expr(s.value, scope)
    if isinstance(s.value, ast.Qty | ast.Binary):
        for unit, _ in c.qty_parts(s.value, scope):
            if unit not in c.dice_names and not unit.startswith("d"):
                c._unknown(unit, s.value.span, c.dice_names, "die type")
    var = s.name or "roll"
    code.add(_roll(pool, var), span)
    return scope.child(var)


def compile_reroll(c: Compiler, s: ast.Reroll, code: _Code, scope: Scope) -> Scope:
    """``reroll NAME [where COND]``: some dice of an earlier roll."""
    span = s.span
    target_ast = s.value
    cond_fn: ExprFn | None = None
    if isinstance(target_ast, ast.Where):
        cond_fn = c.expr(target_ast.condition, scope.child("it"))
        target_ast = target_ast.collection
    if not isinstance(target_ast, ast.Name) or target_ast.name not in scope.locals:
        c.error(
            "RC204",
            "reroll names an earlier roll: reroll r where it.success == 0",
            span,
        )
        return scope
    code.add(_reroll(target_ast.name, cond_fn), span)
    return scope


def compile_goto(c: Compiler, s: ast.Goto, code: _Code, scope: Scope) -> Scope:
    """``go to N``: a constant target is checked once every entry is known."""
    span = s.span
    if isinstance(s.value, ast.Const) and isinstance(s.value.value, int):
        c.goto_targets.append((s.value.value, span, "goto"))
    target = c.expr(s.value, scope) if s.value else (lambda ctx: None)
    code.add(_goto(target), span)
    return scope


def compile_return(c: Compiler, s: ast.Return, code: _Code, scope: Scope) -> Scope:
    """``return``."""
    span = s.span
    code.add(_return, span)
    return scope


def compile_flag(c: Compiler, s: ast.SetFlag | ast.ClearFlag, code: _Code, scope: Scope) -> Scope:
    """``set flag F [on X] [until ...]`` / ``clear flag F [on X]``."""
    span = s.span
    setting = isinstance(s, ast.SetFlag)
    until = s.until if isinstance(s, ast.SetFlag) else None
    if setting:
        c.flags_set.add(s.name)
    c.symbols.add(s.name)
    subject = c.expr(s.target, scope) if s.target else None
    if until is not None:
        c.timed_flags = True
        if until not in DURATIONS:
            c._unknown(until, span, DURATIONS, "duration")
    code.add(_flag(s.name, subject, setting, until), span)
    return scope


def compile_set(c: Compiler, s: ast.SetValue, code: _Code, scope: Scope) -> Scope:
    """``set X.field to V``, ``set RESOURCE to V``, ``set VAR to V``, ``set start_player to P``."""
    span = s.span
    if s.value is None or s.target is None:
        return scope
    value = c.expr(s.target, scope)
    tgt = s.value
    if isinstance(tgt, ast.Attr):
        c.set_fields.add(tgt.field)
        c._check_field_value(tgt.field, s.target, s.target.span)
        if static_kind(tgt.obj, scope.locals) == "game":
            code.add(_set_game_field(tgt.field, value), span)
            return scope
        obj = c.expr(tgt.obj, scope)
        code.add(_set_field(obj, tgt.field, value), span)
    elif isinstance(tgt, ast.Name):
        if tgt.name == "start_player":
            code.add(_set_start_player(value), span)
        elif tgt.name in c.resources:
            per = c.resources[tgt.name].per_player
            code.add(_set_resource(tgt.name, per, value), span)
        elif tgt.name in scope.locals:
            code.add_op(SetLocal(tgt.name, value), span)
        else:
            c._unknown(
                tgt.name,
                tgt.span,
                [*c.resources, *scope.locals, "start_player"],
                "resource or variable",
            )
    else:
        c.error("RC204", "'set' changes a field or a resource: set card.field to value", span)
    return scope


def compile_let(c: Compiler, s: ast.Let, code: _Code, scope: Scope) -> Scope:
    """``let NAME = V``: a local for the rest of the block."""
    span = s.span
    value = c.expr(s.value, scope)
    code.add_op(SetLocal(s.name, value), span)
    return scope.child(s.name)


def compile_end(c: Compiler, s: ast.End, code: _Code, scope: Scope) -> Scope:
    """``end turn|phase|stage|round|game|activation``."""
    span = s.span
    if s.name not in ENDS:
        c._unknown(str(s.name), span, ENDS, "thing to end")
        return scope
    code.add(_end(str(s.name)), span)
    return scope


def compile_emit(c: Compiler, s: ast.Emit, code: _Code, scope: Scope) -> Scope:
    """``emit EVENT(args)``: checked against the declared parameters (RC255);
    replaceable when a ``before`` trigger listens."""
    span = s.span
    c.events_emitted.add(s.name)
    declared = c.events_declared.get(s.name)
    if declared is not None and len(declared) != len(s.args):
        c.error(
            "RC255",
            f"the event {s.name!r} carries {len(declared)} argument(s) "
            f"({', '.join(declared)}), not {len(s.args)}",
            span,
            f"emit {s.name}({', '.join(declared)})",
        )
    args = [c.expr(a, scope) for a in s.args]
    if s.name in c.before_events:
        # before-triggers may replace the event: they run, then it happens (or not)
        code.add(_emit_before(s.name, args), span)
        code.add(_emit_after_before(s.name), span)
    else:
        code.add(_emit(s.name, args), span)
    return scope


def compile_prevent(c: Compiler, s: ast.Prevent, code: _Code, scope: Scope) -> Scope:
    """``prevent [N]`` inside a ``before`` trigger."""
    span = s.span
    prevented = c.expr(s.value, scope) if s.value else None
    code.add(_prevent(prevented), span)
    return scope


def compile_flip(c: Compiler, s: ast.Flip, code: _Code, scope: Scope) -> Scope:
    """``flip X [to SIDE]``."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: [])
    side_name: str | None = None
    if s.target is not None:
        if isinstance(s.target, ast.Name):
            side_name = s.target.name
            if side_name not in c.symbols:
                c._unknown(side_name, s.target.span, c.symbols, "side")
        else:
            c.error("RC204", "flip ... to SIDE names a side", s.target.span)
    code.add(_flip(what, side_name), span)
    return scope


def compile_exhaust(c: Compiler, s: ast.Exhaust | ast.Ready, code: _Code, scope: Scope) -> Scope:
    """``exhaust X`` / ``ready X``."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: [])
    code.add(_exhaust(what, isinstance(s, ast.Exhaust)), span)
    return scope


def compile_say(c: Compiler, s: ast.Say, code: _Code, scope: Scope) -> Scope:
    """``say TEXT``."""
    span = s.span
    what = c.expr(s.value, scope) if s.value else (lambda ctx: "")
    code.add(_say(what), span)
    return scope


def compile_game_over(
    c: Compiler, s: ast.Win | ast.LoseGame | ast.Tie, code: _Code, scope: Scope
) -> Scope:
    """``win``, ``lose``, ``tie`` [for P]."""
    span = s.span
    target = None if isinstance(s, ast.Tie) else s.target
    who = c.expr(target, scope) if target else None
    code.add(_game_over(s.verb, who), span)
    return scope


def compile_call(c: Compiler, s: ast.ExprStmt, code: _Code, scope: Scope) -> Scope:
    """an effect called as a statement (``deal_hand()``, ``card.on_play``)."""
    return c.call_stmt(s, code, scope)


#: Every type of simple statement and the function that compiles it.
STATEMENTS: dict[type[ast.SimpleStmt], StatementCompiler] = {
    **dict.fromkeys(
        (ast.Gain, ast.Lose, ast.Spend, ast.Suffer, ast.Heal, ast.Deal), compile_resource
    ),
    ast.Draw: compile_draw,
    ast.Discard: compile_discard,
    ast.Move: compile_move,
    ast.Shuffle: compile_shuffle,
    ast.Reveal: compile_reveal,
    ast.Look: compile_reveal,
    ast.Roll: compile_roll,
    ast.Reroll: compile_reroll,
    ast.Goto: compile_goto,
    ast.Return: compile_return,
    ast.SetFlag: compile_flag,
    ast.ClearFlag: compile_flag,
    ast.SetValue: compile_set,
    ast.Let: compile_let,
    ast.End: compile_end,
    ast.Emit: compile_emit,
    ast.Prevent: compile_prevent,
    ast.Flip: compile_flip,
    ast.Exhaust: compile_exhaust,
    ast.Ready: compile_exhaust,
    ast.Say: compile_say,
    **dict.fromkeys((ast.Win, ast.LoseGame, ast.Tie), compile_game_over),
    ast.ExprStmt: compile_call,
}
