"""The names a compiled ruleset declares, frozen: what expressions written later compile against.

A :class:`~rulecraft.compile.compiler.Compiler` is one compilation's working state: its
tables fill up as it reads the ruleset, and it collects diagnostics, routines and field
reads on the way.  Once the ruleset is compiled, the only thing still needed of it is
*what the names mean*, for the expressions typed after the game has started: the REPL's
``eval``, a scenario's ``expect``, the solver's goal.  :class:`Names` is that, as a frozen
record of read-only tables kept on the :class:`~rulecraft.runtime.program.Program`
(``program.names``); the compiler itself is dropped when it is done.

:func:`expression_compiler` compiles one such expression with a fresh compiler seeded from
the record (its own copies of the tables: nothing an expression's compilation does reaches
the program).

>>> import rulecraft
>>> from rulecraft.language.parser import parse_expression
>>> program = rulecraft.load("tictactoe").program
>>> isinstance(program.names, Names), "supply" in program.names.zones
(True, True)
>>> tree, _ = parse_expression("count(spaces) + 1", "<expression>")
>>> fn, problems = expression_compiler(program, tree)
>>> fn is not None, problems
(True, [])
>>> tree, _ = parse_expression("count(spacez)", "<expression>")
>>> [p.code for p in expression_compiler(program, tree)[1]]
['RC201']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language import ast
from rulecraft.runtime.program import (
    ComponentDef,
    ExprFn,
    FieldSpec,
    KindSpec,
    MapSpec,
    PolicySpec,
    Program,
    ResourceSpec,
    ZoneSpec,
)

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

Locate = Callable[[tuple[Any, ...]], Span]


@dataclass(frozen=True, slots=True)
class Names:
    """What each name of one compiled ruleset means (read-only; see the module text)."""

    manifest: Mapping[str, Any]
    manifest_file: str
    manifest_lines: tuple[str, ...]
    locate: Locate
    zones: Mapping[str, ZoneSpec]
    resources: Mapping[str, ResourceSpec]
    kinds: Mapping[str, KindSpec]
    kind_attrs: Mapping[str, Mapping[str, str]]
    components: Mapping[str, ast.Component]
    entries: Mapping[int, ast.Entry]
    actions: Mapping[str, ast.ActionDef]
    rules: Mapping[str, ast.Rule]
    definitions: Mapping[str, ComponentDef]
    effects: Mapping[str, ast.EffectDef]
    effect_routines: Mapping[str, int]
    defines: Mapping[str, ast.Define]
    define_fns: Mapping[str, ExprFn]
    fields: Mapping[str, FieldSpec]
    policies: Mapping[str, PolicySpec]
    events: Mapping[str, tuple[str, ...]]
    events_emitted: frozenset[str]
    before_events: frozenset[str]
    #: the values of enumerated attributes: (value, kind, attribute)
    enum_values: tuple[tuple[str, str, str], ...]
    #: fields some ``set`` statement gives a value (reading one is no unknown field)
    set_fields: frozenset[str]
    symbols: frozenset[str]
    flags: frozenset[str]
    face_symbols: frozenset[str]
    dice_names: frozenset[str]
    map: MapSpec | None


def names_of(c: Compiler) -> Names:
    """The finished compilation ``c``'s names, frozen (copies: ``c`` may be dropped)."""
    return Names(
        manifest=MappingProxyType(dict(c.m)),
        manifest_file=c.mfile,
        manifest_lines=tuple(c.manifest_lines),
        locate=c.locate,
        zones=MappingProxyType(dict(c.zones)),
        resources=MappingProxyType(dict(c.resources)),
        kinds=MappingProxyType(dict(c.kinds)),
        kind_attrs=MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in c.kind_attrs.items()}
        ),
        components=MappingProxyType(dict(c.comps)),
        entries=MappingProxyType(dict(c.entries)),
        actions=MappingProxyType(dict(c.actions_ast)),
        rules=MappingProxyType(dict(c.rules)),
        definitions=MappingProxyType(dict(c.defs)),
        effects=MappingProxyType(dict(c.effects)),
        effect_routines=MappingProxyType(dict(c.effect_routines)),
        defines=MappingProxyType(dict(c.defines)),
        define_fns=MappingProxyType(dict(c.define_fns)),
        fields=MappingProxyType(dict(c.fields)),
        policies=MappingProxyType(dict(c.policies)),
        events=MappingProxyType(dict(c.events_declared)),
        events_emitted=frozenset(c.events_emitted),
        before_events=frozenset(c.before_events),
        enum_values=tuple(c.enum_values),
        set_fields=frozenset(c.set_fields),
        symbols=frozenset(c.symbols),
        flags=frozenset(c.flags_set),
        face_symbols=frozenset(c.face_symbols),
        dice_names=frozenset(c.dice_names),
        map=c.map,
    )


def compiler_for(names: Names) -> Compiler:
    """A fresh compiler that knows ``names`` (its own mutable copies of the tables), for
    one expression written after the ruleset was compiled."""
    from rulecraft.compile.compiler import Compiler

    c = Compiler(
        dict(names.manifest),
        [],
        names.manifest_file,
        names.locate,
        list(names.manifest_lines),
    )
    c.zones = dict(names.zones)
    c.resources = dict(names.resources)
    c.kinds = dict(names.kinds)
    c.kind_attrs = {k: dict(v) for k, v in names.kind_attrs.items()}
    c.comps = dict(names.components)
    c.entries = dict(names.entries)
    c.actions_ast = dict(names.actions)
    c.rules = dict(names.rules)
    c.defs = dict(names.definitions)
    c.effects = dict(names.effects)
    c.effect_routines = dict(names.effect_routines)
    c.defines = dict(names.defines)
    c.define_fns = dict(names.define_fns)
    c.fields = dict(names.fields)
    c.policies = dict(names.policies)
    c.events_declared = dict(names.events)
    c.events_emitted = set(names.events_emitted)
    c.before_events = set(names.before_events)
    c.enum_values = list(names.enum_values)
    c.set_fields = set(names.set_fields)
    c.symbols = set(names.symbols)
    c.flags_set = set(names.flags)
    c.face_symbols = set(names.face_symbols)
    c.dice_names = set(names.dice_names)
    c.map = names.map
    return c


def expression_compiler(program: Program, tree: ast.Expr) -> tuple[ExprFn | None, list[Diagnostic]]:
    """Compile one expression against a compiled program's names (``you`` and ``this``
    bound): the function, or None when a problem is an error, and the problems."""
    names = program.names
    if not isinstance(names, Names):
        return None, [Diagnostic("RC204", "this program keeps no names", tree.span)]
    from rulecraft.compile.scope import Scope

    c = compiler_for(names)
    fn = c.expr(tree, Scope({"you", "this"}, True))
    c.check_field_reads(c.field_reads)
    errors = [d for d in c.diags if d.severity == Severity.ERROR]
    return (None if errors else fn), list(c.diags)
