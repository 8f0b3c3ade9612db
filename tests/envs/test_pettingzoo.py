"""The PettingZoo environment: PettingZoo's own api_test on every bundled ruleset, the
observation hides what the seat cannot see, rewards follow the result, and the action
numbering is stable and collision-free."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test
from tests.envs.bidding import write_bidding

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.envs.actions import ActionCollision, ActionIndex
from rulecraft.envs.encoding import ObservationEncoder
from rulecraft.pettingzoo import env

BUNDLED = bundled_names()
# PettingZoo warns about every dict observation with an action mask unless the env is one
# of its own classic games (a hard-coded list of names): the layout is its documented one.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
]


def test_every_bundled_ruleset_is_tested() -> None:
    assert {"tictactoe", "connect4", "sparks", "radlands", "waste_knights"} <= set(BUNDLED)


@pytest.mark.parametrize("name", BUNDLED)
def test_api_test_passes(name: str) -> None:
    # 300 cycles: every bundled game either ends or plays 300 decisions per seat
    api_test(env(name, seed=3), num_cycles=300)


def test_api_test_passes_with_more_seats() -> None:
    api_test(env("waste_knights", players=4, seed=1), num_cycles=50)


def _play_to_end(e: object, moves: list[str]) -> None:
    for option_id in moves:
        _, _, _, _, info = e.last()  # type: ignore[attr-defined]
        number = {v: k for k, v in info["actions"].items()}[option_id]
        e.step(number)  # type: ignore[attr-defined]


def test_rewards_follow_the_result() -> None:
    e = env("tictactoe", seed=1)
    e.reset()
    assert e.agent_selection == "player_1"
    # player 1 takes the a-column; player 2 plays b1, b2
    _play_to_end(e, ["act:place:a1", "act:place:b1", "act:place:a2", "act:place:b2"])
    _play_to_end(e, ["act:place:a3"])
    assert e.terminations == {"player_1": True, "player_2": True}
    assert e.rewards == {"player_1": 1.0, "player_2": -1.0}
    seen = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        seen[agent] = reward
        e.step(None)
    assert seen == {"player_1": 1.0, "player_2": -1.0}
    assert e.agents == []


def test_illegal_action_is_refused() -> None:
    e = env("tictactoe", seed=1)
    e.reset()
    mask = e.observe("player_1")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)


def test_only_the_acting_seat_has_a_mask() -> None:
    e = env("tictactoe", seed=1)
    e.reset()
    assert e.observe("player_1")["action_mask"].sum() == 9
    assert e.observe("player_2")["action_mask"].sum() == 0


def test_same_seed_same_game() -> None:
    def trace(seed: int) -> list[int]:
        e = env("sparks", seed=seed)
        e.reset()
        rng = random.Random(0)
        out = []
        for _ in e.agent_iter(60):
            obs, _, term, trunc, _ = e.last()
            action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]))
            out.append(-1 if action is None else int(action))
            e.step(action)
        return out

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)


def test_observation_hides_what_the_seat_cannot_see() -> None:
    ruleset = rulecraft.load("radlands")
    encoder = ObservationEncoder.for_ruleset(ruleset)
    game = ruleset.new_game(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        game.choose(rng.choice(game.legal_ids()))
    for seat in (0, 1):
        other = game.determinize(seat, seed=99)
        # the re-deal changed where hidden cards are ...
        assert other.state["zones"] != game.state["zones"]
        # ... and the seat's observation cannot tell
        mine = encoder.encode(game.view(seat), 0)
        assert np.array_equal(mine, encoder.encode(other.view(seat), 0))
    # while an all-seeing encoding of the same games differs (the check can fail)
    assert game.view(0) != game.view(1)


def test_observation_layout_is_documented_size() -> None:
    ruleset = rulecraft.load("tictactoe")
    encoder = ObservationEncoder.for_ruleset(ruleset)
    cuts = encoder.sections()
    assert list(cuts) == [
        "seat",
        "to_move",
        "clock",
        "phase",
        "resources",
        "globals",
        "zone_counts",
        "components",
    ]
    game = ruleset.new_game(seed=1)
    game.choose("act:place:b2")
    vector = encoder.encode(game.view(1), 1)
    # seat 2 observes, seat 2 moves, the mark on b2 is visible with its place
    assert vector[cuts["seat"]].tolist() == [0.0, 1.0]
    assert vector[cuts["to_move"]].tolist() == [0.0, 1.0]
    placed = vector[cuts["components"]].reshape(-1, 5)
    assert (placed[:, 0] == 1.0).sum() >= 1


@pytest.mark.parametrize("name", BUNDLED)
def test_action_numbers_are_stable_and_distinct(name: str) -> None:
    ruleset = rulecraft.load(name)
    index = ActionIndex.for_ruleset(ruleset)
    again = ActionIndex.for_ruleset(rulecraft.load(name))
    assert index.vocabulary == again.vocabulary
    numbers: dict[str, int] = {}
    outside: set[str] = set()
    for seed in range(8):
        game = ruleset.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            pending = game.pending_ids()
            if pending is None or game.result is not None:
                break
            legal = index.legal(pending[1])
            assert sorted(legal.values()) == sorted(pending[1])
            for number, option_id in legal.items():
                assert 0 <= number < index.size
                if number >= len(index.vocabulary):
                    outside.add(option_id)
                # one id, one number, in every decision of every game
                assert numbers.setdefault(option_id, number) == number
            game.choose(rng.choice(pending[1]))
    assert numbers
    assert len(outside) <= len(numbers) // 10  # the vocabulary covers nearly every id


def test_hashed_ids_probe_instead_of_colliding() -> None:
    index = ActionIndex("toy", ("pass",), hashed_slots=4)
    ids = ["x1", "x2", "x3", "x4"]
    legal = index.legal(ids)
    assert sorted(legal) == [1, 2, 3, 4] and sorted(legal.values()) == ids
    with pytest.raises(ActionCollision, match="more than 4 options"):
        index.legal([*ids, "x5"])
    with pytest.raises(ActionCollision, match="offered twice"):
        index.legal(["pass", "pass"])


def test_render_shows_the_deciding_seat() -> None:
    e = env("tictactoe", seed=1, render_mode="ansi")
    e.reset()
    text = e.render()
    assert text is not None
    assert "you are seat 1" in text and "act:place:b2" in text


def test_players_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="2-2 players, not 3"):
        env("tictactoe", players=3)


def test_environments_doc_sessions_run() -> None:
    """The pycon sessions of docs/environments.md are real."""
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "environments.md"
    text = page.read_text(encoding="utf-8").replace("```pycon", "").replace("```", "")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "environments.md", str(page), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


def _doc_table_rows() -> list[tuple[str, str, str]]:
    """The size table of docs/environments.md: (ruleset, actions, observation floats)."""
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "environments.md"
    text = page.read_text(encoding="utf-8")
    return re.findall(r"^\| (\w+) \| ([\d,]+) \| ([\d,]+) \|$", text, flags=re.MULTILINE)


def test_environments_doc_table_lists_rulesets() -> None:
    rows = _doc_table_rows()
    assert len(rows) >= 5
    assert {name for name, _, _ in rows} <= set(BUNDLED)


# The table's rows, not the bundled list: a new ruleset passes the environment tests
# before its row is written (the row is documentation, checked once it is there).
@pytest.mark.parametrize(("name", "actions", "floats"), _doc_table_rows())
def test_environments_doc_table_is_true(name: str, actions: str, floats: str) -> None:
    ruleset = rulecraft.load(name)
    assert f"{ActionIndex.for_ruleset(ruleset).size:,}" == actions
    assert f"{ObservationEncoder.for_ruleset(ruleset).size:,}" == floats


def test_an_action_over_numbers_is_in_the_vocabulary(tmp_path: Path) -> None:
    """An action over numbers (range(0, 8): 0 to 8, both ends) has vocabulary numbers, not
    hashed ones (a trick-taking ruleset's bids 0-8 all fell in the hashed tail)."""
    ruleset = rulecraft.load(str(write_bidding(tmp_path)))
    index = ActionIndex.for_ruleset(ruleset)
    offered = ruleset.new_game(seed=1).legal_ids()
    assert offered == [f"act:bid:{n}" for n in range(9)]
    numbers = index.legal(offered)
    assert all(number < len(index.vocabulary) for number in numbers)
    assert len(set(numbers)) == 9


def test_a_game_at_its_decision_limit_is_truncated(tmp_path: Path) -> None:
    e = env(str(write_bidding(tmp_path)), seed=2)
    e.reset()
    for _ in range(4):
        assert not any(e.truncations.values())
        _, _, _, _, info = e.last()
        e.step(next(iter(info["actions"])))
    assert e.truncations == {"player_1": True, "player_2": True}
    assert e.terminations == {"player_1": False, "player_2": False}
    assert e.rewards == {"player_1": 0.0, "player_2": 0.0}
