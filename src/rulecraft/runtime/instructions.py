"""The instructions the compiler emits: small closures ``instr(ctx) -> None``.

Each instruction works on ``ctx.st`` (the state) and ``ctx.loc`` (its frame's locals).
The run loop has already moved the frame's ``pc`` past the instruction; jumps overwrite
it.  An instruction that needs a decision calls :func:`engine.ask` and puts ``pc`` back
on itself: when the answer arrives it runs again and finds it in ``ctx.loc``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from rulecraft.runtime import engine as E
from rulecraft.runtime import ids, incremental, plan
from rulecraft.runtime.engine import Ctx, RuleError
from rulecraft.runtime.ids import (
    COPY,
    DEFINITION_HEAD,
    NAME_MARK,
    NAME_MARK_AT,
    PLAYER,
    SPACE_HEAD,
    ZONE,
    ZONE_HEAD,
)
from rulecraft.runtime.program import (
    AbilitySpec,
    ActionSpec,
    ExprFn,
    Instr,
    KeptSpaces,
    KindSpec,
    Label,
    Program,
)
from rulecraft.runtime.state import State


def _stay(ctx: Ctx) -> None:
    """Re-run the current instruction when execution resumes."""
    ctx.frame[1] -= 1


def _label(ctx: Ctx, text: Label) -> str:
    return E.text_of(ctx, text)


# ---------------------------------------------------------------------------- control
def _jump(target: list[int]) -> Instr:
    def jump(ctx: Ctx) -> None:
        ctx.frame[1] = target[0]

    return jump


def _jump_unless(cond: ExprFn, target: list[int]) -> Instr:
    def jump_unless(ctx: Ctx) -> None:
        if not cond(ctx):
            ctx.frame[1] = target[0]

    return jump_unless


def _set_local(name: str, value: ExprFn) -> Instr:
    def set_local(ctx: Ctx) -> None:
        ctx.loc[name] = value(ctx)

    return set_local


def _for_init(coll: ExprFn, items: str, idx: str) -> Instr:
    def for_init(ctx: Ctx) -> None:
        ctx.loc[items] = list(E.as_list(ctx, coll(ctx)))
        ctx.loc[idx] = 0

    return for_init


def _for_next(items: str, idx: str, var: str, exit_target: list[int]) -> Instr:
    def for_next(ctx: Ctx) -> None:
        loc = ctx.loc
        i = loc[idx]
        seq = loc[items]
        if i >= len(seq):
            del loc[items], loc[idx]
            ctx.frame[1] = exit_target[0]
            return
        loc[var] = seq[i]
        loc[idx] = i + 1

    return for_next


def _amount(value: Any, verb: str) -> int:
    """An amount to gain, spend, draw or repeat: a whole number, never negative (a negative
    one would silently do the opposite of what the statement and the log say)."""
    # (compiled, int() of a value not known to be an int is a call of the type)
    n = value if type(value) is int else int(value)
    if n < 0:
        raise RuleError(
            f"'{verb}' got the amount {n}: amounts must not be negative", E.NEGATIVE_AMOUNT
        )
    return n


def _countdown(counter: str, exit_target: list[int]) -> Instr:
    def countdown(ctx: Ctx) -> None:
        n = _amount(ctx.loc.get(counter, 0), "repeat")
        if n <= 0:
            ctx.frame[1] = exit_target[0]
            return
        ctx.loc[counter] = n - 1

    return countdown


def _call_routine(routine: int) -> Instr:
    def call(ctx: Ctx) -> None:
        E.push(ctx, routine, {"you": ctx.loc.get("you"), "this": ctx.loc.get("this")})

    return call


def _call_effect(name: str, args: list[ExprFn], params: tuple[str, ...]) -> Instr:
    # paired once (the compiler checked the counts: RC206); compiled, a zip per call is a
    # call of the zip type
    bound = list(zip(params, args, strict=True))

    def call_effect(ctx: Ctx) -> None:
        local = {"you": ctx.loc.get("you"), "this": ctx.loc.get("this")}
        for p, a in bound:
            local[p] = a(ctx)
        E.push(ctx, ctx.prog.named_effects[name], local)

    return call_effect


def _run_attribute(obj: ExprFn, field: str) -> Instr:
    def run_attribute(ctx: Ctx) -> None:
        cid = obj(ctx)
        if not E.is_comp(cid):
            return
        comp = ctx.comps[cid]
        d = ctx.prog.defs[comp["d"]]
        side = comp.get("s")
        routine = d.effects.get(f"{side}:{field}") if side else None
        if routine is None:
            routine = d.effects.get(field)
        if routine is None:
            return  # the component has no such effect: nothing happens
        E.push(ctx, routine, {"you": ctx.loc.get("you"), "this": cid})

    return run_attribute


def _return(ctx: Ctx) -> None:
    """Leave the current story entry (or, outside entries, the current effect)."""
    stack = ctx.st["stack"]
    for i in range(len(stack) - 1, 0, -1):
        if "_entry" in stack[i][2]:
            del stack[i:]
            return
    if len(stack) > 1:
        stack.pop()


def _goto(target: ExprFn) -> Instr:
    def goto(ctx: Ctx) -> None:
        number = target(ctx)
        entry = ctx.prog.entries.get(number)
        if entry is None:
            raise RuleError(f"there is no entry {number}", E.NO_ENTRY)
        stack = ctx.st["stack"]
        you = ctx.loc.get("you")
        for i in range(len(stack) - 1, 0, -1):
            if "_entry" in stack[i][2]:
                del stack[i:]
                break
        E.push(ctx, entry.routine, {"you": you, "this": None, "_entry": number})

    return goto


def _enter_entry(number: int, title: Label, text: Label) -> Instr:
    def enter(ctx: Ctx) -> None:
        ctx.loc["_entry"] = number
        visited = ctx.st["mem"].setdefault("visited", [])
        if number not in visited:
            visited.append(number)
        body = E.text_of(ctx, text)
        if ctx.log is not None:
            ctx.say(f"[{number}] {E.text_of(ctx, title)}" + (f": {body}" if body else ""))
        E.emit(ctx, "entered", [number])

    return enter


def _end(what: str) -> Instr:
    def end(ctx: Ctx) -> None:
        st = ctx.st
        flow = ctx.prog.flow
        if what == "activation":
            _return(ctx)
            return
        if what == "game":
            E.check_end(ctx)
            E.finish(ctx, [], True, "The game was ended.")
            return
        del st["stack"][1:]
        main = st["stack"][0]
        # the turn's end of the stage that is running (a flow without stages has one)
        stage = main[2].get("_stage", 0)
        turn_end = flow["turn_ends"][stage]
        if what == "turn":
            main[1] = turn_end
        elif what in ("round", "stage") and flow["staged"]:
            _end_stage(main, what, flow, stage)
        elif what in ("round", "stage"):
            main[2]["_left"] = 0  # the other players skip their turns
            main[1] = turn_end
        elif what == "phase":
            phase = st["phase"]
            if phase >= 0:
                main[1] = flow["phase_next"][phase]
            elif (stage := main[2].get("_stage", 0)) in flow["phase_stage"]:
                # before the turn's first phase: that phase begins
                main[1] = flow["phase_starts"][flow["phase_stage"].index(stage)]
            else:  # a stage without turns
                main[1] = turn_end

    return end


def _end_stage(main: list[Any], what: str, flow: dict[str, Any], stage: int) -> None:
    """``end stage`` / ``end round`` in a flow of stages.  In a turn: the turn ends (its
    end triggers run), the other players skip theirs, and the stage's ``after_each`` does
    not run.  Outside a turn (a stage's ``do`` or ``after_each``): straight to the end of
    the stage, or of the round."""
    loc = main[2]
    turns = flow["stage_turns"][stage]
    if turns is not None and turns[0] <= main[1] <= turns[1]:
        loc["_left"] = 0
        loc["_over"] = what
        main[1] = turns[1]
        return
    loc.pop("_ended", None)
    loc.pop("_over", None)
    main[1] = flow["round_end"] if what == "round" else flow["stage_ends"][stage]


# ---------------------------------------------------------------------------- flow
def _choose_start(mode: Any, fn: ExprFn | None) -> Instr:
    def choose_start(ctx: Ctx) -> None:
        st = ctx.st
        if fn is not None:
            start = E.seat_of(fn(ctx))
        elif mode == "random":
            start = E.random_below(ctx, st["players"])
        else:
            start = 0
        st["start"] = st["active"] = start
        st["first"] = start
        ctx.loc["you"] = E.player(start)

    return choose_start


def _announce_start(ctx: Ctx) -> None:
    """After setup (which may have changed it with ``set start_player``): who starts."""
    if ctx.log is not None:
        ctx.say(f"Player {ctx.st['start'] + 1} starts.")


def _set_start_player(value: ExprFn) -> Instr:
    """``set start_player to P``: P takes the first turn of the next round (and, when
    ``rotate_start`` is on, the seats rotate on from P).  Set during ``setup`` (a roll-off,
    "the youngest player starts"), P also takes the game's first turn and is the game's
    start seat (``Game.start_seat``, the simulator's start-player statistics)."""

    def set_start_player(ctx: Ctx) -> None:
        st = ctx.st
        seat = E.seat_of(value(ctx))
        st["start"] = seat
        if st["round"] == 0:  # still in setup: the first turn of the game is P's
            st["first"] = st["active"] = seat  # (announced once setup is over)
        elif ctx.log is not None:
            ctx.say(f"Player {seat + 1} takes the start.")

    return set_start_player


def _round_start(body: int | None, listened: frozenset[str], counted: frozenset[str]) -> Instr:
    """A round begins (``listened``: the events some trigger answers, known when the flow
    is compiled: no dictionary read at each round to learn it; ``counted``: the scopes
    whose uses some rule counts, :func:`rulecraft.compile.flow.counted_scopes`)."""
    emits = "round_start" in listened
    clears = "round" in counted

    def round_start(ctx: Ctx) -> None:
        st = ctx.st
        st["round"] = st["round"] + 1  # (typed: a machine integer's addition, compiled)
        start = st["start"]
        st["active"] = start
        you = E.player(start)
        loc = ctx.loc
        loc["you"] = you
        loc["_left"] = st["players"]
        if clears:
            _clear_used(st, "round|")
        if body is not None:
            E.push(ctx, body, {"you": you, "this": None})
        if emits:  # (no list of arguments made for nobody)
            E.emit(ctx, "round_start", [st["round"]])

    return round_start


def _clear_used(st: State, prefix: str) -> None:
    """The uses counted for ``prefix``'s scope (``"turn|"``...) forgotten as it starts."""
    used = st["used"]
    if not used:
        return
    # (no list is built unless a key matches: usually none does as a turn or round starts)
    stale: list[str] | None = None
    for key in used:
        if key.startswith(prefix):
            if stale is None:
                stale = [key]
            else:
                stale.append(key)
    if stale is not None:
        for key in stale:
            del used[key]


def _turn_start(listened: frozenset[str], counted: frozenset[str]) -> Instr:
    """A turn begins (``listened``, ``counted``: as :func:`_round_start`)."""
    emits = "turn_start" in listened
    clears = "turn" in counted

    def turn_start(ctx: Ctx) -> None:
        st = ctx.st
        st["turn"] = st["turn"] + 1  # (typed: as round_start)
        st["phase"] = -1
        you = E.player(st["active"])
        ctx.loc["you"] = you
        if clears:
            _clear_used(st, "turn|")
        if emits:
            E.emit(ctx, "turn_start", [you])

    return turn_start


def _phase_start(
    index: int, body: int | None, listened: frozenset[str], counted: frozenset[str]
) -> Instr:
    """Phase ``index`` begins, the previous one ending (``listened``, ``counted``: as
    :func:`_round_start`)."""
    emits_start = "phase_start" in listened
    clears = "phase" in counted
    emits_end = "phase_end" in listened

    def phase_start(ctx: Ctx) -> None:
        st = ctx.st
        previous: int = st["phase"]
        if previous >= 0:
            _expire(ctx, "phase_end")
        st["phase"] = index
        if clears:
            _clear_used(st, "phase|")
        else:  # (only the phase's count of actions: one key, no walk over the rest)
            used = st["used"]
            if "phase|count" in used:
                del used["phase|count"]
        you = E.player(st["active"])
        # Frames pushed last run first: the old phase's end, then this one's start, then
        # its body.
        if body is not None:
            E.push(ctx, body, {"you": you, "this": None})
        if emits_start:
            E.emit(ctx, "phase_start", [ctx.prog.phases[index].name])
        if previous >= 0 and emits_end:
            E.emit(ctx, "phase_end", [ctx.prog.phases[previous].name])

    return phase_start


def _turn_end(order: str, labels: dict[str, Any], listened: frozenset[str]) -> Instr:
    """A turn ends: its end's triggers run, then the next seat's turn (at
    ``labels["turn"]``, known when the turn's end is compiled), or the round's end
    (``listened``: as :func:`_round_start`)."""
    emits = "turn_end" in listened or "phase_end" in listened
    turn_at: int = labels["turn"]
    step = 1 if order == "clockwise" else -1

    def turn_end(ctx: Ctx) -> None:
        st = ctx.st
        loc = ctx.loc
        if not loc.get("_ended"):
            _expire(ctx, "phase_end")
            _expire(ctx, "turn_end")
            if emits:
                # let the end-of-turn triggers run, then come back here
                loc["_ended"] = True
                E.emit(ctx, "turn_end", [E.player(st["active"])])
                if 0 <= st["phase"] < len(ctx.prog.phases):
                    E.emit(ctx, "phase_end", [ctx.prog.phases[st["phase"]].name])
                _stay(ctx)
                return
        else:
            del loc["_ended"]
        left = loc.get("_left")
        # (typed, not int(): compiled, int() of any value is a call of the type; and
        # the seats as machine integers, not any objects added and divided)
        players: int = st["players"]
        turns_left: int = (players if left is None else left) - 1
        loc["_left"] = turns_left
        if turns_left > 0:
            active: int = st["active"]
            st["active"] = (active + step) % players
            ctx.frame[1] = turn_at
        # else: fall through to the round's end

    return turn_end


def _stage_start(index: int, body: int | None) -> Instr:
    """A stage of the round begins: its ``do`` statements run, with ``you`` the round's
    start player; the main frame remembers the stage (``end turn`` needs its turn end)."""

    def stage_start(ctx: Ctx) -> None:
        st = ctx.st
        ctx.loc["_stage"] = index
        ctx.loc["you"] = E.player(st["start"])
        if body is not None:
            E.push(ctx, body, {"you": E.player(st["start"]), "this": None})

    return stage_start


def _circuit_start(repeat: ExprFn | None, leader: ExprFn | None, exit_at: list[int]) -> Instr:
    """Before each circuit of a stage's turns (one turn per player): leave the stage when
    its ``repeat_while`` no longer holds, else start the circuit at its ``leader`` (by
    default the round's start player)."""

    def circuit_start(ctx: Ctx) -> None:
        st = ctx.st
        loc = ctx.loc
        loc["you"] = E.player(st["start"])
        if repeat is not None and not repeat(ctx):
            ctx.frame[1] = exit_at[0]
            return
        st["active"] = E.seat_of(leader(ctx)) if leader is not None else st["start"]
        loc["you"] = E.player(st["active"])
        loc["_left"] = st["players"]

    return circuit_start


def _circuit_end(after: int | None, repeat: bool, circuit: int, labels: dict[str, Any]) -> Instr:
    """After a circuit of turns: the stage's ``after_each`` statements run, then the next
    circuit starts (a repeating stage), the round ends (``end round``) or the next stage."""

    def circuit_end(ctx: Ctx) -> None:
        st = ctx.st
        loc = ctx.loc
        if after is not None and not loc.get("_ended") and "_over" not in loc:
            loc["_ended"] = True
            E.push(ctx, after, {"you": E.player(st["start"]), "this": None})
            _stay(ctx)
            return
        loc.pop("_ended", None)
        over = loc.pop("_over", None)
        if over == "round":
            ctx.frame[1] = labels["round_end"]
        elif repeat and over is None:
            ctx.frame[1] = circuit

    return circuit_end


def _round_end(
    body: int | None, rotate: bool, labels: dict[str, Any], listened: frozenset[str]
) -> Instr:
    """A round ends: its block and triggers run, then the next round (``listened``: as
    :func:`_round_start`)."""
    ends = body is not None or "round_end" in listened

    def round_end(ctx: Ctx) -> None:
        st = ctx.st
        loc = ctx.loc
        if not loc.get("_ended"):
            _expire(ctx, "round_end")
            if ends:
                # let the round's end run, then come back here
                loc["_ended"] = True
                if body is not None:
                    E.push(ctx, body, {"you": E.player(st["start"]), "this": None})
                E.emit(ctx, "round_end", [st["round"]])
                _stay(ctx)
                return
        else:
            del loc["_ended"]
        if rotate:
            st["start"] = (st["start"] + 1) % st["players"]
        ctx.frame[1] = labels["round"]

    return round_end


def _can_pay(
    ctx: Ctx, cost: tuple[tuple[str, ExprFn], ...], seat: int, held: dict[str, Any]
) -> bool:
    """Does ``seat`` hold what ``cost`` asks?  ``held``: what :func:`_held` said so far
    while this menu is listed (listing changes nothing, so it says the same again)."""
    # loops, not all(): compiled (make compiled), a generator is an object made per call,
    # and a menu asks this of every card in a hand
    for unit, fn in cost:  # noqa: SIM110
        if not _held_now(ctx, unit, seat, held) >= _amount(fn(ctx), "costs"):
            return False
    return True


def _can_pay_fixed(
    ctx: Ctx, cost: tuple[tuple[str, int], ...], seat: int, held: dict[str, Any]
) -> bool:
    """:func:`_can_pay` for a cost written as numbers (``AbilitySpec.fixed_cost``)."""
    for unit, amount in cost:  # noqa: SIM110
        if not _held_now(ctx, unit, seat, held) >= amount:
            return False
    return True


def _held_now(ctx: Ctx, unit: str, seat: int, held: dict[str, Any]) -> Any:
    """:func:`_held`, remembered in ``held`` (one lookup where it took three)."""
    have = held.get(unit)
    if have is None:
        have = held[unit] = _held(ctx, unit, seat)
    return have


def _held(ctx: Ctx, unit: str, seat: int) -> Any:
    """How much of ``unit`` ``seat`` can spend: its own, or the game's for a shared one."""
    spec = ctx.prog.resources.get(unit)
    if spec is None or spec.per_player:
        return ctx.st["res"][seat].get(unit, 0)
    return ctx.st["gvars"].get(unit, 0)


def _pay(ctx: Ctx, cost: tuple[tuple[str, ExprFn], ...], seat: int) -> None:
    for unit, fn in cost:
        spec = ctx.prog.resources.get(unit)
        owner = None if spec is not None and not spec.per_player else E.player(seat)
        E.res_set(ctx, owner, unit, E.res_get(ctx, owner, unit) - _amount(fn(ctx), "costs"))


def limit_key(limit: str | None, what: str) -> str | None:
    """The key under which ``used`` counts the uses of ``what`` (an option id) limited
    ``once per`` ``limit`` (``turn|act:draw``); ``None`` for no limit."""
    if limit is None:
        return None
    return f"{limit}|{what}"


def menu_options(ctx: Ctx, index: int) -> tuple[list[list[Any]], bool]:
    """The legal options of phase ``index``'s action menu for the active player, and
    whether their ids are known to differ (all of them the options of one ``where`` kept
    up to date, each made once for its own space: :func:`engine.ask` need not check).

    Listing them changes nothing, so which cards are active is remembered meanwhile
    (what :func:`engine.listing` does, written out: no function made at each decision)."""
    if ctx.memo is not None:
        return _menu_options(ctx, index)
    ctx.memo = {}
    try:
        return _menu_options(ctx, index)
    finally:
        ctx.memo = None


def _menu_options(ctx: Ctx, index: int) -> tuple[list[list[Any]], bool]:
    st = ctx.st
    prog = ctx.prog
    phase = prog.phases[index]
    seat = st["active"]
    you = E.player(seat)
    used = st["used"]
    done = int(used.get("phase|count", 0))
    options: list[list[Any]] = []
    if phase.max_actions is not None and done >= phase.max_actions:
        return options, True
    saved = ctx.loc
    held: dict[str, Any] = {}  # (see _can_pay)
    distinct = True
    try:
        for name in phase.actions:
            if name == "abilities":
                distinct = False
                options.extend(_ability_options(ctx, seat, held))
                continue
            if phase.distinct and used.get(f"phase|did:{name}"):
                continue
            act = prog.actions[name]
            if act.limit_key is not None and used.get(act.limit_key):
                continue
            if act.for_collection is None:
                distinct = False
                ctx.loc = {"you": you, "this": None}
                if act.condition is not None and not act.condition(ctx):
                    continue
                if not _can_pay(ctx, act.cost, seat, held):
                    continue
                options.append([act.option, E.text_of(ctx, act.label), ["act", name, None]])
                continue
            kept = act.kept
            if kept is not None:  # kept up to date as pieces move, not listed afresh
                distinct = distinct and not options
                if act.condition is not None or act.cost:  # (they read the space there)
                    ctx.loc = {"you": you, "this": None}
                _kept_options(ctx, act, kept, seat, options, held)
                continue
            local: dict[str, Any] = {"you": you, "this": None}
            ctx.loc = local
            distinct = False
            var = act.for_var or "it"
            condition = act.condition
            cost = act.cost
            for value in E.as_list(ctx, act.for_collection(ctx)):
                local[var] = value
                if condition is not None and not condition(ctx):
                    continue
                if cost and not _can_pay(ctx, cost, seat, held):
                    continue
                options.append(_value_option(ctx, act, value, seat))
    finally:
        ctx.loc = saved
    return options, distinct


#: How many values an action remembers its options for (:attr:`ActionSpec.value_options`):
#: a game's cards and spaces, not texts without end.
MAX_VALUE_OPTIONS: Final = 100_000


def _value_option(ctx: Ctx, act: ActionSpec, value: Any, seat: int) -> list[Any]:
    """The option ``act``'s menu offers for ``value``: ``[id, None, value]`` (the label is
    filled in only when somebody looks: :func:`option_label`).  A text value's option is
    made once (:attr:`ActionSpec.value_options`: no id joined, no lists built or freed at a
    decision); a card's is that one while ``seat`` sees the card, else one naming its
    place, made afresh."""
    if type(value) is not str:
        return _fresh_option(ctx, act, value, seat)
    known = act.value_options.get(value)
    if known is None:
        # _value_id's cases: a space or definition by its bare name; a card by its id
        # only while seen (checked at each use); any other id as it is
        card = ids.is_component(value) and not ids.is_def(value)
        option = [act.option_stem + ids.bare_name(value), None, ["act", act.name, value]]
        known = (option, card)
        if len(act.value_options) < MAX_VALUE_OPTIONS:
            act.value_options[value] = known
    option, card = known
    if card and not E.visible_to(ctx, value, seat):
        return _fresh_option(ctx, act, value, seat)
    return option


def _fresh_option(ctx: Ctx, act: ActionSpec, value: Any, seat: int) -> list[Any]:
    """``act``'s option for ``value`` made now (:func:`_value_id` names it as ``seat`` may)."""
    return [act.option_stem + _value_id(ctx, value, seat), None, ["act", act.name, value]]


def _kept_options(
    ctx: Ctx,
    act: ActionSpec,
    kept: KeptSpaces,
    seat: int,
    options: list[list[Any]],
    held: dict[str, Any],
) -> None:
    """The options of ``act`` over the spaces its ``where`` keeps (:mod:`incremental`),
    appended to ``options`` in the ``where``'s order; ``ctx.loc`` is the action's locals
    when it has a condition or a cost (the space is bound there for them)."""
    mask = incremental.kept_mask(ctx, kept)
    spaces = kept.spaces
    made = act.kept_options
    condition = act.condition
    cost = act.cost
    var = act.for_var or "it"
    local = ctx.loc
    while mask:
        low = mask & -mask
        mask ^= low
        i = low.bit_length() - 1
        if condition is not None or cost:
            local[var] = spaces[i]
            if condition is not None and not condition(ctx):
                continue
            if cost and not _can_pay(ctx, cost, seat, held):
                continue
        options.append(made[i])


def _ability_piles(ctx: Ctx, seat: int) -> list[tuple[str, str]]:
    """The piles whose cards may offer ``seat`` abilities (a zone of that seat's or a
    shared one, or a space, where some kind uses abilities), in the state's order of piles,
    each with its zone's name (``"map"`` for a space).  Worked out once per context and
    seat (:attr:`Ctx.ability_piles`), again only when a pile was added since."""
    zones = ctx.zones
    known = ctx.ability_piles
    if known is None:
        known = ctx.ability_piles = {}
    got = known.get(seat)
    if got is not None and got[0] == len(zones):
        return got[1]
    ability_zones = ctx.prog.ability_zones
    piles: list[tuple[str, str]] = []
    for key in zones:
        if key[:2] == ZONE:  # ids.is_zone(key) without a call
            if E.zone_owner(key) not in (seat, None):
                continue
            where = E.zone_name(key)
        else:
            where = "map"
        if where in ability_zones:  # no kind uses abilities elsewhere: its cards unread
            piles.append((key, where))
    known[seat] = (len(zones), piles)
    return piles


def _ability_keys(ab: AbilitySpec, cid: str) -> tuple[list[Any], str | None]:
    """The option of ``ab`` on component ``cid`` and the key of its limit, remembered
    with the ability (:attr:`AbilitySpec.keys`)."""
    option = ids.ability_option(cid, ab.index)
    keys = ([option, None, ["ab", cid, ab.index]], limit_key(ab.limit, option))
    ab.keys[cid] = keys
    return keys


def _ability_uses(prog: Program, where: str) -> dict[str, tuple[tuple[AbilitySpec, ...], KindSpec]]:
    """The definitions whose kind uses abilities in zone ``where`` (``"map"``: a space),
    each with its abilities and kind, kept with the program (:attr:`Program.ability_uses`)."""
    uses: dict[str, tuple[tuple[AbilitySpec, ...], KindSpec]] = {}
    for name, abilities in prog.abilities.items():
        kind = prog.kinds.get(prog.defs[name].kind) if abilities else None
        if kind is not None and where in kind.abilities_in:
            uses[name] = (abilities, kind)
    prog.ability_uses[where] = uses
    return uses


def _ability_options(ctx: Ctx, seat: int, held: dict[str, Any] | None = None) -> list[list[Any]]:
    """The options of the abilities ``seat`` may use now (``held``: see :func:`_can_pay`)."""
    if held is None:
        held = {}
    st = ctx.st
    prog = ctx.prog
    out: list[list[Any]] = []
    used = st["used"]
    you = E.player(seat)
    comps = ctx.comps
    zones = ctx.zones
    # One dict of locals for every card's conditions (the caller puts ctx.loc back):
    # nothing keeps it, and a condition reads nothing but this and you.
    local: dict[str, Any] = {"you": you, "this": None}
    for key, where in _ability_piles(ctx, seat):
        uses = prog.ability_uses.get(where)
        if uses is None:
            uses = _ability_uses(prog, where)
        pile = zones[key]
        for cid in pile:
            comp = comps[cid]
            found = uses.get(comp["d"])
            if found is None or comp.get("down"):
                continue
            abilities, kind = found
            owner = comp.get("o")  # (controller's first case in place)
            if (owner if owner is not None else E.controller(ctx, cid)) != seat:
                continue
            if kind.active_if is not None and not E.is_active(ctx, cid):
                continue
            side = comp.get("s")
            for ab in abilities:
                if ab.side is not None and ab.side != side:
                    continue
                keys = ab.keys.get(cid)
                if keys is None:
                    keys = _ability_keys(ab, cid)
                option, lkey = keys
                if lkey is not None and used.get(lkey):
                    continue
                fixed = ab.fixed_cost
                if fixed is not None and not _can_pay_fixed(ctx, fixed, seat, held):
                    continue  # (cheaper than the condition, and as final)
                local["this"] = cid
                ctx.loc = local
                if ab.condition is not None and not ab.condition(ctx):
                    continue
                if fixed is None and not _can_pay(ctx, ab.cost, seat, held):
                    continue
                # The label is filled in only when somebody looks (see option_label).
                out.append(option)
    return out


def _menu(index: int) -> Instr:
    def menu(ctx: Ctx) -> None:
        st = ctx.st
        prog = ctx.prog
        phase = prog.phases[index]
        seat = st["active"]
        you = E.player(seat)
        got, ans = E.take_answer(ctx)
        if got:
            # (typed: compiled, read as a list and compared as a text, not as any objects)
            chosen: list[Any] = ans
            answered: str = chosen[0]
            if answered == "pass":
                if ctx.log is not None:
                    ctx.say(f"Player {seat + 1}: {E.text_of(ctx, phase.pass_label)}")
                return
            if answered == plan.PLAN_ANSWER and phase.plan is not None:
                plan.answer(ctx, chosen[1], phase.plan)
                return
            used = st["used"]
            done = int(used.get("phase|count", 0)) + 1
            used["phase|count"] = done
            if phase.plan is not None or phase.max_actions is None or done < phase.max_actions:
                _stay(ctx)  # come back to the menu after the action (a plan's, always)
            if answered == "act":
                act = prog.actions[chosen[1]]
                for_var = act.for_var  # (the locals made at once: one dictionary built)
                local: dict[str, Any] = (
                    {"you": you, "this": None}
                    if for_var is None
                    else {"you": you, "this": None, for_var: chosen[2]}
                )
                if act.cost:
                    saved = ctx.loc
                    ctx.loc = local
                    _pay(ctx, act.cost, seat)
                    ctx.loc = saved
                if phase.distinct:
                    used[f"phase|did:{act.name}"] = 1
                key = act.limit_key
                if key:
                    used[key] = int(used.get(key, 0)) + 1
                if ctx.log is not None:
                    _log_action(ctx, act, local, chosen[2], seat)
                E.push(ctx, act.routine, local)
            else:
                _use_ability(ctx, chosen[1], chosen[2], seat)
            return
        done = int(st["used"].get("phase|count", 0))
        used_up = phase.max_actions is not None and done >= phase.max_actions
        if used_up and phase.plan is None:
            return  # the phase's actions are used up: it ends without asking
        options, distinct = ([], True) if used_up else menu_options(ctx, index)
        if phase.plan is not None:
            # A plan ends by being executed (or reset), never by passing.
            distinct = False
            options.extend(plan.options(ctx, phase.plan, done))
        elif not phase.mandatory and (options or phase.ask_to_pass):
            options.append([ids.PASS, E.text_of(ctx, phase.pass_label), ["pass"]])
        if not options:
            return  # nothing to do (or only to pass, unless ask_to_pass): the phase ends
        heading = phase.label
        # (a dictionary of texts, else a function of the context: isinstance is compiled,
        # callable() is looked up among the builtins at every decision)
        if isinstance(heading, dict):  # (text_of's reading of a text, written out)
            texts: dict[str, str] = heading
            prompt = texts.get(ctx.lang) or texts.get("", "")
        else:
            prompt = heading(ctx)
        # (a pass's id is no action's: the options of one kept where stay distinct)
        E.ask(ctx, seat, prompt or "Your action", options, "action", distinct)
        _stay(ctx)
        if phase.plan is not None and st["pending"] is not None:
            plan.remember_start(ctx, index)

    return menu


def _log_action(ctx: Ctx, act: ActionSpec, local: dict[str, Any], value: Any, seat: int) -> None:
    """The log line of an action taken from the menu (``value``: its for-variable's)."""
    saved = ctx.loc
    ctx.loc = local
    label = E.text_of(ctx, act.label)
    ctx.viewer = seat
    own = E.text_of(ctx, act.label) if callable(act.label) else label
    ctx.viewer = None
    ctx.loc = saved
    if act.for_var is None or callable(act.label):
        # an interpolated label says what was chosen: the actor reads it
        # with its own cards named, the others as public text (its twin)
        if own != label:
            ctx.say(f"Player {seat + 1}: {own}", seat)
        ctx.say(f"Player {seat + 1}: {label}")
    else:
        # The actor reads what was chosen; the others read it as they see it.
        other = (seat + 1) % ctx.st["players"]
        mine = _value_label(ctx, value, seat)
        theirs = _value_label(ctx, value, other)
        if mine != theirs:
            ctx.say(f"Player {seat + 1}: {label}: {mine}", seat)
        ctx.say(f"Player {seat + 1}: {label}: {theirs}")


def _use_ability(ctx: Ctx, cid: str, i: int, seat: int) -> None:
    """Ability ``i`` of component ``cid`` chosen from the menu: paid, counted, logged, run."""
    st = ctx.st
    ab = ctx.prog.abilities[st["comps"][cid]["d"]][i]
    local = {"you": E.player(seat), "this": cid}
    saved = ctx.loc
    ctx.loc = local
    _pay(ctx, ab.cost, seat)
    ctx.loc = saved
    used = st["used"]
    option = ids.ability_option(cid, i)
    used["turn|" + option] = 1
    used["phase|did:abilities"] = 1
    key = limit_key(ab.limit, option)
    if key:
        used[key] = int(used.get(key, 0)) + 1
    if ctx.log is not None:
        _log_ability_use(ctx, cid, ab.label, seat)
    E.push(ctx, ab.routine, local)


def _log_ability_use(ctx: Ctx, cid: str, label: Any, seat: int) -> None:
    """ "Player N uses ABILITY of CARD", to the seats that may see the card; the others read
    that an ability of a card was used (the ability's name would tell the card)."""
    what = f"Player {seat + 1} uses {E.text_of(ctx, label)} of {E.text_of(ctx, cid)}"
    if all(E.visible_to(ctx, cid, s) for s in range(ctx.st["players"])):
        ctx.say(what)
        return
    if E.visible_to(ctx, cid, seat):
        ctx.say(what, seat)
    ctx.say(f"Player {seat + 1} uses an ability of a card")


# ---------------------------------------------------------------------------- choices
def option_label(ctx: Ctx, seat: int, value: Any) -> str:
    """The readable label of an option whose label was left for later (playouts never
    look at labels, so the engine does not build them until a Decision is shown)."""
    if isinstance(value, list) and value and value[0] == "act":
        act = ctx.prog.actions[value[1]]
        saved = ctx.loc
        # an interpolated label reads the action's names: you, and its for-variable
        ctx.loc = {"you": E.player(seat), "this": None, act.for_var or "it": value[2]}
        viewer, ctx.viewer = ctx.viewer, seat  # the decider reads the label of its cards
        try:
            label = E.text_of(ctx, act.label)
        finally:
            ctx.loc = saved
            ctx.viewer = viewer
        if act.for_var is not None and callable(act.label):
            return label  # the label says what the option is ("Buy {c} for {c.cost}")
        return f"{label}: {_value_label(ctx, value[2], seat)}"
    if isinstance(value, list) and value and value[0] == "ab":
        return _ability_label(ctx, seat, value[1], value[2])
    return _value_label(ctx, value, seat)


def _ability_label(ctx: Ctx, seat: int, cid: str, index: int) -> str:
    """An ability option's label: "ABILITY (CARD)", read as the menu reads its condition."""
    ab = ctx.prog.abilities[ctx.comps[cid]["d"]][index]
    saved = ctx.loc
    ctx.loc = {"you": E.player(seat), "this": cid}
    try:
        name = E.text_of(ctx, ctx.prog.defs[ctx.comps[cid]["d"]].name)
        return f"{E.text_of(ctx, ab.label)} ({name})"
    finally:
        ctx.loc = saved


def _value_id(ctx: Ctx, value: Any, seat: int | None) -> str:
    """How an option id names ``value``: a space or definition by its bare name, a card
    this seat cannot see by its place in its zone (``z:deck@0[3]``), any other id as is."""
    if type(value) is str:
        # ids.bare_name and ids.is_component with the module's constants, in place, a
        # character at a time: this runs for every option of every action menu
        head = value[:1]
        named = len(value) > 1 and value[NAME_MARK_AT] == NAME_MARK
        if named and head in (SPACE_HEAD, DEFINITION_HEAD):
            return value[NAME_MARK_AT + 1 :]
        if (
            seat is not None
            and COPY in value
            and not (named and head == ZONE_HEAD)
            and head != PLAYER
            and not E.visible_to(ctx, value, seat)
        ):
            comp = ctx.comps[value]
            pile = ctx.zones.get(comp["z"], [])
            return ids.position_id(comp["z"], pile.index(value))
        return value
    if isinstance(value, dict):
        return str(value.get("", ""))
    return str(value)


def _value_label(ctx: Ctx, value: Any, seat: int | None) -> str:
    if E.is_comp(value) and seat is not None and not E.visible_to(ctx, value, seat):
        comp = ctx.comps[value]
        pile = ctx.zones.get(comp["z"], [])
        where = f"hidden card {pile.index(value) + 1} in {E.text_of(ctx, comp['z'])}"
        public = E.public_props(ctx, value)
        if public:
            where += " (" + ", ".join(f"{k} {v}" for k, v in public.items()) + ")"
        return where
    text = E.text_of(ctx, value)
    if E.is_comp(value):
        z = ctx.comps[value]["z"]
        return f"{text} ({E.text_of(ctx, z)})"
    return text


def _decider(ctx: Ctx, who: ExprFn | None) -> int:
    if who is None:
        you = ctx.loc.get("you")
        return E.seat_of(you) if you is not None else ctx.st["active"]
    return E.seat_of(who(ctx))


def _policy_pick(ctx: Ctx, policy: str, options: list[list[Any]], apply: Any) -> Any:
    """A rule-made choice: the ruleset's declared policy picks an option's value."""
    spec = ctx.prog.policies[policy]
    if spec.pick == "first":
        return options[0][2]
    if spec.pick == "last":
        return options[-1][2]
    if spec.pick == "random":
        return options[E.random_below(ctx, len(options))][2]
    # worst / best for the players: look ahead one step with the ruleset's evaluation.
    best_value = None
    best_score = None
    for opt in options:
        trial = E.copy_ctx(ctx)
        trial.by_def = ctx.by_def
        frame = trial.st["stack"][-1]
        frame[2]["_answer"] = opt[2]
        frame[1] -= 1  # run the choosing instruction again, now with its answer
        try:
            E.run(trial)
        except RuleError:
            continue
        score = _players_score(trial)
        better = best_score is None or (
            score < best_score if spec.pick == "worst" else score > best_score
        )
        if better:
            best_score, best_value = score, opt[2]
    return best_value if best_value is not None else options[0][2]


def _players_score(ctx: Ctx) -> float:
    result = ctx.st["result"]
    n = ctx.st["players"]
    if result is not None:
        return 1e9 if result["winners"] else -1e9
    ev = ctx.prog.evaluation
    if ev is None:
        return 0.0
    total = 0.0
    saved = ctx.loc
    for seat in range(n):
        ctx.loc = {"you": E.player(seat), "this": None}
        total += float(ev(ctx))
    ctx.loc = saved
    return total


def _choose(
    coll: ExprFn,
    count: ExprFn | None,
    up_to: bool,
    who: ExprFn | None,
    policy: str | None,
    prompt: Label,
    var: str,
    sel: str,
    skip: list[int],
) -> Instr:
    def choose(ctx: Ctx) -> None:
        loc = ctx.loc
        multi = count is not None
        got, ans = E.take_answer(ctx)
        if got:
            if not multi:
                loc[var] = ans
                return
            if ans == "__done__":
                loc[var] = loc.pop(sel + "c", [])
                loc.pop(sel + "n", None)
                return
            loc.setdefault(sel + "c", []).append(ans)
        seat = _decider(ctx, who)
        if multi and sel + "n" not in loc:
            assert count is not None
            loc[sel + "n"] = int(count(ctx))
            loc[sel + "c"] = []
        picked = loc.get(sel + "c", []) if multi else []
        candidates = [v for v in E.listing(ctx, _as_list_of(coll)) if v not in picked]
        if multi:
            need = loc[sel + "n"] - len(picked)
            if need <= 0 or not candidates:
                loc[var] = loc.pop(sel + "c", [])
                loc.pop(sel + "n", None)
                if not loc[var] and not up_to:
                    ctx.frame[1] = skip[0]
                return
        elif not candidates:
            ctx.frame[1] = skip[0]  # nothing to choose: the effect does nothing
            return
        options = [[_value_id(ctx, v, seat), None, v] for v in candidates]
        _dedupe_ids(options)
        if multi and up_to:
            options.append([ids.DONE, "Done", "__done__"])
        if policy is not None:
            value = _policy_pick(ctx, policy, options, None)
            if multi:
                if value == "__done__":
                    loc[var] = loc.pop(sel + "c", [])
                    return
                loc[sel + "c"].append(value)
                _stay(ctx)
            else:
                loc[var] = value
            return
        if not multi and len(options) == 1:
            loc[var] = options[0][2]  # a forced choice is no choice
            return
        E.ask(ctx, seat, E.text_of(ctx, prompt), options, "choose")
        _stay(ctx)

    return choose


def _as_list_of(fn: ExprFn) -> Callable[[Ctx], list[Any]]:
    return lambda ctx: E.as_list(ctx, fn(ctx))


def _dedupe_ids(options: list[list[Any]]) -> None:
    seen: dict[str, int] = {}
    for opt in options:
        base = opt[0]
        if base in seen:
            seen[base] += 1
            opt[0] = f"{base}~{seen[base]}"
        else:
            seen[base] = 0


def _options(
    labels: list[Label],
    conds: list[ExprFn | None],
    who: ExprFn | None,
    policy: str | None,
    prompt: Label,
    starts: list[int],
    end: list[int],
) -> Instr:
    def options(ctx: Ctx) -> None:
        got, ans = E.take_answer(ctx)
        if got:
            ctx.frame[1] = starts[int(ans)]
            if ctx.log is not None:
                ctx.say(f"Chosen: {E.text_of(ctx, labels[int(ans)])}")
            return
        opts = []
        for i, (label, cond) in enumerate(zip(labels, conds, strict=True)):
            if cond is None or cond(ctx):
                opts.append([ids.choice_option(i), E.text_of(ctx, label), i])
        if not opts:
            ctx.frame[1] = end[0]
            return
        if policy is not None or len(opts) == 1:
            # a rule-made choice, or a forced one: no decision for anybody
            ctx.loc["_answer"] = _policy_pick(ctx, policy, opts, None) if policy else opts[0][2]
            _stay(ctx)
            return
        E.ask(ctx, _decider(ctx, who), E.text_of(ctx, prompt), opts, "choose")
        _stay(ctx)

    return options


def _optional(skip: list[int], question: Any = None) -> Instr:
    """An optional trigger's yes/no: ``prompt "..."`` (interpolated) or "Use CARD?"."""

    def optional(ctx: Ctx) -> None:
        got, ans = E.take_answer(ctx)
        if got:
            if not ans:
                ctx.frame[1] = skip[0]
            return
        label = ctx.loc.get("_optional", "this ability")
        E.ask(
            ctx,
            _decider(ctx, None),
            E.text_of(ctx, question) if question is not None else f"Use {label}?",
            [[ids.YES, "Yes", True], [ids.NO, "No", False]],
            "yesno",
        )
        _stay(ctx)

    return optional


# ---------------------------------------------------------------------------- effects
def _targets(ctx: Ctx, value: Any) -> list[Any]:
    """The components an effect acts on: a card itself, a zone's or a list's contents (what
    ``as_list`` makes of any value: a card's id, being no zone, is a list of itself)."""
    return E.as_list(ctx, value)


def _resource(
    unit: str,
    amount: ExprFn,
    owner: ExprFn | None,
    sign: int,
    event: str,
    verb: str,
    shared: bool,
    two_step: bool,
    step: str,
) -> Instr:
    def resource(ctx: Ctx) -> None:
        st = ctx.st
        if step == "begin":
            who: Any = None if shared else (owner(ctx) if owner is not None else ctx.loc.get("you"))
            n = _amount(amount(ctx), verb)
            if two_step:
                st["events"].append({"n": event, "who": who, "amount": n})
                E.emit(ctx, event, [who, unit, n], "before")
                return
        else:
            record = st["events"].pop()
            who, n = record["who"], max(0, int(record["amount"]))
        targets = [who] if who is None or not isinstance(who, list) else who
        for target in targets:
            before = E.res_get(ctx, target, unit)
            after = E.res_set(ctx, target, unit, before + sign * n)
            if after != before and ctx.log is not None:
                who_text = E.text_of(ctx, target) if target is not None else "The game"
                changed = abs(after - before)
                ctx.say(f"{who_text} {verb}s {changed} {E.unit_text(ctx, unit, changed)}")
            E.emit(ctx, event, [target, unit, abs(after - before)])

    return resource


def _draw(count: ExprFn, src: ExprFn, dst: ExprFn, reshuffle: ExprFn | None) -> Instr:
    def draw(ctx: Ctx) -> None:
        happened: list[tuple[str, list[Any]]] = []
        n = _amount(count(ctx), "draw")
        source = src(ctx)
        dest = dst(ctx)
        seat = E.zone_owner(dest) if isinstance(dest, str) else None
        for _ in range(n):
            pile = ctx.zones.get(source, [])
            if not pile and reshuffle is not None:
                refill = reshuffle(ctx)
                if ctx.zones.get(refill):
                    for cid in list(ctx.zones[refill]):
                        E.move_comp(ctx, cid, source)
                    E.shuffle_zone(ctx, source)
                    if ctx.log is not None:
                        ctx.say(
                            f"{E.text_of(ctx, refill)} is shuffled into {E.text_of(ctx, source)}"
                        )
                    happened.append(("reshuffled", [source]))
                    pile = ctx.zones.get(source, [])
            if not pile:
                happened.append(("exhausted", [source]))
                break
            spec = ctx.prog.zones.get(E.zone_name(source)) if isinstance(source, str) else None
            if spec is not None and spec.order == "bag":
                cid = pile[E.random_below(ctx, len(pile))]  # drawn blind from a bag
            else:
                cid = pile[-1]
            E.move_comp(ctx, cid, dest)
            who = f"Player {seat + 1}" if seat is not None else "The game"
            if seat is not None:
                if ctx.log is not None:
                    ctx.say(f"{who} draws {E.text_of(ctx, cid)}", seat)
                if ctx.log is not None:
                    ctx.say(f"{who} draws a card")
            else:
                if ctx.log is not None:
                    ctx.say(f"{who} draws {E.text_of(ctx, cid)}")
            happened.append(("drew", [E.player(seat) if seat is not None else None, cid]))
        for name, args in happened[::-1]:  # (mypyc cannot compile reversed() here)
            E.emit(ctx, name, args)

    return draw


def _move(
    what: ExprFn, dst: ExprFn, position: str | None, event: str, facedown: bool = False
) -> Instr:
    # a place named by a local (move X to space): read in place, not through a call
    dst_local = dst.name if isinstance(dst, E.LocalValue) else None

    def move(ctx: Ctx) -> None:
        dest = dst(ctx) if dst_local is None else ctx.loc.get(dst_local)
        if ids.is_player(dest):
            raise RuleError("move ... to a zone or a space, not to a player")
        if dest is None:
            return
        listened = event in ctx.prog.triggers
        # (the place's name is worked out once; "{" became "(" when lines were templates)
        to_dest = " -> " + E.text_of(ctx, dest).replace("{", "(") if ctx.log is not None else ""
        value = what(ctx)
        if isinstance(value, str) and value in ctx.comps:
            # one card, the usual move: no list of cards, none of what happened (a card's
            # id, by one lookup: no other id is a key there)
            src = _move_card(ctx, value, dest, position, facedown, to_dest)
            if listened:
                E.emit(ctx, event, [value, src, dest] if event == "moved" else [value])
            return
        happened: list[list[Any]] = []
        for cid in list(_targets(ctx, value)):  # (a pile is copied, as its cards leave it)
            if not E.is_comp(cid):
                continue
            src = _move_card(ctx, cid, dest, position, facedown, to_dest)
            if listened:
                happened.append([cid, src, dest] if event == "moved" else [cid])
        # Triggers run in the order the cards moved (frames pushed last run first).
        for args in happened[::-1]:
            E.emit(ctx, event, args)

    return move


def _move_card(
    ctx: Ctx, cid: str, dest: str, position: str | None, facedown: bool, to_dest: str
) -> str:
    """Card ``cid`` moved to ``dest`` (face down if ``facedown``), said in the log as
    going ``to_dest``; the place it left."""
    src = ctx.comps[cid]["z"]
    E.move_comp(ctx, cid, dest, position)
    if facedown:
        ctx.comps[cid]["down"] = True
        E.touched(ctx, cid)
    if ctx.log is not None:
        E.say_about(ctx, cid, to_dest)
    return src


def _shuffle(what: ExprFn) -> Instr:
    def shuffle(ctx: Ctx) -> None:
        key = what(ctx)
        if isinstance(key, str):
            E.shuffle_zone(ctx, key)
            if ctx.log is not None:
                ctx.say(f"{E.text_of(ctx, key)} is shuffled")

    return shuffle


def _reveal(what: ExprFn) -> Instr:
    def reveal(ctx: Ctx) -> None:
        for cid in _targets(ctx, what(ctx)):
            if E.is_comp(cid):
                comp = ctx.comps[cid]
                comp["up"] = True
                comp.pop("down", None)
                E.touched(ctx, cid)
                if ctx.log is not None:
                    ctx.say(f"Revealed: {E.text_of(ctx, cid)}")

    return reveal


def _reveal_to(what: ExprFn, who: ExprFn) -> Instr:
    """``reveal X to P`` / ``look at X``: only those players see which card it is, until it
    moves or its zone is shuffled; everybody else reads "a card"."""

    def reveal_to(ctx: Ctx) -> None:
        seats = sorted({E.seat_of(p) for p in E.as_list(ctx, who(ctx)) if p is not None})
        for cid in _targets(ctx, what(ctx)):
            if not E.is_comp(cid):
                continue
            comp = ctx.comps[cid]
            comp["seen"] = sorted(set(comp.get("seen", ())) | set(seats))
            if ctx.log is not None and seats:
                _say_look(ctx, cid, seats)

    return reveal_to


def _say_look(ctx: Ctx, cid: str, seats: list[int]) -> None:
    """The seers read the card's name; everybody else reads "a card"."""
    names = " and ".join(E.text_of(ctx, E.player(s)) for s in seats)
    verb = "looks" if len(seats) == 1 else "look"
    named = f"{names} {verb} at {E.text_of(ctx, cid)}"
    public = f"{names} {verb} at a card"
    if len(seats) == 1:
        ctx.say(named, seats[0])  # the seer's line, then its public twin
        ctx.say(public)
        return
    for seat in range(ctx.st["players"]):
        ctx.say(named if seat in seats else public, seat)


def _roll(pool: ExprFn, var: str) -> Instr:
    # Imported when a ruleset that rolls is compiled, not at each roll: compiled, an
    # import in the instruction ran the import machinery every time (a fifth of a dice
    # game's playout); not at the module's top either, which would load numpy for every
    # ruleset (the chance module's dice need it).
    from rulecraft.runtime.chance import roll_pool

    def roll(ctx: Ctx) -> None:
        result = roll_pool(ctx, pool(ctx))
        ctx.loc[var] = result
        E.emit(ctx, "rolled", [result])

    return roll


def _reroll(var: str, cond: ExprFn | None) -> Instr:
    from rulecraft.runtime.chance import die_records, reroll_dice  # (as _roll)

    def reroll(ctx: Ctx) -> None:
        result = ctx.loc.get(var)
        if not isinstance(result, dict) or "faces" not in result:
            raise RuleError(f"{var!r} is not a roll")
        picked = []
        loc = ctx.loc
        saved = loc.get("it")
        try:
            for record in die_records(ctx, result):
                loc["it"] = record
                if cond is None or cond(ctx):
                    picked.append(record["i"])
        finally:
            if saved is None:
                loc.pop("it", None)
            else:
                loc["it"] = saved
        ctx.loc[var] = reroll_dice(ctx, result, picked)

    return reroll


def _test(skill: str, target: ExprFn, extra: ExprFn | None, var: str | None = None) -> Instr:
    from rulecraft.runtime.chance import test_pool, test_roll  # (as _roll)

    def test(ctx: Ctx) -> None:
        got, _ = E.take_answer(ctx)
        pool = test_pool(ctx, skill, extra)
        need = int(target(ctx))
        if got:
            passed, result = test_roll(ctx, pool, need)
            ctx.loc["passed"] = passed
            ctx.loc["roll"] = result
            if var is not None:  # ``as NAME``: the branches read the dice
                ctx.loc[var] = result
            E.emit(ctx, "tested", [skill, need, passed])
            return
        seat = _decider(ctx, None)
        dice = " + ".join(f"{n} {d}" for d, n in sorted(pool.items()) if not d.startswith("+"))
        ctx.st["mem"]["test"] = {"skill": skill, "target": need, "pool": pool}
        E.ask(
            ctx,
            seat,
            f"Test {skill} ({need}): roll {dice}",
            [[ids.ROLL, "Roll the dice", True]],
            "roll",
        )
        _stay(ctx)

    return test


def _expire(ctx: Ctx, scope: str) -> None:
    """Clear the flags set ``until`` this moment (``turn_end``, ``round_end``, ``phase_end``)."""
    if not ctx.prog.timed_flags:
        return  # no rule sets one: the state has none (three dictionary reads a turn)
    timed = ctx.st["mem"].get("timed")
    if not timed:
        return
    keep = []
    for entry in timed:
        if entry[0] == scope:
            _apply_flag(ctx, entry[2], entry[1], False)
        else:
            keep.append(entry)
    ctx.st["mem"]["timed"] = keep


def _apply_flag(ctx: Ctx, name: str, target: Any, on: bool) -> None:
    st = ctx.st
    for t in [target] if not isinstance(target, list) else target:
        if t is None:
            flags = st["gflags"]
        elif ids.is_player(t):
            flags = st["pflags"][E.seat_of(t)]
        elif E.is_comp(t):
            comp = st["comps"][t]
            # a component's flags are replaced, never changed in place (clone_state)
            flags = comp["f"] = list(comp["f"])
            E.touched(ctx, t)
        else:
            raise RuleError(f"cannot set a flag on {t!r}")
        if on and name not in flags:
            flags.append(name)
            flags.sort()
        elif not on and name in flags:
            flags.remove(name)


def _flag(name: str, subject: ExprFn | None, on: bool, until: str | None = None) -> Instr:
    def flag(ctx: Ctx) -> None:
        target = subject(ctx) if subject is not None else None
        _apply_flag(ctx, name, target, on)
        if on and until is not None:
            ctx.st["mem"].setdefault("timed", []).append([until, target, name])

    return flag


def _set_game_field(field: str, value: ExprFn) -> Instr:
    """``set game.trump to ash``: a value of the game's own (never logged)."""

    def set_game_field(ctx: Ctx) -> None:
        ctx.st["gvars"][field] = value(ctx)

    return set_game_field


def _set_field(obj: ExprFn, field: str, value: ExprFn) -> Instr:
    def set_field(ctx: Ctx) -> None:
        o = obj(ctx)
        v = value(ctx)
        if ids.is_player(o):
            if isinstance(v, int) and not isinstance(v, bool):
                E.res_set(ctx, o, field, v)
            else:
                ctx.st["res"][E.seat_of(o)][field] = v  # any other value a player carries
            return
        if E.is_comp(o):
            comp = ctx.comps[o]
            if field == "facedown":
                comp["down"] = bool(v)
                comp.pop("seen", None)
                E.touched(ctx, o)  # (its face decides whether its text works)
                return
            if field == "exhausted":
                comp["x"] = bool(v)
                return
            kind = ctx.prog.kinds.get(ctx.prog.defs[comp["d"]].kind)
            if (kind is not None and field in kind.counters) or field in comp["c"]:
                E.res_set(ctx, o, field, int(v))
            elif field == "owner":
                comp["o"] = None if v is None else E.seat_of(v)
                incremental.noted(ctx, comp["z"])  # its pile's owners changed
                E.touched(ctx, o)
            else:
                comp["p"] = {**comp["p"], field: v}  # (replaced, never changed in place)
                E.touched(ctx, o)  # (its traits may decide whether its text works)
            return
        raise RuleError(f"cannot set {field!r} of {o!r}")

    return set_field


def _set_resource(name: str, per_player: bool, value: ExprFn) -> Instr:
    def set_resource(ctx: Ctx) -> None:
        owner = ctx.loc.get("you") if per_player else None
        E.res_set(ctx, owner, name, int(value(ctx)))

    return set_resource


def _emit(name: str, args: list[ExprFn]) -> Instr:
    def emit(ctx: Ctx) -> None:
        E.emit(ctx, name, [a(ctx) for a in args])

    return emit


def _emit_before(name: str, args: list[ExprFn]) -> Instr:
    """First step of an event with before-triggers: run them (they may ``prevent`` it)."""

    def emit_before(ctx: Ctx) -> None:
        values = [a(ctx) for a in args]
        ctx.st["events"].append({"n": name, "amount": 1, "args": values})
        E.emit(ctx, name, values, "before")

    return emit_before


def _emit_after_before(name: str) -> Instr:
    """Second step: unless a before-trigger prevented it, the event happens."""

    def emit_after_before(ctx: Ctx) -> None:
        record = ctx.st["events"].pop()
        if int(record["amount"]) > 0:
            E.emit(ctx, name, record["args"])
        elif ctx.log is not None:
            ctx.say(f"{name} is prevented")

    return emit_after_before


def _prevent(amount: ExprFn | None) -> Instr:
    def prevent(ctx: Ctx) -> None:
        events = ctx.st["events"]
        if not events:
            raise RuleError("'prevent' only works in a 'before' trigger")
        record = events[-1]
        if amount is None:
            record["amount"] = 0
        else:
            record["amount"] = max(0, int(record["amount"]) - _amount(amount(ctx), "prevent"))

    return prevent


def _flip(what: ExprFn, side: str | None) -> Instr:
    def flip(ctx: Ctx) -> None:
        for cid in _targets(ctx, what(ctx)):
            if not E.is_comp(cid):
                continue
            comp = ctx.comps[cid]
            kind = ctx.prog.kinds.get(ctx.prog.defs[comp["d"]].kind)
            sides = kind.sides if kind is not None else ()
            new_side = comp.get("s")
            if side is not None:
                new_side = side
            elif len(sides) >= 2:
                new_side = sides[1] if comp.get("s") == sides[0] else sides[0]
            # Named as it was: "Sleeper turns to awake"; a card already on that side does
            # not turn, so the log says nothing ("Knife (broken) turns to broken" was wrong).
            if ctx.log is not None and new_side != comp.get("s"):
                E.say_about(ctx, cid, " turns to " + str(new_side))
            comp["s"] = new_side
            E.touched(ctx, cid)
            E.emit(ctx, "flipped", [cid])

    return flip


def _exhaust(what: ExprFn, on: bool) -> Instr:
    def exhaust(ctx: Ctx) -> None:
        for cid in _targets(ctx, what(ctx)):
            if E.is_comp(cid):
                ctx.comps[cid]["x"] = on

    return exhaust


def _say(what: ExprFn) -> Instr:
    def say(ctx: Ctx) -> None:
        ctx.say(E.text_of(ctx, what(ctx)))

    return say


def _game_over(verb: str, who: ExprFn | None) -> Instr:
    def game_over(ctx: Ctx) -> None:
        n = ctx.st["players"]
        if verb == "tie":
            E.finish(ctx, [], True, "The game ends in a tie.")
            return
        target = who(ctx) if who is not None else ctx.loc.get("you")
        if target == "all" or (isinstance(target, list) and len(target) == n):
            seats = list(range(n))
        else:
            seats = [E.seat_of(t) for t in _targets(ctx, target)]
        if verb == "win":
            names = ", ".join(f"Player {s + 1}" for s in seats)
            E.finish(ctx, seats, False, f"{names} win{'s' if len(seats) == 1 else ''}.")
        else:
            winners = [s for s in range(n) if s not in seats]
            E.finish(
                ctx,
                winners,
                False,
                "The game is lost." if not winners else f"Player {seats[0] + 1} loses.",
            )

    return game_over
