"""Finding and loading rulesets: a bundled name or a folder, checked and compiled into a
:class:`~rulecraft.runtime.game.Ruleset` (exported as ``rulecraft.load``).

>>> import rulecraft
>>> rules = rulecraft.load("tictactoe")
>>> rules.name, "tictactoe" in bundled_names()
('tictactoe', True)
>>> rules.new_game(seed=1).evaluate_expr("count(spaces)")
9

A ruleset is compiled once per process while its files stay the same: loading it again
reuses the compiled program (keyed by its folder and a hash of every file in it).

>>> rulecraft.load("tictactoe").program is rules.program
True
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from pathlib import Path

from rulecraft.diagnostics import Diagnostic
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
    key = (str(path.resolve()), content_hash(path))
    compiled = _COMPILED.get(key)
    if compiled is None:
        checked = check_ruleset(path)
        if checked.program is None:
            raise RulesetError(str(name_or_path), checked.diagnostics)
        compiled = _COMPILED[key] = (checked.program, list(checked.diagnostics))
        while len(_COMPILED) > COMPILED_KEPT:
            _COMPILED.popitem(last=False)
    else:
        _COMPILED.move_to_end(key)
    program, diagnostics = compiled
    return Ruleset(program, list(diagnostics), compile_expression)


#: How many compiled rulesets a process keeps for :func:`load` (the least recently loaded
#: goes first).
COMPILED_KEPT = 16
#: Compiled programs by (folder, :func:`content_hash`): issue 11, "compiled once per
#: ruleset and cached (keyed by the ruleset's content hash)".  A program is not changed by
#: the games that run it, so two ``Ruleset`` objects may share one.
_COMPILED: OrderedDict[tuple[str, str], tuple[Program, list[Diagnostic]]] = OrderedDict()


def content_hash(root: Path) -> str:
    """The sha256 of every file in the ruleset folder ``root`` (names and contents): a
    ruleset reads nothing outside its folder (an include may not leave it), so an edit to
    any file it reads gives a new hash."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()
