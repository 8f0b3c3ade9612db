"""Which option a typed word means: a number, an id, a label, the id's last part, or a
unique prefix of any of them.

People type what they see: ``b1`` for the option ``act:place:b1`` labelled
``Place a mark: b1``.  Exact matches win over prefixes, so a word that is the whole id
or label of one option never counts as the start of another.

>>> from rulecraft.runtime.decision import Decision, Option
>>> d = Decision(0, "Pick", (Option("act:place:a1", "Place a mark: a1"),
...                          Option("act:place:b1", "Place a mark: b1"), Option("pass", "Pass")))
>>> resolve("b1", d)
Match(option_id='act:place:b1', candidates=())
>>> resolve("place", d).candidates
('act:place:a1', 'act:place:b1')
>>> resolve("pa", d).option_id
'pass'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from rulecraft.runtime.decision import Decision, Option

#: Longer digit strings are never option numbers (and ``int()`` refuses 4,300+ digits).
MAX_NUMBER_DIGITS = 6


@dataclass(frozen=True, slots=True)
class Match:
    """What a word picked: one ``option_id``, or the ``candidates`` it is ambiguous between
    (neither when nothing fits)."""

    option_id: str | None
    candidates: tuple[str, ...] = ()


def fold(text: str) -> str:
    """A word compared without case, accents or surrounding blanks (``Wähle`` ~ ``wahle``).

    >>> fold("  Wähle ")
    'wahle'
    """
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def short_id(option_id: str) -> str:
    """The last ``:``-separated part of an id: what a label usually ends with.

    >>> short_id("act:place:b1")
    'b1'
    """
    return option_id.rsplit(":", 1)[-1]


def _names(option: Option) -> tuple[str, ...]:
    """The words that name an option exactly."""
    names = [option.id, option.label, short_id(option.id)]
    _, sep, tail = option.label.rpartition(": ")
    if sep:  # "Place a mark: b1" is also called "b1"
        names.append(tail)
    return tuple(fold(n) for n in names if n)


def _unique(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def resolve(word: str, decision: Decision) -> Match:
    """The option ``word`` names in ``decision`` (see the module's rules)."""
    wanted = fold(word)
    if not wanted:
        return Match(None)
    exact = _unique([o.id for o in decision.options if o.id == word.strip()])
    if not exact:
        exact = _unique([o.id for o in decision.options if wanted in _names(o)])
    if len(exact) == 1:
        return Match(exact[0])
    if exact:
        return Match(None, tuple(exact))
    starts = _unique(
        [o.id for o in decision.options if any(n.startswith(wanted) for n in _names(o))]
    )
    if len(starts) == 1:
        return Match(starts[0])
    return Match(None, tuple(starts))


def option_number(text: str, count: int) -> int | None:
    """``text`` as a 1-based option number if it is one in ``1..count``, else ``None``.

    Safe for any input: a digit string too long to be an option is refused before
    ``int()`` sees it.

    >>> option_number("2", 3), option_number("9" * 5000, 3), option_number("٣", 3)
    (2, None, None)
    """
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_NUMBER_DIGITS:
        return None
    number = int(text)
    return number if 1 <= number <= count else None
