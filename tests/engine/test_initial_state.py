"""A new game keeps its seed, not a copy of its start: undo and saves make the start again
from the seed when they need it (game.Game._initial_state).  A copy held for the whole
game was a thousand containers the garbage collector walked again and again (13% of
Waste Knights' random games, 5% without it)."""

from __future__ import annotations

import gc
import random

import pytest

import rulecraft
from rulecraft.runtime.state import canonical_json


def _played(name: str, seed: int, moves: int) -> rulecraft.Game:
    game = rulecraft.load(name).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.result is not None:
            break
        game.choose(rng.choice(game.legal_ids()))
    return game


# wasteland_express deals its map tiles from the seed before setup runs
@pytest.mark.parametrize("name", ["radlands", "wasteland_express"])
def test_the_start_made_again_is_the_start_the_game_had(name: str) -> None:
    game = _played(name, seed=5, moves=25)
    fresh = rulecraft.load(name).new_game(seed=5)
    assert game.can_undo
    saved = game.to_json()["initial"]
    assert canonical_json(saved) == canonical_json(fresh.to_json()["initial"])
    game.undo(len(game.record.choices))
    assert canonical_json(game.state) == canonical_json(fresh.state)


def test_a_save_of_a_new_game_loads_and_replays() -> None:
    game = _played("waste_knights", seed=3, moves=30)
    loaded = rulecraft.Game.from_json(game.ruleset, game.to_json())
    assert loaded.state_hash() == game.state_hash()
    assert loaded.record.choices == game.record.choices


def test_a_clone_still_keeps_no_history() -> None:
    copy = _played("radlands", seed=2, moves=5).clone()
    assert not copy.can_undo
    with pytest.raises(ValueError, match="keeps no history"):
        copy.undo()


def test_a_new_game_holds_about_one_state_of_containers() -> None:
    ruleset = rulecraft.load("waste_knights")
    ruleset.new_game(seed=0)  # (whatever is made once per ruleset, made before counting)
    gc.collect()
    before = len(gc.get_objects())
    game = ruleset.new_game(seed=1)
    gc.collect()
    added = len(gc.get_objects()) - before
    # (the collector walks only tracked containers: not a dict of numbers and texts)
    one_state = sum(1 for c in _containers(game.state) if gc.is_tracked(c))
    # with a copy of the start the game held two states' worth (1,491 against 650)
    assert added < 1.5 * one_state, (added, one_state)


def _containers(value: object) -> list[object]:
    out: list[object] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            out.append(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            out.append(v)
            stack.extend(v)
    return out


@pytest.mark.parametrize("name", ["waste_knights", "radlands"])
def test_games_played_leave_the_next_start_as_it_was(name: str) -> None:
    # engine.new_state copies a start kept per number of players (Program.start_states):
    # a game must never write into it
    ruleset = rulecraft.load(name)
    first = canonical_json(ruleset.new_game(seed=4).state)
    for seed in range(3):
        _played(name, seed=seed, moves=400)
    assert canonical_json(ruleset.new_game(seed=4).state) == first


def test_the_kept_start_takes_each_game_s_seed_language_and_players() -> None:
    from rulecraft.runtime import engine as E

    program = rulecraft.load("waste_knights").program
    for players, seed, lang in [(1, 7, ""), (2, 7, "de"), (1, 2**70 + 3, "")]:
        made = E.new_state(program, players, seed, lang)
        assert made["players"] == players and made["lang"] == lang
        assert made["rng"] == [seed & ((1 << 64) - 1), 0]
        assert len(made["res"]) == players
        # (as the engine changes a component's flags: by replacing them, since clones and
        # the kept start share them; see clone_state)
        scratched = made["comps"][next(iter(made["comps"]))]
        scratched["f"] = [*scratched["f"], "scratched"]
        made["zones"][next(iter(made["zones"]))].append("x")
        again = E.new_state(program, players, seed, lang)
        assert canonical_json(again) != canonical_json(made)
        assert "scratched" not in canonical_json(again)
