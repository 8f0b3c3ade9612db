"""The compiled program keeps its names as a frozen record, not the compiler (issue 11: "a
frozen namespace of declarations"; "it stays alive inside the Program (namespace=self) and
the validators read its private tables")."""

from __future__ import annotations

import dataclasses
import gc

import pytest

import rulecraft
from rulecraft.compile.compiler import Compiler
from rulecraft.compile.names import Names, expression_compiler
from rulecraft.language import ast
from rulecraft.language.parser import parse_expression


def _expression(text: str) -> ast.Expr:
    tree, problems = parse_expression(text, "<expression>")
    assert tree is not None and not problems
    return tree


def _compilers_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Compiler))


def test_no_compiler_outlives_its_compilation() -> None:
    before = _compilers_alive()
    program = rulecraft.load("radlands").program
    assert isinstance(program.names, Names)
    for f in dataclasses.fields(program):
        assert not isinstance(getattr(program, f.name), Compiler), f.name
    # nothing the program holds (its closures included) keeps the compiler alive
    assert _compilers_alive() == before


def test_the_names_cannot_be_changed() -> None:
    names = rulecraft.load("tictactoe").program.names
    assert isinstance(names, Names)
    with pytest.raises(dataclasses.FrozenInstanceError):
        names.zones = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        names.zones["hand"] = names.zones["supply"]  # type: ignore[index]
    assert isinstance(names.symbols, frozenset) and isinstance(names.flags, frozenset)


def test_a_later_expression_compiles_against_the_names_and_leaves_them_alone() -> None:
    program = rulecraft.load("radlands").program
    names = program.names
    before = {f.name: dict(v) if hasattr(v, "items") else v for f in dataclasses.fields(names)
              for v in [getattr(names, f.name)]}  # fmt: skip
    fn, problems = expression_compiler(program, _expression("count(you.hand) + you.water"))
    assert fn is not None and problems == []
    game = rulecraft.load("radlands").new_game(seed=3)
    assert game.evaluate_expr("count(you.hand) + you.water", 0) == (
        len(game.state["zones"][next(k for k in game.state["zones"] if k.endswith("hand@0"))])
        + game.state["res"][0]["water"]
    )
    _, problems = expression_compiler(program, _expression("count(you.hnad)"))
    assert [p.code for p in problems] == ["RC250"]  # no field hnad
    _, problems = expression_compiler(program, _expression("count(hnad)"))
    assert [p.code for p in problems] == ["RC201"]  # no name hnad
    after = {f.name: dict(v) if hasattr(v, "items") else v for f in dataclasses.fields(names)
             for v in [getattr(names, f.name)]}  # fmt: skip
    assert after == before


def test_the_flags_the_rules_know_are_the_programs() -> None:
    """arrange's flag check reads them (it read the compiler's private flags_set)."""
    program = rulecraft.load("radlands").program
    assert program.flags == program.names.flags
    assert {"damaged", "destroyed"} <= program.flags  # set by Radlands' rules
