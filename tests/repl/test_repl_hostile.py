"""Issue 17, REPL: "Every input must leave the game intact."

Found: "A 5,000-digit number at the prompt kills the REPL and the game (`int()` limit). An
escape sequence (`\\x1b[31m abc`) raises inside prompt_toolkit's mouse handler."

A corpus of hostile lines (huge numbers, control characters, escape sequences, unicode,
empty and very long lines, bad save and load paths) is typed at a session on the fake
game and on the real Tic-Tac-Toe; after each, the session still runs, said something
(or nothing, for a blank line), and the game is exactly as before.  Hypothesis adds
random text.  The terminal cases run through a real pseudo-terminal in
``test_repl_terminal_findings.py``.
"""

from __future__ import annotations

import json
import os
from io import StringIO
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import rulecraft
from repl.helpers import make_session, output
from rulecraft.cli.play_cmd import EngineSource
from rulecraft.repl.narrate import MAX_LINE
from rulecraft.repl.session import Session

BIG = "9" * 5000


def corpus(tmp: Path) -> list[str]:
    """Hostile lines; ``tmp`` holds the files some of them name."""
    deep = tmp / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    not_save = tmp / "list.json"
    not_save.write_text("[1, 2, 3]")
    binary = tmp / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    (tmp / "folder").mkdir()
    return [
        # numbers
        BIG,
        "1" + "0" * 4299,
        "0",
        "-1",
        "+1",
        "1e309",
        "99999999999999999999",
        "1.5",
        "٣",  # an Arabic-Indic digit: isdigit() but not an option number
        "²",
        "𝟙",
        # control characters and escape sequences
        "\x1b[31m abc",
        "\x1b[M   ",
        "\x1b[<0;1;1M",
        "\x1b]0;title\x07",
        "\x1b[6n",  # a cursor position request, typed
        "\x00",
        "pass\x00",
        "\x7f\x7f",
        "\x08\x08help",
        "\r",
        "\u202epass",  # right-to-left override
        "\u200bpass",  # zero-width space
        "\ud800",  # a lone surrogate
        "\udcff",
        # unicode and markup
        "🎲🎲🎲",
        "Ω" * 50,
        "[bold red]boom[/]",
        "{0}{text}%s%n",
        "$(rm -rf /)",
        "'; DROP TABLE games; --",
        # empty and long
        "",
        "   ",
        "\t\t",
        "x" * (MAX_LINE + 1),
        "show " + "y" * (MAX_LINE - 10),
        "help " + "z" * 1000,
        # commands with hostile arguments
        f"log {BIG}",
        "log -5",
        "log ٣",
        f"undo {BIG}",
        "undo 0",
        "show \x1b[2J",
        "show " + BIG,
        "save",
        "save /",
        f"save {tmp / 'folder'}",
        f"save {tmp / 'no' / 'such' / 'dir' / 'x.json'}",
        "save " + "a" * 300,
        f"load {deep}",
        f"load {not_save}",
        f"load {binary}",
        f"load {tmp / 'folder'}",
        f"load {tmp / 'missing.json'}",
        "load /dev/zero",
        "load /dev/null",
        "load /proc/self/mem",
        "load " + "b" * 300,
        "load",
    ]


def check_survives(session: Session, line: str) -> None:
    before = json.dumps(session.game.to_json(), sort_keys=True)
    said = len(output(session))
    session.handle(line)
    assert session.running, repr(line)
    assert json.dumps(session.game.to_json(), sort_keys=True) == before, repr(line)
    if line.strip():
        assert len(output(session)) > said, f"nothing said for {line!r}"


def test_the_corpus_is_big_enough(tmp_path: Path) -> None:
    assert len(corpus(tmp_path)) >= 40


def test_every_hostile_line_leaves_the_fake_game_intact(tmp_path: Path) -> None:
    session = make_session({0: "human", 1: "human"})
    for line in corpus(tmp_path):
        check_survives(session, line)
    session.handle("pass")  # and the game goes on
    assert session.game.to_json()["choices"] == ["pass"]


def test_every_hostile_line_leaves_tictactoe_intact(tmp_path: Path) -> None:
    source = EngineSource(rulecraft.load("tictactoe"), "tictactoe")
    game = source.new_game(None, 1, "en")
    console = Console(file=StringIO(), width=100, color_system=None)
    session = Session(source, game, {0: "human", 1: "human"}, console, seed=1, lang="en")
    session.start()
    session.handle("b2")
    for line in corpus(tmp_path):
        check_survives(session, line)
    session.handle("a1")
    assert session.game.to_json()["choices"] == ["act:place:b2", "act:place:a1"]
    out = output(session)
    assert "(5000 digits) is no option number" in out
    assert "That line holds control characters" in out
    assert "\x1b" not in out  # nothing typed drives the terminal


def test_a_huge_number_is_refused_with_a_message() -> None:
    session = make_session({0: "human", 1: "human"})
    session.handle(BIG)
    assert "'999999...' (5000 digits) is no option number: pick 1-" in output(session)


def test_nothing_was_written_by_refused_saves(tmp_path: Path) -> None:
    session = make_session({0: "human", 1: "human"})
    files = tmp_path / "files"
    files.mkdir()
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        for line in corpus(files):
            if line.startswith("save"):
                session.handle(line)
    finally:
        os.chdir(cwd)
    leftovers = sorted(p.name for p in tmp_path.iterdir())
    # The only save that can succeed is "save aaa...a" (a legal file name): no temp files.
    assert [n for n in leftovers if n.startswith(".")] == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=st.text(max_size=60))
def test_random_text_never_breaks_the_session(line: str) -> None:
    session = make_session({0: "human", 1: "human"})
    before = session.game.to_json()
    if line.strip().lower().split(" ")[0] in ("quit", "save", "load"):
        return  # quitting or writing files is what those words are for
    session.handle(line)
    assert session.running
    changed = session.game.to_json() != before
    if changed:  # only a real choice may change the game
        assert session.game.to_json()["choices"]


@pytest.mark.parametrize("line", ["quit", "QUIT  "])
def test_quit_is_the_only_line_that_stops_the_session(line: str) -> None:
    session = make_session({0: "human", 1: "human"})
    session.handle(line)
    assert not session.running
