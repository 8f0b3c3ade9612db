"""Rules compiled ahead of time: the generated code of the bundled rulesets, compiled with
mypyc (issue 11, "where mypyc pays, use it").

:mod:`codegen` writes the hot expressions of a ruleset as Python source, and
:mod:`routine_code` each routine (an action's body, an effect, a trigger's body, the flow)
as one function; both are ``exec``\\ ed, so they run in the interpreter (in a random game
of the bundled co-operative adventure, on the compiled runtime, 15% of the instructions
ran in the interpreter's loop when only expressions were generated).  ``make
compiled`` also writes every expression and routine that the rulesets it names generate
into one module, :data:`MODULE`, as a *factory* each::

    def _make12(_kk0: Any, _ff1: Any) -> Any:
        def _generated(ctx: Any) -> Any:
            ...the generated source, unchanged but for the names of its constants
            and a typed context (:func:`typed`)...
        return _generated

and compiles it with the runtime's modules in one mypyc build, so the generated code calls
``own_field``, ``has_flag`` and ``walked`` as C functions.  When a ruleset compiles,
:func:`factory_for` finds an expression's factory by its exact source, and
:func:`codegen.build` calls it with the expression's constants and fallbacks (the values of
*this* compilation) instead of ``exec``.  An expression whose source is not in the module
(another ruleset, an edited one, a tree without the module) is ``exec``\\ ed as before: the
module is only ever a faster copy of the same code, never a different rule.  The record
hashes of the compiled tree (``make compiled-check``) check that it plays the same games.

Run as ``python -m rulecraft.compile.aot OUT [RULESET...]`` to write the module (of the
bundled rulesets when none is named).
"""

from __future__ import annotations

import importlib
import io
import sys
import tokenize
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulecraft.compile import codegen, routine_code

#: The module of compiled factories (written into the compiled tree, never into ``src/``).
MODULE = "rulecraft.compile.generated_rules"

#: A factory and the names of the constants and fallbacks it takes, in order.
Factory = tuple[Callable[..., Any], tuple[str, ...]]

_loaded: dict[str, Factory] | None = None


def factory_for(source: str) -> Factory | None:
    """The compiled factory of the expression whose generated source is ``source``, or
    ``None`` (no compiled module, or not one of its expressions)."""
    global _loaded
    if _loaded is None:
        try:
            found = importlib.import_module(MODULE)
        except ImportError:  # the usual case: a tree without the compiled module
            found = None
        table = getattr(found, "FACTORIES", None)
        _loaded = table if isinstance(table, dict) else {}
    return _loaded.get(source)


def parameters(plan: codegen.Plan) -> tuple[str, ...]:
    """The names a plan's factory takes: its constants (sorted), then its fallbacks."""
    return (*sorted(plan.consts), *(name for name, _, _ in plan.fallbacks))


def renamed(source: str, names: Sequence[str]) -> str:
    """``source`` with each of ``names`` (as a Python name, never inside a text) doubled
    after its underscore: ``_k8`` -> ``_kk8``.  mypyc names a closure's variables in C
    after them, and ``__k8`` is one of the C compiler's own macros.  ``ctx.st`` becomes
    ``_st`` (read once, natively: see :func:`typed`), ``ctx.stops`` ``_c.stops``.

    >>> renamed("_k8.get('_k8') + _f1(ctx) + ctx.st['round'] + ctx.stops", ["_k8", "_f1"])
    "_kk8.get('_k8') + _ff1(ctx) + _st['round'] + _c.stops"
    """
    wanted = set(names)
    lines = source.splitlines(keepends=True)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    edits: list[tuple[int, int, int, str]] = []  # (row, first column, end column, text)
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME:
            continue
        if tok.string in wanted:
            edits.append((tok.start[0], tok.start[1], tok.end[1], _doubled(tok.string)))
        elif tok.string == "ctx" and [t.string for t in tokens[i + 1 : i + 2]] == ["."]:
            attr = tokens[i + 2]
            if attr.start[0] == tok.start[0] and attr.string in _TYPED_READS:
                edits.append((tok.start[0], tok.start[1], attr.end[1], _TYPED_READS[attr.string]))
    for row, start, end, text in reversed(edits):  # (from the end: columns stay put)
        line = lines[row - 1]
        lines[row - 1] = line[:start] + text + line[end:]
    return "".join(lines)


#: The context's attributes the typed code reads natively (:func:`typed`): the state
#: through ``_st`` (read once), the others from the context's C struct (``_c``).
_TYPED_READS = {"st": "_st", "frame": "_c.frame", "stops": "_c.stops"}
#: How every generated function begins (:func:`codegen.plan`).
_HEADER = "def _generated(ctx):\n    loc = ctx.loc\n"
#: How every generated routine begins (:mod:`rulecraft.compile.routine_code`), and typed.
_ROUTINE_HEADER = routine_code.HEADER
_TYPED_ROUTINE_HEADER = (
    "def _generated(ctx: Any, budget: int) -> int:\n"
    "    _c: Ctx = ctx\n"
    "    loc: dict[str, Any] = _c.loc\n"
    "    _st: dict[str, Any] = cast('dict[str, Any]', _c.st)\n"
)
#: The same beginning with the context typed: mypyc then reads ``loc`` and ``st`` from
#: the context's C struct instead of looking them up as a Python object's attributes, and
#: reads both as dictionaries (``loc.get('you')`` one C call, not a method looked up on
#: an object of any type: 4% of a card game's search went to those lookups).
_TYPED_HEADER = (
    "def _generated(ctx: Any) -> Any:\n"
    "    _c: Ctx = ctx\n"
    "    loc: dict[str, Any] = _c.loc\n"
    "    _st: dict[str, Any] = cast('dict[str, Any]', _c.st)\n"
)


def typed(source: str) -> str:
    """A generated function's source (already :func:`renamed`) with its context typed.

    >>> print(typed("def _generated(ctx):\\n    loc = ctx.loc\\n    return _st['round']\\n"))
    def _generated(ctx: Any) -> Any:
        _c: Ctx = ctx
        loc: dict[str, Any] = _c.loc
        _st: dict[str, Any] = cast('dict[str, Any]', _c.st)
        return _st['round']
    <BLANKLINE>
    """
    for header, typed_header in (
        (_HEADER, _TYPED_HEADER),
        (_ROUTINE_HEADER, _TYPED_ROUTINE_HEADER),
    ):
        if source.startswith(header):
            return typed_header + source[len(header) :]
    raise ValueError("not a generated function: " + source.split("\n", 1)[0])


def _doubled(name: str) -> str:
    """``_k8`` -> ``_kk8`` (see :func:`renamed`)."""
    return "_" + name[1] + name[1:]


def record(rulesets: Sequence[str]) -> dict[str, codegen.Plan]:
    """Every plan the compilation of ``rulesets`` (bundled names or folders) builds, by its
    source."""
    from rulecraft.compile.load import bundled_root
    from rulecraft.compile.pipeline import check_ruleset

    plans: dict[str, codegen.Plan] = {}
    codegen.RECORDING = plans
    try:
        for name in rulesets:
            folder = Path(name)
            if not (folder / "ruleset.yaml").is_file():
                folder = bundled_root() / name
            check_ruleset(folder)
    finally:
        codegen.RECORDING = None
    return plans


def _imports() -> list[str]:
    """The generated code's helpers (:func:`codegen._helpers`): imported from their modules
    where they are module functions (compiled ones are then called in C), else taken from
    the helpers' table."""
    lines = ["from rulecraft.compile.codegen import _helpers", "_H = _helpers()"]
    for name, value in sorted(codegen._helpers().items()):
        module = getattr(value, "__module__", None)
        qualname = getattr(value, "__name__", None)
        home = sys.modules.get(module) if isinstance(module, str) else None
        if home is not None and qualname and getattr(home, qualname, None) is value:
            lines.append(f"from {module} import {qualname} as {name}")
        else:
            lines.append(f"{name} = _H[{name!r}]")
    return lines


def _param_type(value: Any) -> str:
    """The annotation of a factory's parameter given ``value`` when the expression was
    recorded: a dictionary (a table by seat, a map's coordinates) or a list is read
    through C calls when typed (``_k1.get(you)``), anything else stays ``Any``.  Another
    ruleset whose expression has the same source but a constant of another type is refused
    by the factory with a ``TypeError``, and :func:`codegen.build` runs its source instead.

    >>> _param_type({"p0": "z:hand@0"}), _param_type([1]), _param_type(len)
    ('dict[Any, Any]', 'list[Any]', 'Any')
    """
    if type(value) is dict:
        return "dict[Any, Any]"
    if type(value) is list:
        return "list[Any]"
    return "Any"


def module_source(plans: dict[str, codegen.Plan]) -> str:
    """The module of factories for ``plans`` (see the module text)."""
    out = [
        # A local read is typed "Any | None" (``loc.get('n') - 1``): the rules' compiler
        # checked the expressions, so these checks of mypy's would only refuse them.
        '# mypy: disable-error-code="operator, index, union-attr, arg-type, call-overload"',
        f'"""Written by rulecraft.compile.aot for mypyc ({len(plans)} functions)."""',
        "from typing import Any, cast",
        "from rulecraft.runtime.engine import Ctx",
        *_imports(),
        "FACTORIES: dict[str, Any] = {}",
    ]
    for i, (source, plan) in enumerate(sorted(plans.items())):
        names = parameters(plan)
        body = typed(renamed(source, names))
        params = ", ".join(f"{_doubled(n)}: {_param_type(plan.consts.get(n))}" for n in names)
        inner = "".join(f"    {line}\n" for line in body.rstrip("\n").split("\n"))
        out.append(f"def _make{i}({params}) -> Any:\n{inner}    return _generated")
        out.append(f"FACTORIES[{source!r}] = (_make{i}, {names!r})")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str]) -> int:
    """``OUT [RULESET...]``: write the module of the rulesets' expressions (by default the
    bundled rulesets') to ``OUT``."""
    from rulecraft.compile.load import bundled_names

    if not argv:
        print("usage: python -m rulecraft.compile.aot OUT [RULESET...]", file=sys.stderr)
        return 2
    rulesets = list(argv[1:]) or bundled_names()
    plans = record(rulesets)
    Path(argv[0]).write_text(module_source(plans), encoding="utf-8")
    routines = sum(source.startswith(_ROUTINE_HEADER) for source in plans)
    print(
        f"{argv[0]}: {len(plans) - routines} expressions and {routines} routines of "
        f"{len(rulesets)} rulesets"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
