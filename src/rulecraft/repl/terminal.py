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

from rulecraft.repl.narrate import printable
from rulecraft.repl.session import Session

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.output import Output

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
        try:
            line = self.stream.readline()
        except UnicodeDecodeError:  # a stream opened without errors="replace"
            self.console.print(prompt + "?", markup=False, highlight=False)
            return ""
        if not line:
            return None
        text = line.rstrip("\r\n")
        # The echo escapes control characters: a line must not drive the terminal.
        self.console.print(prompt + printable(text, 200), markup=False, highlight=False)
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
        if "output" not in session_kwargs:
            session_kwargs["output"] = _output_without_cpr()
        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(),
            completer=_completer(lambda: self._words(), lambda: self._card_words()),
            complete_while_typing=False,
            key_bindings=_safe_key_bindings(),
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


def _output_without_cpr() -> Output:
    """The terminal output, never asking the terminal where the cursor is (a CPR).

    A terminal that does not answer a CPR makes prompt_toolkit print a warning after two
    seconds; the REPL draws nothing that needs the cursor's row, so it never asks.
    """
    from prompt_toolkit.output import create_output
    from prompt_toolkit.output.vt100 import Vt100_Output

    output = create_output()
    if isinstance(output, Vt100_Output):
        output.enable_cpr = False
    return output


def _safe_key_bindings() -> KeyBindings:
    """Key bindings that swallow mouse reports.

    The REPL never turns mouse reporting on, so a "mouse event" is typed text that looks
    like one (``ESC [ 31 m`` is read as an SGR mouse release): prompt_toolkit's own
    handler would raise on it and end the prompt.
    """
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    bindings = KeyBindings()

    @bindings.add(Keys.Vt100MouseEvent, eager=True)
    def _ignore_mouse(event: KeyPressEvent) -> None:
        """Ignore the sequence: nothing here handles a mouse."""

    @bindings.add(Keys.WindowsMouseEvent, eager=True)
    def _ignore_windows_mouse(event: KeyPressEvent) -> None:
        """Ignore the sequence: nothing here handles a mouse."""

    return bindings


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
            session.say(session.text("end_of_input"))
            break
        session.handle(line)
    return session.exit_code
