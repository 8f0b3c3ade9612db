"""Engine behaviour that mutation testing found unguarded (issue 17: "Add mutation testing
... over the dice, view, semantic and engine modules ... goal >= 90%"; `make mutation
ARGS="engine"`): each test here kills a mutant of runtime/engine.py that survived the
engine and hidden-information suites."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulecraft
from rulecraft.errors import DUPLICATE_OPTION, RuleError
from rulecraft.runtime.game import Game

MANIFEST = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: 0}
kinds:
  gem:
    attributes: {shine: number}
zones:
  table: {visibility: public}
components:
  - {kind: gem, zone: table}
flow:
  phases:
    - name: main
      actions: [ACTIONS]
      mandatory: true
"""

GEMS = """gem ruby "Ruby":
    shine: 2 + count(this.zone.cards)

gem opal "Opal":
    copies: 2
    shine: 1
"""


def make(tmp_path: Path, actions: str, rules: str) -> rulecraft.Ruleset:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST.replace("ACTIONS", actions), encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(GEMS + rules, encoding="utf-8")
    return rulecraft.load(tmp_path)


def test_an_attribute_computed_from_this_reads_its_own_component(tmp_path: Path) -> None:
    """A component's computed attribute runs with ``this`` bound to that component (the
    mutant bound another name: `this` read nothing, and the attribute came out wrong)."""
    look = 'action look "Look":\n    gain first(table.cards where it.def == ruby).shine gold\n'
    game = make(tmp_path, "look", look).new_game(seed=1)
    assert game.evaluate_expr("count(table.cards)") == 3  # the ruby and two opals
    assert game.evaluate_expr("first(table.cards where it.def == ruby).shine") == 2 + 3
    game.choose("act:look")
    assert game.state["res"][0]["gold"] == 5


def test_a_decision_never_offers_two_options_with_one_id(tmp_path: Path) -> None:
    """docs/errors.md RC307: "A decision would offer two options with the same id" (the
    mutant forgot the ids it had seen, and the menu offered 'act:pick:2' twice)."""
    pick = 'action pick "Pick {n}" for n in [2, 3, 2]:\n    gain n gold\n'
    ruleset = make(tmp_path, "pick", pick)
    with pytest.raises(RuleError) as caught:
        ruleset.new_game(seed=1)
    assert caught.value.code == DUPLICATE_OPTION
    assert "'act:pick:2'" in str(caught.value)
    assert "ruleset.yaml:" in str(caught.value)  # located: the phase that offers the menu


def test_a_modifier_reads_this_as_its_own_source(tmp_path: Path) -> None:
    """docs/language.md: `modify power of you.table where it != this by 1` (the banner
    example) leaves its source out; with `this` unbound (the mutant) every card, the source
    included, got the bonus."""
    look = 'action look "Look":\n    gain 1 gold\n'
    manifest = MANIFEST.replace(
        "    attributes: {shine: number}\n",
        "    attributes: {shine: number}\n    active_in: [table]\n",
    )
    (tmp_path / "ruleset.yaml").write_text(manifest.replace("ACTIONS", "look"), encoding="utf-8")
    rules = GEMS.replace(
        "    shine: 1\n", "    shine: 1\n    modify shine of table.cards where it != this by 1\n"
    )
    (tmp_path / "rules.rcl").write_text(rules + look, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=1)
    shines = [
        game.evaluate_expr(f"{kind}.shine")
        for kind in (
            "first(table.cards where it.def == ruby)",
            "first(table.cards where it.def == opal)",
            "last(table.cards where it.def == opal)",
        )
    ]
    # each opal gets +1 from the other opal, the ruby +1 from each: 5 + 2
    assert shines == [7, 2, 2]


def test_components_start_ready(tmp_path: Path) -> None:
    """A new game's components are not exhausted (docs/api.md's view shows
    `'exhausted': False`); the mutant placed every one exhausted."""
    game = make(tmp_path, "look", 'action look "Look":\n    gain 1 gold\n').new_game(seed=1)
    assert game.evaluate_expr("count(table.cards where it.exhausted)") == 0
    assert game.evaluate_expr("count(table.cards)") == 3


def test_a_seed_is_read_modulo_two_to_the_64(tmp_path: Path) -> None:
    """The random stream is 64 bits (rulecraft.rng): seeds that agree modulo 2**64 start the
    same game, state included (the mutant kept a negative seed as it was)."""
    ruleset = make(tmp_path, "look", 'action look "Look":\n    gain 1 gold\n')
    assert ruleset.new_game(seed=-1).state_hash() == ruleset.new_game(seed=2**64 - 1).state_hash()
    assert ruleset.new_game(seed=-1).state["rng"][0] == 2**64 - 1


def test_a_card_moved_into_a_hand_is_named_to_its_owner_only(tmp_path: Path) -> None:
    """docs/api.md: "a card drawn into a hidden hand is named to its owner and 'a card' to
    the others" (the mutant dropped the owner's line: nobody read the name)."""
    manifest = MANIFEST.replace(
        "  table: {visibility: public}\n",
        "  table: {visibility: hidden}\n  hand: {per: player, visibility: owner}\n",
    )
    (tmp_path / "ruleset.yaml").write_text(manifest.replace("ACTIONS", "take"), encoding="utf-8")
    take = (
        'action take "Take the ruby":\n'
        "    move first(table.cards where it.def == ruby) to you.hand\n"
    )
    (tmp_path / "rules.rcl").write_text(GEMS + take, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=1)
    game.choose("act:take")
    mine, theirs = game.log_for(0), game.log_for(1)
    assert "Ruby -> hand of Player 1" in mine
    assert "a card -> hand of Player 1" in theirs
    assert not any("Ruby" in line for line in theirs)


HANDS = MANIFEST.replace(
    "  table: {visibility: public}\n",
    "  table: {visibility: hidden}\n  hand: {per: player, visibility: owner}\n",
).replace("    attributes: {shine: number}\n", "    attributes: {shine: number, marks: list}\n")

MOVES = """action take "Take":
    move first(table.cards where it.def == ruby) to you.hand

action show "Show":
    reveal first(you.hand)

action tire "Tire":
    exhaust first(you.hand)

action back "Back":
    move first(you.hand) to table
"""


def _hands_game(tmp_path: Path) -> Game:
    (tmp_path / "ruleset.yaml").write_text(
        HANDS.replace("ACTIONS", "take, show, tire, back").replace("      mandatory: true\n", ""),
        encoding="utf-8",
    )
    gems = GEMS.replace('gem ruby "Ruby":\n', 'gem ruby "Ruby":\n    marks: [bright, cut]\n')
    (tmp_path / "rules.rcl").write_text(gems + MOVES, encoding="utf-8")
    return rulecraft.load(tmp_path).new_game(seed=1)


def test_a_card_that_changes_zone_forgets_it_was_revealed_or_exhausted(tmp_path: Path) -> None:
    """Moving a card clears its temporary state: a revealed card is hidden again in its new
    hidden zone, an exhausted one is ready (the mutants kept both)."""
    game = _hands_game(tmp_path)
    game.choose("act:take")  # seat 1's turn, until it passes
    assert game.describe("ruby#1", 1) is None  # in seat 1's hand: seat 2 cannot read it
    game.choose("act:show")
    assert game.describe("ruby#1", 1) is not None  # revealed: seat 2 may read it
    game.choose("act:tire")
    assert game.evaluate_expr("first(you.hand).exhausted", 0) is True
    game.choose("act:back")
    assert game.describe("ruby#1", 1) is None  # back in the hidden table: unseen again
    assert game.evaluate_expr("first(table.cards where it.def == ruby).exhausted") is False


def test_has_looks_into_a_list_and_texts_show_flags_as_yes_or_no(tmp_path: Path) -> None:
    """`X has NAME` on a list tests membership (the mutant answered the opposite), and a
    true or false value interpolated into a text reads "yes" or "no"."""
    game = _hands_game(tmp_path)
    ruby = "first(table.cards where it.def == ruby)"
    assert game.evaluate_expr(f"{ruby}.marks has cut") is True
    assert game.evaluate_expr(f"{ruby}.marks has dull") is False
    assert game.evaluate_expr('"{1 == 1}, {1 == 2}"') == "yes, no"


def test_an_ending_where_everybody_loses_ends_the_game(tmp_path: Path) -> None:
    """docs/manifest.md: `loser: all` ends the game with no winner (the mutant never
    finished it: the game went on)."""
    manifest = MANIFEST.replace("ACTIONS", "look") + (
        'end:\n  - if: "you.gold >= 1"\n    loser: all\n    per_seat: false\n'
        "    reason: Too rich.\n"
    )
    (tmp_path / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(
        GEMS + 'action look "Look":\n    gain 1 gold\n', encoding="utf-8"
    )
    game = rulecraft.load(tmp_path).new_game(seed=1)
    game.choose("act:look")
    assert game.result is not None
    assert game.result.winners == () and not game.result.draw
    assert game.decision is None


def test_a_component_active_on_the_map_works_on_a_space_and_not_in_a_zone(
    tmp_path: Path,
) -> None:
    """docs/manifest.md: "`active_in` | the zones where a component's triggers, modifiers and
    grants work (`map`: on a map space)".  A beacon's modifier works while it stands on a
    space and stops in the table zone (the surviving mutant read a space's key as a zone's
    name, so nothing on the map was ever active)."""
    manifest = MANIFEST.replace(
        "    attributes: {shine: number}\n",
        "    attributes: {shine: number}\n  beacon:\n    active_in: [map]\n",
    ).replace("components:\n", "map: {kind: square, width: 2, height: 1}\ncomponents:\n")
    # the beacon starts in the table zone
    beacon_placed = "  - {kind: gem, zone: table}\n  - {kind: beacon, zone: table}\n"
    manifest = manifest.replace("  - {kind: gem, zone: table}\n", beacon_placed)
    moves = (
        'action place "Place" for s in spaces:\n'
        "    move first(table.cards where it.kind == beacon) to s\n"
    )
    (tmp_path / "ruleset.yaml").write_text(manifest.replace("ACTIONS", "place"), encoding="utf-8")
    beacon = 'beacon lamp "Lamp":\n    modify shine of table.cards by 10\n'
    (tmp_path / "rules.rcl").write_text(GEMS + beacon + moves, encoding="utf-8")
    game = rulecraft.load(tmp_path).new_game(seed=1)
    ruby = "first(table.cards where it.def == ruby).shine"
    assert game.evaluate_expr(ruby) == 2 + 4  # the lamp lies on the table: not active
    option = next(i for i in game.legal_ids() if i.endswith("a1"))
    game.choose(option)
    assert game.evaluate_expr("count(table.cards)") == 3
    assert game.evaluate_expr(ruby) == 2 + 3 + 10  # on a space of the map: it works
