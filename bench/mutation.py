"""Mutation testing of chosen modules: does the test suite notice a small wrong change?

    .venv/bin/python bench/mutation.py                       # every module, sampled
    .venv/bin/python bench/mutation.py view semantic --sample 0   # all mutants of two modules
    .venv/bin/python bench/mutation.py --list view           # the mutants, not run

Each mutant changes one thing in one module (a comparison, an arithmetic or boolean
operator, a constant, a condition negated, a return value dropped, a statement removed, an
element dropped from a literal set), parsed and re-written with :mod:`ast`.  The suite never
touches the shared working tree: the committed tree (``--commit``, default ``HEAD``) is
unpacked in a temporary folder, the mutant is written there, and the module's own test files
run in that copy (``PYTHONPATH`` puts its ``src`` first).  A mutant is *killed* when those
tests fail or time out, *survives* when they pass.

Mutants listed in ``bench/mutation_equivalent.txt`` (one key a line, ``#`` and a reason)
cannot change behaviour; they are left out of the score, which is killed / (tried -
equivalent).  ``--sample N`` tries N mutants per module chosen with ``--seed`` (the machine is
small and shared: each mutant costs one pytest run of the module's tests); 0 tries them all.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = Path(__file__).resolve().parent / "mutation_equivalent.txt"


@dataclass(frozen=True)
class Target:
    """One group of modules and the tests meant to guard them."""

    name: str
    modules: tuple[str, ...]  # paths under src/
    tests: tuple[str, ...]  # test paths under the repository root (missing ones are skipped)
    # Slow tests left out of every mutant's run (the shared machine cannot afford them).
    deselect: tuple[str, ...] = ()


# Whole random games with every check at every decision: minutes each on the shared machine.
SLOW_HIDDEN_TESTS = (
    "test_no_channel_leaks_a_hidden_card",
    "test_every_declared_ending_closes_some_random_game",
    "test_a_sparks_nobody_can_win_fails",
)

# The record hashes of the longest games: 90-400 s each on the shared machine, so the
# baseline run passed its 900 s timeout; the other rulesets' hashes still guard the engine.
SLOW_RECORD_HASHES = ("waylanders", "wasteland_express", "bazaar")

TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(
            "dice",
            tuple(f"rulecraft/dice/{m}.py" for m in ("spec", "exact", "pool", "sampling")),
            ("tests/dice",),
        ),
        Target(
            "view",
            ("rulecraft/runtime/view.py",),
            ("tests/hidden/test_view.py", "tests/engine", "tests/agents/test_conformance.py"),
        ),
        Target(
            "semantic",
            ("rulecraft/compile/semantic.py",),
            ("tests/validators",),
            ("tests/validators/test_fuzz_rulesets.py",),
        ),
        Target(
            "engine",
            ("rulecraft/runtime/engine.py",),
            ("tests/engine", "tests/hidden"),
            tuple(f"tests/hidden/test_hidden_information.py::{t}" for t in SLOW_HIDDEN_TESTS)
            + tuple(
                f"tests/engine/test_record_hashes.py::"
                f"test_random_games_are_the_same_games_as_the_baseline[{name}]"
                for name in SLOW_RECORD_HASHES
            ),
        ),
    )
}

SWAP_OPS: dict[type[ast.AST], type[ast.AST]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.And: ast.Or,
    ast.Or: ast.And,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    """One change: the ``index``-th node of ``ast.walk`` order, changed by ``op``."""

    module: str
    index: int
    op: str
    line: int
    col: int

    @property
    def key(self) -> str:
        return f"{self.module}:{self.line}:{self.col}:{self.op}"


Apply = Callable[[ast.AST, "Parents"], None]
Parents = dict[int, tuple[ast.AST, str, int | None]]


def _parents(tree: ast.AST) -> Parents:
    out: Parents = {}
    for node in ast.walk(tree):
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        out[id(child)] = (node, field, i)
            elif isinstance(value, ast.AST):
                out[id(value)] = (node, field, None)
    return out


def _replace(node: ast.AST, new: ast.AST, parents: Parents) -> None:
    parent, field, i = parents[id(node)]
    if i is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[i] = new


def _skipped(tree: ast.Module) -> set[int]:
    """Nodes no mutant touches: annotations, docstrings, ``TYPE_CHECKING`` blocks,
    ``__all__`` and the insides of f-strings."""
    skip: set[int] = set()

    def cover(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign):
            cover(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            cover(node.returns)
        elif _never_mutated(node):
            cover(node)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                cover(body[0])
    return skip


def _never_mutated(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.If):
        return ast.unparse(node.test) == "TYPE_CHECKING"
    return isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"


def _structural_string(node: ast.Constant, parents: Parents) -> bool:
    """A string that is a key, compared, indexed with or listed, not a message."""
    parent, field, _ = parents.get(id(node), (None, "", None))
    if isinstance(parent, ast.Dict) and field == "keys":
        return True
    if isinstance(parent, ast.Compare | ast.Set):
        return True
    return isinstance(parent, ast.Subscript) and field == "slice"


def _mutations(node: ast.AST, parents: Parents) -> Iterator[tuple[str, Apply]]:
    """Every (op name, in-place change) this node offers."""
    yield from _operator_mutations(node)
    if isinstance(node, ast.Constant):
        yield from _constant_mutations(node, parents)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "drop-not", lambda n, p: _replace(n, n.operand, p)  # type: ignore[attr-defined]
    elif isinstance(node, ast.If | ast.While | ast.IfExp):
        yield "negate-cond", lambda n, p: setattr(n, "test", ast.UnaryOp(ast.Not(), n.test))  # type: ignore[attr-defined]
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            yield "return-None", lambda n, p: setattr(n, "value", ast.Constant(None))
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield "drop-call", lambda n, p: _replace(n, ast.Pass(), p)
    elif isinstance(node, ast.Break | ast.Continue):
        other = ast.Continue() if isinstance(node, ast.Break) else ast.Break()
        yield "break<->continue", lambda n, p: _replace(n, other, p)
    elif isinstance(node, ast.Set | ast.Tuple | ast.List) and _constant_items(node.elts):
        for i, elt in enumerate(node.elts):
            label = f"drop-{ast.unparse(elt)}"
            yield label, lambda n, p, i=i: n.elts.pop(i)  # type: ignore[attr-defined, misc]


def _constant_items(items: list[ast.expr]) -> bool:
    return len(items) >= 2 and all(isinstance(e, ast.Constant) for e in items)


def _operator_mutations(node: ast.AST) -> Iterator[tuple[str, Apply]]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = SWAP_OPS.get(type(op))
            if swap is not None:
                yield (
                    f"{type(op).__name__}->{swap.__name__}",
                    lambda n, p, i=i, s=swap: n.ops.__setitem__(i, s()),  # type: ignore[attr-defined, misc]
                )
    elif isinstance(node, ast.BinOp | ast.BoolOp | ast.AugAssign):
        swap = SWAP_OPS.get(type(node.op))
        if swap is not None:
            yield (
                f"{type(node.op).__name__}->{swap.__name__}",
                lambda n, p, s=swap: setattr(n, "op", s()),  # type: ignore[misc]
            )


def _constant_mutations(node: ast.Constant, parents: Parents) -> Iterator[tuple[str, Apply]]:
    value = node.value
    if isinstance(value, bool):
        yield f"{value}->{not value}", lambda n, p: setattr(n, "value", not value)
    elif isinstance(value, int):
        yield f"{value}->{value + 1}", lambda n, p: setattr(n, "value", value + 1)
    elif isinstance(value, str) and _structural_string(node, parents):
        yield f"{value!r}->'XX'", lambda n, p: setattr(n, "value", "XX" + value)


def enumerate_mutants(module: str, source: str) -> list[Mutant]:
    tree = ast.parse(source)
    parents = _parents(tree)
    skip = _skipped(tree)
    out: list[Mutant] = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        for op, _ in _mutations(node, parents):
            line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
            out.append(Mutant(module, index, op, line, col))
    return out


def mutated_source(source: str, mutant: Mutant) -> str:
    tree = ast.parse(source)
    parents = _parents(tree)
    node = list(ast.walk(tree))[mutant.index]
    for op, apply in _mutations(node, parents):
        if op == mutant.op:
            apply(node, parents)
            break
    else:
        raise ValueError(f"mutant {mutant.key} does not apply")
    return ast.unparse(ast.fix_missing_locations(tree))


def load_equivalent() -> set[str]:
    if not EQUIVALENT_FILE.is_file():
        return set()
    keys = (line.split("#", 1)[0].strip() for line in EQUIVALENT_FILE.read_text().splitlines())
    return {k for k in keys if k}


class Sandbox:
    """The committed tree (``git archive HEAD``) in a temporary folder, where one module at
    a time is replaced by a mutant.  The committed tree, not the working tree: other
    people's unfinished edits must not fail the baseline."""

    def __init__(self, commit: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="rulecraft-mutation-"))
        archive = subprocess.run(
            ["git", "archive", commit], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(self.dir)], input=archive, check=True)
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = str(self.dir / "src")
        # Never write bytecode: a stale .pyc of a mutant must not outlive it.
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"

    def check_isolated(self, module: str) -> None:
        dotted = module.removesuffix(".py").replace("/", ".")
        code = f"import {dotted} as m; print(m.__file__)"
        out = subprocess.run(
            [sys.executable, "-c", code], env=self.env, capture_output=True, text=True, check=True
        ).stdout.strip()
        if not out.startswith(str(self.dir)):
            raise SystemExit(f"the sandbox is not used: {dotted} comes from {out}")

    def run_tests(self, tests: list[str], timeout: float) -> tuple[str, float]:
        """``"pass"``, ``"fail"`` or ``"timeout"`` and the seconds it took (``tests`` may
        hold ``--deselect`` options)."""
        cmd = [sys.executable, "-m", "pytest", *tests, "-x", "-q", "-p", "no:randomly"]
        cmd += ["-p", "no:cacheprovider", "-W", "ignore"]
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                cmd, cwd=self.dir, env=self.env, capture_output=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start
        return ("pass" if proc.returncode == 0 else "fail"), time.perf_counter() - start

    def read(self, module: str) -> str:
        return (self.dir / "src" / module).read_text(encoding="utf-8")

    def write(self, module: str, text: str) -> None:
        (self.dir / "src" / module).write_text(text, encoding="utf-8")

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def run_target(
    target: Target, sandbox: Sandbox, sample: int, rng: random.Random, equivalent: set[str]
) -> dict[str, object]:
    tests = [t for t in target.tests if (sandbox.dir / t).exists()]
    tests += [f"--deselect={t}" for t in target.deselect]
    mutants: list[Mutant] = []
    sources = {m: sandbox.read(m) for m in target.modules}
    for module, source in sources.items():
        mutants.extend(enumerate_mutants(module, source))
    total = len(mutants)
    if sample and sample < total:
        mutants = sorted(rng.sample(mutants, sample), key=lambda m: (m.module, m.index, m.op))
    status, base_time = sandbox.run_tests(tests, timeout=900)
    if status != "pass":
        raise SystemExit(f"{target.name}: the tests fail before any mutation ({tests})")
    timeout = 3 * base_time + 10
    results: dict[str, str] = {}
    for n, mutant in enumerate(mutants, 1):
        if mutant.key in equivalent:
            results[mutant.key] = "equivalent"
            continue
        sandbox.write(mutant.module, mutated_source(sources[mutant.module], mutant))
        outcome, _ = sandbox.run_tests(tests, timeout)
        sandbox.write(mutant.module, sources[mutant.module])
        results[mutant.key] = {"pass": "survived", "fail": "killed", "timeout": "killed"}[outcome]
        print(f"  [{n}/{len(mutants)}] {results[mutant.key]:10} {mutant.key}", flush=True)
    return _summary(target, total, results, tests)


def _summary(
    target: Target, total: int, results: dict[str, str], tests: list[str]
) -> dict[str, object]:
    killed = sum(1 for r in results.values() if r == "killed")
    equivalent = sum(1 for r in results.values() if r == "equivalent")
    scored = len(results) - equivalent
    return {
        "target": target.name,
        "mutants": total,
        "tried": len(results),
        "equivalent": equivalent,
        "killed": killed,
        "survived": sorted(k for k, r in results.items() if r == "survived"),
        "score": round(killed / scored, 4) if scored else None,
        "tests": tests,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # No ``choices=`` here: with ``nargs="*"`` argparse checks the empty default against
    # them and refuses a bare ``mutation.py`` (Python 3.11), which ``make mutation`` runs.
    parser.add_argument("targets", nargs="*", help=f"any of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--sample", type=int, default=20, help="mutants per target (0: all)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--commit", default="HEAD", help="the committed tree to test")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--json", type=Path, help="write the summaries here")
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}: choose from {', '.join(TARGETS)}")
    chosen = [TARGETS[t] for t in (args.targets or TARGETS)]
    if args.list:
        for target in chosen:
            for module in target.modules:
                text = (ROOT / "src" / module).read_text(encoding="utf-8")
                for m in enumerate_mutants(module, text):
                    print(m.key)
        return 0
    equivalent = load_equivalent()
    # A killed run (SIGTERM) still removes its sandbox: the finally below runs.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    sandbox = Sandbox(args.commit)
    summaries = []
    try:
        for target in chosen:
            sandbox.check_isolated(target.modules[0])
            print(f"== {target.name}", flush=True)
            rng = random.Random(f"{args.seed}:{target.name}")
            summary = run_target(target, sandbox, args.sample, rng, equivalent)
            summaries.append(summary)
            print(f"SUMMARY mutation {target.name}: {_line(summary)}", flush=True)
    finally:
        sandbox.close()
    if args.json:
        args.json.write_text(json.dumps(summaries, indent=2) + "\n", encoding="utf-8")
    return 0


def _line(summary: dict[str, object]) -> str:
    survived = summary["survived"]
    assert isinstance(survived, list)
    return (
        f"{summary['killed']} killed of {summary['tried']} tried "
        f"({summary['equivalent']} equivalent, {len(survived)} survived; "
        f"{summary['mutants']} mutants in all): score {summary['score']}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
