"""Spelling suggestions for unknown names ("did you mean ...?").

Used for unknown manifest keys and, by the semantic checker, for unknown names in rules.

>>> did_you_mean("cots", ["cost", "name", "text"])
'cost'
>>> did_you_mean("maxPlayers", ["max_players", "min_players"])
'max_players'
>>> did_you_mean("zzz", ["cost", "name"]) is None
True
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# difflib's default: below about 0.6 similarity, suggestions are mostly noise.
DEFAULT_CUTOFF = 0.6


def _normalise(name: str) -> str:
    # Case and word separators are the commonest slips (maxPlayers / max_players / max-players).
    return name.casefold().replace("_", "").replace("-", "").replace(" ", "")


def did_you_mean(
    name: str, candidates: Iterable[str], *, cutoff: float = DEFAULT_CUTOFF
) -> str | None:
    """Return the candidate closest to ``name``, or None when nothing is close enough.

    Matching ignores case and the separators ``_``, ``-`` and space; a candidate equal to
    ``name`` itself is never suggested, and neither is anything when the two best
    candidates are equally close.
    """
    by_normal: dict[str, str] = {}
    for candidate in candidates:
        if candidate != name:
            by_normal.setdefault(_normalise(candidate), candidate)
    if not by_normal:
        return None
    wanted = _normalise(name)
    if wanted in by_normal:
        return by_normal[wanted]
    scored = []
    for normal, candidate in by_normal.items():
        matcher = difflib.SequenceMatcher(None, wanted, normal)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            score = matcher.ratio()
            if score >= cutoff:
                scored.append((score, candidate))
    if not scored:
        return None
    scored.sort(key=lambda item: item[0], reverse=True)
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None  # a tie (players: max_players or min_players?) is a guess, not a hint
    return scored[0][1]
