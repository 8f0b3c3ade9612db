"""A menu's options are made once and offered again: an action's option for a value
(``ActionSpec.value_options``), for a space its ``where`` keeps (``kept_options``), an
ability's on a card (``AbilitySpec.keys``).  A decision then builds and frees no option
lists.  Two things must hold for that: an option naming a card is offered only while the
deciding seat sees the card (else the option names the card's place, made afresh), and
nothing changes an offered option in place (clones and later decisions hold the same
lists)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulecraft
from rulecraft.runtime import ids
from rulecraft.runtime.program import Program

MANIFEST = """rulecraft: 1
name: t
players: {min: 2, max: 2}
kinds:
  gem: {}
zones:
  pile: {visibility: hidden}
components:
  - {kind: gem, zone: pile}
flow:
  phases:
    - name: main
      actions: [show, hide]
"""

RULES = """gem ruby "Ruby":
    copies: 2

action show "Show" for card in pile:
    reveal card

action hide "Hide" for card in pile:
    move card to pile
"""


def _game(tmp_path: Path) -> rulecraft.Game:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(RULES, encoding="utf-8")
    return rulecraft.load(tmp_path).new_game(seed=1)


def _options(game: rulecraft.Game) -> list[list[Any]]:
    pending = game.state["pending"]
    assert pending is not None
    return list(pending["options"])


def test_a_card_is_named_by_its_place_again_once_it_is_hidden(tmp_path: Path) -> None:
    game = _game(tmp_path)
    pile = game.state["zones"]["z:pile"]
    bottom, top = pile
    hidden = [ids.action_option("show", ids.position_id("z:pile", i)) for i in range(2)]
    assert game.legal_ids()[:2] == hidden
    game.choose(hidden[0])  # the bottom card is shown: everybody sees it now
    shown = ids.action_option("show", bottom)
    assert shown in game.legal_ids()
    game.choose(ids.action_option("hide", bottom))  # back on the pile, face down again
    assert game.state["zones"]["z:pile"] == [top, bottom]
    assert not any(bottom in option for option in game.legal_ids()), game.legal_ids()
    assert game.legal_ids()[:2] == hidden
    game.choose(hidden[1])  # shown again: the option made the first time comes back
    assert shown in game.legal_ids()


def test_a_shown_cards_option_is_the_same_list_at_every_decision(tmp_path: Path) -> None:
    game = _game(tmp_path)
    game.choose(game.legal_ids()[0])
    first = {o[0]: o for o in _options(game)}
    game.choose(game.legal_ids()[0])  # showing it again changes nothing of its option
    again = {o[0]: o for o in _options(game)}
    shown = [key for key in first if key.startswith(ids.action_option("show", "ruby"))]
    assert shown
    for key in shown:
        assert again[key] is first[key]


def _made(program: Program) -> list[tuple[list[Any], list[Any]]]:
    """Every option the program has made once, with what it must still be."""
    out: list[tuple[list[Any], list[Any]]] = []
    for name, act in program.actions.items():
        for value, (option, _) in act.value_options.items():
            out.append(
                (
                    option,
                    [ids.action_option(name, ids.bare_name(value)), None, ["act", name, value]],
                )
            )
        if act.kept is not None:
            for space, option in zip(act.kept.spaces, act.kept_options, strict=True):
                made: list[Any] = [ids.action_option(name, ids.space_name(space)), None]
                out.append((option, [*made, ["act", name, space]]))
    for abilities in program.abilities.values():
        for ab in abilities:
            for cid, (option, _) in ab.keys.items():
                answer: list[Any] = ["ab", cid, ab.index]
                out.append((option, [ids.ability_option(cid, ab.index), None, answer]))
    return out


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "radlands", "waste_knights"])
def test_random_games_leave_every_option_made_once_as_it_was_made(name: str) -> None:
    ruleset = rulecraft.load(name)
    rng = random.Random(5)
    for seed in range(4):
        game = ruleset.new_game(seed=seed)
        for _ in range(400):
            if game.result is not None:
                break
            twin = game.clone()
            twin.choose(rng.choice(twin.legal_ids()))
            game.choose(rng.choice(game.legal_ids()))
    made = _made(game.program)
    assert made, "no option was made once: the test reads the wrong tables"
    for option, want in made:
        assert option == want
