"""`rulecraft compile RULESET [--show NAME]`: what the compiler made of a ruleset.

Without ``--show``: one line per compiled routine (actions, effects, triggers, abilities,
phases, setup, the main flow) with its number of instructions and where it starts.  With
``--show NAME``: the routines whose name is or ends with NAME (``push``, ``action.push``,
``medkit``), one instruction a line with the ``.rcl`` place it came from and that line of
the source, under it (``|``) the Python source the expression code generator wrote for the
expressions it evaluates; then the routine's generated function (compile/routine_code.py),
each block under its place and line, and the expressions it calls; for an action, the
same for its condition, its label and the collection it ranges over (``closures`` where an
expression runs as closures).

    $ rulecraft compile dig --show push
    action.push  (12 instructions)  rules.rcl:5:5
        0  roll              rules.rcl:5:5       roll 3 dig as r
       ...

Exit codes: 0, 1 when no routine matches NAME, 2 for a ruleset that does not load.
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
from pathlib import Path
from typing import Any

from rulecraft.compile.codegen import plan_of, source_of
from rulecraft.compile.routine_code import instruction_name
from rulecraft.diagnostics import Span


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "compile",
        help="show the compiled form of a ruleset or of one rule",
        description="Compile a ruleset and show its routines, or with --show NAME the "
        "instructions of one rule with the place in the rules each came from.",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a bundled ruleset name or a folder")
    p.add_argument("--show", metavar="NAME", help="the rule to show (a routine name or its end)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import rulecraft
    from rulecraft.errors import RulesetError

    try:
        ruleset = rulecraft.load(args.ruleset)
    except (RulesetError, FileNotFoundError) as exc:
        print(f"rulecraft compile: {exc}", file=sys.stderr)
        return 2
    program = ruleset.program
    if args.show is None:
        for routine in program.routines:
            where = _short(routine.spans[0]) if routine.spans else ""
            print(f"{routine.name:<40} {len(routine.code):>4}  {where}")
        total = sum(len(r.code) for r in program.routines)
        print(f"{len(program.routines)} routines, {total} instructions")
        return 0
    shown = [r for r in program.routines if r.name == args.show or r.name.endswith("." + args.show)]
    if not shown:
        names = ", ".join(r.name for r in program.routines)
        print(f"rulecraft compile: no routine {args.show!r}; routines: {names}", file=sys.stderr)
        return 1
    lines = _SourceLines(Path(program.root))
    for routine in shown:
        print(listing(routine, lines))
        print(generated_routine(routine, lines))
        action = program.actions.get(routine.name.removeprefix("action."))
        if routine.name.startswith("action.") and action is not None:
            if action.for_collection is not None:
                _show(f"for {action.for_var} in", action.for_collection)
            if action.kept is not None:
                _show_kept(action.kept)
            _show("condition", action.condition)
            _show("label", action.label)
    return 0


def listing(routine: Any, lines: _SourceLines) -> str:
    """A routine, one instruction a line: index, instruction, place, source line."""
    head = routine.spans[0] if routine.spans else None
    out = [f"{routine.name}  ({len(routine.code)} instructions)  {_short(head) if head else ''}"]
    for index, (instr, span) in enumerate(zip(routine.code, routine.spans, strict=True)):
        name = instruction_name(instr)
        out.append(f"  {index:>3}  {name:<18}{_short(span):<20}{lines.text(span)}")
        for source in generated_sources(instr):
            out.extend(f"{'':<25}| {line}" for line in source.rstrip().splitlines())
    return "\n".join(out)


#: A generated routine's note of where an instruction came from: ``# rules.rcl:7:8``.
_PLACE = re.compile(r"# (?P<file>[^\s:]+):(?P<line>\d+):(?P<column>\d+)$")


def generated_routine(routine: Any, lines: _SourceLines) -> str:
    """A routine's generated function (compile/routine_code.py), each instruction's place
    followed by its line of the rules, then the expressions it calls rather than writes in
    place (their own generated code, or ``closures``)."""
    source = routine.source
    if not source:
        return "   run an instruction at a time (no generated function)"
    out = ["   generated:"]
    if routine.run is None:
        out[0] += "  (not run: the compiled runtime runs the instructions, faster than this"
        out.append("    source would run as Python; `make compiled` compiles it for the")
        out.append("    rulesets it names)")
    for line in source.rstrip().splitlines():
        place = _PLACE.search(line)
        if place is not None:
            span = Span(place["file"], int(place["line"]), int(place["column"]))
            line = f"{line}  {lines.text(span)}".rstrip()
        out.append(f"      {line}")
    found = plan_of(routine.run)
    called = sorted((found[1] if found else {}).items(), key=lambda kv: _number(kv[0]))
    for name, value in called:
        if _CALLED.match(name):
            out.append(f"   {name}: {_expression_source(value)}".replace("\n", "\n      "))
    return "\n".join(out)


#: The name a generated routine gives an expression it calls (``_e4``: instruction 4's).
_CALLED = re.compile(r"_e\d+$")


def _number(name: str) -> int:
    digits = re.search(r"\d+", name)
    return int(digits.group()) if digits else -1


def generated_sources(instr: Any) -> list[str]:
    """The Python source the expression code generator wrote for the expressions an
    instruction evaluates (the functions its closure holds), in the order it holds them."""
    found: list[str] = []
    for held in _held_by(instr):
        for value in held if isinstance(held, list | tuple) else (held,):
            source = source_of(value)
            if source:
                found.append(str(source))
    return found


def _held_by(instr: Any) -> list[Any]:
    """What an instruction's closure holds: its cells' contents, or, compiled by mypyc
    (``make compiled``: an object whose environment has no cells, only C fields), what
    the garbage collector sees its environment refer to."""
    cells = getattr(instr, "__closure__", None)
    if cells is None:
        env = getattr(instr, "__mypyc_env__", None)
        return [] if env is None else gc.get_referents(env)
    held = []
    for cell in cells:
        try:
            held.append(cell.cell_contents)
        except ValueError:  # a cell not filled yet
            continue
    return held


def _show(what: str, value: Any) -> None:
    """One expression of an action: its generated Python source, indented under a header."""
    source = _expression_source(value)
    if "\n" not in source:
        print(f"   {what}: {source}")
        return
    print(f"   {what}:")
    for line in source.splitlines():
        print(f"      {line}")


def _show_kept(kept: Any) -> None:
    """How an action's spaces are kept up to date as pieces move (runtime/incremental.py)."""
    piles = len(kept.watchers)
    most = max((len(v) for v in kept.watchers.values()), default=0)
    print(
        f"   kept up to date as pieces move: {len(kept.spaces)} spaces, tested again when "
        f"one of {piles} piles changes (at most {most} tests a pile)"
    )
    print(f"      {kept.source}")


def _short(span: Span) -> str:
    return f"{Path(span.file).name}:{span.line}:{span.column}"


def _expression_source(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        return repr(value.get("") or next(iter(value.values()), ""))
    source = source_of(value)
    return str(source).rstrip() if source else "closures"


class _SourceLines:
    """The ruleset's source lines, read once per file."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, list[str]] = {}

    def text(self, span: Span) -> str:
        name = Path(span.file).name
        if name not in self.files:
            candidates = [*self.root.rglob(name)] if self.root.is_dir() else []
            found = candidates[0] if candidates else None
            self.files[name] = found.read_text(encoding="utf-8").splitlines() if found else []
        lines = self.files[name]
        return lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
