"""Checks that keep a valid ruleset playable: bounds on what it creates, certain endless
recursion in ``define``s, and manifest values that contradict each other.

A ruleset that validates must be loadable and playable without exhausting memory or the
stack: ``copies: 2000000000`` used to validate clean and then eat all memory in
``new_game``; ``define a = b`` / ``define b = a`` validated clean and then raised a bare
``RecursionError``.  Each problem here is a located diagnostic (docs/errors.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any

from rulecraft.diagnostics import Diagnostic, Span
from rulecraft.language import ast

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler
    from rulecraft.language.yaml_source import PositionMap

#: At most this many copies of one component (per seat, for a per-player zone): a deck of
#: thousands of identical cards is already far beyond any game.
MAX_COPIES = 10_000
#: At most this many component instances in one game (copies times seats, at the largest
#: number of players): every instance lives in the game's state, which is cloned by bots.
MAX_COMPONENTS = 100_000

TOO_MANY = "RC224"
ENDLESS_DEFINE = "RC225"
OUT_OF_RANGE = "RC014"


# ---------------------------------------------------------------------------- components
def component_limits(comp: Compiler) -> list[Diagnostic]:
    """RC224 for a ``copies:`` (in ``.rcl`` or under ``components:``) above MAX_COPIES, and
    for a ruleset whose components add up to more than MAX_COMPONENTS instances."""
    out: list[Diagnostic] = []
    for cid, item in comp.comps.items():
        for member in item.members:
            if isinstance(member, ast.Attribute) and member.name == "copies":
                value = _const_int(member.expr)
                if value is not None and value > MAX_COPIES:
                    out.append(_too_many_copies(f"component {cid!r}", value, member.span))
    players = _max_players(comp.m)
    by_kind: dict[str, list[str]] = {}
    for cid, item in comp.comps.items():
        by_kind.setdefault(item.kind, []).append(cid)
    total = 0
    placements = comp.m.get("components")
    for i, spec in enumerate(placements if isinstance(placements, list) else ()):
        if not isinstance(spec, Mapping):
            continue
        copies = spec.get("copies")
        # 1.0e9 is an integer to JSON Schema, so it reaches here as a float.
        if isinstance(copies, int | float) and copies > MAX_COPIES:
            out.append(
                _too_many_copies(
                    f"the placement components[{i}]", copies, comp.mspan(*_at(i, "copies"))
                )
            )
        total += _instances(comp, spec, players, by_kind)
        if total > MAX_COMPONENTS:
            out.append(
                Diagnostic(
                    TOO_MANY,
                    f"the components add up to more than {MAX_COMPONENTS:,} in a game of "
                    f"{players} players (here, at components[{i}])",
                    comp.mspan(*_at(i)),
                    hint="a game's state holds every component: use fewer copies, or a "
                    "counter for a pile of identical tokens",
                )
            )
            break
    return out


def _at(*path: str | int) -> tuple[str | int, ...]:
    return ("components", *path)


def _too_many_copies(what: str, value: float, span: Span) -> Diagnostic:
    return Diagnostic(
        TOO_MANY,
        f"{what} asks for {value:,.0f} copies; at most {MAX_COPIES:,} are allowed",
        span,
        hint="use fewer copies, or a counter for a pile of identical tokens",
    )


def _const_int(expr: ast.Expr | None) -> int | None:
    if isinstance(expr, ast.Const) and type(expr.value) is int:
        return expr.value
    return None


def _max_players(manifest: Mapping[str, Any]) -> int:
    players = manifest.get("players")
    high = players.get("max") if isinstance(players, Mapping) else None
    return high if isinstance(high, int) and high > 0 else 1


def _instances(
    comp: Compiler, spec: Mapping[str, Any], players: int, by_kind: Mapping[str, list[str]]
) -> int:
    """How many instances one ``components:`` item creates (each copy capped at the bound,
    which is reported separately)."""
    kinds = spec.get("kind")
    kind_list = kinds if isinstance(kinds, list) else [kinds] if kinds is not None else []
    ids = [cid for kind in kind_list if isinstance(kind, str) for cid in by_kind.get(kind, ())]
    listed = spec.get("ids")
    ids += [c for c in listed if c in comp.comps] if isinstance(listed, list) else []
    zones = comp.m.get("zones")
    zone = zones.get(spec.get("zone")) if isinstance(zones, Mapping) else None
    seats = players if isinstance(zone, Mapping) and zone.get("per") == "player" else 1
    fixed = spec.get("copies")
    total = 0
    for cid in ids:
        copies = fixed if isinstance(fixed, int | float) else _declared_copies(comp.comps[cid])
        total += int(min(copies, MAX_COPIES + 1)) * seats
    return total


def _declared_copies(item: ast.Component) -> int:
    for member in item.members:
        if isinstance(member, ast.Attribute) and member.name == "copies":
            value = _const_int(member.expr)
            return value if value is not None and value > 0 else 1
    return 1


# ---------------------------------------------------------------------------- defines
def define_cycles(units: list[ast.Unit]) -> list[Diagnostic]:
    """RC225 for definitions that certainly never finish: a cycle of definitions each of
    which *always* evaluates the next (``define a = b`` / ``define b = a``,
    ``define f(n) = f(n + 1)``).  The language has no lazy branches except the right side
    of ``and``/``or`` and a ``where`` condition, so a reference elsewhere always runs; a
    cycle through a lazy branch may stop and is left to the runtime (RC305)."""
    defines = {i.name: i for u in units for i in u.items if isinstance(i, ast.Define)}
    edges = {
        name: {n for n in _certain_refs(d.expr) if n in defines and n not in d.params}
        for name, d in defines.items()
    }
    out: list[Diagnostic] = []
    reported: set[str] = set()
    for name in defines:
        if name in reported:
            continue
        cycle = _cycle_through(name, edges)
        if cycle is None:
            continue
        reported.update(cycle)
        loop = " -> ".join([*cycle, cycle[0]])
        out.append(
            Diagnostic(
                ENDLESS_DEFINE,
                f"definition {name!r} uses itself without end: {loop}",
                defines[name].span,
                hint="add a condition that stops it (a recursive use belongs after 'and' or "
                "'or'), or compute the value another way",
            )
        )
    return out


def _certain_refs(node: object) -> Iterator[str]:
    """The names an expression always evaluates (not those behind a lazy branch)."""
    if isinstance(node, ast.Name):
        yield node.name
        return
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        yield from _certain_refs(node.left)
        return
    if isinstance(node, ast.Where):
        yield from _certain_refs(node.collection)
        return
    if isinstance(node, ast.Conditional):  # only one branch runs, picked by the condition
        yield from _certain_refs(node.condition)
        return
    if isinstance(node, tuple | list):
        for item in node:
            yield from _certain_refs(item)
        return
    if is_dataclass(node) and isinstance(node, ast.Expr):
        for f in fields(node):
            if f.name != "span":
                yield from _certain_refs(getattr(node, f.name))


def _cycle_through(start: str, edges: Mapping[str, set[str]]) -> list[str] | None:
    """A path start -> ... -> start along ``edges``, or None (iterative depth-first)."""
    parents: dict[str, str] = {}
    todo = [start]
    seen = {start}
    while todo:
        node = todo.pop()
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(parents[path[-1]])
                return list(reversed(path))
            if nxt not in seen:
                seen.add(nxt)
                parents[nxt] = node
                todo.append(nxt)
    return None


# ---------------------------------------------------------------------------- manifest
def manifest_consistency(data: Mapping[str, Any], positions: PositionMap) -> list[Diagnostic]:
    """RC014 when ``players:`` contradicts itself: ``min`` above ``max`` (each value may be
    fine alone, so the schema cannot tell; a ``default`` outside them is the compiler's
    RC209)."""
    players = data.get("players")
    if not isinstance(players, Mapping):
        return []
    low, high = players.get("min"), players.get("max")
    out: list[Diagnostic] = []
    if isinstance(low, int) and isinstance(high, int) and low > high:
        out.append(
            Diagnostic(
                OUT_OF_RANGE,
                f"players: min is {low}, above max {high}: no number of players fits",
                positions.value_span(("players", "min")),
                hint="swap them, or make min at most max",
            )
        )
    return out
