"""Legal options and ``in_a_row`` kept up to date as pieces move (runtime/incremental.py).

Issue 11: "legal actions [...] maintained as cards move (invalidated by the moves that
matter) [...] ``in_a_row`` and similar map queries near the last move".  What is kept up to
date must always be what listing from scratch gives: along random games, after arranged
positions, after a piece changes owner, and on a clone.  No timings here (bench/).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile import incremental as compiled_side
from rulecraft.compile.load import bundled_names, bundled_root
from rulecraft.compile.names import compiler_for
from rulecraft.compile.scope import Scope
from rulecraft.language.parser import parse_expression
from rulecraft.runtime import engine as E
from rulecraft.runtime import incremental
from rulecraft.runtime import map as spatial
from rulecraft.runtime.builtins import get_field
from rulecraft.runtime.program import KeptSpaces


def fresh_owned(game: rulecraft.Game) -> list[int]:
    """Each seat's spaces worked out from scratch, on a context that remembers nothing."""
    mp = game.program.map
    assert mp is not None
    ctx = E.Ctx(game.program, game.state)
    return incremental.owned_spaces(ctx, mp)


def check_position(game: rulecraft.Game) -> None:
    ctx = game._ctx()
    zones = game.state["zones"]
    for kept in game.program.kept_wheres:  # the actions' and the expressions' alike
        listed = [space for space in kept.spaces if kept.test(zones, space)]
        assert incremental.kept_spaces(ctx, kept) == listed
    for action in game.program.actions.values():
        if action.kept is not None:  # what its menu lists, from a context that remembers
            assert action.for_collection is not None  # nothing: every space tested
            fresh = E.as_list(ctx, action.for_collection(E.Ctx(game.program, game.state)))
            assert incremental.kept_spaces(ctx, action.kept) == fresh
    mp = game.program.map
    if mp is not None and ctx.owned is not None:
        assert incremental.owned_spaces(ctx, mp) == fresh_owned(game)
        for seat in range(game.num_players):
            for n in (1, 2, 3, 4):
                assert spatial.in_a_row(ctx, [E.player(seat), n]) == spatial._in_a_row_walking(
                    ctx, mp, seat, n
                )


def with_kept_actions() -> list[str]:
    """Every bundled ruleset with a ``where`` kept up to date (a new one is tested too)."""
    return [name for name in bundled_names() if rulecraft.load(name).program.kept_wheres]


def test_the_board_games_keep_their_spaces() -> None:
    assert {"tictactoe", "connect4"} <= set(with_kept_actions())


def test_a_where_read_by_an_action_and_a_condition_is_kept_once() -> None:
    """Tic-Tac-Toe's menu lists ``spaces where empty(it)`` and its tie asks whether
    ``count(spaces where empty(it)) == 0``: one mask serves both (what the tie's code
    reads: tests/cli/test_compile_cmd.py)."""
    program = rulecraft.load("tictactoe").program
    (kept,) = program.kept_wheres
    assert program.actions["place"].kept is kept
    # empty(it) itself: the engine reads the pile in place instead of calling the test
    assert kept.empty_only
    open_spaces = rulecraft.load("connect4").program.actions["drop"].kept
    assert open_spaces is not None and not open_spaces.empty_only


@pytest.mark.parametrize("name", with_kept_actions())
def test_kept_options_are_what_listing_from_scratch_gives(name: str) -> None:
    ruleset = rulecraft.load(name)
    for seed in range(25):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        copy = None
        while game.result is None:
            check_position(game)
            if copy is not None:
                check_position(copy)  # the clone one decision back: the moves since are not its
            copy = game.clone()  # takes what the game remembers, then goes its own way
            check_position(copy)
            check_position(game.determinize(seed % 2, seed))
            game.choose(rng.choice(game.legal_ids()))
        check_position(game)


def test_an_arranged_position_is_not_read_from_what_was_remembered() -> None:
    game = rulecraft.load("connect4").new_game(seed=0)
    for option in ("act:drop:a6", "act:drop:b6", "act:drop:a5"):
        game.choose(option)
    check_position(game)  # a1 .. g6 remembered, and each seat's spaces
    # seat 1's disc on b6 becomes seat 0's: a5 a6 b6 are seat 0's now, seat 1 has none
    game.arrange(cards={"disc#22": {"owner": 0}})
    check_position(game)
    owned = incremental.owned_spaces(game._ctx(), game.program.map)  # type: ignore[arg-type]
    assert owned == fresh_owned(game)
    assert not spatial.in_a_row(game._ctx(), ["@1", 1])
    game.arrange(zones={"supply": {0: [f"disc#{i}" for i in range(1, 22)]}})
    # every disc of seat 0 is back in its supply: a6, a5 are empty again
    assert "act:drop:a6" in game.legal_ids() and "act:drop:a5" not in game.legal_ids()
    check_position(game)


STEAL = """
action steal "Steal a mark" for space in spaces where not empty(it):
    set first(space.pieces).owner to you
"""


def test_a_mark_that_changes_owner_changes_the_rows(tmp_path: Path) -> None:
    """``set c.owner to p`` changes whose spaces are whose (instructions.set_field notes
    the piece's pile): Tic-Tac-Toe with an action that takes over a mark on the board."""
    source = bundled_root() / "tictactoe"
    shutil.copytree(source, tmp_path / "steal")
    manifest = (tmp_path / "steal" / "ruleset.yaml").read_text()
    manifest = manifest.replace("actions: [place]", "actions: [place, steal]")
    manifest = manifest.replace("max_decisions: 9", "max_decisions: 30")
    (tmp_path / "steal" / "ruleset.yaml").write_text(manifest)
    with (tmp_path / "steal" / "rules.rcl").open("a") as rules:
        rules.write(STEAL)
    ruleset = rulecraft.load(tmp_path / "steal")
    stolen = 0
    for seed in range(20):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        while game.result is None:
            check_position(game)
            choice = rng.choice(game.legal_ids())
            stolen += choice.startswith("act:steal")
            game.choose(choice)
    assert stolen > 20


def planned_tic_tac_toe(tmp_path: Path) -> rulecraft.Game:
    """A new game of Tic-Tac-Toe with its turn played as a plan of up to two marks."""
    shutil.copytree(bundled_root() / "tictactoe", tmp_path / "plan")
    manifest = (tmp_path / "plan" / "ruleset.yaml").read_text()
    manifest = manifest.replace("max: 1\n      mandatory: true", "max: 2\n      plan: true")
    manifest = manifest.replace("max_decisions: 9", "max_decisions: 60")
    (tmp_path / "plan" / "ruleset.yaml").write_text(manifest)
    game = rulecraft.load(tmp_path / "plan").new_game(seed=0)
    return game


def test_a_plan_reset_puts_the_spaces_back(tmp_path: Path) -> None:
    """A plan's reset (runtime/plan.py) puts the whole state back in place, not through
    moves: what was remembered is forgotten.  Tic-Tac-Toe with its turn played as a plan of
    up to two marks."""
    game = planned_tic_tac_toe(tmp_path)
    game.choose("act:place:a1")
    game.choose("act:place:b1")
    check_position(game)
    assert "act:place:a1" not in game.legal_ids()
    game.choose("plan:reset")
    assert "act:place:a1" in game.legal_ids() and "act:place:b1" in game.legal_ids()
    check_position(game)


def test_a_plan_reset_leaves_the_context_reading_the_restored_cards(tmp_path: Path) -> None:
    """The context reads cards through ``Ctx.comps`` and piles through ``Ctx.zones``, the
    state's own tables: a plan's reset refills them in place (it once put a new cards'
    table in the state, and the rules went on reading the cards of before the reset:
    Knight Moves' record hashes changed)."""
    game = planned_tic_tac_toe(tmp_path)
    game.choose("act:place:a1")
    (mark,) = game.state["zones"]["s:a1"]
    game.choose("plan:reset")
    ctx = game._ctx()
    assert ctx.comps is game.state["comps"] and ctx.zones is game.state["zones"]
    assert get_field(ctx, mark, "zone") == "z:supply@0" and not game.state["zones"]["s:a1"]
    assert not ctx.zones["s:a1"] and mark in ctx.zones["z:supply@0"]


def kept(name: str, text: str) -> KeptSpaces | None:
    program = rulecraft.load(name).program
    tree, problems = parse_expression(text, "<test>")
    assert tree is not None and not problems
    return compiled_side.kept_spaces(compiler_for(program.names), tree, Scope({"you"}))


@pytest.mark.parametrize(
    "text",
    [
        "spaces where empty(it)",
        "spaces where open(it)",
        "spaces where open(it) and it.x > 2",
        "spaces where not empty(space_at(6 - it.x, 5 - it.y)) or it.y == 0",
        "spaces where (it.x > 2) == empty(it)",
    ],
)
def test_what_reads_only_piles_fixed_by_the_space_is_kept(text: str) -> None:
    found = kept("connect4", text)
    assert found is not None
    # every pile a test reads is a space's, and every space is watched by some pile
    assert all(pile.startswith("s:") for pile in found.watchers)


@pytest.mark.parametrize(
    "text",
    [
        "spaces where empty(it) and count(you.supply) > 3",  # a player's zone
        "spaces where empty(it) and in_a_row(you, 2)",  # a built-in of the game
        "spaces where count(it) < 1",  # a helper call: not proved
        "spaces where empty(it) and game.round > 2",  # the game's round
        "you.supply where it.owner == you",  # not the map's spaces
    ],
)
def test_what_reads_anything_else_is_listed_from_scratch(text: str) -> None:
    assert kept("connect4", text) is None


def test_connect_four_watches_the_space_and_the_one_below() -> None:
    drop = rulecraft.load("connect4").program.actions["drop"].kept
    assert drop is not None
    index = {space: i for i, space in enumerate(drop.spaces)}
    # a disc dropped into c3 tests c3 again (no longer empty) and c2 above it (now open)
    assert drop.watchers["s:c3"] == tuple(sorted((index["s:c2"], index["s:c3"])))
    # the top row is watched by itself alone
    assert drop.watchers["s:c1"] == (index["s:c1"],)


def ability_rulesets() -> list[str]:
    """Every bundled ruleset whose cards have abilities (a new one is tested too)."""
    return [name for name in bundled_names() if rulecraft.load(name).program.abilities]


@pytest.mark.parametrize("name", ability_rulesets())
def test_the_remembered_ability_piles_list_what_a_fresh_context_lists(name: str) -> None:
    """The piles a context remembers for abilities (Ctx.ability_piles) give the options a
    context that remembers nothing gives: along random games, on clones, after a deal."""
    from rulecraft.runtime.instructions import _ability_options

    ruleset = rulecraft.load(name)
    for seed in range(4):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        for step in range(120):
            if game.result is None:
                game.choose(rng.choice(game.legal_ids()))
            for other in (game, game.clone(), game.determinize(0, step)):
                ctx = other._ctx()
                for seat in range(other.num_players):
                    fresh = E.Ctx(other.program, other.state, by_def=ctx.by_def)
                    assert _ability_options(ctx, seat) == _ability_options(fresh, seat)


def test_a_pile_made_during_the_game_is_searched_for_abilities() -> None:
    """A pile made after the context remembered the piles (move_comp makes a missing
    pile) is searched too: the remembered list is made again when the piles grow."""
    from rulecraft.runtime.instructions import _ability_options

    game = rulecraft.load("radlands").new_game(seed=1)
    rng = random.Random(1)
    while not _ability_options(game._ctx(), game.state["active"]):  # a camp's ability
        game.choose(rng.choice(game.legal_ids()))
    ctx = game._ctx()
    seat = game.state["active"]
    before = _ability_options(ctx, seat)  # remembers the piles
    camp = next(o[2][1] for o in before if o[2][1] in game.state["zones"][f"z:camps@{seat}"])
    shared = "z:camps"  # the camps zone's shared key: no pile has it yet
    assert shared not in game.state["zones"]
    E.move_comp(ctx, camp, shared)
    game.state["comps"][camp]["o"] = seat  # still the seat's camp
    after = _ability_options(ctx, seat)
    assert any(option[2][1] == camp for option in after)
    fresh = E.Ctx(game.program, game.state, by_def=ctx.by_def)
    assert after == _ability_options(fresh, seat)


@pytest.mark.parametrize("name", bundled_names())
def test_a_menu_said_distinct_has_options_of_distinct_ids(name: str) -> None:
    """A menu says its ids differ (and ``ask`` then leaves them unchecked) only when they
    do: along random games of every bundled ruleset, whenever a phase's menu is listed."""
    from rulecraft.runtime.instructions import menu_options

    rng = random.Random(11)
    said = 0
    for seed in range(3):
        game = rulecraft.load(name).new_game(seed=seed)
        for _ in range(60):
            if game.result is not None:
                break
            ctx = game._ctx()
            phase = game.state["phase"]
            if 0 <= phase < len(game.program.phases):
                options, distinct = menu_options(ctx, phase)
                if distinct:
                    said += 1
                    assert len({o[0] for o in options}) == len(options)
            game.choose(rng.choice(game.legal_ids()))
    if name in {"tictactoe", "connect4"}:  # one kept where: their menus skip the check
        assert said > 0


def test_a_menu_of_two_actions_is_not_said_distinct(tmp_path: Path) -> None:
    """Two actions' options (or one's and a pass) are checked by ``ask``: only one kept
    ``where`` makes each option once for its own space."""
    from rulecraft.runtime.instructions import menu_options

    root = tmp_path / "two"
    shutil.copytree(bundled_root() / "tictactoe", root)
    rules = root / "rules.rcl"
    rules.write_text(
        rules.read_text()
        + '\naction mark "Mark a space" for space in spaces where empty(it):\n'
        + "    move first(you.supply) to space\n"
    )
    manifest = root / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("actions: [place]", "actions: [place, mark]"))
    game = rulecraft.load(root).new_game()
    options, distinct = menu_options(game._ctx(), 0)
    assert len(options) == 18 and not distinct
    tictactoe = rulecraft.load("tictactoe").new_game()
    options, distinct = menu_options(tictactoe._ctx(), 0)
    assert len(options) == 9 and distinct


def test_many_moves_between_two_questions_forget_what_was_remembered() -> None:
    """The piles moved since the last question are noted one by one (a pile may be noted
    twice); past ``MAX_MOVED_NOTED`` of them, what is remembered is dropped and worked out
    afresh when next asked, with the same answers as listing from scratch."""
    game = rulecraft.load("tictactoe").new_game(seed=2)
    for option in ("act:place:a1", "act:place:b2", "act:place:c1"):
        game.choose(option)
    ctx = game._ctx()
    assert ctx.moved == [] and ctx.kept is not None  # caught up at the last question
    mark = game.state["zones"]["s:a1"][0]
    for i in range(incremental.MAX_MOVED_NOTED // 2):
        E.move_comp(ctx, mark, "s:a3" if i % 2 == 0 else "s:a1")
        assert ctx.moved is not None and len(ctx.moved) == 2 * (i + 1)
    E.move_comp(ctx, mark, "s:c3")
    assert ctx.moved is None and ctx.kept is None and ctx.owned is None
    check_position(game)  # a1 and a3 empty again, c3 taken: as listed from scratch
    place = game.program.actions["place"].kept
    assert place is not None
    spaces = incremental.kept_spaces(ctx, place)
    assert "s:c3" not in spaces and "s:a1" in spaces and "s:a3" in spaces
