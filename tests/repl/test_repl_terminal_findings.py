"""The terminal findings of issues 16 and 17, on a real pseudo-terminal (pexpect).

Issue 16: "no prompt_toolkit CPR warning when the terminal does not answer".
Issue 17: "A 5,000-digit number at the prompt kills the REPL and the game (`int()`
limit). An escape sequence (`\\x1b[31m abc`) raises inside prompt_toolkit's mouse
handler. Every input must leave the game intact."
"""

from __future__ import annotations

import os
import sys
import time
from io import StringIO
from pathlib import Path

import pexpect

TESTS_DIR = Path(__file__).resolve().parents[1]
FACTORY = ["--game-factory", "repl.fakegame:make_source"]


def spawn(*args: str, cpr: bool = False) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(TESTS_DIR)}
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    if not cpr:
        env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "rulecraft.cli.main", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
    )


def test_no_cpr_warning_when_the_terminal_does_not_answer() -> None:
    # pexpect's terminal never answers a cursor position request: prompt_toolkit used to
    # warn after two seconds. PROMPT_TOOLKIT_NO_CPR is not set here, as for a person.
    child = spawn(*FACTORY, "--seed", "3", "--seat", "2=human", cpr=True)
    seen = StringIO()
    child.logfile_read = seen  # everything the terminal shows
    try:
        child.expect("seat 1>")
        time.sleep(2.5)
        child.sendline("help")
        child.expect("list the commands")
        child.expect("seat 1>")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    shown = seen.getvalue()
    assert "list the commands" in shown  # the capture works
    assert "CPR" not in shown and "cursor position" not in shown
    assert "\x1b[6n" not in shown  # and the question is never asked
    assert child.exitstatus == 0


def test_escape_sequences_and_a_huge_number_leave_the_game_intact() -> None:
    child = spawn(*FACTORY, "--seed", "3", "--seat", "2=human")
    try:
        child.expect("seat 1>")
        child.send("\x1b[31m abc\r")  # read as a mouse report by prompt_toolkit
        child.expect("Unknown command or option 'abc'")
        child.expect("seat 1>")
        child.send("\x1b[<0;3;4M\x1b[M !!\r")  # SGR and X10 mouse reports, typed
        child.expect("seat 1>")
        child.sendline("9" * 5000)
        child.expect(r"\(5000 digits\) is no option number")
        child.expect("seat 1>")
        child.sendline("pass")  # the game goes on where it was
        child.expect("Seat 1 passes")
        child.expect("seat 2>")
        child.sendline("quit")
        child.expect("Bye")
        child.expect(pexpect.EOF)
        rest = child.before or ""
    finally:
        child.close()
    assert "Traceback" not in rest and "Unhandled exception" not in rest
    assert child.exitstatus == 0


def test_a_prefix_and_a_label_choose_at_the_terminal() -> None:
    child = spawn("tictactoe", "--seed", "1", "--seat", "2=human")
    try:
        child.expect("seat 1>")
        child.sendline("b1")
        child.expect("Place a mark: b1")
        child.expect("seat 2>")
        child.sendline("place a mark: c3")
        child.expect(r" 1 \. X \.")
        child.expect(r" 3 \. \. O")
        child.expect("seat 1>")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
