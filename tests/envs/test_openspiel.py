"""OpenSpiel: every bundled ruleset registers, passes pyspiel.random_sim_test, and runs
OpenSpiel's own algorithms."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from tests.envs.bidding import write_bidding

from rulecraft.compile.load import bundled_names
from rulecraft.openspiel import register

# A full random playout of the card games clones and serializes every state: one
# simulation each keeps make test fast, two for the small games.
SIMS = {"tictactoe": 3, "connect4": 2, "sparks": 2}


@pytest.mark.parametrize("name", bundled_names())
def test_random_sim_test_passes(name: str) -> None:
    game = pyspiel.load_game(register(name))
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 1), serialize=True, verbose=False)


def test_players_parameter() -> None:
    game = pyspiel.load_game(register("waste_knights"), {"players": 3, "seeds": 2})
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    assert state.current_player() in (0, 1, 2)


def test_chance_picks_the_seed_and_the_rest_is_deterministic() -> None:
    game = pyspiel.load_game(register("sparks"))
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(3)
    b.apply_action(3)
    for _ in range(20):
        if a.is_terminal():
            break
        action = a.legal_actions()[0]
        a.apply_action(action)
        b.apply_action(action)
    assert str(a) == str(b)
    assert a.information_state_string(0) == b.information_state_string(0)


def test_a_roll_is_a_chance_node_after_its_decision() -> None:
    """Issue 16: chance nodes for shuffles and dice. Dig's push rolls three dig dice: the
    push is followed by a chance node, so the state before it does not hold the roll."""
    game = pyspiel.load_game(register("dig"))
    state = game.new_initial_state()
    state.apply_action(0)  # the setup's seed
    seat = state.current_player()
    push = next(a for a in state.legal_actions() if state.action_to_string(a) == "act:push")
    before = str(state)
    state.apply_action(push)
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(n, 1 / 16) for n in range(16)]
    assert "you chose act:push; chance decides" in state.information_state_string(seat)
    assert "you chose" not in state.information_state_string(1 - seat)
    assert str(state) != before
    rolled = set()
    for outcome in range(16):
        after = state.clone()
        after.apply_action(outcome)
        again = state.clone()
        again.apply_action(outcome)
        assert str(after) == str(again)  # an outcome is one roll
        rolled.add(after.observation_string(seat))
    assert len(rolled) > 1  # the roll was not fixed before the chance node


def test_a_decision_without_randomness_has_no_chance_node() -> None:
    game = pyspiel.load_game(register("tictactoe"))
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(state.legal_actions()[0])
    assert not state.is_chance_node() and state.current_player() == 1
    assert game.max_game_length() == 2 * 9 + 1


def test_a_game_at_its_decision_limit_ends_as_a_draw(tmp_path: Path) -> None:
    game = pyspiel.load_game(register(str(write_bidding(tmp_path))))
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(4):
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_information_hides_the_other_hand() -> None:
    game = pyspiel.load_game(register("sparks"))
    state = game.new_initial_state()
    state.apply_action(0)
    # each seat's information names its own hand's cards, never the other's
    view0 = state.observation_string(0)
    view1 = state.observation_string(1)
    assert view0 != view1
    import json

    hand1 = next(z for z in json.loads(view1)["zones"] if z["key"] == "z:hand@1")
    hand0 = next(z for z in json.loads(view0)["zones"] if z["key"] == "z:hand@1")
    assert hand1["count"] == hand0["count"] > 0
    assert all("id" in card for card in hand1["cards"])
    assert all(card.get("hidden") for card in hand0["cards"])
    ids = [card["id"] for card in hand1["cards"]]
    info0 = state.information_state_string(0)
    # hidden: no id of seat 2's hand appears in seat 1's information (ids are unique,
    # 'spark_imp#1' is not found inside another id)
    assert not any(f'"{cid}"' in info0 for cid in ids)


def test_states_pickle_and_clone() -> None:
    game = pyspiel.load_game(register("radlands"))
    state = game.new_initial_state()
    state.apply_action(5)
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()  # the clone is independent
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and back.legal_actions() == state.legal_actions()


def test_observation_tensor_matches_the_encoding() -> None:
    game = pyspiel.load_game(register("tictactoe"))
    state = game.new_initial_state()
    state.apply_action(0)
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (game.observation_tensor_size(),)
    assert tensor[0] == 1.0  # seat one-hot: seat 1 observes


def test_openspiel_mcts_beats_random_at_tictactoe() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game(register("tictactoe"), {"seeds": 1})
    rng = np.random.RandomState(7)
    score = 0.0
    for g in range(6):
        mcts_seat = g % 2
        searcher = mcts.MCTSBot(game, 2, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        bots = [searcher, uniform_random.UniformRandomBot(1 - mcts_seat, rng)]
        if mcts_seat:
            bots.reverse()
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        score += returns[mcts_seat]
    # MCTS with 60 simulations never loses tic-tac-toe to a random player in practice
    assert score >= 3
