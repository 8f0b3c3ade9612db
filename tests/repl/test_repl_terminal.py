"""Reading lines: plain pipes and scripts, and a real prompt_toolkit prompt."""

from __future__ import annotations

from io import StringIO

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from repl.helpers import console, make_session, output
from rulecraft.repl.terminal import PlainLineReader, PromptLineReader, _completer, run


def test_run_with_plain_lines_echoes_and_stops_at_eof() -> None:
    session = make_session({0: "human", 1: "human"})
    reader = PlainLineReader(StringIO("pass\nodds\n"), session.console)
    assert run(session, reader) == 0
    out = output(session)
    assert "seat 1> pass\n" in out and "seat 2> odds\n" in out
    assert out.rstrip().endswith("End of input: leaving the game.")


def test_prompt_session_reads_lines_and_eof() -> None:
    with create_pipe_input() as pipe:
        pipe.send_text("help\nstate\n")
        reader = PromptLineReader(input=pipe, output=DummyOutput())
        session = make_session()
        assert reader.read("seat 1> ", session.completion_words, session.card_words) == "help"
        assert reader.read("seat 1> ", session.completion_words, session.card_words) == "state"
        pipe.close()
        assert reader.read("seat 1> ", session.completion_words, session.card_words) is None


def test_completer_offers_commands_options_and_cards_after_show() -> None:
    completer = _completer(lambda: ["help", "hint", "1", "draw"], lambda: ["Ember 3", "c13"])

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("h") == ["help", "hint"]
    assert complete("dr") == ["draw"]
    assert complete("show em") == ["Ember 3"]
    assert complete("show ") == ["Ember 3", "c13"]


def test_console_helper_is_plain() -> None:
    c = console()
    c.print("[b]x[/b]")
    assert isinstance(c.file, StringIO) and c.file.getvalue() == "x\n"
