"""Scenario tests: a YAML script of choices and checks, played strictly against a ruleset.

A scenario starts a game (or loads a save), answers its decisions in order, checks the game
on the way (``expect``, ``expect_decision``, ``expect_log``) and after the script
(``expect_result`` too).  Strict, like XMage's scripted tests: a decision the script does
not answer, a choice that is not legal, a false expectation and a scripted line left unused
(the game ended first) all fail the scenario, located at the line of the YAML that failed.
The format is documented in ``docs/scenarios.md``.

>>> import rulecraft
>>> text = '''
... name: centre first
... cites: "Any empty space may be marked"
... start: {players: 2, seed: 1}
... script:
...   - choose: act:place:b2
...   - expect: "count(spaces where empty(it)) == 8"
...   - expect_decision: {seat: 2, options_exclude: [act:place:b2]}
...   - stop: "only the opening is under test"
... '''
>>> scenario, problems = load_scenario(text, "centre.yaml")
>>> problems
[]
>>> outcome = run_scenario(rulecraft.load("tictactoe"), scenario)
>>> outcome.passed, outcome.steps_run
(True, 4)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from rulecraft.diagnostics import Diagnostic, Span
from rulecraft.language.schema_check import check_schema
from rulecraft.language.yaml_source import JsonValue, PositionMap, load_yaml
from rulecraft.runtime.decision import Decision, Option, Result
from rulecraft.runtime.ids import parse_player, without_copy_number

__all__ = [
    "SCENARIO_SCHEMA",
    "Outcome",
    "Scenario",
    "ScenarioGame",
    "Start",
    "Status",
    "Step",
    "find_scenarios",
    "load_scenario",
    "run_scenario",
]

# Codes of problems in a scenario file itself (not in the ruleset it tests); documented in
# docs/scenarios.md.  YAML and schema problems keep the RC0xx codes of the validators.
BAD_STEP = "RCT01"
STOP_NOT_LAST = "RCT02"
BAD_START = "RCT03"
EMPTY_CHECK = "RCT04"

# How many legal options a failure message lists before it says "... and N more".
MAX_OPTIONS_SHOWN = 12

SCRIPT_STEPS = (
    "choose",
    "setup",
    "expect",
    "expect_decision",
    "expect_log",
    "expect_no_log",
    "expect_view",
    "stop",
)
CHECK_STEPS = (
    "expect",
    "expect_decision",
    "expect_log",
    "expect_no_log",
    "expect_view",
    "expect_result",
)
# Which steps may say `as: SEAT` (whose point of view an expression or a log is read from).
SEATED_STEPS = ("expect", "expect_log", "expect_no_log", "expect_view")
# Which steps must say it (a view is always some seat's).
SEAT_REQUIRED = ("expect_view",)

_SEAT: dict[str, Any] = {"type": "integer", "minimum": 1}
_OPTION_REF: dict[str, Any] = {"type": ["string", "integer"]}
_TEXT: dict[str, Any] = {"type": "string", "minLength": 1}
_EXPECT_DECISION: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "seat": _SEAT,
        "prompt": {"type": "string"},
        "options_include": {"type": "array", "items": _OPTION_REF},
        "options_exclude": {"type": "array", "items": _OPTION_REF},
    },
}
_NAMES: dict[str, Any] = {"type": "array", "items": {"type": "string", "minLength": 1}}
_EXPECT_VIEW: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {"shows": _NAMES, "hides": _NAMES},
}
_HOLDER: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "resources": {"type": "object", "additionalProperties": {"type": "integer"}},
        "fields": {"type": "object"},
        "flags": {"type": "array", "items": {"type": "string"}},
    },
}
_CARDS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
# A zone's exact contents: `cards`, and where the cards it held go (`others_to`).
_FILL: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["cards"],
    "properties": {"cards": _CARDS, "others_to": _TEXT},
}
_SETUP: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "zones": {
            "type": "object",
            "additionalProperties": {
                "anyOf": [
                    _CARDS,
                    _FILL,
                    {"type": "object", "additionalProperties": {"anyOf": [_CARDS, _FILL]}},
                ]
            },
        },
        "cards": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "minProperties": 1,
                "properties": {
                    "side": {"type": "string"},
                    "flags": {"type": "array", "items": {"type": "string"}},
                    "fields": {"type": "object"},
                    "owner": {"anyOf": [_SEAT, {"type": "null"}]},
                    "face_down": {"type": "boolean"},
                    "exhausted": {"type": "boolean"},
                },
            },
        },
        "players": {"type": "object", "additionalProperties": _HOLDER},
        "game": _HOLDER,
        "dice": {"type": "object", "additionalProperties": {"type": "array", "minItems": 1}},
        "tiles": {"type": "object", "additionalProperties": {"type": "string"}},
        "active": _SEAT,
        "phase": _TEXT,
    },
}
_EXPECT_RESULT: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "winners": {"type": "array", "items": _SEAT, "uniqueItems": True},
        "draw": {"type": "boolean"},
        "reason": {"type": "string"},
    },
}


def _step_schema(kinds: Sequence[str]) -> dict[str, Any]:
    every: dict[str, Any] = {
        "choose": _OPTION_REF,
        "expect": _TEXT,
        "expect_decision": _EXPECT_DECISION,
        "expect_log": _TEXT,
        "expect_no_log": _TEXT,
        "expect_view": _EXPECT_VIEW,
        "expect_result": _EXPECT_RESULT,
        "setup": _SETUP,
        "stop": {"type": "string"},
        "as": _SEAT,
    }
    return {
        "type": "object",
        "additionalProperties": False,
        "minProperties": 1,
        "properties": {k: every[k] for k in (*kinds, "as")},
    }


SCENARIO_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "rulecraft scenario",
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "cites", "script"],
    "properties": {
        "name": _TEXT,
        "cites": _TEXT,
        "start": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "players": _SEAT,
                "seed": {"type": "integer", "minimum": 0},
                "lang": {"type": "string"},
                "save": _TEXT,
            },
        },
        "setup": _SETUP,
        "script": {"type": "array", "items": {"$ref": "#/$defs/script_step"}},
        "after": {"type": "array", "items": {"$ref": "#/$defs/check_step"}},
    },
    "$defs": {"script_step": _step_schema(SCRIPT_STEPS), "check_step": _step_schema(CHECK_STEPS)},
}


class ScenarioGame(Protocol):
    """The part of :class:`rulecraft.Game` a scenario drives (a fake will do in tests)."""

    @property
    def decision(self) -> Decision | None: ...

    @property
    def result(self) -> Result | None: ...

    @property
    def log(self) -> list[str]: ...

    @property
    def num_players(self) -> int: ...

    def choose(self, option_id: str) -> None: ...

    def log_for(self, seat: int) -> list[str]: ...

    def evaluate_expr(self, text: str, seat: int | None = None) -> Any: ...

    def view(self, seat: int) -> dict[str, Any]: ...

    def arrange(self, setup: Any = None, **parts: Any) -> None: ...


class GameStarter(Protocol):
    """What starts a scenario's game: :class:`rulecraft.Ruleset` in practice."""

    def new_game(
        self, players: int | None = None, seed: int = 0, lang: str | None = None
    ) -> Any: ...


@dataclass(frozen=True, slots=True)
class Start:
    """How the game starts: fresh (``players``, ``seed``, ``lang``) or from a ``save``."""

    players: int | None = None
    seed: int = 0
    lang: str | None = None
    save: Path | None = None
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One scripted line: ``kind`` is its key (``choose``, ``expect``, ...), ``value`` the
    YAML value, ``seat`` the 0-based seat of ``as:`` (None without it), ``number`` its
    1-based place in its ``section`` (``script`` or ``after``)."""

    kind: str
    value: JsonValue
    span: Span
    section: str
    number: int
    seat: int | None = None

    def describe(self) -> str:
        """The line as the designer wrote it, short.

        >>> Step("choose", "act:place:b2", Span("s.yaml", 6), "script", 1).describe()
        'script step 1 (choose: act:place:b2)'
        """
        shown = self.value if isinstance(self.value, str) else json.dumps(self.value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return f"{self.section} step {self.number} ({self.kind}: {shown})"


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded, schema-checked scenario file."""

    file: str
    name: str
    cites: str
    start: Start
    script: tuple[Step, ...]
    after: tuple[Step, ...]
    span: Span
    # The position arranged after the start, before the script (the `setup:` block).
    setup: Step | None = None


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    # The scenario could not run: its file or its start (the save, the player count) is bad.
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one scenario went.  ``failure`` locates the step that failed (``None`` when it
    passed); ``diagnostics`` hold the problems of a scenario that could not run."""

    file: str
    name: str
    status: Status
    steps_run: int = 0
    message: str = ""
    span: Span | None = None
    step: str = ""
    cites: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def passed(self) -> bool:
        return self.status == Status.PASSED

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "name": self.name,
            "cites": self.cites,
            "status": self.status.value,
            "steps_run": self.steps_run,
            "step": self.step or None,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "message": self.message or None,
            "diagnostics": [
                {
                    "code": d.code,
                    "severity": d.severity.value,
                    "message": d.message,
                    "file": d.span.file,
                    "line": d.span.line,
                    "column": d.span.column,
                    "hint": d.hint,
                }
                for d in self.diagnostics
            ],
        }


# ---------------------------------------------------------------------------- loading
def find_scenarios(ruleset_dir: Path) -> list[Path]:
    """The scenario files of a ruleset folder: ``scenarios/*.yaml``, sorted by name."""
    return sorted((ruleset_dir / "scenarios").glob("*.yaml"))


def load_scenario(
    source: Path | str, file_name: str | None = None
) -> tuple[Scenario | None, list[Diagnostic]]:
    """Load and check a scenario from a path or text.  Returns ``(None, problems)`` when it
    does not load; every problem is located in the YAML.

    >>> _, problems = load_scenario("name: x\\ncites: y\\nscript:\\n  - chose: a1\\n", "s.yaml")
    >>> print(problems[0])
    s.yaml:4:5: error RC010: unknown key `chose` in `script[0]` (hint: did you mean `choose`?)
    """
    name = file_name if file_name is not None else str(source)
    data, positions, problems = load_yaml(source, name)
    if data is None or problems:
        return None, problems
    problems = check_schema(data, SCENARIO_SCHEMA, positions, name)
    if problems or not isinstance(data, dict):
        return None, problems
    script, script_problems = _steps(data.get("script"), "script", SCRIPT_STEPS, positions)
    after, after_problems = _steps(data.get("after"), "after", CHECK_STEPS, positions)
    problems = script_problems + after_problems
    for step in script[:-1]:
        if step.kind == "stop":
            problems.append(
                Diagnostic(
                    STOP_NOT_LAST,
                    "`stop` ends the script, so it must be its last line",
                    step.span,
                    hint="move the lines after it to `after:`, or drop the stop",
                )
            )
    start = data.get("start") or {}
    assert isinstance(start, dict)  # the schema says so
    if "save" in start and len(start) > 1:
        extra = ", ".join(f"`{k}`" for k in start if k != "save")
        problems.append(
            Diagnostic(
                BAD_START,
                f"a start from a save takes its players, seed and language from the save: "
                f"drop {extra}",
                positions.key_span(("start",)),
            )
        )
    if problems:
        return None, sorted(problems, key=Diagnostic.sort_key)
    base = Path(name).parent if isinstance(source, Path) or file_name else Path(".")
    save = start.get("save")
    lang = start.get("lang")
    players = start.get("players")
    seed = start.get("seed")
    scenario = Scenario(
        file=name,
        name=str(data["name"]),
        cites=str(data["cites"]),
        start=Start(
            players=players if isinstance(players, int) else None,
            seed=seed if isinstance(seed, int) else 0,
            lang=lang if isinstance(lang, str) else None,
            save=base / save if isinstance(save, str) else None,
            # a save that cannot load is blamed on its path; any other refusal on `start`
            span=positions.value_span(("start", "save"))
            if "save" in start
            else positions.key_span(("start",))
            if "start" in data
            else Span(name),
        ),
        script=tuple(script),
        after=tuple(after),
        span=Span(name),
        setup=Step("setup", data["setup"], positions.key_span(("setup",)), "setup", 1)
        if "setup" in data
        else None,
    )
    return scenario, []


def _steps(
    items: JsonValue, section: str, kinds: Sequence[str], positions: PositionMap
) -> tuple[list[Step], list[Diagnostic]]:
    steps: list[Step] = []
    problems: list[Diagnostic] = []
    if not isinstance(items, list):
        return steps, problems
    for index, item in enumerate(items):
        assert isinstance(item, dict)  # the schema says so
        span = positions.key_span((section, index))
        found = [k for k in item if k in kinds]
        if len(found) != 1:
            what = "nothing to do" if not found else ", ".join(f"`{k}`" for k in found)
            problems.append(
                Diagnostic(
                    BAD_STEP,
                    f"each line of `{section}` does exactly one thing; this one has {what}",
                    span,
                    hint="one of " + ", ".join(f"`{k}`" for k in kinds),
                )
            )
            continue
        kind = found[0]
        seat = item.get("as")
        if seat is not None and kind not in SEATED_STEPS:
            problems.append(
                Diagnostic(
                    BAD_STEP,
                    f"`as` chooses whose view an `expect`, `expect_log`, `expect_no_log` or "
                    f"`expect_view` reads; `{kind}` does not take it",
                    positions.key_span((section, index, "as")),
                )
            )
            continue
        if seat is None and kind in SEAT_REQUIRED:
            problems.append(
                Diagnostic(
                    BAD_STEP,
                    f"`{kind}` checks what one seat sees: say whose with `as: N`",
                    span,
                    hint=f"- {{{kind}: {{hides: [a_card#1]}}, as: 2}}",
                )
            )
            continue
        empty = _empty_check(kind, item[kind])
        if empty is not None:
            problems.append(
                Diagnostic(
                    EMPTY_CHECK,
                    f"`{kind}`: {empty} checks nothing, so the line would always pass",
                    positions.value_span((section, index, kind)),
                    hint="name what must (or must not) be there, or drop the line",
                )
            )
            continue
        steps.append(
            Step(
                kind=kind,
                value=item[kind],
                span=positions.value_span((section, index, kind)),
                section=section,
                number=index + 1,
                seat=seat - 1 if isinstance(seat, int) else None,
            )
        )
    return steps, problems


def _empty_check(kind: str, value: JsonValue) -> str | None:
    """What part of a check line checks nothing (an empty list, an empty substring).

    >>> _empty_check("expect_decision", {"options_include": []})
    'an empty `options_include`'
    >>> _empty_check("expect_decision", {"seat": 1}) is None
    True
    """
    if not isinstance(value, dict):
        return None
    lists = {
        "expect_decision": ("options_include", "options_exclude"),
        "expect_view": ("shows", "hides"),
    }.get(kind, ())
    for key in lists:
        if value.get(key) == []:
            return f"an empty `{key}`"
    if kind == "expect_result" and value.get("reason") == "":
        return "an empty `reason` (a substring of every reason)"
    return None


# ---------------------------------------------------------------------------- running
class _StepFailed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def start_game(ruleset: GameStarter, scenario: Scenario) -> ScenarioGame:
    """The game a scenario starts from (``ValueError`` when it cannot start)."""
    if scenario.start.save is not None:
        from rulecraft.runtime.game import Game, Ruleset

        if not isinstance(ruleset, Ruleset):
            raise ValueError("only a compiled ruleset can load a save")
        game: ScenarioGame = Game.load_file(ruleset, scenario.start.save)
        return game
    started: ScenarioGame = ruleset.new_game(
        players=scenario.start.players, seed=scenario.start.seed, lang=scenario.start.lang
    )
    return started


def run_scenario(ruleset: GameStarter, scenario: Scenario) -> Outcome:
    """Play ``scenario`` against ``ruleset``; never raises for a failing or broken game."""
    try:
        game = start_game(ruleset, scenario)
    except (ValueError, OSError) as err:
        where = scenario.start.span or scenario.span
        problem = Diagnostic(BAD_START, f"the game cannot start: {err}", where)
        return Outcome(
            scenario.file,
            scenario.name,
            Status.ERROR,
            message=problem.message,
            span=where,
            cites=scenario.cites,
            diagnostics=(problem,),
        )
    return play(game, scenario)


def play(game: ScenarioGame, scenario: Scenario) -> Outcome:
    """Run the script and the checks of ``scenario`` on ``game``."""
    run = 0
    if scenario.setup is not None:
        failed = _try(game, scenario, scenario.setup, run)
        if failed is not None:
            return failed
        run += 1
    for step in scenario.script:
        failed = _try(game, scenario, step, run)
        if failed is not None:
            return failed
        run += 1
    stopped = bool(scenario.script) and scenario.script[-1].kind == "stop"
    if not stopped:
        unanswered = _unanswered(game, scenario, run)
        if unanswered is not None:
            return unanswered
    for step in scenario.after:
        failed = _try(game, scenario, step, run)
        if failed is not None:
            return failed
        run += 1
    return Outcome(scenario.file, scenario.name, Status.PASSED, run, cites=scenario.cites)


def _try(game: ScenarioGame, scenario: Scenario, step: Step, run: int) -> Outcome | None:
    """Do one step: ``None`` when it went well, else the failed outcome."""
    try:
        _do(game, step)
    except _StepFailed as failed:
        return _failed(scenario, step, failed.message, run)
    except Exception as err:  # the engine or the rules broke: report it, never a traceback
        return _failed(scenario, step, f"the engine raised {type(err).__name__}: {err}", run)
    return None


def _unanswered(game: ScenarioGame, scenario: Scenario, run: int) -> Outcome | None:
    """A failure when the script ran out while the game still asks (unless it stopped)."""
    decision = game.decision
    if decision is None or game.result is not None:
        return None
    message = (
        f"the script ran out while the game still asks {_seat_name(decision.seat)}: "
        f"{decision.prompt!r}; legal: {_options_text(decision.options)} "
        f'(answer it, or end the script with `- stop: "why"`)'
    )
    last = scenario.script[-1].span if scenario.script else scenario.span
    return Outcome(
        scenario.file,
        scenario.name,
        Status.FAILED,
        run,
        message=message,
        span=last,
        step="end of script",
        cites=scenario.cites,
    )


def _failed(scenario: Scenario, step: Step, message: str, run: int) -> Outcome:
    return Outcome(
        scenario.file,
        scenario.name,
        Status.FAILED,
        run,
        message=message,
        span=step.span,
        step=step.describe(),
        cites=scenario.cites,
    )


def _do(game: ScenarioGame, step: Step) -> None:
    if step.kind == "choose":
        _choose(game, str(step.value))
    elif step.kind == "setup":
        assert isinstance(step.value, dict)
        _setup(game, step.value)
    elif step.kind == "expect":
        assert isinstance(step.value, str)
        _expect(game, step.value, _check_seat(game, step.seat))
    elif step.kind == "expect_decision":
        assert isinstance(step.value, dict)
        _expect_decision(game, step.value)
    elif step.kind == "expect_log":
        assert isinstance(step.value, str)
        _expect_log(game, step.value, _check_seat(game, step.seat))
    elif step.kind == "expect_no_log":
        assert isinstance(step.value, str)
        _expect_no_log(game, step.value, _check_seat(game, step.seat))
    elif step.kind == "expect_view":
        assert isinstance(step.value, dict) and step.seat is not None
        _expect_view(game, step.value, _check_seat(game, step.seat))
    elif step.kind == "expect_result":
        assert isinstance(step.value, dict)
        _expect_result(game, step.value)
    elif step.kind == "stop":
        if game.result is not None:
            raise _StepFailed(
                f"`stop` waits for a game in progress, but the game is over "
                f"({_result_text(game.result)}): drop the stop"
            )
    else:  # pragma: no cover - the schema allows no other key
        raise _StepFailed(f"unknown step {step.kind!r}")


def _check_seat(game: ScenarioGame, seat: int | None) -> int | None:
    if seat is not None and not 0 <= seat < game.num_players:
        raise _StepFailed(f"`as: {seat + 1}`: this game has seats 1 to {game.num_players}")
    return seat


def _pending(game: ScenarioGame, doing: str) -> Decision:
    decision = game.decision
    if game.result is not None:
        raise _StepFailed(
            f"the game is already over ({_result_text(game.result)}), so this line is "
            f"never used: {doing}"
        )
    if decision is None:
        raise _StepFailed(f"no decision is pending: {doing}")
    return decision


def _resolve(decision: Decision, ref: str) -> Option | None:
    """The option named by id (a unique card's also without its copy number, as
    ``Game.choose`` takes it), else by exact label (``_StepFailed`` when ambiguous)."""
    for opt in decision.options:
        if opt.id == ref:
            return opt
    unique = [o for o in decision.options if without_copy_number(o.id) == ref]
    if len(unique) == 1:
        return unique[0]
    labelled = [o for o in decision.options if o.label == ref]
    if len(labelled) > 1:
        ids = ", ".join(o.id for o in labelled)
        raise _StepFailed(f"{ref!r} is the label of several options ({ids}): choose by id")
    return labelled[0] if labelled else None


def _choose(game: ScenarioGame, ref: str) -> None:
    decision = _pending(game, f"choose {ref!r}")
    opt = _resolve(decision, ref)
    if opt is None:
        raise _StepFailed(
            f"{ref!r} is not a legal option for {_seat_name(decision.seat)} "
            f"({decision.prompt!r}); legal: {_options_text(decision.options)}"
        )
    game.choose(opt.id)


def _evaluate(game: ScenarioGame, text: str, seat: int | None) -> Any:
    try:
        return game.evaluate_expr(text, seat)
    except ValueError as err:
        detail = re.sub(r"<expression>:1:(\d+): error ", r"at column \1: ", str(err))
        raise _StepFailed(f"cannot evaluate `{text}`: {detail}") from None


_COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")


def _sides(text: str) -> tuple[str, str, str] | None:
    """``(left, op, right)`` when ``text`` is one comparison at its top level.

    >>> _sides("count(spaces where empty(it)) == 7")
    ('count(spaces where empty(it))', '==', '7')
    >>> _sides("a == 1 and b == 2") is None
    True
    """
    from rulecraft.language import ast
    from rulecraft.language.parser import parse_expression

    tree, problems = parse_expression(text, "<expression>")
    if tree is None or problems or not isinstance(tree, ast.Binary):
        return None
    if tree.op not in _COMPARISONS or tree.right.span.line != 1:
        return None
    cut = tree.right.span.column - 1
    left = text[:cut].rstrip()
    if not left.endswith(tree.op):
        return None
    left = left[: -len(tree.op)].strip()
    right = text[cut:].strip()
    for side in (left, right):
        parsed, side_problems = parse_expression(side, "<expression>")
        if parsed is None or side_problems:
            return None
    return left, tree.op, right


def _expect(game: ScenarioGame, text: str, seat: int | None) -> None:
    seat = seat if seat is not None else (game.decision.seat if game.decision else None)
    value = _evaluate(game, text, seat)
    if value is True:
        return
    if not isinstance(value, bool):
        raise _StepFailed(f"`{text}` gave {_show(value)}, not true or false")
    detail = ""
    sides = _sides(text)
    if sides is not None:
        left, _, right = sides
        left_value = _show(_evaluate(game, left, seat))
        right_value = _show(_evaluate(game, right, seat))
        detail = f": `{left}` is {left_value}, `{right}` is {right_value}"
    view = f" (as {_seat_name(seat)})" if seat is not None else ""
    raise _StepFailed(f"expected `{text}` to be true, but it is false{detail}{view}")


def _expect_decision(game: ScenarioGame, wanted: Mapping[str, JsonValue]) -> None:
    decision = _pending(game, "expect_decision")
    seat = wanted.get("seat")
    if isinstance(seat, int) and decision.seat != seat - 1:
        raise _StepFailed(
            f"expected {_seat_name(seat - 1)} to decide, but {_seat_name(decision.seat)} "
            f"decides ({decision.prompt!r})"
        )
    prompt = wanted.get("prompt")
    if isinstance(prompt, str) and decision.prompt != prompt:
        raise _StepFailed(f"expected the prompt {prompt!r}, but it is {decision.prompt!r}")
    include = wanted.get("options_include") or []
    assert isinstance(include, list)
    missing = [str(r) for r in include if _resolve(decision, str(r)) is None]
    if missing:
        raise _StepFailed(
            f"expected the options to include {', '.join(missing)}; "
            f"legal: {_options_text(decision.options)}"
        )
    exclude = wanted.get("options_exclude") or []
    assert isinstance(exclude, list)
    present = [str(r) for r in exclude if _resolve(decision, str(r)) is not None]
    if present:
        raise _StepFailed(f"expected no option {', '.join(present)}, but it is offered")


def _expect_log(game: ScenarioGame, text: str, seat: int | None) -> None:
    lines = game.log if seat is None else game.log_for(seat)
    if any(text in line for line in lines):
        return
    recent = " | ".join(lines[-5:]) or "(empty)"
    whose = f"{_seat_name(seat)}'s log" if seat is not None else "the log"
    raise _StepFailed(f"{text!r} is not in {whose}; its last lines: {recent}")


def _expect_no_log(game: ScenarioGame, text: str, seat: int | None) -> None:
    lines = game.log if seat is None else game.log_for(seat)
    found = next((line for line in lines if text in line), None)
    if found is not None:
        whose = f"{_seat_name(seat)}'s log" if seat is not None else "the log"
        raise _StepFailed(f"{text!r} is in {whose}: {found!r}")


def _expect_view(game: ScenarioGame, wanted: Mapping[str, JsonValue], seat: int | None) -> None:
    """``shows``: names found in the seat's view; ``hides``: names found nowhere the seat
    reads (its view, its log, the prompt and labels of a decision it is asked)."""
    assert seat is not None
    view = json.dumps(game.view(seat), ensure_ascii=False)
    shows = wanted.get("shows") or []
    assert isinstance(shows, list)
    missing = [str(n) for n in shows if not _names_in(str(n), view)]
    if missing:
        raise _StepFailed(f"{_seat_name(seat)}'s view does not show {', '.join(missing)}")
    hides = wanted.get("hides") or []
    assert isinstance(hides, list)
    decision = game.decision if game.result is None else None
    asked = decision is not None and decision.seat == seat
    places = [("view", view), ("log", "\n".join(game.log_for(seat)))]
    if asked and decision is not None:
        labels = [decision.prompt, *(o.label for o in decision.options)]
        places.append(("decision", "\n".join(labels)))
    for name in (str(n) for n in hides):
        for where, text in places:
            found = _find_name(name, text)
            if found is not None:
                start, end = max(0, found.start() - 50), found.end() + 50
                shown = (
                    ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
                )
                raise _StepFailed(f"{_seat_name(seat)} can read {name!r} in its {where}: {shown}")


def _find_name(name: str, text: str) -> re.Match[str] | None:
    """Where ``name`` appears in ``text`` as a whole id or name (``ace#1`` is not in
    ``space_ace#1``)."""
    if name not in text:
        return None
    return re.search(rf"(?<![\w#]){re.escape(name)}(?![\w#])", text)


def _names_in(name: str, text: str) -> bool:
    """Does ``name`` appear in ``text`` as a whole id or name?

    >>> _names_in("ace#1", '["space_ace#1"]'), _names_in("ace#1", '["ace#1"]')
    (False, True)
    """
    return _find_name(name, text) is not None


def _setup(game: ScenarioGame, value: Mapping[str, JsonValue]) -> None:
    """Arrange the position a `setup:` block describes (seats counted from 1)."""
    from rulecraft.runtime.arrange import Arrangement

    try:
        game.arrange(Arrangement.read(value, first_seat=1))
    except ValueError as err:
        raise _StepFailed(str(err)) from None


def _expect_result(game: ScenarioGame, wanted: Mapping[str, JsonValue]) -> None:
    result = game.result
    if result is None:
        decision = game.decision
        asking = f": {_seat_name(decision.seat)} is asked {decision.prompt!r}" if decision else ""
        raise _StepFailed(f"expected the game to be over, but it goes on{asking}")
    winners = wanted.get("winners")
    if isinstance(winners, list):
        expected = sorted(int(w) - 1 for w in winners if isinstance(w, int))
        if sorted(result.winners) != expected:
            names = ", ".join(_seat_name(s) for s in expected) or "nobody"
            raise _StepFailed(f"expected winners {names}, but: {_result_text(result)}")
    draw = wanted.get("draw")
    if isinstance(draw, bool) and result.draw != draw:
        raise _StepFailed(
            f"expected {'a draw' if draw else 'no draw'}, but: {_result_text(result)}"
        )
    reason = wanted.get("reason")
    if isinstance(reason, str) and reason not in result.reason:
        raise _StepFailed(f"expected the reason to contain {reason!r}, but it is {result.reason!r}")


# ---------------------------------------------------------------------------- showing
def _seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def _result_text(result: Result) -> str:
    if result.draw:
        who = "a draw"
    elif result.winners:
        who = "won by " + ", ".join(_seat_name(s) for s in result.winners)
    else:
        who = "nobody won"
    return f"{who}; {result.reason}" if result.reason else who


def _options_text(options: Sequence[Option]) -> str:
    if not options:
        return "(none)"
    shown = [f"{o.id} ({o.label})" if o.label != o.id else o.id for o in options]
    more = len(shown) - MAX_OPTIONS_SHOWN
    text = ", ".join(shown[:MAX_OPTIONS_SHOWN])
    return f"{text}, ... and {more} more" if more > 0 else text


def _show(value: Any) -> str:
    """A value of the language as a designer reads it (players by seat, texts plainly).

    >>> _show(["@0", 3, True, {"": "hi"}])
    '[Player 1, 3, true, "hi"]'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        seat = parse_player(value)
        return _seat_name(seat) if seat is not None else value
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict) and set(value) == {""}:
        return json.dumps(value[""], ensure_ascii=False)
    if value is None:
        return "none"
    return str(value)
