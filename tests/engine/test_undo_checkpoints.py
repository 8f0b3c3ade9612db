"""Undo goes back by replaying the game, and replays from a checkpoint: the positions an
earlier undo's replay passed, every ``UNDO_CHECKPOINT`` decisions.  Undoing a long game
step by step (the REPL's ``undo``, the conformance suite's undo to the start) replayed the
whole game at every step, quadratic in its length.  Each position and log undo reaches
must still be exactly the one the game passed through."""

from __future__ import annotations

import random

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names
from rulecraft.runtime import engine as E
from rulecraft.runtime.game import UNDO_CHECKPOINT

DECISIONS = 3 * UNDO_CHECKPOINT + 3


def played(name: str, seed: int, decisions: int = DECISIONS) -> tuple[rulecraft.Game, list]:
    """A game of ``decisions`` random decisions and every position it passed (hash, log)."""
    game = rulecraft.load(name).new_game(seed=seed)
    rng = random.Random(seed)
    passed = [(game.state_hash(), game.log)]
    for _ in range(decisions):
        ids = game.legal_ids()
        if not ids:
            break
        game.choose(rng.choice(ids))
        passed.append((game.state_hash(), game.log))
    return game, passed


@pytest.mark.parametrize("name", sorted(bundled_names()))
def test_undo_step_by_step_reaches_every_position_and_log_the_game_passed(name: str) -> None:
    game, passed = played(name, seed=5)
    while game.can_undo:
        game.undo()
        assert (game.state_hash(), game.log) == passed[len(game.record.choices)], name
    assert len(game.record.choices) == 0


@pytest.mark.pure_only  # (counts the answers through a monkeypatched engine.answer)
def test_after_the_first_undo_an_undo_replays_at_most_a_checkpoints_distance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _ = played("radlands", seed=2)
    answered: list[str] = []
    real_answer = E.answer

    def counting(ctx: E.Ctx, option_id: str) -> None:
        answered.append(option_id)
        real_answer(ctx, option_id)

    monkeypatch.setattr(E, "answer", counting)
    total = len(game.record.choices)
    game.undo()
    assert len(answered) == total - 1  # the first undo replays the game
    for _ in range(total - 1):
        answered.clear()
        game.undo()
        assert len(answered) < UNDO_CHECKPOINT


def test_new_moves_after_an_undo_and_undo_again_give_the_replayed_game() -> None:
    """Checkpoints of the history undone are dropped: a different line played after an
    undo, then undone in part, is the game its record replays."""
    game, _ = played("sparks", seed=4)
    game.undo(UNDO_CHECKPOINT + 3)
    rng = random.Random(99)
    for _ in range(2 * UNDO_CHECKPOINT):
        ids = game.legal_ids()
        if not ids:
            break
        game.choose(rng.choice(ids))
    game.undo(UNDO_CHECKPOINT - 1)
    again = rulecraft.Game.replay(game.ruleset, game.record)
    assert (game.state_hash(), game.log) == (again.state_hash(), again.log)
    game.undo(len(game.record.choices))
    fresh = game.ruleset.new_game(seed=4)
    assert game.state_hash() == fresh.state_hash()


def test_an_arranged_game_undoes_to_the_arrangement_not_to_a_checkpoint_before_it() -> None:
    game, _ = played("tictactoe", seed=1, decisions=4)
    game.undo()  # leaves checkpoints of the old history
    game.arrange(active=0)
    arranged = game.state_hash()
    rng = random.Random(3)
    for _ in range(2):
        game.choose(rng.choice(game.legal_ids()))
    game.undo(2)
    assert game.state_hash() == arranged
