"""What the compiler knows of flags, so that the runtime need not work it out at every test.

``c has F`` is true when ``F`` is set on ``c``, is one of its traits, is its kind, or is
granted to it (:func:`rulecraft.runtime.engine.comp_has_flag`).  Most flags of a card game
are only ever set (``damaged``, ``fresh``): no definition lists them as a trait, no kind
bears their name, nothing grants them.  For those, a card that has not the flag set has
not the flag, and the runtime answers without the other three tests
(:attr:`~rulecraft.runtime.program.Program.only_set_flags`).

A kind's ``active_if`` made only of such tests on ``this`` (``not (this has damaged)``) is
kept as the flags it asks for (:attr:`~rulecraft.runtime.program.KindSpec.active_flags`):
the engine asks whether a card is active for every card a menu considers, and reads the
flags where it would otherwise run the expression.

>>> from rulecraft.language.parser import parse_expression
>>> tree, _ = parse_expression("not (this has damaged) and this has ready", "x", 1, 1)
>>> flag_literals(tree)
(('damaged', False), ('ready', True))
>>> flag_literals(parse_expression("this.cost > 2", "x", 1, 1)[0]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from rulecraft.language import ast
from rulecraft.runtime.program import ComponentDef, KindSpec

#: Flag tests of an ``active_if``: each flag, and whether the card must have it.
FlagLiterals = tuple[tuple[str, bool], ...]

#: Names a flag test cannot stand for in an ``active_if`` (its locals: ``this has you``
#: would test the flag the variable names).
_LOCALS = frozenset({"you", "this"})


def flag_literals(e: ast.Expr) -> FlagLiterals | None:
    """``e`` as a conjunction of ``[not] this has FLAG`` tests, or ``None`` when it is
    anything else."""
    if isinstance(e, ast.Binary) and e.op == "and":
        left, right = flag_literals(e.left), flag_literals(e.right)
        return None if left is None or right is None else left + right
    want = True
    if isinstance(e, ast.Unary) and e.op == "not":
        e, want = e.operand, False
    if (
        isinstance(e, ast.Has)
        and isinstance(e.obj, ast.Name)
        and e.obj.name == "this"
        and e.flag not in _LOCALS
    ):
        return ((e.flag, want),)
    return None


def only_set_flags(
    candidates: Iterable[str],
    defs: Mapping[str, ComponentDef],
    kinds: Iterable[str],
    granted: Iterable[str],
) -> frozenset[str]:
    """The ``candidates`` no trait, kind or grant can give a card: a card has one of them
    only when it is set on it.  A definition with computed traits could name any flag,
    so then there are none.  (A copy's traits set at run time are tested by the runtime.)"""
    others: set[str] = set(kinds) | set(granted)
    for d in defs.values():
        others.add(d.kind)  # (a kind the manifest does not declare is a kind all the same)
        if "traits" in d.dynamic:
            return frozenset()
        for attributes in (d.attributes, *d.side_attributes.values()):
            traits = attributes.get("traits")
            if isinstance(traits, list):
                others.update(t for t in traits if isinstance(t, str))
    return frozenset(f for f in candidates if f not in others)


def with_active_flags(kinds: Mapping[str, KindSpec], plain: frozenset[str]) -> dict[str, KindSpec]:
    """The ``kinds``, each keeping its ``active_flags`` only when every flag they test is
    in ``plain`` (else the engine runs its ``active_if``)."""
    return {
        name: (
            replace(kind, active_flags=None)
            if kind.active_flags is not None
            and any(flag not in plain for flag, _ in kind.active_flags)
            else kind
        )
        for name, kind in kinds.items()
    }
