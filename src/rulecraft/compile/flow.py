"""The flow of a game: the manifest's ``flow:`` (phases, or stages of phases), its turn
order, the start player and the round's start and end blocks, compiled into the ``main``
routine; and the ``end:`` conditions.

A round is either one turn per player through the phases (a flow without ``stages:`` is
one plain stage, compiled as the classic round of turns) or a sequence of stages, each
with its own phases, start block, repeat condition, leader and after-each block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.compile.declarations import _text
from rulecraft.compile.scope import Scope, _Code
from rulecraft.diagnostics import Span
from rulecraft.language import ast
from rulecraft.runtime.instructions import (
    _announce_start,
    _call_routine,
    _choose_start,
    _circuit_end,
    _circuit_start,
    _menu,
    _phase_start,
    _round_end,
    _round_start,
    _stage_start,
    _turn_end,
    _turn_start,
)
from rulecraft.runtime.program import (
    AbilitySpec,
    ActionSpec,
    EndSpec,
    ExprFn,
    PhaseSpec,
    PlanSpec,
)

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

TURN_ORDERS = ("clockwise", "counterclockwise")
"""The turn orders a manifest may name: ``clockwise`` (seat 1, 2, 3, ...) and
``counterclockwise`` (seat 1, then the last seat, ...), each starting from the start player."""


@dataclass
class _Stage:
    """A stage of the round as declared: where it is, its phases (each with its manifest
    path), and its compiled start block, repeat condition, leader and after-each block.
    A flow without ``stages:`` is one plain stage (``staged`` false), compiled exactly as
    the classic round of turns."""

    name: str
    path: tuple[Any, ...]
    phases: tuple[tuple[tuple[Any, ...], dict[str, Any]], ...]
    do: int | None = None
    repeat: ExprFn | None = None
    leader: ExprFn | None = None
    after: int | None = None
    staged: bool = False


def counted_scopes(
    actions: dict[str, ActionSpec], abilities: dict[str, list[AbilitySpec]]
) -> frozenset[str]:
    """The scopes (``"turn"``, ``"round"``, ``"phase"``) whose uses some rule counts, but a
    phase's count of actions: an action or ability limited ``once per`` it, and for a turn
    or a phase any ability (each ability's uses are counted per turn, and that one was
    used per phase); :func:`compile_flow` adds ``"phase"`` for a phase of distinct actions
    (each action's use is noted per phase).  A scope's start forgets the uses counted in
    it only when it is one of them: what the compiler knows, not asked at each turn.

    >>> counted_scopes({}, {})
    frozenset()
    """
    listed = [ab for group in abilities.values() for ab in group]
    limits = {act.limit for act in actions.values()} | {ab.limit for ab in listed}
    out = {scope for scope in ("turn", "round", "phase") if scope in limits}
    if listed:
        out |= {"turn", "phase"}
    return frozenset(out)


# ---------------------------------------------------------------------------- phases
def plan_spec(c: Compiler, plan: Any, path: tuple[Any, ...], scope: Scope) -> PlanSpec | None:
    """A phase's ``plan:`` (``true`` or its options), or ``None`` for a plain phase."""
    if not plan:
        return None
    options = plan if isinstance(plan, dict) else {}
    execute_if = c._manifest_expr(options.get("execute_if"), (*path, "plan", "execute_if"), scope)
    return PlanSpec(
        execute_if=execute_if,
        execute_label=_text(options.get("execute_label"), "Execute the plan"),
        reset_label=_text(options.get("reset_label"), "Reset the plan"),
        max_resets=options.get("max_resets"),
    )


def manifest_text(
    c: Compiler, value: Any, path: tuple[Any, ...], scope: Scope, default: str
) -> dict[str, str] | ExprFn:
    """A manifest text (a string or {lang: text}); a function when it interpolates
    ``{...}`` (a phase's label: "Your action, {you}: {you.gold} gold")."""
    text = _text(value, default)
    if not any("{" in t for t in text.values()):
        return text
    translations = tuple((k, v) for k, v in text.items() if k)
    parsed = ast.Text(text[""], translations)
    return c.text_value(parsed, scope, c.mspan(*path))  # type: ignore[no-any-return]


def phase_spec(c: Compiler, ph: dict[str, Any], path: tuple[Any, ...], scope: Scope) -> PhaseSpec:
    """One phase of a turn: its start statements, its menu and how the menu behaves."""
    body = c._manifest_block(ph.get("do"), (*path, "do"), f"phase.{ph.get('name')}", scope)
    acts = tuple(ph.get("actions") or ())
    for a in acts:
        if a != "abilities" and a not in c.actions_ast:
            c._unknown(a, c.mspan(*path, "actions"), [*c.actions_ast, "abilities"], "action")
        c.used_names.add(a)
    return PhaseSpec(
        name=str(ph.get("name", f"phase{path[-1]}")),
        label=manifest_text(c, ph.get("label"), (*path, "label"), scope, str(ph.get("name"))),
        body=body,
        actions=acts,
        max_actions=ph.get("max"),
        distinct=bool(ph.get("distinct", False)),
        mandatory=bool(ph.get("mandatory", False)),
        pass_label=_text(ph.get("pass_label"), "End turn"),
        plan=plan_spec(c, ph.get("plan"), path, scope),
        ask_to_pass=bool(ph.get("ask_to_pass", True)),
    )


# ---------------------------------------------------------------------------- stages
def stage_sources(c: Compiler, flow: dict[str, Any], scope: Scope) -> list[_Stage]:
    """The stages of a round: the declared ``stages:``, or the plain ``phases:`` as the
    one stage of a classic round (every player takes one turn)."""
    if "stages" not in flow:
        phases = tuple((("flow", "phases", i), ph) for i, ph in enumerate(flow.get("phases") or ()))
        return [_Stage("round", ("flow",), phases)]
    if "phases" in flow:
        c.error(
            "RC256",
            "flow has both phases and stages",
            c.mspan("flow", "phases"),
            "a round is either one turn per player (phases) or stages; move the phases "
            "into a stage",
        )
    seen: dict[str, str] = {}
    return [
        _declared_stage(c, k, raw, seen, scope) for k, raw in enumerate(flow.get("stages") or ())
    ]


def _declared_stage(
    c: Compiler, k: int, raw: dict[str, Any], seen: dict[str, str], scope: Scope
) -> _Stage:
    """Stage ``k`` of ``stages:``; RC256 for a phase name another stage has (``seen``)."""
    path = ("flow", "stages", k)
    name = str(raw.get("name", f"stage{k}"))
    for j, ph in enumerate(raw.get("phases") or ()):
        phase_name = str(ph.get("name"))
        if phase_name in seen:
            c.error(
                "RC256",
                f"phase {phase_name!r} is also a phase of stage {seen[phase_name]!r}",
                c.mspan(*path, "phases", j, "name"),
                "every phase needs its own name (triggers and scenarios name phases)",
            )
        seen[phase_name] = name
    return _Stage(
        name,
        path,
        tuple(((*path, "phases", j), ph) for j, ph in enumerate(raw.get("phases") or ())),
        do=c._manifest_block(raw.get("do"), (*path, "do"), f"stage.{name}", scope),
        repeat=c._manifest_expr(raw.get("repeat_while"), (*path, "repeat_while"), scope),
        leader=c._manifest_expr(raw.get("leader"), (*path, "leader"), scope),
        after=c._manifest_block(
            raw.get("after_each"), (*path, "after_each"), f"stage.{name}.after", scope
        ),
        staged=True,
    )


# ---------------------------------------------------------------------------- the main routine
def compile_flow(c: Compiler) -> tuple[int, dict[str, Any], tuple[PhaseSpec, ...]]:
    """The ``main`` routine (start player, setup, rounds of stages of turns), the labels the
    engine jumps to, and every phase."""
    flow = c.m.get("flow") or {}
    scope = Scope({"you"})
    stages = stage_sources(c, flow, scope)
    phases = [phase_spec(c, ph, path, scope) for stage in stages for path, ph in stage.phases]
    if any(phase.distinct for phase in phases):
        c.counted = c.counted | {"phase"}  # (see counted_scopes)
    counted = c.counted
    setup = c._manifest_block(c.m.get("setup"), ("setup",), "setup", scope)
    round_start = c._manifest_block(
        flow.get("round_start"), ("flow", "round_start"), "round_start", scope
    )
    round_end = c._manifest_block(flow.get("round_end"), ("flow", "round_end"), "round_end", scope)
    start_player = flow.get("start_player", "first")
    start_fn: ExprFn | None = None
    if start_player not in ("first", "random"):
        start_fn = c._manifest_expr(start_player, ("flow", "start_player"), scope)
    order = turn_order(c, flow)
    code = _Code("main")
    labels: dict[str, Any] = {
        "phase_starts": [],
        "phase_next": [],
        "phase_stage": [],
        "turn_ends": [],
        "stage_turns": [],
        "stage_ends": [],
        "staged": stages[0].staged if stages else False,
    }
    code.add(_choose_start(start_player, start_fn), Span(c.mfile, 1, 1))
    if setup is not None:
        code.add(_call_routine(setup), c.mspan("setup"))
    code.add(_announce_start, Span(c.mfile, 1, 1))
    labels["round"] = code.here
    code.add(_round_start(round_start, c.listened, counted), c.mspan("flow"))
    first_phase = 0
    for k, stage in enumerate(stages):
        emit_stage(c, code, k, stage, phases, first_phase, order, labels)
        first_phase += len(stage.phases)
    labels["turn_end"] = labels["turn_ends"][0] if labels["turn_ends"] else code.here
    labels["round_end"] = code.here
    rotate = bool(flow.get("rotate_start", False))
    code.add(_round_end(round_end, rotate, labels, c.listened), c.mspan("flow"))
    labels["trigger_order"] = str(flow.get("trigger_order", "active_first"))
    main = c.finish(code)
    return main, labels, tuple(phases)


def turn_order(c: Compiler, flow: dict[str, Any]) -> str:
    """``flow: order:``, one of :data:`TURN_ORDERS` (RC201 for another)."""
    order = str(flow.get("order", "clockwise"))
    if order not in TURN_ORDERS:
        c._unknown(order, c.mspan("flow", "order"), TURN_ORDERS, "turn order")
        order = "clockwise"
    return order


def emit_stage(
    c: Compiler,
    code: _Code,
    index: int,
    stage: _Stage,
    phases: list[PhaseSpec],
    first_phase: int,
    order: str,
    labels: dict[str, Any],
) -> None:
    """The main routine's instructions for one stage: its start, then (when it has
    phases) circuits of turns, one turn per player, repeated while its condition holds."""
    span = c.mspan(*stage.path)
    if stage.staged:
        code.add(_stage_start(index, stage.do), span)
    if not stage.phases:
        labels["turn_ends"].append(code.here)
        labels["stage_turns"].append(None)
        labels["stage_ends"].append(code.here)
        return
    stage_labels: dict[str, Any] = {}
    circuit = code.here
    exit_target = [0]
    if stage.staged:
        code.add(_circuit_start(stage.repeat, stage.leader, exit_target), span)
    stage_labels["turn"] = code.here
    code.add(_turn_start(c.listened, c.counted), span)
    starts: list[int] = []
    for j, (path, _ph) in enumerate(stage.phases):
        i = first_phase + j
        starts.append(code.here)
        code.add(_phase_start(i, phases[i].body, c.listened, c.counted), c.mspan(*path))
        if phases[i].actions:
            code.add(_menu(i), c.mspan(*path, "actions"))
    turn_end = code.here
    code.add(_turn_end(order, stage_labels, c.listened), span)
    if stage.staged:
        code.add(_circuit_end(stage.after, stage.repeat is not None, circuit, labels), span)
    exit_target[0] = code.here
    labels["phase_starts"].extend(starts)
    labels["phase_next"].extend([*starts[1:], turn_end])
    labels["phase_stage"].extend([index] * len(starts))
    labels["turn_ends"].append(turn_end)
    labels["stage_turns"].append((stage_labels["turn"], turn_end))
    labels["stage_ends"].append(code.here)


# ---------------------------------------------------------------------------- the end
def compile_end(c: Compiler) -> tuple[EndSpec, ...]:
    """``end:``: each condition with its outcome (a winner, a loser, all, or a draw)."""
    out: list[EndSpec] = []
    for i, spec in enumerate(c.m.get("end") or ()):
        cond = c._manifest_expr(spec.get("if"), ("end", i, "if"), Scope({"you"}))
        if cond is None:
            continue
        outcome = "draw"
        who: ExprFn | None = None
        for key in ("winner", "loser"):
            if key in spec:
                if spec[key] == "all":
                    outcome = f"all_{'win' if key == 'winner' else 'lose'}"
                else:
                    outcome = key
                    who = c._manifest_expr(spec[key], ("end", i, key), Scope({"you"}))
                break
        out.append(
            EndSpec(
                cond,
                outcome,
                who,
                _text(spec.get("reason"), "The game is over."),
                bool(spec.get("per_seat", True)),
            )
        )
    return tuple(out)
