"""What a seat may be told about another seat's choice, and what a typed line may hold.

A bot's option labels are written for the bot's seat, so they may name cards only that
seat can see.  :func:`secret_words` lists the names and ids the bot's view shows and the
viewer's does not; a label or prompt containing none of them tells the viewer nothing it
may not know.  When in doubt the REPL says less: a word shared by a hidden and a visible
card counts as visible only because the viewer already reads it on its own table.

>>> sorted(secret_words({"zones": [{"cards": [{"id": "k#1", "name": "King"}]}]},
...                     {"zones": [{"cards": [{"hidden": True}]}]}))
['King', 'k#1']
>>> clean_line("place\\tb1"), clean_line("\\x1b[31m abc"), clean_line("\\ud800")
('place b1', None, None)
>>> clean_line("\\ufeffhelp"), clean_line("he\\ufefflp")
('help', None)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

#: Lines longer than this are refused unread (nothing a person types is this long).
MAX_LINE = 10_000


def card_words(view: Mapping[str, Any]) -> set[str]:
    """The names and ids of every card (and map piece) ``view`` shows."""
    words: set[str] = set()
    for zone in view.get("zones") or []:
        for card in zone.get("cards") or []:
            if not card.get("hidden"):
                words.update(str(card.get(k, "")) for k in ("id", "name"))
    board = view.get("map") or {}
    for space in board.get("spaces") or []:
        for piece in space.get("pieces") or []:
            if piece.get("id") != "?":
                words.update(str(piece.get(k, "")) for k in ("id", "name"))
    words.discard("")
    return words


def secret_words(bot_view: Mapping[str, Any], viewer_view: Mapping[str, Any]) -> set[str]:
    """Card names and ids the bot's seat sees and the viewer's seat does not."""
    return card_words(bot_view) - card_words(viewer_view)


def tells_nothing_secret(text: str, secrets: set[str]) -> bool:
    """True if ``text`` names none of ``secrets``."""
    return not any(word in text for word in secrets)


def clean_line(line: str) -> str | None:
    """A typed line, stripped, with tabs as spaces; ``None`` if it holds control or format
    characters (escape sequences), lone surrogates or unassigned code points."""
    # A byte-order mark starts the first line of a script saved by some editors.
    text = line.replace("\t", " ").removeprefix("\ufeff").strip()
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            return None
    return text


def printable(text: str, limit: int = 80) -> str:
    """``text`` safe to echo: control characters escaped, cut to ``limit`` characters.

    >>> printable("a\\x1bb" + "x" * 100, 12)
    'a\\\\x1bbxxx...'
    """
    out = "".join(
        char if unicodedata.category(char)[0] != "C" else repr(char)[1:-1] for char in text
    )
    return out if len(out) <= limit else out[: limit - 3] + "..."
