"""The expression compiler's closures: each node of an expression as a function of the
context, found by the node's type (:data:`EXPRESSIONS`), with the checks that go with it
(unknown names RC201, misplaced ``this`` and ``it`` RC203, wrong calls RC206, effects used
as values RC207).  :meth:`Compiler.expr` writes Python source instead where
:mod:`codegen` covers the expression, and compiles these closures in any case (they
report the problems and fill the tables the checks read).

Also the texts that show values (``"{card.name} deals {n} damage"``), amounts with units,
and the expressions and blocks written in the manifest."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulecraft.compile import codegen, define_calls, every, flatten
from rulecraft.compile.amounts import _is_qty
from rulecraft.compile.declarations import SPECIAL_NAMES
from rulecraft.compile.fields import FieldRead, static_kind
from rulecraft.compile.scope import Scope
from rulecraft.compile.sorts import Names, disagreement
from rulecraft.diagnostics import Span
from rulecraft.language import ast
from rulecraft.language.parser import parse_expression, parse_snippet
from rulecraft.language.visit import children
from rulecraft.runtime import engine as E
from rulecraft.runtime import ids
from rulecraft.runtime import map as spatial
from rulecraft.runtime.builtins import (
    BUILTINS,
    FIELD_READERS,
    bounded,
    get_field,
    index_value,
    is_empty,
    is_own_field,
    multiply,
    own_field,
)
from rulecraft.runtime.program import ExprFn
from rulecraft.runtime.values import divide, modulo

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

#: Compiles one node of an expression.
NodeCompiler = Callable[["Compiler", Any, Scope], ExprFn]

NOWHERE_SPAN = Span("<text>", 1, 1)


class _Missing:
    pass


_MISSING: Any = _Missing()


def known_names(c: Compiler, scope: Scope) -> list[str]:
    """Every name an expression may use here (for did-you-mean)."""
    return sorted(
        set(scope.locals)
        | SPECIAL_NAMES
        | set(c.zones)
        | set(c.resources)
        | set(c.defines)
        | set(c.comps)
        | c.symbols
        | set(BUILTINS)
    )


def closure_expr(c: Compiler, e: ast.Expr, scope: Scope) -> ExprFn:
    """``e`` as a tree of closures, one per node (RC204 for a node no function compiles)."""
    compile_node = EXPRESSIONS.get(type(e))
    if compile_node is None:
        c.error("RC204", "this expression is not supported here", e.span)
        return lambda ctx: None
    return compile_node(c, e, scope)


# ---------------------------------------------------------------------------- constants
def _const(c: Compiler, e: ast.Const, scope: Scope) -> ExprFn:
    """A number, yes/no or none (RC205 for a number too large)."""
    v = e.value
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**31:
        c.error("RC205", f"the number {v} is too large", e.span, "numbers must stay below 2**31")
    return E.ConstantValue(v) if E.COMPILED else lambda ctx: v


def _text_lit(c: Compiler, e: ast.TextLit, scope: Scope) -> ExprFn:
    """A text: interpolated, a plain string, or its translations."""
    if "{" in e.text.default or any("{" in t for _, t in e.text.translations):
        return interpolated(c, e, scope)
    if not e.text.translations:
        # an untranslated text is a plain string: it compares with unit names
        plain = e.text.default
        return lambda ctx: plain
    d = e.text.as_dict()
    return lambda ctx: d


def _list(c: Compiler, e: ast.ListExpr, scope: Scope) -> ExprFn:
    """``[a, b, c]``."""
    items = [c.expr(x, scope) for x in e.items]
    return lambda ctx: [f(ctx) for f in items]


# ---------------------------------------------------------------------------- fields
def _attr(c: Compiler, e: ast.Attr, scope: Scope) -> ExprFn:
    """``obj.field``: the game's round, turn and fields read in place, a space's
    coordinates from the map's table, anything else through ``get_field``."""
    obj = c.expr(e.obj, scope)
    f = e.field
    kind = static_kind(e.obj, scope.locals)
    c.field_reads.append(FieldRead(f, e.field_span or e.span, kind))
    if kind == "game" and f == "round":
        return lambda ctx: ctx.st["round"]
    if kind == "game" and f == "turn":
        return lambda ctx: ctx.st["turn"]
    if kind == "game":
        fspec = c.fields.get(f)
        default = fspec.default if fspec is not None else 0
        return lambda ctx: ctx.st["gvars"].get(f, default)
    if f in ("x", "y"):
        # coordinates are read very often by map rules: a direct path for spaces
        axis = 0 if f == "x" else 1

        def coordinate(ctx: E.Ctx) -> Any:
            o = obj(ctx)
            if ids.is_space(o) and ctx.prog.map is not None:
                return spatial.current_map(ctx).coords[ids.space_name(o)][axis]
            return get_field(ctx, o, f)

        return coordinate
    local = e.obj.name if isinstance(e.obj, ast.Name) and _is_local(e.obj.name, scope) else None
    if f in c.zones or f in c.resources:  # a player's (you.hand): get_field reads those
        zone = c.zones.get(f)
        if zone is not None and not zone.per_player:
            return _field_of(local, obj, f, get_field)
        return _players_field(local, obj, f, zone is not None)
    return _field_of(local, obj, f, None)


def _players_field(local: str | None, obj: ExprFn, f: str, pile: bool) -> ExprFn:
    """``p.hand`` or ``p.water``: a player's pile or number read from a table of every
    seat's (no id cut apart, no text built); anything else (a card's counter, nothing)
    through ``get_field``, as before.  ``local``'s value is read in place."""
    if pile:
        keys = ids.by_player(lambda seat: ids.zone_key(f, seat))

        def players_pile(ctx: E.Ctx) -> Any:
            v = ctx.loc.get(local) if local is not None else obj(ctx)
            key = keys.get(v) if type(v) is str else None
            return key if key is not None else get_field(ctx, v, f)

        return players_pile
    seats = ids.by_player(lambda seat: seat)

    def players_number(ctx: E.Ctx) -> Any:
        v = ctx.loc.get(local) if local is not None else obj(ctx)
        seat = seats.get(v) if type(v) is str else None
        if seat is None:
            return get_field(ctx, v, f)
        return int(ctx.st["res"][seat].get(f, 0))

    return players_number


def _field_of(
    local: str | None, obj: ExprFn, f: str, reader: Callable[[E.Ctx, Any, str], Any] | None
) -> ExprFn:
    """``obj.f`` through ``reader``, or else the reader that does least for ``f``
    (builtins.kind_of, own_field, get_field); the value of ``local`` (a local variable's
    name, when ``obj`` reads one) in place, not through its closure."""
    if reader is not None:
        if local is not None:
            n = local
            return lambda ctx: reader(ctx, ctx.loc.get(n), f)
        return lambda ctx: reader(ctx, obj(ctx), f)
    field_reader = FIELD_READERS.get(f)
    if local is not None:
        n = local
        if field_reader is not None:
            read = field_reader
            return lambda ctx: read(ctx, ctx.loc.get(n))
        if is_own_field(f):
            return lambda ctx: own_field(ctx, ctx.loc.get(n), f)
        return lambda ctx: get_field(ctx, ctx.loc.get(n), f)
    if field_reader is not None:
        read = field_reader
        return lambda ctx: read(ctx, obj(ctx))
    if is_own_field(f):
        return lambda ctx: own_field(ctx, obj(ctx), f)
    return lambda ctx: get_field(ctx, obj(ctx), f)


def _index(c: Compiler, e: ast.Index, scope: Scope) -> ExprFn:
    """``list[i]`` (none outside the list), or ``obj[field]``."""
    obj = c.expr(e.obj, scope)
    key = c.expr(e.key, scope)
    return lambda ctx: index_value(ctx, obj(ctx), key(ctx))


def _has(c: Compiler, e: ast.Has, scope: Scope) -> ExprFn:
    """``X has FLAG``; a variable's value names the flag when the name is a local."""
    obj = c.expr(e.obj, scope)
    flag = e.flag
    if codegen.names_a_flag(flag, scope.locals):
        # a parameter, let or loop variable: its value is the flag's name
        c.used_names.add(flag)
        return lambda ctx: codegen.has_named_flag(ctx, obj(ctx), ctx.loc.get(flag), flag)
    c.flags_tested.append((flag, e.span))
    return lambda ctx: E.has_flag(ctx, obj(ctx), flag)


# ---------------------------------------------------------------------------- operators
def _unary(c: Compiler, e: ast.Unary, scope: Scope) -> ExprFn:
    """``-x`` and ``not x``."""
    inner = c.expr(e.operand, scope)
    if e.op == "-":
        return lambda ctx: -int(inner(ctx))
    return lambda ctx: not inner(ctx)


# Each binary operator: a factory of its closure, given the closures of its operands.  Named
# functions, not lambdas returning lambdas: mypyc (``make compiled``) compiles these.


def _and(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: bool(left(ctx)) and bool(right(ctx))


def _or(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: bool(left(ctx)) or bool(right(ctx))


def _plus(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: _add(ctx, left(ctx), right(ctx))


def _minus(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: left(ctx) - right(ctx)


def _times(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: multiply(left(ctx), right(ctx))


def _divided(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: divide(left(ctx), right(ctx))


def _modulo(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: modulo(left(ctx), right(ctx))


def _equal(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: left(ctx) == right(ctx)


def _unequal(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: left(ctx) != right(ctx)


def _less(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: _num(left(ctx)) < _num(right(ctx))


def _at_most(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: _num(left(ctx)) <= _num(right(ctx))


def _greater(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: _num(left(ctx)) > _num(right(ctx))


def _at_least(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: _num(left(ctx)) >= _num(right(ctx))


def _member(left: ExprFn, right: ExprFn) -> ExprFn:
    return lambda ctx: left(ctx) in E.as_list(ctx, right(ctx))


#: Each binary operator's closure factory.
_OPERATORS: dict[str, Callable[[ExprFn, ExprFn], ExprFn]] = {
    "and": _and,
    "or": _or,
    "+": _plus,
    "-": _minus,
    "*": _times,
    "/": _divided,
    "%": _modulo,
    "==": _equal,
    "!=": _unequal,
    "<": _less,
    "<=": _at_most,
    ">": _greater,
    ">=": _at_least,
    "in": _member,
}


def binary(c: Compiler, e: ast.Binary, scope: Scope) -> ExprFn:
    """``left OP right`` by the operator's entry in :data:`_OPERATORS`."""
    left = c.expr(e.left, scope)
    right = c.expr(e.right, scope)
    operator = _OPERATORS.get(e.op)
    if operator is None:
        c.error("RC204", f"unknown operator {e.op!r}", e.span)
        return lambda ctx: None
    return operator(left, right)


def conditional(c: Compiler, e: ast.Conditional, scope: Scope) -> ExprFn:
    """``A if C else B``: C decides, and only the branch it picks is evaluated.
    RC226 when the branches certainly give different sorts of value (sorts.py)."""
    then = c.expr(e.then, scope)
    condition = c.expr(e.condition, scope)
    otherwise = c.expr(e.otherwise, scope)
    names = Names(frozenset(c.comps), frozenset(c.zones), frozenset(c.resources))
    clash = disagreement(e, names, frozenset(scope.locals))
    if clash is not None:
        c.error(
            "RC226",
            f"the two values of this conditional cannot agree: {clash[0]} if the "
            f"condition holds, else {clash[1]}",
            e.span,
            "give both branches the same sort of value (none stands for no value)",
        )
    return lambda ctx: then(ctx) if condition(ctx) else otherwise(ctx)


def _num(v: Any) -> Any:
    """A value compared as a number: none is 0, yes/no 1/0 (anything else as it is: typed
    ``Any``, as compiled code would check a declared ``int``)."""
    if v is None:
        return 0
    if isinstance(v, bool):
        return int(v)
    return v


def _add(ctx: E.Ctx, a: Any, b: Any) -> Any:
    """``+``: numbers add; amounts (``2 red + weapon.dice``) add unit by unit; zones and
    lists join into one list (``you.hands + you.armor``)."""
    if type(a) is int and type(b) is int:
        return a + b
    if isinstance(a, dict) and isinstance(b, dict) and "" not in a and "" not in b:
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + v
        return out
    if isinstance(a, list | str) and isinstance(b, list | str):
        if isinstance(a, str) and isinstance(b, str) and not (ids.is_zone(a) or ids.is_zone(b)):
            return bounded(a + b)
        return bounded(E.as_list(ctx, a) + E.as_list(ctx, b))
    if a is None:
        return b
    if b is None:
        return a
    return a + b


# ---------------------------------------------------------------------------- where
def _where(c: Compiler, e: ast.Where, scope: Scope) -> ExprFn:
    """``collection where condition``; ``where empty(it)`` and ``where not empty(it)`` test
    the zones directly instead of running the condition (the commonest filter of map
    rules), over the map's spaces without even listing them."""
    coll = c.expr(e.collection, scope)
    emptiness = _emptiness_test(e.condition)
    if (
        emptiness is not None
        and isinstance(e.collection, ast.Name)
        and e.collection.name == "spaces"
        and "spaces" not in scope.locals
        and c.map is not None
    ):
        return _spaces_where_empty(tuple(ids.space_id(sid) for sid in c.map.spaces), emptiness)
    if emptiness is not None:
        return _where_empty(coll, emptiness)
    cond = c.expr(e.condition, scope.child("it"))

    def where(ctx: E.Ctx) -> list[Any]:
        loc = ctx.loc
        saved = loc.get("it", _MISSING)
        out = []
        try:
            for x in E.as_list(ctx, coll(ctx)):
                loc["it"] = x
                if cond(ctx):
                    out.append(x)
        finally:
            if saved is _MISSING:
                loc.pop("it", None)
            else:
                loc["it"] = saved
        return out

    return where


def _spaces_where_empty(keys: tuple[str, ...], want: bool) -> ExprFn:
    def spaces_where_empty(ctx: E.Ctx) -> list[Any]:
        zones = ctx.zones
        return [k for k in keys if (not zones.get(k)) == want]

    return spaces_where_empty


def _where_empty(coll: ExprFn, want_empty: bool) -> ExprFn:
    def where_empty(ctx: E.Ctx) -> list[Any]:
        return [x for x in E.as_list(ctx, coll(ctx)) if is_empty(ctx, x) == want_empty]

    return where_empty


def _emptiness_test(cond: ast.Expr) -> bool | None:
    """True for ``empty(it)``, False for ``not empty(it)``, None for any other condition."""
    negated = False
    if isinstance(cond, ast.Unary) and cond.op == "not":
        negated, cond = True, cond.operand
    if (
        isinstance(cond, ast.Call)
        and isinstance(cond.func, ast.Name)
        and cond.func.name == "empty"
        and len(cond.args) == 1
        and isinstance(cond.args[0], ast.Name)
        and cond.args[0].name == "it"
    ):
        return not negated
    return None


# ---------------------------------------------------------------------------- names
def name(c: Compiler, e: ast.Name, scope: Scope) -> ExprFn:
    """A name: a local, a special name (``active``, ``players``, ...), then what the
    ruleset declares (zones, resources, definitions, components, symbols)."""
    n = e.name
    c.used_names.add(n)
    if _is_local(n, scope):
        return _local(c, e, scope)
    special = _SPECIAL.get(n)
    if special is not None:
        return special
    if n == "spaces":
        if c.map is None:
            c.error("RC201", "'spaces' needs a map in ruleset.yaml", e.span)
            return lambda ctx: []
        spaces = [ids.space_id(s) for s in c.map.spaces]
        return lambda ctx: spaces.copy()
    return _declared(c, e, scope)


def _is_local(n: str, scope: Scope) -> bool:
    """Does the name ``n`` read a local variable (:func:`_local`) where ``scope`` holds?"""
    return n in scope.locals or n in ("you", "this", "it")


def _local(c: Compiler, e: ast.Name, scope: Scope) -> ExprFn:
    """A local variable, ``you``, ``this`` or ``it`` (RC203 where there is none)."""
    n = e.name
    if n == "this" and not scope.has_this and "this" not in scope.locals:
        c.error("RC203", "'this' is only meaningful inside a component, entry or rule", e.span)
    if n == "it" and "it" not in scope.locals:
        c.error(
            "RC203",
            "'it' is only meaningful inside 'where'",
            e.span,
            "write: collection where it.field == value",
        )
    return E.LocalValue(n) if E.COMPILED else lambda ctx: ctx.loc.get(n)


#: The players in turn order from each seat, by (players, first seat): made once each.
_TURN_ORDERS: dict[tuple[int, int], tuple[str, ...]] = {}


def _turn_order(players: int, first: int) -> tuple[str, ...]:
    """Every player's id in turn order, from seat ``first``.

    >>> _turn_order(3, 1)
    ('@1', '@2', '@0')
    """
    if players > 0:
        first %= players  # (the table holds at most players x players orders)
    key = (players, first)
    found = _TURN_ORDERS.get(key)
    if found is None:
        found = _TURN_ORDERS[key] = tuple(E.player((first + i) % players) for i in range(players))
    return found


def _all_players(ctx: E.Ctx) -> list[str]:
    """Every player, the active one first."""
    st = ctx.st
    return list(_turn_order(st["players"], st["active"]))


def _seat_or_active(ctx: E.Ctx) -> int:
    """The seat of ``you`` (the active player's when none)."""
    you = ctx.loc.get("you")
    return E.seat_of(you) if you is not None else int(ctx.st["active"])


def _opponents(ctx: E.Ctx) -> list[str]:
    """Every player but ``you`` (the active player when none), in turn order."""
    return list(_turn_order(ctx.st["players"], _seat_or_active(ctx))[1:])


def _opponent(ctx: E.Ctx) -> str | None:
    """The first of :func:`_opponents` (none in a game of one)."""
    order = _turn_order(ctx.st["players"], _seat_or_active(ctx))
    return order[1] if len(order) > 1 else None


#: The special names whose value needs nothing of the ruleset.
_SPECIAL: dict[str, ExprFn] = {
    "active": lambda ctx: E.player(ctx.st["active"]),
    "start_player": lambda ctx: E.player(ctx.st["start"]),
    "players": _all_players,
    "opponents": _opponents,
    "opponent": _opponent,
    "game": lambda ctx: None,
    "round": lambda ctx: ctx.st["round"],
    "turn": lambda ctx: ctx.st["turn"],
    "amount": lambda ctx: ctx.st["events"][-1]["amount"] if ctx.st["events"] else 0,
}


def _declared(c: Compiler, e: ast.Name, scope: Scope) -> ExprFn:
    """A zone, resource, definition, component, symbol or flag; else the right error."""
    n = e.name
    if n in c.zones:
        if c.zones[n].per_player:
            return lambda ctx: ids.zone_key(n, E.seat_of(ctx.loc["you"]))
        key = ids.zone_key(n)
        return lambda ctx: key
    if n in c.resources:
        if c.resources[n].per_player:
            return lambda ctx: ctx.st["res"][E.seat_of(ctx.loc["you"])].get(n, 0)
        return lambda ctx: ctx.st["gvars"].get(n, 0)
    if n in c.defines:
        d = c.defines[n]
        if d.params:
            c.error("RC206", f"{n!r} takes {len(d.params)} argument(s)", e.span, f"write {n}(...)")
        return define_calls.without_arguments(c.define_fns, n)
    if n in c.comps:
        value = ids.def_id(n)
        return lambda ctx: value
    if n in c.symbols or n in c.flags_set:
        return lambda ctx: n
    if n in BUILTINS:
        c.error("RC206", f"{n!r} is a function: call it with (...)", e.span)
        return lambda ctx: None
    if n in c.effects:
        c.error("RC207", f"{n!r} is an effect, not a value", e.span)
        return lambda ctx: None
    c._unknown(n, e.span, known_names(c, scope), "name")
    return lambda ctx: None


# ---------------------------------------------------------------------------- calls
#: The built-in functions that need a map.
_MAP_FUNCTIONS = frozenset(
    (
        "adjacent",
        "distance",
        "space_at",
        "in_a_row",
        "path_cost",
        "reach",
        "line_of_sight",
        "step",
        "direction",
    )
)


def call(c: Compiler, e: ast.Call, scope: Scope) -> ExprFn:
    """``f(args)``: a function the compiler handles itself (:data:`COMPILER_FUNCTIONS`,
    unless a definition takes the name), a definition, a built-in function;
    RC206/RC207/RC201 for anything else."""
    if not isinstance(e.func, ast.Name):
        c.error("RC206", "only named functions can be called", e.span)
        return lambda ctx: None
    n = e.func.name
    c.used_names.add(n)
    compiler_function = COMPILER_FUNCTIONS.get(n)
    if compiler_function is not None and n not in c.defines:
        return compiler_function(c, e, scope)
    args = [c.expr(a, scope) for a in e.args]
    if n in c.defines:
        return _call_define(c, e, n, args)
    if n in BUILTINS:
        return _call_builtin(c, e, n, args)
    if n in c.effects:
        c.error(
            "RC207",
            f"{n!r} is an effect: use it as a statement, not inside an expression",
            e.span,
        )
        return lambda ctx: None
    functions = [*c.defines, *BUILTINS, *COMPILER_FUNCTIONS]
    c._unknown(n, e.func.span, functions, "function")
    return lambda ctx: None


def _call_define(c: Compiler, e: ast.Call, n: str, args: list[ExprFn]) -> ExprFn:
    """A definition called with arguments: they are its only locals (with you and this)."""
    d = c.defines[n]
    if len(d.params) != len(args):
        c.error("RC206", f"{n!r} takes {len(d.params)} argument(s), not {len(args)}", e.span)
        return lambda ctx: None
    return define_calls.with_arguments(c.define_fns, n, list(d.params), args)


def _call_builtin(c: Compiler, e: ast.Call, n: str, args: list[ExprFn]) -> ExprFn:
    """A built-in function: its number of arguments checked; ``empty`` and ``count`` of
    one argument, and calls of one or two arguments, without building a list first."""
    fn, lo, hi = BUILTINS[n]
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        c.error("RC206", f"{n}() takes {want} argument(s), not {len(args)}", e.span)
        return lambda ctx: None
    if n in _MAP_FUNCTIONS and c.map is None:
        c.error("RC201", f"{n}() needs a map in ruleset.yaml", e.span)
    if n == "empty" and len(args) == 1:
        a0 = args[0]

        return lambda ctx: is_empty(ctx, a0(ctx))
    if n == "count" and len(args) == 1:
        a0 = args[0]
        return lambda ctx: len(E.as_list(ctx, a0(ctx)))
    if len(args) == 1:
        a0 = args[0]
        return lambda ctx: fn(ctx, [a0(ctx)])
    if len(args) == 2:
        a0, a1 = args
        if isinstance(a1, E.ConstantValue):  # in_a_row(you, 3): no call for what is known
            c1 = a1.value
            if isinstance(a0, E.LocalValue):
                n0 = a0.name
                return lambda ctx: fn(ctx, [ctx.loc.get(n0), c1])
            return lambda ctx: fn(ctx, [a0(ctx), c1])
        return lambda ctx: fn(ctx, [a0(ctx), a1(ctx)])
    return lambda ctx: fn(ctx, [a(ctx) for a in args])


def chance(c: Compiler, e: ast.Call, scope: Scope) -> ExprFn:
    """``chance(2 scavenge, hazard >= 1)``: the exact chance, in percent, that a roll of
    the pool meets the condition, in which each face symbol is the count shown."""
    if len(e.args) != 2:
        c.error(
            "RC206",
            "chance takes a dice pool and a condition on its symbols",
            e.span,
            "chance(2 red + 1 white, hit >= 2)",
        )
        return lambda ctx: 0
    pool = c.expr(e.args[0], scope)
    symbols = tuple(sorted(c.face_symbols))
    cond = c.expr(e.args[1], scope.child(*symbols))
    # A condition on the symbols alone (hit >= 2) gives the same chance for the same dice
    # in every game of the program this closure belongs to (its dice never change): worked
    # out once for each.  A ruleset's evaluation may ask such odds, and bots and policies
    # read the evaluation at every look ahead.
    known: dict[tuple[Any, ...], float] | None = (
        {} if _reads_symbols_only(c, e.args[1], symbols) else None
    )

    # (imported here, once a ruleset asks odds: they bring numpy, which others never load)
    from rulecraft.dice.exact import distribution
    from rulecraft.runtime.chance import make_pool

    def chance_percent(ctx: E.Ctx) -> float:
        amounts = pool(ctx)
        key = None
        if known is not None and type(amounts) is dict:
            key = tuple(amounts.items())  # ({die: count}: how make_pool reads it)
            if all(type(n) is int for _, n in key):
                found = known.get(key)
                if found is not None:
                    return found
            else:
                key = None
        dist = distribution(make_pool(ctx.prog.dice, amounts, ctx.prog.min_dice))
        saved = ctx.loc

        def goal(counts: Any) -> bool:
            ctx.loc = {**saved, **{s: counts[s] for s in symbols}}
            return bool(cond(ctx))

        try:
            p = dist.probability(goal)
        finally:
            ctx.loc = saved
        percent = round(float(p) * 100, 2)
        if known is not None and key is not None and len(known) < _KNOWN_ODDS:
            known[key] = percent
        return percent

    return chance_percent


#: The most pools of dice one ``chance`` keeps the odds of (as dice/_memo.py bounds the
#: distributions): rules that roll ever other pools cannot grow it without end.
_KNOWN_ODDS = 4096

#: The built-in functions a condition of ``chance`` may call and still read nothing of the
#: game (their value is their arguments').
_PURE_BUILTINS = frozenset({"min", "max", "abs"})


def _reads_symbols_only(c: Compiler, e: ast.Expr, symbols: tuple[str, ...]) -> bool:
    """Does ``e`` read nothing but the face symbols and constants (so its value for a roll
    is the same in every game)?"""
    if isinstance(e, ast.Const):
        return True
    if isinstance(e, ast.Name):
        return e.name in symbols
    if isinstance(e, ast.Call):
        func = e.func
        if not (
            isinstance(func, ast.Name)
            and func.name in _PURE_BUILTINS
            and func.name not in c.defines
        ):
            return False
        return all(_reads_symbols_only(c, a, symbols) for a in e.args)
    if isinstance(e, (ast.Binary, ast.Unary, ast.Conditional)):
        return all(_reads_symbols_only(c, part, symbols) for part in children(e))
    return False


def map_define(c: Compiler, e: ast.Call, scope: Scope) -> ExprFn:
    """``map(players, score)``: a one-parameter definition applied to every element."""
    fn_name = e.args[1] if len(e.args) == 2 else None
    if (
        not isinstance(fn_name, ast.Name)
        or len(getattr(c.defines.get(fn_name.name), "params", ())) != 1
    ):
        c.error(
            "RC206",
            "map takes a list and the name of a definition with one parameter",
            e.span,
            "define score(p) = p.gold * 2, then map(players, score)",
        )
        return lambda ctx: []
    c.used_names.add(fn_name.name)
    items = c.expr(e.args[0], scope)
    param = c.defines[fn_name.name].params[0]
    return define_calls.over_items(c.define_fns, fn_name.name, param, items)


#: The functions the compiler handles itself rather than the runtime's built-ins (they look
#: at their arguments' syntax or at the ruleset's tables), by name; a ruleset's ``define``
#: of the same name hides them.
COMPILER_FUNCTIONS: dict[str, NodeCompiler] = {
    "map": map_define,
    "chance": chance,
    every.EVERY: every.compile_every,
    flatten.FLATTEN: flatten.compile_flatten,
}


# ---------------------------------------------------------------------------- amounts
def _qty(c: Compiler, e: ast.Qty, scope: Scope) -> ExprFn:
    parts = qty_parts(c, e, scope)

    def qty(ctx: E.Ctx) -> dict[str, int]:
        out: dict[str, int] = {}
        for unit, fn in parts:
            out[unit] = out.get(unit, 0) + int(fn(ctx))
        return out

    return qty


def qty_parts(c: Compiler, e: ast.Expr, scope: Scope) -> list[tuple[str, ExprFn]]:
    """``2 water + 1 gold`` -> [("water", fn), ("gold", fn)]."""
    if isinstance(e, ast.Qty):
        return [(e.unit, c.expr(e.amount, scope))]
    if isinstance(e, ast.Binary) and e.op == "+" and _is_qty(e):
        return qty_parts(c, e.left, scope) + qty_parts(c, e.right, scope)
    if isinstance(e, ast.Conditional):
        return conditional_qty(c, e, scope)
    c.error(
        "RC204",
        "expected an amount with a unit, such as '2 gold'",
        e.span,
        "a unit belongs to the value just before it: put an amount computed with "
        "+ - * / in parentheses, as in (10 + 2 * p.tricks) score",
    )
    return []


def conditional_qty(c: Compiler, e: ast.Conditional, scope: Scope) -> list[tuple[str, ExprFn]]:
    """``2 gold if C else 1 water``: each unit of either branch, counted from the branch
    the condition picks (0 of a unit the other branch has not)."""
    condition = c.expr(e.condition, scope)
    sides = (qty_parts(c, e.then, scope), qty_parts(c, e.otherwise, scope))
    units = list(dict.fromkeys(unit for side in sides for unit, _ in side))

    def count_of(unit: str) -> ExprFn:
        then = [fn for u, fn in sides[0] if u == unit]
        otherwise = [fn for u, fn in sides[1] if u == unit]

        def count(ctx: E.Ctx) -> int:
            return sum(int(fn(ctx)) for fn in (then if condition(ctx) else otherwise))

        return count

    return [(unit, count_of(unit)) for unit in units]


# ---------------------------------------------------------------------------- texts
def text_value(
    c: Compiler, text: ast.Text, scope: Scope | None = None, span: Span | None = None
) -> Any:
    """A prompt or label: its translations, or a function when it interpolates (its
    problems located at ``span``, the statement or member that shows it)."""
    if "{" in text.default or any("{" in t for _, t in text.translations):
        where = span or NOWHERE_SPAN
        return interpolated(c, ast.TextLit(where, text), scope or c.scope_now)
    return text.as_dict()


def interpolated(c: Compiler, e: ast.TextLit, scope: Scope) -> ExprFn:
    """``"{card.name} deals {n} damage"``: each ``{expression}`` is shown as text."""
    variants = {
        lang: _template_parts(c, e, template, scope)
        for lang, template in [("", e.text.default), *e.text.translations]
    }

    def interpolate(ctx: E.Ctx) -> str:
        parts = variants.get(ctx.lang) or variants[""]
        # (a loop, not a generator for join: every logged line of a game comes through here)
        shown: list[str] = []
        for p in parts:
            shown.append(p if isinstance(p, str) else p(ctx))
        return "".join(shown)

    return interpolate


def _template_parts(c: Compiler, e: ast.TextLit, template: str, scope: Scope) -> list[str | ExprFn]:
    """One language's text as its literal pieces and the functions of its ``{...}``."""
    parts: list[str | ExprFn] = []
    rest = template
    while "{" in rest:
        before, _, after = rest.partition("{")
        inner, closed, rest = after.partition("}")
        if not closed:
            c.error("RC204", "a '{' in a text is not closed by '}'", e.span)
            parts.append(before + "{" + inner)
            rest = ""
            break
        parts.append(before)
        tree, problems = parse_expression(inner, e.span.file, e.span.line, e.span.column)
        c.diags.extend(problems)
        parts.append(shown_part(c, tree, scope) if tree is not None else "")
    parts.append(rest)
    return parts


def shown_part(c: Compiler, tree: ast.Expr, scope: Scope) -> ExprFn:
    """One ``{expression}`` of a text, as text every seat may read: a card some seat may
    not see is "a card", and a field of such a card is "?" unless its zone shows that
    field (``public_fields``), so ``"{c} rank {c.rank}"`` gives nothing away."""
    value = c.expr(tree, scope)
    if not isinstance(tree, ast.Attr):
        return lambda ctx: E.public_text(ctx, value(ctx))
    obj = c.expr(tree.obj, scope)
    field_name = tree.field

    def shown_field(ctx: E.Ctx) -> str:
        if E.hidden_field(ctx, obj(ctx), field_name):
            return "?"
        return E.public_text(ctx, value(ctx))

    return shown_field


# ---------------------------------------------------------------------------- the manifest
def manifest_expr(c: Compiler, text: Any, path: tuple[Any, ...], scope: Scope) -> ExprFn | None:
    """An expression written in ``ruleset.yaml`` (at ``path``), located where it is."""
    if text is None:
        return None
    if isinstance(text, bool | int):
        v = text
        return lambda ctx: v
    span = c.mspan(*path)
    line, column = scalar_start(c, span)
    tree, problems = parse_expression(str(text), span.file, line, column)
    c.diags.extend(problems)
    if tree is None:
        return None
    return c.expr(tree, scope)


def scalar_start(c: Compiler, span: Span) -> tuple[int, int]:
    """Where the text of a YAML scalar starts: after the quote of a quoted one, on the
    next line (at its indentation) for a ``|`` or ``>`` block, else where it stands."""
    lines = c.manifest_lines
    if not 1 <= span.line <= len(lines):
        return span.line, span.column
    text = lines[span.line - 1]
    ch = text[span.column - 1 : span.column]
    if ch in ("'", '"'):
        return span.line, span.column + 1
    if ch in ("|", ">"):
        for number in range(span.line + 1, len(lines) + 1):
            body = lines[number - 1]
            if body.strip():
                return number, len(body) - len(body.lstrip()) + 1
    return span.line, span.column


def manifest_block(
    c: Compiler, text: Any, path: tuple[Any, ...], name: str, scope: Scope
) -> int | None:
    """Statements written in ``ruleset.yaml`` (a phase's ``do:``, ``setup:``) as a routine."""
    if not text:
        return None
    span = c.mspan(*path)
    line, column = scalar_start(c, span)
    body, problems = parse_snippet(str(text), span.file, line, column)
    c.diags.extend(problems)
    return c.routine(name, body, scope)


#: The function that compiles each type of expression node.
EXPRESSIONS: dict[type, NodeCompiler] = {
    ast.Const: _const,
    ast.TextLit: _text_lit,
    ast.Name: name,
    ast.Attr: _attr,
    ast.Index: _index,
    ast.Call: call,
    ast.Qty: _qty,
    ast.Unary: _unary,
    ast.Binary: binary,
    ast.Has: _has,
    ast.Where: _where,
    ast.ListExpr: _list,
    ast.Conditional: conditional,
}
