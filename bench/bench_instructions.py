"""Benchmark: machine instructions per random playout, this engine against an earlier one.

    .venv/bin/python bench/bench_instructions.py                  # against HEAD~1, pure
    .venv/bin/python bench/bench_instructions.py --against 6943e47 --compiled connect4

Timings on this machine move by 20-30% from run to run (a shared virtual machine), so a
change worth 10% is hard to see in playouts per second.  Instructions help: each side plays
the same random playouts (``new_game(seed=0)`` cloned, moves drawn by one
``random.Random(1)``, as ``bench_engine.py`` draws them) under valgrind's callgrind,
twice, with ``N`` playouts and with none; the difference divided by ``N`` is what one
playout costs, the start-up (imports, loading the ruleset) left out.
``PYTHONHASHSEED=0`` makes the count repeat to the instruction, but not across ways of
starting the same code: 38bd989's pure Tic-Tac-Toe counted 1,264k a playout run as here
(``python -c``) and 1,327k run from a script file (probably because where objects lie moves the
cost of whatever hashes by address).  A change of a few percent is inside that.

Instructions are not time (a cache miss costs more than an add), so this complements
``bench_engine.py``, it does not replace it.  ``--compiled`` builds each side's runtime
with mypyc first (the modules its own ``pyproject.toml`` names, as ``pip install .``
does).  Without valgrind the benchmark says so and measures nothing.  Prints one
``SUMMARY instructions:`` line and writes ``bench/baseline/instructions.json``.

With OpenSpiel installed (``pip install open_spiel``), the same count is made for its C++
Tic-Tac-Toe and Connect Four through the same driver (``clone()``, ``legal_actions()``,
``rng.choice``, ``apply_action()`` from Python, one ``random.Random(1)``),
and the summary gives OpenSpiel's count over rulecraft's: ``bench_engine.py``'s playout
ratio counted in instructions, which a busy machine does not move.  (An earlier version of
this text said a timed ratio of 0.04x against 0.10x the day before came from a loaded host
slowing the interpreter more than C++; it was the pure-Python runtime timed by mistake, as
docs/architecture.md's correction of 4 December says, and is withdrawn.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchkit  # noqa: E402
from bench_engine import export_revision  # noqa: E402

GAMES = ("tictactoe", "connect4")
PLAYOUTS = {"tictactoe": 400, "connect4": 200}
DEFAULT_PLAYOUTS = 20  # a card game's playout costs a hundred Connect Fours'

#: What each side runs under valgrind: ``N`` random playouts of one ruleset.
PLAYOUT = """
import random, sys
import rulecraft
ruleset = rulecraft.load(sys.argv[1])
start = ruleset.new_game(seed=0)
rng = random.Random(1)
for n in range(int(sys.argv[2])):
    game = start.clone()
    while game.result is None:
        game.choose(rng.choice(game.legal_ids()))
"""


#: The same playouts of OpenSpiel's C++ game, driven from Python alike.
OPENSPIEL_PLAYOUT = """
import random, sys
import pyspiel
start = pyspiel.load_game(sys.argv[1]).new_initial_state()
rng = random.Random(1)
for n in range(int(sys.argv[2])):
    state = start.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
"""

#: OpenSpiel's name of each bundled ruleset it also plays.
OPENSPIEL_GAMES = {"tictactoe": "tic_tac_toe", "connect4": "connect_four"}


def instructions(src: Path | None, script: str, game: str, playouts: int) -> int:
    """Every instruction callgrind counts for ``playouts`` playouts of ``game`` run by
    ``script`` with ``src`` first on the import path (``None``: this environment's)."""
    with tempfile.TemporaryDirectory(prefix="rulecraft-callgrind-") as tmp:
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        if src is not None:
            env["PYTHONPATH"] = str(src)
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out"]
        command = [*valgrind, sys.executable, "-c", script, game, str(playouts)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{game} on {src} failed:\n" + done.stderr[-3000:])
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip())
    raise RuntimeError("callgrind printed no count:\n" + done.stderr[-2000:])


def per_playout(src: Path, name: str) -> float:
    playouts = PLAYOUTS.get(name, DEFAULT_PLAYOUTS)
    ruleset = str(ROOT / "rulesets" / name)  # the working tree's, for both engines
    made = instructions(src, PLAYOUT, ruleset, playouts)
    return (made - instructions(src, PLAYOUT, ruleset, 0)) / playouts


def openspiel_per_playout(name: str) -> float | None:
    """OpenSpiel's instructions per playout of the game ``name`` (a ruleset's name), or
    ``None`` when OpenSpiel is not installed or does not have the game."""
    game = OPENSPIEL_GAMES.get(name)
    try:
        import pyspiel  # noqa: F401  (only whether it is there)
    except ImportError:
        return None
    if game is None:
        return None
    playouts = PLAYOUTS.get(name, DEFAULT_PLAYOUTS)
    made = instructions(None, OPENSPIEL_PLAYOUT, game, playouts)
    return (made - instructions(None, OPENSPIEL_PLAYOUT, game, 0)) / playouts


def compiled(side: Path, into: Path) -> Path:
    """``side`` (a folder with ``src/`` and ``pyproject.toml``) with the modules its
    ``pyproject.toml`` names compiled by mypyc, built under ``into``; its importable root."""
    import hatch_build

    with (side / "pyproject.toml").open("rb") as f:
        hooks = tomllib.load(f)["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]
    hatch_build.compile_modules(side / "src", list(hooks["custom"]["modules"]), into)
    return into


def sides(rev: str, tmp: Path, build: bool) -> dict[str, Path]:
    """The importable ``src`` of ``rev`` and of the working tree, compiled if ``build``."""
    old = tmp / "old"
    old.mkdir()
    export_revision(rev, old, ("src", "pyproject.toml"))
    new = tmp / "new"
    shutil.copytree(ROOT / "src", new / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", new / "pyproject.toml")
    if not build:
        return {rev: old / "src", "working tree": new / "src"}
    return {rev: compiled(old, tmp / "old-built"), "working tree": compiled(new, tmp / "new-built")}


def summary(results: dict[str, dict[str, float]], against: str, build: str) -> str:
    """The ``SUMMARY`` line: each ruleset's count against the earlier engine's, and
    OpenSpiel's over the working tree's where it was counted (the playout ratio)."""
    parts = []
    for name, got in results.items():
        part = (
            f"{name} {got['working tree'] / 1000:,.0f}k vs {got[against] / 1000:,.0f}k "
            f"({got['working tree'] / got[against]:.2f}x"
        )
        peer = got.get("openspiel_cpp")
        if peer is not None:
            part += f"; OpenSpiel C++ {peer / 1000:,.0f}k, {peer / got['working tree']:.3f}x of it"
        parts.append(part + ")")
    return (
        f"SUMMARY instructions: per random playout ({build}), working tree vs {against}: "
        + ", ".join(parts)
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD~1", help="the earlier engine's revision")
    parser.add_argument("--compiled", action="store_true", help="mypyc-compile both sides")
    parser.add_argument("rulesets", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    build = "compiled" if args.compiled else "pure"
    if shutil.which("valgrind") is None:
        print("SUMMARY instructions: not measured (no valgrind on this machine)")
        return 0
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="rulecraft-bench-") as tmp:
        engines = sides(args.against, Path(tmp), args.compiled)
        for name in args.rulesets:
            results[name] = {label: per_playout(src, name) for label, src in engines.items()}
            peer = openspiel_per_playout(name)
            if peer is not None:
                results[name]["openspiel_cpp"] = peer
            print(f"{name}: {results[name]}", flush=True)
    print(summary(results, args.against, build))
    machine = benchkit.machine()
    machine.pop("engine")  # (this process's own: the engines measured ran in their own)
    out: dict[str, Any] = {
        "machine": machine,
        "build": build,
        "against": args.against,
        "instructions_per_playout": results,
    }
    baseline = ROOT / "bench" / "baseline" / "instructions.json"
    baseline.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
