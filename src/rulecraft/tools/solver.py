"""An exhaustive solver for one seat's deterministic stretch of play, over the public API.

A *stretch* starts at the pending decision of one seat and lasts while that seat keeps
deciding and nothing is left to chance.  It ends when

- the game ends,
- the plan that was being made at the start is executed (see "Planning" in
  ``docs/manifest.md``: the solver searches inside a plan and never takes ``plan:reset``,
  since its own search already tries every line from the plan's start),
- another seat has to decide,
- no option is left but resetting the plan (a dead end), or
- a bound (``max_nodes``, ``max_depth``) is hit: the answer is then marked incomplete.

The search is a depth-first walk of every line of play with a transposition table keyed by a
digest of the state (:func:`_position_key`): the best continuation of a position does not
depend on how it was reached, so a position met again (the same cards played in another
order) is not searched twice. Each stretch end is scored by a *goal* (an expression that
must hold; by default "the stretch ended without losing and without a dead end") and then an
*objective*, a lexicographic tuple of expressions (health, then XP, then treasures ...; by
default the manifest's ``evaluation``); among equal scores the shorter line wins.

Chance inside a stretch (a shuffle, a die, a random policy: anything that draws from the
game's random stream before the stretch's last decision) makes an exhaustive answer
meaningless, so the solver refuses it with :class:`StretchRefused`, naming the line of play
that met it.  Chance in the step that ends the stretch (the clean-up after a plan is
executed shuffling a deck) is not part of the search and is allowed.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(players=2, seed=1)
>>> solve(game).end  # the next decision is the other seat's: a stretch of one decision
'Player 2 decides'
"""

from __future__ import annotations

import hashlib
import marshal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulecraft.runtime import engine as E
from rulecraft.runtime import ids
from rulecraft.runtime.game import Game
from rulecraft.runtime.program import ExprFn

__all__ = [
    "RESET_ID",
    "SolveResult",
    "Stretch",
    "StretchRefused",
    "repl_solve",
    "solve",
    "solve_as_seat",
]

#: The option id that resets a plan to its start (the engine's planning feature).
RESET_ID = ids.PLAN_RESET

#: A score: goal met (1/0), then each objective value, then minus the line's length.
Score = tuple[float, ...]


class StretchRefused(ValueError):
    """The position is not a stretch the solver can search exhaustively (why, and where)."""


@dataclass(frozen=True, slots=True)
class Stretch:
    """How a stretch is bounded and judged.

    ``goal`` is an expression of the language that must hold at the stretch's end (``None``:
    the stretch ended without a loss, a dead end or a bound); ``objective`` the expressions
    compared in order at the end (empty: the manifest's ``evaluation``); ``max_nodes`` the
    most positions expanded; ``max_depth`` the most decisions in a line; ``first_goal``
    stops at the first line that meets the goal (a proof that the goal is reachable, much
    faster than the best line; the line's score and the line counts are then partial)."""

    goal: str | None = None
    objective: tuple[str, ...] = ()
    max_nodes: int = 200_000
    max_depth: int = 200
    first_goal: bool = False


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What the search found from one position."""

    seat: int
    #: Does some line of play reach the end of the stretch with the goal met?
    reachable: bool
    #: The best line: option ids, and their labels as the seat read them.
    line: tuple[str, ...]
    labels: tuple[str, ...]
    #: The best line's objective values, in order, and how its stretch ended.
    objective: tuple[float, ...]
    end: str
    #: Positions expanded, positions met again (transposition hits), seconds, nodes/s.
    nodes: int
    transpositions: int
    seconds: float
    nodes_per_second: float
    #: False when a bound cut the search: the answer is then the best found, not proven.
    complete: bool
    #: Distinct lines of play from the position to a stretch end, and how many meet the goal.
    lines: int
    goal_lines: int
    objective_names: tuple[str, ...] = field(default=())

    def summary(self) -> str:
        """A few readable lines: the verdict, the best plan, the numbers."""
        verdict = "reachable" if self.reachable else "not reachable"
        if not self.complete and self.reachable:
            verdict += " (the line below proves it; the search stopped before trying every line)"
        elif not self.complete:
            verdict += " (search cut by a bound: not proven)"
        out = [f"Goal {verdict} for Player {self.seat + 1}."]
        if self.line:
            out.append(f"Best line ({len(self.line)} decisions, ends: {self.end}):")
            out.extend(f"  {i + 1}. {label}" for i, label in enumerate(self.labels))
        else:
            out.append(f"Best line: no decision (ends: {self.end}).")
        if self.objective:
            names = self.objective_names or tuple(f"#{i + 1}" for i in range(len(self.objective)))
            shown = ", ".join(
                f"{n} = {_num(v)}" for n, v in zip(names, self.objective, strict=False)
            )
            out.append(f"Objective: {shown}")
        share = f"{self.goal_lines} of {self.lines} lines meet the goal"
        if self.lines:
            share += f" ({self.goal_lines / self.lines:.1%})"
        out.append(share)
        out.append(
            f"{self.nodes} positions, {self.transpositions} transpositions, "
            f"{self.seconds:.3f} s, {self.nodes_per_second:,.0f} positions/s"
        )
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "reachable": self.reachable,
            "complete": self.complete,
            "line": list(self.line),
            "labels": list(self.labels),
            "objective": list(self.objective),
            "objective_names": list(self.objective_names),
            "end": self.end,
            "nodes": self.nodes,
            "transpositions": self.transpositions,
            "seconds": self.seconds,
            "nodes_per_second": self.nodes_per_second,
            "lines": self.lines,
            "goal_lines": self.goal_lines,
        }


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(slots=True)
class _Best:
    """The best continuation from one position, and how many lines leave it."""

    score: Score
    line: tuple[str, ...]
    end: str
    lines: int
    goal_lines: int


@dataclass(slots=True)
class _Search:
    """One search: the root's seat, the judge, the table and the counters."""

    seat: int
    judge: Callable[[Game, str, bool], Score]
    stretch: Stretch
    table: dict[bytes, _Best] = field(default_factory=dict)
    on_path: set[bytes] = field(default_factory=set)
    nodes: int = 0
    transpositions: int = 0
    cut: bool = False
    stopped: bool = False  # a line met the goal and the search asked for the first one


def solve(game: Game, seat: int | None = None, stretch: Stretch | None = None) -> SolveResult:
    """Search every line of play of the pending seat's stretch from ``game`` (left unchanged).

    Raises :class:`StretchRefused` when nobody (or another seat than ``seat``) has to decide,
    when the pending decision is a roll, or when chance happens inside the stretch; raises
    ``ValueError`` when an expression of the goal or the objective does not compile or does
    not give a number."""
    limits = stretch or Stretch()
    pending = game.pending_ids()
    if pending is None:
        raise StretchRefused("nobody has to decide: the game is over or waits for nothing")
    if seat is not None and pending[0] != seat:
        raise StretchRefused(
            f"Player {pending[0] + 1} decides here, not Player {seat + 1}: "
            "a stretch is one seat's decisions"
        )
    _refuse_roll(game, ())
    search = _Search(pending[0], _judge(game, pending[0], limits), limits)
    started = time.perf_counter()
    best = _expand(search, game.clone(), (), 0)
    seconds = time.perf_counter() - started
    labels = _labels(game, best.line)
    names = limits.objective or ("evaluation",)
    return SolveResult(
        seat=search.seat,
        reachable=best.score[0] > 0,
        line=best.line,
        labels=labels,
        objective=tuple(best.score[1:-1]),
        end=best.end,
        nodes=search.nodes,
        transpositions=search.transpositions,
        seconds=seconds,
        nodes_per_second=search.nodes / seconds if seconds > 0 else 0.0,
        complete=not search.cut and not search.stopped,
        lines=best.lines,
        goal_lines=best.goal_lines,
        objective_names=tuple(names),
    )


def _plan_of(game: Game) -> Any:
    """The identity of the plan being made (its turn and phase), or ``None``."""
    plan = game.state.get("plan")
    if not plan:
        return None
    return (plan.get("turn"), plan.get("phase"))


def _refuse_roll(game: Game, line: Sequence[str]) -> None:
    if game.state["pending"] is not None and game.state["pending"].get("kind") == "roll":
        raise StretchRefused(f"a roll is pending after {_shown(line)}: chance cannot be solved")


def _shown(line: Sequence[str]) -> str:
    return "the start" if not line else "the line " + " > ".join(line)


def _compile(game: Game, text: str) -> ExprFn:
    """An expression compiled once for the whole search (``ValueError`` when it does not
    compile: :meth:`Game.evaluate_expr` gives the diagnostics)."""
    from rulecraft.compile.names import expression_compiler
    from rulecraft.language.parser import parse_expression

    game.evaluate_expr(text, game.state["active"])  # fail early, with the diagnostics
    tree, _ = parse_expression(text, "<expression>")
    assert tree is not None
    fn, _ = expression_compiler(game.program, tree)
    assert fn is not None
    return fn


def _judge(root: Game, seat: int, limits: Stretch) -> Callable[[Game, str, bool], Score]:
    """Scores a stretch end: goal met (1/0), the objective values (the line's length is
    added by the search).  Expressions are compiled once and run on each end's state."""
    goal = _compile(root, limits.goal) if limits.goal is not None else None
    objective = [(text, _compile(root, text)) for text in limits.objective]
    # Components are never created while a game runs: one index serves every position.
    by_def = E.instances_by_def(root.state)
    you = E.player(seat)

    def value(game: Game, fn: ExprFn) -> Any:
        ctx = E.Ctx(game.program, game.state, str(game.state.get("lang", "")), None, by_def)
        ctx.loc = {"you": you, "this": None}
        return fn(ctx)

    def judge(game: Game, end: str, ended_well: bool) -> Score:
        met = ended_well and (goal is None or bool(value(game, goal)))
        values: list[float] = []
        for text, fn in objective:
            values.extend(_numbers(value(game, fn), text))
        if not objective:
            values.append(game.evaluate(seat))
        return (1.0 if met else 0.0, *values)

    return judge


def _numbers(value: Any, text: str) -> list[float]:
    """An objective's value as numbers: a number, yes/no, nothing (0), or a list of them."""
    if value is None:
        return [0.0]
    if isinstance(value, bool | int | float):
        return [float(value)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v, text)]
    raise ValueError(f"the objective {text!r} gives {value!r}, not a number")


def _leaf(search: _Search, game: Game, end: str, ended_well: bool) -> _Best:
    score = search.judge(game, end, ended_well)
    met = 1 if score[0] > 0 else 0
    return _Best((*score, 0.0), (), end, 1, met)


def _stretch_end(search: _Search, game: Game, plan_before: Any) -> tuple[str, bool] | None:
    """Why the stretch ends at this position (and whether it ended well), or ``None``.
    ``plan_before`` is the plan being made before the last decision: a plan entered during
    the stretch ends it when it is executed, as one in progress at its start does."""
    result = game.result
    if result is not None:
        lost = result.draw or search.seat not in result.winners
        return f"game over: {result.reason or 'the game is over'}", not lost
    if plan_before is not None and _plan_of(game) != plan_before:
        return "plan executed", True
    pending = game.pending_ids()
    if pending is None:
        return "nobody decides", True
    if pending[0] != search.seat:
        return f"Player {pending[0] + 1} decides", True
    if not [i for i in pending[1] if i != RESET_ID]:
        return "dead end: only a reset is left", False
    return None


def _expand(search: _Search, game: Game, line: tuple[str, ...], depth: int) -> _Best:
    """The best continuation from ``game`` (a position inside the stretch)."""
    search.nodes += 1
    pending = game.pending_ids()
    assert pending is not None
    best: _Best | None = None
    lines = goal_lines = 0
    for option in pending[1]:
        if option == RESET_ID:
            continue
        child = _child(search, game, line, option, depth)
        if child is None:
            continue
        lines += child.lines
        goal_lines += child.goal_lines
        candidate = _Best(
            (*child.score[:-1], child.score[-1] - 1.0),
            (option, *child.line),
            child.end,
            child.lines,
            child.goal_lines,
        )
        if best is None or candidate.score > best.score:
            best = candidate
        if search.stretch.first_goal and candidate.score[0] > 0:
            search.stopped = True
        if search.stopped:
            break
    if best is None:  # every option led back onto the current path
        return _Best((0.0, -1e18), (), "cycle", 0, 0)
    best.lines, best.goal_lines = lines, goal_lines
    return best


def _child(
    search: _Search, game: Game, line: tuple[str, ...], option: str, depth: int
) -> _Best | None:
    """The best continuation after taking ``option`` (``None`` when it closes a cycle)."""
    after = game.clone()
    rng_before = list(game.state["rng"])
    after.choose(option)
    here = (*line, option)
    end = _stretch_end(search, after, _plan_of(game))
    if end is not None:
        return _leaf(search, after, *end)
    if list(after.state["rng"]) != rng_before:
        raise StretchRefused(
            f"chance decides inside the stretch ({_shown(here)} draws from the random "
            "stream): an exhaustive search needs a deterministic stretch"
        )
    _refuse_roll(after, here)
    key = _position_key(after)
    known = search.table.get(key)
    if known is not None:
        search.transpositions += 1
        return known
    if key in search.on_path:
        return None
    if depth + 1 >= search.stretch.max_depth or search.nodes >= search.stretch.max_nodes:
        search.cut = True
        return _leaf(search, after, "bound hit", False)
    search.on_path.add(key)
    try:
        found = _expand(search, after, here, depth + 1)
    finally:
        search.on_path.discard(key)
    if not search.cut and not search.stopped:
        # A value found under a cut search may miss lines: keep only proven ones.
        search.table[key] = found
    return found


def _position_key(game: Game) -> bytes:
    """A digest of the position, for the transposition table.

    Equal states give equal keys (every state is plain data, and ``marshal`` writes equal
    data built the same way identically), so a hit is always a true transposition; two equal
    states built in another order may get two keys, which costs a repeated search, never a
    wrong answer.  It is :meth:`Game.state_hash` without its canonical (sorted) JSON, and
    without the plan's snapshot, which every position of one plan shares: together about 10
    times cheaper, measured on a bundled grid puzzle, where hashing took a quarter of the search."""
    st = game.state
    data = marshal.dumps([value for key, value in sorted(st.items()) if key != "plan"])
    return hashlib.blake2b(data, digest_size=16).digest()


def _labels(game: Game, line: Sequence[str]) -> tuple[str, ...]:
    """The labels of a line's options, as the deciding seat read them."""
    replay = game.clone()
    out: list[str] = []
    for option in line:
        decision = replay.decision
        out.append(decision.option(option).label if decision is not None else option)
        replay.choose(option)
    return tuple(out)


def solve_as_seat(
    game: Game, seat: int, stretch: Stretch | None = None, seed: int = 0
) -> SolveResult:
    """:func:`solve` as ``seat`` may ask it: the search runs on a copy where everything the
    seat cannot see is re-dealt among the places it could be (:meth:`Game.determinize`), so
    neither the answer nor its labels depend on a hidden card."""
    return solve(game.determinize(seat, seed), seat, stretch)


def repl_solve(game: Game, seat: int, text: str, max_nodes: int = 200_000) -> str:
    """The REPL's ``solve [EXPR; EXPR ...]``: the best plan from the current position for
    ``seat``, under the objectives given (separated by ``;``; default: the evaluation), as
    text to show; a refusal or a bad expression comes back as a one-line message."""
    objective = tuple(part.strip() for part in text.split(";") if part.strip())
    try:
        result = solve_as_seat(game, seat, Stretch(objective=objective, max_nodes=max_nodes))
    except StretchRefused as err:
        return f"Cannot solve from here: {err}"
    except ValueError as err:
        return f"Cannot solve: {err}"
    return result.summary()
