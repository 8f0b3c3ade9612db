"""Compile a ruleset (manifest + ``.rcl`` syntax trees) into a runnable Program.

Name resolution and type checks happen here, so every semantic problem becomes a
located :class:`~rulecraft.diagnostics.Diagnostic` (codes RC2xx, see docs/errors.md).
The output is closures and flat instruction lists: the runtime never sees the AST.

The :class:`Compiler` holds one compilation's tables and ties its parts together, each
a module of :mod:`rulecraft.compile`: :mod:`declarations` (the manifest's declarations
and the items of the ``.rcl`` files), the expressions (here), :mod:`control` and
:mod:`statements` (one function per statement), :mod:`routines` (definitions, effects,
actions, entries), :mod:`components` (kinds, components and their members),
:mod:`rules` (triggers, modifiers, grants), :mod:`flow` (phases, stages, turn orders,
the end) and :mod:`checks` (the checks that look across the ruleset).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rulecraft.compile import codegen, every, flatten
from rulecraft.compile.amounts import _is_qty, _unit_span
from rulecraft.compile.checks import (
    check_enum_shadows,
    check_field_reads,
    check_field_value,
    check_unit,
    post_checks,
)
from rulecraft.compile.components import compile_components, placements
from rulecraft.compile.control import call_statement, compile_statement, options
from rulecraft.compile.declarations import (
    DURATIONS,
    ENDS,
    RESOURCE_VERBS,
    SPECIAL_NAMES,
    _text,
    collect_items,
    declare_manifest,
)
from rulecraft.compile.fields import FieldRead, static_kind
from rulecraft.compile.flow import TURN_ORDERS, compile_end, compile_flow
from rulecraft.compile.routines import (
    compile_actions,
    compile_defines,
    compile_entries,
    fill_effects,
    reserve_effects,
)
from rulecraft.compile.rules import compile_rules
from rulecraft.compile.scope import Scope, _Code
from rulecraft.compile.sorts import Names, disagreement
from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast
from rulecraft.language.parser import parse_expression, parse_snippet
from rulecraft.runtime import engine as E
from rulecraft.runtime.builtins import BUILTINS, bounded, get_field, multiply
from rulecraft.runtime.program import (
    ComponentDef,
    ExprFn,
    FieldSpec,
    KindSpec,
    MapSpec,
    PolicySpec,
    Program,
    ResourceSpec,
    Routine,
    ZoneSpec,
)
from rulecraft.runtime.values import divide, modulo
from rulecraft.suggest import did_you_mean

# The names other modules import from here (statements.py, codegen.py, the language server),
# wherever they are defined now.
__all__ = [
    "DURATIONS",
    "ENDS",
    "RESOURCE_VERBS",
    "SPECIAL_NAMES",
    "TURN_ORDERS",
    "Compiler",
    "Scope",
    "_Code",
    "_add",
    "_emptiness_test",
    "_num",
    "_unit_span",
    "expression_compiler",
]


class Compiler:
    """One compilation: collect declarations, then compile every body."""

    def __init__(
        self,
        manifest: dict[str, Any],
        units: list[ast.Unit],
        manifest_file: str,
        locate: Callable[[tuple[Any, ...]], Span] | None = None,
        manifest_lines: list[str] | None = None,
    ) -> None:
        self.manifest_lines = manifest_lines or []
        self.m = manifest
        self.units = units
        self.mfile = manifest_file
        self.locate = locate or (lambda path: Span(manifest_file, 1, 1))
        self.diags: list[Diagnostic] = []
        self.routines: list[Routine] = []
        self.counter = 0
        # Declarations
        self.zones: dict[str, ZoneSpec] = {}
        self.resources: dict[str, ResourceSpec] = {}
        self.kinds: dict[str, KindSpec] = {}
        self.kind_attrs: dict[str, dict[str, str]] = {}
        self.comps: dict[str, ast.Component] = {}
        self.entries: dict[int, ast.Entry] = {}
        self.effects: dict[str, ast.EffectDef] = {}
        self.defines: dict[str, ast.Define] = {}
        self.actions_ast: dict[str, ast.ActionDef] = {}
        self.rules: dict[str, ast.Rule] = {}
        self.symbols: set[str] = set()
        self.dice_names: set[str] = set()
        self.policies: dict[str, PolicySpec] = {}
        self.map: MapSpec | None = None
        self.flags_set: set[str] = set()
        self.flags_tested: list[tuple[str, Span]] = []
        self.used_names: set[str] = set()
        self.goto_targets: list[tuple[int, Span, str]] = []
        self.before_events: set[str] = set()
        self.define_fns: dict[str, ExprFn] = {}
        self._generating = False  # compiling the closures of an expression codegen writes
        self.effect_routines: dict[str, int] = {}
        self.events_emitted: set[str] = set()
        self.events_listened: list[tuple[str, Span]] = []
        # the manifest's events: each custom event's named parameters, in emit order
        self.events_declared: dict[str, tuple[str, ...]] = {
            str(k): tuple(str(p) for p in (v or ()))
            for k, v in (manifest.get("events") or {}).items()
        }
        self.scope_now = Scope({"you", "this"}, True)
        self.field_reads: list[FieldRead] = []
        self.fields: dict[str, FieldSpec] = {}
        self.face_symbols: set[str] = set()
        self.before_triggers: list[tuple[str, Span]] = []
        self.enum_values: list[tuple[str, str, str]] = []  # (value, kind, attribute)
        self.set_fields: set[str] = set()
        self.defs: dict[str, ComponentDef] = {}

    # ------------------------------------------------------------------ diagnostics
    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, Severity.ERROR, hint))

    def warn(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, Severity.WARNING, hint))

    def mspan(self, *path: Any) -> Span:
        return self.locate(tuple(path))

    def mspan_of(self, path: tuple[Any, ...]) -> Span:
        return self.locate(path)

    # ------------------------------------------------------------------ driver
    def compile(self) -> Program | None:
        """Every part in order (declarations first, checks last); the Program, or None
        when a problem is an error."""
        declare_manifest(self)
        collect_items(self)
        check_enum_shadows(self)
        compile_defines(self)
        reserve_effects(self)
        components = compile_components(self)
        actions = compile_actions(self)
        entries = compile_entries(self)
        components.add_rules(*compile_rules(self))
        fill_effects(self)
        main, flow, phases = compile_flow(self)
        end_conditions = compile_end(self)
        evaluation, score, test_pool = self._manifest_expressions()
        post_checks(self)
        placed = placements(self)
        if any(d.severity == Severity.ERROR for d in self.diags):
            return None
        return Program(
            **self._manifest_settings(),
            routines=self.routines,
            zones=self.zones,
            resources=self.resources,
            kinds=self.kinds,
            defs=components.defs,
            placements=placed,
            entries=entries,
            actions=actions,
            abilities={k: tuple(v) for k, v in components.abilities.items()},
            triggers={k: tuple(v) for k, v in components.triggers.items()},
            modifiers={k: tuple(v) for k, v in components.modifiers.items()},
            grants={k: tuple(v) for k, v in components.grants.items()},
            phases=phases,
            main=main,
            end_conditions=end_conditions,
            policies=self.policies,
            evaluation=evaluation,
            map=self.map,
            test_pool=test_pool,
            flow=flow,
            score=score,
            fields=dict(self.fields),
            named_effects=dict(self.effect_routines),
            ability_zones=frozenset(
                zone
                for did in components.abilities
                if did in components.defs and components.defs[did].kind in self.kinds
                for zone in self.kinds[components.defs[did].kind].abilities_in
            ),
            namespace=self,
        )

    def _manifest_expressions(self) -> tuple[ExprFn | None, ExprFn | None, ExprFn | None]:
        """The manifest's ``evaluation``, ``score`` and ``tests: pool`` expressions."""
        evaluation = self._manifest_expr(self.m.get("evaluation"), ("evaluation",), Scope({"you"}))
        score = self._manifest_expr(self.m.get("score"), ("score",), Scope({"you"}))
        test_cfg = self.m.get("tests") or {}
        test_pool = None
        if "pool" in test_cfg:
            test_pool = self._manifest_expr(
                test_cfg["pool"], ("tests", "pool"), Scope({"you", "skill", "this"})
            )
        return evaluation, score, test_pool

    def _manifest_settings(self) -> dict[str, Any]:
        """The Program's fields the manifest gives as they are: names, players, limits."""
        m = self.m
        dice = None
        if m.get("dice"):
            from rulecraft.dice import DiceSet

            dice = DiceSet.from_spec(m["dice"])
        players = m.get("players") or {}
        test_cfg = m.get("tests") or {}
        return {
            "name": str(m.get("name", "ruleset")),
            "title": _text(m.get("title"), str(m.get("name", ""))),
            "version": str(m.get("version", "0")),
            "languages": tuple(m.get("languages") or ["en"]),
            "min_players": int(players.get("min", 1)),
            "max_players": int(players.get("max", players.get("min", 1))),
            "default_players": int(players.get("default", players.get("min", 1))),
            "dice": dice,
            "test_success": str(test_cfg.get("success", "success")),
            "test_cancel": test_cfg.get("cancel"),
            "max_decisions": int((m.get("limits") or {}).get("max_decisions", 10_000)),
            "evaluation_scale": float(m.get("evaluation_scale", 1.0)),
            "min_dice": int((m.get("rolls") or {}).get("min_dice", 0)),
        }

    def _unknown(
        self, name: str, span: Span, candidates: Iterable[str], what: str, hint: str | None = None
    ) -> None:
        guess = did_you_mean(name, list(candidates))
        self.error(
            "RC201",
            f"unknown {what} {name!r}",
            span,
            f"did you mean {guess!r}?" if guess else hint,
        )

    # ------------------------------------------------------------------ expressions
    def known_names(self, scope: Scope) -> list[str]:
        return sorted(
            set(scope.locals)
            | SPECIAL_NAMES
            | set(self.zones)
            | set(self.resources)
            | set(self.defines)
            | set(self.comps)
            | self.symbols
            | set(BUILTINS)
        )

    def expr(self, e: ast.Expr, scope: Scope) -> ExprFn:
        """``e`` as a function of the context: one generated Python function where
        :mod:`codegen` covers the expression (the conditions of legal-move generation, mostly),
        else a tree of closures.  The closures are compiled in any case: they report the
        expression's problems and fill the tables the validators read."""
        if self._generating or not isinstance(e, codegen.GENERATED_ROOTS):
            return self.closure_expr(e, scope)
        generated = codegen.plan(self, e, scope)
        if generated is None:
            return self.closure_expr(e, scope)
        reported = len(self.diags)
        self._generating = True
        try:
            closures = self.closure_expr(e, scope)
        finally:
            self._generating = False
        if len(self.diags) > reported:
            return closures  # a problem to report: the program will not run anyway
        return codegen.build(self, generated)

    def silent_expr(self, e: ast.Expr, scope: Scope) -> ExprFn:
        """:meth:`expr` for a part of an expression already compiled (and reported on):
        its diagnostics and field reads are not recorded twice."""
        marks = len(self.diags), len(self.field_reads), len(self.flags_tested)
        try:
            return self.expr(e, scope)
        finally:
            del self.diags[marks[0] :]
            del self.field_reads[marks[1] :]
            del self.flags_tested[marks[2] :]

    def closure_expr(self, e: ast.Expr, scope: Scope) -> ExprFn:
        """``e`` as a tree of closures, one per node."""
        if isinstance(e, ast.Const):
            v = e.value
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**31:
                self.error(
                    "RC205", f"the number {v} is too large", e.span, "numbers must stay below 2**31"
                )
            return lambda ctx: v
        if isinstance(e, ast.TextLit):
            if "{" in e.text.default or any("{" in t for _, t in e.text.translations):
                return self.interpolated(e, scope)
            if not e.text.translations:
                # an untranslated text is a plain string: it compares with unit names
                plain = e.text.default
                return lambda ctx: plain
            d = e.text.as_dict()
            return lambda ctx: d
        if isinstance(e, ast.Name):
            return self.name(e, scope)
        if isinstance(e, ast.Attr):
            obj = self.expr(e.obj, scope)
            f = e.field
            kind = static_kind(e.obj, scope.locals)
            self.field_reads.append(FieldRead(f, e.field_span or e.span, kind))
            if kind == "game" and f in ("round", "turn"):
                return lambda ctx: ctx.st[f]
            if kind == "game":
                fspec = self.fields.get(f)
                default = fspec.default if fspec is not None else 0
                return lambda ctx: ctx.st["gvars"].get(f, default)
            if f in ("x", "y"):
                # coordinates are read very often by map rules: a direct path for spaces
                axis = 0 if f == "x" else 1

                def coordinate(ctx: E.Ctx) -> Any:
                    o = obj(ctx)
                    if type(o) is str and o[:2] == "s:" and ctx.prog.map is not None:
                        return ctx.prog.map.coords[o[2:]][axis]
                    return get_field(ctx, o, f)

                return coordinate
            return lambda ctx: get_field(ctx, obj(ctx), f)
        if isinstance(e, ast.Index):
            obj = self.expr(e.obj, scope)
            key = self.expr(e.key, scope)

            def index(ctx: E.Ctx) -> Any:
                o = obj(ctx)
                k = key(ctx)
                if isinstance(o, list):
                    return o[int(k)] if -len(o) <= int(k) < len(o) else None
                return get_field(ctx, o, str(k))

            return index
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        if isinstance(e, ast.Qty):
            parts = self.qty_parts(e, scope)

            def qty(ctx: E.Ctx) -> dict[str, int]:
                out: dict[str, int] = {}
                for unit, fn in parts:
                    out[unit] = out.get(unit, 0) + int(fn(ctx))
                return out

            return qty
        if isinstance(e, ast.Unary):
            inner = self.expr(e.operand, scope)
            if e.op == "-":
                return lambda ctx: -int(inner(ctx))
            return lambda ctx: not inner(ctx)
        if isinstance(e, ast.Binary):
            return self.binary(e, scope)
        if isinstance(e, ast.Has):
            obj = self.expr(e.obj, scope)
            flag = e.flag
            if codegen.names_a_flag(flag, scope.locals):
                # a parameter, let or loop variable: its value is the flag's name
                self.used_names.add(flag)
                return lambda ctx: codegen.has_named_flag(ctx, obj(ctx), ctx.loc.get(flag), flag)
            self.flags_tested.append((flag, e.span))
            return lambda ctx: E.has_flag(ctx, obj(ctx), flag)
        if isinstance(e, ast.Where):
            coll = self.expr(e.collection, scope)
            emptiness = _emptiness_test(e.condition)
            if (
                emptiness is not None
                and isinstance(e.collection, ast.Name)
                and e.collection.name == "spaces"
                and "spaces" not in scope.locals
                and self.map is not None
            ):
                keys = tuple("s:" + sid for sid in self.map.spaces)
                want = emptiness

                def spaces_where_empty(ctx: E.Ctx) -> list[Any]:
                    zones = ctx.st["zones"]
                    return [k for k in keys if (not zones.get(k)) == want]

                return spaces_where_empty
            if emptiness is not None:
                # `spaces where empty(it)` (or `not empty(it)`) is the commonest filter of
                # map rules: test the zones directly instead of running the condition.
                want_empty = emptiness

                def where_empty(ctx: E.Ctx) -> list[Any]:
                    zones = ctx.st["zones"]
                    out = []
                    for x in E.as_list(ctx, coll(ctx)):
                        if type(x) is str and x[1:2] == ":":
                            if (not zones.get(x)) == want_empty:
                                out.append(x)
                        elif (not E.as_list(ctx, x)) == want_empty:
                            out.append(x)
                    return out

                return where_empty
            cond = self.expr(e.condition, scope.child("it"))

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
        if isinstance(e, ast.ListExpr):
            items = [self.expr(x, scope) for x in e.items]
            return lambda ctx: [f(ctx) for f in items]
        if isinstance(e, ast.Conditional):
            return self.conditional(e, scope)
        self.error("RC204", "this expression is not supported here", e.span)
        return lambda ctx: None

    def text_value(
        self, text: ast.Text, scope: Scope | None = None, span: Span | None = None
    ) -> Any:
        """A prompt or label: its translations, or a function when it interpolates (its
        problems located at ``span``, the statement or member that shows it)."""
        if "{" in text.default or any("{" in t for _, t in text.translations):
            where = span or NOWHERE_SPAN
            return self.interpolated(ast.TextLit(where, text), scope or self.scope_now)
        return text.as_dict()

    def interpolated(self, e: ast.TextLit, scope: Scope) -> ExprFn:
        """``"{card.name} deals {n} damage"``: each ``{expression}`` is shown as text."""
        variants: dict[str, list[str | ExprFn]] = {}
        for lang, template in [("", e.text.default), *e.text.translations]:
            parts: list[str | ExprFn] = []
            rest = template
            while "{" in rest:
                before, _, after = rest.partition("{")
                inner, closed, rest = after.partition("}")
                if not closed:
                    self.error("RC204", "a '{' in a text is not closed by '}'", e.span)
                    parts.append(before + "{" + inner)
                    rest = ""
                    break
                parts.append(before)
                tree, problems = parse_expression(inner, e.span.file, e.span.line, e.span.column)
                self.diags.extend(problems)
                parts.append(self.shown_part(tree, scope) if tree is not None else "")
            parts.append(rest)
            variants[lang] = parts

        def interpolate(ctx: E.Ctx) -> str:
            parts = variants.get(ctx.lang) or variants[""]
            return "".join(p if isinstance(p, str) else p(ctx) for p in parts)

        return interpolate

    def shown_part(self, tree: ast.Expr, scope: Scope) -> ExprFn:
        """One ``{expression}`` of a text, as text every seat may read: a card some seat may
        not see is "a card", and a field of such a card is "?" unless its zone shows that
        field (``public_fields``), so ``"{c} rank {c.rank}"`` gives nothing away."""
        value = self.expr(tree, scope)
        if not isinstance(tree, ast.Attr):
            return lambda ctx: E.public_text(ctx, value(ctx))
        obj = self.expr(tree.obj, scope)
        field_name = tree.field

        def shown_field(ctx: E.Ctx) -> str:
            if E.hidden_field(ctx, obj(ctx), field_name):
                return "?"
            return E.public_text(ctx, value(ctx))

        return shown_field

    def binary(self, e: ast.Binary, scope: Scope) -> ExprFn:
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        op = e.op
        if op == "and":
            return lambda ctx: bool(left(ctx)) and bool(right(ctx))
        if op == "or":
            return lambda ctx: bool(left(ctx)) or bool(right(ctx))
        if op == "+":
            return lambda ctx: _add(ctx, left(ctx), right(ctx))
        if op == "-":
            return lambda ctx: left(ctx) - right(ctx)
        if op == "*":
            return lambda ctx: multiply(left(ctx), right(ctx))
        if op == "/":
            return lambda ctx: divide(left(ctx), right(ctx))
        if op == "%":
            return lambda ctx: modulo(left(ctx), right(ctx))
        if op == "==":
            return lambda ctx: left(ctx) == right(ctx)
        if op == "!=":
            return lambda ctx: left(ctx) != right(ctx)
        if op == "<":
            return lambda ctx: _num(left(ctx)) < _num(right(ctx))
        if op == "<=":
            return lambda ctx: _num(left(ctx)) <= _num(right(ctx))
        if op == ">":
            return lambda ctx: _num(left(ctx)) > _num(right(ctx))
        if op == ">=":
            return lambda ctx: _num(left(ctx)) >= _num(right(ctx))
        if op == "in":
            return lambda ctx: left(ctx) in E.as_list(ctx, right(ctx))
        self.error("RC204", f"unknown operator {op!r}", e.span)
        return lambda ctx: None

    def conditional(self, e: ast.Conditional, scope: Scope) -> ExprFn:
        """``A if C else B``: C decides, and only the branch it picks is evaluated.
        RC226 when the branches certainly give different sorts of value (sorts.py)."""
        then = self.expr(e.then, scope)
        condition = self.expr(e.condition, scope)
        otherwise = self.expr(e.otherwise, scope)
        names = Names(frozenset(self.comps), frozenset(self.zones), frozenset(self.resources))
        clash = disagreement(e, names, frozenset(scope.locals))
        if clash is not None:
            self.error(
                "RC226",
                f"the two values of this conditional cannot agree: {clash[0]} if the "
                f"condition holds, else {clash[1]}",
                e.span,
                "give both branches the same sort of value (none stands for no value)",
            )
        return lambda ctx: then(ctx) if condition(ctx) else otherwise(ctx)

    def name(self, e: ast.Name, scope: Scope) -> ExprFn:
        n = e.name
        self.used_names.add(n)
        if n in scope.locals or n in ("you", "this", "it"):
            if n == "this" and not scope.has_this and "this" not in scope.locals:
                self.error(
                    "RC203", "'this' is only meaningful inside a component, entry or rule", e.span
                )
            if n == "it" and "it" not in scope.locals:
                self.error(
                    "RC203",
                    "'it' is only meaningful inside 'where'",
                    e.span,
                    "write: collection where it.field == value",
                )
            return lambda ctx: ctx.loc.get(n)
        if n == "active":
            return lambda ctx: E.player(ctx.st["active"])
        if n == "start_player":
            return lambda ctx: E.player(ctx.st["start"])
        if n == "players":
            return lambda ctx: [
                E.player((ctx.st["active"] + i) % ctx.st["players"])
                for i in range(ctx.st["players"])
            ]
        if n == "opponents":
            return lambda ctx: _opponents(ctx)
        if n == "opponent":
            return lambda ctx: next(iter(_opponents(ctx)), None)
        if n == "game":
            return lambda ctx: None
        if n in ("round", "turn"):
            return lambda ctx: ctx.st[n]
        if n == "amount":
            return lambda ctx: ctx.st["events"][-1]["amount"] if ctx.st["events"] else 0
        if n == "spaces":
            if self.map is None:
                self.error("RC201", "'spaces' needs a map in ruleset.yaml", e.span)
                return lambda ctx: []
            spaces = ["s:" + s for s in self.map.spaces]
            return lambda ctx: spaces.copy()
        if n in self.zones:
            spec = self.zones[n]
            if spec.per_player:
                return lambda ctx: f"z:{n}@{E.seat_of(ctx.loc['you'])}"
            key = f"z:{n}"
            return lambda ctx: key
        if n in self.resources:
            rspec = self.resources[n]
            if rspec.per_player:
                return lambda ctx: ctx.st["res"][E.seat_of(ctx.loc["you"])].get(n, 0)
            return lambda ctx: ctx.st["gvars"].get(n, 0)
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                self.error(
                    "RC206", f"{n!r} takes {len(d.params)} argument(s)", e.span, f"write {n}(...)"
                )
            return lambda ctx: self.define_fns[n](ctx)
        if n in self.comps:
            value = "d:" + n
            return lambda ctx: value
        if n in self.symbols or n in self.flags_set:
            return lambda ctx: n
        if n in BUILTINS:
            self.error("RC206", f"{n!r} is a function: call it with (...)", e.span)
            return lambda ctx: None
        if n in self.effects:
            self.error("RC207", f"{n!r} is an effect, not a value", e.span)
            return lambda ctx: None
        self._unknown(n, e.span, self.known_names(scope), "name")
        return lambda ctx: None

    def call(self, e: ast.Call, scope: Scope) -> ExprFn:
        if not isinstance(e.func, ast.Name):
            self.error("RC206", "only named functions can be called", e.span)
            return lambda ctx: None
        n = e.func.name
        self.used_names.add(n)
        if n == "map" and n not in self.defines:
            return self.map_define(e, scope)
        if n == "chance" and n not in self.defines:
            return self.chance(e, scope)
        if n == every.EVERY and n not in self.defines:
            return every.compile_every(self, e, scope)
        if n == flatten.FLATTEN and n not in self.defines:
            return flatten.compile_flatten(self, e, scope)
        args = [self.expr(a, scope) for a in e.args]
        if n in self.defines:
            d = self.defines[n]
            if len(d.params) != len(args):
                self.error(
                    "RC206", f"{n!r} takes {len(d.params)} argument(s), not {len(args)}", e.span
                )
                return lambda ctx: None
            params = d.params

            define_fns = self.define_fns

            def call_define(ctx: E.Ctx) -> Any:
                saved = ctx.loc
                # A definition sees its parameters, you and this: nothing else of the caller.
                local = {"you": saved.get("you"), "this": saved.get("this")}
                for p, a in zip(params, args, strict=True):
                    local[p] = a(ctx)
                ctx.loc = local
                try:
                    return define_fns[n](ctx)
                finally:
                    ctx.loc = saved

            return call_define
        if n in BUILTINS:
            fn, lo, hi = BUILTINS[n]
            if not lo <= len(args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error("RC206", f"{n}() takes {want} argument(s), not {len(args)}", e.span)
                return lambda ctx: None
            if (
                n
                in (
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
                and self.map is None
            ):
                self.error("RC201", f"{n}() needs a map in ruleset.yaml", e.span)
            if n == "empty" and len(args) == 1:
                a0 = args[0]

                def empty(ctx: E.Ctx) -> bool:
                    v = a0(ctx)
                    if type(v) is str and v[1] == ":":
                        return not ctx.st["zones"].get(v)
                    return not E.as_list(ctx, v)

                return empty
            if n == "count" and len(args) == 1:
                a0 = args[0]
                return lambda ctx: len(E.as_list(ctx, a0(ctx)))
            if len(args) == 1:
                a0 = args[0]
                return lambda ctx: fn(ctx, [a0(ctx)])
            if len(args) == 2:
                a0, a1 = args
                return lambda ctx: fn(ctx, [a0(ctx), a1(ctx)])
            return lambda ctx: fn(ctx, [a(ctx) for a in args])
        if n in self.effects:
            self.error(
                "RC207",
                f"{n!r} is an effect: use it as a statement, not inside an expression",
                e.span,
            )
            return lambda ctx: None
        functions = [*self.defines, *BUILTINS, "map", "chance", every.EVERY, flatten.FLATTEN]
        self._unknown(n, e.func.span, functions, "function")
        return lambda ctx: None

    def chance(self, e: ast.Call, scope: Scope) -> ExprFn:
        """``chance(2 scavenge, hazard >= 1)``: the exact chance, in percent, that a roll of
        the pool meets the condition, in which each face symbol is the count shown."""
        if len(e.args) != 2:
            self.error(
                "RC206",
                "chance takes a dice pool and a condition on its symbols",
                e.span,
                "chance(2 red + 1 white, hit >= 2)",
            )
            return lambda ctx: 0
        pool = self.expr(e.args[0], scope)
        symbols = tuple(sorted(self.face_symbols))
        cond = self.expr(e.args[1], scope.child(*symbols))

        def chance_percent(ctx: E.Ctx) -> float:
            from rulecraft.dice.exact import distribution
            from rulecraft.runtime.chance import make_pool

            dist = distribution(make_pool(ctx.prog.dice, pool(ctx), ctx.prog.min_dice))
            saved = ctx.loc

            def goal(counts: Any) -> bool:
                ctx.loc = {**saved, **{s: counts[s] for s in symbols}}
                return bool(cond(ctx))

            try:
                p = dist.probability(goal)
            finally:
                ctx.loc = saved
            return round(float(p) * 100, 2)

        return chance_percent

    def map_define(self, e: ast.Call, scope: Scope) -> ExprFn:
        """``map(players, score)``: a one-parameter definition applied to every element."""
        fn_name = e.args[1] if len(e.args) == 2 else None
        if (
            not isinstance(fn_name, ast.Name)
            or len(getattr(self.defines.get(fn_name.name), "params", ())) != 1
        ):
            self.error(
                "RC206",
                "map takes a list and the name of a definition with one parameter",
                e.span,
                "define score(p) = p.gold * 2, then map(players, score)",
            )
            return lambda ctx: []
        self.used_names.add(fn_name.name)
        items = self.expr(e.args[0], scope)
        param = self.defines[fn_name.name].params[0]
        body = self.define_fns
        name = fn_name.name

        def mapped(ctx: E.Ctx) -> list[Any]:
            saved = ctx.loc
            out = []
            try:
                for x in E.as_list(ctx, items(ctx)):
                    ctx.loc = {"you": saved.get("you"), "this": saved.get("this"), param: x}
                    out.append(body[name](ctx))
            finally:
                ctx.loc = saved
            return out

        return mapped

    def qty_parts(self, e: ast.Expr, scope: Scope) -> list[tuple[str, ExprFn]]:
        """``2 water + 1 gold`` -> [("water", fn), ("gold", fn)]."""
        if isinstance(e, ast.Qty):
            return [(e.unit, self.expr(e.amount, scope))]
        if isinstance(e, ast.Binary) and e.op == "+" and _is_qty(e):
            return self.qty_parts(e.left, scope) + self.qty_parts(e.right, scope)
        if isinstance(e, ast.Conditional):
            return self.conditional_qty(e, scope)
        self.error(
            "RC204",
            "expected an amount with a unit, such as '2 gold'",
            e.span,
            "a unit belongs to the value just before it: put an amount computed with "
            "+ - * / in parentheses, as in (10 + 2 * p.tricks) score",
        )
        return []

    def conditional_qty(self, e: ast.Conditional, scope: Scope) -> list[tuple[str, ExprFn]]:
        """``2 gold if C else 1 water``: each unit of either branch, counted from the branch
        the condition picks (0 of a unit the other branch has not)."""
        condition = self.expr(e.condition, scope)
        sides = (self.qty_parts(e.then, scope), self.qty_parts(e.otherwise, scope))
        units = list(dict.fromkeys(unit for side in sides for unit, _ in side))

        def count_of(unit: str) -> ExprFn:
            then = [fn for u, fn in sides[0] if u == unit]
            otherwise = [fn for u, fn in sides[1] if u == unit]

            def count(ctx: E.Ctx) -> int:
                return sum(int(fn(ctx)) for fn in (then if condition(ctx) else otherwise))

            return count

        return [(unit, count_of(unit)) for unit in units]

    def _manifest_expr(self, text: Any, path: tuple[Any, ...], scope: Scope) -> ExprFn | None:
        if text is None:
            return None
        if isinstance(text, bool | int):
            v = text
            return lambda ctx: v
        span = self.mspan(*path)
        line, column = self._scalar_start(span)
        tree, problems = parse_expression(str(text), span.file, line, column)
        self.diags.extend(problems)
        if tree is None:
            return None
        return self.expr(tree, scope)

    def _scalar_start(self, span: Span) -> tuple[int, int]:
        """Where the text of a YAML scalar starts: after the quote of a quoted one, on the
        next line (at its indentation) for a ``|`` or ``>`` block, else where it stands."""
        lines = self.manifest_lines
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

    def _manifest_block(
        self, text: Any, path: tuple[Any, ...], name: str, scope: Scope
    ) -> int | None:
        if not text:
            return None
        span = self.mspan(*path)
        line, column = self._scalar_start(span)
        body, problems = parse_snippet(str(text), span.file, line, column)
        self.diags.extend(problems)
        return self.routine(name, body, scope)

    # ------------------------------------------------------------------ statements
    def routine(
        self, name: str, body: tuple[ast.Stmt, ...], scope: Scope, params: tuple[str, ...] = ()
    ) -> int:
        code = _Code(name)
        self.block(body, code, scope)
        return self.finish(code, params)

    def finish(self, code: _Code, params: tuple[str, ...] = ()) -> int:
        self.routines.append(Routine(code.name, tuple(code.code), tuple(code.spans), params))
        return len(self.routines) - 1

    def block(self, body: Iterable[ast.Stmt], code: _Code, scope: Scope) -> Scope:
        for stmt in body:
            scope = self.stmt(stmt, code, scope)
        return scope

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"_{stem}{self.counter}"

    def stmt(self, s: ast.Stmt, code: _Code, scope: Scope) -> Scope:
        """One statement, by the function registered for its type (:mod:`control`)."""
        return compile_statement(self, s, code, scope)

    def options(
        self,
        chooser: ast.Expr | None,
        prompt: ast.Text | None,
        opts: list[tuple[ast.Text, ast.Expr | None, tuple[ast.Stmt, ...], Span]],
        code: _Code,
        scope: Scope,
        span: Span,
    ) -> None:
        """One decision among labelled options (:func:`control.options`)."""
        options(self, chooser, prompt, opts, code, scope, span)

    def call_stmt(self, s: ast.Do, code: _Code, scope: Scope) -> Scope:
        """An effect run as a statement (:func:`control.call_statement`)."""
        return call_statement(self, s, code, scope)

    def _check_unit(self, unit: str, span: Span) -> None:
        check_unit(self, unit, span)

    def _check_field_value(self, name: str, value: ast.Expr, span: Span) -> None:
        check_field_value(self, name, value, span)

    def check_field_reads(self, reads: Iterable[FieldRead]) -> None:
        """RC250 and RC251 for the field reads given (:func:`checks.check_field_reads`)."""
        check_field_reads(self, reads)

    def _default_zone(self, key: str, span: Span, scope: Scope) -> ExprFn:
        fn = self._default_zone_opt(key, scope)
        if fn is None:
            self.error("RC208", f"no zone given and no defaults.{key} in ruleset.yaml", span)
            return lambda ctx: None
        return fn

    def _default_zone_opt(self, key: str, scope: Scope) -> ExprFn | None:
        name = (self.m.get("defaults") or {}).get(key)
        if not name:
            return None
        return self.name(ast.Name(self.mspan("defaults", key), str(name)), scope.child("you"))


NOWHERE_SPAN = Span("<text>", 1, 1)


def expression_compiler(program: Program, tree: ast.Expr) -> tuple[ExprFn | None, list[Diagnostic]]:
    """Compile one expression against a compiled program's names (``you`` and ``this`` bound)."""
    comp = program.namespace
    if not isinstance(comp, Compiler):
        return None, [Diagnostic("RC204", "this program keeps no names", tree.span)]
    before = len(comp.diags)
    reads_before = len(comp.field_reads)
    fn = comp.expr(tree, Scope({"you", "this"}, True))
    comp.check_field_reads(comp.field_reads[reads_before:])
    del comp.field_reads[reads_before:]
    new = comp.diags[before:]
    del comp.diags[before:]
    errors = [d for d in new if d.severity == Severity.ERROR]
    return (None if errors else fn), new


# ---------------------------------------------------------------------------- helpers
class _Missing:
    pass


_MISSING: Any = _Missing()


def _num(v: Any) -> int:
    if v is None:
        return 0
    if isinstance(v, bool):
        return int(v)
    return v  # type: ignore[no-any-return]


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
        if isinstance(a, str) and isinstance(b, str) and not (a[:2] == "z:" or b[:2] == "z:"):
            return bounded(a + b)
        return bounded(E.as_list(ctx, a) + E.as_list(ctx, b))
    if a is None:
        return b
    if b is None:
        return a
    return a + b


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


def _opponents(ctx: E.Ctx) -> list[str]:
    you = ctx.loc.get("you")
    seat = E.seat_of(you) if you is not None else ctx.st["active"]
    n = ctx.st["players"]
    return [E.player((seat + i) % n) for i in range(1, n)]
