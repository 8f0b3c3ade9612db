"""Statements compiled to Python source (issue 11, "each action, define, trigger, condition
and effect of a ruleset compiled to Python source ... with the engine's continuation still
plain data in the state (a half-resolved effect saves and loads)").

Every routine's generated function (compile/routine_code.py) must do exactly what running
its instructions one at a time does (``engine.interpret``, what a routine without one
does): the same games, decision for decision, on every bundled ruleset and on the fuzzer's
random rulesets; the frame it leaves in the state is the same plain ``[routine, pc,
locals]``.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz.gen import rulesets
from tests.fuzz.test_runtime_fuzz import STEP_LIMIT
from tests.fuzz.test_runtime_fuzz import load as load_fuzz

import rulecraft
from rulecraft.cli.main import main
from rulecraft.compile.load import bundled_names
from rulecraft.compile.routine_code import renamed
from rulecraft.errors import RuleError
from rulecraft.runtime import engine
from rulecraft.runtime.game import Game, Ruleset


def interpreted(ruleset: Ruleset) -> Ruleset:
    """The same program with every routine run an instruction at a time."""
    program = ruleset.program
    routines = [dataclasses.replace(r, run=None) for r in program.routines]
    return Ruleset(dataclasses.replace(program, routines=routines), ruleset.diagnostics)


def random_game(ruleset: Ruleset, seed: int, players: int | None = None) -> tuple[object, ...]:
    """A random game's choices, final state hash and how it ended (a rule error's text)."""
    rng = random.Random(seed)
    choices: list[str] = []
    try:
        game = ruleset.new_game(seed=seed, players=players)
        while game.result is None and len(choices) < 150:
            choices.append(rng.choice(game.legal_ids()))
            game.choose(choices[-1])
    except RuleError as err:
        return (choices, str(err))  # its code and place too
    return (choices, game.state_hash(), game.result)


@pytest.mark.parametrize("name", bundled_names())
def test_generated_routines_play_the_games_their_instructions_play(name: str) -> None:
    ruleset = rulecraft.load(name)
    # all generated (on the compiled runtime, those compiled ahead of time: the others'
    # instructions run in C, faster than their source would run exec'd)
    assert all(r.source for r in ruleset.program.routines)
    assert all(r.run is not None for r in ruleset.program.routines) or engine.COMPILED
    plain = interpreted(ruleset)
    assert all(r.run is None for r in plain.program.routines)
    for seed in range(4):
        assert random_game(ruleset, seed) == random_game(plain, seed), seed


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rulesets(), st.integers(0, 2**32))
def test_generated_routines_agree_on_random_rulesets(ruleset: tuple[str, str], seed: int) -> None:
    """The fuzzer's rulesets: loops, branches, calls, triggers and choices in every mix;
    an endless loop stops at the same place either way (where it goes back)."""
    generated = load_fuzz(*ruleset)
    with mock.patch.object(engine, "MAX_STEPS_PER_DECISION", STEP_LIMIT):
        assert random_game(generated, seed, 2) == random_game(interpreted(generated), seed, 2)


def test_a_half_resolved_effect_saves_and_loads(tmp_path: Path) -> None:
    """Waste Knights asks in the middle of routines (a fight's choices, a story entry's
    options): saved there, the game loads in a new game and goes on to the same end."""
    ruleset = rulecraft.load("waste_knights")
    game = ruleset.new_game(seed=7, players=1)
    rng = random.Random(7)
    inside = 0
    while game.result is None and len(game.record.choices) < 120:
        stack = game.state["stack"]
        if len(stack) > 1 and stack[-1][1] > 1:  # asked inside a routine, past its start
            inside += 1
            path = tmp_path / f"save{inside}.json"
            game.save(path)
            loaded = Game.load_file(ruleset, path)
            assert loaded.state_hash() == game.state_hash()
            assert loaded.state["stack"] == stack  # [routine, pc, locals]: plain data
            follow = random.Random(inside)
            for _ in range(5):
                if game.result is not None:
                    break
                choice = follow.choice(game.legal_ids())
                game.choose(choice)
                loaded.choose(choice)
            assert loaded.state_hash() == game.state_hash()
            continue
        game.choose(rng.choice(game.legal_ids()))
    assert inside >= 3


@pytest.mark.parametrize("run", ["generated", "interpreted"])
def test_an_endless_while_stops_at_the_loop(tmp_path: Path, run: str) -> None:
    """A loop that never asks goes back to its top through the step budget (checked there,
    by a generated routine and by ``engine.interpret`` alike): an error at the ``while``,
    not a hang, and not wherever the 200,000th step happens to fall."""
    (tmp_path / "ruleset.yaml").write_text(
        "rulecraft: 1\nname: loop\nplayers: {min: 2, max: 2}\nfiles: [rules.rcl]\n"
        "resources:\n  gold: {per: player, start: 0}\n"
        "flow:\n  phases:\n    - name: main\n      actions: [act]\n",
        encoding="utf-8",
    )
    (tmp_path / "rules.rcl").write_text(
        'action act "Act":\n    repeat 3:\n        for each n in [1, 2]:\n'
        "            while you.gold >= 0:\n                gain 1 gold\n",
        encoding="utf-8",
    )
    ruleset = rulecraft.load(tmp_path)
    game = (ruleset if run == "generated" else interpreted(ruleset)).new_game(seed=1)
    with pytest.raises(RuleError, match=r"rules\.rcl:4:13: the rules run in a loop"):
        game.choose("act:act")


def test_compile_show_prints_the_generated_function(capsys: pytest.CaptureFixture[str]) -> None:
    """Tic-Tac-Toe's ``place``: the whole action as one Python function, each instruction
    under its ``.rcl`` place and line, its kept ``count(...) == 0`` written in place."""
    assert main(["compile", "tictactoe", "--show", "place"]) == 0
    out = capsys.readouterr().out
    routines = rulecraft.load("tictactoe").program.routines
    place = next(r for r in routines if r.name == "action.place")
    assert place.source.startswith("def _generated(ctx, budget):")
    shown = out.split("   generated:\n", 1)[1]
    assert "      def _generated(ctx, budget):\n" in shown
    assert "if pc == 0:  # rules.rcl:6:5  move first(you.supply) to space\n" in shown
    assert "_move0(ctx)" in shown
    assert "if pc == 4:  # rules.rcl:9:10  elif count(spaces where empty(it)) == 0:" in shown
    assert "if not (not (_kept_mask(ctx, _k0_4) != 0)):" in shown  # in place, renamed
    assert "   _e1: closures\n" in shown  # in_a_row(you, 3): called, not generated


def test_renaming_leaves_texts_alone() -> None:
    assert renamed("_k0.get('_k0') + _k01", {"_k0": "_k0_3"}) == "_k0_3.get('_k0') + _k01"
