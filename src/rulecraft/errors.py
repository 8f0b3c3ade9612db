"""Every error rulecraft raises on purpose, in one place (exported from :mod:`rulecraft`).

- :class:`RulesetError`: a ruleset that does not validate; it carries every diagnostic.
- :class:`RuleError`: a rule that did something impossible while a game ran; it carries a
  stable ``RC3xx`` code and the ``.rcl`` place of the rule that was running, and renders
  as a diagnostic does.
- :class:`IllegalChoice`: an option id the pending decision does not offer; it carries the
  id and the legal ids (what a caller needs to show a menu again).

>>> from rulecraft.diagnostics import Span
>>> err = RuleError("board of Player 1 is full", ZONE_FULL, Span("rules.rcl", 12, 5))
>>> str(err)
'rules.rcl:12:5: board of Player 1 is full (RC301)'
>>> print(err.diagnostic())
rules.rcl:12:5: error RC301: board of Player 1 is full
>>> IllegalChoice("'x' is not one of the options", "x", ("pass",)).legal
('pass',)
"""

from __future__ import annotations

from collections.abc import Sequence

from rulecraft.diagnostics import Diagnostic, Severity, Span

# Runtime error codes (docs/errors.md, "RC3xx: runtime errors"). A RuleError carries one.
RUNTIME = "RC300"  # any other impossible thing (a wrong value, a missing field)
ZONE_FULL = "RC301"
NO_ENTRY = "RC302"
NEGATIVE_AMOUNT = "RC303"
TOO_LARGE = "RC304"
TOO_DEEP = "RC305"
ENDLESS_LOOP = "RC306"
DUPLICATE_OPTION = "RC307"

#: Where a runtime error is reported when no rule was running (the API's own checks).
NOWHERE = Span("<game>", 1, 1)


class RulesetError(Exception):
    """A ruleset that does not validate; ``diagnostics`` says why."""

    def __init__(self, name: str, diagnostics: list[Diagnostic]) -> None:
        errors = [d for d in diagnostics if d.severity == Severity.ERROR]
        shown = "\n".join(str(d) for d in errors[:10])
        more = f"\n... and {len(errors) - 10} more" if len(errors) > 10 else ""
        super().__init__(f"ruleset {name!r} has {len(errors)} error(s):\n{shown}{more}")
        self.diagnostics = diagnostics


class RuleError(RuntimeError):
    """A ruleset did something impossible at run time, with a code and where it happened.

    ``reason`` says what went wrong, ``code`` is a stable ``RC3xx`` code (docs/errors.md),
    ``span`` the ``.rcl`` place of the rule that was running (set by the engine when the
    error rises from an instruction); ``str()`` gives ``file:line:col: reason (code)``."""

    def __init__(self, reason: str, code: str = RUNTIME, span: Span | None = None) -> None:
        self.reason = reason
        self.code = code
        self.span = span
        super().__init__(self._text())

    def _text(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        return f"{where}{self.reason} ({self.code})"

    def locate(self, span: Span | None) -> RuleError:
        """Give the error the place of the running rule, unless it already has one."""
        if self.span is None and span is not None:
            self.span = span
            self.args = (self._text(),)
        return self

    def diagnostic(self) -> Diagnostic:
        """The error as a diagnostic (what ``rulecraft validate`` and the editor show)."""
        return Diagnostic(self.code, self.reason, self.span or NOWHERE)


class IllegalChoice(ValueError):
    """An option id that the pending decision does not offer.

    ``option`` is the id given, ``legal`` the ids that were legal (empty when no decision
    was pending).  The message names only the id given, so choosing an id some seat may not
    see fails exactly as a made-up id does."""

    def __init__(self, message: str, option: str | None = None, legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.option = option
        self.legal = tuple(legal)
