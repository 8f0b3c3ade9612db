"""Finding and loading rulesets: a bundled name or a folder, checked and compiled into a
:class:`~rulecraft.runtime.game.Ruleset` (exported as ``rulecraft.load``).

>>> import rulecraft
>>> rules = rulecraft.load("tictactoe")
>>> rules.name, "tictactoe" in bundled_names()
('tictactoe', True)
>>> rules.new_game(seed=1).evaluate_expr("count(spaces)")
9
"""

from __future__ import annotations

import os
from pathlib import Path

from rulecraft.errors import RulesetError
from rulecraft.runtime.game import Ruleset
from rulecraft.runtime.program import ExprFn, Program

__all__ = ["bundled_names", "bundled_root", "compile_expression", "default_ruleset", "load"]


def bundled_root() -> Path:
    """Where the bundled rulesets live (inside the wheel, or the source checkout)."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rulesets"
    if packaged.is_dir():
        return packaged
    return here.parent.parent / "rulesets"


def default_ruleset() -> str:
    """The bundled default game: the name in ``rulesets/DEFAULT`` (the engine names no game)."""
    marker = bundled_root() / "DEFAULT"
    try:
        name = marker.read_text(encoding="utf-8").strip()
    except OSError:
        name = ""
    names = bundled_names()
    if name in names:
        return name
    return names[0] if names else name


def bundled_names() -> list[str]:
    """The bundled rulesets' names, sorted (each a folder of ``bundled_root()``)."""
    root = bundled_root()
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob("*/ruleset.yaml"))


def compile_expression(program: Program, text: str) -> ExprFn:
    """The text of one expression compiled against ``program``'s names (``you`` and ``this``
    bound), for scenario checks and the REPL.  Raises ``ValueError`` with the diagnostics when
    it does not compile."""
    from rulecraft.compile.names import expression_compiler
    from rulecraft.language.parser import parse_expression

    tree, problems = parse_expression(text, "<expression>")
    if tree is None or problems:
        raise ValueError("; ".join(str(d) for d in problems) or "not an expression")
    fn, diags = expression_compiler(program, tree)
    if fn is None:
        raise ValueError("; ".join(str(d) for d in diags))
    return fn


def load(name_or_path: str | os.PathLike[str]) -> Ruleset:
    """Load and compile a ruleset: a bundled name (``"tictactoe"``) or a folder path.

    Raises :class:`RulesetError` with every diagnostic when it does not validate.
    """
    from rulecraft.compile.pipeline import check_ruleset

    path = Path(name_or_path)
    if not (path / "ruleset.yaml").is_file():
        candidate = bundled_root() / str(name_or_path)
        if (candidate / "ruleset.yaml").is_file():
            path = candidate
        else:
            known = ", ".join(bundled_names()) or "none"
            raise FileNotFoundError(
                f"no ruleset {str(name_or_path)!r}: not a folder with a ruleset.yaml, "
                f"nor a bundled ruleset (bundled: {known})"
            )
    checked = check_ruleset(path)
    if checked.program is None:
        raise RulesetError(str(name_or_path), checked.diagnostics)
    return Ruleset(checked.program, checked.diagnostics, compile_expression)
