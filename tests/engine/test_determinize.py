"""``Game.determinize``: what a search deals is every hidden card of a kind shuffled among
the places cards of that kind lie, each place keeping its record (zone, owner, counters,
flags) and taking the dealt card's definition.  The engine deals in one compiled step
(``state.redeal``); the reference here deals card by card, as the docstring says."""

from __future__ import annotations

import random

import pytest

import rulecraft
from rulecraft.rng import Rng, shuffled
from rulecraft.runtime import engine as E
from rulecraft.runtime import incremental
from rulecraft.runtime.engine import visible_to
from rulecraft.runtime.game import Game
from rulecraft.runtime.state import State, clone_state, state_hash


def _dealt_by_hand(game: Game, seat: int, seed: int) -> State:
    """The state ``game.determinize(seat, seed)`` should make, worked out card by card."""
    st = game.state
    ctx = game._ctx()
    kinds: dict[str, list[str]] = {}
    for cid, comp in st["comps"].items():
        if not visible_to(ctx, cid, seat):
            kinds.setdefault(game.program.defs[comp["d"]].kind, []).append(cid)
    out = clone_state(st)
    rng = Rng(seed & ((1 << 64) - 1), 0)
    for group in kinds.values():
        if len(group) < 2:
            continue
        order, rng = shuffled(rng, group)
        for was, now in zip(group, order, strict=True):
            zone = st["comps"][was]["z"]
            pile = list(out["zones"][zone])
            pile[st["zones"][zone].index(was)] = now
            out["zones"][zone] = pile
            record = st["comps"][was].copy()
            record["d"] = st["comps"][now]["d"]
            out["comps"][now] = record
    out["rng"] = [rng.seed ^ 0x5DEECE66D, 0]
    return out


@pytest.mark.parametrize("name", ["radlands", "waste_knights", "sparks"])
def test_determinize_deals_each_kind_card_by_card_from_the_seeded_stream(name: str) -> None:
    ruleset = rulecraft.load(name)
    dealt_any = False
    for seed in range(2):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        for step in range(40):
            if game.result is not None:
                break
            if step % 8 == 0:
                for seat in range(game.num_players):
                    deal = rng.getrandbits(62)
                    dealt = game.determinize(seat, deal)
                    expected = _dealt_by_hand(game, seat, deal)
                    assert dealt.state_hash() == state_hash(expected)
                    dealt_any = dealt_any or dealt.state_hash() != game.state_hash()
            game.choose(rng.choice(game.legal_ids()))
    assert dealt_any  # some card was hidden and moved: the comparison had something to see


@pytest.mark.parametrize("name", ["radlands", "waste_knights"])
def test_a_dealt_world_offers_what_a_world_remembering_nothing_offers(name: str) -> None:
    """A determinization keeps what its context knows of the piles (which may hold cards
    with abilities) and forgets what depends on which card lies where; the menus it lists
    then are those of a twin that has forgotten everything."""
    game = rulecraft.load(name).new_game(seed=4)
    rng = random.Random(4)
    for _ in range(12):
        game.choose(rng.choice(game.legal_ids()))
    for deal in range(3):
        world = game.determinize(game.state["active"], deal)
        twin = world.clone()
        incremental.forget(twin._ctx())
        for _ in range(30):
            if world.result is not None:
                break
            assert world.legal_ids() == twin.legal_ids()
            choice = rng.choice(world.legal_ids())
            world.choose(choice)
            twin.choose(choice)
        assert world.state_hash() == twin.state_hash()


@pytest.mark.parametrize("name", ["radlands", "waste_knights", "sparks"])
def test_a_deal_leaves_every_card_its_own_definition(name: str) -> None:
    """Every game of a program shares what it learns of a component's definition
    (``Program.def_of``, read by every field a rule asks of a card): a deal moves records,
    and each card takes its own definition with the record it gets, so a component id
    names the same definition in every game and every determinization of it."""
    ruleset = rulecraft.load(name)
    game = ruleset.new_game(seed=3)
    rng = random.Random(3)
    start = {cid: comp["d"] for cid, comp in game.state["comps"].items()}
    for _ in range(30):
        if game.result is not None:
            break
        for seat in range(game.num_players):
            dealt = game.determinize(seat, rng.getrandbits(62))
            assert {cid: comp["d"] for cid, comp in dealt.state["comps"].items()} == start
            ctx = dealt._ctx()
            for cid, comp in dealt.state["comps"].items():
                assert E.definition_of(ctx, cid, comp) is ruleset.program.defs[start[cid]]
        game.choose(rng.choice(game.legal_ids()))
