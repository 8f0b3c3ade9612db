"""A ruleset is compiled once per process while its files stay the same (issue 11: "compiled
once per ruleset and cached (keyed by the ruleset's content hash)")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulecraft
from rulecraft.compile import load as loading

MANIFEST = """\
rulecraft: 1
name: counter
players: {min: 1, max: 1}
resources: {gold: {per: player, start: 0}}
flow:
  phases:
    - name: p
      actions: [earn]
      mandatory: true
"""
RULES = 'action earn "Earn":\n    gain {n} gold\n    if you.gold >= 3:\n        win\n'


def _ruleset(folder: Path, n: int) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (folder / "rules.rcl").write_text(RULES.format(n=n), encoding="utf-8")
    return folder


def _decisions_to_win(ruleset: rulecraft.Ruleset) -> int:
    game = ruleset.new_game(seed=0)
    n = 0
    while game.result is None:
        game.choose("act:earn")
        n += 1
    return n


def test_loading_again_reuses_the_compiled_program() -> None:
    first = rulecraft.load("radlands")
    again = rulecraft.load("radlands")
    assert again is not first and again.program is first.program
    assert again.diagnostics == first.diagnostics


def test_an_edited_file_is_compiled_again(tmp_path: Path) -> None:
    folder = _ruleset(tmp_path / "counter", 1)
    before = rulecraft.load(folder)
    assert _decisions_to_win(before) == 3
    _ruleset(folder, 3)  # the same folder, one file changed
    after = rulecraft.load(folder)
    assert after.program is not before.program
    assert _decisions_to_win(after) == 1
    assert _decisions_to_win(before) == 3  # a game of the old rules is not touched


def test_the_same_files_in_another_folder_are_another_ruleset(tmp_path: Path) -> None:
    """Spans name the folder's own files, so equal contents elsewhere are compiled anew."""
    a = rulecraft.load(_ruleset(tmp_path / "a", 1))
    b = rulecraft.load(_ruleset(tmp_path / "b", 1))
    assert a.program is not b.program
    assert a.program.root != b.program.root


def test_a_cached_program_plays_the_games_a_fresh_one_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def record(ruleset: rulecraft.Ruleset) -> list[str]:
        game = ruleset.new_game(seed=7)
        rng = random.Random(7)
        while game.result is None:
            game.choose(rng.choice(game.legal_ids()))
        return list(game.record.to_json()["choices"])

    cached = record(rulecraft.load("sparks"))
    cached_again = record(rulecraft.load("sparks"))
    monkeypatch.setattr(loading, "_COMPILED", type(loading._COMPILED)())
    fresh = record(rulecraft.load("sparks"))
    assert cached == cached_again == fresh


def test_the_cache_keeps_the_most_recently_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loading, "_COMPILED", type(loading._COMPILED)())
    monkeypatch.setattr(loading, "COMPILED_KEPT", 2)
    one, two, three = (_ruleset(tmp_path / name, 1) for name in ("one", "two", "three"))
    first = rulecraft.load(one).program
    rulecraft.load(two)
    assert rulecraft.load(one).program is first  # one is now the most recent
    rulecraft.load(three)  # two goes
    assert len(loading._COMPILED) == 2
    assert rulecraft.load(one).program is first
    assert all(str(two.resolve()) != key[0] for key in loading._COMPILED)
