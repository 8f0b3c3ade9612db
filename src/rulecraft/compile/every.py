"""``every(KIND)``: every component of a kind, wherever it is (asked for by two seed
rulesets' ENGINE_GAPS.md, "No collection of every component of a kind": they kept such
lists by hand in player fields).

A kind is named in expressions by its bare name already (``it.kind == goblin``), and a
component id stands for all its copies (``count(ember)``); ``every(goblin)`` is the union
over the kind's definitions: every copy of every component whose kind is ``goblin``, in the
order the components are defined (copies in order).  Where each one is is read as for any
component (``it.zone``, ``it.space``), so ``every(goblin) where it.zone == board`` is the
goblins on the board.

The argument is a kind's name, checked when the ruleset is compiled (RC227 with the closest
kind as a hint), or any expression whose value is a kind's name (a definition's parameter:
``define foes(k) = every(k) where ...``), checked when it runs (RC300).  A ruleset's own
``define every(...)`` takes precedence, as for the other built-ins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.errors import RuleError
from rulecraft.language import ast
from rulecraft.runtime import engine as E
from rulecraft.suggest import did_you_mean

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler, Scope

__all__ = ["EVERY", "UNKNOWN_KIND", "compile_every", "components_of_kind"]

ExprFn = Callable[[E.Ctx], Any]

#: The function's name; a ruleset's ``define every`` hides it.
EVERY = "every"
#: The diagnostic for a name that is no kind.
UNKNOWN_KIND = "RC227"


def components_of_kind(ctx: E.Ctx, kind: str) -> list[str]:
    """Every component of ``kind`` in the game, by definition order then copy order."""
    by_def = ctx.by_def
    return [
        cid
        for name, definition in ctx.prog.defs.items()
        if definition.kind == kind
        for cid in by_def.get(name, ())
    ]


def compile_every(compiler: Compiler, e: ast.Call, scope: Scope) -> ExprFn:
    """``every(KIND)`` as a function of the context (see the module text)."""
    if len(e.args) != 1:
        compiler.error(
            "RC206",
            f"every() takes 1 argument (a kind), not {len(e.args)}",
            e.span,
            "every(card) where it.zone == board",
        )
        return lambda ctx: []
    arg = e.args[0]
    if isinstance(arg, ast.Name) and arg.name not in scope.locals and arg.name != "it":
        kind = arg.name
        # the manifest's kinds: definitions are compiled before the kinds' specs are built
        declared = sorted(compiler.m.get("kinds") or {})
        if kind not in declared:
            guess = did_you_mean(kind, declared)
            compiler.error(
                UNKNOWN_KIND,
                f"every() needs a kind: {kind!r} is no kind the manifest declares",
                arg.span,
                f"did you mean {guess!r}?" if guess else "kinds are declared under kinds:",
            )
            return lambda ctx: []
        return lambda ctx: components_of_kind(ctx, kind)
    value = compiler.expr(arg, scope)

    def every_of_value(ctx: E.Ctx) -> list[str]:
        kind = value(ctx)
        if type(kind) is not str or kind not in ctx.prog.kinds:
            raise RuleError(f"every() needs a kind, not {E.public_text(ctx, kind)}")
        return components_of_kind(ctx, kind)

    return every_of_value
