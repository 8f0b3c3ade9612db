"""The engine, driven through the public API on small rulesets."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.runtime.engine import IllegalChoice

STORY = Path(__file__).parent / "fixtures" / "story"


def random_game(ruleset: rulecraft.Ruleset, seed: int, players: int = 2) -> rulecraft.Game:
    game = ruleset.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while game.result is None:
        game.choose(rng.choice(game.legal_ids()))
    return game


@pytest.fixture(scope="module")
def sparks() -> rulecraft.Ruleset:
    return rulecraft.load("sparks")


@pytest.fixture(scope="module")
def story() -> rulecraft.Ruleset:
    return rulecraft.load(STORY)


def test_random_tictactoe_outcome_rates_match_the_published_ones() -> None:
    # Random Tic-Tac-Toe ends .585 / .288 / .127 (first / second / draw); 3,000 games put
    # each rate within about 0.03 of it.
    ruleset = rulecraft.load("tictactoe")
    wins = [0, 0]
    draws = 0
    n = 3000
    start = ruleset.new_game(seed=0)
    for i in range(n):
        game = start.clone()
        rng = random.Random(i)
        while game.result is None:
            game.choose(rng.choice(game.legal_ids()))
        assert game.result is not None
        if game.result.draw:
            draws += 1
        else:
            wins[game.result.winners[0]] += 1
    assert abs(wins[0] / n - 0.585) < 0.03
    assert abs(wins[1] / n - 0.288) < 0.03
    assert abs(draws / n - 0.127) < 0.03


def test_same_seed_and_choices_give_the_same_game_bit_for_bit(sparks: rulecraft.Ruleset) -> None:
    a = random_game(sparks, seed=11)
    b = rulecraft.Game.replay(sparks, a.record)
    assert a.state_hash() == b.state_hash()
    assert a.log == b.log


def test_an_illegal_choice_is_refused_and_changes_nothing(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=2)
    before = game.state_hash()
    with pytest.raises(IllegalChoice):
        game.choose("no-such-option")
    assert game.state_hash() == before


def test_undo_returns_to_the_earlier_decision(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=4)
    first = game.state_hash()
    ids = game.decision.ids if game.decision else ()
    game.choose(ids[0])
    assert game.state_hash() != first
    game.undo()
    assert game.state_hash() == first


def test_save_and_load_round_trip_through_json(sparks: rulecraft.Ruleset, tmp_path: Path) -> None:
    game = sparks.new_game(seed=9)
    rng = random.Random(1)
    for _ in range(15):
        game.choose(rng.choice(game.legal_ids()))
    path = tmp_path / "save.json"
    game.save(path)
    loaded = rulecraft.Game.load_file(sparks, path)
    assert loaded.state_hash() == game.state_hash()
    # both continue identically
    choice = game.legal_ids()[0]
    game.choose(choice)
    loaded.choose(choice)
    assert loaded.state_hash() == game.state_hash()


def test_a_corrupted_save_is_refused_with_a_reason(sparks: rulecraft.Ruleset) -> None:
    data = sparks.new_game(seed=1).to_json()
    data["state"]["stack"] = [["x", 0, {}]]
    with pytest.raises(ValueError, match="stack"):
        rulecraft.Game.from_json(sparks, json.loads(json.dumps(data)))
    data = sparks.new_game(seed=1).to_json()
    data["state"]["comps"]["phoenix#1"]["d"] = "dragon"
    with pytest.raises(ValueError, match="dragon"):
        rulecraft.Game.from_json(sparks, data)


def test_a_view_never_shows_another_seats_hand(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=3)
    st = game.state
    their_hand = st["zones"]["z:hand@1"]
    assert their_hand, "seat 2 holds cards"
    text = json.dumps(game.view(0))
    for cid in their_hand:
        assert cid not in text
    own = json.dumps(game.view(1))
    assert all(cid in own for cid in their_hand)
    # the deck is hidden from everybody
    for cid in st["zones"]["z:deck"]:
        assert cid not in text and cid not in own


def test_the_log_tells_each_seat_only_its_own_draws(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=5)
    names = {game.state["comps"][c]["d"] for c in game.state["zones"]["z:hand@1"]}
    seat0 = "\n".join(game.log_for(0))
    assert "Player 2 draws a card" in seat0
    for line in game.log_for(0):
        if line.startswith("Player 2 draws"):
            assert line == "Player 2 draws a card"
    seat1 = "\n".join(game.log_for(1))
    assert "Player 2 draws a card" not in seat1
    assert names


def test_decision_options_do_not_name_hidden_cards(sparks: rulecraft.Ruleset) -> None:
    # Whoever decides sees only what they may see in option ids and labels.
    for seed in range(20):
        game = sparks.new_game(seed=seed)
        rng = random.Random(seed)
        while game.result is None and game.decision is not None:
            d = game.decision
            seat = d.seat
            hidden = [
                cid
                for cid, comp in game.state["comps"].items()
                if comp["z"] in ("z:deck",)
                or (comp["z"].startswith("z:hand@") and comp["z"] != f"z:hand@{seat}")
            ]
            text = json.dumps([[o.id, o.label] for o in d.options])
            assert not any(cid in text for cid in hidden)
            game.choose(rng.choice(game.legal_ids()))


def test_a_trigger_fires_when_its_card_enters_play(sparks: rulecraft.Ruleset) -> None:
    # Spark Imp: "When it enters your board: draw a card."
    for seed in range(40):
        game = sparks.new_game(seed=seed)
        seat = game.decision.seat if game.decision else 0
        imp = next(
            (c for c in game.state["zones"][f"z:hand@{seat}"] if c.startswith("spark_imp")), None
        )
        if imp is None:
            continue
        hand_before = len(game.state["zones"][f"z:hand@{seat}"])
        game.choose(f"act:play_creature:{imp}")
        assert imp in game.state["zones"][f"z:board@{seat}"]
        # played one card (-1), drew one (+1)
        assert len(game.state["zones"][f"z:hand@{seat}"]) == hand_before
        assert any("draws" in line for line in game.log_for(seat)[-2:])
        return
    pytest.fail("no seed dealt a Spark Imp")


def test_a_before_trigger_prevents_part_of_a_loss(sparks: rulecraft.Ruleset) -> None:
    # Ash Guard: "Whenever you would lose points, lose 1 fewer."
    game = sparks.new_game(seed=1)
    drain = "drain#1"
    seat = game.decision.seat if game.decision else 0
    # the menu asks again, with the card now in hand
    game.arrange(
        zones={"board": {1: ["ash_guard#1"]}, "hand": {seat: [drain]}},
        players={1: {"resources": {"points": 5}}},
    )
    assert game.evaluate_expr("you.points", 1) == 5
    assert game.decision is not None
    game.choose(f"act:cast_spell:{drain}")
    if game.decision and game.decision.kind == "choose":
        game.choose("@1")
    assert game.evaluate_expr("you.points", 1) == 4  # 2 lost, 1 prevented


def test_once_per_turn_abilities_are_offered_once(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=2)
    seat = game.decision.seat if game.decision else 0
    golem = "ember_golem#1"
    game.arrange(zones={"board": {seat: [golem]}})
    ability = f"ab:{golem}:0"
    assert ability in game.legal_ids()
    game.choose(ability)
    assert game.state["comps"][golem]["c"] == {"charge": 1}
    assert ability not in game.legal_ids()


def test_clone_is_independent(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=8)
    copy = game.clone()
    before = game.state_hash()
    rng = random.Random(0)
    for _ in range(10):
        if copy.result is None:
            copy.choose(rng.choice(copy.legal_ids()))
    assert game.state_hash() == before


def test_determinize_keeps_what_the_seat_sees(sparks: rulecraft.Ruleset) -> None:
    game = sparks.new_game(seed=6)
    other = game.determinize(0, seed=99)
    assert other.view(0)["zones"] == game.view(0)["zones"]
    hidden_before = game.state["zones"]["z:hand@1"]
    hidden_after = other.state["zones"]["z:hand@1"]
    assert len(hidden_before) == len(hidden_after)


def test_determinize_deals_the_position_it_is_asked_at(sparks: rulecraft.Ruleset) -> None:
    # determinize keeps its plan of the hidden cards while the position stands (a search
    # deals one position many times); a move, or another seat, must not reuse it.
    game = sparks.new_game(seed=6)
    first = game.determinize(0, seed=5).state_hash()
    assert game.determinize(0, seed=5).state_hash() == first
    rng = random.Random(2)
    choices = []
    for _ in range(6):
        choices.append(rng.choice(game.legal_ids()))
        game.choose(choices[-1])
    fresh = sparks.new_game(seed=6)
    for choice in choices:
        fresh.choose(choice)
    for seat in (0, 1, 0):
        dealt = game.determinize(seat, seed=5)
        assert dealt.state_hash() == fresh.clone().determinize(seat, seed=5).state_hash()
        assert dealt.view(seat)["zones"] == game.view(seat)["zones"]


def test_story_entries_tests_and_the_worst_for_the_players_policy(story: rulecraft.Ruleset) -> None:
    game = story.new_game(players=1, seed=3)
    game.choose("act:explore")
    assert game.decision is not None
    assert [o.label for o in game.decision.options] == ["Force it open", "Drive around"]
    game.choose("opt1")
    odds = game.odds()
    assert odds is not None and "23/72" in odds  # exact P(pass) of might (2) with 2 white + 1 red
    game.choose("roll")
    # seed 3 fails the test: 2 wounds, then the Ambush, where the rules pick the option
    # worst for the players ("take a wound" costs 1 on the evaluation; losing fuel costs 0)
    assert game.state["res"][0]["wounds"] == 3
    assert "Chosen: Take a wound" in game.log


def test_a_choice_unavailable_when_its_condition_fails(story: rulecraft.Ruleset) -> None:
    game = story.new_game(players=1, seed=1)
    game.state["res"][0]["fuel"] = 0
    game.choose("act:explore")
    # only one choice is left, so the entry takes it without asking
    assert game.decision is not None
    assert game.decision.kind == "roll"


def test_a_game_with_no_legal_move_fails_loudly_instead_of_spinning(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(
        "rulecraft: 1\nname: stuck\nplayers: {min: 1, max: 1}\n"
        "flow:\n  phases:\n    - name: p\n      actions: [act]\n      mandatory: true\n",
        encoding="utf-8",
    )
    (tmp_path / "rules.rcl").write_text('action act "Act" if false:\n    say "x"\n', "utf-8")
    ruleset = rulecraft.load(tmp_path)
    with pytest.raises(rulecraft.runtime.engine.RuleError, match="loop"):
        ruleset.new_game(players=1)


def test_a_failing_elif_condition_names_its_own_line(tmp_path: Path) -> None:
    # Brief, design rule 6: "a rule failing at run time names its .rcl file, line and
    # column".  The elif's condition (line 4) fails; the error used to name the if (line 2).
    (tmp_path / "ruleset.yaml").write_text(
        "rulecraft: 1\nname: elifspan\nplayers: {min: 1, max: 1}\n"
        "flow:\n  phases:\n    - name: p\n      actions: [act]\n",
        encoding="utf-8",
    )
    (tmp_path / "rules.rcl").write_text(
        'action act "Act":\n    if round > 5:\n        say "late"\n'
        '    elif round - "a" > 1:\n        say "early"\n    win\n',
        encoding="utf-8",
    )
    game = rulecraft.load(tmp_path).new_game(players=1)
    with pytest.raises(rulecraft.RuleError) as failure:
        game.choose("act:act")
    span = failure.value.span
    assert span is not None
    assert (span.file.endswith("rules.rcl"), span.line, span.column) == (True, 4, 10)
