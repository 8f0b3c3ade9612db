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
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from rulecraft.repl.choosing import MAX_NUMBER_DIGITS, option_number, resolve, short_id
from rulecraft.repl.glyphs import GlyphTable
from rulecraft.repl.messages import Messages
from rulecraft.repl.narrate import (
    MAX_LINE,
    card_words,
    clean_line,
    printable,
    secret_words,
    tells_nothing_secret,
)
from rulecraft.repl.ports import AgentFactory, GameSource, PlayableGame, engine_agent_factory
from rulecraft.repl.render import (
    players_line,
    render_decision,
    render_header,
    render_map,
    render_result,
    render_view,
    seat_label,
    seat_names,
    value_text,
)
from rulecraft.runtime.decision import Decision
from rulecraft.runtime.protocols import Agent
from rulecraft.runtime.savefile import write_save
from rulecraft.runtime.state import SAVE_FORMAT, SAVE_VERSION

HUMAN = "human"
HINT_AGENT = "mcts:200/1s"
DEFAULT_LOG_LINES = 10
#: At most this many unseen log lines on a screen; ``log N`` shows the rest.
MAX_NEWS_LINES = 20
#: A map of at most this many spaces is drawn on every screen, a larger one only when an
#: option names one of its spaces (and always by the ``map`` command).
SMALL_MAP = 64
#: A save file larger than this is refused unread (a real one is a few hundred kB).
MAX_SAVE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Command:
    """One REPL command: its name and argument synopsis (``arg.*`` keys are translated);
    its one-line help is the message ``help.<name>``."""

    name: str
    args: str


COMMANDS: tuple[Command, ...] = (
    Command("help", ""),
    Command("state", ""),
    Command("map", ""),
    Command("show", "arg.card"),
    Command("log", "[N]"),
    Command("undo", "[N]"),
    Command("save", "arg.file"),
    Command("load", "arg.file"),
    Command("hint", ""),
    Command("odds", ""),
    Command("solve", "[EXPR; ...]"),
    Command("quit", ""),
)
COMMAND_NAMES: tuple[str, ...] = tuple(c.name for c in COMMANDS)


class SaveError(ValueError):
    """A save file that cannot be loaded; the message says why, for people."""


def parse_save(
    data: object, ruleset: str
) -> tuple[dict[int, str], str | None, int, dict[str, Any]]:
    """Check a decoded save file; return its seats (0-based; empty when the file names
    none, as ``Game.save`` without seats writes it), lang, seed and the game's data (the
    whole file: the REPL and ``Game.save`` write one format, see ``savefile.py``).

    >>> seats, lang, seed, game = parse_save({"format": "rulecraft-save", "version": 2,
    ...     "ruleset": "g", "seats": {"1": "human"}, "lang": "en", "seed": 3}, "g")
    >>> seats, lang, seed, sorted(game)
    ({0: 'human'}, 'en', 3, ['format', 'lang', 'ruleset', 'seats', 'seed', 'version'])
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
        raise SaveError(
            f"unsupported save version {data.get('version')!r} (expected {SAVE_VERSION})"
        )
    if data.get("ruleset") != ruleset:
        raise SaveError(
            f"this save is for ruleset {data.get('ruleset')!r}, not {ruleset!r}; "
            f"start 'rulecraft play {data.get('ruleset')}' to load it"
        )
    raw_seats = data.get("seats", {})
    if not isinstance(raw_seats, dict):
        raise SaveError("the save's 'seats' is not a table")
    seats: dict[int, str] = {}
    for key, spec in raw_seats.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) >= 1):
            raise SaveError(f"bad seat number {key!r} in the save (seats are 1, 2, ...)")
        if not (isinstance(spec, str) and spec):
            raise SaveError(f"bad player for seat {key}: {spec!r}")
        seats[int(key) - 1] = spec
    if sorted(seats) != list(range(len(seats))):
        raise SaveError("the save's seats are not numbered 1..N")
    lang, seed = data.get("lang"), data.get("seed")
    if lang is not None and not isinstance(lang, str):
        raise SaveError("the save's 'lang' is not a string")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError("the save has no integer 'seed'")
    return seats, lang, seed, data


class Session:
    """One game at the table: answers lines typed by people, moves the bots.

    ``seats`` maps every 0-based seat to ``"human"`` or a bot spec.  Call :meth:`start`
    once, then :meth:`handle` with each line until :attr:`running` is false.

    Before each decision a person sees a compact screen: the log lines their seat has not
    seen yet (bots' moves included, as they happen), one line of players' resources, the
    map when the options name its spaces, and the options.  ``state`` shows everything.
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
        self.text = Messages(lang if lang is not None else source.default_lang())
        self.agent_factory = agent_factory
        self.seats: dict[int, str] = dict(seats)
        self.agents: dict[int, Agent] = self._make_agents(self.seats, seed)
        self.glyphs: GlyphTable = source.glyph_table()
        self.running = True
        self.exit_code = 0
        # How many of each seat's log lines have been printed: the rest is news to it.
        self._shown: dict[int, int] = {}
        self._news_for: int | None = None  # the seat whose "since your last decision" is open

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

    def _glyph(self, piece: Mapping[str, Any]) -> str | None:
        owner = piece.get("owner")
        return self.glyphs.for_piece(
            str(piece.get("id", "")), owner if isinstance(owner, int) else None
        )

    def _view(self, seat: int) -> dict[str, Any]:
        """``Game.view(seat)`` with the dice-pool fields of the cards it shows filled in."""
        view = self.game.view(seat)
        for zone in view.get("zones") or []:
            for card in zone.get("cards") or []:
                props = card.get("props")
                if card.get("hidden") or not props or "" not in props.values():
                    continue
                pools = self.source.pool_fields(self.game, str(card.get("id", "")))
                card["props"] = {k: pools.get(k, v) if v == "" else v for k, v in props.items()}
        return view

    # -- output helpers ----------------------------------------------------------------

    def say(self, text: str) -> None:
        """Print plain text (never read as rich markup: card names may hold brackets)."""
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def _tell_news(self, seat: int, lines: Sequence[str] | None = None) -> None:
        """Print the log lines ``seat`` has not seen (under one heading per screen)."""
        log = self.game.log_for(seat)
        fresh = list(lines) if lines is not None else log[self._shown.get(seat, 0) :]
        self._shown[seat] = len(log)
        if not fresh:
            return
        if self._news_for != seat:
            self.say(self.text("since_last"))
            self._news_for = seat
        if len(fresh) > MAX_NEWS_LINES:
            hidden = len(fresh) - MAX_NEWS_LINES
            self.say(self.text("earlier_lines", count=hidden, count_all=len(fresh)))
            fresh = fresh[hidden:]
        for entry in fresh:
            self.say(f"  {entry}")

    def show_state(self) -> None:
        """The whole table as the viewer sees it, then the pending decision."""
        decision = self.game.decision
        render_view(
            self.console,
            self._view(self.viewer),
            self.text,
            self._glyph,
            decider=decision.seat if decision is not None else None,
        )
        if decision is not None and self.seats.get(decision.seat) == HUMAN:
            render_decision(self.console, decision, self._names(), self.text)

    def show_screen(self, first: bool = False) -> None:
        """The compact screen before a person's decision (see the class docstring)."""
        decision = self.game.decision
        if decision is None:
            return
        seat = decision.seat
        self._tell_news(seat)
        self._news_for = None
        view = self._view(seat)
        render_header(self.console, view, seat, self.text)
        for line in players_line(view, self.text, self.console.width):
            self.say(line)
        board = view.get("map")
        if board and _names_a_space(decision, board):
            render_map(self.console, board, seat_names(view), self.text, self._glyph, view)
        render_decision(self.console, decision, self._names(), self.text)
        if first:
            self.say(self.text("screen_hint"))

    def prompt(self) -> str:
        """The prompt text, e.g. ``"seat 1> "``."""
        return f"{self.text('seat_word')} {self.viewer + 1}> "

    def completion_words(self) -> list[str]:
        """Words worth completing now: commands, option numbers, ids and their last parts."""
        words = list(COMMAND_NAMES)
        decision = self.game.decision
        if decision is not None:
            words += [str(n) for n in range(1, len(decision.options) + 1)]
            words += list(decision.ids)
            words += [short_id(i) for i in decision.ids if short_id(i) not in words]
        return words

    def card_words(self) -> list[str]:
        """Names and ids of the cards the viewer can see (for ``show`` completion)."""
        return sorted(card_words(self.game.view(self.viewer)))

    # -- the loop ----------------------------------------------------------------------

    def start(self) -> None:
        """Move the bots until a person must decide, and show the table."""
        seats = ", ".join(f"{s + 1}={spec}" for s, spec in sorted(self.seats.items()))
        self.say(self.text("welcome", game=self.source.name, seed=self.seed, seats=seats))
        self._advance(show=True, first=True)

    def _advance(self, show: bool, first: bool = False) -> None:
        """Let bots move until a human decides or the game ends."""
        while True:
            decision = self.game.decision
            if decision is None:
                self._finish()
                return
            spec = self.seats.get(decision.seat, HUMAN)
            if spec == HUMAN:
                if show:
                    self.show_screen(first)
                return
            if not self._bot_move(decision, spec):
                return
            show = True

    def _bot_move(self, decision: Decision, spec: str) -> bool:
        agent = self.agents[decision.seat]
        reader = self.viewer  # whose log the move is told from: a human's, never all-seeing
        before_move = self.game.clone()
        try:
            option_id = agent.choose(self.game.clone())
            self.game.choose(option_id)
        except Exception as exc:  # a broken bot must end the session politely, not crash it
            self.say(
                self.text("bot_failed", seat=self._label(decision.seat), spec=spec, reason=exc)
            )
            self.running = False
            self.exit_code = 1
            return False
        fresh = self.game.log_for(reader)[self._shown.get(reader, 0) :]
        if not fresh:
            fresh = [self._untold_move(before_move, decision, option_id, spec, reader)]
            self._tell_news(reader, fresh)
        else:
            self._tell_news(reader)
        return True

    def _untold_move(
        self, before: PlayableGame, decision: Decision, option_id: str, spec: str, reader: int
    ) -> str:
        """One line for a bot's choice the log does not tell: its label when that names
        nothing ``reader`` may not see, else its prompt if that is safe, else only that a
        choice was made."""
        who = f"{self.text('seat_word').capitalize()} {decision.seat + 1} ({spec})"
        secrets = secret_words(before.view(decision.seat), before.view(reader))
        label = decision.option(option_id).label
        if tells_nothing_secret(label, secrets):
            return self.text("bot_chose", who=who, label=label)
        if tells_nothing_secret(decision.prompt, secrets):
            return self.text("bot_answered", who=who, prompt=decision.prompt)
        return self.text("bot_hidden", who=who)

    def _finish(self) -> None:
        self._tell_news(self.viewer)
        self._news_for = None
        view = self._view(self.viewer)
        render_view(self.console, {**view, "result": None}, self.text, self._glyph, None)
        result = self.game.result
        names = self._names()
        render_result(
            self.console, result.to_json() if result else view.get("result"), names, self.text
        )
        if result is None and view.get("result") is None:
            self.say(self.text("game_over"))
        self.running = False

    def handle(self, line: str) -> None:
        """Answer one typed line: an option (number, id, label, prefix) or a command.

        Any line at all leaves the game intact: a refused line only prints why.
        """
        if not self.running:
            return
        if len(line) > MAX_LINE:
            self.say(self.text("line_too_long", length=len(line), limit=MAX_LINE))
            return
        text = clean_line(line)
        if text is None:
            self.say(self.text("bad_input"))
            return
        if not text:
            return
        decision = self.game.decision
        if decision is None:
            self._finish()
            return
        word, _, rest = text.partition(" ")
        if text.isdigit():
            self._choose_number(text, decision)
            return
        command = word.lower()
        if command in COMMAND_NAMES:
            handler: Callable[[str], None] = getattr(self, f"_cmd_{command}")
            handler(rest.strip())
            return
        match = resolve(text, decision)
        if match.option_id is not None:
            self._choose(match.option_id)
        elif match.candidates:
            self._ambiguous(text, decision, match.candidates)
        else:
            self._unknown(text, decision)

    def _choose_number(self, text: str, decision: Decision) -> None:
        last = len(decision.options)
        number = option_number(text, last)
        if number is not None:
            self._choose(decision.options[number - 1].id)
        elif len(text) > MAX_NUMBER_DIGITS:
            self.say(self.text("too_long_number", start=text[:6], digits=len(text), last=last))
        else:
            self.say(self.text("no_option", number=text, last=last))

    def _choose(self, option_id: str) -> None:
        reader = self.viewer
        try:
            self.game.choose(option_id)
        except ValueError as exc:
            self.say(self.text("refused", reason=exc))
            return
        self._tell_news(reader)
        self._advance(show=True)

    def _ambiguous(self, text: str, decision: Decision, candidates: Sequence[str]) -> None:
        numbered = [
            f"{decision.ids.index(c) + 1}. {decision.option(c).label}" for c in candidates[:6]
        ]
        more = ", ..." if len(candidates) > 6 else ""
        self.say(
            self.text(
                "ambiguous",
                text=printable(text),
                count=len(candidates),
                choices="; ".join(numbered) + more,
            )
        )

    def _unknown(self, text: str, decision: Decision) -> None:
        word = text.split()[0].lower()
        close = difflib.get_close_matches(word, COMMAND_NAMES, n=1, cutoff=0.6)
        close = close or difflib.get_close_matches(text, decision.ids, n=1, cutoff=0.6)
        hint = self.text("did_you_mean", word=close[0]) if close else ""
        self.say(self.text("unknown", text=printable(text), hint=hint, last=len(decision.options)))

    # -- commands ----------------------------------------------------------------------

    def _cmd_help(self, rest: str) -> None:
        self.say(self.text("help_intro"))
        for c in COMMANDS:
            args = self.text(c.args) if c.args.startswith("arg.") else c.args
            usage = f"{c.name} {args}".strip()
            help_text = self.text(f"help.{c.name}", default=DEFAULT_LOG_LINES, agent=HINT_AGENT)
            self.say(f"  {usage:<12} {help_text}")

    def _cmd_state(self, rest: str) -> None:
        self.show_state()

    def _cmd_map(self, rest: str) -> None:
        view = self.game.view(self.viewer)
        board = view.get("map")
        if not board:
            self.say(self.text("no_map"))
            return
        render_map(self.console, board, seat_names(view), self.text, self._glyph, view)

    def _cmd_show(self, rest: str) -> None:
        if not rest:
            self.say(self.text("usage_show"))
            return
        text = self.game.describe(rest, self.viewer)
        if text is None:
            self.say(self.text("sees_no_card", seat=self.viewer + 1, name=printable(rest)))
        else:
            self.say(self._with_pools(text))

    def _with_pools(self, description: str) -> str:
        """``describe``'s text with its empty dice-pool lines filled in (``blades: 2
        green``); the card's id is the last word in the first line's brackets."""
        lines = description.split("\n")
        found = re.search(r"\(([^()]*)\)\s*$", lines[0])
        card_id = found.group(1).split(",")[-1].strip() if found else ""
        pools = self.source.pool_fields(self.game, card_id) if card_id else {}
        for index, line in enumerate(lines):
            key = line[:-2] if line.endswith(": ") else line[:-1] if line.endswith(":") else ""
            if key in pools:
                lines[index] = f"{key}: {value_text(pools[key])}"
        return "\n".join(lines)

    def _count(self, rest: str, default: int, usage: str) -> int | None:
        if not rest:
            return default
        number = option_number(rest, 10**MAX_NUMBER_DIGITS)
        if number is not None:
            return number
        self.say(self.text("usage_count", usage=usage))
        return None

    def _cmd_log(self, rest: str) -> None:
        count = self._count(rest, DEFAULT_LOG_LINES, "log [N]")
        if count is None:
            return
        lines = self.game.log_for(self.viewer)[-count:]
        if not lines:
            self.say(self.text("log_empty"))
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
            self.say(self.text("nothing_to_undo"))
            return
        self.say(self.text("undid_one") if undone == 1 else self.text("undid", count=undone))
        # The log is shorter now: what follows the undo point is news again.
        self._shown = {s: min(n, len(self.game.log_for(s))) for s, n in self._shown.items()}
        self._advance(show=True)

    def _cmd_save(self, rest: str) -> None:
        if not rest:
            self.say(self.text("usage", usage="save FILE"))
            return
        # One format with Game.save: the game's own save, plus who sits where.  The keys
        # before it only fill in for a game whose save lacks them (a test double).
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "ruleset": self.source.name,
            "lang": self.lang,
            "seed": self.seed,
            **self.game.to_json(),
            "seats": {str(s + 1): spec for s, spec in sorted(self.seats.items())},
        }
        path = Path(rest).expanduser()
        try:
            write_save(path, json.dumps(data, ensure_ascii=False))
        except OSError as exc:
            self.say(self.text("cannot_save", path=path, reason=exc.strerror or exc))
            return
        self.say(self.text("saved", path=path))

    def _cmd_load(self, rest: str) -> None:
        if not rest:
            self.say(self.text("usage", usage="load FILE"))
            return
        path = Path(rest).expanduser()
        try:
            if not path.is_file():
                raise FileNotFoundError(0, "not a file")
            if path.stat().st_size > MAX_SAVE_BYTES:
                raise SaveError(f"the file is larger than {MAX_SAVE_BYTES // 2**20} MB")
            raw = json.loads(path.read_text(encoding="utf-8"))
            seats, lang, seed, game_data = parse_save(raw, self.source.name)
        except OSError as exc:
            self.say(self.text("cannot_read", path=path, reason=exc.strerror or exc))
            return
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            reason = self.text("not_json", reason=exc)
            self.say(self.text("cannot_load", path=path, reason=reason))
            return
        except SaveError as exc:
            self.say(self.text("cannot_load", path=path, reason=exc))
            return
        try:
            # Whatever the engine raises on a damaged state, the current game must survive.
            game = self.source.restore(game_data)
            seats = seats or {seat: HUMAN for seat in range(game.num_players)}
            if game.num_players != len(seats):
                raise SaveError(f"{len(seats)} seats saved for a {game.num_players}-player game")
            agents = self._make_agents(seats, seed)
        except Exception as exc:
            reason = self.text("damaged", reason=exc)
            self.say(self.text("cannot_load", path=path, reason=reason))
            return
        self.game, self.seats, self.agents = game, seats, agents
        self.lang, self.seed = lang, seed
        self.text = Messages(lang) if lang is not None else self.text
        self._shown = {}
        self.say(self.text("loaded", path=path))
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
            self.say(self.text("no_hint", reason=exc))
            return
        option = decision.options[number - 1]
        # Search bots report their effort; it tells how much weight the hint deserves.
        effort = getattr(agent, "last_iterations", None)
        why = self.text("hint_effort", count=effort) if isinstance(effort, int) else ""
        choice = f"{number}. {option.label} [{option.id}]"
        self.say(self.text("hint", agent=HINT_AGENT, choice=choice, why=why))

    def _cmd_odds(self, rest: str) -> None:
        odds = self.game.odds()
        if odds:
            self.say(odds)
            return
        decision = self.game.decision
        if decision is None or decision.seat != self.viewer:
            self.say(self.text("no_roll"))  # another seat's options are not ours to test
            return
        found = self.game.option_odds()
        if not found:
            self.say(self.text("no_roll_options"))
        for row in found:
            number = [o.id for o in decision.options].index(row.option) + 1
            head = f"{number}. {row.label}: "
            if row.test is not None:
                self.say(head + row.test)
                continue
            self.say(head + self.text("rolls", pool=row.pool))
            if row.depends:
                self.say("   " + self.text("odds_depend"))
            for line in row.symbols:
                self.say(f"   {line}")

    def _cmd_solve(self, rest: str) -> None:
        # The solver (rulecraft.tools.solver) searches as the viewer may: on a copy where
        # what the seat cannot see is re-dealt, so its answer names no hidden card.
        try:
            from rulecraft.tools.solver import repl_solve

            answer = repl_solve(self.game, self.viewer, rest)  # type: ignore[arg-type]
        except Exception as exc:  # a game the solver cannot search: say so, play on
            answer = self.text("no_solve", reason=exc)
        self.say(answer)

    def _cmd_quit(self, rest: str) -> None:
        self.say(self.text("bye"))
        self.running = False


def _names_a_space(decision: Decision, board: Mapping[str, Any]) -> bool:
    """True if an option is about a map space (its id ends with, or its label is, a space's
    id) or the map is small enough to show with every decision."""
    spaces = {str(s.get("id")) for s in board.get("spaces") or []}
    if len(spaces) <= SMALL_MAP:
        return True
    for option in decision.options:
        tail = option.label.rpartition(": ")[2]
        if option.id.rsplit(":", 1)[-1] in spaces or tail in spaces or option.label in spaces:
            return True
    return False
