"""Compile a ruleset (manifest + ``.rcl`` syntax trees) into a runnable Program.

Name resolution and type checks happen here, so every semantic problem becomes a
located :class:`~rulecraft.diagnostics.Diagnostic` (codes RC2xx, see docs/errors.md).
The output is closures and flat instruction lists: the runtime never sees the AST.

The :class:`Compiler` holds one compilation's tables and ties its parts together, each
a module of :mod:`rulecraft.compile`: :mod:`declarations` (the manifest's declarations
and the items of the ``.rcl`` files), :mod:`expressions` (as closures; :mod:`codegen`
writes them as Python source), :mod:`control` and
:mod:`statements` (one function per statement), :mod:`routines` (definitions, effects,
actions, entries), :mod:`components` (kinds, components and their members),
:mod:`rules` (triggers, modifiers, grants), :mod:`flow` (phases, stages, turn orders,
the end) and :mod:`checks` (the checks that look across the ruleset).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rulecraft.compile import codegen, flags
from rulecraft.compile.amounts import _unit_span
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
from rulecraft.compile.expressions import (
    _add,
    _emptiness_test,
    _num,
    closure_expr,
    manifest_block,
    manifest_expr,
    name,
    qty_parts,
    text_value,
)
from rulecraft.compile.fields import FieldRead
from rulecraft.compile.flow import TURN_ORDERS, compile_end, compile_flow, counted_scopes
from rulecraft.compile.names import names_of
from rulecraft.compile.routine_code import compiled_routine
from rulecraft.compile.routines import (
    compile_actions,
    compile_defines,
    compile_entries,
    fill_effects,
    reserve_effects,
)
from rulecraft.compile.rules import compile_rules
from rulecraft.compile.scope import Scope, _Code
from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast
from rulecraft.runtime.program import (
    ComponentDef,
    ExprFn,
    FieldSpec,
    KeptSpaces,
    KindSpec,
    MapSpec,
    PolicySpec,
    Program,
    ResourceSpec,
    Routine,
    ZoneSpec,
)
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
        self.timed_flags = False  # some flag is set until a moment (Program.timed_flags)
        #: The events some trigger answers, once every trigger is compiled: the flow's
        #: instructions know whether to emit theirs (compile_flow comes after the rules).
        self.listened: frozenset[str] = frozenset()
        #: The scopes (``turn``, ``round``, ``phase``) whose uses some rule counts
        #: (:func:`compile.flow.counted_scopes`): only their starts forget counted uses.
        self.counted: frozenset[str] = frozenset()
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
        #: the ``where``s kept up to date as pieces move, by what they read
        #: (:func:`compile.incremental.kept_where`)
        self.kept_wheres: dict[str, KeptSpaces | None] = {}

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
        self.listened = frozenset(components.triggers)
        self.counted = counted_scopes(actions, components.abilities)
        main, flow, phases = compile_flow(self)
        end_conditions = compile_end(self)
        evaluation, score, test_pool = self._manifest_expressions()
        post_checks(self)
        placed = placements(self)
        if any(d.severity == Severity.ERROR for d in self.diags):
            return None
        plain = flags.only_set_flags(
            self._flag_names(), components.defs, self.kinds, components.grants
        )
        return Program(
            **self._manifest_settings(),
            routines=self.routines,
            zones=self.zones,
            resources=self.resources,
            kinds=flags.with_active_flags(self.kinds, plain),
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
            names=names_of(self),
            flags=frozenset(self.flags_set),
            timed_flags=self.timed_flags,
            only_set_flags=plain,
            kept_wheres=tuple(k for k in self.kept_wheres.values() if k is not None),
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

    def _flag_names(self) -> set[str]:
        """Every flag the rules set or test, the kinds' ``active_if`` tests included."""
        names = set(self.flags_set) | {flag for flag, _ in self.flags_tested}
        for kind in self.kinds.values():
            names.update(flag for flag, _ in kind.active_flags or ())
        return names

    # ------------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr, scope: Scope) -> ExprFn:
        """``e`` as a function of the context: one generated Python function where
        :mod:`codegen` covers the expression (the conditions of legal-move generation, mostly),
        else a tree of closures.  The closures are compiled in any case: they report the
        expression's problems and fill the tables the validators read."""
        if self._generating or not isinstance(e, codegen.GENERATED_ROOTS):
            return closure_expr(self, e, scope)
        generated = codegen.plan(self, e, scope)
        if generated is None:
            return closure_expr(self, e, scope)
        reported = len(self.diags)
        self._generating = True
        try:
            closures = closure_expr(self, e, scope)
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

    def name(self, e: ast.Name, scope: Scope) -> ExprFn:
        """A name as a function of the context (:func:`expressions.name`)."""
        return name(self, e, scope)

    def qty_parts(self, e: ast.Expr, scope: Scope) -> list[tuple[str, ExprFn]]:
        """An amount as (unit, count) pairs (:func:`expressions.qty_parts`)."""
        return qty_parts(self, e, scope)

    def text_value(
        self, text: ast.Text, scope: Scope | None = None, span: Span | None = None
    ) -> Any:
        """A prompt or label (:func:`expressions.text_value`)."""
        return text_value(self, text, scope, span)

    def _manifest_expr(self, text: Any, path: tuple[Any, ...], scope: Scope) -> ExprFn | None:
        return manifest_expr(self, text, path, scope)

    def _manifest_block(
        self, text: Any, path: tuple[Any, ...], name: str, scope: Scope
    ) -> int | None:
        return manifest_block(self, text, path, name, scope)

    # ------------------------------------------------------------------ statements
    def routine(
        self, name: str, body: tuple[ast.Stmt, ...], scope: Scope, params: tuple[str, ...] = ()
    ) -> int:
        code = _Code(name)
        self.block(body, code, scope)
        return self.finish(code, params)

    def finish(self, code: _Code, params: tuple[str, ...] = ()) -> int:
        self.routines.append(compiled_routine(code, params))
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

    def call_stmt(self, s: ast.ExprStmt, code: _Code, scope: Scope) -> Scope:
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
