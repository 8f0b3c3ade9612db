"""The Radlands transcript in docs/repl.md is what the REPL prints today.

Issue 16: "a transcript of a Radlands turn in docs/repl.md showing the compact screen".
The transcript is made here, by the real CLI path (a script read line by line, echoed
after the prompt), and compared with the block between the markers in docs/repl.md.
After a deliberate change of the screen, write it anew with::

    .venv/bin/python tests/repl/test_repl_transcript.py
"""

from __future__ import annotations

import sys
from io import StringIO
from pathlib import Path

from rich.console import Console

import rulecraft
from rulecraft.cli.play_cmd import EngineSource
from rulecraft.repl.session import Session
from rulecraft.repl.terminal import PlainLineReader, run

DOC = Path(__file__).resolve().parents[2] / "docs" / "repl.md"
BEGIN = "<!-- transcript: radlands (written by tests/repl/test_repl_transcript.py) -->"
END = "<!-- end of transcript -->"
COMMAND = "rulecraft play radlands --seed 1 --seat 2=random --lang en"
LINES = ["1", "scout", "1", "work", "pass", "quit"]


def transcript() -> str:
    """``COMMAND`` fed ``LINES``, as a terminal 100 columns wide shows it."""
    source = EngineSource(rulecraft.load("radlands"), "radlands")
    game = source.new_game(None, 1, "en")
    screen = StringIO()
    console = Console(file=screen, width=100, color_system=None)
    session = Session(source, game, {0: "human", 1: "random"}, console, seed=1, lang="en")
    run(session, PlainLineReader(StringIO("".join(f"{line}\n" for line in LINES)), console))
    return f"$ {COMMAND}\n{screen.getvalue()}"


def block(text: str) -> str:
    return f"{BEGIN}\n```\n{text}```\n{END}"


def documented() -> str:
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    return doc[start:end]


def test_the_documented_transcript_is_current() -> None:
    text = transcript()
    assert "Since your last decision:" in text and "'scout' fits 2 options" in text
    assert "┏" not in text  # the compact screen: no tables
    assert documented() == block(text), "run tests/repl/test_repl_transcript.py to refresh"


def main() -> int:
    doc = DOC.read_text(encoding="utf-8")
    DOC.write_text(doc.replace(documented(), block(transcript())), encoding="utf-8")
    print(f"wrote the transcript into {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
