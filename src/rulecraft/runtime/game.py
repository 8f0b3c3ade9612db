"""The public game objects: :class:`Ruleset` (a compiled ruleset) and :class:`Game`.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(seed=1)
>>> game.decision.seat, len(game.decision.options)
(0, 9)
>>> game.choose("act:place:b2")
>>> game.undo()
>>> len(game.decision.options)
9
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from rulecraft.diagnostics import Diagnostic
from rulecraft.errors import IllegalChoice, RuleError, RulesetError
from rulecraft.rng import Rng, shuffled
from rulecraft.runtime import engine as E
from rulecraft.runtime import incremental
from rulecraft.runtime import map as spatial
from rulecraft.runtime.decision import Decision, GameRecord, Option, Result
from rulecraft.runtime.engine import Ctx
from rulecraft.runtime.program import ExprFn, Program
from rulecraft.runtime.savefile import (
    check_fits,
    check_shape,
    first_difference,
    read_save,
    write_save,
)
from rulecraft.runtime.state import (
    SAVE_FORMAT,
    SAVE_VERSION,
    State,
    canonical_json,
    clone_state,
    deep_copy,
    redeal,
    state_hash,
)

if TYPE_CHECKING:
    from rulecraft.runtime.arrange import Arrangement
    from rulecraft.runtime.chance import RollOdds

try:  # mypyc's class attributes (mypy brings them; an install without it runs as Python)
    from mypy_extensions import mypyc_attr
except ImportError:  # (not an else of TYPE_CHECKING: mypyc compiles that as unreachable)

    def mypyc_attr(*_attrs: Any, **_flags: Any) -> Callable[[type], type]:  # type: ignore[misc]
        """mypyc's class decorator, a no-op where there is no mypy."""
        return lambda cls: cls


__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "Game",
    "GameRecord",
    "IllegalChoice",
    "RuleError",
    "Ruleset",
    "RulesetError",
]


#: Compiles the text of an expression against a program's names (the compiler's
#: ``compile_expression``, handed over by ``rulecraft.load``: the runtime does not import
#: the compiler).  Raises ``ValueError`` with the diagnostics when the text does not compile.
ExpressionCompiler = Callable[[Program, str], ExprFn]


class Ruleset:
    """A compiled ruleset, ready to start games."""

    def __init__(
        self,
        program: Program,
        diagnostics: Sequence[Diagnostic] = (),
        compile_expression: ExpressionCompiler | None = None,
    ) -> None:
        self.program = program
        self.diagnostics = list(diagnostics)
        self.compile_expression = compile_expression

    @property
    def name(self) -> str:
        return self.program.name

    def title(self, lang: str = "") -> str:
        return self.program.title.get(lang) or self.program.title.get("", self.name)

    def new_game(self, players: int | None = None, seed: int = 0, lang: str | None = None) -> Game:
        """A new game, run up to its first decision."""
        prog = self.program
        n = players if players is not None else prog.default_players
        if not prog.min_players <= n <= prog.max_players:
            raise ValueError(
                f"{prog.name} is for {prog.min_players}-{prog.max_players} players, not {n}"
            )
        language = lang if lang is not None else (prog.languages[0] if prog.languages else "")
        if language and prog.languages and language not in prog.languages:
            raise ValueError(
                f"{prog.name} has no language {language!r} ({', '.join(prog.languages)})"
            )
        start = (n, seed, language if language != prog.languages[0] else "")
        game = Game(self, self._start_state(*start), initial=None, log=[])
        game._start = start  # its start, made again when undo or a save needs it
        game._run()
        return game

    def _start_state(self, players: int, seed: int, lang: str) -> State:
        """The state a game starts from, before its setup runs (the same for the same
        players, seed and language, in every process)."""
        prog = self.program
        st = E.new_state(prog, players, seed, lang)
        if prog.map is not None and prog.map.tiles:
            # the board's tiles lie in their slots before setup runs (same seed, same board)
            st["tiles"] = spatial.deal_tiles(prog.map, st["rng"][0])
        return st

    def __repr__(self) -> str:
        return f"<Ruleset {self.name} {self.program.version}>"


#: An undo's replay keeps the position every this many decisions (:meth:`Game.undo`).
UNDO_CHECKPOINT = 8
#: (decisions made, the state then, the log then or None): a position an undo replayed.
_Checkpoint = tuple[int, State, list[tuple[int, str]] | None]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, Python classes may extend it
class Game:
    """A game in progress.  Mutable: :meth:`choose` and :meth:`undo` change it in place;
    :meth:`clone` gives an independent copy.  Its whole state is plain data."""

    def __init__(
        self,
        ruleset: Ruleset,
        state: State,
        initial: State | None,
        log: list[tuple[int, str]] | None,
        choices: list[str] | None = None,
        by_def: dict[str, list[str]] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.program = ruleset.program
        self._st = state
        self._initial = initial
        #: (players, seed, language) of a new game, whose start is made again from them
        #: when undo or a save needs it (see _initial_state); None when ``initial`` is kept.
        self._start: tuple[int, int, str] | None = None
        self._log = log
        self._choices: list[str] = list(choices or [])
        self._by_def = by_def if by_def is not None else E.instances_by_def(state)
        # True once Game.arrange set the position: the start is then no longer what the
        # ruleset makes from the seed, and a save says so.
        self._arranged = False
        self._decision_cache: Decision | None = None
        self._ctx_cache: Ctx | None = None
        #: determinize's plan of the hidden cards for a seat (see _deal_plan), dropped with
        #: the decision whenever the state changes.
        self._deal_cache: tuple[int, list[tuple[list[str], list[tuple[str, int]]]]] | None = None
        #: Positions an undo's replay passed, every UNDO_CHECKPOINT decisions (see _replay_to).
        self._checkpoints: list[_Checkpoint] = []

    def _initial_state(self) -> State | None:
        """The state this game's history starts from: kept (a loaded save, an arranged
        position) or made again from the new game's seed.  A new game keeps no copy of
        its start: a card game's is a thousand dictionaries and lists, which the garbage
        collector would walk again and again for the whole game (a card game's random
        playouts spent 13% of their time in it with the copy, 5% without: see
        docs/architecture.md)."""
        if self._initial is None and self._start is not None:
            self._initial = self.ruleset._start_state(*self._start)
            self._start = None
        return self._initial

    def _keeps_history(self) -> bool:
        """Does this game know its start (undo, saves), unlike a clone?"""
        return self._initial is not None or self._start is not None

    # ------------------------------------------------------------------ running
    def _ctx(self) -> Ctx:
        # One execution context per game, rebuilt only when the state or log is replaced.
        ctx = self._ctx_cache
        if ctx is None or ctx.st is not self._st or ctx.log is not self._log:
            lang = self._st.get("lang", "")
            ctx = Ctx(self.program, self._st, lang, self._log, self._by_def)
            self._ctx_cache = ctx
        return ctx

    def _run(self) -> None:
        self._decision_cache = self._deal_cache = None
        E.run(self._ctx())

    @property
    def num_players(self) -> int:
        return int(self._st["players"])

    @property
    def seat_names(self) -> list[str]:
        return [f"Player {i + 1}" for i in range(self.num_players)]

    @property
    def turn(self) -> int:
        return int(self._st["turn"])

    @property
    def round(self) -> int:
        return int(self._st["round"])

    @property
    def start_seat(self) -> int:
        """The seat that took (or takes) the first turn of the game."""
        first = self._st.get("first")
        return int(self._st["start"] if first is None else first)

    @property
    def max_decisions(self) -> int:
        return self.program.max_decisions

    @property
    def evaluation_scale(self) -> float:
        """The manifest's ``evaluation_scale``: what bots divide ``evaluate`` by before
        squashing it into a rollout score (default 1)."""
        return self.program.evaluation_scale

    @property
    def state(self) -> State:
        """The raw state (read it; change it only through :meth:`choose`: clones and new
        games share parts of it, which the engine replaces but never changes in place)."""
        return self._st

    @property
    def decision(self) -> Decision | None:
        if self._decision_cache is not None:
            return self._decision_cache
        pending = self._st["pending"]
        if pending is None or self._st["result"] is not None:
            return None
        from rulecraft.runtime.instructions import option_label

        ctx = self._ctx()
        seat = pending["seat"]
        d = Decision(
            seat=seat,
            prompt=pending["prompt"],
            options=tuple(
                Option(o[0], o[1] if o[1] is not None else option_label(ctx, seat, o[2]))
                for o in pending["options"]
            ),
            kind=pending["kind"],
        )
        self._decision_cache = d
        return d

    def pending_ids(self) -> tuple[int, list[str]] | None:
        """``(seat, option ids)`` of the pending decision without building its labels, or
        ``None`` when nobody has to decide (what bots' inner loops use: labels are for
        people, and building them is a tenth of a search's time on card games)."""
        pending = self._st["pending"]
        if pending is None or self._st["result"] is not None:
            return None
        return pending["seat"], [o[0] for o in pending["options"]]

    def legal_ids(self) -> list[str]:
        """The option ids of the pending decision (cheaper than building the Decision)."""
        return E.option_ids(self._st)

    @property
    def result(self) -> Result | None:
        r = self._st["result"]
        if r is None:
            return None
        scores = self._final_scores()
        return Result(tuple(r["winners"]), bool(r["draw"]), str(r.get("reason", "")), scores)

    def _final_scores(self) -> dict[int, float]:
        """The manifest's ``score`` for every seat (``you`` bound to it), or no scores."""
        score = self.program.score
        if score is None:
            return {}
        ctx = self._ctx()
        saved = ctx.loc
        try:
            out = {}
            for seat in range(self.num_players):
                ctx.loc = {"you": E.player(seat), "this": None}
                out[seat] = float(score(ctx))
            return out
        finally:
            ctx.loc = saved

    def choose(self, option_id: str) -> None:
        """Answer the pending decision with ``option_id`` and run to the next decision."""
        ctx = self._ctx_cache  # (_ctx's test in place: one call less at every decision)
        if ctx is None or ctx.st is not self._st or ctx.log is not self._log:
            ctx = self._ctx()
        # (the caches go first: an illegal id changes nothing else, and they are made again)
        self._decision_cache = self._deal_cache = None
        E.choose_and_run(ctx, option_id, self._choices)  # 'spark' answers a unique 'spark#1'

    def play_random(self, randbits: Callable[[int], int], limit: int) -> int:
        """Answer up to ``limit`` decisions at random (fewer when the game ends first) and
        give how many: with a ``random.Random``'s ``getrandbits``, the same moves as ``limit``
        rounds of ``choose(rng.choice(legal_ids()))`` drawing from that generator, in one
        call (bots' rollouts; :func:`rulecraft.runtime.engine.play_random`).

        >>> import random
        >>> import rulecraft
        >>> game = rulecraft.load("tictactoe").new_game(seed=1)
        >>> twin, a, b = game.clone(), random.Random(7), random.Random(7)
        >>> game.play_random(a.getrandbits, 3)
        3
        >>> for _ in range(3):
        ...     twin.choose(b.choice(twin.legal_ids()))
        >>> game.state_hash() == twin.state_hash(), a.random() == b.random()
        (True, True)
        """
        self._decision_cache = self._deal_cache = None
        return E.play_random(self._ctx(), randbits, limit, self._choices)

    def arrange(self, setup: Arrangement | Mapping[str, Any] | None = None, **parts: Any) -> None:
        """Arrange a position: cards into zones in order, the state of cards, players and
        the game, the next dice faces, the active seat and phase (seats from 0; see
        docs/api.md).  The pending decision then asks again.  The arranged position is the
        start of this game's history: undo goes back to it, not before.  ``ValueError``
        (nothing changed) names what does not exist."""
        from rulecraft.runtime.arrange import Arrangement, apply

        if not isinstance(setup, Arrangement):
            setup = Arrangement.read({**(setup or {}), **parts})
        elif parts:
            raise ValueError("give an Arrangement or keywords, not both")
        self._decision_cache = self._deal_cache = None
        ctx = self._ctx()
        incremental.forget(ctx)  # the piles are rewritten in place, not moved
        apply(ctx, setup)
        incremental.forget(ctx)  # (whatever was listed while they were)
        self._decision_cache = self._deal_cache = None
        if self._keeps_history():
            self._initial = clone_state(self._st)
            self._start = None
        self._choices = []
        self._checkpoints = []  # (positions of the history before the arrangement)
        self._arranged = True

    # ------------------------------------------------------------------ time travel
    @property
    def can_undo(self) -> bool:
        return bool(self._choices) and self._keeps_history()

    def undo(self, steps: int = 1) -> None:
        """Go back ``steps`` decisions (replaying from the start: same seed, same result)."""
        if not self._keeps_history():
            raise ValueError("this game keeps no history to undo")
        if steps < 1 or steps > len(self._choices):
            raise ValueError(f"can undo 1 to {len(self._choices)} decisions, not {steps}")
        self._replay_to(self._choices[: len(self._choices) - steps])

    def _replay_to(self, choices: list[str]) -> None:
        """The position after ``choices`` (a prefix of this game's), replayed from the
        last checkpoint at or before it, else from the start; the replay leaves a
        checkpoint every :data:`UNDO_CHECKPOINT` decisions.  So the first undo of a long
        game replays it whole, and the undos after it (who undoes once often undoes again)
        replay fewer than that many decisions each, not the game again.  No checkpoint
        is taken while a game is played forward: a long game's states would be kept for
        the garbage collector to walk (see _initial_state)."""
        marks = [m for m in self._checkpoints if m[0] <= len(choices)]
        if not marks:
            self._replay_from_initial([])
            marks = [(0, clone_state(self._st), self._log_copy())]
        self._checkpoints = marks
        done, state, log = marks[-1]
        self._st = clone_state(state)
        self._log = list(log) if log is not None else None
        self._choices = list(choices[:done])
        self._decision_cache = self._deal_cache = None
        ctx = self._ctx()
        for c in choices[done:]:
            E.answer(ctx, c)
            self._choices.append(c)
            E.run(ctx)
            if len(self._choices) % UNDO_CHECKPOINT == 0:
                marks.append((len(self._choices), clone_state(self._st), self._log_copy()))

    def _log_copy(self) -> list[tuple[int, str]] | None:
        return list(self._log) if self._log is not None else None

    def _replay_from_initial(self, choices: list[str]) -> None:
        initial = self._initial_state()
        assert initial is not None
        self._st = clone_state(initial)
        self._log = [] if self._log is not None else None
        self._choices = []
        self._checkpoints = []
        self._decision_cache = self._deal_cache = None
        ctx = self._ctx()
        E.run(ctx)
        for c in choices:
            E.answer(ctx, c)
            self._choices.append(c)
            E.run(ctx)

    @property
    def record(self) -> GameRecord:
        seed = (
            int(self._initial["rng"][0]) if self._initial is not None else int(self._st["rng"][0])
        )
        return GameRecord(
            self.program.name,
            self.program.version,
            self.num_players,
            seed,
            str(self._st.get("lang", "")),
            tuple(self._choices),
        )

    @classmethod
    def replay(cls, ruleset: Ruleset, record: GameRecord) -> Game:
        """The game a record describes, replayed decision by decision."""
        game = ruleset.new_game(record.players, record.seed, record.lang or None)
        for c in record.choices:
            game.choose(c)
        return game

    # ------------------------------------------------------------------ copies and saves
    def clone(self) -> Self:
        """An independent copy that keeps no log and no undo history (cheap)."""
        ctx = self._ctx_cache
        if ctx is None or ctx.st is not self._st or ctx.log is not self._log:
            ctx = self._ctx()
        copied = E.clone_context(ctx)  # the state's copy, what is remembered carried over
        copy = type(self)(self.ruleset, copied.st, None, None, by_def=self._by_def)
        copy._ctx_cache = copied
        return copy

    def state_hash(self) -> str:
        return state_hash(self._st)

    def to_json(self) -> dict[str, Any]:
        """A save (JSON data, a copy: changing it changes nothing here); the format is in
        :mod:`rulecraft.runtime.savefile`."""
        record = self.record
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "ruleset": record.ruleset,
            "ruleset_version": record.version,
            "players": record.players,
            "seed": record.seed,
            "lang": record.lang,
            "arranged": self._arranged,
            "choices": list(self._choices),
            "initial": deep_copy(self._initial_state()),
            "state": deep_copy(self._st),
            "log": [[a, t] for a, t in self._log] if self._log is not None else None,
        }

    @classmethod
    def from_json(cls, ruleset: Ruleset, data: Any) -> Game:
        """The game a save describes, checked through and through: ``ValueError`` naming
        the problem unless the file has the save format, fits ``ruleset``, and its state and
        log are what replaying its choices from its start gives (and the start is what the
        ruleset makes from its seed and players, unless the position was arranged)."""
        check_shape(data)
        prog = ruleset.program
        if data["ruleset"] != prog.name:
            raise ValueError(f"this save is for {data['ruleset']!r}, not {prog.name!r}")
        if data["ruleset_version"] != prog.version:
            raise ValueError(
                f"this save was made with version {data['ruleset_version']!r} of "
                f"{prog.name}, not {prog.version!r}: its choices may mean other moves now"
            )
        for what in ("initial", "state"):
            check_fits(prog, data[what], data["players"], what)
        game = cls(ruleset, deep_copy(data["initial"]), None, [])
        game._initial = deep_copy(data["initial"])
        game._arranged = data["arranged"]
        game._check_start(data)
        game._check_replay(data)
        if data["log"] is None:
            game._log = None
        elif data["arranged"]:
            # The lines before the arrangement cannot be replayed: keep them as saved.
            game._log = [(a, t) for a, t in data["log"]]
        return game

    def _check_start(self, data: dict[str, Any]) -> None:
        """The saved start is the ruleset's start for the saved seed, players and lang."""
        initial = data["initial"]
        if initial["rng"][0] != data["seed"] or data["state"]["rng"][0] != data["seed"]:
            raise ValueError(f"the saved random state is not the one of seed {data['seed']}")
        if initial["lang"] != data["lang"] or data["state"]["lang"] != data["lang"]:
            raise ValueError(f"the saved language is not {data['lang']!r} throughout")
        if data["arranged"]:
            made = E.new_state(self.program, data["players"], data["seed"], data["lang"])
            if sorted(made["comps"]) != sorted(initial["comps"]) or any(
                made["comps"][c]["d"] != initial["comps"][c]["d"] for c in made["comps"]
            ):
                raise ValueError("the saved start does not hold this ruleset's cards")
            return
        fresh = self.ruleset.new_game(data["players"], data["seed"], data["lang"] or None)
        expected = fresh._initial_state()
        if (canonical_json(expected) if expected else "{}") != canonical_json(initial):
            raise ValueError(
                f"the saved start is not what {self.program.name} makes from seed "
                f"{data['seed']} with {data['players']} players (it differs at "
                f"{first_difference(expected, initial)})"
            )

    def _check_replay(self, data: dict[str, Any]) -> None:
        """Replay the saved choices from the start; the state and log must be the saved."""
        choices = data["choices"]
        key = (id(self.program), canonical_json(data["initial"]))
        try:
            done = self._resume_replay(key, choices)
            for n, choice in enumerate(choices[done:], done + 1):
                if self._st["pending"] is None or self._st["result"] is not None:
                    raise ValueError(f"saved choice {n} of {len(choices)} comes after the end")
                try:
                    self.choose(choice)
                except IllegalChoice:
                    raise ValueError(
                        f"saved choice {n} of {len(choices)}, {choice!r}, is not an option there"
                    ) from None
        except (RuleError, RecursionError) as err:
            raise ValueError(f"replaying the saved choices fails: {err}") from None
        if canonical_json(self._st) != canonical_json(data["state"]):
            raise ValueError(
                "the saved state is not what the saved choices lead to (it differs at "
                f"state/{first_difference(self._st, data['state'])})"
            )
        _REPLAYS[key] = (
            self.program,
            tuple(choices),
            clone_state(self._st),
            list(self._log or []),
        )
        while len(_REPLAYS) > _REPLAY_CACHE_SIZE:
            del _REPLAYS[next(iter(_REPLAYS))]
        log = data["log"]
        if log is not None:
            mine = [[a, t] for a, t in self._log or []]
            saved = log[len(log) - len(mine) :] if data["arranged"] else log
            if mine != saved:
                where = next(
                    (i for i, (x, y) in enumerate(zip(mine, saved, strict=False)) if x != y), None
                )
                line = where if where is not None else min(len(mine), len(saved))
                raise ValueError(f"the saved log is not what the saved choices say (line {line})")

    def _resume_replay(self, key: tuple[int, str], choices: list[str]) -> int:
        """Start the replay from the start, or from the last verified replay of the same
        start whose choices begin ``choices`` (saving every move of a long game would
        otherwise replay it from the start each time); return how many choices are done."""
        cached = _REPLAYS.get(key)
        if cached is None or cached[0] is not self.program:
            self._replay_from_initial([])
            return 0
        _, done, state, log = cached
        if tuple(choices[: len(done)]) == done:
            self._st = clone_state(state)
            self._log = list(log)
            self._choices = list(done)
            self._decision_cache = self._deal_cache = None
            return len(done)
        self._replay_from_initial([])
        return 0

    def save(self, path: str | os.PathLike[str], seats: Mapping[int, str] | None = None) -> None:
        """Write :meth:`to_json` to ``path`` safely (a temp file, fsynced, renamed over the
        target; see :func:`~rulecraft.runtime.savefile.write_save`).  ``seats`` (seat
        from 0 -> ``"human"`` or a bot spec) is kept for the REPL's ``load``."""
        if not self._keeps_history():
            raise ValueError("this game keeps no history (a clone): it cannot be saved")
        data = self.to_json()
        if seats:
            data["seats"] = {str(seat + 1): spec for seat, spec in sorted(seats.items())}
        write_save(path, json.dumps(data, ensure_ascii=False))

    @classmethod
    def load_file(cls, ruleset: Ruleset, path: str | os.PathLike[str]) -> Game:
        """The game saved in ``path`` (``ValueError`` naming the problem, see
        :meth:`from_json`)."""
        return cls.from_json(ruleset, read_save(path))

    # ------------------------------------------------------------------ what seats see
    @property
    def log(self) -> list[str]:
        """Every log line (the all-seeing view; use :meth:`log_for` for a seat)."""
        return [t for _, t in (self._log or [])]

    def log_for(self, seat: int) -> list[str]:
        return _drop_twins(self._log or [], seat)

    def view(self, seat: int) -> dict[str, Any]:
        from rulecraft.runtime.view import player_view

        return player_view(self._ctx(), seat)

    def describe(self, name_or_id: str, seat: int) -> str | None:
        from rulecraft.runtime.view import describe

        return describe(self._ctx(), name_or_id, seat)

    def odds(self) -> str | None:
        """The exact chance of the pending test, or ``None`` if no test is pending."""
        from rulecraft.runtime.chance import test_odds

        pending = self._st["pending"]
        if pending is None or pending.get("kind") != "roll":
            return None
        test = self._st["mem"].get("test")
        if not test:
            return None
        from rulecraft.dice.exact import TooManyOutcomes

        dice = " + ".join(f"{n} {d}" for d, n in sorted(test["pool"].items()))
        head = f"Test {test['skill']} ({test['target']}) with {dice}"
        try:
            p = test_odds(self._ctx(), test["pool"], int(test["target"]))
        except TooManyOutcomes:  # asked at the prompt: an answer, not a crash (issue 17)
            return f"{head}: too many outcomes to compute the exact chance"
        return f"{head}: P(pass) = {p} ({float(p):.1%})"

    def option_odds(self) -> list[RollOdds]:
        """For each option of the pending decision that rolls dice (or starts a ``test``)
        before the next decision: the pool and the exact chance of every count of each of
        its symbols (or of passing the test).  Each option is played on a throwaway copy;
        the game itself does not move.  Options that roll nothing are left out.

        The odds are the deciding seat's to read: the pool is the one the rules would roll
        from this position, so show them only to that seat.
        """
        from rulecraft.runtime.chance import RollOdds, pool_odds, probed_rolls, start_probe

        decision = self.decision
        if decision is None:
            return []
        out: list[RollOdds] = []
        for option in decision.options:
            probe = self.clone()
            start_probe(probe._st)
            try:
                probe.choose(option.id)
            except RuleError:
                continue  # the option fails on the copy: no roll to tell
            test = probe.odds() if probe._st["pending"] is not None else None
            rolls = probed_rolls(probe._st)
            if rolls:
                first = rolls[0]
                pool, symbols = pool_odds(probe._ctx(), first["pool"])
                out.append(
                    RollOdds(option.id, option.label, pool, symbols, None, not first["fresh"])
                )
            elif test is not None:
                out.append(RollOdds(option.id, option.label, "", (), test))
        return out

    # ------------------------------------------------------------------ for bots
    def evaluate(self, seat: int) -> float:
        result = self._st["result"]
        if result is not None:
            if result["draw"]:
                return 0.0
            return 1e9 if seat in result["winners"] else -1e9
        ev = self.program.evaluation
        if ev is None:
            return 0.0
        ctx = self._ctx()
        ctx.loc = {"you": E.player(seat), "this": None}
        return float(ev(ctx))

    def evaluate_expr(self, text: str, seat: int | None = None) -> Any:
        """Evaluate an expression of the language against this game, with ``you`` bound to
        ``seat`` (default: the active seat).  Used by scenario checks and the REPL.

        Raises ``ValueError`` with the diagnostics when the text does not compile.
        """
        if self.ruleset.compile_expression is None:
            raise ValueError("this ruleset was built without an expression compiler")
        fn = self.ruleset.compile_expression(self.program, text)
        ctx = self._ctx()
        ctx.loc = {"you": E.player(self._st["active"] if seat is None else seat), "this": None}
        return E.evaluate(ctx, fn)  # a failure (endless recursion...) is a RuleError

    def determinize(self, seat: int, seed: int) -> Self:
        """A copy where everything ``seat`` cannot see is re-dealt at random among the
        places it could be (components of one kind swap only with each other), and the
        random stream is re-seeded."""
        copy = self.clone()
        st = copy._st
        rng = Rng(seed & ((1 << 64) - 1), 0)
        original = self._st["comps"]
        for group, places in self._deal_plan(seat):
            new_order, rng = shuffled(rng, group)
            redeal(st, original, group, places, new_order)
        st["rng"] = [rng.seed ^ 0x5DEECE66D, 0]
        copy._decision_cache = None
        incremental.redealt(copy._ctx())  # cards were swapped in their piles, not moved
        return copy

    def _deal_plan(self, seat: int) -> list[tuple[list[str], list[tuple[str, int]]]]:
        """The cards ``seat`` cannot see, grouped by kind (groups of two or more), each with
        the places (zone, index) they lie in: what :meth:`determinize` re-deals.  A search
        deals the same position many times, so the plan is kept while the position stands
        (every change of the state drops it, as it drops the pending decision)."""
        kept = self._deal_cache
        if kept is not None and kept[0] == seat:
            return kept[1]
        st = self._st
        ctx = self._ctx()
        hidden: dict[str, list[str]] = {}
        for cid, comp in st["comps"].items():
            if not E.visible_to(ctx, cid, seat):
                hidden.setdefault(self.program.defs[comp["d"]].kind, []).append(cid)
        comps, zones = st["comps"], st["zones"]
        # Where each hidden card lies, one pass over each zone holding some: a card's index
        # looked up in its pile would cost a scan of the deck for every card in it.
        index_in: dict[str, dict[str, int]] = {}
        plan: list[tuple[list[str], list[tuple[str, int]]]] = []
        for group in hidden.values():
            if len(group) < 2:
                continue
            places = []
            for c in group:
                zone = comps[c]["z"]
                where = index_in.get(zone)
                if where is None:
                    where = index_in[zone] = {x: i for i, x in enumerate(zones[zone])}
                places.append((zone, where[c]))
            plan.append((group, places))
        self._deal_cache = (seat, plan)
        return plan

    def __repr__(self) -> str:
        status = "over" if self._st["result"] else f"turn {self.turn}"
        return f"<Game {self.program.name} {status}>"


#: The last verified replays: (program id, start) -> (program, choices, state, log).  Only
#: states the engine itself made from that start are kept, so resuming from one is as good
#: as replaying; the entry holds its program, so the id is not reused while it is kept.
_REPLAYS: dict[tuple[int, str], tuple[Program, tuple[str, ...], State, list[tuple[int, str]]]] = {}
_REPLAY_CACHE_SIZE = 8


def _drop_twins(log: list[tuple[int, str]], seat: int) -> list[str]:
    """The log lines ``seat`` may read.  A line meant for one seat is followed by its
    public twin ("draws Ace" / "draws a card"): that seat reads the first, others the
    second."""
    out: list[str] = []
    skip_twin = False
    for audience, text in log:
        if audience == -1:
            if not skip_twin:
                out.append(text)
            skip_twin = False
        elif audience == seat:
            out.append(text)
            skip_twin = True
        else:
            skip_twin = False
    return out
