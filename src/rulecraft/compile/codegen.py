"""Expressions compiled to Python source: a first step of issue 11's code generator.

The compiler turns every expression into a tree of closures, one Python call per node.  For
the expressions legal-move generation runs hundreds of times a decision (``spaces where
open(it)``: a user ``define`` on each of 42 spaces) that costs more than the rules
themselves.  :func:`plan` writes such an expression as the source of *one* Python function
instead:

* a ``define`` called with arguments is inlined (its parameters become Python variables; no
  dictionary of locals, no ``try``/``finally``), unless it calls itself;
* ``where`` becomes a list comprehension whose ``it`` is a Python variable;
* a part of a ``where``'s condition that reads nothing that changes from item to item
  (``p.mp + p.bonus * vehicle_of(p).speed`` in ``neighbors where it.cost <= ...``) is
  worked out once for the whole ``where``, where the first item needs it (not before: an
  empty collection, or ``and`` stopping first, works out nothing, as the closures do);
* ``A if C else B`` becomes Python's conditional (only the chosen branch runs);
* ``any(X where C)``, ``count(X where C) == 0`` and their kin stop at the first item kept
  (also through a ``define`` whose body is the ``where``: ``any(next_spaces(you))``);
* operators, ``has``, ``empty()``, ``count()``, ``x``/``y`` of map spaces, an item of a
  list (``[u.short, u.medium, u.long][d]``) and the other built-ins call their run-time
  helpers directly;
* constants (numbers, texts, component definitions, symbols, shared zones) are folded in;
* what the generator knows of a value's sort is used: ``it`` of a ``where`` over the map's
  spaces is a space, so ``it.y`` reads the map's table and ``empty(it)`` the space's pile
  with no run-time test of what ``it`` is; comparisons and ``not`` give bools, which
  ``and``/``or`` take as they are; numbers are added and compared without ``_add``/``_num``;
* a part that depends on such a space alone (``it.y == 5``, ``space_at(it.x, it.y + 1)``,
  also through an inlined ``define``'s parameter) is worked out for every space when the
  ruleset compiles, and looked up in that table where it runs (the map has no tiles, so
  its coordinates never change).

Anything else (a node outside this subset) is compiled by the closure compiler as before
and called from the generated code, provided it does not read a variable the generated code
keeps in Python (``it`` of a generated ``where``, an inlined parameter); if it does, nothing
is generated for the whole expression and its closures run.  Each generated node does
exactly what the closure compiler's node does (same helpers, same order of evaluation for
values that matter), so the same seed and choices give the same game: the record hashes of
``tests/engine/test_record_hashes.py`` guard it.  The generated source stays readable (one
line per expression) and is kept on the function as ``__rulecraft_source__``.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from rulecraft.compile.fields import static_kind
from rulecraft.errors import RuleError
from rulecraft.language import ast
from rulecraft.runtime import engine as E
from rulecraft.runtime import ids
from rulecraft.runtime import map as spatial
from rulecraft.runtime.builtins import (
    BUILTINS,
    FIELD_READERS,
    get_field,
    index_value,
    is_empty,
    is_own_field,
    multiply,
    own_field,
)
from rulecraft.runtime.incremental import kept_mask, kept_spaces
from rulecraft.runtime.instructions import _amount
from rulecraft.runtime.values import as_int, divide, modulo

if TYPE_CHECKING:
    from rulecraft.compile.aot import Factory
    from rulecraft.compile.compiler import Compiler, Scope

ExprFn = Callable[[E.Ctx], Any]

#: The node types worth generating (a lone name or constant gains nothing).
GENERATED_ROOTS = (ast.Where, ast.Call, ast.Binary, ast.Unary, ast.Has, ast.Conditional)
#: The nodes that may be worked out once for every space (:meth:`_Generator.tabulated`), and
#: the operators such a node may hold.
_TABLE_ROOTS = (ast.Attr, ast.Binary, ast.Unary, ast.Call)
_STATIC_OPERATORS = frozenset({"+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "and", "or"})
#: A name of generated code that reads the game (the context, the locals, the piles).
_READS_STATE = re.compile(r"\b(ctx|loc|_zones)\b")
#: Fewer generated nodes than this: the closures are as fast, compiling source is not free.
MIN_NODES = 4

#: Names the closure compiler resolves at run time without reading locals.
_RUNTIME_NAMES = frozenset(
    {"active", "start_player", "players", "opponents", "opponent", "game", "round", "turn"}
)
_COMPARE = {"==": "==", "!=": "!="}
#: The generated code's name for the state's zones (read once per call, when used).
ZONES = "_zones"
#: The locals nothing rebinds while an expression is worked out, and the Python variables
#: the generated code reads them into once, at its start (:func:`plan`): a condition that
#: asks five things of ``this`` looks it up once, and an argument ``this`` of an inlined
#: definition stands for its parameter as it is.
FIXED_LOCALS: Final = {"this": "_this", "you": "_you"}
#: What the generator knows of a generated value's sort (:attr:`_Generator.sorts`): a
#: Python ``bool``, an ``int``, one of the map's space ids, a space id or ``None``.
BOOL, INT, SPACE, SPACE_OR_NONE = "bool", "int", "space", "space?"
_ORDER = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}


class GiveUp(Exception):
    """The expression is outside the generated subset: its closures run."""


@dataclass(frozen=True)
class Env:
    """What names mean where a node is generated: Python variables of the generated code
    (``it`` of a generated ``where``, inlined parameters), names read from ``ctx.loc``,
    and the closure compiler's scope for a fallback."""

    pyvars: dict[str, str]
    loc_names: frozenset[str]
    scope: Scope


@dataclass
class Plan:
    """One expression as Python source, with the values and fallbacks it refers to."""

    source: str
    consts: dict[str, Any] = field(default_factory=dict)
    fallbacks: list[tuple[str, ast.Expr, Scope]] = field(default_factory=list)
    nodes: int = 0


@dataclass
class _Loop:
    """A ``where`` whose condition is being written: the Python variables that change from
    item to item (its ``it``, a parameter bound to something that does), and the variables
    of the parts worked out once for the whole ``where`` (:meth:`_Generator.hoisted`)."""

    varying: set[str]
    once: list[str] = field(default_factory=list)


#: The generated code's mark for a part of a ``where``'s condition not yet worked out.
_UNSET: Final = object()
#: The nodes worth working out once for a whole ``where`` (a name or constant costs no less
#: than the test of whether it was).
_HOISTED_NODES = (
    ast.Attr, ast.Call, ast.Binary, ast.Unary, ast.Has, ast.Where, ast.Conditional,
    ast.ListExpr, ast.Index,
)  # fmt: skip


def plan(compiler: Compiler, e: ast.Expr, scope: Scope) -> Plan | None:
    """The generated source of ``e`` compiled in ``scope``, or ``None`` outside the subset.
    Pure: nothing is compiled and the compiler's tables are not touched."""
    gen = _Generator(compiler)
    env = Env({}, frozenset(scope.locals | {"you", "this"}), scope)
    try:
        body = gen.expr(e, env)
    except GiveUp:
        return None
    if gen.nodes < MIN_NODES:
        return None
    zones = f"    {ZONES} = ctx.st['zones']\n" if ZONES in body else ""
    # this and you read once (nothing rebinds them while an expression is worked out)
    fixed = "".join(
        f"    {var} = loc.get({n!r})\n"
        for n, var in FIXED_LOCALS.items()
        if re.search(rf"\b{var}\b", body)
    )
    source = f"def _generated(ctx):\n    loc = ctx.loc\n{zones}{fixed}    return {body}\n"
    return Plan(source, gen.consts, gen.fallbacks, gen.nodes)


@dataclass(frozen=True)
class SpacesWhere:
    """``spaces where C`` as the generator writes it: ``C``'s source with the space as the
    Python variable ``var``, the constants it refers to, and the constant holding the
    spaces (:mod:`rulecraft.compile.incremental` reads it)."""

    var: str
    condition: str
    consts: dict[str, Any]
    spaces: tuple[str, ...]
    fallbacks: int  #: parts left to the closure compiler (called from the code)


def spaces_where(compiler: Compiler, e: ast.Expr, scope: Scope) -> SpacesWhere | None:
    """``e`` when it is a ``where`` over the map's own spaces, written out; else ``None``.
    Pure, as :func:`plan` is."""
    if not isinstance(e, ast.Where):
        return None
    gen = _Generator(compiler)
    env = Env({}, frozenset(scope.locals | {"you", "this"}), scope)
    if not gen.over_spaces(e, env):
        return None
    try:
        var, items, condition, _ = gen.where_parts(e, env, hoist=False)
    except GiveUp:
        return None
    return SpacesWhere(var, condition, gen.consts, tuple(gen.consts[items]), len(gen.fallbacks))


#: While :func:`rulecraft.compile.aot.record` runs: every plan built, by its source.
RECORDING: dict[str, Plan] | None = None


def build(compiler: Compiler, p: Plan) -> ExprFn:
    """The function of a plan: its fallbacks compiled (silently: the closure compiler has
    already reported on the whole expression), then the same source compiled ahead of time
    when the compiled tree has it (:mod:`rulecraft.compile.aot`), else compiled and run."""
    values: dict[str, Any] = dict(p.consts)
    for name, sub, scope in p.fallbacks:
        values[name] = compiler.silent_expr(sub, scope)
    return build_plan(p, values)


def build_plan(p: Plan, values: dict[str, Any] | None = None) -> ExprFn:
    """The function of a plan whose fallbacks are compiled (``values``, by default its
    constants): the compiled tree's copy of the same source (:mod:`aot`), else its source
    compiled and run.  Also a routine's (:mod:`routine_code`)."""
    from rulecraft.compile import aot  # (aot imports this module)

    if RECORDING is not None:
        RECORDING.setdefault(p.source, p)
    if values is None:
        values = dict(p.consts)
    made = aot.factory_for(p.source)
    fn = _function_of(p, values, made)
    _PLANS[id(fn)] = (fn, p, values)
    while len(_PLANS) > PLANS_KEPT:
        del _PLANS[next(iter(_PLANS))]
    return fn


def _function_of(p: Plan, values: dict[str, Any], made: Factory | None) -> ExprFn:
    fn: ExprFn
    if made is not None:
        factory, names = made
        try:
            fn = factory(*(values[n] for n in names))
        except TypeError:  # a constant of another type than recorded (aot._param_type)
            pass
        else:
            return fn
    namespace = _helpers()
    namespace.update(values)
    # The source is this module's own: every name and text of the ruleset in it is a repr().
    exec(compile(p.source, "<rulecraft generated>", "exec"), namespace)
    fn = namespace["_generated"]
    fn.__rulecraft_source__ = p.source  # type: ignore[attr-defined]
    return fn


#: The plan of each function built, and the values it was built with, by ``id`` (each kept
#: with its function, so no id is reused while it is here; the oldest go first): a
#: generated routine writes a generated expression's source in place (routine_code.py).
_PLANS: dict[int, tuple[ExprFn, Plan, dict[str, Any]]] = {}
PLANS_KEPT = 20000


def plan_of(fn: Any) -> tuple[Plan, dict[str, Any]] | None:
    """The plan ``fn`` was built from and the values of its names, or ``None``."""
    kept = _PLANS.get(id(fn))
    return (kept[1], kept[2]) if kept is not None and kept[0] is fn else None


def source_of(fn: Any) -> str | None:
    """The generated source of ``fn`` (``rulecraft compile --show`` prints it), or ``None``
    for a function not generated."""
    source = getattr(fn, "__rulecraft_source__", None)
    if isinstance(source, str):
        return source
    found = plan_of(fn)
    return found[0].source if found is not None else None


# ---------------------------------------------------------------------------- run-time helpers
# Each does what the closure compiler's node of the same name does (compiler.py).


def _coord(ctx: E.Ctx, o: Any, axis: int, name: str) -> Any:
    if ids.is_space(o) and ctx.prog.map is not None:
        return spatial.current_map(ctx).coords[ids.space_name(o)][axis]
    return get_field(ctx, o, name)


def names_a_flag(word: str, locals_: Iterable[str]) -> bool:
    """In ``X has WORD``, does ``WORD`` stand for a flag's name held by a variable (a
    definition's parameter, a ``let``, a loop variable) rather than for the flag ``WORD``?"""
    return word not in ("you", "this") and word in locals_


def has_named_flag(ctx: E.Ctx, subject: Any, flag: Any, variable: str) -> bool:
    """``X has t`` where the variable ``t`` holds the flag's name."""
    if type(flag) is not str:
        shown = E.public_text(ctx, flag)
        raise RuleError(f"'has {variable}' needs the name of a flag in {variable}, not {shown}")
    return E.has_flag(ctx, subject, flag)


def _helpers() -> dict[str, Any]:
    from rulecraft.compile.compiler import _add, _num  # compiler.py imports this module

    return {
        "_add": _add,
        # int() as a compiled function: in the compiled copy (aot), int() of a value of
        # no known type is a call of the type
        "_int": as_int,
        "_num": _num,
        "_empty": is_empty,
        "_coord": _coord,
        "_divide": divide,
        "_modulo": modulo,
        "multiply": multiply,
        "get_field": get_field,
        "own_field": own_field,
        "index_value": index_value,
        "has_flag": E.has_flag,
        "has_named_flag": has_named_flag,
        "as_list": E.as_list,
        "walked": E.walked,
        "seat_of": E.seat_of,
        "_kept_spaces": kept_spaces,
        "_kept_mask": kept_mask,
        "_UNSET": _UNSET,
        # a generated routine's (routine_code.py)
        "_amount": _amount,
        "_endless": E.endless,
        **{f"_read_{field}": reader for field, reader in FIELD_READERS.items()},
    }


# ---------------------------------------------------------------------------- the generator
class _Generator:
    """Writes one expression as Python source (see the module text)."""

    def __init__(self, compiler: Compiler) -> None:
        self.c = compiler
        self.consts: dict[str, Any] = {}
        self.fallbacks: list[tuple[str, ast.Expr, Scope]] = []
        self.counter = itertools.count()
        self.inlining: list[str] = []
        self.nodes = 0
        #: Generated code -> the sort of its value, where the generator knows it (a ``where``
        #: over the map's spaces binds a space; a comparison is a bool).  The same code
        #: always means the same value, so the code itself is the key.  Known sorts let the
        #: code skip the run-time tests of the general case (``type(v) is str and ...``).
        self.sorts: dict[str, str] = {}
        #: The constants that hold the map's spaces (a ``where`` over one binds spaces).
        self.spaces_consts: set[str] = set()
        #: The Python variables that walk a constant list of the map's spaces (a map
        #: without tiles: its coordinates never change), and the constant each walks.
        self.space_vars: dict[str, str] = {}
        #: Set while a node is written for :meth:`tabulated` (its parts are not tabled).
        self.tabulating = False
        #: The constants of :meth:`seat_table`, by what they tell.
        self.seat_tables: dict[str, str] = {}
        #: The ``where`` whose condition is being written (the innermost), if any.
        self.loop: _Loop | None = None
        #: :meth:`varies`'s answers, by node and the names that change.
        self.variance: dict[tuple[int, frozenset[str]], bool] = {}

    def sorted_as(self, code: str, sort: str | None) -> str:
        """``code``, noted as being of ``sort`` (nothing noted for ``None``)."""
        if sort is not None:
            self.sorts[code] = sort
        return code

    def sort(self, code: str) -> str | None:
        return self.sorts.get(code)

    def fresh(self, stem: str) -> str:
        return f"_{stem}{next(self.counter)}"

    def once(self, code: str) -> tuple[str, str]:
        """``code`` used more than once, evaluated once: (its first use, which binds a
        variable, and the later uses).  An atom is used as it is."""
        if _is_atom(code):
            return code, code
        var = self.fresh("t")
        return f"({var} := {code})", var

    def const(self, value: Any) -> str:
        if value is None or type(value) in (bool, int, str):
            sort = {bool: BOOL, int: INT}.get(type(value))
            return self.sorted_as(f"({value!r})", sort)
        name = self.fresh("k")
        self.consts[name] = value
        return name

    def seat_table(self, what: str, value: Callable[[int], Any]) -> str:
        """A constant table of ``value(seat)`` by every player's id the state may hold
        (one constant for each ``what`` of an expression)."""
        name = self.seat_tables.get(what)
        if name is None:
            name = self.seat_tables[what] = self.const(ids.by_player(value))
        return name

    def fallback(self, e: ast.Expr, env: Env) -> str:
        """``e`` compiled by the closure compiler, called from the generated code; only if
        it reads none of the generated code's Python variables."""
        if env.pyvars and _reads_any(e, set(env.pyvars)):
            raise GiveUp
        name = self.fresh("f")
        self.fallbacks.append((name, e, env.scope))
        return f"{name}(ctx)"

    # ------------------------------------------------------------------ nodes
    def expr(self, e: ast.Expr, env: Env) -> str:
        if self.space_vars and not self.tabulating and isinstance(e, _TABLE_ROOTS):
            var = self.static_in(e, env)
            if var is not None:
                return self.tabulated(e, env, var)
        loop = self.loop
        if loop is not None and not self.tabulating and isinstance(e, _HOISTED_NODES):
            varying = frozenset(n for n, var in env.pyvars.items() if var in loop.varying)
            if not self.varies(e, varying):
                return self.hoisted(e, env, loop)
        return self.plain(e, env)

    # ------------------------------------------------------------------ loop invariants
    def hoisted(self, e: ast.Expr, env: Env, loop: _Loop) -> str:
        """``e``, which reads nothing that changes from item to item of the ``where``
        ``loop``, worked out once for the whole ``where``: by the first item that needs it,
        where the closures would first work it out (so an error, if any, comes from the
        same place), and taken as it is by the items after.  Expressions change nothing,
        so the value is what each item would have worked out again."""
        self.loop = None  # worked out as a whole: nothing inside it is hoisted again
        try:
            code = self.plain(e, env)
        finally:
            self.loop = loop
        if not _READS_STATE.search(code):
            return code  # constants: nothing to save
        var = self.fresh("h")
        loop.once.append(var)
        return self.sorted_as(
            f"({var} if {var} is not _UNSET else ({var} := {code}))", self.sort(code)
        )

    def varies(self, e: ast.Expr, varying: frozenset[str], calling: tuple[str, ...] = ()) -> bool:
        """Might ``e``'s value change when the names ``varying`` do (a ``where``'s ``it``,
        a parameter given something that reads it)?  When unsure: yes."""
        if not varying:
            return False
        key = (id(e), varying)
        found = self.variance.get(key)
        if found is None:
            found = self.variance[key] = self._varies(e, varying, calling)
        return found

    def _varies(self, e: ast.Expr, varying: frozenset[str], calling: tuple[str, ...]) -> bool:
        if isinstance(e, ast.Name):
            return e.name in varying
        if isinstance(e, ast.TextLit):
            return _reads_any(e, set(varying))  # an interpolated text: unsure
        if isinstance(e, ast.Has) and e.flag in varying:
            return True
        if isinstance(e, ast.Where):  # its own 'it' is not the one that changes
            return self.varies(e.collection, varying, calling) or self.varies(
                e.condition, varying - {"it"}, calling
            )
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            d = self.c.defines.get(e.func.name)
            if d is not None and e.func.name not in varying:
                if e.func.name in calling or len(d.params) != len(e.args):
                    return True  # (a recursive definition is not inlined: unsure)
                given = frozenset(
                    p
                    for p, a in zip(d.params, e.args, strict=True)
                    if self.varies(a, varying, calling)
                )
                return self.varies(d.expr, given, (*calling, e.func.name))
        return any(self.varies(part, varying, calling) for part in _parts(e))

    def plain(self, e: ast.Expr, env: Env) -> str:
        """``e``'s code, computed where it runs."""
        if isinstance(e, ast.Const):
            return self.const(e.value)
        if isinstance(e, ast.TextLit):
            text = e.text
            if "{" in text.default or any("{" in t for _, t in text.translations):
                return self.fallback(e, env)
            return self.const(text.default if not text.translations else text.as_dict())
        self.nodes += 1
        if isinstance(e, ast.Name):
            return self.name(e, env)
        if isinstance(e, ast.Attr):
            return self.attr(e, env)
        if isinstance(e, ast.Call):
            return self.call(e, env)
        if isinstance(e, ast.Unary):
            inner = self.expr(e.operand, env)
            if e.op == "-":
                return self.sorted_as(f"(-_int({inner}))", INT)
            return self.sorted_as(f"(not {inner})", BOOL)
        if isinstance(e, ast.Binary):
            return self.binary(e, env)
        if isinstance(e, ast.Has):
            return self.has(e, env)
        if isinstance(e, ast.Where):
            return self.where(e, env)
        if isinstance(e, ast.ListExpr):
            return "[" + "".join(self.expr(x, env) + ", " for x in e.items) + "]"
        if isinstance(e, ast.Index):  # the list (or value) first, then the key, as the closure
            return f"index_value(ctx, {self.expr(e.obj, env)}, {self.expr(e.key, env)})"
        if isinstance(e, ast.Conditional):
            # the condition first, as the closure does; a name bound by ':=' in one branch
            # is used only inside that branch
            then = self.expr(e.then, env)
            condition = self.expr(e.condition, env)
            otherwise = self.expr(e.otherwise, env)
            same = self.sort(then) if self.sort(then) == self.sort(otherwise) else None
            return self.sorted_as(f"({then} if {condition} else {otherwise})", same)
        return self.fallback(e, env)

    # ------------------------------------------------------------------ tables
    def static_in(self, e: ast.Expr, env: Env) -> str | None:
        """The space variable ``e`` depends on, when it depends on nothing else but
        constants and the map's fixed coordinates (``it.y == 5``, ``space_at(it.x, it.y +
        1)``): its value for each space can be worked out once, here."""
        found = self._static_vars(e, env)
        return found.pop() if found is not None and len(found) == 1 else None

    def _static_vars(self, e: ast.Expr, env: Env) -> set[str] | None:
        """The space variables ``e`` reads, or ``None`` when it reads anything else."""
        parts: tuple[ast.Expr, ...]
        if isinstance(e, ast.Const):
            return set()
        if isinstance(e, ast.Name):
            var = env.pyvars.get(e.name)
            return {var} if var in self.space_vars else None
        if isinstance(e, ast.Attr) and e.field in ("x", "y"):
            parts = (e.obj,)
        elif isinstance(e, ast.Unary):
            parts = (e.operand,)
        elif isinstance(e, ast.Binary) and e.op in _STATIC_OPERATORS:
            parts = (e.left, e.right)
        elif (
            isinstance(e, ast.Call)
            and isinstance(e.func, ast.Name)
            and e.func.name == "space_at"
            and e.func.name not in self.c.defines
        ):
            parts = e.args
        else:
            return None
        found: set[str] = set()
        for part in parts:
            got = self._static_vars(part, env)
            if got is None:
                return None
            found |= got
        return found

    def tabulated(self, e: ast.Expr, env: Env, var: str) -> str:
        """``e`` (see :meth:`static_in`) as a lookup in a table of its value for each
        space ``var`` walks, worked out now; its own code when working it out fails (the
        failure then happens where it did, at run time) or gives a value to copy."""
        self.tabulating = True
        try:
            code = self.plain(e, env)
        finally:
            self.tabulating = False
        if _READS_STATE.search(code):
            return code
        namespace = {**_helpers(), **self.consts}
        try:
            fn = eval(compile(f"lambda {var}: {code}", "<rulecraft table>", "eval"), namespace)
            table = {space: fn(space) for space in self.consts[self.space_vars[var]]}
        except Exception:  # any failure: left to run time, where it happened before
            return code
        values = set(map(type, table.values()))
        if not values <= {bool, int, str, type(None)}:
            return code
        sort = {frozenset({bool}): BOOL, frozenset({int}): INT}.get(frozenset(values))
        if values <= {str, type(None)} and set(table.values()) - {None} <= self.all_spaces():
            sort = SPACE_OR_NONE
        return self.sorted_as(f"{self.const(table)}[{var}]", sort)

    def all_spaces(self) -> set[str]:
        assert self.c.map is not None
        return {ids.space_id(s) for s in self.c.map.spaces}

    def has(self, e: ast.Has, env: Env) -> str:
        obj = self.expr(e.obj, env)
        flag = e.flag
        if flag in env.pyvars:  # an inlined parameter names the flag
            return f"has_named_flag(ctx, {obj}, {env.pyvars[flag]}, {flag!r})"
        if names_a_flag(flag, env.loc_names):
            return f"has_named_flag(ctx, {obj}, loc.get({flag!r}), {flag!r})"
        return self.sorted_as(f"has_flag(ctx, {obj}, {flag!r})", BOOL)

    def name(self, e: ast.Name, env: Env) -> str:
        n = e.name
        if n in env.pyvars:
            return env.pyvars[n]
        if n in FIXED_LOCALS:
            return FIXED_LOCALS[n]
        if n in env.loc_names or n == "it":
            return f"loc.get({n!r})"
        c = self.c
        if n in _RUNTIME_NAMES or n == "amount":
            return self.fallback(e, env)
        if n == "spaces":
            if c.map is None:
                raise GiveUp
            return f"{self.const([ids.space_id(s) for s in c.map.spaces])}.copy()"
        if n in c.zones:
            if c.zones[n].per_player:
                # the player's pile from a table of every seat's (no text is built)
                first, you = self.once("loc['you']")
                keys = self.seat_table(n, lambda seat: ids.zone_key(n, seat))
                stem = ids.zone_key_stem(n)
                return f"({keys}.get({first}) or ({stem!r} + str(seat_of({you}))))"
            return self.const(ids.zone_key(n))
        if n in c.resources:
            return self.fallback(e, env)
        if n in c.defines:
            if c.defines[n].params:
                raise GiveUp
            # A definition without parameters runs on the caller's locals (as its closure).
            return self.inline(n, [], env)
        if n in c.comps:
            return self.const(ids.def_id(n))
        if n in c.symbols or n in c.flags_set:
            return self.const(n)
        raise GiveUp

    def attr(self, e: ast.Attr, env: Env) -> str:
        f = e.field
        kind = static_kind(e.obj, set(env.pyvars) | env.loc_names)
        if kind == "game":
            if f in ("round", "turn"):
                return f"ctx.st[{f!r}]"
            fspec = self.c.fields.get(f)
            default = fspec.default if fspec is not None else 0
            return f"ctx.st['gvars'].get({f!r}, {self.const(default)})"
        obj = self.expr(e.obj, env)
        if f in ("x", "y"):
            axis = 0 if f == "x" else 1
            if self.c.map is not None and self.sort(obj) == SPACE and not self.c.map.tiles:
                # a space of this map: its coordinates straight from the table
                coords = self.const({ids.space_id(k): v for k, v in self.c.map.coords.items()})
                return self.sorted_as(f"{coords}[{obj}][{axis}]", INT)
            if self.c.map is not None:
                # a space's coordinates straight from a table of the map ("s:id" -> (x, y))
                coords = self.const({ids.space_id(k): v for k, v in self.c.map.coords.items()})
                first, o = self.once(obj)
                return (
                    f"({coords}[{o}][{axis}] if type({first}) is str and {o} in {coords} "
                    f"else _coord(ctx, {o}, {axis}, {f!r}))"
                )
            return f"_coord(ctx, {obj}, {axis}, {f!r})"
        zone = self.c.zones.get(f)
        if zone is not None or f in self.c.resources:
            # A player's zone or resource (you.hand, opponent.water): read in place when the
            # value is a player ("@1"), as player_field does, from a table of every seat's
            # pile or number (no id cut apart, no text built); anything else as before.
            first, o = self.once(obj)
            if zone is not None and not zone.per_player:
                fast = self.const(ids.zone_key(f))
                test = f"type({first}) is str and {o}[:{len(ids.PLAYER)}] == {ids.PLAYER!r}"
                return f"({fast} if {test} else get_field(ctx, {o}, {f!r}))"
            if zone is not None:  # a key is never empty: a miss alone falls through
                keys = self.seat_table(f, lambda seat: ids.zone_key(f, seat))
                found = f"({keys}.get({o}) if type({first}) is str else None)"
                return f"({found} or get_field(ctx, {o}, {f!r}))"
            seats = self.seat_table("", lambda seat: seat)
            seat = self.fresh("s")
            test = f"type({first}) is str and ({seat} := {seats}.get({o})) is not None"
            fast = f"_int(ctx.st['res'][{seat}].get({f!r}, 0))"
            return f"({fast} if {test} else get_field(ctx, {o}, {f!r}))"
        if f in FIELD_READERS:  # (kind, controller, zone...): a reader of its own
            return f"_read_{f}(ctx, {obj})"
        if is_own_field(f):
            return f"own_field(ctx, {obj}, {f!r})"
        return f"get_field(ctx, {obj}, {f!r})"

    def call(self, e: ast.Call, env: Env) -> str:
        if not isinstance(e.func, ast.Name):
            raise GiveUp
        n = e.func.name
        c = self.c
        if n in ("map", "chance", "every", "flatten") and n not in c.defines:
            return self.fallback(e, env)
        if n in c.defines:
            if len(c.defines[n].params) != len(e.args):
                raise GiveUp
            return self.inline(n, [self.expr(a, env) for a in e.args], env)
        if n not in BUILTINS:
            raise GiveUp
        fn, lo, hi = BUILTINS[n]
        if not lo <= len(e.args) <= hi:
            raise GiveUp
        if n == "any" and len(e.args) == 1:
            # is any item kept? (as count(...) > 0: it stops at the first one kept)
            found = self.any_kept(e.args[0], env)
            if found is not None:
                return found
        if n == "count" and len(e.args) == 1 and isinstance(e.args[0], ast.Where):
            kept = self.kept(e.args[0], env)
            if kept is not None:  # the bits of the remembered mask: no list is built
                return self.sorted_as(f"_kept_mask(ctx, {kept}).bit_count()", INT)
        args = [self.expr(a, env) for a in e.args]
        if n == "empty" and len(args) == 1 and self.sort(args[0]) in (SPACE, SPACE_OR_NONE):
            # a space's pile (no pile for None: empty, as _empty says of nothing)
            return self.sorted_as(f"(not {ZONES}.get({args[0]}))", BOOL)
        if n == "empty" and len(args) == 1:
            return self.emptiness(args[0])
        if n == "space_at" and self.c.map is not None and not self.c.map.tiles:
            # spatial.space_at without its argument list: the map's table of coordinates
            spaces = self.const({xy: ids.space_id(sid) for xy, sid in self.c.map.by_coord.items()})
            x, y = (a if self.sort(a) == INT else f"_int({a})" for a in args)
            return self.sorted_as(f"{spaces}.get(({x}, {y}))", SPACE_OR_NONE)
        if n == "count" and len(args) == 1:
            return self.sorted_as(f"len(walked(ctx, {args[0]}))", INT)
        return f"{self.const(fn)}(ctx, [{', '.join(args)}])"

    def emptiness(self, code: str) -> str:
        """``empty(code)``: a zone's or a space's pile read in place (:func:`ids.is_place`
        spelt a character at a time), anything else as ``_empty`` (a definition: its
        copies, as ``count`` has them; a one-character text: a value like any other)."""
        if code.isidentifier():
            first = v = code
        else:  # a literal too goes through a variable: `None[1]` would warn as it compiles
            v = self.fresh("t")
            first = f"({v} := {code})"
        at = ids.NAME_MARK_AT
        place = (
            f"type({first}) is str and len({v}) > {at} and {v}[{at}] == {ids.NAME_MARK!r}"
            f" and {v}[0] in ({ids.ZONE_HEAD!r}, {ids.SPACE_HEAD!r})"
        )
        return f"((not ctx.st['zones'].get({v})) if {place} else _empty(ctx, {v}))"

    def any_kept(self, e: ast.Expr, env: Env) -> str | None:
        """``any(e)`` that stops at the first item kept, when ``e`` is a ``where`` or a call
        of a ``define`` whose body is one (``any(next_spaces(you))``); else ``None``."""
        if isinstance(e, ast.Where):
            return self.any_where(e, env)
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name)):
            return None
        d = self.c.defines.get(e.func.name)
        if d is None or not isinstance(d.expr, ast.Where) or len(d.params) != len(e.args):
            return None
        self.nodes += 1  # (the define's call, and the where it stands for)
        args = [self.expr(a, env) for a in e.args]
        return self.inline(e.func.name, args, env, as_any=True)

    def inline(self, n: str, args: list[str], env: Env, as_any: bool = False) -> str:
        """A definition's body in place of its call: parameters are Python variables bound
        to the arguments (evaluated once, in order, before the body, as the call does).
        With ``as_any`` the body is a ``where`` and only whether it keeps an item is
        wanted (:meth:`any_kept`)."""
        if n in self.inlining:
            raise GiveUp  # it calls itself: inlining would not end
        d = self.c.defines[n]
        from rulecraft.compile.compiler import Scope

        # An argument that is a Python variable (this and you are: FIXED_LOCALS) or a
        # constant stands for its parameter as it is; any other is bound once, by ':='
        # before the body.
        bound = [a if _is_atom(a) else None for a in args]
        params = [a if a is not None else self.fresh("p") for a in bound]
        loop = self.loop
        if loop is not None:  # a parameter bound to what changes item by item changes too
            for param, arg, kept in zip(params, args, bound, strict=True):
                if kept is None and not loop.varying.isdisjoint(_IDENTIFIER.findall(arg)):
                    loop.varying.add(param)
        body_env = Env(
            dict(zip(d.params, params, strict=True)),
            frozenset({"you", "this"}),
            Scope(set(d.params) | {"you", "this"}, True),
        )
        self.inlining.append(n)
        try:
            if as_any:
                assert isinstance(d.expr, ast.Where)
                body = self.any_where(d.expr, body_env)
            else:
                body = self.expr(d.expr, body_env)
        finally:
            self.inlining.pop()
        bindings = [
            f"({p} := {a}), " for p, a, b in zip(params, args, bound, strict=True) if b is None
        ]
        if not bindings:
            return body
        # Bound by ':=' in a tuple whose last item is the body: no function is made and
        # called at each evaluation, as a lambda would be.
        return f"({''.join(bindings)}{body})[-1]"

    def binary(self, e: ast.Binary, env: Env) -> str:
        op = e.op
        emptiness = _counted_against_zero(e)
        if emptiness is not None:
            self.nodes += 1  # the count() this replaces
            found = self.any_where(emptiness[0], env)
            return found if emptiness[1] else self.sorted_as(f"(not {found})", BOOL)
        left = self.expr(e.left, env)
        right = self.expr(e.right, env)
        if op in ("and", "or"):
            # a bool stands as it is; anything else is made one (the closure's bool())
            a, b = (x if self.sort(x) == BOOL else f"(not not {x})" for x in (left, right))
            return self.sorted_as(f"({a} {op} {b})", BOOL)
        if op in _COMPARE:
            return self.sorted_as(f"({left} {op} {right})", BOOL)
        if op in _ORDER:
            a, b = self.number(left, e.left), self.number(right, e.right)
            return self.sorted_as(f"({a} {op} {b})", BOOL)
        if op == "+":
            if self.sort(left) == INT and self.sort(right) == INT:
                return self.sorted_as(f"({left} + {right})", INT)
            return self.add(left, right, e)
        if op == "-":
            return f"({left} - {right})"
        if op == "*":
            return f"multiply({left}, {right})"
        if op == "/":
            return f"_divide({left}, {right})"
        if op == "%":
            return f"_modulo({left}, {right})"
        if op == "in":
            return f"({left} in walked(ctx, {right}))"
        raise GiveUp

    def where(self, e: ast.Where, env: Env) -> str:
        kept = self.kept(e, env)
        if kept is not None:
            return f"_kept_spaces(ctx, {kept})"
        if self.closure_where(e, env):
            return self.fallback(e, env)  # the closure compiler's fast path
        var, items, cond, once = self.where_parts(e, env)
        if ":=" not in items and not once:
            return f"[{var} for {var} in {items} if {cond}]"
        # Python refuses ':=' in a comprehension's iterable: bind the items first
        given = self.fresh("items") if ":=" in items else items
        bind = f"({given} := {items}), " if given != items else ""
        return f"({bind}{_unset(once)}[{var} for {var} in {given} if {cond}])[-1]"

    def any_where(self, e: ast.Where, env: Env) -> str:
        """Is any item of the ``where`` kept?  Stops at the first (``count(...) == 0``)."""
        kept = self.kept(e, env)
        if kept is not None:
            return self.sorted_as(f"(_kept_mask(ctx, {kept}) != 0)", BOOL)
        if self.closure_where(e, env):
            return self.sorted_as(f"(not not {self.fallback(e, env)})", BOOL)
        var, items, cond, once = self.where_parts(e, env)
        if ":=" not in items and not once:
            return self.sorted_as(f"any({cond} for {var} in {items})", BOOL)
        given = self.fresh("items") if ":=" in items else items
        bind = f"({given} := {items}), " if given != items else ""
        found = f"({bind}{_unset(once)}any({cond} for {var} in {given}))[-1]"
        return self.sorted_as(found, BOOL)

    def kept(self, e: ast.Where, env: Env) -> str | None:
        """The constant holding ``e`` kept up to date as pieces move (the run-time side
        remembers its spaces: :mod:`rulecraft.runtime.incremental`), when it can be: a
        ``where`` over the spaces of a map without tiles whose condition reads nothing but
        the piles of spaces fixed by the space (:mod:`rulecraft.compile.incremental`)."""
        if not self.over_spaces(e, env) or self.c.map is None or self.c.map.tiles:
            return None
        from rulecraft.compile import incremental  # (it imports this module)

        found = incremental.kept_where(self.c, e, env.scope)
        if found is None:
            return None
        self.nodes += MIN_NODES  # (always worth generating: it stands for a walk of the map)
        return self.const(found)

    def over_spaces(self, e: ast.Where, env: Env) -> bool:
        """Does the ``where`` walk the map's own spaces (the name ``spaces``)?"""
        coll = e.collection
        return (
            isinstance(coll, ast.Name)
            and coll.name == "spaces"
            and coll.name not in env.pyvars
            and coll.name not in env.loc_names
            and self.c.map is not None
        )

    def closure_where(self, e: ast.Where, env: Env) -> bool:
        """Is the ``where`` ``X where empty(it)`` (or ``not empty(it)``) over anything but
        the map's spaces?  The closure compiler has a fast path of its own for those."""
        from rulecraft.compile.compiler import _emptiness_test

        return _emptiness_test(e.condition) is not None and not self.over_spaces(e, env)

    def where_parts(
        self, e: ast.Where, env: Env, hoist: bool = True
    ) -> tuple[str, str, str, list[str]]:
        """A ``where``'s variable, the code of its items and of its condition, and the
        variables of the condition's parts worked out once for the whole ``where`` (none
        without ``hoist``), which its code must set to ``_UNSET`` first."""
        if self.over_spaces(e, env):
            assert self.c.map is not None
            # as_list of the list of spaces is that list: walk a constant tuple instead
            items = self.const(tuple(ids.space_id(s) for s in self.c.map.spaces))
            self.spaces_consts.add(items)
        else:
            # (only walked: a pile is not copied)
            items = f"walked(ctx, {self.expr(e.collection, env)})"
        var = self.fresh("it")
        if items in self.spaces_consts:
            self.sorts[var] = SPACE  # it walks the map's own spaces
            if self.c.map is not None and not self.c.map.tiles:
                self.space_vars[var] = items
        inner = Env({**env.pyvars, "it": var}, env.loc_names, env.scope.child("it"))
        outer = self.loop
        loop = self.loop = _Loop({var}) if hoist else None
        try:
            cond = self.expr(e.condition, inner)
        finally:
            self.loop = outer
        return var, items, cond, [] if loop is None else loop.once

    def add(self, left: str, right: str, e: ast.Binary) -> str:
        """``_add`` with its first case (two numbers) written in place."""
        if isinstance(e.right, ast.Const) and type(e.right.value) is int:
            first, a = self.once(left)
            return f"({a} + {right} if type({first}) is int else _add(ctx, {a}, {right}))"
        first_a, a = self.once(left)
        first_b, b = self.once(right)
        return (
            f"({a} + {b} if (type({first_a}) is int) & (type({first_b}) is int) "
            f"else _add(ctx, {a}, {b}))"
        )

    def number(self, code: str, e: ast.Expr) -> str:
        """``_num(x)`` as the comparison closures apply it: a number constant as it is, an
        int without a call."""
        if (isinstance(e, ast.Const) and type(e.value) is int) or self.sort(code) == INT:
            return code
        first, v = self.once(code)
        return f"({v} if type({first}) is int else _num({v}))"


# ---------------------------------------------------------------------------- source helpers
#: ``count(W) OP 0`` (or ``OP 1``): does it hold when some item is kept?
_SOME_KEPT = {("==", 0): False, ("!=", 0): True, (">", 0): True, ("<=", 0): False,
              (">=", 1): True, ("<", 1): False}  # fmt: skip


def _counted_against_zero(e: ast.Binary) -> tuple[ast.Where, bool] | None:
    """``count(X where C) == 0`` and its kin: (the ``where``, True when the comparison
    holds if some item is kept), or None.  Only whether one item is kept matters, so the
    generated code stops at the first one instead of building the list."""
    call, limit = e.left, e.right
    if not (isinstance(limit, ast.Const) and type(limit.value) is int):
        return None
    some_kept = _SOME_KEPT.get((e.op, limit.value))
    if some_kept is None or not isinstance(call, ast.Call):
        return None
    if not (isinstance(call.func, ast.Name) and call.func.name == "count"):
        return None
    if len(call.args) != 1 or not isinstance(call.args[0], ast.Where):
        return None
    return call.args[0], some_kept


#: A Python name in generated code.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unset(names: list[str]) -> str:
    """The code that marks ``names`` (see :meth:`_Generator.hoisted`) not yet worked out."""
    return "".join(f"({name} := _UNSET), " for name in names)


def _parts(e: ast.Expr) -> Iterable[ast.Expr]:
    """The expressions directly inside ``e``."""
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if isinstance(value, ast.Expr):
            yield value
        elif isinstance(value, tuple):
            yield from (x for x in value if isinstance(x, ast.Expr))


def _is_atom(code: str) -> bool:
    """A Python variable or a literal constant (safe to repeat in place of a parameter)."""
    if code.isidentifier():
        return True
    inner = code[1:-1]
    return inner.isdigit() or inner in ("True", "False", "None") or inner[:1] in ("'", '"')


def _reads_any(e: ast.Expr, names: set[str]) -> bool:
    """Does ``e`` read one of ``names`` (or might it: an interpolated text)?"""
    if isinstance(e, ast.Name):
        return e.name in names
    if isinstance(e, ast.Has) and e.flag in names:  # x has t: t's value names the flag
        return True
    if isinstance(e, ast.TextLit):
        return "{" in e.text.default or any("{" in t for _, t in e.text.translations)
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if isinstance(value, ast.Expr) and _reads_any(value, names):
            return True
        if isinstance(value, tuple) and any(
            isinstance(x, ast.Expr) and _reads_any(x, names) for x in value
        ):
            return True
    return False
