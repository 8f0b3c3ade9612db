"""Diagnostics: every problem rulecraft finds in a ruleset, located and coded.

A :class:`Diagnostic` is a plain record: where (a :class:`Span`), what (a stable ``code``
such as ``RC201`` documented in ``docs/errors.md``), how bad (:class:`Severity`), a
message and a hint.  Validators never raise on bad input; they return diagnostics.

>>> d = Diagnostic("RC101", "unexpected token", Span("cards.rcl", 3, 5), hint="close the block")
>>> str(d)
'cards.rcl:3:5: error RC101: unexpected token (hint: close the block)'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How bad a problem is: errors fail validation, warnings fail only with ``--strict``."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a source file: 1-based line and column, end inclusive of the last char."""

    file: str
    line: int = 1
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One located problem with a stable code and a hint."""

    code: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    hint: str | None = None

    def __str__(self) -> str:
        text = f"{self.span}: {self.severity} {self.code}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.file, self.span.line, self.span.column, self.code)


def has_errors(diagnostics: list[Diagnostic], *, strict: bool = False) -> bool:
    """True when any diagnostic fails validation (warnings count only when ``strict``)."""
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return any(d.severity in failing for d in diagnostics)
