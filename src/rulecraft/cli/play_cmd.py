"""`rulecraft play`: play a ruleset in the REPL against bots or other people.

Seats are 1-based here (``--seat 2=mcts:200``); the API is 0-based.  Without ``--seat``,
seat 1 is human and every other seat is the ``mcts:200/1s`` bot: 200 iterations or one
second per decision, whichever comes first (``random`` if that bot is not available).
See ``docs/repl.md``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from rich.console import Console

from rulecraft.cli.rulesets import bundled_listing
from rulecraft.compile.load import default_ruleset
from rulecraft.repl import terminal
from rulecraft.repl.glyphs import GlyphTable, load_glyph_table
from rulecraft.repl.ports import AgentFactory, GameSource, PlayableGame, engine_agent_factory
from rulecraft.repl.session import HUMAN, Session

#: 200 iterations or one second, whichever comes first: small games get the full search
#: in milliseconds, while a long card game (about 20 ms per iteration on a busy machine,
#: over 200 bot decisions a game) never keeps a person waiting more than a second a
#: decision.  See docs/bots.md for the measurements.
DEFAULT_BOT = "mcts:200/1s"
FALLBACK_BOT = "random"
MANIFEST = "ruleset.yaml"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play", help="play a ruleset in the REPL", description=__doc__
    )
    p.add_argument(
        "ruleset", nargs="?", help="ruleset name or path (default: the bundled default game)"
    )
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed)")
    p.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="N=WHO",
        help="who sits at seat N (1-based): 'human' or a bot spec such as mcts:200, random",
    )
    p.add_argument("--players", type=int, help="number of players (default: the ruleset's)")
    p.add_argument(
        "--lang", help="language of the game's texts (en, de, ...; default: the ruleset's)"
    )
    p.add_argument("--script", type=Path, metavar="FILE", help="read commands from FILE")
    # For tests only: "module:callable" returning a GameSource, in place of rulecraft.load.
    p.add_argument("--game-factory", help=argparse.SUPPRESS)
    p.set_defaults(func=run)


class EngineSource:
    """A :class:`GameSource` over ``rulecraft.load`` and ``Game.from_json``."""

    def __init__(self, ruleset: Any, name: str) -> None:
        self.ruleset = ruleset
        self._name = str(getattr(ruleset, "name", name))
        self._wanted = name

    @property
    def name(self) -> str:
        return self._name

    def new_game(self, players: int | None, seed: int, lang: str | None) -> PlayableGame:
        return cast(PlayableGame, self.ruleset.new_game(players=players, seed=seed, lang=lang))

    def restore(self, data: dict[str, Any]) -> PlayableGame:
        from rulecraft.runtime.game import Game

        return cast(PlayableGame, Game.from_json(self.ruleset, data))

    def glyph_table(self) -> GlyphTable:
        """The manifest's ``glyphs:`` (read from the ruleset's folder, found as ``load``
        finds it), with each component definition's kind."""
        from rulecraft.compile.load import bundled_root

        program = self.ruleset.program
        kinds = {def_id: d.kind for def_id, d in program.defs.items()}
        folder = Path(self._wanted)
        if not (folder / MANIFEST).is_file():
            folder = bundled_root() / self._wanted
        return load_glyph_table(folder / MANIFEST, kinds)

    def default_lang(self) -> str | None:
        languages = self.ruleset.program.languages
        return str(languages[0]) if languages else None

    def pool_fields(self, game: PlayableGame, card_id: str) -> dict[str, dict[str, int]]:
        """A card's dice-pool fields: its definition's, its side's, then its own (the
        order the engine reads them in), from ``Game.state`` and the ruleset's program."""
        state = getattr(game, "state", None)
        comp = state["comps"].get(card_id) if isinstance(state, dict) else None
        if not isinstance(comp, dict):
            return {}
        definition = self.ruleset.program.defs.get(comp.get("d"))
        if definition is None:
            return {}
        layers = [
            definition.attributes,
            definition.side_attributes.get(comp.get("s"), {}),
            comp.get("p") or {},
        ]
        pools: dict[str, dict[str, int]] = {}
        for layer in layers:
            for key, value in layer.items():
                if _is_pool(value):
                    pools[key] = dict(value)
                else:
                    pools.pop(key, None)
        return pools


def _is_pool(value: object) -> bool:
    """A dice pool as the engine keeps it: die name -> count."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(n, int) and not isinstance(n, bool) for n in value.values())
    )


def load_source(name: str | None, factory: str | None) -> GameSource:
    """The ruleset to play; raises ``LookupError`` with a readable message on failure."""
    if factory:
        module_name, _, attr = factory.partition(":")
        make: Callable[[str | None], GameSource] = getattr(
            importlib.import_module(module_name), attr
        )
        return make(name)
    wanted = name or default_ruleset()
    try:
        import rulecraft

        return EngineSource(rulecraft.load(wanted), wanted)
    except Exception as exc:  # any failure to load becomes a message, never a traceback
        # The bundled names, not a folder: outside the repository there is no rulesets/.
        raise LookupError(
            f"cannot load ruleset {wanted!r}: {exc}\n{bundled_listing()} (`rulecraft list`)"
        ) from exc


def parse_seats(specs: list[str]) -> dict[int, str]:
    """``["1=human", "2=mcts:200"]`` as 0-based seats; ``ValueError`` on a bad entry.

    >>> parse_seats(["2=mcts:200", "1=human"])
    {1: 'mcts:200', 0: 'human'}
    """
    seats: dict[int, str] = {}
    for spec in specs:
        number, sep, who = spec.partition("=")
        if not sep or not number.strip().isdigit() or int(number) < 1 or not who.strip():
            raise ValueError(f"bad --seat {spec!r}: write N=WHO, e.g. --seat 2=mcts:200")
        seats[int(number) - 1] = who.strip()
    return seats


def default_bot(factory: AgentFactory, seed: int) -> str:
    """:data:`DEFAULT_BOT` when that bot can be made, else ``random``."""
    try:
        factory(DEFAULT_BOT, seed)
    except Exception:  # a missing or broken bot module only changes the default
        return FALLBACK_BOT
    return DEFAULT_BOT


def run_play(args: argparse.Namespace, agent_factory: AgentFactory = engine_agent_factory) -> int:
    console = Console()
    try:
        seats = parse_seats(args.seat)
    except ValueError as exc:
        print(f"rulecraft play: {exc}", file=sys.stderr)
        return 2
    # Seats beyond the ruleset's default count ask for that many players.
    players = args.players
    if players is None and seats and max(seats) >= 2:
        players = max(seats) + 1
    if players is not None and players < 1:
        print("rulecraft play: --players must be 1 or more", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    try:
        source = load_source(args.ruleset, args.game_factory)
    except (LookupError, ImportError, AttributeError) as exc:
        print(f"rulecraft play: {exc}", file=sys.stderr)
        return 2
    try:
        game = source.new_game(players, seed, args.lang)
    except Exception as exc:  # the ruleset's own error, reported instead of a traceback
        print(f"rulecraft play: cannot start {source.name}: {exc}", file=sys.stderr)
        return 2
    if any(s >= game.num_players for s in seats):
        print(f"rulecraft play: seats must be within 1..{game.num_players}", file=sys.stderr)
        return 2
    missing = [s for s in range(game.num_players) if s not in seats]
    if missing:
        bot = default_bot(agent_factory, seed) if any(s != 0 for s in missing) else FALLBACK_BOT
        for s in missing:
            seats[s] = HUMAN if s == 0 else bot
    try:
        session = Session(
            source, game, seats, console, seed=seed, lang=args.lang, agent_factory=agent_factory
        )
    except Exception as exc:  # e.g. an unknown bot spec
        print(f"rulecraft play: {exc}", file=sys.stderr)
        return 2
    reader: terminal.LineReader
    if args.script is not None:
        try:
            # Bytes that are not UTF-8 become U+FFFD: a bad line, refused like any other.
            script = args.script.open(encoding="utf-8", errors="replace")
        except OSError as exc:
            print(f"rulecraft play: cannot read {args.script}: {exc.strerror}", file=sys.stderr)
            return 2
        with script:
            return terminal.run(session, terminal.PlainLineReader(script, console))
    if sys.stdin.isatty():
        reader = terminal.PromptLineReader()
    else:
        if isinstance(sys.stdin, io.TextIOWrapper):
            sys.stdin.reconfigure(errors="replace")
        reader = terminal.PlainLineReader(sys.stdin, console)
    return terminal.run(session, reader)


def run(args: argparse.Namespace) -> int:
    return run_play(args)
