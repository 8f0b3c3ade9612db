"""Same games as before: 100 seeded random games of every bundled ruleset, hashed.

A game's fingerprint is its record (seed, seats, every choice made) and how it ended (the
winning seats, draw or not), so a change to the engine that alters any legal option, its id,
its order, a shuffle or a roll shows up here, while a reworded log line or a new field in the
state does not.  The hashes live in ``fixtures/record_hashes.json``.

Rule of the project (issue 11): an engine change must leave these hashes as they are; a
change to a ruleset that alters its games re-baselines them *in its own commit*, naming the
ruleset change, never in the same commit as an engine change.  Re-baseline with::

    .venv/bin/python tests/engine/test_record_hashes.py [RULESET ...]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile.load import bundled_names

FIXTURE = Path(__file__).parent / "fixtures" / "record_hashes.json"
GAMES = 100


def game_fingerprint(ruleset: rulecraft.Ruleset, seed: int) -> str:
    """The first 16 hex digits of the sha256 of one random game's record and outcome."""
    game = ruleset.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(game.max_decisions):
        pending = game.pending_ids()
        if pending is None:
            break
        game.choose(rng.choice(pending[1]))
    record = game.record.to_json()
    result = game.result
    payload = {
        "players": record["players"],
        "seed": record["seed"],
        "choices": record["choices"],
        "winners": list(result.winners) if result else None,
        "draw": result.draw if result else None,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def ruleset_fingerprints(name: str) -> list[str]:
    ruleset = rulecraft.load(name)
    return [game_fingerprint(ruleset, seed) for seed in range(GAMES)]


def _baseline() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


@pytest.mark.xdist_group("record_hashes")
@pytest.mark.parametrize("name", bundled_names())
def test_random_games_are_the_same_games_as_the_baseline(name: str) -> None:
    baseline = _baseline()
    assert name in baseline, f"no baseline for {name}: run this file as a script to add it"
    got = ruleset_fingerprints(name)
    changed = [seed for seed, (a, b) in enumerate(zip(got, baseline[name], strict=True)) if a != b]
    assert not changed, f"{name}: {len(changed)} of {GAMES} games changed (seeds {changed[:10]})"


def test_a_different_choice_changes_the_fingerprint() -> None:
    """The fingerprint really depends on the game: seeds 0 and 1 play different games."""
    ruleset = rulecraft.load("tictactoe")
    assert game_fingerprint(ruleset, 0) == game_fingerprint(ruleset, 0)
    assert len({game_fingerprint(ruleset, s) for s in range(10)}) > 1


def main(names: list[str]) -> None:
    baseline = _baseline() if FIXTURE.exists() else {}
    for name in names or bundled_names():
        baseline[name] = ruleset_fingerprints(name)
        print(f"{name}: {GAMES} games hashed")
    FIXTURE.write_text(json.dumps(baseline, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
