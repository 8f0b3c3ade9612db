"""Compile a ruleset (manifest + ``.rcl`` syntax trees) into a runnable Program.

Name resolution and type checks happen here, so every semantic problem becomes a
located :class:`~rulecraft.diagnostics.Diagnostic` (codes RC2xx, see docs/errors.md).
The output is closures and flat instruction lists: the runtime never sees the AST.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rulecraft.compile import codegen, every
from rulecraft.compile.fields import PLAYER_NAMES, FieldRead, catalogue, static_kind
from rulecraft.compile.generate import generated_components
from rulecraft.compile.sorts import Names, disagreement
from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast
from rulecraft.language.parser import parse_expression, parse_snippet
from rulecraft.runtime import engine as E
from rulecraft.runtime.builtins import BUILTINS, bounded, get_field, multiply
from rulecraft.runtime.map import build_map
from rulecraft.runtime.program import (
    AbilitySpec,
    ActionSpec,
    ComponentDef,
    EndSpec,
    EntryDef,
    ExprFn,
    FieldSpec,
    GrantSpec,
    Instr,
    KindSpec,
    MapSpec,
    ModifierSpec,
    PhaseSpec,
    Placement,
    PlanSpec,
    PolicySpec,
    Program,
    ResourceSpec,
    Routine,
    TriggerSpec,
    ZoneSpec,
)
from rulecraft.runtime.values import divide, modulo
from rulecraft.suggest import did_you_mean

RESOURCE_VERBS = {
    "gain": ("gained", 1),
    "lose": ("lost", -1),
    "spend": ("spent", -1),
    "suffer": ("suffered", 1),
    "heal": ("healed", -1),
    "deal": ("dealt", 1),
}
SPECIAL_NAMES = {
    "you",
    "this",
    "it",
    "active",
    "start_player",
    "players",
    "opponents",
    "opponent",
    "game",
    "round",
    "turn",
    "spaces",
    "amount",
}
# Words that begin a statement: an effect with one of these names could never be called,
# since `deal` on a line of its own is the start of a deal statement.
STATEMENT_WORDS = frozenset(
    [
        "gain",
        "lose",
        "spend",
        "suffer",
        "heal",
        "deal",
        "draw",
        "discard",
        "move",
        "shuffle",
        "reveal",
        "look",
        "roll",
        "reroll",
        "go",
        "set",
        "clear",
        "let",
        "end",
        "emit",
        "prevent",
        "flip",
        "exhaust",
        "ready",
        "say",
        "return",
        "win",
        "tie",
    ]
)
ENDS = ("turn", "phase", "stage", "round", "game", "activation")
DURATIONS = ("turn_end", "round_end", "phase_end")
# The arguments each built-in event carries (docs/language.md, "Events"), in order.
BUILTIN_EVENTS: dict[str, int] = {
    **dict.fromkeys(("turn_start", "turn_end", "round_start", "round_end"), 1),
    **dict.fromkeys(("phase_start", "phase_end", "discarded", "rolled", "flipped"), 1),
    **dict.fromkeys(("entered", "reshuffled", "exhausted"), 1),
    **dict.fromkeys(("gained", "lost", "spent", "suffered", "healed", "dealt"), 3),
    **dict.fromkeys(("moved", "tested"), 3),
    "drew": 2,
}


def _text(value: Any, default: str = "") -> dict[str, str]:
    """A manifest text (a string or a {lang: text} mapping) as a translation dict."""
    if value is None:
        return {"": default}
    if isinstance(value, dict):
        out = {str(k): str(v) for k, v in value.items()}
        out.setdefault("", next(iter(out.values()), default))
        return out
    return {"": str(value)}


@dataclass
class Scope:
    """Names bound where an expression is compiled."""

    locals: set[str] = field(default_factory=set)
    has_this: bool = False
    in_entry: bool = False

    def child(self, *names: str) -> Scope:
        return Scope(self.locals | set(names), self.has_this, self.in_entry)


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


@dataclass
class _Code:
    """A routine under construction."""

    name: str
    code: list[Instr] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)

    def add(self, instr: Instr, span: Span) -> int:
        self.code.append(instr)
        self.spans.append(span)
        return len(self.code) - 1

    @property
    def here(self) -> int:
        return len(self.code)


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
        self._declare_manifest()
        self._collect_items()
        self._check_enum_shadows()
        self._compile_defines()
        self._reserve_effects()
        kinds_defs = self._compile_components()
        actions = self._compile_actions()
        entries = self._compile_entries()
        rules_triggers, rules_mods, rules_grants = self._compile_rules()
        self._fill_effects()
        main, flow, phases = self._compile_flow()
        end_conditions = self._compile_end()
        evaluation = self._manifest_expr(self.m.get("evaluation"), ("evaluation",), Scope({"you"}))
        score = self._manifest_expr(self.m.get("score"), ("score",), Scope({"you"}))
        test_cfg = self.m.get("tests") or {}
        test_pool = None
        if "pool" in test_cfg:
            test_pool = self._manifest_expr(
                test_cfg["pool"], ("tests", "pool"), Scope({"you", "skill", "this"})
            )
        self._post_checks()
        defs, abilities, triggers, modifiers, grants = kinds_defs
        for spec in rules_triggers:
            triggers.setdefault(spec.event, []).append(spec)
        for mod in rules_mods:
            modifiers.setdefault(mod.prop, []).append(mod)
        for g in rules_grants:
            grants.setdefault(g.flag, []).append(g)
        placements = self._placements()
        if any(d.severity == Severity.ERROR for d in self.diags):
            return None
        dice = None
        if self.m.get("dice"):
            from rulecraft.dice import DiceSet

            dice = DiceSet.from_spec(self.m["dice"])
        players = self.m.get("players") or {}
        return Program(
            name=str(self.m.get("name", "ruleset")),
            title=_text(self.m.get("title"), str(self.m.get("name", ""))),
            version=str(self.m.get("version", "0")),
            languages=tuple(self.m.get("languages") or ["en"]),
            min_players=int(players.get("min", 1)),
            max_players=int(players.get("max", players.get("min", 1))),
            default_players=int(players.get("default", players.get("min", 1))),
            routines=self.routines,
            zones=self.zones,
            resources=self.resources,
            kinds=self.kinds,
            defs=defs,
            placements=placements,
            entries=entries,
            actions=actions,
            abilities={k: tuple(v) for k, v in abilities.items()},
            triggers={k: tuple(v) for k, v in triggers.items()},
            modifiers={k: tuple(v) for k, v in modifiers.items()},
            grants={k: tuple(v) for k, v in grants.items()},
            phases=phases,
            main=main,
            end_conditions=end_conditions,
            policies=self.policies,
            evaluation=evaluation,
            map=self.map,
            dice=dice,
            test_pool=test_pool,
            test_success=str(test_cfg.get("success", "success")),
            test_cancel=test_cfg.get("cancel"),
            flow=flow,
            max_decisions=int((self.m.get("limits") or {}).get("max_decisions", 10_000)),
            evaluation_scale=float(self.m.get("evaluation_scale", 1.0)),
            score=score,
            fields=dict(self.fields),
            min_dice=int((self.m.get("rolls") or {}).get("min_dice", 0)),
            named_effects=dict(self.effect_routines),
            ability_zones=frozenset(
                zone
                for did in abilities
                if did in defs and defs[did].kind in self.kinds
                for zone in self.kinds[defs[did].kind].abilities_in
            ),
            namespace=self,
        )

    # ------------------------------------------------------------------ manifest
    def _declare_manifest(self) -> None:
        m = self.m
        for name, spec in (m.get("zones") or {}).items():
            spec = spec or {}
            self.zones[name] = ZoneSpec(
                name=name,
                per_player=spec.get("per", "shared") == "player",
                visibility=spec.get("visibility", "public"),
                order=spec.get("order", "ordered"),
                capacity=spec.get("capacity"),
                label=_text(spec.get("label"), name),
                size=spec.get("size"),
                public_fields=tuple(spec.get("public_fields") or ()),
                local_fields=tuple(spec.get("local_fields") or ()),
            )
        for name, spec in (m.get("resources") or {}).items():
            spec = spec or {}
            self.resources[name] = ResourceSpec(
                name=name,
                per_player=spec.get("per", "player") == "player",
                minimum=spec.get("min", 0),
                maximum=spec.get("max"),
                start=int(spec.get("start", 0)),
                label=_text(spec.get("label"), name),
                unit=_text(spec.get("unit"), name),
            )
        for name, spec in (m.get("kinds") or {}).items():
            spec = spec or {}
            attrs = {str(k): str(v) for k, v in (spec.get("attributes") or {}).items()}
            self.kind_attrs[name] = attrs
            for attr, t in attrs.items():
                if t.startswith("enum(") and t.endswith(")"):
                    values = [x.strip() for x in t[5:-1].split(",")]
                    self.symbols.update(values)
                    self.enum_values.extend((value, name, attr) for value in values)
            sides = tuple(spec.get("sides") or ())
            self.symbols.update(sides)
            self.symbols.update(spec.get("counters") or ())
            self.symbols.add(name)
        self._declare_fields()
        for name, spec in (m.get("dice") or {}).items():
            self.dice_names.add(name)
            for face in (spec or {}).get("faces", []):
                if isinstance(face, (list, dict)):
                    self.face_symbols.update(str(x) for x in face)
                elif isinstance(face, str):
                    self.face_symbols.add(face)
        self.symbols.update(self.face_symbols)
        self.symbols.update(self.dice_names)
        self.symbols.update(str(s) for s in (m.get("symbols") or ()))
        self.symbols.update(str(s) for s in (m.get("flags") or ()))
        self.flags_set.update(str(s) for s in (m.get("flags") or ()))
        if m.get("map"):
            self.map = build_map(m["map"])
            self.symbols.update(self.map.terrain.values())
            self.symbols.update((m["map"].get("costs") or {}).keys())
            self.symbols.update(("north", "south", "east", "west"))
        flow = m.get("flow") or {}
        for stage in [flow, *(flow.get("stages") or ())]:
            for phase in stage.get("phases") or ():
                self.symbols.add(str(phase.get("name")))
        players = m.get("players") or {}
        if "default" in players and not (
            players.get("min", 1) <= players["default"] <= players.get("max", players["default"])
        ):
            self.error(
                "RC209",
                "players.default must lie between players.min and players.max",
                self.mspan("players", "default"),
            )
        for name, spec in (m.get("policies") or {}).items():
            self.policies[name] = PolicySpec(name, str(spec.get("pick", "first")), None)
        self.symbols.update(("front", "back"))

    def _collect_items(self) -> None:
        seen: dict[str, Span] = {}

        def unique(key: str, span: Span, what: str) -> bool:
            if key in seen:
                self.error(
                    "RC202",
                    f"{what} is defined twice (first at {seen[key]})",
                    span,
                    "give each definition its own id",
                )
                return False
            seen[key] = span
            return True

        generated, problems = generated_components(self.m.get("generate") or (), self.mspan_of)
        self.diags.extend(problems)
        for unit in [*self.units, ast.Unit("ruleset.yaml", tuple(generated))]:
            for item in unit.items:
                if isinstance(item, ast.Component):
                    if item.kind not in self.kind_attrs:
                        self._unknown(
                            item.kind,
                            item.span,
                            self.kind_attrs,
                            "component kind",
                            "declare it under kinds: in ruleset.yaml",
                        )
                        continue
                    if unique("c:" + item.id, item.span, f"component {item.id!r}"):
                        self.comps[item.id] = item
                elif isinstance(item, ast.Entry):
                    if unique(f"e:{item.number}", item.span, f"entry {item.number}"):
                        self.entries[item.number] = item
                elif isinstance(item, ast.EffectDef):
                    if item.name in STATEMENT_WORDS:
                        self.error(
                            "RC252",
                            f"{item.name!r} is a statement keyword: an effect of that name "
                            "could never be called",
                            item.span,
                            f"rename the effect (say {item.name}_effect)",
                        )
                    if unique("f:" + item.name, item.span, f"effect {item.name!r}"):
                        self.effects[item.name] = item
                elif isinstance(item, ast.Define):
                    if unique("f:" + item.name, item.span, f"definition {item.name!r}"):
                        self.defines[item.name] = item
                elif isinstance(item, ast.ActionDef):
                    if unique("a:" + item.name, item.span, f"action {item.name!r}"):
                        self.actions_ast[item.name] = item
                elif isinstance(item, ast.Rule) and unique(
                    "r:" + item.name, item.span, f"rule {item.name!r}"
                ):
                    self.rules[item.name] = item
        for comp in self.comps.values():
            for member in comp.members:
                if isinstance(member, ast.Side):
                    self.symbols.add(member.name)
        # Events that have replacement ("before") triggers need a two-step instruction.
        for members in [c.members for c in self.comps.values()] + [
            r.members for r in self.rules.values()
        ]:
            for member in self._all_members(members):
                if isinstance(member, ast.Trigger) and member.timing == "before":
                    self.before_events.add(member.event)
                if isinstance(member, ast.Grant):
                    self.flags_set.add(member.flag)
            for member in self._all_members(members):
                if isinstance(member, ast.Attribute) and member.name == "traits":
                    e = member.expr
                    if isinstance(e, ast.ListExpr):
                        for x in e.items:
                            if isinstance(x, ast.Name):
                                self.flags_set.add(x.name)
                                self.symbols.add(x.name)

    def _declare_fields(self) -> None:
        """``fields:``: typed game and player values that are not resources."""
        for name, spec in (self.m.get("fields") or {}).items():
            spec = spec or {}
            typ = str(spec.get("type", "number"))
            if typ.startswith("enum(") and typ.endswith(")"):
                values = [x.strip() for x in typ[5:-1].split(",")]
                self.symbols.update(values)
                self.enum_values.extend((value, "fields", name) for value in values)
            default = spec.get("default", 0 if typ == "number" else None)
            if name in self.resources or name in self.zones:
                self.error(
                    "RC253",
                    f"the field {name!r} has the name of a "
                    + ("resource" if name in self.resources else "zone"),
                    self.mspan("fields", name),
                    "give the field its own name",
                )
            self.fields[name] = FieldSpec(
                name=name,
                per_player=spec.get("of", "player") == "player",
                type=typ,
                default=default,
                shown=bool(spec.get("shown", False)),
            )

    def _check_field_value(self, name: str, value: ast.Expr, span: Span) -> None:
        """RC253: a constant of the wrong type given to a declared field."""
        spec = self.fields.get(name)
        if spec is None:
            return
        if isinstance(value, ast.Conditional):  # either branch may be the value
            for branch in (value.then, value.otherwise):
                where = branch.span if branch.span is not ast.NOWHERE else span
                self._check_field_value(name, branch, where)
            return
        typ = spec.type
        wrong = False
        if isinstance(value, ast.Const) and value.value is not None:
            v = value.value
            wrong = (typ == "number" and (isinstance(v, bool) or not isinstance(v, int))) or (
                typ == "flag" and not isinstance(v, bool)
            )
            wrong = wrong or typ.startswith("enum(")
        elif isinstance(value, ast.Name) and typ.startswith("enum("):
            allowed = [x.strip() for x in typ[5:-1].split(",")]
            # a symbol of another enum, a card, a zone, a resource or a player is no value
            # of this one (set game.trump to ash_3, to you)
            others = (self.symbols, self.comps, self.zones, self.resources, PLAYER_NAMES)
            wrong = value.name not in allowed and any(value.name in o for o in others)
        elif isinstance(value, ast.Name) and typ in ("card", "player"):
            is_player = value.name in PLAYER_NAMES
            wrong = (typ == "card" and is_player) or (
                typ == "player" and (value.name in self.comps or value.name in self.symbols)
            )
        elif isinstance(value, ast.TextLit):
            wrong = typ not in ("text",)
        if wrong:
            article = "an" if typ[:1] in "aeiou" else "a"
            self.error(
                "RC253",
                f"the field {name!r} holds {article} {typ}: this value is not one",
                span,
                f"declared under fields: {name}: type: {typ}",
            )

    def _check_enum_shadows(self) -> None:
        """RC223: an enum value that is also a zone, resource or component id means that
        other thing in expressions, so ``it.type == armor`` never compares with the value."""
        for value, kind, attr in self.enum_values:
            shadow = (
                "zone"
                if value in self.zones
                else "resource"
                if value in self.resources
                else "component"
                if value in self.comps
                else None
            )
            if shadow is not None:
                self.warn(
                    "RC223",
                    f"{value!r} is a value of {kind}.{attr} and also a {shadow}: "
                    f"in expressions it means the {shadow}",
                    self.mspan("kinds", kind, "attributes", attr),
                    f"rename the {shadow} or the value (say {value}_slot)",
                )

    def _all_members(self, members: Iterable[ast.Member]) -> Iterable[ast.Member]:
        for member in members:
            yield member
            if isinstance(member, ast.Side):
                yield from self._all_members(member.members)

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
        functions = [*self.defines, *BUILTINS, "map", "chance", every.EVERY]
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
        if isinstance(s, ast.Do):
            return self.do(s, code, scope)
        if isinstance(s, ast.If):
            ends: list[list[int]] = []
            for cond_ast, body in s.branches:
                cond = self.expr(cond_ast, scope)
                target = [0]
                code.add(_jump_unless(cond, target), s.span)
                self.block(body, code, scope)
                end = [0]
                ends.append(end)
                code.add(_jump(end), s.span)
                target[0] = code.here
            if s.otherwise is not None:
                self.block(s.otherwise, code, scope)
            for end in ends:
                end[0] = code.here
            return scope
        if isinstance(s, ast.ForEach):
            coll = self.expr(s.collection, scope)
            items, idx, var = self.fresh("items"), self.fresh("i"), s.var
            code.add(_for_init(coll, items, idx), s.span)
            exit_target = [0]
            top = code.add(_for_next(items, idx, var, exit_target), s.span)
            self.block(s.body, code, scope.child(var))
            code.add(_jump([top]), s.span)
            exit_target[0] = code.here
            return scope
        if isinstance(s, ast.Repeat):
            count = self.expr(s.count, scope)
            counter = self.fresh("n")
            code.add(_set_local(counter, count), s.span)
            exit_target = [0]
            top = code.add(_countdown(counter, exit_target), s.span)
            self.block(s.body, code, scope)
            code.add(_jump([top]), s.span)
            exit_target[0] = code.here
            return scope
        if isinstance(s, ast.While):
            exit_target = [0]
            top = code.add(_jump_unless(self.expr(s.condition, scope), exit_target), s.span)
            self.block(s.body, code, scope)
            code.add(_jump([top]), s.span)
            exit_target[0] = code.here
            return scope
        if isinstance(s, ast.Choose):
            return self.choose(s, code, scope)
        if isinstance(s, ast.ChooseOption):
            self.options(
                s.chooser,
                s.prompt,
                [(o.label, o.condition, o.body, o.span) for o in s.options],
                code,
                scope,
                s.span,
            )
            return scope
        if isinstance(s, ast.Test):
            return self.test(s, code, scope)
        self.error("RC204", "unsupported statement", s.span)
        return scope

    def chooser_fn(
        self, chooser: ast.Expr | None, scope: Scope
    ) -> tuple[ExprFn | None, str | None]:
        if chooser is None:
            return None, None
        if isinstance(chooser, ast.Name) and chooser.name in self.policies:
            return None, chooser.name
        return self.expr(chooser, scope), None

    def choose(self, s: ast.Choose, code: _Code, scope: Scope) -> Scope:
        self.scope_now = scope.child(s.var)
        coll = self.expr(s.collection, scope)
        count = self.expr(s.count, scope) if s.count is not None else None
        who, policy = self.chooser_fn(s.chooser, scope)
        prompt = self.text_value(s.prompt, None, s.span) if s.prompt else {"": f"Choose {s.var}"}
        skip = [0]
        code.add(
            _choose(coll, count, s.up_to, who, policy, prompt, s.var, self.fresh("sel"), skip),
            s.span,
        )
        self.block(s.body, code, scope.child(s.var))
        skip[0] = code.here
        return scope

    def options(
        self,
        chooser: ast.Expr | None,
        prompt: ast.Text | None,
        opts: list[tuple[ast.Text, ast.Expr | None, tuple[ast.Stmt, ...], Span]],
        code: _Code,
        scope: Scope,
        span: Span,
    ) -> None:
        who, policy = self.chooser_fn(chooser, scope)
        self.scope_now = scope
        conds = [self.expr(c, scope) if c is not None else None for _, c, _, _ in opts]
        labels = [self.text_value(t, None, span) for t, _, _, _ in opts]
        starts: list[int] = [0] * len(opts)
        end = [0]
        code.add(
            _options(
                labels,
                conds,
                who,
                policy,
                self.text_value(prompt, None, span) if prompt else {"": "Choose"},
                starts,
                end,
            ),
            span,
        )
        for i, (_, _, body, ospan) in enumerate(opts):
            starts[i] = code.here
            self.block(body, code, scope)
            code.add(_jump(end), ospan)
        end[0] = code.here

    def test(self, s: ast.Test, code: _Code, scope: Scope) -> Scope:
        target = self.expr(s.target, scope)
        extra = self.expr(s.extra, scope) if s.extra is not None else None
        skill = s.skill
        self.symbols.add(skill)
        if "pool" not in (self.m.get("tests") or {}):
            self.error(
                "RC208",
                "'test' needs a tests: section in ruleset.yaml that says how a skill becomes dice",
                s.span,
            )
        fail = [0]
        code.add(_test(skill, target, extra, s.name), s.span)
        code.add(_jump_unless(lambda ctx: ctx.loc.get("passed"), fail), s.span)
        branches = scope.child(s.name) if s.name is not None else scope
        self.block(s.on_pass, code, branches)
        end = [0]
        code.add(_jump(end), s.span)
        fail[0] = code.here
        self.block(s.on_fail, code, branches)
        end[0] = code.here
        return scope

    def do(self, s: ast.Do, code: _Code, scope: Scope) -> Scope:
        """A simple statement: the function of :mod:`statements` registered for its verb."""
        from rulecraft.compile.statements import STATEMENTS

        compile_statement = STATEMENTS.get(s.verb)
        if compile_statement is None:
            self.error("RC204", f"unsupported statement {s.verb!r}", s.span)
            return scope
        return compile_statement(self, s, code, scope)

    def call_stmt(self, s: ast.Do, code: _Code, scope: Scope) -> Scope:
        e = s.value
        if isinstance(e, ast.Name) and e.name in self.effects:
            self.used_names.add(e.name)
            eff = self.effects[e.name]
            if eff.params:
                self.error(
                    "RC206", f"effect {e.name!r} takes {len(eff.params)} argument(s)", e.span
                )
            code.add(_call_effect(e.name, [], ()), s.span)
            return scope
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.name in self.effects:
            n = e.func.name
            self.used_names.add(n)
            eff = self.effects[n]
            if len(eff.params) != len(e.args):
                self.error(
                    "RC206",
                    f"effect {n!r} takes {len(eff.params)} argument(s), not {len(e.args)}",
                    e.span,
                )
                return scope
            args = [self.expr(a, scope) for a in e.args]
            code.add(_call_effect(n, args, eff.params), s.span)
            return scope
        if isinstance(e, ast.Attr):
            # card.junk: run an effect-valued attribute of a component
            obj = self.expr(e.obj, scope)
            code.add(_run_attribute(obj, e.field), s.span)
            return scope
        if isinstance(e, ast.Name) and e.name not in scope.locals and e.name not in self.defines:
            self._unknown(
                e.name, e.span, list(self.effects), "effect", "define it with: effect NAME:"
            )
            return scope
        if (
            isinstance(e, ast.Call)
            and isinstance(e.func, ast.Name)
            and e.func.name not in self.defines
            and e.func.name not in BUILTINS
        ):
            self._unknown(e.func.name, e.func.span, list(self.effects), "effect")
            return scope
        if e is not None:
            self.error(
                "RC207",
                "a value on its own does nothing",
                e.span,
                "did you mean to use it in an effect such as 'gain' or 'move'?",
            )
        return scope

    def _check_unit(self, unit: str, span: Span) -> None:
        counters: set[str] = set()
        for k in self.kinds.values():
            counters.update(k.counters)
        for spec in (self.m.get("kinds") or {}).values():
            counters.update((spec or {}).get("counters") or ())
        if unit not in self.resources and unit not in counters:
            self._unknown(
                unit, span, list(self.resources) + sorted(counters), "resource or counter"
            )

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

    # ------------------------------------------------------------------ definitions
    def _compile_defines(self) -> None:
        for name, d in self.defines.items():
            self.define_fns[name] = self.expr(d.expr, Scope(set(d.params) | {"you", "this"}, True))

    def _reserve_effects(self) -> None:
        for name in self.effects:
            self.effect_routines[name] = len(self.routines)
            self.routines.append(Routine(name, (), ()))

    def _fill_effects(self) -> None:
        for name, eff in self.effects.items():
            code = _Code(name)
            self.block(eff.body, code, Scope(set(eff.params) | {"you", "this"}, True))
            self.routines[self.effect_routines[name]] = Routine(
                name, tuple(code.code), tuple(code.spans), eff.params
            )

    def _compile_components(
        self,
    ) -> tuple[
        dict[str, ComponentDef],
        dict[str, list[AbilitySpec]],
        dict[str, list[TriggerSpec]],
        dict[str, list[ModifierSpec]],
        dict[str, list[GrantSpec]],
    ]:
        kinds_spec = self.m.get("kinds") or {}
        for kname, spec in kinds_spec.items():
            spec = spec or {}
            active_if = self._manifest_expr(
                spec.get("active_if"), ("kinds", kname, "active_if"), Scope({"you", "this"}, True)
            )
            active_in = frozenset(spec.get("active_in") or ())
            self.kinds[kname] = KindSpec(
                name=kname,
                active_in=active_in,
                abilities_in=frozenset(spec.get("abilities_in") or active_in),
                active_if=active_if,
                counters=tuple(spec.get("counters") or ()),
                sides=tuple(spec.get("sides") or ()),
            )
            for z in active_in | frozenset(spec.get("abilities_in") or ()):
                if z not in self.zones and z != "map":
                    self._unknown(z, self.mspan("kinds", kname, "active_in"), self.zones, "zone")
        defs: dict[str, ComponentDef] = {}
        abilities: dict[str, list[AbilitySpec]] = {}
        triggers: dict[str, list[TriggerSpec]] = {}
        modifiers: dict[str, list[ModifierSpec]] = {}
        grants: dict[str, list[GrantSpec]] = {}
        for cid, comp in self.comps.items():
            scope = Scope({"you", "this"}, True)
            attrs: dict[str, Any] = {}
            dynamic: dict[str, ExprFn] = {}
            effects: dict[str, int] = {}
            side_attrs: dict[str, dict[str, Any]] = {}
            texts: dict[str, str] = {}
            copies = 1
            declared = self.kind_attrs.get(comp.kind, {})
            ability_list: list[AbilitySpec] = []

            def members(
                ms: tuple[ast.Member, ...],
                side: str | None,
                target: dict[str, Any],
                cid: str = cid,
                comp: ast.Component = comp,
            ) -> None:
                nonlocal copies, texts
                for mem in ms:
                    if isinstance(mem, ast.Attribute):
                        typ = declared.get(mem.name)
                        if mem.name == "copies":
                            e = mem.expr
                            if isinstance(e, ast.Const) and isinstance(e.value, int):
                                copies = e.value
                            else:
                                self.error("RC209", "copies must be a whole number", mem.span)
                            continue
                        if mem.name == "text":
                            e = mem.expr
                            if isinstance(e, ast.TextLit):
                                if side is None:
                                    texts = e.text.as_dict()
                                target["text"] = e.text.as_dict()
                            continue
                        if typ is None and mem.name not in ("traits", "name"):
                            self.warn(
                                "RC210",
                                f"{comp.kind} has no attribute {mem.name!r} declared",
                                mem.span,
                                (
                                    f"did you mean {g!r}?"
                                    if (g := did_you_mean(mem.name, list(declared)))
                                    else f"declare it under kinds: {comp.kind}: attributes:"
                                ),
                            )
                        if typ is not None and typ.rstrip("!") == "effect":
                            effects[mem.name if side is None else f"{side}:{mem.name}"] = (
                                self.routine(f"{cid}.{mem.name}", mem.body, scope)
                            )
                            continue
                        e = mem.expr
                        if e is None:
                            self.error(
                                "RC209",
                                f"{mem.name!r} holds a value, not effects",
                                mem.span,
                                f"declare it as 'effect' in kinds: {comp.kind}: attributes:"
                                if typ is None
                                else None,
                            )
                            continue
                        const = _constant(e)
                        if const is not _MISSING:
                            if (
                                isinstance(const, int)
                                and not isinstance(const, bool)
                                and abs(const) > 2**31
                            ):
                                self.error(
                                    "RC205",
                                    f"the number {const} is too large",
                                    e.span,
                                    "numbers must stay below 2**31",
                                )
                            target[mem.name] = const
                            self._check_type(typ, const, mem.span, mem.name)
                        elif (
                            isinstance(e, ast.Name)
                            and e.name in self.symbols
                            and e.name not in self.zones
                            and e.name not in self.resources
                            and e.name not in self.defines
                        ):
                            target[mem.name] = e.name
                        elif isinstance(e, ast.ListExpr) and all(
                            isinstance(x, ast.Name) for x in e.items
                        ):
                            target[mem.name] = [x.name for x in e.items if isinstance(x, ast.Name)]
                        elif isinstance(e, ast.Qty | ast.Binary) and _is_qty(e):
                            fn = self.expr(e, scope)
                            target[mem.name] = _qty_const(e)
                            if target[mem.name] is None:
                                dynamic[mem.name] = fn
                        else:
                            dynamic[mem.name] = self.expr(e, scope)
                    elif isinstance(mem, ast.Ability):
                        idx = len(ability_list)
                        ability_list.append(
                            AbilitySpec(
                                owner=cid,
                                index=idx,
                                label=mem.label.as_dict() if mem.label else {"": "Ability"},
                                cost=tuple(self.qty_parts(mem.cost, scope)) if mem.cost else (),
                                limit=mem.limit,
                                condition=self.expr(mem.condition, scope)
                                if mem.condition
                                else None,
                                routine=self.routine(f"{cid}.ability{idx}", mem.body, scope),
                                side=side,
                            )
                        )
                        for unit, _ in ability_list[-1].cost:
                            where = _unit_span(mem.cost, unit) if mem.cost else None
                            self._check_unit(unit, where or mem.span)
                    elif isinstance(mem, ast.Trigger):
                        triggers.setdefault(mem.event, []).append(
                            self.trigger(mem, cid, side, comp.label)
                        )
                    elif isinstance(mem, ast.Modifier):
                        modifiers.setdefault(mem.prop, []).append(
                            self.modifier_spec(mem, cid, side, scope)
                        )
                    elif isinstance(mem, ast.Grant):
                        grants.setdefault(mem.flag, []).append(
                            GrantSpec(
                                cid,
                                mem.flag,
                                self.expr(mem.targets, scope),
                                self.expr(mem.condition, scope) if mem.condition else None,
                                side,
                            )
                        )
                    elif isinstance(mem, ast.Side):
                        kind = kinds_spec.get(comp.kind) or {}
                        if mem.name not in (kind.get("sides") or ()):
                            self.error(
                                "RC211",
                                f"{comp.kind} has no side {mem.name!r}",
                                mem.span,
                                f"declare {mem.name!r} under sides: of {comp.kind}",
                            )
                        sub: dict[str, Any] = {}
                        members(mem.members, mem.name, sub)
                        if mem.label is not None:
                            sub["name"] = mem.label.as_dict()
                        side_attrs[mem.name] = sub
                    elif isinstance(mem, ast.Choice):
                        self.error(
                            "RC212",
                            "choices belong to story entries",
                            mem.span,
                            "use 'choose:' with options inside an effect",
                        )

            members(comp.members, None, attrs)
            for aname, typ in declared.items():
                if aname in attrs or aname in dynamic or aname in effects:
                    continue
                if typ.endswith("!"):
                    self.error(
                        "RC213", f"{comp.kind} {cid!r} needs the attribute {aname!r}", comp.span
                    )
                elif typ == "number":
                    # a declared number the card does not give is 0, so sums and
                    # comparisons over mixed cards need no guard (sum(you.hand.coins))
                    attrs[aname] = 0
            if ability_list:
                abilities[cid] = ability_list
            defs[cid] = ComponentDef(
                id=cid,
                kind=comp.kind,
                name=comp.label.as_dict() if comp.label else {"": cid},
                attributes=attrs,
                dynamic=dynamic,
                effects=effects,
                side_attributes=side_attrs,
                copies=copies,
                text=texts,
                span=comp.span,
            )
        self.defs = defs
        return defs, abilities, triggers, modifiers, grants

    def modifier_spec(
        self, mem: ast.Modifier, owner: str | None, side: str | None, scope: Scope
    ) -> ModifierSpec:
        def optional(e: ast.Expr | None) -> ExprFn | None:
            return self.expr(e, scope) if e is not None else None

        return ModifierSpec(
            owner,
            mem.prop,
            self.expr(mem.targets, scope),
            self.expr(mem.amount, scope),
            optional(mem.condition),
            side,
            optional(mem.minimum),
            optional(mem.maximum),
        )

    def _check_type(self, typ: str | None, value: Any, span: Span, name: str) -> None:
        if typ is None:
            return
        typ = typ.rstrip("!")
        ok = True
        if typ == "number":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif typ == "text":
            ok = isinstance(value, dict)
        elif typ == "bool":
            ok = isinstance(value, bool)
        elif typ == "list":
            ok = isinstance(value, list)
        if not ok:
            self.error("RC209", f"{name!r} must be a {typ}, not {_describe(value)}", span)

    def trigger(
        self, mem: ast.Trigger, owner: str | None, side: str | None, label: ast.Text | None
    ) -> TriggerSpec:
        self.events_listened.append((mem.event, mem.span))
        if mem.timing == "before":
            self.before_triggers.append((mem.event, mem.span))
        scope = Scope(set(mem.params) | {"you", "this"}, True)
        routine_code = _Code(f"{owner or 'rule'}.{mem.timing}.{mem.event}")
        if mem.optional:
            skip = [0]
            question = self.text_value(mem.prompt, scope, mem.span) if mem.prompt else None
            routine_code.add(_optional(skip, question), mem.span)
            self.block(mem.body, routine_code, scope)
            skip[0] = routine_code.here
        else:
            self.block(mem.body, routine_code, scope)
        return TriggerSpec(
            owner=owner,
            timing=mem.timing,
            event=mem.event,
            params=self._trigger_params(mem),
            condition=self.expr(mem.condition, scope) if mem.condition else None,
            optional=mem.optional,
            routine=self.finish(routine_code),
            label=label.as_dict() if label else {"": mem.event},
            side=side,
        )

    def _trigger_params(self, mem: ast.Trigger) -> tuple[str, ...]:
        """The names a trigger binds, by position of the event's arguments.  A declared event
        binds by name (``when bust(card)`` takes the argument called ``card``), any other
        by position; more parameters than the event carries is RC255."""
        declared = self.events_declared.get(mem.event)
        if declared is None:
            arity = BUILTIN_EVENTS.get(mem.event)
            if arity is not None and len(mem.params) > arity:
                self.error(
                    "RC255",
                    f"the event {mem.event!r} carries {arity} argument(s), not {len(mem.params)}",
                    mem.span,
                    "see the table of events in docs/language.md",
                )
            return mem.params
        bound = [f"_arg{i}" for i in range(len(declared))]
        for name in mem.params:
            if name not in declared:
                guess = did_you_mean(name, list(declared))
                self.error(
                    "RC255",
                    f"the event {mem.event!r} has no parameter {name!r} "
                    f"(it carries {', '.join(declared) or 'none'})",
                    mem.span,
                    f"did you mean {guess!r}?" if guess else "name a declared parameter",
                )
                continue
            bound[declared.index(name)] = name
        return tuple(bound)

    def _compile_actions(self) -> dict[str, ActionSpec]:
        out: dict[str, ActionSpec] = {}
        for name, a in self.actions_ast.items():
            scope = Scope({"you"})
            coll = None
            if a.for_var is not None and a.for_collection is not None:
                coll = self.expr(a.for_collection, scope)
                scope = scope.child(a.for_var)
            cost = tuple(self.qty_parts(a.cost, scope)) if a.cost else ()
            for unit, _ in cost:
                self._check_unit(unit, (_unit_span(a.cost, unit) if a.cost else None) or a.span)
            out[name] = ActionSpec(
                name=name,
                label=self.text_value(a.label, scope, a.span) if a.label else {"": name},
                for_var=a.for_var,
                for_collection=coll,
                cost=cost,
                limit=a.limit,
                condition=self.expr(a.condition, scope) if a.condition else None,
                routine=self.routine(f"action.{name}", a.body, scope),
            )
        return out

    def _compile_entries(self) -> dict[int, EntryDef]:
        out: dict[int, EntryDef] = {}
        for number, entry in self.entries.items():
            scope = Scope({"you", "this"}, True, True)
            code = _Code(f"entry.{number}")
            text: dict[str, str] = {}
            choices: list[ast.Choice] = []
            chooser: ast.Expr | None = None
            for mem in entry.members:
                if isinstance(mem, ast.Attribute):
                    if mem.name == "text" and isinstance(mem.expr, ast.TextLit):
                        text = mem.expr.text.as_dict()
                    elif mem.name == "do":
                        continue
                    elif mem.name == "chooser":
                        chooser = mem.expr
                    else:
                        self.warn(
                            "RC210",
                            f"entries have no attribute {mem.name!r}",
                            mem.span,
                            "entries take text:, do: and choice",
                        )
                elif isinstance(mem, ast.Choice):
                    choices.append(mem)
                else:
                    self.error("RC212", "entries hold text:, do: and choice", mem.span)
            title = entry.label.as_dict() if entry.label else {"": f"Entry {number}"}
            code.add(_enter_entry(number, title, text), entry.span)
            for mem in entry.members:
                if isinstance(mem, ast.Attribute) and mem.name == "do":
                    self.block(mem.body, code, scope)
            if choices:
                self.options(
                    chooser,
                    entry.label,
                    [(c.label, c.condition, c.body, c.span) for c in choices],
                    code,
                    scope,
                    entry.span,
                )
            out[number] = EntryDef(number, title, text, self.finish(code), entry.span)
        return out

    def _compile_rules(self) -> tuple[list[TriggerSpec], list[ModifierSpec], list[GrantSpec]]:
        trig: list[TriggerSpec] = []
        mods: list[ModifierSpec] = []
        grants: list[GrantSpec] = []
        for name, rule in self.rules.items():
            scope = Scope({"you", "this"}, True)
            for mem in rule.members:
                if isinstance(mem, ast.Trigger):
                    trig.append(self.trigger(mem, None, None, rule.label or ast.Text(name)))
                elif isinstance(mem, ast.Modifier):
                    mods.append(self.modifier_spec(mem, None, None, scope))
                elif isinstance(mem, ast.Grant):
                    grants.append(
                        GrantSpec(
                            None,
                            mem.flag,
                            self.expr(mem.targets, scope),
                            self.expr(mem.condition, scope) if mem.condition else None,
                            None,
                        )
                    )
                else:
                    self.error("RC212", "rules hold triggers, modifiers and grants", mem.span)
        return trig, mods, grants

    # ------------------------------------------------------------------ flow
    def _plan_spec(self, plan: Any, path: tuple[Any, ...], scope: Scope) -> PlanSpec | None:
        """A phase's ``plan:`` (``true`` or its options), or ``None`` for a plain phase."""
        if not plan:
            return None
        options = plan if isinstance(plan, dict) else {}
        execute_if = self._manifest_expr(
            options.get("execute_if"), (*path, "plan", "execute_if"), scope
        )
        return PlanSpec(
            execute_if=execute_if,
            execute_label=_text(options.get("execute_label"), "Execute the plan"),
            reset_label=_text(options.get("reset_label"), "Reset the plan"),
            max_resets=options.get("max_resets"),
        )

    def _manifest_text(
        self, value: Any, path: tuple[Any, ...], scope: Scope, default: str
    ) -> dict[str, str] | ExprFn:
        """A manifest text (a string or {lang: text}); a function when it interpolates
        ``{...}`` (a phase's label: "Your action, {you}: {you.gold} gold")."""
        text = _text(value, default)
        if not any("{" in t for t in text.values()):
            return text
        translations = tuple((k, v) for k, v in text.items() if k)
        parsed = ast.Text(text[""], translations)
        return self.text_value(parsed, scope, self.mspan(*path))  # type: ignore[no-any-return]

    def _phase_spec(self, ph: dict[str, Any], path: tuple[Any, ...], scope: Scope) -> PhaseSpec:
        """One phase of a turn: its start statements, its menu and how the menu behaves."""
        body = self._manifest_block(ph.get("do"), (*path, "do"), f"phase.{ph.get('name')}", scope)
        acts = tuple(ph.get("actions") or ())
        for a in acts:
            if a != "abilities" and a not in self.actions_ast:
                self._unknown(
                    a, self.mspan(*path, "actions"), [*self.actions_ast, "abilities"], "action"
                )
            self.used_names.add(a)
        return PhaseSpec(
            name=str(ph.get("name", f"phase{path[-1]}")),
            label=self._manifest_text(
                ph.get("label"), (*path, "label"), scope, str(ph.get("name"))
            ),
            body=body,
            actions=acts,
            max_actions=ph.get("max"),
            distinct=bool(ph.get("distinct", False)),
            mandatory=bool(ph.get("mandatory", False)),
            pass_label=_text(ph.get("pass_label"), "End turn"),
            plan=self._plan_spec(ph.get("plan"), path, scope),
            ask_to_pass=bool(ph.get("ask_to_pass", True)),
        )

    def _stage_sources(self, flow: dict[str, Any], scope: Scope) -> list[_Stage]:
        """The stages of a round: the declared ``stages:``, or the plain ``phases:`` as the
        one stage of a classic round (every player takes one turn)."""
        if "stages" not in flow:
            phases = tuple(
                (("flow", "phases", i), ph) for i, ph in enumerate(flow.get("phases") or ())
            )
            return [_Stage("round", ("flow",), phases)]
        if "phases" in flow:
            self.error(
                "RC256",
                "flow has both phases and stages",
                self.mspan("flow", "phases"),
                "a round is either one turn per player (phases) or stages; move the phases "
                "into a stage",
            )
        seen: dict[str, str] = {}
        out: list[_Stage] = []
        for k, raw in enumerate(flow.get("stages") or ()):
            path = ("flow", "stages", k)
            name = str(raw.get("name", f"stage{k}"))
            for j, ph in enumerate(raw.get("phases") or ()):
                phase_name = str(ph.get("name"))
                if phase_name in seen:
                    self.error(
                        "RC256",
                        f"phase {phase_name!r} is also a phase of stage {seen[phase_name]!r}",
                        self.mspan(*path, "phases", j, "name"),
                        "every phase needs its own name (triggers and scenarios name phases)",
                    )
                seen[phase_name] = name
            out.append(
                _Stage(
                    name,
                    path,
                    tuple(
                        ((*path, "phases", j), ph) for j, ph in enumerate(raw.get("phases") or ())
                    ),
                    do=self._manifest_block(raw.get("do"), (*path, "do"), f"stage.{name}", scope),
                    repeat=self._manifest_expr(
                        raw.get("repeat_while"), (*path, "repeat_while"), scope
                    ),
                    leader=self._manifest_expr(raw.get("leader"), (*path, "leader"), scope),
                    after=self._manifest_block(
                        raw.get("after_each"), (*path, "after_each"), f"stage.{name}.after", scope
                    ),
                    staged=True,
                )
            )
        return out

    def _compile_flow(self) -> tuple[int, dict[str, Any], tuple[PhaseSpec, ...]]:
        flow = self.m.get("flow") or {}
        scope = Scope({"you"})
        stages = self._stage_sources(flow, scope)
        phases = [
            self._phase_spec(ph, path, scope) for stage in stages for path, ph in stage.phases
        ]
        setup = self._manifest_block(self.m.get("setup"), ("setup",), "setup", scope)
        round_start = self._manifest_block(
            flow.get("round_start"), ("flow", "round_start"), "round_start", scope
        )
        round_end = self._manifest_block(
            flow.get("round_end"), ("flow", "round_end"), "round_end", scope
        )
        start_player = flow.get("start_player", "first")
        start_fn: ExprFn | None = None
        if start_player not in ("first", "random"):
            start_fn = self._manifest_expr(start_player, ("flow", "start_player"), scope)
        order = str(flow.get("order", "clockwise"))
        if order not in TURN_ORDERS:
            self._unknown(order, self.mspan("flow", "order"), TURN_ORDERS, "turn order")
            order = "clockwise"
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
        code.add(_choose_start(start_player, start_fn), Span(self.mfile, 1, 1))
        if setup is not None:
            code.add(_call_routine(setup), self.mspan("setup"))
        code.add(_announce_start, Span(self.mfile, 1, 1))
        labels["round"] = code.here
        code.add(_round_start(round_start), self.mspan("flow"))
        first_phase = 0
        for k, stage in enumerate(stages):
            self._emit_stage(code, k, stage, phases, first_phase, order, labels)
            first_phase += len(stage.phases)
        labels["turn_end"] = labels["turn_ends"][0] if labels["turn_ends"] else code.here
        labels["round_end"] = code.here
        code.add(
            _round_end(round_end, bool(flow.get("rotate_start", False)), labels), self.mspan("flow")
        )
        labels["trigger_order"] = str(flow.get("trigger_order", "active_first"))
        main = self.finish(code)
        return main, labels, tuple(phases)

    def _emit_stage(
        self,
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
        span = self.mspan(*stage.path)
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
        code.add(_turn_start, span)
        starts: list[int] = []
        for j, (path, _ph) in enumerate(stage.phases):
            i = first_phase + j
            starts.append(code.here)
            code.add(_phase_start(i, phases[i].body), self.mspan(*path))
            if phases[i].actions:
                code.add(_menu(i), self.mspan(*path, "actions"))
        turn_end = code.here
        code.add(_turn_end(order, stage_labels), span)
        if stage.staged:
            code.add(_circuit_end(stage.after, stage.repeat is not None, circuit, labels), span)
        exit_target[0] = code.here
        labels["phase_starts"].extend(starts)
        labels["phase_next"].extend([*starts[1:], turn_end])
        labels["phase_stage"].extend([index] * len(starts))
        labels["turn_ends"].append(turn_end)
        labels["stage_turns"].append((stage_labels["turn"], turn_end))
        labels["stage_ends"].append(code.here)

    def _compile_end(self) -> tuple[EndSpec, ...]:
        out: list[EndSpec] = []
        for i, spec in enumerate(self.m.get("end") or ()):
            cond = self._manifest_expr(spec.get("if"), ("end", i, "if"), Scope({"you"}))
            if cond is None:
                continue
            outcome = "draw"
            who: ExprFn | None = None
            if "winner" in spec:
                if spec["winner"] == "all":
                    outcome = "all_win"
                else:
                    outcome = "winner"
                    who = self._manifest_expr(spec["winner"], ("end", i, "winner"), Scope({"you"}))
            elif "loser" in spec:
                if spec["loser"] == "all":
                    outcome = "all_lose"
                else:
                    outcome = "loser"
                    who = self._manifest_expr(spec["loser"], ("end", i, "loser"), Scope({"you"}))
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

    def _placements(self) -> tuple[Placement, ...]:
        out: list[Placement] = []
        placed: set[str] = set()
        zone_counts: dict[str, int] = {}
        for i, spec in enumerate(self.m.get("components") or ()):
            zone = str(spec.get("zone"))
            if zone not in self.zones:
                self._unknown(zone, self.mspan("components", i, "zone"), self.zones, "zone")
                continue
            per_player = self.zones[zone].per_player
            ids: list[str] = []
            if "kind" in spec:
                kinds = spec["kind"] if isinstance(spec["kind"], list) else [spec["kind"]]
                for k in kinds:
                    if k not in self.kind_attrs:
                        self._unknown(
                            k, self.mspan("components", i, "kind"), self.kind_attrs, "kind"
                        )
                ids = [c for c, d in self.comps.items() if d.kind in kinds]
            if "ids" in spec:
                for c in spec["ids"]:
                    if c not in self.comps:
                        self._unknown(
                            c, self.mspan("components", i, "ids"), self.comps, "component"
                        )
                    else:
                        ids.append(c)
            for c in ids:
                if c in placed:
                    self.error(
                        "RC214", f"component {c!r} is placed twice", self.mspan("components", i)
                    )
                    continue
                placed.add(c)
                copies = int(spec.get("copies", self.defs[c].copies if c in self.defs else 1))
                out.append(Placement(c, copies, zone, per_player))
                zone_counts[zone] = zone_counts.get(zone, 0) + copies
        for name, z in self.zones.items():
            if z.size is not None and zone_counts.get(name, 0) != z.size:
                self.error(
                    "RC215",
                    f"zone {name!r} should start with {z.size} components, "
                    f"but gets {zone_counts.get(name, 0)}",
                    self.mspan("zones", name, "size"),
                    "change the copies of its components, or its size",
                )
        for cid, comp in self.comps.items():
            if cid not in placed:
                self.warn(
                    "RC216",
                    f"component {cid!r} is never placed in a zone, so it never takes part",
                    comp.span,
                    "list it (or its kind) under components: in ruleset.yaml",
                )
        return tuple(out)

    def _post_checks(self) -> None:
        for number, span, _ in self.goto_targets:
            if number not in self.entries:
                self._unknown(str(number), span, [str(n) for n in self.entries], "entry")
        for flag, span in self.flags_tested:
            if flag not in self.flags_set and flag not in self.kind_attrs:
                self.warn(
                    "RC217",
                    f"the flag {flag!r} is tested but never set",
                    span,
                    "set it with 'set flag NAME', a grant or traits, or remove the test",
                )
        for event, span in self.events_listened:
            if (
                event not in BUILTIN_EVENTS
                and event not in self.events_emitted
                and event not in self.events_declared
            ):
                self.warn(
                    "RC218",
                    f"nothing ever emits the event {event!r}",
                    span,
                    f"emit it with 'emit {event}(...)', or listen to a built-in event",
                )
        self._check_before_triggers()
        self.check_field_reads(self.field_reads)
        for name, eff in self.effects.items():
            if name not in self.used_names:
                self.warn("RC219", f"effect {name!r} is never used", eff.span)
        for name, d in self.defines.items():
            if name not in self.used_names:
                self.warn("RC219", f"definition {name!r} is never used", d.span)
        for name, a in self.actions_ast.items():
            if name not in self.used_names:
                self.warn(
                    "RC219",
                    f"action {name!r} is in no phase's actions",
                    a.span,
                    "list it under flow: phases: actions:",
                )

    def _check_before_triggers(self) -> None:
        """RC222: a before-trigger of a built-in event that is not a resource change never
        runs (custom events and resource changes can be replaced beforehand)."""
        preventable = {event for event, _ in RESOURCE_VERBS.values()}
        for event, span in self.before_triggers:
            if event in BUILTIN_EVENTS and event not in preventable:
                self.warn(
                    "RC222",
                    f"'before {event}' never runs: of the built-in events only resource "
                    "changes can be replaced beforehand",
                    span,
                    "before-triggers answer "
                    + ", ".join(sorted(preventable))
                    + " and custom events; use 'when'",
                )

    def check_field_reads(self, reads: Iterable[FieldRead]) -> None:
        """RC250 for a field nothing declares or sets, RC251 for a definition read as one."""
        component_fields: set[str] = set()
        for attrs in self.kind_attrs.values():
            component_fields.update(attrs)
        for kind in self.kinds.values():
            component_fields.update(kind.counters)
        for d in self.defs.values():
            component_fields.update(d.attributes, d.dynamic, d.effects)
            for side in d.side_attributes.values():
                component_fields.update(side)
        for zone in self.zones.values():
            component_fields.update(zone.public_fields, zone.local_fields)
        known = catalogue(
            zones=self.zones,
            resources=self.resources,
            player_fields=[n for n, f in self.fields.items() if f.per_player],
            game_fields=[n for n, f in self.fields.items() if not f.per_player]
            + [n for n, r in self.resources.items() if not r.per_player],
            component_fields=component_fields,
            set_fields=self.set_fields,
            symbols=self.symbols,
        )
        for read in reads:
            if known.known(read):
                continue
            sort = {"player": "a player", "game": "the game"}.get(
                read.kind, "anything in this ruleset"
            )
            if read.field in self.defines:
                self.error(
                    "RC251",
                    f"{read.field!r} is a definition, not a field",
                    read.span,
                    f"call it: {read.field}(x), or over a list: "
                    f"[{read.field}(p) for p in players] is written map(players, {read.field})",
                )
                continue
            guess = did_you_mean(read.field, known.candidates(read))
            self.error(
                "RC250",
                f"{sort} has no field {read.field!r}: nothing declares it or sets it",
                read.span,
                f"did you mean {guess!r}?"
                if guess
                else "declare it (kinds: attributes:, fields:) or give it a value with set",
            )


NOWHERE_SPAN = Span("<text>", 1, 1)
TURN_ORDERS = ("clockwise", "counterclockwise")
"""The turn orders a manifest may name: ``clockwise`` (seat 1, 2, 3, ...) and
``counterclockwise`` (seat 1, then the last seat, ...), each starting from the start player."""


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


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, dict):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _constant(e: ast.Expr) -> Any:
    if isinstance(e, ast.Const):
        return e.value
    if isinstance(e, ast.TextLit):
        return e.text.as_dict()
    if (
        isinstance(e, ast.Unary)
        and e.op == "-"
        and isinstance(e.operand, ast.Const)
        and isinstance(e.operand.value, int)
    ):
        return -e.operand.value
    return _MISSING


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


def _unit_span(e: ast.Expr, unit: str) -> Span | None:
    """Where ``unit`` is written in an amount such as ``1 glod`` or ``2 gold + 1 glod``: the
    last ``len(unit)`` characters of its quantity's span (the parser ends it at the unit)."""
    if isinstance(e, ast.Qty) and e.unit == unit and e.span.end_column is not None:
        line = e.span.end_line or e.span.line
        start = max(1, e.span.end_column - len(unit) + 1)
        return Span(e.span.file, line, start, line, e.span.end_column)
    if isinstance(e, ast.Binary) and e.op == "+":
        return _unit_span(e.left, unit) or _unit_span(e.right, unit)
    return None


def _is_qty(e: ast.Expr) -> bool:
    if isinstance(e, ast.Qty):
        return True
    return isinstance(e, ast.Binary) and e.op == "+" and _is_qty(e.left) and _is_qty(e.right)


def _qty_const(e: ast.Expr) -> dict[str, int] | None:
    if isinstance(e, ast.Qty):
        if isinstance(e.amount, ast.Const) and isinstance(e.amount.value, int):
            return {e.unit: e.amount.value}
        return None
    if isinstance(e, ast.Binary):
        a, b = _qty_const(e.left), _qty_const(e.right)
        if a is None or b is None:
            return None
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + v
        return out
    return None


def _opponents(ctx: E.Ctx) -> list[str]:
    you = ctx.loc.get("you")
    seat = E.seat_of(you) if you is not None else ctx.st["active"]
    n = ctx.st["players"]
    return [E.player((seat + i) % n) for i in range(1, n)]


# The instruction closures live in a module of their own.
from rulecraft.runtime.instructions import (  # noqa: E402
    _announce_start,
    _call_effect,
    _call_routine,
    _choose,
    _choose_start,
    _circuit_end,
    _circuit_start,
    _countdown,
    _enter_entry,
    _for_init,
    _for_next,
    _jump,
    _jump_unless,
    _menu,
    _optional,
    _options,
    _phase_start,
    _round_end,
    _round_start,
    _run_attribute,
    _set_local,
    _stage_start,
    _test,
    _turn_end,
    _turn_start,
)
