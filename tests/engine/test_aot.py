"""The generated code compiled ahead of time (rulecraft.compile.aot, issue 11).

``make compiled`` writes every expression the bundled rulesets generate into one module of
factories and compiles it with mypyc; ``make compiled-check`` plays the record-hash games
on that tree.  These tests check the mechanism on the pure tree: the module's text, that a
ruleset compiled with its factories plays the same games, and that an expression missing
from it is ``exec``\\ ed as before.
"""

from __future__ import annotations

import doctest
import random
import types
from collections.abc import Iterator
from typing import Any

import pytest

from rulecraft.compile import aot, codegen
from rulecraft.compile.load import bundled_root
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.runtime.game import Ruleset


def _factories(*rulesets: str) -> dict[str, Any]:
    """The FACTORIES table of the module written for ``rulesets``, run as Python."""
    module = types.ModuleType("generated_rules_under_test")
    source = aot.module_source(aot.record(list(rulesets)))
    exec(compile(source, "<generated_rules>", "exec"), module.__dict__)
    table: dict[str, Any] = module.FACTORIES
    return table


@pytest.fixture
def factories(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A factories table :func:`aot.factory_for` reads in place of the compiled module's."""
    table: dict[str, Any] = {}
    monkeypatch.setattr(aot, "_loaded", table)
    yield table


def _record(ruleset: Ruleset, seed: int) -> tuple[list[str], Any]:
    game = ruleset.new_game(seed=seed)
    rng = random.Random(seed)
    while game.result is None:
        game.choose(rng.choice(game.legal_ids()))
    return list(game.record.choices), game.result


def _compiled(name: str) -> Ruleset:
    checked = check_ruleset(bundled_root() / name)
    assert checked.program is not None
    return Ruleset(checked.program, list(checked.diagnostics))


def test_renaming_touches_names_only_never_texts() -> None:
    source = "return (_k8.get('_k8'), _f1(ctx), x_k8, _k80, \"_f1\")"
    assert aot.renamed(source, ["_k8", "_f1"]) == (
        "return (_kk8.get('_k8'), _ff1(ctx), x_k8, _k80, \"_f1\")"
    )


def test_the_module_has_a_factory_for_every_expression_a_ruleset_generates() -> None:
    plans = aot.record(["tictactoe"])
    table = _factories("tictactoe")
    assert plans and set(table) == set(plans)
    for source, plan in plans.items():
        factory, names = table[source]
        assert names == aot.parameters(plan)
        assert callable(factory)


def test_a_ruleset_built_from_the_factories_plays_the_same_games(
    factories: dict[str, Any],
) -> None:
    """Connect Four's ``where`` over the board's spaces and its line checks are generated:
    built from the factories, the same seeds and choices end the same way."""
    before = _compiled("connect4")
    factories.update(_factories("connect4"))
    after = _compiled("connect4")
    used = [
        fn
        for fn in (after.program.actions["drop"].for_collection,)
        if codegen.source_of(fn) is not None
    ]
    assert used, "the drop's columns are not generated code"
    assert not hasattr(used[0], "__rulecraft_source__"), "made by exec, not by a factory"
    for seed in range(20):
        assert _record(after, seed) == _record(before, seed)


def test_an_expression_not_in_the_module_is_executed_as_before(
    factories: dict[str, Any],
) -> None:
    """Tic-Tac-Toe shares its menu's expression with Connect Four (the same source: one
    factory serves both, each with its own constants), not its end's."""
    factories.update(_factories("tictactoe"))
    ruleset = _compiled("connect4")
    shared = ruleset.program.actions["drop"].for_collection
    assert codegen.source_of(shared) in factories
    assert not hasattr(shared, "__rulecraft_source__")
    own = [
        source
        for source in aot.record(["connect4"])
        if source not in factories and "in_a_row" not in source
    ]
    assert own, "Connect Four generates nothing of its own"
    factories.clear()
    fresh = _compiled("connect4").program.actions["drop"].for_collection
    assert getattr(fresh, "__rulecraft_source__", None) == codegen.source_of(fresh)


def test_without_the_compiled_module_there_is_no_factory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(aot, "_loaded", None)
    monkeypatch.setattr(aot, "MODULE", "rulecraft.compile.no_such_module")
    assert aot.factory_for("def _generated(ctx):\n    return 1\n") is None


def test_a_factory_refusing_a_constant_leaves_the_expression_executed(
    factories: dict[str, Any],
) -> None:
    """A factory's dictionary and list constants are typed as recorded (mypyc reads them
    through C calls); another ruleset whose expression has the same source but a constant
    of another type gets a TypeError from the compiled factory, and its source is
    ``exec``\\ ed instead: the same games either way."""
    before = _compiled("connect4")

    def refusing(*values: Any) -> Any:
        raise TypeError("argument 1 has incompatible type")  # as a compiled factory does

    factories.update(
        {source: (refusing, names) for source, (_, names) in _factories("connect4").items()}
    )
    after = _compiled("connect4")
    drop = after.program.actions["drop"].for_collection
    assert getattr(drop, "__rulecraft_source__", None) == codegen.source_of(drop)
    for seed in range(5):
        assert _record(after, seed) == _record(before, seed)


def test_the_module_types_the_context_and_the_table_constants() -> None:
    source = aot.module_source(aot.record(["radlands"]))
    assert "    loc: dict[str, Any] = _c.loc\n" in source
    assert "dict[Any, Any]" in source  # Radlands' tables by seat (you.hand's pile)
    failures, tried = doctest.testmod(aot)
    assert tried and not failures
