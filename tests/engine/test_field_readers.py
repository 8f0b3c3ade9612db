"""The specialised field readers and the modifiers and grants worked out once per listing.

Issue 11: "field access specialised by type".  Generated code and the closures read
``x.kind``, ``x.facedown`` and ``x.used`` through ``builtins.FIELD_READERS`` and a card's
own fields (``card.cost``) through ``builtins.own_field``; while options are listed, the
modifiers and grants in force are worked out once (``engine._live``).  Each must read
exactly what ``get_field`` and ``has_flag`` read without them, for every sort of value, at
every position of random games of every bundled ruleset with cards.  No timings here (bench/).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.runtime import builtins as B
from rulecraft.runtime import engine as E
from rulecraft.runtime import ids


def card_rulesets() -> list[str]:
    """Every bundled ruleset whose components have fields, modifiers or grants to read."""
    return [name for name in bundled_names() if rulecraft.load(name).program.defs]


def fields_of(program: Any) -> list[str]:
    """Every field name a rule of ``program`` could read on a card, and a few that none
    has (a counter's or an attribute's, the built-in ones, a modified one)."""
    names = {"kind", "zone", "owner", "controller", "facedown", "used", "name", "nothing"}
    for d in program.defs.values():
        names |= set(d.attributes) | set(d.dynamic) | set(d.effects)
        for side in d.side_attributes.values():
            names |= set(side)
    for kind in program.kinds.values():
        names |= set(kind.counters)
    if program.map is not None:  # and every field of a space
        names |= {"pieces", "cards", "empty", "cost", "neighbors", "terrain", "x", "y", "id"}
    names |= set(program.modifiers)
    return sorted(names)


def read(fn: Any, *args: Any) -> Any:
    """``fn(*args)``'s value, or the type and text of the error it raises."""
    try:
        return ("value", fn(*args))
    except Exception as err:  # the readers must fail alike too
        return ("error", type(err).__name__, str(err))


def positions(name: str, games: int = 6, moves: int = 60) -> list[rulecraft.Game]:
    ruleset = rulecraft.load(name)
    out = []
    for seed in range(games):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.result is not None:
                break
            game.choose(rng.choice(game.legal_ids()))
            if rng.random() < 0.2:
                out.append(game.clone())
    return out


@pytest.mark.parametrize("name", card_rulesets())
def test_kind_of_and_own_field_read_what_get_field_reads(name: str) -> None:
    for game in positions(name):
        ctx = game._ctx()
        ctx.loc = {"you": E.player(0), "this": None}
        values: list[Any] = list(game.state["comps"])[:40]
        values += [E.player(0), next(iter(game.state["zones"])), None, [], "d:nothing"]
        if game.program.map is not None:  # spaces with pieces on them and without
            values += [ids.space_id(s) for s in game.program.map.spaces[:3]]
            values += [z for z in game.state["zones"] if ids.is_space(z)][:3]
        for value in values:
            assert read(B.kind_of, ctx, value) == read(B.get_field, ctx, value, "kind")
            for field, reader in B.FIELD_READERS.items():
                assert read(reader, ctx, value) == read(B.get_field, ctx, value, field), field
            for field in fields_of(game.program):
                if B.is_own_field(field):
                    assert read(B.own_field, ctx, value, field) == read(
                        B.get_field, ctx, value, field
                    ), (value, field)


def modifying_rulesets() -> list[str]:
    """Every bundled ruleset with a modifier or a grant (a new one is tested too)."""
    out = []
    for name in bundled_names():
        program = rulecraft.load(name).program
        if program.modifiers or program.grants:
            out.append(name)
    return out


@pytest.mark.parametrize("name", modifying_rulesets())
def test_a_listing_reads_the_modifiers_and_grants_it_would_read_without_one(name: str) -> None:
    program = rulecraft.load(name).program
    modified = sorted(program.modifiers)
    granted = sorted(program.grants)
    for game in positions(name):
        ctx = game._ctx()
        ctx.loc = {"you": E.player(game.state["active"]), "this": None}

        def reads(c: E.Ctx) -> list[Any]:
            cards = list(c.st["comps"])
            got = [read(B.get_field, c, cid, f) for cid in cards for f in modified]
            return got + [read(E.has_flag, c, cid, f) for cid in cards for f in granted]

        assert E.listing(ctx, reads) == reads(ctx)


@pytest.mark.parametrize("name", modifying_rulesets())
def test_numbers_written_in_a_modifier_apply_as_its_expressions_do(name: str) -> None:
    # `by -1 (min 0)` is applied from the numbers (ModifierSpec.fixed), not by running the
    # expressions with the card's locals bound: the same values either way
    program = rulecraft.load(name).program
    assert any(m.fixed for mods in program.modifiers.values() for m in mods)
    run = replace(
        program,
        modifiers={
            k: tuple(replace(m, fixed=None) for m in v) for k, v in program.modifiers.items()
        },
    )
    for game in positions(name):
        st = game.state
        fast = E.Ctx(program, st, "", None, E.instances_by_def(st))
        slow = E.Ctx(run, st, "", None, E.instances_by_def(st))
        for c in (fast, slow):
            c.loc = {"you": E.player(st["active"]), "this": None}
        for field in program.modifiers:
            for cid in st["comps"]:
                assert read(B.get_field, fast, cid, field) == read(B.get_field, slow, cid, field)


def test_radlands_has_a_modified_cost_and_a_granted_flag_to_test() -> None:
    assert "radlands" in modifying_rulesets()
    # the listing test above is only as good as the rulesets it reads: Radlands' traders
    # and camps change costs, its guardians shield
    program = rulecraft.load("radlands").program
    assert "cost" in program.modifiers and "shielded" in program.grants


MANIFEST = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: 0}
kinds:
  gem:
    attributes: {shine: number, weight: number}
    active_in: [table]
zones:
  table: {visibility: public}
components:
  - {kind: gem, zone: table}
flow:
  phases:
    - name: main
      actions: [look]
      mandatory: true
"""

GEMS = """gem ruby "Ruby":
    shine: 2
    weight: 1
    modify shine of table.cards by 1
    grant bright to table.cards where it.def == opal

gem opal "Opal":
    copies: 2
    shine: 1
    weight: 3
    modify weight of table.cards where it != this by 2
    grant heavy to this

action look "Look":
    gain 1 gold
"""


def test_each_field_and_flag_has_its_own_modifiers_in_a_listing(tmp_path: Any) -> None:
    """Two modified fields and two granted flags: a listing remembers what is in force for
    each apart (one list for all would give the opals' weight bonus to shine)."""
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(GEMS, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=1)
    ctx = game._ctx()
    ruby, opal1, opal2 = "ruby#1", "opal#1", "opal#2"

    def reads(c: E.Ctx) -> list[Any]:
        return [
            [B.get_field(c, cid, "shine") for cid in (ruby, opal1, opal2)],
            [B.get_field(c, cid, "weight") for cid in (ruby, opal1, opal2)],
            [E.has_flag(c, cid, "bright") for cid in (ruby, opal1, opal2)],
            [E.has_flag(c, cid, "heavy") for cid in (ruby, opal1, opal2)],
        ]

    expected = [
        [3, 2, 2],  # the ruby's +1 to every gem, itself included
        [1 + 4, 3 + 2, 3 + 2],  # each opal's +2 to every other gem
        [False, True, True],
        [False, True, True],
    ]
    assert reads(ctx) == expected
    assert E.listing(ctx, reads) == expected


def test_the_compiled_classes_of_names_and_constants_read_what_the_lambdas_read() -> None:
    # compiled (E.COMPILED), the closure compiler makes these of a local's name and of a
    # constant; the source tree keeps the lambdas, so this runs them both ways
    game = rulecraft.load("radlands").new_game(seed=1)
    ctx = game._ctx()
    ctx.loc = {"you": E.player(1), "this": None, "card": "x#1"}
    assert E.LocalValue("card")(ctx) == "x#1"
    assert E.LocalValue("you")(ctx) == E.player(1)
    assert E.LocalValue("nothing")(ctx) is None
    assert E.ConstantValue(3)(ctx) == 3
    assert E.__file__.endswith(".so") == E.COMPILED


@pytest.mark.parametrize("name", ["radlands", "waste_knights"])
def test_a_players_pile_and_number_from_tables_read_what_get_field_reads(name: str) -> None:
    """``p.hand`` and ``p.water`` (a player's pile or number, closures and generated code)
    are looked up in tables by seat; any other value still goes through ``get_field``."""
    from rulecraft.compile.expressions import _players_field
    from rulecraft.runtime import ids
    from rulecraft.runtime.state import STATE_SCHEMA

    # the tables cover every seat a state may hold
    assert STATE_SCHEMA["properties"]["active"]["maximum"] + 1 == ids.SEATS
    program = rulecraft.load(name).program
    piles = [z for z, spec in program.zones.items() if spec.per_player]
    numbers = list(program.resources)
    assert piles and numbers
    for game in positions(name, games=2, moves=40):
        ctx = game._ctx()
        values: list[Any] = [E.player(s) for s in range(game.num_players)]
        values += [*list(game.state["comps"])[:10], None, "@63", "@64", []]
        for field, is_pile in [(f, True) for f in piles] + [(f, False) for f in numbers]:
            by_local = _players_field("v", lambda c: None, field, is_pile)
            by_expr = _players_field(None, lambda c: c.loc["w"], field, is_pile)
            for value in values:
                ctx.loc = {"v": value, "w": value}
                expected = read(B.get_field, ctx, value, field)
                assert read(by_local, ctx) == expected, (value, field)
                assert read(by_expr, ctx) == expected, (value, field)


def test_a_builtin_of_a_local_and_a_constant_reads_what_its_closures_read() -> None:
    """``in_a_row(you, 3)``: compiled, the call is made of the local's name and the
    constant's value, read in place (no call of either); the same answers along a game."""
    import random

    from rulecraft.compile.expressions import _call_builtin
    from rulecraft.compile.names import compiler_for
    from rulecraft.language import ast
    from rulecraft.language.parser import parse_expression

    game = rulecraft.load("tictactoe").new_game(seed=0)
    c = compiler_for(game.program.names)
    call, problems = parse_expression("in_a_row(you, 3)", "<test>")
    assert isinstance(call, ast.Call) and not problems
    specialised = _call_builtin(c, call, "in_a_row", [E.LocalValue("you"), E.ConstantValue(3)])
    plain = _call_builtin(c, call, "in_a_row", [lambda ctx: ctx.loc.get("you"), lambda ctx: 3])
    rng = random.Random(3)
    while game.result is None:
        ctx = game._ctx()
        for seat in (0, 1):
            ctx.loc = {"you": E.player(seat), "this": None}
            assert specialised(ctx) == plain(ctx)
        game.choose(rng.choice(game.legal_ids()))
    ctx = game._ctx()
    assert game.result.winners  # (this seed's game is won: one seat has a row, one not)
    winner = game.result.winners[0]
    for seat in (0, 1):
        ctx.loc = {"you": E.player(seat), "this": None}
        assert specialised(ctx) == plain(ctx) == (seat == winner)


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "radlands"])
def test_the_compiled_runtimes_closures_play_the_same_games(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compiled (E.COMPILED), the closure compiler makes a local's name and a constant
    into LocalValue and ConstantValue, and the instructions and calls built of them read
    them in place (``move X to space``, ``in_a_row(you, 3)``).  The source tree compiles
    lambdas, so this compiles a ruleset as the compiled runtime does and plays it: the
    same choices and the same ends as the lambdas'."""
    import random

    from rulecraft.cli.compile_cmd import _held_by
    from rulecraft.compile import load as loading

    def games(ruleset: rulecraft.Ruleset) -> list[tuple[list[str], str]]:
        out = []
        for seed in range(6):
            game = ruleset.new_game(seed=seed)
            rng = random.Random(seed)
            while game.result is None and len(game.record.choices) < 200:
                game.choose(rng.choice(game.legal_ids()))
            out.append((list(game.record.choices), game.state_hash()))
        return out

    plain = games(rulecraft.load(name))
    monkeypatch.setattr(loading, "_COMPILED", type(loading._COMPILED)())
    monkeypatch.setattr(E, "COMPILED", True)
    as_compiled = rulecraft.load(name)
    held = [
        value
        for routine in as_compiled.program.routines
        for instr in routine.code
        for value in _held_by(instr)  # (a closure's cells, or a compiled one's fields)
    ]
    assert any(isinstance(value, E.LocalValue) for value in held)  # as compiled
    assert games(as_compiled) == plain
