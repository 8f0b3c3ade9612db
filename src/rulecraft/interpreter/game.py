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
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import jsonschema

from rulecraft.diagnostics import Diagnostic, Severity
from rulecraft.interpreter import engine as E
from rulecraft.interpreter.decision import Decision, Option, Result
from rulecraft.interpreter.engine import Ctx, IllegalChoice, RuleError
from rulecraft.interpreter.program import Program
from rulecraft.interpreter.random import Rng, shuffled
from rulecraft.interpreter.state import STATE_SCHEMA, State, clone_state, state_hash

if TYPE_CHECKING:
    from rulecraft.interpreter.arrange import Arrangement

__all__ = ["Game", "GameRecord", "IllegalChoice", "RuleError", "Ruleset", "RulesetError", "load"]

SAVE_FORMAT = "rulecraft-save"


class RulesetError(Exception):
    """A ruleset that does not validate; ``diagnostics`` says why."""

    def __init__(self, name: str, diagnostics: list[Diagnostic]) -> None:
        errors = [d for d in diagnostics if d.severity == Severity.ERROR]
        shown = "\n".join(str(d) for d in errors[:10])
        more = f"\n... and {len(errors) - 10} more" if len(errors) > 10 else ""
        super().__init__(f"ruleset {name!r} has {len(errors)} error(s):\n{shown}{more}")
        self.diagnostics = diagnostics


def bundled_root() -> Path:
    """Where the bundled rulesets live (inside the wheel, or the source checkout)."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rulesets"
    if packaged.is_dir():
        return packaged
    return here.parent.parent / "rulesets"


def default_ruleset() -> str:
    """The bundled default game: the name in ``rulesets/DEFAULT`` (the engine names no game)."""
    marker = bundled_root() / "DEFAULT"
    try:
        name = marker.read_text(encoding="utf-8").strip()
    except OSError:
        name = ""
    names = bundled_names()
    if name in names:
        return name
    return names[0] if names else name


def bundled_names() -> list[str]:
    root = bundled_root()
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob("*/ruleset.yaml"))


def load(name_or_path: str | os.PathLike[str]) -> Ruleset:
    """Load and compile a ruleset: a bundled name (``"tictactoe"``) or a folder path.

    Raises :class:`RulesetError` with every diagnostic when it does not validate.
    """
    from rulecraft.validators.pipeline import check_ruleset

    path = Path(name_or_path)
    if not (path / "ruleset.yaml").is_file():
        candidate = bundled_root() / str(name_or_path)
        if (candidate / "ruleset.yaml").is_file():
            path = candidate
        else:
            known = ", ".join(bundled_names()) or "none"
            raise FileNotFoundError(
                f"no ruleset {str(name_or_path)!r}: not a folder with a ruleset.yaml, "
                f"nor a bundled ruleset (bundled: {known})"
            )
    checked = check_ruleset(path)
    if checked.program is None:
        raise RulesetError(str(name_or_path), checked.diagnostics)
    return Ruleset(checked.program, checked.diagnostics)


class Ruleset:
    """A compiled ruleset, ready to start games."""

    def __init__(self, program: Program, diagnostics: Sequence[Diagnostic] = ()) -> None:
        self.program = program
        self.diagnostics = list(diagnostics)

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
        st = E.new_state(prog, n, seed, language if language != prog.languages[0] else "")
        game = Game(self, st, initial=None, log=[])
        game._initial = clone_state(st)
        game._run()
        return game

    def __repr__(self) -> str:
        return f"<Ruleset {self.name} {self.program.version}>"


@dataclass(frozen=True)
class GameRecord:
    """Enough to replay a game exactly: the ruleset, its version, seats, seed, choices."""

    ruleset: str
    version: str
    players: int
    seed: int
    lang: str
    choices: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "version": self.version,
            "players": self.players,
            "seed": self.seed,
            "lang": self.lang,
            "choices": list(self.choices),
        }


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
        self._log = log
        self._choices: list[str] = list(choices or [])
        self._by_def = by_def if by_def is not None else E.instances_by_def(state)
        self._decision_cache: Decision | None = None
        self._ctx_cache: Ctx | None = None

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
        self._decision_cache = None
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
        """The raw state (read it; change it only through :meth:`choose`)."""
        return self._st

    @property
    def decision(self) -> Decision | None:
        if self._decision_cache is not None:
            return self._decision_cache
        pending = self._st["pending"]
        if pending is None or self._st["result"] is not None:
            return None
        from rulecraft.interpreter.instructions import option_label

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
        pending = self._st["pending"]
        if pending is None:
            return []
        return [o[0] for o in pending["options"]]

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
        ctx = self._ctx()
        E.answer(ctx, option_id)
        self._choices.append(option_id)
        self._decision_cache = None
        E.run(ctx)

    def arrange(self, setup: Arrangement | Mapping[str, Any] | None = None, **parts: Any) -> None:
        """Arrange a position: cards into zones in order, the state of cards, players and
        the game, the next dice faces, the active seat and phase (seats from 0; see
        docs/api.md).  The pending decision then asks again.  The arranged position is the
        start of this game's history: undo goes back to it, not before.  ``ValueError``
        (nothing changed) names what does not exist."""
        from rulecraft.interpreter.arrange import Arrangement, apply

        if not isinstance(setup, Arrangement):
            setup = Arrangement.read({**(setup or {}), **parts})
        elif parts:
            raise ValueError("give an Arrangement or keywords, not both")
        self._decision_cache = None
        apply(self._ctx(), setup)
        self._decision_cache = None
        if self._initial is not None:
            self._initial = clone_state(self._st)
        self._choices = []

    # ------------------------------------------------------------------ time travel
    @property
    def can_undo(self) -> bool:
        return bool(self._choices) and self._initial is not None

    def undo(self, steps: int = 1) -> None:
        """Go back ``steps`` decisions (replaying from the start: same seed, same result)."""
        if self._initial is None:
            raise ValueError("this game keeps no history to undo")
        if steps < 1 or steps > len(self._choices):
            raise ValueError(f"can undo 1 to {len(self._choices)} decisions, not {steps}")
        keep = self._choices[: len(self._choices) - steps]
        self._replay_from_initial(keep)

    def _replay_from_initial(self, choices: list[str]) -> None:
        assert self._initial is not None
        self._st = clone_state(self._initial)
        self._log = [] if self._log is not None else None
        self._choices = []
        self._decision_cache = None
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
        return type(self)(self.ruleset, clone_state(self._st), None, None, by_def=self._by_def)

    def state_hash(self) -> str:
        return state_hash(self._st)

    def to_json(self) -> dict[str, Any]:
        """A save: the state, the record and the log (JSON data)."""
        return {
            "format": SAVE_FORMAT,
            "ruleset": self.program.name,
            "version": self.program.version,
            "state": self._st,
            "initial": self._initial,
            "choices": list(self._choices),
            "log": [list(x) for x in self._log] if self._log is not None else None,
        }

    @classmethod
    def from_json(cls, ruleset: Ruleset, data: dict[str, Any]) -> Game:
        """A game from :meth:`to_json` data, validated (``ValueError`` when it is not)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("not a rulecraft save")
        if data.get("ruleset") != ruleset.program.name:
            raise ValueError(
                f"this save is for {data.get('ruleset')!r}, not {ruleset.program.name!r}"
            )
        for key in ("state", "initial"):
            if data.get(key) is None and key == "initial":
                continue
            try:
                _state_validator().validate(data.get(key))
            except jsonschema.ValidationError as err:
                where = "/".join(str(p) for p in err.absolute_path) or "(top)"
                raise ValueError(
                    f"the saved {key} is not valid at {where}: {err.message}"
                ) from None
        st = data["state"]
        _check_consistent(ruleset.program, st)
        log = data.get("log")
        game = cls(
            ruleset,
            st,
            data.get("initial"),
            [(int(a), str(t)) for a, t in log] if isinstance(log, list) else None,
            [str(c) for c in data.get("choices") or []],
        )
        return game

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_json` to ``path`` atomically (temp file, then rename)."""
        target = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=".save-", dir=target.parent or Path("."))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.to_json(), f, ensure_ascii=False)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load_file(cls, ruleset: Ruleset, path: str | os.PathLike[str]) -> Game:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"cannot read the save: {err}") from None
        return cls.from_json(ruleset, data)

    # ------------------------------------------------------------------ what seats see
    @property
    def log(self) -> list[str]:
        """Every log line (the all-seeing view; use :meth:`log_for` for a seat)."""
        return [t for _, t in (self._log or [])]

    def log_for(self, seat: int) -> list[str]:
        return _drop_twins(self._log or [], seat)

    def view(self, seat: int) -> dict[str, Any]:
        from rulecraft.interpreter.view import player_view

        return player_view(self._ctx(), seat)

    def describe(self, name_or_id: str, seat: int) -> str | None:
        from rulecraft.interpreter.view import describe

        return describe(self._ctx(), name_or_id, seat)

    def odds(self) -> str | None:
        """The exact chance of the pending test, or ``None`` if no test is pending."""
        from rulecraft.interpreter.chance import test_odds

        pending = self._st["pending"]
        if pending is None or pending.get("kind") != "roll":
            return None
        test = self._st["mem"].get("test")
        if not test:
            return None
        p = test_odds(self._ctx(), test["pool"], int(test["target"]))
        dice = " + ".join(f"{n} {d}" for d, n in sorted(test["pool"].items()))
        return (
            f"Test {test['skill']} ({test['target']}) with {dice}: P(pass) = {p} ({float(p):.1%})"
        )

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
        from rulecraft.grammar.parser import parse_expression
        from rulecraft.interpreter.compiler import expression_compiler

        tree, problems = parse_expression(text, "<expression>")
        if tree is None or problems:
            raise ValueError("; ".join(str(d) for d in problems) or "not an expression")
        fn, diags = expression_compiler(self.program, tree)
        if fn is None:
            raise ValueError("; ".join(str(d) for d in diags))
        ctx = self._ctx()
        ctx.loc = {"you": E.player(self._st["active"] if seat is None else seat), "this": None}
        return E.evaluate(ctx, fn)  # a failure (endless recursion...) is a RuleError

    def determinize(self, seat: int, seed: int) -> Self:
        """A copy where everything ``seat`` cannot see is re-dealt at random among the
        places it could be (components of one kind swap only with each other), and the
        random stream is re-seeded."""
        copy = self.clone()
        st = copy._st
        ctx = copy._ctx()
        hidden: dict[str, list[str]] = {}
        for cid, comp in st["comps"].items():
            if not E.visible_to(ctx, cid, seat):
                hidden.setdefault(self.program.defs[comp["d"]].kind, []).append(cid)
        rng = Rng(seed & ((1 << 64) - 1), 0)
        for group in hidden.values():
            if len(group) < 2:
                continue
            places = [
                (st["comps"][c]["z"], st["zones"][st["comps"][c]["z"]].index(c)) for c in group
            ]
            new_order, rng = shuffled(rng, group)
            # Everything about a place (zone, owner, face down, counters, flags) stays with
            # the place; only which card lies there changes.
            place_state = [st["comps"][c] for c in group]
            for (zone, index), cid, old in zip(places, new_order, place_state, strict=True):
                st["zones"][zone][index] = cid
                moved = dict(old)
                moved["d"] = self._st["comps"][cid]["d"]
                st["comps"][cid] = moved
        st["rng"] = [rng.seed ^ 0x5DEECE66D, 0]
        copy._decision_cache = None
        return copy

    def __repr__(self) -> str:
        status = "over" if self._st["result"] else f"turn {self.turn}"
        return f"<Game {self.program.name} {status}>"


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


@lru_cache(maxsize=1)
def _state_validator() -> jsonschema.Draft202012Validator:
    # Building a validator checks the schema itself: do it once, not on every load.
    return jsonschema.Draft202012Validator(STATE_SCHEMA)


def _check_consistent(prog: Program, st: State) -> None:
    """A loaded state must fit the program: known definitions, zones and routines."""
    if st.get("game") != prog.name:
        raise ValueError(f"the state is for {st.get('game')!r}, not {prog.name!r}")
    for cid, comp in st["comps"].items():
        if comp["d"] not in prog.defs:
            raise ValueError(f"unknown component definition {comp['d']!r} for {cid!r}")
        if comp["z"] not in st["zones"] or cid not in st["zones"][comp["z"]]:
            raise ValueError(f"component {cid!r} is not where it says it is")
    for frame in st["stack"]:
        if not 0 <= frame[0] < len(prog.routines):
            raise ValueError("the saved rules position does not fit this ruleset")
        if frame[1] > len(prog.routines[frame[0]].code):
            raise ValueError("the saved rules position does not fit this ruleset")
    if len(st["res"]) != st["players"]:
        raise ValueError("the saved resources do not match the number of players")
