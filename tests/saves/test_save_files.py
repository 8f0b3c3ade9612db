"""Save files on disk: hostile files, one format for the API and the REPL, safe writing,
and copies that share nothing (issue 17, saves; issue 10, the shared ``to_json`` state)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rulecraft
from rulecraft.cli.main import main
from rulecraft.runtime import savefile
from rulecraft.runtime.game import Game


@pytest.fixture(scope="module")
def ttt() -> rulecraft.Ruleset:
    return rulecraft.load("tictactoe")


def started(ruleset: rulecraft.Ruleset, moves: tuple[str, ...] = ("act:place:b2",)) -> Game:
    game = ruleset.new_game(seed=1)
    for move in moves:
        game.choose(move)
    return game


# ---------------------------------------------------------------------------- hostile files
#: Hostile save files for Tic-Tac-Toe: (name, content, what the ValueError must say).
HOSTILE_FILES: list[tuple[str, str, str]] = [
    ("deep list", "[" * 100_000 + "]" * 100_000, "nested deeper than"),
    ("deep object", '{"a":' * 100_000 + "1" + "}" * 100_000, "nested deeper than"),
    ("not json", "{not json", "cannot read the save"),
    ("empty", "", "cannot read the save"),
    ("5000 digits", "1" * 5000, "cannot read the save"),
    ("NaN", '{"format": "rulecraft-save", "version": NaN}', "unsupported save version nan"),
    ("a string", '"rulecraft-save"', "not a rulecraft save"),
]


@pytest.mark.parametrize(
    ("name", "content", "message"), HOSTILE_FILES, ids=[f[0] for f in HOSTILE_FILES]
)
def test_a_hostile_file_is_a_value_error(
    ttt: rulecraft.Ruleset, tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / "save.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        Game.load_file(ttt, path)


def test_bytes_that_are_not_utf8_are_a_value_error(ttt: rulecraft.Ruleset, tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(ValueError, match="cannot read the save"):
        Game.load_file(ttt, path)
    with pytest.raises(ValueError, match="cannot read the save"):
        Game.load_file(ttt, tmp_path / "missing.json")


# ---------------------------------------------------------------------------- copies
def test_to_json_is_a_copy_and_from_json_shares_nothing(ttt: rulecraft.Ruleset) -> None:
    """Issue 10: `Game.from_json(rs, g.to_json())` shared the live state, so a move on the
    copy advanced the original."""
    game = started(ttt)
    before = game.state_hash()
    data = game.to_json()
    data["state"]["turn"] = 99
    assert game.state_hash() == before
    copy = Game.from_json(ttt, game.to_json())
    copy.choose("act:place:a1")
    assert game.state_hash() == before
    assert "act:place:a1" in game.legal_ids()


def test_an_arranged_game_saves_and_loads(ttt: rulecraft.Ruleset) -> None:
    game = started(ttt)
    game.arrange(zones={"a1": ["mark#6"]})
    data = json.loads(json.dumps(game.to_json()))
    assert data["arranged"] is True
    loaded = Game.from_json(ttt, data)
    assert loaded.state_hash() == game.state_hash()
    # The cards of an arranged start must still be the ruleset's own.
    data["initial"]["comps"]["mark#99"] = data["initial"]["comps"].pop("mark#6")
    data["initial"]["zones"]["s:a1"] = ["mark#99"]
    with pytest.raises(ValueError, match="does not hold this ruleset's cards"):
        Game.from_json(ttt, data)


def test_a_clone_without_history_cannot_be_saved(ttt: rulecraft.Ruleset, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="keeps no history"):
        started(ttt).clone().save(tmp_path / "x.json")


# ---------------------------------------------------------------------------- one format
def test_api_and_repl_write_one_format(ttt: rulecraft.Ruleset, tmp_path: Path) -> None:
    """Issue 17: 'The API's Game.save() and the REPL's save write two formats that each
    other refuses ("unsupported save version '0.1' (expected 1)")'."""
    api_save = tmp_path / "api.json"
    started(ttt).save(api_save)
    repl_save = tmp_path / "repl.json"
    script = tmp_path / "moves.txt"
    script.write_text(f"load {api_save}\nsave {repl_save}\nquit\n", encoding="utf-8")
    args = ["play", "tictactoe", "--seed", "1", "--seat", "2=human", "--script", str(script)]
    assert main(args) == 0
    from_repl = json.loads(repl_save.read_text(encoding="utf-8"))
    from_api = json.loads(api_save.read_text(encoding="utf-8"))
    assert from_repl["seats"] == {"1": "human", "2": "human"}
    assert {k: v for k, v in from_repl.items() if k != "seats"} == from_api
    loaded = Game.load_file(ttt, repl_save)
    assert loaded.state_hash() == Game.load_file(ttt, api_save).state_hash()
    assert loaded.legal_ids() == started(ttt).legal_ids()


def test_the_repl_refuses_a_tampered_save_and_plays_on(
    ttt: rulecraft.Ruleset, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "save.json"
    started(ttt).save(path, seats={0: "human", 1: "human"})
    data = json.loads(path.read_text(encoding="utf-8"))
    data["state"]["comps"]["mark#1"]["o"] = 7
    path.write_text(json.dumps(data), encoding="utf-8")
    script = tmp_path / "moves.txt"
    script.write_text(f"load {path}\n" + "1\n" * 9, encoding="utf-8")
    args = ["play", "tictactoe", "--seed", "1", "--seat", "2=human", "--script", str(script)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "owner 7, no such seat" in out
    assert "The current game goes on." in out
    assert "Traceback" not in out
    assert "Game over" in out


# ---------------------------------------------------------------------------- writing
def test_save_fsyncs_the_file_and_its_folder(
    ttt: rulecraft.Ruleset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[bool] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        synced.append(os.path.isdir(f"/proc/self/fd/{fd}") if os.path.isdir("/proc") else True)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    started(ttt).save(tmp_path / "x.json")
    assert synced == [False, True]  # the file, then the folder
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_stale_temp_files_are_removed_and_fresh_ones_kept(
    ttt: rulecraft.Ruleset, tmp_path: Path
) -> None:
    stale = tmp_path / ".save-x.json.123.1.tmp"
    fresh = tmp_path / ".save-x.json.456.2.tmp"
    for tmp in (stale, fresh):
        tmp.write_text("{half a sav", encoding="utf-8")
    old = time.time() - 2 * savefile.STALE_SECONDS
    os.utime(stale, (old, old))
    started(ttt).save(tmp_path / "x.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == [fresh.name, "x.json"]


def test_a_failed_write_leaves_the_old_save_and_no_temp(
    ttt: rulecraft.Ruleset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "x.json"
    started(ttt).save(target)
    before = target.read_bytes()

    def full_disk(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError, match="No space left"):
        started(ttt, ("act:place:a1",)).save(target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


KILLER = """
import sys, rulecraft
game = rulecraft.load("radlands").new_game(seed=1)
print("ready", flush=True)
while True:
    game.save(sys.argv[1])
"""


def test_kill_9_during_saves_leaves_a_loadable_save(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLER, str(target)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 60
    while not target.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.kill()
    proc.wait()
    radlands = rulecraft.load("radlands")
    assert Game.load_file(radlands, target).state_hash() == radlands.new_game(seed=1).state_hash()
    # Whatever temp file the kill left behind goes with the next save, once it is stale.
    for tmp in tmp_path.glob(".save-*"):
        old = time.time() - 2 * savefile.STALE_SECONDS
        os.utime(tmp, (old, old))
    radlands.new_game(seed=1).save(target)
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]
