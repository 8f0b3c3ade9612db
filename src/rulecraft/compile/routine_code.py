"""Statements compiled to Python source: each routine one generated function (issue 11).

A routine (an action's body, an effect, a trigger's body, a phase, the setup, the main
flow) is a flat list of instructions addressed by ``pc``, so that where a half-resolved
effect stands is plain data in the state (the frame ``[routine, pc, locals]``).  The
statement compiler records, with each instruction, what it is (:data:`Op`): a jump, a
conditional jump, a local set, a step of a ``for``/``repeat`` loop, or a verb (``move``,
``draw``, ``choose``, ...).  :func:`routine_source` writes the whole routine as the source of
*one* Python function that starts at the frame's ``pc`` and runs on until the routine ends,
somebody must decide, or another frame takes over (a call, a trigger)::

    def _generated(ctx, budget):
        loc = ctx.loc
        frame: list[Any] = ctx.frame
        ...
        while True:
            if pc == 1:  # rules.rcl:7:8
                frame[1] = 2
                steps += 1
                if not _e1(ctx):
                    pc = frame[1] = 4
                else:
                    pc = 2
            if pc == 2:  # rules.rcl:8:9
                ...

Jumps, conditions, locals and loops are Python; an expression is the function the
expression compiler made of it (its own generated code where :mod:`codegen` wrote some); a
verb calls the instruction the statement compiler made (:mod:`rulecraft.runtime.instructions`),
then returns to the engine if that instruction asked somebody something, ended the game or
started another frame.  A backward jump counts against the engine's step ``budget`` (an
endless ``while`` is an error located at it, not a hang).

The function does what :func:`rulecraft.runtime.engine.interpret` does with the same
instructions one at a time (a routine with no generated function runs that way), so the
same seed and choices give the same game: ``tests/engine/test_record_hashes.py`` and
``tests/engine/test_routine_code.py`` hold both to it.  ``rulecraft compile RULESET --show
NAME`` prints the function.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from rulecraft.compile import codegen
from rulecraft.diagnostics import Span
from rulecraft.runtime import engine as E
from rulecraft.runtime import instructions as I
from rulecraft.runtime.program import ExprFn, Instr, Routine, RoutineFn

if TYPE_CHECKING:
    from rulecraft.compile.scope import _Code


@dataclass(frozen=True, slots=True)
class Jump:
    """Go on at ``target[0]`` (filled in once the target is compiled)."""

    target: list[int]

    def instruction(self) -> Instr:
        return I._jump(self.target)


@dataclass(frozen=True, slots=True)
class JumpUnless:
    """Go on at ``target[0]`` unless ``cond`` holds."""

    cond: ExprFn
    target: list[int]

    def instruction(self) -> Instr:
        return I._jump_unless(self.cond, self.target)


@dataclass(frozen=True, slots=True)
class SetLocal:
    """``let NAME = VALUE`` (also a ``repeat``'s counter)."""

    name: str
    value: ExprFn

    def instruction(self) -> Instr:
        return I._set_local(self.name, self.value)


@dataclass(frozen=True, slots=True)
class ForInit:
    """A ``for``'s collection listed once, its position at 0."""

    collection: ExprFn
    items: str
    index: str

    def instruction(self) -> Instr:
        return I._for_init(self.collection, self.items, self.index)


@dataclass(frozen=True, slots=True)
class ForNext:
    """A ``for``'s next value into ``var``, or on at ``exit[0]`` when none is left."""

    items: str
    index: str
    var: str
    exit: list[int]

    def instruction(self) -> Instr:
        return I._for_next(self.items, self.index, self.var, self.exit)


@dataclass(frozen=True, slots=True)
class Countdown:
    """A ``repeat``'s counter counted down, or on at ``exit[0]`` at 0."""

    counter: str
    exit: list[int]

    def instruction(self) -> Instr:
        return I._countdown(self.counter, self.exit)


#: What an instruction is, where the generator writes it as Python (``None``: a verb, whose
#: instruction the generated code calls).
Op = Jump | JumpUnless | SetLocal | ForInit | ForNext | Countdown

#: How every generated routine begins (:func:`rulecraft.compile.aot.typed` types it).
HEADER = "def _generated(ctx, budget):\n    loc = ctx.loc\n"
_PROLOGUE = (
    "    frame: list[Any] = ctx.frame\n"
    "    stack: list[Any] = ctx.st['stack']\n"
    "    pc: int = frame[1]\n"
    "    steps: int = 0\n"
    "    stops: int = 0\n"
    "    while True:\n"
)
_IND = " " * 12  # a block's body: in the function, in the loop, in its ``if pc == N``
#: How a generated expression's source begins (:func:`codegen.plan`), and its last line.
_EXPRESSION_HEAD = ["def _generated(ctx):", "    loc = ctx.loc"]
_RETURN = "    return "


def _enclosed(code: str) -> bool:
    """Whether ``code`` is one parenthesised whole (``(a) + (b)`` is not).

    >>> _enclosed("(not (x != 0))"), _enclosed("(a) + (b)"), _enclosed("('(' + a)")
    (True, False, True)
    """
    if not code.startswith("("):
        return False
    depth = 0
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.OP and tok.string in "()":
            depth += 1 if tok.string == "(" else -1
            if depth == 0:
                return tok.end[1] == len(code)
    return False


def renamed(source: str, renaming: dict[str, str]) -> str:
    """``source`` with the Python names in ``renaming`` replaced (never inside a text).

    >>> renamed("_k0.get('_k0') + _f1(ctx)", {"_k0": "_k0_4"})
    "_k0_4.get('_k0') + _f1(ctx)"
    """
    out: list[str] = []
    last = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in renaming:
            start, end = tok.start[1], tok.end[1]  # (one line: columns are offsets)
            out += [source[last:start], renaming[tok.string]]
            last = end
    return "".join(out) + source[last:]


class _Writer:
    """The source of one routine, with the values its names stand for."""

    def __init__(self, code: Sequence[Instr]) -> None:
        self.code = code
        self.consts: dict[str, Any] = {}
        self.lines: list[str] = []

    def value(self, fn: ExprFn, pc: int) -> str:
        """An expression's value: its generated source in place, the lines that read what
        it reads once (``_you = loc.get('you')``) written first; else a call of its
        function.  Its names get the instruction's number (``_k0`` -> ``_k0_4``)."""
        found = codegen.plan_of(fn)
        lines = found[0].source.splitlines() if found is not None else []
        if found is None or lines[:2] != _EXPRESSION_HEAD or not lines[-1].startswith(_RETURN):
            name = f"_e{pc}"
            self.consts[name] = fn
            return f"{name}(ctx)"
        values = found[1]
        renaming = {name: f"{name}_{pc}" for name in values}
        self.consts.update((renaming[name], value) for name, value in values.items())
        self.emit(*(renamed(line.strip(), renaming) for line in lines[2:-1]))
        code = renamed(lines[-1][len(_RETURN) :], renaming)
        return code if _enclosed(code) else f"({code})"

    def emit(self, *lines: str) -> None:
        self.lines.extend(_IND + line for line in lines)

    def go(self, pc: int, target: int) -> None:
        """Go on at ``target`` after the instruction at ``pc``: forward, the blocks between
        are skipped by their ``if pc == N``; backward, through the loop's top, counted
        against the budget."""
        if target > pc:
            self.emit(f"pc = frame[1] = {target}")
            return
        self.emit("if steps > budget:", f"    _endless(ctx, {pc})")
        self.emit(f"pc = frame[1] = {target}", "continue")


def routine_source(
    code: Sequence[Instr], ops: Sequence[Op | None], spans: Sequence[Span]
) -> codegen.Plan:
    """A routine's generated function: its source and the values it refers to."""
    w = _Writer(code)
    for pc, (op, span) in enumerate(zip(ops, spans, strict=True)):
        w.lines.append(f"        if pc == {pc}:  # {_place(span)}")
        w.emit(f"frame[1] = {pc + 1}", "steps += 1")
        _WRITERS[type(op)](w, pc, op)
    # Past the last instruction (every block goes on to the next, jumps forward at most
    # to the end, or goes back through ``continue``): the routine is done.
    w.lines += ["        stack.pop()", "        return steps"]
    source = HEADER + _PROLOGUE + "\n".join(w.lines) + "\n"
    return codegen.Plan(source, w.consts)


def _place(span: Span) -> str:
    """``rules.rcl:7:8``: the file's name only (the source is the same on every machine, so
    :mod:`rulecraft.compile.aot` finds it)."""
    return f"{PurePath(span.file).name}:{span.line}:{span.column}"


def instruction_name(instr: Instr) -> str:
    """An instruction's name: its function's (``_call_routine`` makes ``call``).  An
    instruction compiled by mypyc (``make compiled``) is an object of class
    ``call__call_routine_obj``: the name is the same, and so is a generated routine's
    source (:mod:`rulecraft.compile.aot` finds its compiled copy by it)."""
    qualname = getattr(instr, "__qualname__", None)
    if qualname is not None:
        return str(qualname).rsplit(".", 1)[-1].lstrip("_")
    return type(instr).__name__.split("__")[0].lstrip("_")


def _verb(w: _Writer, pc: int, op: None) -> None:
    name = f"_{instruction_name(w.code[pc])}{pc}"
    w.consts[name] = w.code[pc]
    w.emit(
        "stops = ctx.stops",
        f"{name}(ctx)",
        "if ctx.stops != stops or not stack or stack[-1] is not frame:",
        "    return steps",
        "pc = frame[1]",
        f"if pc <= {pc}:  # (it went back)",
        "    if steps > budget:",
        f"        _endless(ctx, {pc})",
        "    continue",
    )


def _jump(w: _Writer, pc: int, op: Jump) -> None:
    w.go(pc, op.target[0])


def _jump_unless(w: _Writer, pc: int, op: JumpUnless) -> None:
    w.emit(f"if not {w.value(op.cond, pc)}:")
    _indented(w, lambda: w.go(pc, op.target[0]))
    w.emit("else:", f"    pc = {pc + 1}")


def _set_local(w: _Writer, pc: int, op: SetLocal) -> None:
    w.emit(f"loc[{op.name!r}] = {w.value(op.value, pc)}", f"pc = {pc + 1}")


def _for_init(w: _Writer, pc: int, op: ForInit) -> None:
    collection = w.value(op.collection, pc)
    w.emit(f"loc[{op.items!r}] = list(as_list(ctx, {collection}))", f"loc[{op.index!r}] = 0")
    w.emit(f"pc = {pc + 1}")


def _for_next(w: _Writer, pc: int, op: ForNext) -> None:
    w.emit(f"_n = loc[{op.index!r}]", f"_s = loc[{op.items!r}]", "if _n >= len(_s):")
    w.emit(f"    del loc[{op.items!r}], loc[{op.index!r}]")
    _indented(w, lambda: w.go(pc, op.exit[0]))
    w.emit("else:", f"    loc[{op.var!r}] = _s[_n]", f"    loc[{op.index!r}] = _n + 1")
    w.emit(f"    pc = {pc + 1}")


def _countdown(w: _Writer, pc: int, op: Countdown) -> None:
    w.emit(f"_n = _amount(loc.get({op.counter!r}, 0), 'repeat')", "if _n <= 0:")
    _indented(w, lambda: w.go(pc, op.exit[0]))
    w.emit("else:", f"    loc[{op.counter!r}] = _n - 1", f"    pc = {pc + 1}")


def _indented(w: _Writer, write: Callable[[], None]) -> None:
    start = len(w.lines)
    write()
    w.lines[start:] = ["    " + line for line in w.lines[start:]]


_WRITERS: dict[type, Callable[[_Writer, int, Any], None]] = {
    type(None): _verb,
    Jump: _jump,
    JumpUnless: _jump_unless,
    SetLocal: _set_local,
    ForInit: _for_init,
    ForNext: _for_next,
    Countdown: _countdown,
}


def compiled_routine(code: _Code, params: tuple[str, ...] = ()) -> Routine:
    """The routine ``code`` holds, with its generated function."""
    from rulecraft.compile import aot  # (aot imports this module)

    plan = routine_source(code.code, code.ops, code.spans)
    if E.COMPILED and aot.factory_for(plan.source) is None and codegen.RECORDING is None:
        # The compiled runtime's interpreter (C) runs the instructions faster than this
        # source would run exec'd (Python): only a compiled copy of it pays there.
        return Routine(code.name, tuple(code.code), tuple(code.spans), params, None, plan.source)
    run: RoutineFn = codegen.build_plan(plan)  # type: ignore[assignment]
    return Routine(code.name, tuple(code.code), tuple(code.spans), params, run, plan.source)


__all__ = [
    "HEADER",
    "Countdown",
    "ForInit",
    "ForNext",
    "Jump",
    "JumpUnless",
    "Op",
    "SetLocal",
    "compiled_routine",
    "instruction_name",
    "routine_source",
]
