"""Planning with reset: a phase marked ``plan:`` in the manifest is played as a plan.

While a plan is being made, the phase's menu offers, besides its actions, ``plan:reset``
(once anything was done: put everything back as it was when the plan started) and
``plan:execute`` (lock the plan in and end the phase; only while the phase's
``execute_if`` holds) instead of the pass option.  When the phase's ``max`` actions are
used up the menu still asks, with only these two.

The plan's start is a snapshot of the whole state taken when the menu first asks, kept in
the state itself under ``"plan"`` (``{"turn", "phase", "state", "resets"}``): a save made mid-plan
resets to the same start, a clone shares the snapshot (it is only ever replaced, never
changed in place), and no view shows it, so it tells no seat anything hidden.  A reset
restores every part of the state but the running count of decisions (so a game's length
still counts every decision) and the snapshot itself; the random stream comes back too, so
resetting never re-rolls a die.  ``max_resets`` bounds the resets of one plan (the count
survives the resets): bots that judge one step ahead would otherwise reset forever.
"""

from __future__ import annotations

from typing import Any, Final, cast

from rulecraft.runtime import engine as E
from rulecraft.runtime import ids, incremental
from rulecraft.runtime.engine import Ctx
from rulecraft.runtime.program import PlanSpec
from rulecraft.runtime.state import State, clone_state

RESET_ID = ids.PLAN_RESET
EXECUTE_ID = ids.PLAN_EXECUTE
#: The first element of a plan option's value (what ``answer`` recognises).
PLAN_ANSWER: Final = "plan"

# Parts of the state a reset keeps: the count of decisions goes on, the snapshot stays.
_KEPT = ("decisions", "plan")


def options(ctx: Ctx, plan: PlanSpec, actions_taken: int) -> list[list[Any]]:
    """The plan's own options: reset (once something was done) and execute (if allowed)."""
    out: list[list[Any]] = []
    if plan.execute_if is None or _holds(ctx, plan):
        out.append([EXECUTE_ID, E.text_of(ctx, plan.execute_label), [PLAN_ANSWER, "execute"]])
    if actions_taken > 0 and (plan.max_resets is None or _resets(ctx) < plan.max_resets):
        out.append([RESET_ID, E.text_of(ctx, plan.reset_label), [PLAN_ANSWER, "reset"]])
    return out


def _resets(ctx: Ctx) -> int:
    record = ctx.st.get("plan")
    return int(record.get("resets", 0)) if record else 0


def _holds(ctx: Ctx, plan: PlanSpec) -> bool:
    assert plan.execute_if is not None
    saved = ctx.loc
    ctx.loc = {"you": E.player(ctx.st["active"]), "this": None}
    try:
        return bool(plan.execute_if(ctx))
    finally:
        ctx.loc = saved


def remember_start(ctx: Ctx, phase_index: int) -> None:
    """Take the plan's snapshot when its menu asks for the first time (this turn)."""
    st = ctx.st
    current = st.get("plan")
    if current and current["turn"] == st["turn"] and current["phase"] == phase_index:
        return
    unplanned = st.copy()
    unplanned.pop("plan", None)  # the snapshot holds no plan of its own
    snapshot = clone_state(unplanned)
    st["plan"] = {"turn": st["turn"], "phase": phase_index, "state": snapshot}


def answer(ctx: Ctx, what: str, plan: PlanSpec) -> None:
    """Carry out a plan option: ``reset`` puts the plan's start back, ``execute`` ends it."""
    st = ctx.st
    seat = st["active"]
    if what == "execute":
        st.pop("plan", None)
        ctx.say(f"Player {seat + 1}: {E.text_of(ctx, plan.execute_label)}")
        return
    record = st.get("plan")
    if not record:
        raise E.RuleError("a plan reset with no plan in progress")
    _restore(st, record["state"])
    incremental.forget(ctx)  # the piles were put back in place, not moved
    # The record is shared with clones of the state: replace it, never change it in place.
    st["plan"] = {**record, "resets": int(record.get("resets", 0)) + 1}
    ctx.say(f"Player {seat + 1}: {E.text_of(ctx, plan.reset_label)}")


def _restore(st: State, snapshot: State) -> None:
    fresh = clone_state(snapshot)
    # every key but the kept ones, whichever they are: the state as a plain dict
    target = cast(dict[str, Any], st)
    for key in [k for k in target if k not in fresh and k not in _KEPT]:
        del target[key]
    for key, value in fresh.items():
        if key in _KEPT:
            continue
        if key == "stack":
            # The engine's loop holds this very list: refill it in place.
            st["stack"][:] = fresh["stack"]
        elif key == "comps":
            # The context holds this very table (Ctx.comps): refill it in place.
            comps = st["comps"]
            comps.clear()
            comps.update(fresh["comps"])
        elif key == "zones":
            # And this one (Ctx.zones).
            zones = st["zones"]
            zones.clear()
            zones.update(fresh["zones"])
        else:
            target[key] = value
