"""The turn structure's events reach their triggers in the order docs/language.md's table
of events gives ("Events"): a round's start, each turn's start, each phase's start and
end, the turn's end, the round's end, with the manifest's ``round_start`` and
``round_end`` blocks after the triggers of the same moment.

The flow's instructions skip an event nobody listens to (no list of arguments is made,
and a round's end with neither a block nor a trigger runs in one step): this pins what a
listener still sees.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft

MANIFEST = """\
rulecraft: 1
name: events
title: "Events"
players: {min: 2, max: 2}
files: [rules.rcl]
flow:
  round_start: |
    say "block round start {round}"
  round_end: |
    say "block round end {round}"
  phases:
    - name: first
      actions: [step]
      max: 1
      mandatory: true
    - name: second
      actions: [step]
      max: 1
      mandatory: true
"""

RULES = """\
action step "Step":
    say "go {you}"

rule watch "Watch":
    at round_start(r):
        say "round start {r}"
    at turn_start(p):
        say "turn start {p}"
    at phase_start(name):
        say "phase start {name}"
    at phase_end(name):
        say "phase end {name}"
    at turn_end(p):
        say "turn end {p}"
    at round_end(r):
        say "round end {r}"
"""

QUIET_RULES = 'action step "Step":\n    say "go {you}"\n'


#: The manifest without its round blocks: a round's end then has only its triggers.
NO_BLOCKS = MANIFEST.split("  round_start: |")[0] + MANIFEST.split('{round}"\n')[-1]


def _ruleset(folder: Path, rules: str, manifest: str = MANIFEST) -> rulecraft.Ruleset:
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (folder / "rules.rcl").write_text(rules, encoding="utf-8")
    return rulecraft.load(folder)


def _lines(game: rulecraft.Game, decisions: int) -> list[str]:
    for _ in range(decisions):
        game.choose(game.legal_ids()[0])
    return [line for line in game.log_for(0) if not line.startswith("Player")]


@pytest.mark.parametrize("blocks", [True, False], ids=["with round blocks", "triggers only"])
def test_every_event_of_a_round_reaches_its_trigger_in_order(tmp_path: Path, blocks: bool) -> None:
    manifest = MANIFEST if blocks else NO_BLOCKS
    game = _ruleset(tmp_path / "events", RULES, manifest).new_game(seed=1)
    lines = _lines(game, 4)  # two turns of two phases: one round
    expected = [
        "round start 1",
        "block round start 1",
        "turn start Player 1",
        "phase start first",
        "go Player 1",
        "phase end first",
        "phase start second",
        "go Player 1",
        "phase end second",
        "turn end Player 1",
        "turn start Player 2",
        "phase start first",
        "go Player 2",
        "phase end first",
        "phase start second",
        "go Player 2",
        "phase end second",
        "turn end Player 2",
        "round end 1",
        "block round end 1",
        "round start 2",
        "block round start 2",
        "turn start Player 1",
        "phase start first",
    ]
    assert lines == [line for line in expected if blocks or not line.startswith("block")]


def test_a_round_nobody_listens_to_ends_and_starts_the_next(tmp_path: Path) -> None:
    game = _ruleset(tmp_path / "quiet", QUIET_RULES).new_game(seed=1)
    lines = _lines(game, 8)  # two rounds
    assert [line for line in lines if "block" in line] == [
        "block round start 1",
        "block round end 1",
        "block round start 2",
        "block round end 2",
        "block round start 3",
    ]
    assert game.state["round"] == 3 and game.state["active"] == 0


LIMITED_MANIFEST = """\
rulecraft: 1
name: limits
title: "Limits"
players: {min: 2, max: 2}
files: [rules.rcl]
flow:
  phases:
    - name: main
      actions: [tap, rest]
      max: 2
      mandatory: true
"""


def _offered(game: rulecraft.Game) -> list[str]:
    return sorted(option.split(":")[1] for option in game.legal_ids())


@pytest.mark.parametrize("period", ["turn", "round"])
def test_a_once_per_limit_frees_its_action_again_as_its_period_starts(
    tmp_path: Path, period: str
) -> None:
    """docs/language.md: "`once per turn` (also `phase`, `round`...) limits each copy":
    the uses counted for a turn or a round are forgotten as the next one starts (the flow
    forgets only the scopes some rule counts in: this program counts in one of them)."""
    rules = f'action tap "Tap" once per {period}:\n    say "tap"\n\n'
    rules += 'action rest "Rest":\n    say "rest"\n'
    game = _ruleset(tmp_path / "limits", rules, LIMITED_MANIFEST).new_game(seed=1)
    assert _offered(game) == ["rest", "tap"]  # round 1, Player 1's first action
    game.choose("act:tap")
    assert _offered(game) == ["rest"]  # the same turn: used
    game.choose("act:rest")
    # Player 2's turn, the same round: a turn's limit is free again, a round's is not
    assert _offered(game) == (["rest", "tap"] if period == "turn" else ["rest"])
    game.choose("act:rest")
    game.choose("act:rest")
    assert game.state["round"] == 2 and _offered(game) == ["rest", "tap"]


def _ability_rulesets() -> list[str]:
    from rulecraft.compile.load import bundled_names

    return [n for n in bundled_names() if any(rulecraft.load(n).program.abilities.values())]


@pytest.mark.parametrize("name", _ability_rulesets())
def test_a_phase_begins_with_nothing_used_in_it(name: str) -> None:
    """What a phase noted of its uses (its count of actions, that an ability was used in
    it) is forgotten as the next phase begins: along random games, at every decision of a
    phase in which no ability was chosen yet, the state notes no ability used in it."""
    rng = random.Random(5)
    ruleset = rulecraft.load(name)
    checked = 0
    for seed in range(3):
        game = ruleset.new_game(seed=seed)
        where = None
        used_ability = False
        for _ in range(150):
            pending = game.state["pending"]
            if game.result is not None or pending is None:
                break
            now = (game.state["turn"], game.state["phase"])
            if now != where:
                where, used_ability = now, False
            if not used_ability:
                checked += 1
                assert "phase|did:abilities" not in game.state["used"]
            option = rng.choice(pending["options"])
            if pending["kind"] == "action" and option[2][0] == "ab":
                used_ability = True
            game.choose(option[0])
    assert checked > 0
