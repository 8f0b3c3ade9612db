"""Generated expressions (compile/codegen.py) do what the closures do, faster.

Issue 11: "``spaces where open(it)`` runs a user ``define`` on all 42 spaces, each call
building a dict of locals inside try/finally".  Connect Four's legal moves are now one
generated Python function with ``open`` inlined; every generated expression must give the
value its closures give, in every position (the record hashes test the games as a whole).
No timings here: speed is measured in bench/bench_engine.py.
"""

from __future__ import annotations

import functools
import random
import warnings
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulecraft
from rulecraft.compile import codegen
from rulecraft.runtime import builtins
from rulecraft.runtime import engine as E

CONNECT4 = [
    "spaces where open(it)",
    "count(spaces where open(it) and it.x > 2)",
    "spaces where it.y == 5 and not empty(it)",
    "(spaces where open(it)) + (spaces where it.x == 0)",
    "spaces where space_at(it.x, it.y) == it",
    "spaces where open(space_at(it.x, 5))",
    "count(spaces where not open(it)) / 2 + count(spaces where open(it)) % 4",
    "count(spaces where it.x in [1, 3] and open(it)) - 1",
    "spaces where open(it) and in_a_row(you, 3)",
    # known sorts (a space of the map, a space or nothing, ints, bools): off the board
    # space_at gives nothing, and empty(nothing) holds
    "spaces where empty(space_at(it.x + 1, it.y)) and not empty(it)",
    "spaces where (it.x > 2) == (it.y < 3) or it.x + it.y > 8",
    "count(spaces where empty(space_at(it.x, it.y - 1)) or -it.x < -5)",
    # count(...) against 0 or 1 stops at the first kept item
    "count(spaces where empty(it)) == 0",
    "count(spaces where open(it)) > 0 and count(spaces where it.x == 9) == 0",
    "count(spaces where not empty(it)) >= 1 or count(spaces where open(it)) < 1",
    "count(spaces where open(it) and it.y < 2) != 0",
    "count(spaces where in_a_row(you, 2)) <= 0",
    # parts that depend on the space alone are worked out once for each space (tables)
    "spaces where (it.x * 2 - it.y == 3) != (space_at(it.x - 1, it.y + 1) == none)",
    "spaces where not empty(space_at(6 - it.x, 5 - it.y)) and it.x + it.y >= 5",
    # an emptiness test over a zone keeps its closure; the rest is generated around it
    "count(you.supply where not empty(it)) + count(spaces where open(it))",
    "count(you.supply where empty(it)) == 0 and count(spaces where open(it)) > 3",
]
RADLANDS = [
    "you.people where not protected(it)",
    "targets_of(opponent)",
    "count(you.camps where alive(it))",
    "you.hand where it.kind == person and it.cost <= you.water",
    "strength(you) - strength(opponent)",
    "count(opponent.camps where it has destroyed or it has damaged)",
    "count(you.people where it.cost > 1) == 0",
    "count(opponent.camps where alive(it)) > 0 and count(you.hand where it.cost <= 1) >= 1",
    # a player's pile and number read from tables by seat; anything but a player (a card,
    # nothing) still through get_field
    "count(hand) + you.water * 10 + count(opponent.people) - opponent.water",
    "count(you.people where it.controller.water >= 0 and it.owner == you) + count(camps)",
    "count(you.hand where it.zone == it.controller.hand) == count(you.hand)",
    "count(first(you.hand).hand) + count(none.people) + count(first(you.people).camps)",
    # parts of a condition that do not change from item to item, worked out once for the
    # whole where (nested: the inner one's invariant reads the outer one's item)
    "you.hand where it.cost <= you.water + count(you.people) - 1",
    "count(you.people where count(opponent.people where it.cost == 1) > 0)",
    "count(you.hand where count(you.people where it.cost >= 2) >= count(opponent.people))",
    "you.people where count(opponent.people where it.cost <= 2 and it != this) > 0",
    "you.hand where it.kind == event and can_queue(you, it.countdown)",
    "count(you.camps where not protected(it) and count(you.hand) > 1)",
    # the inner where's items do not change, but its condition reads the outer item
    "count(you.camps where col_count(you, it.col) > 0)",
    "you.camps where slot_taken(opponent, it.col)",
    # any() of a where, or of a define whose body is one, stops at the first item kept
    "any(you.people where it.cost > 1) or any(exposed_people(opponent))",
    "any(targets_of(opponent)) and not any(restorable(you))",
    "count(you.hand where any(opponent.people where it.cost == 2))",
    # an item of a list (none outside it, -1 the last) and a field named by a text
    "count(you.hand where [it.cost, 1, 2][it.cost] == 1)",
    "[1, 2, 3][count(you.hand) - 5]",
    'count(you.people where it["cost"] > 1) + count(you.hand where it["cost"] >= 1)',
    "[0, 1][-1] + count(you.hand where [it.cost][it.cost + 1] == none)",
]
WASTE_KNIGHTS = [
    "next_spaces(you)",
    "any(next_spaces(you))",
    "can_start_move(you)",
    "count(here(you).neighbors where it.cost >= 0 and it.cost <= you.mp + you.fuel)",
    "here(you).neighbors where count(it.neighbors where it.cost <= speed_of(you)) > 2",
]
#: The attack menu's spaces (``attack_targets``' body): a define reading a list by the
#: distance ([short, medium, long][d]); closures only until list items were generated.
WAYLANDERS = [
    "spaces where act_ok and act.fights < 2 and active.ap >= 1 and distance(here, it) <= 2"
    " and reaches(act, distance(here, it)) and sees(here, it) and any(targets(act, it))",
    "count(all_units where reaches(it, 1) and dice_at(it, 0) >= 0)",
]


def positions(name: str, games: int = 3, every: int = 3) -> list[rulecraft.Game]:
    """Positions of a few seeded random games, every few decisions."""
    ruleset = rulecraft.load(name)
    out = []
    for seed in range(games):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        n = 0
        while game.result is None and n < 400:
            if n % every == 0:
                out.append(game.clone())
            game.choose(rng.choice(game.legal_ids()))
            n += 1
    return out


def values(games: list[rulecraft.Game], text: str) -> list[Any]:
    """``text``'s value (or its error) in each game, for each seat."""
    out = []
    for g in games:
        for seat in (0, 1):
            try:
                out.append(g.evaluate_expr(text, seat))
            except rulecraft.RuleError as e:  # (a knight not yet on the board has no hex)
                out.append(("error", str(e)))
    return out


@pytest.mark.parametrize(
    ("name", "texts"),
    [
        ("connect4", CONNECT4),
        ("radlands", RADLANDS),
        ("waste_knights", WASTE_KNIGHTS),
        ("waylanders", WAYLANDERS),
    ],
)
def test_generated_expressions_give_what_the_closures_give(
    name: str, texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = positions(name)
    built: list[str] = []
    real_build = codegen.build

    def counting_build(compiler: Any, plan: codegen.Plan) -> Any:
        built.append(plan.source)
        return real_build(compiler, plan)

    monkeypatch.setattr(codegen, "build", counting_build)
    generated = {}
    for text in texts:
        before = len(built)
        generated[text] = values(games, text)
        assert len(built) > before, f"nothing generated for {text!r}"
    monkeypatch.setattr(codegen, "plan", lambda *args: None)
    for text in texts:
        assert values(games, text) == generated[text], text


def open_test_source() -> str:
    """The generated test of one space of Connect Four's ``spaces where open(it)`` (the
    drop action's spaces, kept up to date as discs drop: runtime/incremental.py)."""
    kept = rulecraft.load("connect4").program.actions["drop"].kept
    assert kept is not None, "the drop action's spaces are not kept up to date"
    return kept.source


def test_connect_four_legal_moves_are_one_function_with_the_define_inlined() -> None:
    program = rulecraft.load("connect4").program
    collection = program.actions["drop"].for_collection
    source = codegen.source_of(collection)  # (compiled, `make compiled`: kept beside it)
    assert source is not None, "the drop action's collection is not generated"
    assert "return _kept_spaces(ctx, _k0)" in source  # what is remembered, read
    # one function testing a space, open(it) written in place: no call of a definition
    test = open_test_source()
    assert test.startswith("lambda _zones, _it1: ") and " for " not in test
    assert "define" not in test and "_f" not in test


def test_what_the_generator_knows_of_a_value_leaves_out_the_run_time_tests() -> None:
    """``it`` walks the map's own spaces, ``it.y`` is a number, ``space_at`` gives a space or
    nothing, ``empty`` a bool: none of them is tested again at run time (issue 11: "field
    access specialised by type")."""
    source = open_test_source()
    assert "type(" not in source and "not not" not in source and "int(" not in source
    assert "_coord" not in source and "_empty" not in source and "_add" not in source


def test_what_depends_on_the_space_alone_is_worked_out_once() -> None:
    """Connect Four's ``open(it)``: whether a space is on the bottom row and which space
    lies below it depend on the space alone (the map has no tiles): each is one lookup in a
    table made when the ruleset compiles, not arithmetic on coordinates at every decision
    (issue 11: "constant folding")."""
    source = open_test_source()
    assert "== (5)" not in source and "+ (1)" not in source  # it.y == 5, it.y + 1
    assert source.count("[_it1]") == 2  # the two tables


RECURSIVE_MANIFEST = """\
rulecraft: 1
name: countdown
version: '1'
players: {min: 1, max: 1}
files: [rules.rcl]
flow:
  phases:
    - name: wait
      actions: [wait]
      max: 1
      mandatory: true
"""
RECURSIVE_RULES = """\
define down(n) = n > 0 and down(n - 1)
define rise(n) = n <= 0 or rise(n - 1)
define both(n) = rise(n) and not down(n)

action wait "Wait":
    win
"""


def test_a_definition_that_calls_itself_is_called_not_inlined(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inlining a recursive definition would never end: the ruleset still compiles, the
    recursion runs as calls and gives what the closures give."""
    (tmp_path / "ruleset.yaml").write_text(RECURSIVE_MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(RECURSIVE_RULES, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=0)
    texts = ["both(5)", "rise(3) and down(2) or rise(1)", "down(4) or count([1, 2]) > 1"]
    generated = [game.evaluate_expr(t) for t in texts]
    assert generated == [True, True, True]
    monkeypatch.setattr(codegen, "plan", lambda *args: None)
    assert [game.evaluate_expr(t) for t in texts] == generated


def test_an_emptiness_test_over_a_zone_does_not_stop_the_rest_being_generated() -> None:
    """``X where empty(it)`` over a zone runs the closure compiler's fast path, called from
    the generated code of the expression around it (not: the whole expression as closures)."""
    game = rulecraft.load("connect4").new_game(seed=0)
    text = "count(you.supply where empty(it)) == 0 and count(spaces where open(it)) > 3"
    assert game.ruleset.compile_expression is not None
    fn = game.ruleset.compile_expression(game.program, text)
    source = codegen.source_of(fn)
    assert source is not None, "nothing generated"
    # the spaces' where read from what is kept up to date, the zone's where called
    assert "_kept_mask(ctx, " in source and "_f" in source


def test_inlined_parameters_and_items_are_bound_in_place_not_by_a_function() -> None:
    """A ``define``'s parameters and a ``where``'s items that ``:=`` binds are bound in a
    tuple before the body: no function is made and called at every evaluation (Radlands'
    ``targets_of`` inlines ``protected`` and ``col_count`` for every card it weighs)."""
    ruleset = rulecraft.load("radlands")
    assert ruleset.compile_expression is not None
    fn = ruleset.compile_expression(ruleset.program, "targets_of(opponent)")
    source = str(codegen.source_of(fn) or "")
    assert ":= _read_controller(ctx, _it" in source  # a parameter bound to a field
    assert "lambda" not in source and ")[-1]" in source, source


def fields_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fields generated code asks ``own_field`` for from now on, in order (it reads
    the helper from the namespace it is built with: expressions compiled after this)."""
    asked: list[str] = []
    real = builtins.own_field

    def counting(ctx: Any, obj: Any, name: str) -> Any:
        asked.append(name)
        return real(ctx, obj, name)

    monkeypatch.setattr(codegen, "own_field", counting)
    return asked


@pytest.mark.pure_only  # counts calls of a helper the compiled functions bind at import
def test_what_no_item_changes_is_worked_out_once_for_the_whole_where(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Waste Knights' ``next_spaces``: ``affordable(p, it)`` compares each neighbour's cost
    with ``p.mp + p.fuel * vehicle_of(p).bonus``, the same for every neighbour.  It is
    worked out once for the whole ``where``, not once a neighbour (issue 11: "never
    re-decides at run time what the compiler already knew")."""
    asked = fields_asked(monkeypatch)
    game = positions("waste_knights", games=1, every=50)[1]
    assert game.ruleset.compile_expression is not None
    fn = game.ruleset.compile_expression(game.program, "next_spaces(you)")
    source = str(codegen.source_of(fn) or "")
    assert source.count("_UNSET") == 2, source  # one part, marked and tested
    for seat in (0, 1):
        asked.clear()
        spaces = game.evaluate_expr("next_spaces(you)", seat)
        neighbours = game.evaluate_expr("here(you).neighbors", seat)
        assert len(neighbours) >= 2
        cheap_enough = game.evaluate_expr("here(you).neighbors where it.cost >= 0", seat)
        assert asked.count("cost") >= len(neighbours)  # each neighbour's cost is its own
        # the vehicle's bonus: once, or never when no neighbour gets that far
        assert asked.count("bonus") == (1 if cheap_enough else 0), (asked, spaces)


#: (expression, its value): each ``where``'s right-hand part reads no item and fails
#: ("you.hand" is a pile, not a number), so it fails exactly where an item needs it.
FAILING_INVARIANTS = [
    ("count([1, 2] where it > 5 and you.hand + 1 > 0)", 0),  # no item gets that far
    ("count([] where you.hand < 1)", 0),  # no item at all
    ("count([2, 3] where it > 1 or you.hand < 1)", 2),  # 'or' decided by the left part
    ("count([1, 2] where it > 0 and you.hand + 1 > 0)", "can only concatenate"),
    ("count([3, 1, 2] where it < 2 and you.hand < 1)", "'<' not supported"),
]


@pytest.mark.parametrize(("text", "expected"), FAILING_INVARIANTS)
def test_a_part_worked_out_once_fails_only_where_an_item_needs_it(
    text: str, expected: int | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A part of a condition worked out once for the whole ``where`` is worked out when the
    first item needs it, not before: an empty collection, or an ``and`` that stops first,
    works out nothing and so fails nowhere, as the closures do."""
    game = rulecraft.load("radlands").new_game(seed=0)
    assert game.ruleset.compile_expression is not None
    source = str(codegen.source_of(game.ruleset.compile_expression(game.program, text)) or "")
    assert "_UNSET" in source, source

    def outcome() -> Any:
        try:
            return game.evaluate_expr(text, 0)
        except rulecraft.RuleError as e:
            return str(e)

    generated = outcome()
    if isinstance(expected, int):
        assert generated == expected
    else:
        assert expected in generated
    monkeypatch.setattr(codegen, "plan", lambda *args: None)
    assert outcome() == generated


def test_any_of_a_where_stops_at_the_first_item_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """``if not any(next_spaces(you))`` (Waste Knights' Move, after each step) asks whether
    one neighbour is affordable: the neighbours after the first affordable one are not
    weighed (as ``count(...) == 0`` already stopped; issue 11)."""
    asked = fields_asked(monkeypatch)
    games = positions("waste_knights", games=2, every=25)
    weighed = 0
    for game in games:
        for seat in (0, 1):
            try:
                neighbours = game.evaluate_expr("here(you).neighbors", seat)
            except rulecraft.RuleError:
                continue  # (not on the board yet)
            kept = game.evaluate_expr("next_spaces(you)", seat)
            asked.clear()
            assert game.evaluate_expr("any(next_spaces(you))", seat) == bool(kept)
            if kept:
                # each neighbour's cost is read at most twice, up to the first kept
                assert asked.count("cost") <= 2 * (neighbours.index(kept[0]) + 1)
                weighed += neighbours.index(kept[0]) + 1 < len(neighbours)
    assert weighed > 0, "no position had a neighbour left to skip"


# ---------------------------------------------------------------------------- differential
#: Pieces of Radlands expressions: collections, what changes with the item, what does not
#: (some of which fail: a pile is not a number), and definitions of the ruleset.
_COLLECTIONS = ["you.hand", "you.people", "opponent.people", "you.camps", "[1, 2, 3]", "[]"]
_ITEM_TERMS = ["it.cost", "it.col", "it", "col_count(you, it.col)", "count(it.hand)"]
_FIXED_TERMS = [
    "you.water", "count(you.hand)", "count(opponent.people where it.cost > 1)",
    "first(you.people).cost", "you.hand", "strength(opponent)", "2",
]  # fmt: skip
_OPERATORS = ["<=", "==", ">", "!=", "+ 1 >"]
#: Values of other sorts than the terms, for ``empty()``: a text of one character, nothing,
#: a definition (its copies).
_ODD_VALUES = ['"a"', "none", "kundschafter"]


@st.composite
def _conditions(draw: st.DrawFn, depth: int = 0) -> str:
    """A condition of a ``where``: comparisons of item and fixed terms, and/or/not, and at
    depth 0 a nested ``where`` whose condition may read the outer item through a define."""
    left = draw(st.sampled_from(_ITEM_TERMS + _FIXED_TERMS))
    right = draw(st.sampled_from(_ITEM_TERMS + _FIXED_TERMS))
    atom = f"{left} {draw(st.sampled_from(_OPERATORS))} {right}"
    shape = draw(st.integers(0, 5 if depth == 0 else 2))
    if shape == 1:
        return f"{atom} and {draw(_conditions(depth + 1))}"
    if shape == 2:
        return f"not ({atom}) or {draw(_conditions(depth + 1))}"
    if shape == 3:
        inner = draw(_conditions(depth + 1))
        # (> 1, not > 0: a count against 0 stops at the first item kept, where the closures
        # would still weigh, and perhaps fail on, the items after it)
        return f"count({draw(st.sampled_from(_COLLECTIONS))} where {inner}) > 1 and {atom}"
    if shape == 4:
        return f"any(you.camps where col_count(opponent, it.col) >= count(you.hand)) or {atom}"
    if shape == 5:
        odd = draw(st.booleans())
        value = draw(st.sampled_from(_ODD_VALUES if odd else _ITEM_TERMS + _FIXED_TERMS))
        return f"empty({value}) or {atom}"
    return atom


@st.composite
def _wheres(draw: st.DrawFn) -> str:
    where = f"{draw(st.sampled_from(_COLLECTIONS))} where {draw(_conditions())}"
    form = draw(st.sampled_from(["{}", "count({})", "any({})", "count({}) == 0"]))
    return form.format(where)


@functools.cache
def _radlands_positions() -> list[rulecraft.Game]:
    return positions("radlands", games=2, every=12)


def _outcomes(games: list[rulecraft.Game], fn: Any) -> list[Any]:
    """``fn``'s value (or its error's text) in each game, for each seat."""
    out: list[Any] = []
    for game in games:
        ctx = game._ctx()
        for seat in (0, 1):
            ctx.loc = {"you": E.player(seat), "this": None}
            try:
                out.append(E.evaluate(ctx, fn))
            except rulecraft.RuleError as e:
                out.append(("error", str(e)))
    return out


@settings(max_examples=60, deadline=None)
@given(_wheres())
def test_a_generated_where_gives_what_its_closures_give_value_and_error(text: str) -> None:
    """Random ``where``s of Radlands (parts that change with the item and parts that do
    not, some failing, nested ones reading the outer item through a define): the generated
    code, with its parts worked out once and its ``any`` stopping early, gives the value
    the closures give, or fails with the same error, in every position."""
    games = _radlands_positions()
    ruleset = games[0].ruleset
    assert ruleset.compile_expression is not None
    generated = ruleset.compile_expression(ruleset.program, text)
    with mock.patch.object(codegen, "plan", lambda *args: None):
        closures = ruleset.compile_expression(ruleset.program, text)
    assert codegen.source_of(closures) is None
    got, want = _outcomes(games, generated), _outcomes(games, closures)
    if text.startswith("any(") or text.endswith("== 0"):
        # stopping at the first item kept, it never weighs the items after it: where the
        # closures fail on one of those, the generated code has its answer already
        want = [g if isinstance(w, tuple) and not isinstance(g, tuple) else w
                for g, w in zip(got, want, strict=True)]  # fmt: skip
    assert got == want, text


#: Values of every sort ``empty`` may be asked about in Radlands: a text of one character
#: and of none, nothing, a definition (its copies), a seat's zones, a card, lists.
EMPTINESS = ['"a"', '""', "none", "kundschafter", "you.hand", "you.camps", "[]", "[1]"]


@pytest.mark.parametrize("value", EMPTINESS)
def test_empty_says_what_count_says_generated_or_not(value: str) -> None:
    """``empty(C)`` is ``count(C) == 0`` (docs/language.md: "`any(C)`, `empty(C)` | is the
    collection non-empty / empty") for every sort of value, in the generated code (long
    enough to be generated), in the closures, and in a ``where``; compiling it raises no
    Python warning.  Found reading the code: the generated test read a text's second
    character (``empty("a")`` failed with IndexError), and both compilers read a pile
    named like a definition, which no pile is (``empty(kundschafter)`` held while
    ``count(kundschafter)`` was 4)."""
    ruleset = rulecraft.load("radlands")
    assert ruleset.compile_expression is not None
    games = _radlands_positions()
    want = _outcomes(games, ruleset.compile_expression(ruleset.program, f"count({value}) == 0"))
    texts = [f"empty({value}) and 1 == 1 and 2 == 2", f"count([0] where empty({value})) == 1"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # `None[1]` in generated source warns as it compiles
        generated = [ruleset.compile_expression(ruleset.program, t) for t in texts]
    assert codegen.source_of(generated[0]) is not None
    with mock.patch.object(codegen, "plan", lambda *args: None):
        closures = [ruleset.compile_expression(ruleset.program, t) for t in texts]
    for fn in generated + closures:
        assert _outcomes(games, fn) == want
