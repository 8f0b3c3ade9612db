"""The closures that call a ``define``: kept in plain Python on purpose.

A definition may call itself (``define f(n) = n > 0 and f(n - 1)``), and one that never
reaches its stopping case must end in a located RC305, not a crash.  Python's recursion
limit is what stops it, and that limit counts Python frames only: code compiled with mypyc
(``make compiled``, the wheel) runs none.  So every call of a definition goes through one of
these functions, which this module keeps out of the compiled modules (the Makefile's
``MYPYC_MODULES``): each call is one Python frame, so an endless recursion raises
``RecursionError``, compiled or not (``tests/hostile``; compiled, it gets deeper first,
the other parts of each level running no frame).  A call costs one frame, as it did
before the rest was compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.runtime import engine as E
from rulecraft.runtime.program import ExprFn

if TYPE_CHECKING:
    from rulecraft.runtime.engine import Ctx


def with_arguments(
    define_fns: dict[str, ExprFn], name: str, params: list[str], args: list[ExprFn]
) -> ExprFn:
    """``name(args...)``: its parameters, ``you`` and ``this`` are the body's only locals."""

    def call_define(ctx: Ctx) -> Any:
        saved = ctx.loc
        # A definition sees its parameters, you and this: nothing else of the caller.
        local = {"you": saved.get("you"), "this": saved.get("this")}
        for p, a in zip(params, args, strict=True):
            local[p] = a(ctx)
        ctx.loc = local
        try:
            return define_fns[name](ctx)
        finally:
            ctx.loc = saved

    return call_define


def without_arguments(define_fns: dict[str, ExprFn], name: str) -> ExprFn:
    """A definition without parameters, named: its body on the caller's locals."""
    return lambda ctx: define_fns[name](ctx)


def over_items(
    define_fns: dict[str, ExprFn], name: str, param: str, items: ExprFn
) -> Callable[[Ctx], list[Any]]:
    """``map(items, name)``: the one-parameter definition applied to every item."""

    def mapped(ctx: Ctx) -> list[Any]:
        saved = ctx.loc
        out = []
        try:
            for x in E.as_list(ctx, items(ctx)):
                ctx.loc = {"you": saved.get("you"), "this": saved.get("this"), param: x}
                out.append(define_fns[name](ctx))
        finally:
            ctx.loc = saved
        return out

    return mapped
