"""What every part of the compiler shares while it compiles one body: the names in scope
(:class:`Scope`) and the routine under construction (:class:`_Code`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulecraft.diagnostics import Span
from rulecraft.runtime.program import Instr


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
    """A routine under construction: its instructions, each with the span it came from."""

    name: str
    code: list[Instr] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)

    def add(self, instr: Instr, span: Span) -> int:
        self.code.append(instr)
        self.spans.append(span)
        return len(self.code) - 1

    @property
    def here(self) -> int:
        return len(self.code)
