"""Design rule 4, "Games are data": the engine's code names no game.  No file of ``src/``
mentions a bundled ruleset by its name or title (spaces and underscores alike), in code,
comments or docstrings (the before-stop check of the project looks for the same)."""

from __future__ import annotations

import re
from pathlib import Path

import rulecraft
from rulecraft.compile.load import bundled_names

SRC = Path(__file__).resolve().parents[2] / "src" / "rulecraft"

#: Bundled rulesets whose names are ordinary words the engine may use for itself, and the
#: two public-domain games the docstrings' runnable examples play.
ORDINARY_WORDS = {"dig", "tricks", "sparks", "bazaar", "tictactoe", "connect4"}


def _game_names() -> set[str]:
    names: set[str] = set()
    for name in bundled_names():
        if name in ORDINARY_WORDS:
            continue
        names.add(name.replace("_", " "))
        names.add(rulecraft.load(name).title().lower())
    return names


def test_no_source_file_names_a_bundled_game() -> None:
    pattern = re.compile(
        "|".join(re.escape(n).replace(r"\ ", r"[ _]?") for n in sorted(_game_names())),
        re.IGNORECASE,
    )
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []
