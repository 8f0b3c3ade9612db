"""Where the REPL's lines come from: a prompt_toolkit prompt on a terminal, plain lines
from a pipe or a script file otherwise; and :func:`run` which feeds them to a session.

>>> from io import StringIO
>>> from rich.console import Console
>>> console = Console(file=StringIO(), width=100, color_system=None)
>>> reader = PlainLineReader(StringIO("help\\n"), console)
>>> reader.read("seat 1> ", lambda: [], lambda: [])
'help'
>>> reader.read("seat 1> ", lambda: [], lambda: []) is None
True
>>> console.file.getvalue()
'seat 1> help\\n'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol, TextIO

from rich.console import Console

from rulecraft.repl.session import Session

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

Words = Callable[[], list[str]]


class LineReader(Protocol):
    """A source of typed lines; ``None`` means the input has ended."""

    def read(self, prompt: str, words: Words, card_words: Words) -> str | None: ...


class PlainLineReader:
    """Lines from a pipe or script file, echoed after the prompt so transcripts read well."""

    def __init__(self, stream: TextIO, console: Console) -> None:
        self.stream = stream
        self.console = console

    def read(self, prompt: str, words: Words, card_words: Words) -> str | None:
        line = self.stream.readline()
        if not line:
            return None
        text = line.rstrip("\r\n")
        self.console.print(prompt + text, markup=False, highlight=False)
        return text


class PromptLineReader:
    """An interactive prompt with completion and in-memory history (prompt_toolkit).

    Completion: commands, option numbers and ids; after ``show``, the cards the seat sees.
    """

    def __init__(self, **session_kwargs: object) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        self._words: Words = list
        self._card_words: Words = list
        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(),
            completer=_completer(lambda: self._words(), lambda: self._card_words()),
            complete_while_typing=False,
            **session_kwargs,  # type: ignore[arg-type]
        )

    def read(self, prompt: str, words: Words, card_words: Words) -> str | None:
        self._words, self._card_words = words, card_words
        try:
            return self.session.prompt(prompt)
        except EOFError:
            return None
        except KeyboardInterrupt:
            return "quit"


def _completer(words: Words, card_words: Words) -> Completer:
    from prompt_toolkit.completion import Completer, Completion

    class _SessionCompleter(Completer):
        def get_completions(
            self, document: Document, complete_event: CompleteEvent
        ) -> Iterable[Completion]:
            text = document.text_before_cursor
            if text.lower().startswith("show "):
                partial = text[5:].lstrip()
                candidates = card_words()
            else:
                partial = text
                candidates = words()
            for word in candidates:
                if word.lower().startswith(partial.lower()) and word != partial:
                    yield Completion(word, start_position=-len(partial))

    return _SessionCompleter()


def run(session: Session, reader: LineReader) -> int:
    """Start ``session`` and feed it lines until it stops or the input ends."""
    session.start()
    while session.running:
        line = reader.read(session.prompt(), session.completion_words, session.card_words)
        if line is None:
            session.say("End of input: leaving the game.")
            break
        session.handle(line)
    return session.exit_code
