"""Count what every hostile input of issue 17 gets, per category (its "What must be shown").

    .venv/bin/python -m tests.hostile.tally                 # every category, 200 fuzz examples
    .venv/bin/python -m tests.hostile.tally saves repl      # some categories
    .venv/bin/python -m tests.hostile.tally --fuzz 0 --json tally.json

Issue 17 asks, "for each category (validator, runtime, saves, REPL, hidden information) the
number of hostile inputs tried, clean located errors, tracebacks, hangs and silent
acceptances (the last three must be 0)".  This runs the corpora the tests run and counts,
instead of stopping at the first failure as a test does:

- validator: :data:`tests.hostile.corpus_rulesets.CASES` that fail validation (YAML, ``.rcl``,
  includes): ``rulecraft validate`` must exit 1 with the expected code at the expected place;
- runtime: the corpus's runtime cases (a valid ruleset whose ``play`` does something
  impossible): a ``RuleError`` with the expected code at the expected ``.rcl`` place; and the
  runtime fuzzer's random rulesets (``--fuzz N``), where any located ``RuleError`` counts as
  clean and a game that plays on counts as ``played``;
- saves: the tampered saves of :mod:`tests.saves.test_tampered_saves` and the hostile files
  of :mod:`tests.saves.test_save_files`: a ``ValueError`` naming the problem;
- REPL: the hostile lines of :mod:`tests.repl.test_repl_hostile` typed at a Tic-Tac-Toe
  session: the session runs on, the game is unchanged, and something is said (a blank line
  is answered by nothing, by design, and counts as clean);
- hidden information: in a random game of every bundled ruleset, at each decision, every
  seat's channels (view, new log lines, prompt, options, labels, details) are read for the
  cards it must not see (:class:`~rulecraft.tools.conformance.DeclaredHidden`), and
  unseen card ids are tried: choosing one (by the deciding seat) must fail exactly as a
  made-up id does, ``describe`` must find nothing.  A leak or an accepted probe is a silent
  acceptance.

Outcomes: ``located`` (the clean, located answer expected), ``traceback`` (any other
exception, RC999, exit 2, or the REPL stopping), ``hang`` (no answer within the time
limit), ``silent`` (accepted without a word), ``other`` (a clean error, but not the
expected code, place or message: the tests fail on these too).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tests") not in sys.path:  # the REPL tests import their helpers as `repl.`
    sys.path.append(str(ROOT / "tests"))

LOCATED, TRACEBACK, HANG, SILENT, OTHER = "located", "traceback", "hang", "silent", "other"
OUTCOMES = (LOCATED, TRACEBACK, HANG, SILENT, OTHER)
TIME_LIMIT_S = 60


class Hang(Exception):
    """An input got no answer within the time limit."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds``."""

    def stop(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Tally:
    """The outcomes of one category's inputs; ``notes`` names every input not ``located``
    (and, for the fuzzer, the games that played on)."""

    category: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    notes: list[str] = field(default_factory=list)

    @property
    def tried(self) -> int:
        return sum(self.counts.values())

    def add(self, name: str, run: Callable[[], str], seconds: int = TIME_LIMIT_S) -> str:
        """Run one input; ``run`` returns its outcome or raises (a traceback)."""
        try:
            with time_limit(seconds):
                outcome, why = run(), ""
        except Hang as exc:
            outcome, why = HANG, str(exc)
        except Exception as exc:  # what counting is for: anything escaping is a traceback
            outcome, why = TRACEBACK, f"{type(exc).__name__}: {str(exc)[:200]}"
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        if outcome != LOCATED:
            self.notes.append(f"{outcome}: {name} {why}".rstrip())
        return outcome


# ---------------------------------------------------------------------------- validator
def _validate(root: Path, args: tuple[str, ...] = ()) -> tuple[int, str]:
    """``rulecraft validate --format json`` in-process: exit code and everything printed."""
    from rulecraft.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["validate", "--format", "json", *args, str(root)])
    return code, out.getvalue() + "\x00" + err.getvalue()


def validation_outcome(code: int, printed: str, expected: tuple[str, str, int, int]) -> str:
    """The outcome of one ``validate`` run that should report ``expected``
    (code, file, line, column)."""
    out = printed.split("\x00", 1)[0]
    if "Traceback" in printed or code not in (0, 1):
        return TRACEBACK
    diagnostics = json.loads(out)["diagnostics"] if out.strip() else []
    if any(d["code"] == "RC999" for d in diagnostics):
        return TRACEBACK
    errors = [d for d in diagnostics if d.get("severity", "error") == "error"]
    if code == 0 or not errors:
        return SILENT
    found = {(d["code"], Path(d["file"]).name, d["line"], d["column"]) for d in diagnostics}
    return LOCATED if expected in found else OTHER


def tally_validator(workdir: Path) -> Tally:
    from tests.hostile.corpus_rulesets import CASES
    from tests.hostile.test_hostile_rulesets import build

    tally = Tally("validator")
    for case in (c for c in CASES if not c.runtime):
        expected = (case.code, Path(case.file).name, case.line, case.column)

        def run(case: Any = case, expected: tuple[str, str, int, int] = expected) -> str:
            return validation_outcome(*_validate(build(case, workdir), case.args), expected)

        tally.add(case.name, run)
    return tally


# ---------------------------------------------------------------------------- runtime
def rule_error_outcome(err: BaseException | None, code: str, place: tuple[str, int, int]) -> str:
    """The outcome of a rule that should raise a ``RuleError`` ``code`` at ``place``
    (file name, line, column); ``err`` is what it raised (``None``: nothing)."""
    from rulecraft.runtime.engine import RuleError

    if err is None:
        return SILENT
    if not isinstance(err, RuleError):
        return TRACEBACK
    if err.span is None:
        return OTHER  # an error, but it says not where
    where = (Path(err.span.file).name, err.span.line, err.span.column)
    return LOCATED if (err.code, where) == (code, place) else OTHER


def tally_runtime(workdir: Path) -> Tally:
    from tests.hostile.corpus_rulesets import CASES
    from tests.hostile.test_hostile_rulesets import build

    import rulecraft
    from rulecraft.runtime.engine import RuleError

    tally = Tally("runtime")
    for case in (c for c in CASES if c.runtime):

        def run(case: Any = case) -> str:
            root = build(case, workdir)
            if _validate(root)[0] != 0:
                return OTHER  # the ruleset should be valid: its failure is the game's
            game = rulecraft.load(str(root)).new_game(seed=1)
            raised: BaseException | None = None
            try:
                game.choose("act:play")
            except RuleError as err:
                raised = err
            return rule_error_outcome(raised, case.code, (case.file, case.line, case.column))

        tally.add(case.name, run)
    return tally


def tally_fuzz(examples: int, seed: int = 0) -> Tally:
    """The runtime fuzzer's random valid rulesets, played: a located ``RuleError`` is clean,
    a game that ends or reaches the decision cap is ``played`` (no hostile step was run)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from tests.fuzz import test_runtime_fuzz as fuzz
    from tests.fuzz.gen import rulesets

    from rulecraft.runtime import engine

    tally = Tally("runtime (fuzzer)")
    tally.counts["played"] = 0
    settings_ = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )

    @settings_
    @given(rulesets(), st.integers(2, 4), st.integers(0, 2**32))
    def one(ruleset: tuple[str, str], players: int, game_seed: int) -> None:
        def run() -> str:
            # fuzz.play asserts that a RuleError is located: an AssertionError is a traceback.
            ended = fuzz.play(fuzz.load(*ruleset), players, game_seed + seed)
            return LOCATED if ended.startswith("RC3") else "played"

        old = engine.MAX_STEPS_PER_DECISION
        engine.MAX_STEPS_PER_DECISION = fuzz.STEP_LIMIT
        try:
            tally.add(f"players={players} seed={game_seed}\n{ruleset[1]}", run)
        finally:
            engine.MAX_STEPS_PER_DECISION = old

    if examples:
        one()
    tally.notes = [n for n in tally.notes if not n.startswith("played")]
    return tally


# ---------------------------------------------------------------------------- saves
def refusal_outcome(err: BaseException | None, message: str) -> str:
    """The outcome of loading a save that must be refused with a ``ValueError`` saying
    ``message``."""
    if err is None:
        return SILENT
    if not isinstance(err, ValueError):
        return TRACEBACK
    return LOCATED if message in str(err) else OTHER


def _refused(load: Callable[[], object], message: str) -> str:
    try:
        load()
    except ValueError as err:
        return refusal_outcome(err, message)
    return SILENT


def tally_saves(workdir: Path) -> Tally:
    from tests.saves.test_save_files import HOSTILE_FILES
    from tests.saves.test_tampered_saves import CASES, played

    import rulecraft
    from rulecraft.runtime.game import Game

    tally = Tally("saves")
    sparks = rulecraft.load("sparks")
    honest = json.loads(json.dumps(played(sparks).to_json()))
    for name, tamper, message in CASES:
        data = json.loads(json.dumps(honest))
        tamper(data)

        def tampered(data: Any = data, message: str = message) -> str:
            return _refused(lambda: Game.from_json(sparks, data), message)

        tally.add(name, tampered)
    ttt = rulecraft.load("tictactoe")
    for name, content, message in HOSTILE_FILES:
        path = workdir / f"hostile-save-{len(tally.notes)}-{tally.tried}.json"
        path.write_text(content, encoding="utf-8")

        def hostile_file(path: Path = path, message: str = message) -> str:
            return _refused(lambda: Game.load_file(ttt, path), message)

        tally.add(f"file {name}", hostile_file)
    return tally


# ---------------------------------------------------------------------------- REPL
def repl_outcome(running: bool, intact: bool, said: bool, line: str) -> str:
    """The outcome of typing ``line``: the session must run on with the game intact and
    answer every line that is not blank."""
    if not running:
        return TRACEBACK  # the REPL (and the game with it) is gone
    if not intact:
        return OTHER
    return LOCATED if said or not line.strip() else SILENT


def tally_repl(workdir: Path) -> Tally:
    from rich.console import Console
    from tests.repl.test_repl_hostile import corpus

    import rulecraft
    from rulecraft.cli.play_cmd import EngineSource
    from rulecraft.repl.session import Session

    source = EngineSource(rulecraft.load("tictactoe"), "tictactoe")
    printed = io.StringIO()
    console = Console(file=printed, width=100, color_system=None)
    game = source.new_game(None, 1, "en")
    session = Session(source, game, {0: "human", 1: "human"}, console, seed=1, lang="en")
    session.start()
    session.handle("b2")
    tally = Tally("REPL")
    for line in corpus(workdir):

        def run(line: str = line) -> str:
            before = json.dumps(session.game.to_json(), sort_keys=True)
            said = len(printed.getvalue())
            session.handle(line)
            intact = json.dumps(session.game.to_json(), sort_keys=True) == before
            return repl_outcome(session.running, intact, len(printed.getvalue()) > said, line)

        tally.add(repr(line)[:60], run)
    return tally


# ---------------------------------------------------------------------------- hidden
def probe_outcome(made_up: str, error: BaseException | None, described: object) -> str:
    """The outcome of a seat choosing and describing a card it cannot see: ``error`` is
    what choosing it raised (``None``: it was taken), with the card's id written ``<id>``
    in its message; ``made_up`` is the same for :data:`MADE_UP_ID`, as ``Type: message``;
    ``described`` is what ``describe`` returned."""
    if error is None or described is not None:
        return SILENT
    if not isinstance(error, ValueError):
        return TRACEBACK
    return LOCATED if f"{type(error).__name__}: {error}" == made_up else OTHER


def _choosing(game: Any, option_id: str) -> BaseException | None:
    """What choosing ``option_id`` on a copy of ``game`` raises, its id written ``<id>``."""
    try:
        game.clone().choose(option_id)
    except ValueError as exc:
        return type(exc)(str(exc).replace(option_id, "<id>"))
    return None


def _hidden_game(name: str, tally: Tally, decisions: int, probes: int) -> None:
    """One random game of bundled ruleset ``name``, read and probed at every decision."""
    from tests.hidden.test_hidden_information import RULEBOOK_PRIVATE

    import rulecraft
    from rulecraft.tools.conformance import MADE_UP_ID, DeclaredHidden, leak_report

    ruleset = rulecraft.load(ROOT / "rulesets" / name)
    prog = ruleset.program
    game: Any = ruleset.new_game(players=max(prog.min_players, min(2, prog.max_players)), seed=0)
    hidden = DeclaredHidden(RULEBOOK_PRIVATE.get(name, {}))
    logs = dict.fromkeys(range(game.num_players), 0)
    rng = random.Random(0)
    for step in range(decisions):
        decision = game.decision
        if decision is None:
            break
        for seat in range(game.num_players):
            terms = hidden(game, seat)
            leaks = leak_report(game, seat, terms, logs[seat], probes=0)
            logs[seat] = len(game.log_for(seat))
            tally.add(f"{name} decision {step} seat {seat} channels", _leaks(leaks))
            ids = [t for t in terms if "#" in t][:probes]
            refused = _choosing(game, MADE_UP_ID)
            made_up = f"{type(refused).__name__}: {refused}"
            for cid in ids:

                def probe(
                    cid: str = cid, seat: int = seat, decider: int = decision.seat, m: str = made_up
                ) -> str:
                    described = game.describe(cid, seat)
                    if seat != decider:  # only the deciding seat can choose
                        return SILENT if described is not None else LOCATED
                    return probe_outcome(m, _choosing(game, cid), described)

                tally.add(f"{name} decision {step} seat {seat} probe {cid}", probe)
        game.choose(rng.choice(game.legal_ids()))


def _leaks(problems: list[str]) -> Callable[[], str]:
    """A seat's channels read: clean when nothing it must not see is in them."""
    return lambda: SILENT if problems else LOCATED


def tally_hidden(decisions: int = 25, probes: int = 3, names: tuple[str, ...] = ()) -> Tally:
    """Every bundled ruleset (or those ``names``), one random game of up to ``decisions``
    decisions, ``probes`` unseen ids tried per seat and decision."""
    tally = Tally("hidden information")
    for name in names or bundled_rulesets():
        try:
            _hidden_game(name, tally, decisions, probes)
        except Exception as exc:  # the random game itself broke: no input's fault, but count it
            tally.counts[TRACEBACK] += 1
            tally.notes.append(f"{TRACEBACK}: {name} game {type(exc).__name__}: {exc}")
    return tally


def bundled_rulesets() -> list[str]:
    """The committed rulesets (a folder someone is still writing is not bundled yet)."""
    listed = subprocess.run(
        ["git", "ls-files", "rulesets/*/ruleset.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    committed = [Path(line).parent.name for line in listed.stdout.split()]
    if listed.returncode == 0 and committed:
        return sorted(committed)
    return sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml"))


# ---------------------------------------------------------------------------- main
CATEGORIES = ("validator", "runtime", "saves", "repl", "hidden")


def run_all(categories: tuple[str, ...], fuzz: int, workdir: Path) -> list[Tally]:
    out: list[Tally] = []
    for category in categories:
        folder = workdir / category
        folder.mkdir()
        if category == "validator":
            out.append(tally_validator(folder))
        elif category == "runtime":
            out.append(tally_runtime(folder))
            if fuzz:
                out.append(tally_fuzz(fuzz))
        elif category == "saves":
            out.append(tally_saves(folder))
        elif category == "repl":
            out.append(tally_repl(folder))
        else:
            out.append(tally_hidden())
    return out


def table(tallies: list[Tally]) -> str:
    head = f"{'category':22} {'tried':>6} " + " ".join(f"{o:>9}" for o in OUTCOMES)
    rows = [head, "-" * len(head)]
    for t in tallies:
        extra = "".join(f"  {k}: {v}" for k, v in t.counts.items() if k not in OUTCOMES)
        cells = " ".join(f"{t.counts.get(o, 0):>9}" for o in OUTCOMES)
        rows.append(f"{t.category:22} {t.tried:>6} {cells}{extra}")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("categories", nargs="*", help=f"any of {', '.join(CATEGORIES)}")
    parser.add_argument("--fuzz", type=int, default=200, help="fuzzer examples (0: none)")
    parser.add_argument("--json", type=Path, help="write the counts and notes here")
    args = parser.parse_args(argv)
    chosen = tuple(args.categories) or CATEGORIES
    if unknown := [c for c in chosen if c not in CATEGORIES]:
        parser.error(f"unknown categories {unknown}: choose from {', '.join(CATEGORIES)}")
    os.environ.setdefault("NO_COLOR", "1")
    with tempfile.TemporaryDirectory(prefix="rulecraft-tally-") as tmp:
        tallies = run_all(chosen, args.fuzz, Path(tmp))
    print(table(tallies))
    for t in tallies:
        for note in t.notes[:20]:
            print(f"  {t.category}: {note.splitlines()[0]}")
    if args.json:
        rows = [{**asdict(t), "tried": t.tried} for t in tallies]
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    bad = sum(t.counts[o] for t in tallies for o in (TRACEBACK, HANG, SILENT, OTHER))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
