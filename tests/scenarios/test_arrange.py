"""Arranged positions: ``Game.arrange`` and a scenario's ``setup:`` (issue 10: "Scenario tests
that set up a position: a `setup:` block (cards into zones in order, resources, fields and
flags, the next dice faces, the active seat and phase) and a public `Game.arrange(...)` API
doing the same; `expect_no_log`, `expect_view` for one seat")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime.game import Game, RuleError
from rulecraft.tools.scenario import Status, load_scenario

from .conftest import run_text

DICEY = Path(__file__).parent / "fixtures" / "dicey"
HEAD = "name: n\ncites: c\nstart: {players: 2, seed: 1}\n"


@pytest.fixture(scope="module")
def dicey() -> rulecraft.Ruleset:
    return rulecraft.load(DICEY)


def fresh(dicey: rulecraft.Ruleset) -> Game:
    game = dicey.new_game(players=2, seed=1)
    assert game.decision is not None and game.decision.seat == 0
    return game


def ids(game: Game) -> list[str]:
    assert game.decision is not None
    return [o.id for o in game.decision.options]


# ---------------------------------------------------------------------------- Game.arrange
def test_cards_go_on_top_in_order_and_the_decision_asks_again(dicey: rulecraft.Ruleset) -> None:
    game = fresh(dicey)
    assert "act:show:ruby#1" not in ids(game)
    game.arrange(zones={"bag": ["opal#2", "ruby#2"], "hand": {0: ["ruby#1"]}})
    assert game.state["zones"]["z:bag"][-2:] == ["opal#2", "ruby#2"]  # the last one on top
    assert game.state["zones"]["z:hand@0"] == ["ruby#1"]  # opal#2 left the hand for the bag
    assert ids(game) == [
        "act:roll_white",
        "act:roll_d6",
        "act:roll_left",
        "act:show:ruby#1",
        "pass",
    ]


def test_a_zone_can_be_given_exactly(dicey: rulecraft.Ruleset) -> None:
    """`others_to`: the cards the zone held go there first, so it holds exactly `cards`."""
    game = fresh(dicey)
    game.arrange(zones={"bag": {"cards": ["opal#1"], "others_to": "table"}})
    assert game.state["zones"]["z:bag"] == ["opal#1"]
    assert game.state["zones"]["z:table"] == ["ruby#1", "ruby#2"]
    assert game.state["zones"]["z:hand@1"] == []  # opal#1 left Player 2's hand
    text = HEAD + (
        "setup:\n  zones: {hand: {1: {cards: [ruby#2], others_to: bag}}}\n"
        "script:\n  - expect_decision: {options_include: [act:show:ruby#2], "
        "options_exclude: [act:show:opal#2]}\n  - stop: x\n"
    )
    outcome = run_text(dicey, text)
    assert outcome.passed, outcome.message
    with pytest.raises(ValueError, match=r"zones.bag.others_to: every player has a hand"):
        game.arrange(zones={"bag": {"cards": [], "others_to": "hand"}})


def test_card_player_and_game_state(dicey: rulecraft.Ruleset) -> None:
    game = fresh(dicey)
    game.arrange(
        cards={
            "ruby#1": {"side": "cut", "flags": ["lucky"], "fields": {"shine": 2, "worth": 5}},
            "opal#1": {"owner": 0, "face_down": True},
        },
        players={1: {"resources": {"score": 4}, "fields": {"motto": "hi"}, "flags": ["lucky"]}},
        game={"resources": {"pot": 7}, "flags": ["lucky"]},
    )
    assert game.evaluate_expr("first(ruby).side", 0) == "cut"
    assert game.evaluate_expr("[first(ruby).shine, first(ruby).worth]", 0) == [2, 5]
    assert game.state["comps"]["ruby#1"]["c"] == {"shine": 2}  # a counter of its kind
    assert game.evaluate_expr("first(ruby) has lucky", 0) is True
    comp = game.state["comps"]["opal#1"]
    assert comp["o"] == 0 and comp["down"] is True
    assert game.evaluate_expr("[you.score, you has lucky]", 1) == [4, True]
    assert game.state["res"][1]["motto"] == "hi"  # a field no rule reads: kept as data
    assert game.evaluate_expr("pot", 0) == 7 and "lucky" in game.state["gflags"]
    game.arrange(cards={"ruby#1": {"flags": []}}, players={1: {"flags": []}})
    assert game.evaluate_expr("first(ruby) has lucky or (players[1] has lucky)", 0) is False


def test_the_next_dice_faces(dicey: rulecraft.Ruleset) -> None:
    """Queued faces are shown first to last by the next dice of that type; others roll."""
    game = fresh(dicey)
    game.arrange(dice={"white": [["success", "success"]], "red": ["botch"]})
    game.choose("act:roll_white")
    assert "Rolled 1 red + 1 white: 1 botch, 2 success" in game.log
    assert game.evaluate_expr("you.score", 0) == 2
    assert "next_faces" not in game.state["mem"]  # used up
    # d6: the 1 is rerolled (`reroll r where it.value == 1`) and the queue answers it too.
    game = fresh(dicey)
    game.arrange(dice={"d6": [1, 5, 6]})
    game.choose("act:roll_d6")
    assert game.evaluate_expr("you.score", 0) == 11


def test_the_active_seat_and_phase(dicey: rulecraft.Ruleset) -> None:
    """The phase starts over for the chosen seat: its start rules run (`gain 1 pot`)."""
    game = fresh(dicey)
    assert game.evaluate_expr("pot", 0) == 1
    game.arrange(active=1, phase="warm_up", players={1: {"resources": {"score": 3}}})
    assert game.decision is not None and game.decision.seat == 1
    assert game.evaluate_expr("[pot, you.score]", 1) == [2, 3]
    game.choose("pass")
    assert game.decision is not None and game.decision.seat == 0  # play goes on from there


def test_a_wrong_name_changes_nothing_and_says_what_it_meant(dicey: rulecraft.Ruleset) -> None:
    game = fresh(dicey)
    before = game.state_hash()
    wrong: list[tuple[dict[str, Any], str]] = [
        ({"zones": {"bag": ["rubby#1"]}}, "no card 'rubby#1' in dicey (did you mean 'ruby#1'?)"),
        ({"zones": {"hand": ["ruby#1"]}}, "every player has a hand: say whose"),
        ({"zones": {"tabel": ["ruby#1"]}}, "did you mean 'table'?"),
        ({"cards": {"ruby#1": {"side": "polished"}}}, "no side 'polished' (sides: rough, cut)"),
        ({"cards": {"ruby#1": {"flags": ["lucy"]}}}, "no flag 'lucy' in the rules"),
        ({"players": {2: {"resources": {"score": 1}}}}, "Player 3 is not in this 2-player game"),
        ({"players": {0: {"resources": {"pot": 1}}}}, "no player resource 'pot'"),
        ({"dice": {"white": ["fate"]}}, "dice.white: no face shows 'fate'"),
        ({"dice": {"green": [1]}}, "no die 'green'"),
        ({"phase": "mian"}, "did you mean 'main'?"),
        ({"bag": ["ruby#1"]}, "unknown key 'bag'"),
        # a valid card move after a bad name: nothing moves either
        ({"zones": {"table": ["ruby#1"]}, "active": 5}, "Player 6 is not in this 2-player game"),
    ]
    for setup, message in wrong:
        with pytest.raises(ValueError, match="setup: ") as err:
            game.arrange(setup)
        assert message in str(err.value), (setup, str(err.value))
        assert game.state_hash() == before, setup


def test_not_during_the_games_own_setup_nor_after_the_end() -> None:
    radlands = rulecraft.load("radlands")
    game = radlands.new_game(players=2, seed=1)
    with pytest.raises(ValueError, match=r"still in its setup \(round 0\)"):
        game.arrange(active=1)
    ttt = rulecraft.load("tictactoe").new_game(seed=1)
    for cell in ("a1", "a2", "b1", "b2", "c1"):
        ttt.choose(f"act:place:{cell}")
    with pytest.raises(ValueError, match="the game is over"):
        ttt.arrange(zones={"c3": ["mark#9"]})


def test_undo_goes_back_to_the_arranged_position(dicey: rulecraft.Ruleset) -> None:
    game = fresh(dicey)
    game.choose("pass")
    game.arrange(zones={"table": ["ruby#1"]})
    arranged = game.state_hash()
    assert not game.can_undo
    game.choose("pass")
    game.undo()
    assert game.state_hash() == arranged


def test_an_arrangement_survives_a_save(dicey: rulecraft.Ruleset) -> None:
    """Queued faces are plain data in the state: a saved game keeps them."""
    game = fresh(dicey)
    game.arrange(dice={"white": ["botch"], "red": ["fate"]})
    loaded = Game.from_json(dicey, game.to_json())
    loaded.choose("act:roll_white")
    assert "Rolled 1 red + 1 white: 1 botch, 1 fate" in loaded.log


# ---------------------------------------------------------------------------- scenarios
def test_a_setup_block_counts_seats_from_one(dicey: rulecraft.Ruleset) -> None:
    text = HEAD + (
        "setup:\n"
        "  zones: {hand: {2: [ruby#1]}}\n"
        "  players: {2: {resources: {score: 5}}}\n"
        "  dice: {white: [success], red: [[success, success]]}\n"
        "script:\n"
        "  - {expect: 'you.score == 5 and count(you.hand) == 2', as: 2}\n"
        "  - choose: act:roll_white\n"
        "  - {expect: 'you.score == 3', as: 1}\n"
        "  - expect_no_log: botch\n"
        "  - stop: the roll is under test\n"
    )
    outcome = run_text(dicey, text)
    assert outcome.passed, outcome.message
    assert outcome.steps_run == 6  # the setup counts as a step


def test_a_setup_line_arranges_mid_script(dicey: rulecraft.Ruleset) -> None:
    text = HEAD + (
        "script:\n"
        "  - choose: pass\n"
        "  - setup: {active: 1, phase: main, dice: {red: [fate]}}\n"
        "  - expect_decision: {seat: 1, prompt: Roll}\n"
        "  - stop: arranged\n"
    )
    outcome = run_text(dicey, text)
    assert outcome.passed, outcome.message


def test_a_bad_setup_fails_at_its_line(dicey: rulecraft.Ruleset) -> None:
    text = HEAD + "setup:\n  cards: {ruby#1: {side: polished}}\nscript:\n  - stop: x\n"
    outcome = run_text(dicey, text)
    assert outcome.status == Status.FAILED
    assert outcome.step.startswith("setup step 1 (setup:")
    assert outcome.span is not None and outcome.span.line == 4
    assert "no side 'polished'" in outcome.message


def test_expect_no_log(dicey: rulecraft.Ruleset) -> None:
    text = HEAD + "script:\n  - expect_no_log: draws Ruby\n  - stop: x\n"
    assert run_text(dicey, text).passed
    failed = run_text(dicey, text.replace("Ruby", "Opal"))
    assert failed.message == "'draws Opal' is in the log: 'Player 1 draws Opal'"
    # as a seat: Player 2 read only "Player 1 draws a card"
    assert run_text(
        dicey,
        text.replace("expect_no_log: draws Ruby", "{expect_no_log: Player 1 draws Opal, as: 2}"),
    ).passed


def test_expect_view_shows_and_hides(dicey: rulecraft.Ruleset) -> None:
    """'hidden information is real': a card in Player 1's hand is nowhere Player 2 reads."""
    hides = HEAD + (
        "setup:\n  zones: {hand: {1: [ruby#1]}}\n"
        "script:\n"
        "  - {expect_view: {shows: [ruby#1, Ruby], hides: [opal#1]}, as: 1}\n"
        "  - {expect_view: {hides: [ruby#1, Ruby, opal#2]}, as: 2}\n"
        "  - stop: x\n"
    )
    outcome = run_text(dicey, hides)
    assert outcome.passed, outcome.message
    # Player 1 is asked: its own options name the card; on the table everybody sees it.
    asked = hides.replace("as: 2}", "as: 2}\n  - {expect_view: {hides: [Ruby]}, as: 1}")
    failed = run_text(dicey, asked)
    assert failed.message.startswith("Player 1 can read 'Ruby' in its view: ")
    shown = hides.replace("hand: {1: [ruby#1]}", "table: [ruby#1]")
    failed = run_text(dicey, shown)
    assert failed.message.startswith("Player 2 can read 'ruby#1' in its view: ")
    missing = hides.replace("shows: [ruby#1, Ruby]", "shows: [ruby#2]")
    assert run_text(dicey, missing).message == "Player 1's view does not show ruby#2"


def test_expect_view_reads_the_seats_log_and_decision(dicey: rulecraft.Ruleset) -> None:
    text = HEAD + "script:\n  - {expect_view: {hides: [Opal]}, as: 1}\n  - stop: x\n"
    failed = run_text(dicey, text)  # its own hand: the view, the log and the options name it
    assert failed.message.startswith("Player 1 can read 'Opal' in its view")
    text = HEAD + (
        "setup:\n  zones: {bag: [opal#2]}\n"
        "script:\n  - {expect_view: {hides: [Opal]}, as: 1}\n  - stop: x\n"
    )
    failed = run_text(dicey, text)  # the card went back to the bag, but the log remembers
    assert failed.message.startswith("Player 1 can read 'Opal' in its log: Player 1 draws Opal")


@pytest.mark.parametrize(
    ("line", "what"),
    [
        # issue 17: `expect_decision: {options_include: []}` passed silently
        ("expect_decision: {options_include: []}", "an empty `options_include`"),
        ("expect_decision: {seat: 1, options_exclude: []}", "an empty `options_exclude`"),
        ("{expect_view: {shows: []}, as: 1}", "an empty `shows`"),
        ("{expect_view: {hides: []}, as: 1}", "an empty `hides`"),
    ],
)
def test_an_empty_check_is_refused(line: str, what: str) -> None:
    scenario, problems = load_scenario(f"name: n\ncites: c\nscript:\n  - {line}\n", "s.yaml")
    assert scenario is None
    (problem,) = problems
    assert problem.code == "RCT04" and problem.span.line == 4
    assert f"{what} checks nothing" in problem.message


def test_an_empty_reason_and_an_unseated_view_are_refused() -> None:
    text = "name: n\ncites: c\nscript: []\nafter:\n  - expect_result: {reason: ''}\n"
    (problem,) = load_scenario(text, "s.yaml")[1]
    assert problem.code == "RCT04" and "`reason`" in problem.message
    text = "name: n\ncites: c\nscript:\n  - expect_view: {hides: [a#1]}\n"
    (problem,) = load_scenario(text, "s.yaml")[1]
    assert problem.code == "RCT01" and "say whose with `as: N`" in problem.message


def test_a_pool_that_lost_every_die(dicey: rulecraft.Ruleset, tmp_path: Path) -> None:
    """Waste Knights: 'You cannot have less than 1 die in any roll. When you lose dice, and
    the effect does not state otherwise, you choose which die to lose.'  Without a declared
    floor a pool that lost every die cannot roll; `rolls: {min_dice: 1}` keeps the
    strongest die it lost (the roller's choice: red, order 2, over white)."""
    game = fresh(dicey)
    game.arrange(players={0: {"resources": {"lost": 2}}})
    with pytest.raises(RuleError, match="a roll needs at least one die"):
        game.choose("act:roll_left")
    folder = tmp_path / "dicey"
    folder.mkdir()
    (folder / "rules.rcl").write_text((DICEY / "rules.rcl").read_text())
    manifest = (DICEY / "ruleset.yaml").read_text() + "rolls: {min_dice: 1}\n"
    (folder / "ruleset.yaml").write_text(manifest)
    floored = rulecraft.load(folder).new_game(players=2, seed=1)
    floored.arrange(players={0: {"resources": {"lost": 2}}}, dice={"red": ["fate"]})
    floored.choose("act:roll_left")
    assert "Rolled 1 red: 1 fate" in floored.log
