"""Whole-ruleset checks beyond names and types: the story graph of numbered entries.

Every entry must be reachable from somewhere outside the entries (a card, an action, the
setup), every path through an entry must end (``go to``, ``return``, ``win``, ``lose``,
``tie`` or ``end``), and every ending must be reachable.  :func:`story_graph` exports the
graph as Mermaid or DOT.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulecraft.diagnostics import Diagnostic, Severity
from rulecraft.language import ast
from rulecraft.language.visit import statements

if TYPE_CHECKING:
    from rulecraft.compile.compiler import Compiler

TERMINAL_VERBS = {"goto", "return", "win", "lose_game", "tie", "end"}


def walk_stmts(body: Iterable[ast.Stmt]) -> Iterator[ast.Stmt]:
    """Every statement in a block, nested ones included (``while`` bodies too)."""
    return statements(body)


def ends(body: tuple[ast.Stmt, ...]) -> bool:
    """Does every path through ``body`` end the entry?"""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.SimpleStmt):
        return last.verb in TERMINAL_VERBS or any(
            isinstance(s, ast.SimpleStmt) and s.verb in TERMINAL_VERBS for s in body
        )
    if isinstance(last, ast.If):
        return (
            last.otherwise is not None
            and ends(last.otherwise)
            and all(ends(b) for _, b in last.branches)
        ) or ends(body[:-1])
    if isinstance(last, ast.ChooseOption):
        return all(ends(o.body) for o in last.options) or ends(body[:-1])
    if isinstance(last, ast.Test):
        return (ends(last.on_pass) and ends(last.on_fail)) or ends(body[:-1])
    return ends(body[:-1])


@dataclass
class StoryGraph:
    entries: dict[int, str] = field(default_factory=dict)
    edges: set[tuple[int, int]] = field(default_factory=set)
    roots: set[int] = field(default_factory=set)
    endings: set[int] = field(default_factory=set)

    def reachable(self) -> set[int]:
        seen = set(self.roots)
        todo = list(self.roots)
        while todo:
            cur = todo.pop()
            for a, b in self.edges:
                if a == cur and b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    def mermaid(self) -> str:
        lines = ["flowchart TD"]
        for n, title in sorted(self.entries.items()):
            shape = f'(["{n}: {title}"])' if n in self.endings else f'["{n}: {title}"]'
            lines.append(f"    e{n}{shape}")
        for r in sorted(self.roots):
            lines.append(f"    start((start)) --> e{r}")
        for a, b in sorted(self.edges):
            lines.append(f"    e{a} --> e{b}")
        return "\n".join(lines) + "\n"

    def dot(self) -> str:
        lines = ["digraph story {", "    rankdir=TB;"]
        for n, title in sorted(self.entries.items()):
            shape = "doubleoctagon" if n in self.endings else "box"
            safe = title.replace('"', "'")
            lines.append(f'    e{n} [label="{n}: {safe}", shape={shape}];')
        for r in sorted(self.roots):
            lines.append(f"    start -> e{r};")
        for a, b in sorted(self.edges):
            lines.append(f"    e{a} -> e{b};")
        lines.append("}")
        return "\n".join(lines) + "\n"


def _bodies_outside_entries(comp: Compiler) -> Iterator[tuple[ast.Stmt, ...]]:
    for c in comp.comps.values():
        yield from _member_bodies(c.members)
    for r in comp.rules.values():
        yield from _member_bodies(r.members)
    for e in comp.effects.values():
        yield e.body
    for a in comp.actions_ast.values():
        yield a.body


def _member_bodies(members: Iterable[ast.Member]) -> Iterator[tuple[ast.Stmt, ...]]:
    for m in members:
        if isinstance(m, ast.Attribute | ast.Ability | ast.Trigger | ast.Choice):
            yield m.body
        elif isinstance(m, ast.Side):
            yield from _member_bodies(m.members)


def _gotos(body: Iterable[ast.Stmt]) -> Iterator[int]:
    for s in walk_stmts(body):
        if (
            isinstance(s, ast.Goto)
            and isinstance(s.value, ast.Const)
            and isinstance(s.value.value, int)
        ):
            yield s.value.value


def story_graph(comp: Compiler) -> StoryGraph:
    graph = StoryGraph()
    for n, entry in comp.entries.items():
        graph.entries[n] = entry.label.default if entry.label else f"Entry {n}"
        for body in _member_bodies(entry.members):
            for target in _gotos(body):
                graph.edges.add((n, target))
            for s in walk_stmts(body):
                if isinstance(s, ast.Win | ast.LoseGame | ast.Tie):
                    graph.endings.add(n)
    for body in _bodies_outside_entries(comp):
        graph.roots.update(_gotos(body))
    # Entries named in the manifest (a plot's start, say) are roots too.
    for value in (comp.m.get("story") or {}).get("start", []) or []:
        if isinstance(value, int):
            graph.roots.add(value)
    return graph


_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in"})


def _texts(node: object) -> Iterator[tuple[ast.Text, object]]:
    """Every translatable text in a syntax tree, with the node that holds it."""
    if isinstance(node, ast.Text):
        yield node, node
        return
    if isinstance(node, tuple | list):
        for x in node:
            yield from _texts(x)
        return
    if isinstance(node, ast.Binary) and node.op in _COMPARISONS:
        # `unit == "points"` compares with a value, not a text shown to anyone.
        for side in (node.left, node.right):
            if not isinstance(side, ast.TextLit):
                yield from _texts(side)
        return
    fields = getattr(node, "__dataclass_fields__", None)
    if fields is None:
        return
    for name in fields:
        if name == "span":
            continue
        value = getattr(node, name)
        if isinstance(value, ast.Text):
            yield value, node
        elif isinstance(value, tuple | list) or hasattr(value, "__dataclass_fields__"):
            yield from _texts(value)


def translation_checks(
    units: list[ast.Unit], manifest: Mapping[str, object], lang: str, manifest_file: str
) -> list[Diagnostic]:
    """A warning for every text of the ``.rcl`` files with no translation into ``lang``."""
    languages = manifest.get("languages") or []
    if isinstance(languages, list) and languages and languages[0] == lang:
        return []  # the default language is the text itself
    out: list[Diagnostic] = []
    for unit in units:
        for text, holder in _texts(unit.items):
            if not text.default.strip():
                continue
            if lang not in dict(text.translations):
                span = getattr(holder, "span", None)
                if span is None:
                    continue
                out.append(
                    Diagnostic(
                        "RC240",
                        f"{text.default[:40]!r} has no {lang} translation",
                        span,
                        Severity.WARNING,
                        f'add @{lang} "..." after the text',
                    )
                )
    return out


def story_checks(comp: Compiler) -> list[Diagnostic]:
    if not comp.entries:
        return []
    out: list[Diagnostic] = []
    graph = story_graph(comp)
    reachable = graph.reachable()
    for n, entry in sorted(comp.entries.items()):
        if n not in reachable:
            out.append(
                Diagnostic(
                    "RC230",
                    f"entry {n} cannot be reached",
                    entry.span,
                    Severity.WARNING,
                    "add a 'go to' that leads here, or remove the entry",
                )
            )
        choices = [m for m in entry.members if isinstance(m, ast.Choice)]
        do = [m for m in entry.members if isinstance(m, ast.Attribute) and m.name == "do"]
        if choices:
            for c in choices:
                if not ends(c.body):
                    out.append(
                        Diagnostic(
                            "RC231",
                            f"choice {c.label.default!r} of entry {n} can end without "
                            "going anywhere",
                            c.span,
                            Severity.ERROR,
                            "finish every path with 'go to N', 'return', 'win' or 'lose'",
                        )
                    )
        elif not (do and ends(do[-1].body)):
            out.append(
                Diagnostic(
                    "RC231",
                    f"entry {n} is a dead end: it has no choice and does not go anywhere",
                    entry.span,
                    Severity.ERROR,
                    "add a choice, or end it with 'go to N', 'return', 'win' or 'lose'",
                )
            )
    if graph.endings and not graph.endings & reachable:
        first = min(graph.endings)
        out.append(
            Diagnostic(
                "RC232",
                "no ending of the story can be reached",
                comp.entries[first].span,
                Severity.ERROR,
            )
        )
    return out
