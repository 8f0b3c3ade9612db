"""The language's second edition (issue 10): loops, modifier bounds, typed fields, ...

Each test writes a tiny ruleset inline and checks what the feature does when the game runs,
or which diagnostic the validator gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.runtime.engine import IllegalChoice, RuleError


def write(tmp_path: Path, manifest: str, rules: str) -> Path:
    (tmp_path / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return tmp_path


def make(tmp_path: Path, manifest: str, rules: str) -> rulecraft.Ruleset:
    return rulecraft.load(write(tmp_path, manifest, rules))


def codes(tmp_path: Path, manifest: str, rules: str) -> list[tuple[str, int, str]]:
    """(code, line, message) of every diagnostic of the ruleset, errors and warnings."""
    report = check_ruleset(write(tmp_path, manifest, rules))
    return [(d.code, d.span.line, d.message) for d in report.diagnostics]


BASE = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: 0}
"""

ONE_ACTION = """flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""


def test_while_repeats_its_block_as_long_as_the_condition_holds(tmp_path: Path) -> None:
    ruleset = make(
        tmp_path,
        BASE + ONE_ACTION,
        """action act "Act":
    while you.gold < 3:
        gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    assert game.evaluate_expr("gold", 0) == 3


def test_a_while_that_never_ends_stops_at_the_step_limit_with_its_location(
    tmp_path: Path,
) -> None:
    ruleset = make(
        tmp_path,
        BASE + ONE_ACTION,
        """action act "Act":
    while you.gold >= 0:
        say "again"
""",
    )
    game = ruleset.new_game(seed=1)
    with pytest.raises(RuleError, match=r"rules\.rcl:[23]:\d+: the rules run in a loop"):
        game.choose("act:act")


CARDS = """kinds:
  card:
    attributes: {cost: number}
zones:
  box: {}
  hand: {per: player}
components:
  - {kind: card, zone: box}
setup: |
  move box to you.hand
flow:
  phases:
    - name: main
      actions: [noop]
"""


@pytest.mark.parametrize(
    ("bound", "cost"),
    [("", -1), (" (min 0)", 0), (" (max 0)", -1), (" (min 0) (max 0)", 0)],
)
def test_two_discounts_with_a_floor_never_make_a_card_cost_less_than_it(
    tmp_path: Path, bound: str, cost: int
) -> None:
    """Radlands, Trader: "your people cost 1 water less (at least 0)": two in play make a
    cost-1 person cost 0, not -1 (issue 10)."""
    ruleset = make(
        tmp_path,
        BASE + CARDS,
        f"""card cheap "Cheap":
    cost: 1

rule trader_a:
    modify cost of you.hand by -1{bound}

rule trader_b:
    modify cost of you.hand by -1{bound}

action noop "Nothing":
    say "nothing"
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("first(you.hand).cost", 0) == cost


def test_a_ceiling_caps_a_bonus(tmp_path: Path) -> None:
    ruleset = make(
        tmp_path,
        BASE + CARDS,
        """card cheap "Cheap":
    cost: 1

rule boost:
    modify cost of you.hand by 5 (max 3)

action noop "Nothing":
    say "nothing"
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("first(you.hand).cost", 0) == 3


# ---------------------------------------------------------------------------- fields
FIELDS = (
    BASE
    + """kinds:
  card:
    attributes: {value: number, doubled: number}
zones:
  box: {}
  haul: {per: player}
components:
  - {kind: card, zone: box}
flow:
  phases:
    - name: main
      actions: [noop]
"""
)

FIELD_CARDS = """card coin "Coin":
    value: 1

define double(p) = p.gold * 2

action noop "Nothing":
    say "nothing"

"""


@pytest.mark.parametrize(
    ("body", "code", "line", "column", "hint_word"),
    [
        # the three misspellings the issue quotes, each a silent 0 or none before
        (
            "    if any(you.haul where it.dubled == 1):\n        gain 1 gold\n",
            "RC250",
            10,
            30,
            "doubled",
        ),
        ('    for each c in you.haul:\n        say "{c.valeu}"\n', "RC250", 11, 15, "value"),
        ("    if you.trmup > 2:\n        gain 1 gold\n", "RC250", 10, 12, "a player"),
        ("    gain max(players.double) gold\n", "RC251", 10, 22, "map("),
    ],
)
def test_reading_a_field_nothing_declares_or_sets_is_an_error(
    tmp_path: Path, body: str, code: str, line: int, column: int, hint_word: str
) -> None:
    report = check_ruleset(write(tmp_path, FIELDS, FIELD_CARDS + "effect check:\n" + body))
    found = [d for d in report.diagnostics if d.code == code]
    assert len(found) == 1, [str(d) for d in report.diagnostics]
    d = found[0]
    assert (d.span.line, d.span.column) == (line, column)
    assert hint_word in d.message + (d.hint or "")
    assert report.program is None


def test_fields_that_are_declared_set_or_built_in_are_fine(tmp_path: Path) -> None:
    report = check_ruleset(
        write(
            tmp_path,
            FIELDS,
            FIELD_CARDS
            + """effect check:
    set you.trump to 2
    if you.trump > 1 and you.haul.count > 0 and you.next.gold >= 0:
        say "{first(you.haul).value} {first(you.haul).doubled} {first(you.haul).name}"
    check
""",
        )
    )
    assert [d for d in report.diagnostics if d.code in ("RC250", "RC251")] == []


def test_map_applies_a_definition_to_every_element_of_a_list(tmp_path: Path) -> None:
    """A sum of a per-player value over players (issue 10: 'applying a define over a list')."""
    ruleset = make(
        tmp_path,
        BASE + ONE_ACTION,
        """define double(p) = p.gold * 2

action act "Act":
    gain 3 gold
    gain sum(map(players, double)) gold
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    assert game.evaluate_expr("gold", 0) == 3 + 6
    # players starts with the active seat: seat 2 now, with 0 gold
    assert game.evaluate_expr("map(players, double)", 0) == [0, 18]


def test_map_needs_a_definition_with_one_parameter(tmp_path: Path) -> None:
    found = codes(
        tmp_path,
        BASE + ONE_ACTION,
        """define two = 2

action act "Act":
    gain sum(map(players, two)) gold
""",
    )
    assert ("RC206", 4, "map takes a list and the name of a definition with one parameter") in [
        (c, line, m) for c, line, m in found
    ]


def test_an_enum_value_named_like_a_card_is_flagged(tmp_path: Path) -> None:
    """'An enum value named like a card id never matches (it.suit == ash with a card ash):
    warn for every name that is both' (issue 10)."""
    found = codes(
        tmp_path,
        BASE
        + """kinds:
  card:
    attributes: {suit: "enum(ash, bone)"}
zones:
  box: {}
components:
  - {kind: card, zone: box}
flow:
  phases:
    - name: main
      actions: [act]
""",
        """card ash "Ash":
    suit: bone

action act "Act":
    gain count(box where it.suit == ash) gold
""",
    )
    assert [(c, line) for c, line, m in found if c == "RC223"] == [("RC223", 8)]
    assert any("also a component" in m for c, _, m in found if c == "RC223")


# ---------------------------------------------------------------------------- messages
def test_an_effect_named_like_a_statement_is_reported_at_its_declaration(tmp_path: Path) -> None:
    """'calling an effect named deal gives RC101: unexpected end of line ... (say that deal is
    a keyword, at the declaration)' (issue 10)."""
    found = codes(
        tmp_path,
        BASE + ONE_ACTION,
        """effect deal:
    gain 1 gold

action act "Act":
    say "hello"
""",
    )
    assert [(c, line) for c, line, _ in found if c == "RC252"] == [("RC252", 1)]


def test_members_on_the_first_line_get_a_hint_about_line_breaks(tmp_path: Path) -> None:
    """'card ash "Ash": suit: ash; copies: 10 gives RC101: unexpected 'suit' with a hint that a
    ';' may be missing although it is there' (issue 10)."""
    report = check_ruleset(
        write(tmp_path, BASE + ONE_ACTION, 'card ash "Ash": suit: ash; copies: 10\n')
    )
    (d,) = [d for d in report.diagnostics if d.code == "RC101"]
    assert (d.span.line, d.span.column) == (1, 17)
    assert d.hint is not None and "own indented lines" in d.hint and "';'" not in d.hint


def test_a_computed_amount_before_a_unit_suggests_parentheses(tmp_path: Path) -> None:
    """'gain 10 + 2 * p.tricks score to p gives RC204 without suggesting parentheses'."""
    report = check_ruleset(
        write(
            tmp_path,
            BASE + ONE_ACTION,
            """action act "Act":
    gain 10 + 2 * you.gold gold to you
""",
        )
    )
    (d,) = [d for d in report.diagnostics if d.code == "RC204"]
    assert d.hint is not None and "parentheses" in d.hint


# ---------------------------------------------------------------------------- hidden fields
def test_text_never_tells_a_hidden_cards_fields(tmp_path: Path) -> None:
    """'say "{card} rank {card.rank}" on a face-down card shows every seat "a card rank 9"
    today' (issue 10): the rank of a card some seat may not see is "?", in every seat's log;
    once the card is face up the same text tells it."""
    ruleset = make(
        tmp_path,
        BASE
        + """kinds:
  card:
    attributes: {rank: number}
zones:
  deck: {visibility: hidden}
  table: {}
components:
  - {kind: card, zone: deck}
flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
""",
        """card nine "Nine":
    rank: 9

action act "Act":
    let c = top(deck)
    move c to table face down
    say "hidden: {c} rank {c.rank} in {c.zone}"
    set c.facedown to false
    say "shown: {c} rank {c.rank}"
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    for seat in (0, 1):
        lines = game.log_for(seat)
        assert "hidden: a card rank ? in table" in lines, lines
        assert "shown: Nine rank 9" in lines
        assert not any("hidden" in line and "9" in line for line in lines)


# ------------------------------------------------------------------------ game and player fields
TYPED = (
    BASE
    + """kinds:
  card:
    attributes: {suit: "enum(ash, bone)"}
zones:
  box: {}
  hand: {per: player}
components:
  - {kind: card, zone: box}
fields:
  trump: {of: game, type: "enum(ash, bone)"}
  led: {of: game, type: card}
  bid: {type: number, default: 2}
  tricks: {type: number, shown: true}
flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""
)


def test_game_and_player_fields_hold_any_declared_type(tmp_path: Path) -> None:
    """'set game.trump to ash validates and fails at run time ("cannot set 'trump' of
    None")'; non-numeric state of any declared type, not shown nor logged (issue 10)."""
    ruleset = make(
        tmp_path,
        TYPED,
        """card a1 "Ash One":
    suit: ash

action act "Act":
    set game.trump to ash
    set game.led to first(box)
    set you.bid to you.bid + 1
    set you.tricks to 3
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("game.trump", 0) is None
    assert game.evaluate_expr("game.round", 0) == game.round
    assert game.evaluate_expr("you.bid", 0) == 2
    log_before = len(game.log)
    game.choose("act:act")
    assert game.evaluate_expr("game.trump", 0) == "ash"
    assert game.evaluate_expr("game.led.suit == game.trump", 0) is True
    assert game.evaluate_expr("you.bid", 0) == 3
    # setting fields says nothing in the log ("The game gains 1 hands" before)
    assert not any("trump" in line or "bid" in line for line in game.log[log_before:])
    me = game.view(0)["players"][0]["resources"]
    assert "bid" not in me and me["tricks"] == 3  # bookkeeping hidden, shown fields shown
    assert "trump" not in game.view(0)["globals"]


@pytest.mark.parametrize(
    ("statement", "code"),
    [
        ("set game.trump to coal", "RC201"),  # not a value at all
        ("set game.trump to 5", "RC253"),  # a number for an enum
        ("set game.trump to bone_x", "RC201"),
        ('set you.bid to "high"', "RC253"),  # text for a number
        # found writing Tricks: a card, a player for an enum; a player for a card
        ("set game.trump to a1", "RC253"),
        ("set game.trump to you", "RC253"),
        ("set game.led to opponent", "RC253"),
        ("gain game.trmup gold", "RC250"),  # a game field nobody declares or sets
    ],
)
def test_a_declared_field_refuses_values_of_another_type(
    tmp_path: Path, statement: str, code: str
) -> None:
    found = codes(
        tmp_path,
        TYPED,
        'card a1 "Ash One":\n    suit: ash\n\naction act "Act":\n    ' + statement + "\n",
    )
    assert code in [c for c, _, _ in found], found
    if code == "RC253" and "trump" in statement:
        assert any("holds an enum(ash, bone)" in m for _, _, m in found), found


# ---------------------------------------------------------------------------- generated decks
DECK = (
    BASE
    + """kinds:
  card:
    attributes: {suit: "enum(ash, bone, coal, dust)", rank: number, points: number}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
generate:
  - kind: card
    id: "{suit}_{rank}"
    name: {en: "{rank} of {suit}", de: "{suit} {rank}"}
    each: {suit: [ash, bone, coal, dust], rank: {from: 1, to: 10}}
    attributes: {points: 0}
components:
  - {kind: card, zone: deck}
flow:
  phases:
    - name: main
      actions: [act]
      max: 1
      mandatory: true
"""
)


def test_a_deck_is_generated_from_the_product_of_value_lists(tmp_path: Path) -> None:
    """'a deck built from the product of value lists (4 suits x 10 ranks) with names from a
    template, instead of 40 hand-written definitions' (issue 10)."""
    ruleset = make(
        tmp_path,
        DECK,
        """card joker "Joker":
    suit: ash
    rank: 0
    points: 5

action act "Act":
    say "{count(deck)} cards"
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("count(deck)", 0) == 41
    assert game.evaluate_expr("count(deck where it.suit == coal)", 0) == 10
    assert game.evaluate_expr("sum(deck.cards.rank)", 0) == 4 * 55
    assert game.evaluate_expr("sum(deck.cards.points)", 0) == 5
    name = game.evaluate_expr("first(deck where it.def == bone_7).name", 0)
    assert name == {"": "7 of bone", "de": "bone 7"}


def test_a_generated_id_must_be_a_name_and_the_product_bounded(tmp_path: Path) -> None:
    bad_id = DECK.replace('id: "{suit}_{rank}"', 'id: "{rank} {suit}"')
    found = codes(tmp_path, bad_id, 'action act "Act":\n    say "x"\n')
    assert [c for c, _, _ in found if c == "RC254"] == ["RC254"]
    huge = DECK.replace("rank: {from: 1, to: 10}", "rank: {from: 1, to: 100000}")
    found = codes(tmp_path, huge, 'action act "Act":\n    say "x"\n')
    assert any(c == "RC254" and "more than" in m for c, _, m in found)


# ---------------------------------------------------------------------------- private looks
LOOKS = (
    BASE
    + """kinds:
  card:
    attributes: {rank: number}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
components:
  - {kind: card, zone: deck}
flow:
  phases:
    - name: main
      actions: [peek, tell, mix]
      max: 1
      mandatory: true
"""
)

LOOK_CARDS = """card ace "Ace":
    rank: 1

card king "King":
    rank: 13

action peek "Peek":
    look at top(deck)

action tell "Tell":
    reveal top(deck) to opponent

action mix "Mix":
    shuffle deck
"""


def test_a_private_look_shows_the_card_to_that_seat_only(tmp_path: Path) -> None:
    """'Private looks: show cards to some players only (look at top(deck); reveal X to P),
    kept as "seen by" until the card moves somewhere hidden; every other seat's view, log and
    prompt names nothing' (issue 10)."""
    ruleset = make(tmp_path, LOOKS, LOOK_CARDS)
    game = ruleset.new_game(seed=1)
    top = game.evaluate_expr("top(deck)", 0)
    name = "Ace" if top.startswith("ace") else "King"
    game.choose("act:peek")

    def deck_ids(seat: int) -> list[str]:
        deck = next(z for z in game.view(seat)["zones"] if z["key"] == "z:deck")
        return [c.get("id", "?") for c in deck["cards"]]

    assert top in deck_ids(0) and top not in deck_ids(1)
    assert f"Player 1 looks at {name}" in game.log_for(0)
    assert "Player 1 looks at a card" in game.log_for(1)
    assert not any(name in line for line in game.log_for(1))
    # seat 2 shows it to seat 1 (its opponent): now both have seen it
    game.choose("act:tell")
    assert top in deck_ids(0)


def test_a_shuffle_makes_a_seer_lose_track_of_the_card(tmp_path: Path) -> None:
    ruleset = make(tmp_path, LOOKS, LOOK_CARDS)
    game = ruleset.new_game(seed=1)
    top = game.evaluate_expr("top(deck)", 0)
    game.choose("act:peek")
    game.choose("act:mix")
    deck = next(z for z in game.view(0)["zones"] if z["key"] == "z:deck")
    assert all("id" not in c for c in deck["cards"]), deck
    assert top in game.state["comps"]


# ---------------------------------------------------------------------------- event parameters
EVENTS = (
    BASE
    + ONE_ACTION
    + """events:
  bust: [player, total]
"""
)


def test_a_declared_event_binds_its_parameters_by_name(tmp_path: Path) -> None:
    """'named, declared event parameters checked at emit and at every when (today they are
    positional)' (issue 10): 'when bust(total)' takes the argument called total."""
    ruleset = make(
        tmp_path,
        EVENTS,
        """rule scorer:
    when bust(total):
        gain total gold to active

action act "Act":
    emit bust(you, 4)
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    assert game.evaluate_expr("players.gold", 0) == [0, 4]  # seat 2 is active now


@pytest.mark.parametrize(
    "rules",
    [
        # emit with a wrong number of arguments
        'rule r:\n    when bust(total):\n        gain 1 gold\n\naction act "Act":\n'
        "    emit bust(4)\n",
        # a parameter the event does not declare
        'rule r:\n    when bust(totl):\n        gain 1 gold\n\naction act "Act":\n'
        "    emit bust(you, 4)\n",
        # more parameters than a built-in event carries
        'rule r:\n    when discarded(card, extra):\n        gain 1 gold\n\naction act "Act":\n'
        "    emit bust(you, 4)\n",
    ],
)
def test_event_parameters_are_checked_at_emit_and_when(tmp_path: Path, rules: str) -> None:
    found = codes(tmp_path, EVENTS, rules)
    assert [c for c, _, _ in found if c == "RC255"] == ["RC255"], found


# ---------------------------------------------------------------------------- texts in prompts
def test_an_optional_trigger_asks_its_own_interpolated_question(tmp_path: Path) -> None:
    """'{...} in the yes/no prompt of an optional trigger ("Use Flare on Player 2's 3
    scrap?")' (issue 10)."""
    ruleset = make(
        tmp_path,
        BASE + ONE_ACTION + "events:\n  looted: [victim, amount]\n",
        """rule flare "Flare":
    when looted(victim, amount) optionally prompt "Use Flare on {victim}'s {amount} scrap?":
        gain amount gold

action act "Act":
    emit looted(opponent, 3)
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    assert game.decision is not None
    assert game.decision.prompt == "Use Flare on Player 2's 3 scrap?"
    game.choose("yes")
    assert game.evaluate_expr("gold", 0) == 3


def test_action_labels_interpolate_their_names(tmp_path: Path) -> None:
    """'{...} in action ... labels' (issue 10): 'Buy {c} for {c.cost} gold'."""
    ruleset = make(
        tmp_path,
        BASE
        + """kinds:
  card:
    attributes: {cost: number}
zones:
  market: {}
  hand: {per: player}
components:
  - {kind: card, zone: market}
flow:
  phases:
    - name: main
      actions: [buy, tally]
      max: 1
      mandatory: true
""",
        """card lamp "Lamp":
    cost: 0

action buy "Buy {c} for {c.cost} gold" for c in market:
    move c to you.hand

action tally "Count {count(you.hand)} cards":
    say "counted"
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.decision is not None
    labels = {o.id: o.label for o in game.decision.options}
    assert labels["act:buy:lamp#1"] == "Buy Lamp for 0 gold"
    assert labels["act:tally"] == "Count 0 cards"
    game.choose("act:buy:lamp#1")
    assert "Player 1: Buy Lamp for 0 gold" in game.log


def test_log_lines_say_one_point_and_two_points(tmp_path: Path) -> None:
    """'singular and plural and resource labels in log lines ("gains 1 point")' (issue 10)."""
    ruleset = make(
        tmp_path,
        """rulecraft: 1
name: t
languages: [en, de]
players: {min: 2, max: 2}
resources:
  points: {per: player, unit: {en: "point|points", de: "Punkt|Punkte"}}
  gold: {per: player}
"""
        + ONE_ACTION,
        """action act "Act":
    gain 1 points
    gain 2 points
    gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:act")
    assert "Player 1 gains 1 point" in game.log
    assert "Player 1 gains 2 points" in game.log
    assert "Player 1 gains 1 gold" in game.log  # no unit: declared, the id as before
    german = ruleset.new_game(seed=1, lang="de")
    german.choose("act:act")
    assert any(line.endswith("1 Punkt") for line in german.log)


# ---------------------------------------------------------------------------- odds on choices
DICE = (
    BASE
    + """dice:
  scavenge: {faces: [[], [], [loot], [loot], [loot, loot], [hazard]]}
flow:
  phases:
    - name: main
      actions: [risky, safe]
      max: 1
      mandatory: true
"""
)


def test_chance_is_the_exact_odds_of_a_roll_in_percent(tmp_path: Path) -> None:
    """'an expression for the exact chance of a roll (chance(2 scavenge, hazard >= 1))
    usable in labels, conditions and evaluations' (issue 10). Two dice, each 1/6 hazard:
    1 - (5/6)^2 = 11/36 = 30.56%."""
    ruleset = make(
        tmp_path,
        DICE,
        """action risky "Dig ({chance(2 scavenge, hazard >= 1)}% hazard)" \\
        if chance(2 scavenge, hazard == 0 and loot >= 2) > 10:
    roll 2 scavenge as r
    gain r.loot gold

action safe "Rest":
    gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.evaluate_expr("chance(2 scavenge, hazard >= 1)", 0) == 30.56
    assert game.evaluate_expr("chance(1 scavenge, loot >= 1)", 0) == 50.0
    labels = {o.id: o.label for o in game.decision.options} if game.decision else {}
    assert labels["act:risky"] == "Dig (30.56% hazard)"


def test_a_chance_on_the_symbols_alone_is_worked_out_once_for_the_same_dice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A condition that reads nothing but the faces' symbols gives the same odds for the
    same dice in every position, so they are worked out once (Waste Knights' evaluation
    reads Raise the Rainmaker's chance at every look ahead); one that reads the game is
    worked out again each time, as the game may have changed.  1 - (5/6)^2 = 30.56%."""
    from rulecraft.dice import exact

    worked_out: list[object] = []
    real = exact.distribution

    def counting(pool: Any) -> Any:
        worked_out.append(pool)
        return real(pool)

    monkeypatch.setattr(exact, "distribution", counting)
    ruleset = make(
        tmp_path,
        DICE,
        """action risky "Dig" if chance(2 scavenge, hazard >= 1) > 0:
    gain 1 gold

action safe "Rest" if chance((gold + 2) scavenge, hazard >= min(1, 2)) > 0:
    gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    assert ruleset.compile_expression is not None
    fixed = ruleset.compile_expression(game.program, "chance((gold + 2) scavenge, hazard >= 1)")
    reads = ruleset.compile_expression(game.program, "chance(2 scavenge, hazard >= gold)")
    ctx = game._ctx()
    ctx.loc = {"you": "@0", "this": None}
    worked_out.clear()
    assert [fixed(ctx) for _ in range(3)] == [30.56] * 3
    assert len(worked_out) == 1
    assert [reads(ctx) for _ in range(3)] == [100.0] * 3  # gold 0: every roll has 0
    assert len(worked_out) == 4
    game.choose("act:risky")  # a gold more: other dice, worked out once more
    game.choose("act:safe")
    ctx = game._ctx()
    ctx.loc = {"you": "@0", "this": None}
    worked_out.clear()
    assert [fixed(ctx) for _ in range(2)] == [round((1 - (5 / 6) ** 3) * 100, 2)] * 2
    assert len(worked_out) == 1
    assert reads(ctx) == 30.56  # hazard >= 1 now
    assert len(worked_out) == 2


def test_the_odds_of_each_option_that_would_roll(tmp_path: Path) -> None:
    """'the REPL's odds answers for the options of the pending decision that would roll
    (today it says "No roll or test is pending." on games whose rolls never pause)' (issue
    10). A scavenge die shows a hazard on 1 face of 6: two dice, (5/6)^2 = 69.44% none."""
    ruleset = make(
        tmp_path,
        DICE.replace("actions: [risky, safe]", "actions: [risky, safe, gamble]")
        + """kinds:
  card: {}
zones:
  pile: {visibility: public, order: ordered}
components:
  - {kind: card, zone: pile}
""",
        """action risky "Dig":
    roll 2 scavenge as r
    gain r.loot gold

action safe "Rest":
    gain 1 gold

action gamble "Shuffle, then dig":
    shuffle pile
    roll (you.gold + 1) scavenge as r

card stone "Stone":
    copies: 3
""",
    )
    game = ruleset.new_game(seed=1)
    before = game.to_json()
    odds = {row.option: row for row in game.option_odds()}
    assert game.to_json() == before  # each option is tried on a copy
    assert set(odds) == {"act:risky", "act:gamble"}  # resting rolls nothing
    risky = odds["act:risky"]
    assert (risky.label, risky.pool, risky.depends) == ("Dig", "2 scavenge", False)
    assert risky.symbols == (
        "hazard: 0 69.44%, 1 27.78%, 2 2.78%",
        # per die: no loot 3/6, one 2/6, two 1/6; so none of 2 dice is 1/4, four is 1/36
        "loot: 0 25.00%, 1 33.33%, 2 27.78%, 3 11.11%, 4 2.78%",
    )
    assert odds["act:gamble"].depends  # a shuffle drew random numbers first


def test_a_tests_branches_read_its_dice(tmp_path: Path) -> None:
    """'a `test`'s branches cannot read its dice' (issue 10): `test ... as t` names them."""
    ruleset = make(
        tmp_path,
        DICE
        + """tests:
  pool: "1 scavenge"
  success: loot
""",
        """action risky "Dig":
    test luck (1) with 1 scavenge as t:
        pass:
            gain t.loot gold
        fail:
            gain (t.hazard + 10) gold

action safe "Rest":
    gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    game.arrange(dice={"scavenge": [["loot", "loot"], "hazard"]})
    game.choose("act:risky")
    assert game.odds() == "Test luck (1) with 2 scavenge: P(pass) = 3/4 (75.0%)"
    assert game.legal_ids() == ["roll"]
    game.choose("roll")
    assert game.evaluate_expr("you.gold", 0) == 2  # both loot faces of the first die


# ---------------------------------------------------------------------------- replacement
def test_a_ruleset_event_can_be_replaced_beforehand(tmp_path: Path) -> None:
    """'Replacement effects on any event, including events a ruleset emits itself ("when you
    would bust, you may discard a Medkit instead")' (issue 10)."""
    ruleset = make(
        tmp_path,
        BASE
        + """kinds:
  gear: {active_in: [kit]}
zones:
  kit: {per: player}
  discard: {}
components:
  - {kind: gear, zone: kit}
events:
  bust: [player]
flow:
  phases:
    - name: main
      actions: [push]
      max: 1
      mandatory: true
""",
        """gear medkit "Medkit":
    copies: 1
    before bust(player) if player == you optionally prompt "Discard {this} instead of busting?":
        discard this to discard
        prevent

rule busting:
    when bust(player):
        lose 5 gold from player

action push "Push your luck":
    gain 5 gold
    emit bust(you)
""",
    )
    game = ruleset.new_game(seed=1)
    game.choose("act:push")
    # seat 1 has a Medkit (each seat has one): it is asked first
    assert game.decision is not None and game.decision.prompt.startswith("Discard Medkit")
    game.choose("yes")
    assert game.evaluate_expr("gold", 0) == 5  # the bust was replaced
    assert game.evaluate_expr("count(you.kit)", 0) == 0
    assert "bust is prevented" in game.log
    game.choose("act:push")  # seat 2 declines: the bust happens
    game.choose("no")
    assert game.evaluate_expr("gold", 1) == 0


def test_a_unique_card_is_chosen_by_its_name_without_its_copy_number(tmp_path: Path) -> None:
    """'a unique card choosable by its name without #1' (issue 10); two copies stay
    ambiguous and are refused like any unknown id."""
    ruleset = make(
        tmp_path,
        BASE
        + """kinds:
  card: {}
zones:
  market: {}
  hand: {per: player}
components:
  - {kind: card, zone: market}
flow:
  phases:
    - name: main
      actions: [buy]
      max: 1
      mandatory: true
""",
        """card lamp "Lamp":
    copies: 1

card rope "Rope":
    copies: 2

action buy "Buy" for c in market:
    move c to you.hand
""",
    )
    game = ruleset.new_game(seed=1)
    with pytest.raises(IllegalChoice):
        game.choose("act:buy:rope")
    game.choose("act:buy:lamp")
    assert game.evaluate_expr("count(you.hand)", 0) == 1
    assert game.record.choices == ("act:buy:lamp#1",)
    # a scenario's choose: takes the same name (it refused 'act:buy:lamp' before)
    from rulecraft.tools.scenario import load_scenario, run_scenario

    text = "name: buy\ncites: issue 10\nscript:\n  - choose: act:buy:lamp\n"
    text += "  - expect: count(market) == 2\n  - stop: the rope is next\n"
    scenario, problems = load_scenario(text, "buy.yaml")
    assert scenario is not None and not problems
    outcome = run_scenario(ruleset, scenario)
    assert outcome.passed, outcome.message


def test_a_copy_id_in_an_expression_is_an_error_not_a_comment(tmp_path: Path) -> None:
    """'Copy ids in expect: silently become comments: broker#1 reads as broker' (found
    writing the example rulesets): a '#' in an expression of a YAML value is refused."""
    game = rulecraft.load("tictactoe").new_game(seed=1)
    game.choose(game.legal_ids()[0])
    with pytest.raises(ValueError, match="'#' would start a comment"):
        game.evaluate_expr("mark#1 in board")
    assert game.evaluate_expr('"#1" == "#1"') is True  # inside a text it is a character


def test_a_keyword_used_as_a_name_is_said_to_be_a_keyword(tmp_path: Path) -> None:
    found = check_ruleset(
        write(tmp_path, BASE + ONE_ACTION, 'action act "Act":\n    let up = 1\n')
    ).diagnostics
    hints = [d.hint for d in found if d.code == "RC101"]
    assert hints == ["'up' is a keyword of the language: choose another name"]


# ---------------------------------------------------------------------------- flow
@pytest.mark.parametrize(("ask", "asked"), [("      ask_to_pass: false\n", False), ("", True)])
def test_a_phase_where_only_passing_is_legal_may_end_without_asking(
    tmp_path: Path, ask: str, asked: bool
) -> None:
    """'a non-mandatory phase where only "pass" is legal does not ask' (issue 10) when the
    phase says ask_to_pass: false; by default it asks, so a game where nothing but passing
    is legal still reaches a decision instead of turning round forever."""
    ruleset = make(
        tmp_path,
        BASE
        + """flow:
  phases:
    - name: shop
      actions: [buy]
"""
        + ask
        + """    - name: main
      actions: [work]
      mandatory: true
""",
        """action buy "Buy" if you.gold >= 5:
    spend 5 gold

action work "Work":
    gain 1 gold
""",
    )
    game = ruleset.new_game(seed=1)
    assert game.decision is not None
    assert (game.legal_ids() == ["pass"]) is asked
    if not asked:
        assert game.legal_ids() == ["act:work"]


# ---------------------------------------------------------------------------- stages
STAGES = """rulecraft: 1
name: t
players: {min: 3, max: 3}
kinds:
  card: {attributes: {rank: number}}
zones:
  deck: {visibility: hidden, order: ordered}
  hand: {per: player, visibility: owner}
  trick: {visibility: public}
resources:
  points: {per: player, start: 0}
fields:
  hands: {of: game, type: number}
  leader: {of: game, type: player}
generate:
  - kind: card
    id: "c{rank}"
    name: {en: "Card {rank}"}
    each: {rank: {from: 1, to: 6}}
components:
  - {kind: card, zone: deck}
flow:
  stages:
    - name: deal
      do: |
        for each p in players:
            draw 2 from deck to p.hand
        set game.leader to last(players)
    - name: bidding
      phases:
        - name: bid
          actions: [bid]
          max: 1
          mandatory: true
    - name: tricks
      repeat_while: "count(you.hand) > 0"
      leader: "game.leader"
      phases:
        - name: play
          actions: [play]
          max: 1
          mandatory: true
      after_each: |
        take_trick()
    - name: score
      do: |
        set game.hands to game.hands + 1
        say "Hand {game.hands} is over"
end:
  - if: "game.hands >= 2"
    draw: true
"""

STAGE_RULES = """action bid "Bid":
    say "{you} bids"

action play "Play {c}" for c in you.hand:
    set c.by to you
    move c to trick

define rank_of(c) = c.rank

effect take_trick:
    let best = first(trick where it.rank == max(map(trick, rank_of)))
    say "{best.by} takes the trick"
    set game.leader to best.by
    for each c in trick:
        move c to deck
"""


def _play_first_options(game: rulecraft.Game, limit: int = 100) -> list[str]:
    """Play every decision with its first option; the seats that decided, in order."""
    seats = []
    while game.decision is not None and limit:
        seats.append(f"{game.decision.seat + 1}:{game.legal_ids()[0].split(':')[1]}")
        game.choose(game.legal_ids()[0])
        limit -= 1
    return seats


def test_a_round_of_stages_deals_bids_plays_tricks_until_hands_are_empty_and_scores(
    tmp_path: Path,
) -> None:
    """'a round made of stages that repeat (deal, bid, then tricks until hands are empty,
    then score) without a numeric stage variable' (issue 10)."""
    game = make(tmp_path, STAGES, STAGE_RULES).new_game(seed=1)
    seats = _play_first_options(game)
    # a hand: three bids from the start player, then two tricks (two cards each), led by
    # game.leader (the last player at first, then whoever took the trick), then scoring
    hand = seats[:9]
    assert hand[:3] == ["1:bid", "2:bid", "3:bid"]
    assert [s.split(":")[1] for s in hand[3:]] == ["play"] * 6
    assert hand[3] == "3:play"  # the deal made the last player the leader
    log = "\n".join(game.log)
    taker = log.split(" takes the trick")[0].rsplit("\n", 1)[-1]
    assert hand[6] == f"{taker[-1]}:play"  # the trick's taker leads the next trick
    assert log.count("takes the trick") == 4  # 2 hands x 2 tricks
    assert log.index("Hand 1 is over") > log.index("takes the trick")
    assert seats[9:12] == ["1:bid", "2:bid", "3:bid"]  # the next round starts with a deal
    assert len(seats) == 18
    assert game.result is not None and game.result.draw


def test_end_stage_leaves_a_repeating_stage_and_end_round_skips_the_other_stages(
    tmp_path: Path,
) -> None:
    rules = STAGE_RULES.replace(
        '    say "{you} bids"', '    say "{you} bids"\n    if seat(you) == 1:\n        end round'
    )
    game = make(tmp_path, STAGES, rules).new_game(seed=1)
    seats = _play_first_options(game)
    # seat 2 ends the round in the bidding: seat 3 does not bid, no trick is played, no
    # score; the next round deals again (the hands grow by two cards)
    assert seats[:4] == ["1:bid", "2:bid", "1:bid", "2:bid"]
    assert "takes the trick" not in "\n".join(game.log)

    rules = STAGE_RULES.replace("        move c to deck", "        move c to deck\n    end stage")
    game = make(tmp_path, STAGES, rules).new_game(seed=1)
    seats = _play_first_options(game)
    log = "\n".join(game.log)
    # one trick per hand: end stage stops the repeating stage; scoring still happens
    assert log.count("takes the trick") == 2
    assert "Hand 2 is over" in log
    assert seats[3:7] == ["3:play", "1:play", "2:play", "1:bid"]


def test_end_round_skips_the_other_players_turns_without_stages(tmp_path: Path) -> None:
    """`end round`: 'remaining players skip their turns' (docs/language.md)."""
    manifest = BASE.replace("max: 2", "max: 3").replace("min: 2", "min: 3") + ONE_ACTION
    rules = """action act "Act":
    gain 1 gold
    if seat(you) == 0:
        end round
"""
    game = make(tmp_path, manifest, rules).new_game(seed=1)
    seats = _play_first_options(game, limit=4)
    assert seats == ["1:act", "1:act", "1:act", "1:act"]


def test_end_phase_goes_to_the_next_phase_of_the_same_stage(tmp_path: Path) -> None:
    manifest = STAGES.replace(
        """        - name: bid
          actions: [bid]
          max: 1
          mandatory: true
""",
        """        - name: bid
          actions: [bid]
          max: 1
          mandatory: true
        - name: confirm
          actions: [bid]
          max: 1
          mandatory: true
""",
    )
    rules = STAGE_RULES.replace('    say "{you} bids"', '    say "{you} bids"\n    end phase')
    game = make(tmp_path, manifest, rules).new_game(seed=1)
    seats = _play_first_options(game, limit=7)
    assert seats[:7] == ["1:bid", "1:bid", "2:bid", "2:bid", "3:bid", "3:bid", "3:play"]
    assert game.view(0)["phase"] == "play"


def test_a_scenario_can_start_a_phase_of_a_later_stage(tmp_path: Path) -> None:
    game = make(tmp_path, STAGES, STAGE_RULES).new_game(seed=1)
    game.arrange(phase="play", active=1)
    assert game.decision is not None and game.decision.seat == 1
    assert all(i.startswith("act:play:") for i in game.legal_ids())


def test_stages_are_checked(tmp_path: Path) -> None:
    both = STAGES.replace("flow:\n", "flow:\n  phases:\n    - name: x\n      actions: [bid]\n")
    found = [(c, m) for c, _, m in codes(tmp_path, both, STAGE_RULES) if c.startswith("RC0")]
    assert found == []
    assert ("RC256", 24, "flow has both phases and stages") in codes(tmp_path, both, STAGE_RULES)
    neither = STAGES.replace("  stages:\n", "  order: clockwise\n  unused_stages:\n")
    assert any(c == "RC011" and "phases" in m for c, _, m in codes(tmp_path, neither, STAGE_RULES))
    twice = STAGES.replace("- name: play\n", "- name: bid\n")
    found = [(c, m) for c, _, m in codes(tmp_path, twice, STAGE_RULES) if c == "RC256"]
    assert found == [("RC256", "phase 'bid' is also a phase of stage 'bidding'")]
    unknown = STAGES.replace('repeat_while: "count(you.hand) > 0"', 'repeat_while: "you.hnad"')
    assert any(c == "RC250" for c, _, _ in codes(tmp_path, unknown, STAGE_RULES))


# ---------------------------------------------------------------------------- mixed cards
MIXED = """rulecraft: 1
name: t
players: {min: 2, max: 2}
kinds:
  card: {attributes: {coins: number}}
zones:
  hand: {per: player, visibility: owner}
resources:
  gold: {per: player, start: 0}
components:
  - {kind: card, zone: hand}
""" + ONE_ACTION.replace("[act]", "[count_coins]")


def test_a_sum_over_cards_some_without_the_number_is_a_sum(tmp_path: Path) -> None:
    """'`sum(you.hand.coins)` where some cards have no `coins` crashes at run time with a
    Python TypeError' (issue 10): a declared number a card does not give is 0, and a zone's
    field is that field of each of its cards, as a list's is."""
    ruleset = make(
        tmp_path,
        MIXED,
        """action count_coins "Count":
    gain sum(you.hand.coins) gold

card copper "Copper":
    copies: 2
    coins: 1

card estate "Estate":
    copies: 2
""",
    )
    game = ruleset.new_game(seed=1)
    assert sorted(game.evaluate_expr("you.hand.coins", 0)) == [0, 0, 1, 1]
    game.choose("act:count_coins")
    assert game.evaluate_expr("you.gold", 0) == 2


def test_a_problem_inside_a_label_is_located_at_its_statement(tmp_path: Path) -> None:
    """A label's `{...}` naming an unknown function was reported at '<text>:1:1' (outside
    the ruleset) instead of in the .rcl file."""
    found = codes(
        tmp_path,
        MIXED,
        """action count_coins "Count {site_name(you)}":
    gain 1 gold
""",
    )
    assert ("RC201", 1, "unknown function 'site_name'") in found
    report = check_ruleset(tmp_path)
    assert all(d.span.file.endswith((".rcl", ".yaml")) for d in report.diagnostics)


def test_a_phase_label_interpolates(tmp_path: Path) -> None:
    """'Text: {...} in action, phase and option labels' (issue 10): the phase's label is
    the menu's prompt."""
    manifest = BASE + ONE_ACTION.replace(
        "      actions: [act]\n",
        '      actions: [act]\n      label: "{you}, you have {you.gold} gold"\n',
    )
    game = make(tmp_path, manifest, 'action act "Act":\n    gain 2 gold\n').new_game(seed=1)
    assert game.decision is not None
    assert game.decision.prompt == "Player 1, you have 0 gold"
    game.choose("act:act")
    assert game.decision.prompt == "Player 2, you have 0 gold"
    bad = manifest.replace("{you.gold}", "{you.glod}")
    assert any(
        c == "RC250" for c, _, _ in codes(tmp_path, bad, 'action act "Act":\n    gain 2 gold\n')
    )


def test_an_interpolated_label_names_the_deciders_own_cards_to_it_only(tmp_path: Path) -> None:
    """'Interpolated labels hide cards from their owner: "Play {c}" shows "Play a card"
    even to the player holding the card' (found writing Tricks). The decider reads its
    card's name; the log tells the others "a card" (hidden information is real)."""
    manifest = (
        BASE
        + """kinds:
  card: {}
zones:
  hand: {per: player, visibility: owner}
  pile: {visibility: hidden}
components:
  - {kind: card, zone: hand}
"""
        + ONE_ACTION.replace("[act]", "[play]")
    )
    rules = 'card ace "Ace":\n    copies: 1\n\naction play "Play {c}" for c in you.hand:\n'
    rules += "    move c to pile\n"
    game = make(tmp_path, manifest, rules).new_game(seed=1)
    assert game.decision is not None
    assert [o.label for o in game.decision.options] == ["Play Ace"]
    game.choose(game.legal_ids()[0])
    assert "Player 1: Play Ace" in game.log_for(0)
    assert "Player 1: Play a card" in game.log_for(1)
    assert not any("Ace" in line for line in game.log_for(1))
