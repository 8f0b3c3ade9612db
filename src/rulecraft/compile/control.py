"""The compound statements (``if``, ``for each``, ``repeat``, ``while``, ``choose``,
``choose one of``, ``test``), each compiled by its own function found by the statement's
type (:data:`CONTROL`); a simple statement (an ``ast.SimpleStmt``) goes to the function
:data:`rulecraft.compile.statements.STATEMENTS` registers for its type.  Also the
statement that runs an effect (an expression on its own line, ``ast.ExprStmt``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.compile.routine_code import Countdown, ForInit, ForNext, Jump, JumpUnless, SetLocal
from rulecraft.compile.scope import Scope, _Code
from rulecraft.diagnostics import Span
from rulecraft.language import ast
from rulecraft.runtime.builtins import BUILTINS
from rulecraft.runtime.instructions import (
    _call_effect,
    _choose,
    _options,
    _run_attribute,
    _test,
)
from rulecraft.runtime.program import ExprFn

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

#: Compiles one statement into the routine under construction; gives the scope after it.
StatementCompiler = Callable[["Compiler", Any, _Code, Scope], Scope]


def compile_statement(c: Compiler, s: ast.Stmt, code: _Code, scope: Scope) -> Scope:
    """``s`` by the function registered for its type (RC204 for none)."""
    compile_one = CONTROL.get(type(s))
    if compile_one is None:
        c.error("RC204", "unsupported statement", s.span)
        return scope
    return compile_one(c, s, code, scope)


def _simple(c: Compiler, s: ast.SimpleStmt, code: _Code, scope: Scope) -> Scope:
    """A simple statement: the function of :mod:`statements` registered for its type."""
    from rulecraft.compile.statements import STATEMENTS  # statements imports the compiler

    compile_one = STATEMENTS.get(type(s))
    if compile_one is None:
        c.error("RC204", f"unsupported statement {s.verb!r}", s.span)
        return scope
    return compile_one(c, s, code, scope)


def _if(c: Compiler, s: ast.If, code: _Code, scope: Scope) -> Scope:
    """Each branch jumps past itself when its condition fails, and to the end after it."""
    ends: list[list[int]] = []
    for cond_ast, body in s.branches:
        cond = c.expr(cond_ast, scope)
        target = [0]
        # the condition's own place: an ``elif`` that fails at run time names its line
        code.add_op(JumpUnless(cond, target), cond_ast.span)
        c.block(body, code, scope)
        end = [0]
        ends.append(end)
        code.add_op(Jump(end), cond_ast.span)
        target[0] = code.here
    if s.otherwise is not None:
        c.block(s.otherwise, code, scope)
    for end in ends:
        end[0] = code.here
    return scope


def _for_each(c: Compiler, s: ast.ForEach, code: _Code, scope: Scope) -> Scope:
    """``for each VAR in COLLECTION:``: the collection listed once, then one pass a value."""
    coll = c.expr(s.collection, scope)
    items, idx, var = c.fresh("items"), c.fresh("i"), s.var
    code.add_op(ForInit(coll, items, idx), s.span)
    exit_target = [0]
    top = code.add_op(ForNext(items, idx, var, exit_target), s.span)
    c.block(s.body, code, scope.child(var))
    code.add_op(Jump([top]), s.span)
    exit_target[0] = code.here
    return scope


def _repeat(c: Compiler, s: ast.Repeat, code: _Code, scope: Scope) -> Scope:
    """``repeat N:``: a counter counted down to 0."""
    count = c.expr(s.count, scope)
    counter = c.fresh("n")
    code.add_op(SetLocal(counter, count), s.span)
    exit_target = [0]
    top = code.add_op(Countdown(counter, exit_target), s.span)
    c.block(s.body, code, scope)
    code.add_op(Jump([top]), s.span)
    exit_target[0] = code.here
    return scope


def _while(c: Compiler, s: ast.While, code: _Code, scope: Scope) -> Scope:
    """``while CONDITION:``: the condition tested before each pass."""
    exit_target = [0]
    cond = c.expr(s.condition, scope)
    top = code.add_op(JumpUnless(cond, exit_target), s.span)
    c.block(s.body, code, scope)
    code.add_op(Jump([top]), s.span)
    exit_target[0] = code.here
    return scope


def chooser_fn(
    c: Compiler, chooser: ast.Expr | None, scope: Scope
) -> tuple[ExprFn | None, str | None]:
    """Who chooses: a function giving the player, or the name of a policy (``policies:``)."""
    if chooser is None:
        return None, None
    if isinstance(chooser, ast.Name) and chooser.name in c.policies:
        return None, chooser.name
    return c.expr(chooser, scope), None


def _choose_stmt(c: Compiler, s: ast.Choose, code: _Code, scope: Scope) -> Scope:
    """``choose [N|up to N] VAR from COLLECTION:``: the body runs with the choice bound."""
    c.scope_now = scope.child(s.var)
    coll = c.expr(s.collection, scope)
    count = c.expr(s.count, scope) if s.count is not None else None
    who, policy = chooser_fn(c, s.chooser, scope)
    prompt = c.text_value(s.prompt, None, s.span) if s.prompt else {"": f"Choose {s.var}"}
    skip = [0]
    code.add(
        _choose(coll, count, s.up_to, who, policy, prompt, s.var, c.fresh("sel"), skip),
        s.span,
    )
    c.block(s.body, code, scope.child(s.var))
    skip[0] = code.here
    return scope


def _choose_option(c: Compiler, s: ast.ChooseOption, code: _Code, scope: Scope) -> Scope:
    """``choose one:`` with labelled options (:func:`options`)."""
    options(
        c,
        s.chooser,
        s.prompt,
        [(o.label, o.condition, o.body, o.span) for o in s.options],
        code,
        scope,
        s.span,
    )
    return scope


def options(
    c: Compiler,
    chooser: ast.Expr | None,
    prompt: ast.Text | None,
    opts: list[tuple[ast.Text, ast.Expr | None, tuple[ast.Stmt, ...], Span]],
    code: _Code,
    scope: Scope,
    span: Span,
) -> None:
    """One decision among labelled options (each with an optional condition); the body of
    the one chosen runs, then the routine goes on after the last."""
    who, policy = chooser_fn(c, chooser, scope)
    c.scope_now = scope
    conds = [c.expr(cond, scope) if cond is not None else None for _, cond, _, _ in opts]
    labels = [c.text_value(t, None, span) for t, _, _, _ in opts]
    starts: list[int] = [0] * len(opts)
    end = [0]
    code.add(
        _options(
            labels,
            conds,
            who,
            policy,
            c.text_value(prompt, None, span) if prompt else {"": "Choose"},
            starts,
            end,
        ),
        span,
    )
    for i, (_, _, body, ospan) in enumerate(opts):
        starts[i] = code.here
        c.block(body, code, scope)
        code.add_op(Jump(end), ospan)
    end[0] = code.here


def _passed(ctx: Any) -> Any:
    """Whether the last ``test`` passed (its instruction set the local)."""
    return ctx.loc.get("passed")


def _test_stmt(c: Compiler, s: ast.Test, code: _Code, scope: Scope) -> Scope:
    """``test SKILL against TARGET``: the dice the ``tests:`` section gives, then the pass
    or the fail branch."""
    target = c.expr(s.target, scope)
    extra = c.expr(s.extra, scope) if s.extra is not None else None
    skill = s.skill
    c.symbols.add(skill)
    if "pool" not in (c.m.get("tests") or {}):
        c.error(
            "RC208",
            "'test' needs a tests: section in ruleset.yaml that says how a skill becomes dice",
            s.span,
        )
    fail = [0]
    code.add(_test(skill, target, extra, s.name), s.span)
    passed: ExprFn = _passed
    code.add_op(JumpUnless(passed, fail), s.span)
    branches = scope.child(s.name) if s.name is not None else scope
    c.block(s.on_pass, code, branches)
    end = [0]
    code.add_op(Jump(end), s.span)
    fail[0] = code.here
    c.block(s.on_fail, code, branches)
    end[0] = code.here
    return scope


#: The function that compiles each type of statement.
CONTROL: dict[type, StatementCompiler] = {
    **dict.fromkeys(ast.SIMPLE_STATEMENTS, _simple),
    ast.If: _if,
    ast.ForEach: _for_each,
    ast.Repeat: _repeat,
    ast.While: _while,
    ast.Choose: _choose_stmt,
    ast.ChooseOption: _choose_option,
    ast.Test: _test_stmt,
}


# ---------------------------------------------------------------------------- call
def call_statement(c: Compiler, s: ast.ExprStmt, code: _Code, scope: Scope) -> Scope:
    """An effect run as a statement: ``name``, ``name(args)`` or a component's effect
    attribute (``card.junk``); anything else on its own line is a mistake said so."""
    e = s.value
    if isinstance(e, ast.Name) and e.name in c.effects:
        c.used_names.add(e.name)
        eff = c.effects[e.name]
        if eff.params:
            c.error("RC206", f"effect {e.name!r} takes {len(eff.params)} argument(s)", e.span)
        code.add(_call_effect(e.name, [], ()), s.span)
        return scope
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.name in c.effects:
        return _call_effect_with_arguments(c, s, e, e.func.name, code, scope)
    if isinstance(e, ast.Attr):
        # card.junk: run an effect-valued attribute of a component
        obj = c.expr(e.obj, scope)
        code.add(_run_attribute(obj, e.field), s.span)
        return scope
    if isinstance(e, ast.Name) and e.name not in scope.locals and e.name not in c.defines:
        c._unknown(e.name, e.span, list(c.effects), "effect", "define it with: effect NAME:")
        return scope
    if (
        isinstance(e, ast.Call)
        and isinstance(e.func, ast.Name)
        and e.func.name not in c.defines
        and e.func.name not in BUILTINS
    ):
        c._unknown(e.func.name, e.func.span, list(c.effects), "effect")
        return scope
    if e is not None:
        c.error(
            "RC207",
            "a value on its own does nothing",
            e.span,
            "did you mean to use it in an effect such as 'gain' or 'move'?",
        )
    return scope


def _call_effect_with_arguments(
    c: Compiler, s: ast.ExprStmt, e: ast.Call, n: str, code: _Code, scope: Scope
) -> Scope:
    c.used_names.add(n)
    eff = c.effects[n]
    if len(eff.params) != len(e.args):
        c.error(
            "RC206",
            f"effect {n!r} takes {len(eff.params)} argument(s), not {len(e.args)}",
            e.span,
        )
        return scope
    args = [c.expr(a, scope) for a in e.args]
    code.add(_call_effect(n, args, eff.params), s.span)
    return scope
