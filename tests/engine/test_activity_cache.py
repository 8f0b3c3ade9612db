"""Which cards' text works, remembered across decisions (``Ctx.activity`` and
``Ctx.instances`` in runtime/engine.py).

Issue 11: "ability indexes maintained as cards move (invalidated by the moves that
matter)".  A card whose kind decides its activity from the card alone (its place, face and
flags) keeps its answer until the card changes (``engine.touched``).  What is remembered
must always be what working it out afresh gives: along random games of every bundled
ruleset, on clones, on determinizations and after arranged positions.  No timings here
(bench/).
"""

from __future__ import annotations

import random

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.runtime import engine as E
from rulecraft.runtime.arrange import _const
from rulecraft.runtime.instructions import _apply_flag, _set_field

#: Decisions looked at per game: enough to reach the middle game of every bundled ruleset.
DECISIONS = 250


def rule_owners(game: rulecraft.Game) -> set[str]:
    """Every definition carrying a modifier, a grant or a trigger."""
    program = game.program
    owners = {s.owner for group in program.modifiers.values() for s in group}
    owners |= {s.owner for group in program.grants.values() for s in group}
    owners |= {s.owner for group in program.triggers.values() for s in group}
    return {owner for owner in owners if owner is not None}


def check_position(game: rulecraft.Game, owners: set[str]) -> int:
    """Every component's activity and every rule owner's active instances, as the game's
    context remembers them, against a context that remembers nothing; how many
    components were remembered."""
    ctx = game._ctx()
    for cid in game.state["comps"]:
        fresh = E.Ctx(game.program, game.state, "", None, ctx.by_def)
        assert E.is_active(ctx, cid) == E._is_active(fresh, cid)[0], cid
    for owner in sorted(owners):
        fresh = E.Ctx(game.program, game.state, "", None, ctx.by_def)
        assert E._sources(ctx, owner, None) == E._active_instances(fresh, owner, None), owner
    return len(ctx.activity or {})


@pytest.mark.parametrize("name", bundled_names())
def test_remembered_activity_is_what_working_it_out_gives(name: str) -> None:
    ruleset = rulecraft.load(name)
    for seed in range(3):
        game = ruleset.new_game(seed=seed)
        owners = rule_owners(game)
        rng = random.Random(seed)
        for _ in range(DECISIONS):
            if game.result is not None:
                break
            check_position(game, owners)
            copy = game.clone()  # starts remembering afresh, then goes its own way
            check_position(copy, owners)
            check_position(game.determinize(seed % game.num_players, seed), owners)
            game.choose(rng.choice(game.legal_ids()))
            if copy.result is None:
                copy.choose(rng.choice(copy.legal_ids()))
                check_position(copy, owners)


def test_the_card_games_remember_activity() -> None:
    """Radlands' people and camps decide their activity alone (place, face, flags)."""
    game = rulecraft.load("radlands").new_game(seed=0)
    owners = rule_owners(game)
    assert check_position(game, owners) == len(game.state["comps"])
    assert game._ctx().instances, "the modifiers' and triggers' cards are remembered"


def in_play(seed: int = 0, decisions: int = 30) -> tuple[rulecraft.Game, str]:
    """A Radlands game some decisions in, and a camp whose text works."""
    game = rulecraft.load("radlands").new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        game.choose(rng.choice(game.legal_ids()))
    ctx = game._ctx()
    camp = next(c for c in game.state["comps"] if c.startswith("reaktor") and E.is_active(ctx, c))
    return game, camp


def test_a_card_set_face_down_by_a_rule_stops_working() -> None:
    """``set c.facedown to true`` (instructions.set_field) turns a card's text off at once,
    although its activity was remembered; ``set c.facedown to false`` turns it back on."""
    game, camp = in_play()
    ctx = game._ctx()
    assert ctx.activity is not None and ctx.activity[camp] is True
    _set_field(_const(camp), "facedown", _const(True))(ctx)
    assert not E.is_active(ctx, camp)
    _set_field(_const(camp), "facedown", _const(False))(ctx)
    assert E.is_active(ctx, camp)


def test_a_flag_set_by_a_rule_changes_a_remembered_activity() -> None:
    """A camp works while it is not ``destroyed`` (Radlands' kind ``camp``): the flag set
    by a rule (instructions._apply_flag) is seen by the next question."""
    game, camp = in_play()
    ctx = game._ctx()
    _apply_flag(ctx, "destroyed", camp, True)
    assert not E.is_active(ctx, camp)
    assert camp not in E._sources(ctx, "reaktor", None)
    _apply_flag(ctx, "destroyed", camp, False)
    assert E.is_active(ctx, camp) and camp in E._sources(ctx, "reaktor", None)


def test_a_card_with_traits_of_its_own_is_not_remembered() -> None:
    """A card given ``traits`` by a rule may answer its kind's condition through them, so
    its activity is worked out at each question, not remembered."""
    game, camp = in_play()
    ctx = game._ctx()
    _set_field(_const(camp), "traits", _const(["destroyed"]))(ctx)
    assert E.is_active(ctx, camp) == E._is_active(E.Ctx(game.program, game.state), camp)[0]
    assert ctx.activity is not None and camp not in ctx.activity
    assert not E._decided_alone(ctx, "reaktor")


def test_an_arranged_position_is_not_read_from_what_was_remembered() -> None:
    """``Game.arrange`` rewrites cards in place (not through the rules' statements): what
    the context remembered is forgotten, so a camp arranged ``destroyed`` stops working."""
    game, camp = in_play()
    game.arrange(cards={camp: {"flags": ["destroyed"]}})
    ctx = game._ctx()
    assert not E.is_active(ctx, camp)
    assert camp not in E._sources(ctx, "reaktor", None)
