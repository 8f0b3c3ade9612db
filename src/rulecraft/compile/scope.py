"""What every part of the compiler shares while it compiles one body: the names in scope
(:class:`Scope`) and the routine under construction (:class:`_Code`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulecraft.diagnostics import Span
from rulecraft.runtime.program import Instr

if TYPE_CHECKING:
    from rulecraft.compile.routine_code import Op


@dataclass
class Scope:
    """Names bound where an expression is compiled."""

    locals: set[str] = field(default_factory=set)
    has_this: bool = False
    in_entry: bool = False

    def child(self, *names: str) -> Scope:
        return Scope(self.locals | set(names), self.has_this, self.in_entry)


@dataclass
class _Code:
    """A routine under construction: its instructions, each with the span it came from
    and what it is where the routine's generated function writes it as Python
    (:mod:`rulecraft.compile.routine_code`; ``None``: a verb the function calls)."""

    name: str
    code: list[Instr] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    ops: list[Op | None] = field(default_factory=list)

    def add(self, instr: Instr, span: Span, op: Op | None = None) -> int:
        self.code.append(instr)
        self.spans.append(span)
        self.ops.append(op)
        return len(self.code) - 1

    def add_op(self, op: Op, span: Span) -> int:
        """An instruction the generated function writes as Python (its closure still runs
        where the routine is run an instruction at a time)."""
        return self.add(op.instruction(), span, op)

    @property
    def here(self) -> int:
        return len(self.code)
