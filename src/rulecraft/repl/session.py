"""The REPL's command logic, apart from any terminal: one line in, output to a Console.

A :class:`Session` holds the game being played, who sits where (``"human"`` or a bot spec
such as ``"mcts:200"``), and answers each line a person types.  Reading lines (a
prompt_toolkit prompt, a pipe, a script file) lives in :mod:`rulecraft.repl.terminal`, so
everything here can be driven by tests with a list of strings.

Seats are 0-based in the API and 1-based for people: the session converts at its edges.
"""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from rulecraft.interpreter.decision import Decision
from rulecraft.interpreter.protocols import Agent
from rulecraft.repl.ports import AgentFactory, GameSource, PlayableGame, engine_agent_factory
from rulecraft.repl.render import render_decision, render_result, render_view, seat_label

HUMAN = "human"
HINT_AGENT = "mcts:200/1s"
SAVE_FORMAT = "rulecraft-save"
SAVE_VERSION = 1
DEFAULT_LOG_LINES = 10


@dataclass(frozen=True, slots=True)
class Command:
    """One REPL command: its name, argument synopsis and one-line help."""

    name: str
    args: str
    help: str


COMMANDS: tuple[Command, ...] = (
    Command("help", "", "list the commands"),
    Command("state", "", "show the table again"),
    Command("show", "CARD", "a card's text (by name or id), if you can see it"),
    Command("log", "[N]", f"the last N log lines (default {DEFAULT_LOG_LINES})"),
    Command("undo", "[N]", "take back your last N decisions (default 1)"),
    Command("save", "FILE", "save the game (and seats, language) to FILE"),
    Command("load", "FILE", "load a game saved with 'save'"),
    Command("hint", "", f"what the {HINT_AGENT} bot would pick"),
    Command("odds", "", "the exact odds of the pending roll or test"),
    Command("quit", "", "leave the game"),
)
COMMAND_NAMES: tuple[str, ...] = tuple(c.name for c in COMMANDS)


class SaveError(ValueError):
    """A save file that cannot be loaded; the message says why, for people."""


def parse_save(
    data: object, ruleset: str
) -> tuple[dict[int, str], str | None, int, dict[str, Any]]:
    """Check a decoded save file; return its seats (0-based), lang, seed and game data.

    >>> parse_save({"format": "rulecraft-save", "version": 1, "ruleset": "g",
    ...             "seats": {"1": "human"}, "lang": "en", "seed": 3, "game": {}}, "g")
    ({0: 'human'}, 'en', 3, {})
    >>> parse_save([], "g")
    Traceback (most recent call last):
    ...
    rulecraft.repl.session.SaveError: not a rulecraft save file (expected a JSON object)
    """
    if not isinstance(data, dict):
        raise SaveError("not a rulecraft save file (expected a JSON object)")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError("not a rulecraft save file (no 'format': 'rulecraft-save')")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"unsupported save version {data.get('version')!r} (expected 1)")
    if data.get("ruleset") != ruleset:
        raise SaveError(
            f"this save is for ruleset {data.get('ruleset')!r}, not {ruleset!r}; "
            f"start 'rulecraft play {data.get('ruleset')}' to load it"
        )
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, dict) or not raw_seats:
        raise SaveError("the save has no 'seats' table")
    seats: dict[int, str] = {}
    for key, spec in raw_seats.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) >= 1):
            raise SaveError(f"bad seat number {key!r} in the save (seats are 1, 2, ...)")
        if not (isinstance(spec, str) and spec):
            raise SaveError(f"bad player for seat {key}: {spec!r}")
        seats[int(key) - 1] = spec
    if sorted(seats) != list(range(len(seats))):
        raise SaveError("the save's seats are not numbered 1..N")
    lang, seed, game = data.get("lang"), data.get("seed"), data.get("game")
    if lang is not None and not isinstance(lang, str):
        raise SaveError("the save's 'lang' is not a string")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError("the save has no integer 'seed'")
    if not isinstance(game, dict):
        raise SaveError("the save has no 'game' object")
    return seats, lang, seed, game


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so a crash leaves either the old file or the new one."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Session:
    """One game at the table: answers lines typed by people, moves the bots.

    ``seats`` maps every 0-based seat to ``"human"`` or a bot spec.  Call :meth:`start`
    once, then :meth:`handle` with each line until :attr:`running` is false.
    """

    def __init__(
        self,
        source: GameSource,
        game: PlayableGame,
        seats: Mapping[int, str],
        console: Console,
        *,
        seed: int = 0,
        lang: str | None = None,
        agent_factory: AgentFactory = engine_agent_factory,
    ) -> None:
        self.source = source
        self.game = game
        self.console = console
        self.seed = seed
        self.lang = lang
        self.agent_factory = agent_factory
        self.seats: dict[int, str] = dict(seats)
        self.agents: dict[int, Agent] = self._make_agents(self.seats, seed)
        self.running = True
        self.exit_code = 0

    # -- seats -------------------------------------------------------------------------

    def _make_agents(self, seats: Mapping[int, str], seed: int) -> dict[int, Agent]:
        # Each bot gets its own seed so two bots of one kind do not mirror each other.
        return {
            seat: self.agent_factory(spec, seed + seat + 1)
            for seat, spec in seats.items()
            if spec != HUMAN
        }

    @property
    def humans(self) -> list[int]:
        return sorted(s for s, spec in self.seats.items() if spec == HUMAN)

    @property
    def viewer(self) -> int:
        """The seat whose view is shown: the human to decide, else the first human."""
        decision = self.game.decision
        if decision is not None and self.seats.get(decision.seat) == HUMAN:
            return decision.seat
        humans = self.humans
        return humans[0] if humans else 0

    def _names(self) -> list[str]:
        return list(self.game.seat_names)

    def _label(self, seat: int) -> str:
        return seat_label(seat, self._names())

    # -- output helpers ----------------------------------------------------------------

    def say(self, text: str) -> None:
        """Print plain text (never read as rich markup: card names may hold brackets)."""
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def show_state(self) -> None:
        """The viewer's view, then the pending decision or the result."""
        render_view(self.console, self.game.view(self.viewer))
        decision = self.game.decision
        if decision is not None and self.seats.get(decision.seat) == HUMAN:
            render_decision(self.console, decision, self._names())

    def prompt(self) -> str:
        """The prompt text, e.g. ``"seat 1> "``."""
        return f"seat {self.viewer + 1}> "

    def completion_words(self) -> list[str]:
        """Words worth completing now: commands, option numbers and ids, visible cards."""
        words = list(COMMAND_NAMES)
        decision = self.game.decision
        if decision is not None:
            words += [str(n) for n in range(1, len(decision.options) + 1)]
            words += list(decision.ids)
        return words

    def card_words(self) -> list[str]:
        """Names and ids of the cards the viewer can see (for ``show`` completion)."""
        view = self.game.view(self.viewer)
        words: list[str] = []
        for zone in view.get("zones") or []:
            for card in zone.get("cards") or []:
                if not card.get("hidden"):
                    words += [str(card.get("name", "")), str(card.get("id", ""))]
        return sorted({w for w in words if w})

    # -- the loop ----------------------------------------------------------------------

    def start(self) -> None:
        """Move the bots until a person must decide, and show the table."""
        seats = ", ".join(f"{s + 1}={spec}" for s, spec in sorted(self.seats.items()))
        self.say(f"{self.source.name}: seed {self.seed}, seats {seats}. Type 'help' for commands.")
        self._advance(show=True)

    def _advance(self, show: bool) -> None:
        """Let bots move until a human decides or the game ends."""
        while True:
            decision = self.game.decision
            if decision is None:
                self._finish()
                return
            spec = self.seats.get(decision.seat, HUMAN)
            if spec == HUMAN:
                if show:
                    self.show_state()
                return
            if not self._bot_move(decision, spec):
                return
            show = True

    def _bot_move(self, decision: Decision, spec: str) -> bool:
        agent = self.agents[decision.seat]
        reader = self.viewer  # whose log the move is told from: a human's, never all-seeing
        before = len(self.game.log_for(reader))
        try:
            option_id = agent.choose(self.game.clone())
            self.game.choose(option_id)
        except Exception as exc:  # a broken bot must end the session politely, not crash it
            self.say(f"bot at seat {self._label(decision.seat)} ({spec}) failed: {exc}")
            self.running = False
            self.exit_code = 1
            return False
        # The bot's option label may name its hidden cards, so only the log the viewer may
        # read is shown.
        new_lines = self.game.log_for(reader)[before:]
        if new_lines:
            for line in new_lines:
                self.say(f"  [seat {decision.seat + 1} {spec}] {line}")
        else:
            self.say(f"  [seat {decision.seat + 1} {spec}] moved")
        return True

    def _finish(self) -> None:
        view = self.game.view(self.viewer)
        render_view(self.console, {**view, "result": None})
        result = self.game.result
        render_result(self.console, result.to_json() if result else view.get("result"))
        if result is None and view.get("result") is None:
            self.say("Game over.")
        self.running = False

    def handle(self, line: str) -> None:
        """Answer one typed line: an option number, an option id, or a command."""
        text = line.strip()
        if not text or not self.running:
            return
        decision = self.game.decision
        if decision is None:
            self._finish()
            return
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(decision.options):
                self._choose(decision.options[number - 1].id)
            else:
                self.say(f"There is no option {number}: pick 1-{len(decision.options)}.")
            return
        command = word.lower()
        if command in COMMAND_NAMES:
            handler: Callable[[str], None] = getattr(self, f"_cmd_{command}")
            handler(rest)
            return
        if text in decision.ids:
            self._choose(text)
            return
        self._unknown(text, decision)

    def _choose(self, option_id: str) -> None:
        reader = self.viewer
        before = len(self.game.log_for(reader))
        try:
            self.game.choose(option_id)
        except ValueError as exc:
            self.say(f"That choice was refused: {exc}")
            return
        for entry in self.game.log_for(reader)[before:]:
            self.say(f"  {entry}")
        self._advance(show=True)

    def _unknown(self, text: str, decision: Decision) -> None:
        word = text.split()[0].lower()
        close = difflib.get_close_matches(word, COMMAND_NAMES, n=1, cutoff=0.6)
        close = close or difflib.get_close_matches(text, decision.ids, n=1, cutoff=0.6)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        self.say(
            f"Unknown command or option '{text}'.{hint} Type a number "
            f"1-{len(decision.options)}, an option id, or 'help'."
        )

    # -- commands ----------------------------------------------------------------------

    def _cmd_help(self, rest: str) -> None:
        self.say("Type an option's number or id to choose it, or a command:")
        for c in COMMANDS:
            self.say(f"  {(c.name + ' ' + c.args).strip():<12} {c.help}")

    def _cmd_state(self, rest: str) -> None:
        self.show_state()

    def _cmd_show(self, rest: str) -> None:
        if not rest:
            self.say("Usage: show CARD (a card's name or id)")
            return
        text = self.game.describe(rest, self.viewer)
        if text is None:
            self.say(f"Seat {self.viewer + 1} sees no card called '{rest}'.")
        else:
            self.say(text)

    def _count(self, rest: str, default: int, usage: str) -> int | None:
        if not rest:
            return default
        if rest.isdigit() and int(rest) >= 1:
            return int(rest)
        self.say(f"Usage: {usage} (N is a whole number, 1 or more)")
        return None

    def _cmd_log(self, rest: str) -> None:
        count = self._count(rest, DEFAULT_LOG_LINES, "log [N]")
        if count is None:
            return
        lines = self.game.log_for(self.viewer)[-count:]
        if not lines:
            self.say("The log is empty.")
        for entry in lines:
            self.say(entry)

    def _cmd_undo(self, rest: str) -> None:
        count = self._count(rest, 1, "undo [N]")
        if count is None:
            return
        undone = steps = 0
        # A person undoes their own decisions: bot decisions in between go too, else the
        # bot would simply move again and the undo would change nothing.
        while undone < count and self.game.can_undo:
            self.game.undo(1)
            steps += 1
            decision = self.game.decision
            if decision is not None and self.seats.get(decision.seat) == HUMAN:
                undone += 1
        if steps == 0:
            self.say("Nothing to undo.")
            return
        self.say(f"Undid {undone} decision{'s' if undone != 1 else ''}.")
        self._advance(show=True)

    def _cmd_save(self, rest: str) -> None:
        if not rest:
            self.say("Usage: save FILE")
            return
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "ruleset": self.source.name,
            "seats": {str(s + 1): spec for s, spec in sorted(self.seats.items())},
            "lang": self.lang,
            "seed": self.seed,
            "game": self.game.to_json(),
        }
        path = Path(rest).expanduser()
        try:
            write_atomically(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
        except OSError as exc:
            self.say(f"Could not save to {path}: {exc.strerror or exc}")
            return
        self.say(f"Saved to {path}.")

    def _cmd_load(self, rest: str) -> None:
        if not rest:
            self.say("Usage: load FILE")
            return
        path = Path(rest).expanduser()
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            seats, lang, seed, game_data = parse_save(raw, self.source.name)
        except OSError as exc:
            self.say(f"Could not read {path}: {exc.strerror or exc}. The current game goes on.")
            return
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.say(f"Could not load {path}: not valid JSON ({exc}). The current game goes on.")
            return
        except SaveError as exc:
            self.say(f"Could not load {path}: {exc}. The current game goes on.")
            return
        try:
            # Whatever the engine raises on a damaged state, the current game must survive.
            game = self.source.restore(game_data)
            if game.num_players != len(seats):
                raise SaveError(f"{len(seats)} seats saved for a {game.num_players}-player game")
            agents = self._make_agents(seats, seed)
        except Exception as exc:
            self.say(
                f"Could not load {path}: the saved game is damaged ({exc}). "
                "The current game goes on."
            )
            return
        self.game, self.seats, self.agents = game, seats, agents
        self.lang, self.seed = lang, seed
        self.say(f"Loaded {path}.")
        self._advance(show=True)

    def _cmd_hint(self, rest: str) -> None:
        decision = self.game.decision
        if decision is None:
            return
        try:
            agent = self.agent_factory(HINT_AGENT, self.seed)
            option_id = agent.choose(self.game.clone())
            number = decision.ids.index(option_id) + 1
        except Exception as exc:  # no bot or a broken one: the game goes on without a hint
            self.say(f"No hint available: {exc}")
            return
        option = decision.options[number - 1]
        # Search bots report their effort; it tells how much weight the hint deserves.
        effort = getattr(agent, "last_iterations", None)
        why = f" (best after {effort} simulated playouts)" if isinstance(effort, int) else ""
        self.say(f"Hint ({HINT_AGENT}): {number}. {option.label} [{option.id}]{why}")

    def _cmd_odds(self, rest: str) -> None:
        odds = self.game.odds()
        self.say(odds if odds else "No roll or test is pending.")

    def _cmd_quit(self, rest: str) -> None:
        self.say("Bye.")
        self.running = False
