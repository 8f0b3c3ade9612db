"""What the compiler knows of flags (``compile/flags.py``) changes no answer, only its cost.

``c has F`` is true when ``F`` is set on ``c``, is one of its traits, is its kind or is
granted to it (docs/language.md, "Flags").  A flag that no trait, kind or grant can give is
answered from the card's set flags alone, and a kind's ``active_if`` made of such tests on
``this`` is read from the card's flags without running it.  Along random games of every
bundled ruleset, each card's flags and activity read the same with that knowledge as
without it."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

import rulecraft
from rulecraft.runtime import engine as E
from rulecraft.runtime.program import Program

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
BUNDLED = sorted(p.name for p in RULESETS.iterdir() if (p / "ruleset.yaml").exists())

MANIFEST = """rulecraft: 1
name: t
players: {min: 2, max: 2}
resources:
  gold: {per: player, start: 3}
flags: [polished]
kinds:
  gem:
    active_in: [hand]
    active_if: "not (this has cracked) and not (this has shiny)"
  tool:
    active_in: [hand]
    active_if: "not (this has cracked)"
zones:
  hand: {per: player, visibility: owner}
components:
  - {kind: gem, zone: hand}
  - {kind: tool, zone: hand}
flow:
  phases:
    - name: main
      actions: [abilities]
"""

RULES = """gem ruby "Ruby":
    traits: [shiny]
    ability "Shine" costs 1 gold:
        gain 1 gold

gem opal "Opal":
    ability "Crack" costs 1 gold:
        set flag cracked on this
    ability "Polish" costs 1 gold if this has polished:
        gain 1 gold
    ability "Dress" costs 1 gold:
        set this.traits to [polished]
    grant glowing to this

tool pick "Pick":
    ability "Dig" costs 1 gold if not (this has polished) and not (this has gem):
        gain 1 gold
    ability "Glint" costs 1 gold if this has glowing:
        gain 1 gold
"""


def _ruleset(tmp_path: Path) -> rulecraft.Ruleset:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(RULES, encoding="utf-8")
    return rulecraft.load(tmp_path)


def _labels(game: rulecraft.Game) -> list[str]:
    decision = game.decision
    assert decision is not None
    return [o.label for o in decision.options]


def test_only_flags_nothing_but_a_set_flag_gives_are_known_as_such(tmp_path: Path) -> None:
    program = _ruleset(tmp_path).program
    # shiny is a trait, gem and tool are kinds, glowing is granted: only set flags stay
    assert program.only_set_flags == frozenset({"cracked", "polished"})


def test_an_active_if_of_flag_tests_is_kept_as_its_flags(tmp_path: Path) -> None:
    kinds = _ruleset(tmp_path).program.kinds
    # the gem's tests shiny, a trait: its active_if is run; the tool's is read as flags
    assert kinds["gem"].active_flags is None
    assert kinds["tool"].active_flags == (("cracked", False),)


def test_a_trait_still_makes_a_card_inactive_and_a_set_flag_too(tmp_path: Path) -> None:
    game = _ruleset(tmp_path).new_game(seed=1)
    labels = _labels(game)
    assert not any("Ruby" in label for label in labels)  # shiny: never active
    assert any("Opal" in label for label in labels)
    crack = next(o.id for o in game.decision.options if o.label.startswith("Crack"))
    game.choose(crack)
    assert not any("Opal" in label for label in _labels(game))


def test_traits_set_on_a_copy_at_run_time_still_give_the_flag(tmp_path: Path) -> None:
    game = _ruleset(tmp_path).new_game(seed=1)
    assert not any(label.startswith("Polish") for label in _labels(game))
    assert any(label.startswith("Dig") for label in _labels(game))
    assert not any(label.startswith("Glint") for label in _labels(game))  # the opal's own
    dress = next(o.id for o in game.decision.options if o.label.startswith("Dress"))
    game.choose(dress)
    # polished is only ever set, but this copy now lists it among its traits
    assert any(label.startswith("Polish") for label in _labels(game))


def _without_knowledge(program: Program) -> Program:
    kinds = {name: replace(k, active_flags=None) for name, k in program.kinds.items()}
    return replace(program, only_set_flags=frozenset(), kinds=kinds)


@pytest.mark.parametrize("name", BUNDLED)
def test_flags_and_activity_read_the_same_without_the_knowledge(name: str) -> None:
    ruleset = rulecraft.load(RULESETS / name)
    plain = _without_knowledge(ruleset.program)
    flags = sorted(ruleset.program.flags | ruleset.program.only_set_flags)
    rng = random.Random(11)
    compared = 0
    for seed in range(3):
        game = ruleset.new_game(seed=seed)
        for _ in range(60):
            if game.result is not None:
                break
            st = game.state
            fast = E.Ctx(ruleset.program, st, "", None, E.instances_by_def(st))
            slow = E.Ctx(plain, st, "", None, E.instances_by_def(st))
            for cid in st["comps"]:
                assert E.is_active(fast, cid) == E.is_active(slow, cid), (name, cid)
                for flag in flags:
                    assert E.has_flag(fast, cid, flag) == E.has_flag(slow, cid, flag)
                compared += 1
            game.choose(rng.choice(game.legal_ids()))
    assert compared > 0
