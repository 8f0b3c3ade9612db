"""The records of the game state (:class:`State`, :class:`ComponentState`...): plain-JSON
dictionaries at run time, typed records for mypy.  :mod:`rulecraft.runtime.state` copies,
hashes and checks a state; these are its shapes.

They live apart from it because that module is compiled with mypyc (``make compiled``,
the wheel), and a ``TypedDict`` class compiled there forgets its ``total=False``: the
optional keys of a compiled ``State`` all came out as required
(``tests/engine/test_state_record.py``).  Run as Python, the records say what they mean
in both builds.
"""

from __future__ import annotations

from typing import Any, TypedDict


class _ComponentFields(TypedDict):
    """The fields every component has (see :class:`ComponentState`)."""

    d: str  #: its definition
    z: str  #: the zone or space holding it (runtime/ids.py spells the key)
    o: int | None  #: its owner's seat
    s: str | None  #: the side up
    x: bool  #: exhausted
    # The three containers below are never changed in place, only replaced (so clones share
    # them: see clone_state).
    c: dict[str, int]  #: counters
    f: list[str]  #: flags
    p: dict[str, Any]  #: fields the rules set on this copy


class ComponentState(_ComponentFields, total=False):
    """One component in ``state["comps"]`` (still a plain dict: saves hold it as it is);
    the last three fields are there only while they hold (``total=False``)."""

    up: bool  #: shown to every seat while in a hidden zone
    down: bool  #: face down
    seen: list[int]  #: the seats that looked at it (replaced, never changed in place)


class PendingDecision(TypedDict):
    """``state["pending"]``: who must decide, and the options ``[id, label, value]``."""

    seat: int
    prompt: str
    kind: str
    options: list[list[Any]]


class GameResult(TypedDict):
    """``state["result"]`` once the game is over."""

    winners: list[int]
    draw: bool
    reason: str


class _StateFields(TypedDict):
    """The keys every state has (see :class:`State`)."""

    v: int  #: :data:`rulecraft.runtime.state.STATE_VERSION`
    game: str  #: the ruleset's name
    lang: str  #: the language of texts
    players: int
    rng: list[int]  #: the random stream: [seed, counter] (see rng.py)
    active: int  #: the seat whose turn it is
    start: int  #: the round's start player
    turn: int
    round: int
    phase: int  #: the phase's index, -1 between phases
    res: list[dict[str, Any]]  #: per-seat resources (ints) and fields (any JSON value)
    pflags: list[list[str]]  #: per-seat flags
    gvars: dict[str, Any]  #: shared resources and fields
    gflags: list[str]  #: shared flags
    zones: dict[str, list[str]]  #: zone and space keys -> component ids, bottom first
    comps: dict[str, ComponentState]
    stack: list[list[Any]]  #: frames [routine, pc, locals]: where the rules stand
    pending: PendingDecision | None
    events: list[Any]
    used: dict[str, int]  #: what was used this turn, phase, round (limits)
    decisions: int  #: decisions answered so far
    result: GameResult | None
    mem: dict[str, Any]  #: what rules remember (timed flags, ...)


class State(_StateFields, total=False):
    """The whole state: one plain-JSON dict (a record for mypy, a dict at run time; saves
    hold it as it is and :data:`STATE_SCHEMA` checks a loaded one).  The last keys are there
    only while they hold (``total=False``; ``NotRequired`` is not seen through this module's
    postponed annotations on Python 3.11)."""

    first: int | None  #: the first player, once chosen
    plan: dict[str, Any]  #: a plan being made (runtime/plan.py)
    tiles: list[str]  #: the map tiles slot by slot (runtime/map.py)
