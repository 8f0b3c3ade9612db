"""The runtime compiled with mypyc plays the same games as the source.

Issue 11: "Where an existing compiler of Python (mypyc, Cython) pays for the fixed engine
code, use it with a pure-Python fallback, built by the project's own install step."  The
install step is the wheel's build hook (``hatch_build.py``: ``pip install .`` compiles the
modules, or falls back to pure Python); ``make compiled`` builds a compiled copy of the dev
tree.  A build takes most of a minute of CPU, so the tests that build are marked slow
(``pytest -m slow``); ``make compiled-check`` runs the whole record-hash suite on the dev
copy.  What they guard: the source stays compilable (mypyc refuses some constructs, see
docs/architecture.md), the compiled modules change no game, and a failed compilation still
gives a working, pure wheel.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The modules compiled (the Makefile's MYPYC_MODULES, pyproject's build hook's modules).
MODULES = (
    "runtime.engine",
    "runtime.game",
    "runtime.instructions",
    "runtime.builtins",
    "runtime.ids",
    "runtime.values",
    "runtime.state",
    "runtime.program",
    "runtime.map",
    "runtime.plan",
    "runtime.incremental",
    "compile.expressions",
    "splitmix",
)
CHECK = """
import json, sys
sys.path.insert(0, {tests!r})
import rulecraft
import rulecraft.runtime.engine
from test_record_hashes import _baseline, game_fingerprint
compiled = rulecraft.runtime.engine.__file__
assert compiled.endswith(".so"), compiled
import rulecraft.runtime.game
assert rulecraft.runtime.game.__file__.endswith(".so"), rulecraft.runtime.game.__file__
baseline = _baseline()
for name in ("tictactoe", "radlands", "waste_knights", "waylanders"):
    ruleset = rulecraft.load(name)
    got = [game_fingerprint(ruleset, seed) for seed in range(10)]
    assert got == baseline[name][:10], name
# The public records still copy and pickle (mypyc's frozen dataclasses do neither: the
# modules that define them, decision and rng, are not compiled; game is, its records not).
import copy, pickle
from rulecraft.rng import Rng
game = rulecraft.load("tictactoe").new_game(seed=1)
for record in (game.decision, game.record, Rng(1, 2)):
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record
# A define that calls itself without end is a located RC305, not a crash: compiled code
# runs no Python frame, so the calls of a define stay Python (compile/define_calls.py).
import tempfile, pathlib
sys.path.insert(0, {root!r})
from tests.hostile.build import write_ruleset
from rulecraft.errors import RuleError
folder = write_ruleset(pathlib.Path(tempfile.mkdtemp()) / "r", body="say 1")
rules = folder / "rules.rcl"
rules.write_text(rules.read_text("utf-8") + "\\ndefine f(n) = n > 0 and f(n + 1)\\n", "utf-8")
try:
    rulecraft.load(str(folder)).new_game(seed=1).evaluate_expr("f(1)")
    raise SystemExit("an endless recursion raised nothing")
except RuleError as err:
    assert err.code == "RC305", err
# The state's records keep their optional keys (a TypedDict compiled by mypyc forgot its
# total=False: runtime/records.py, not compiled, holds them).
from rulecraft.runtime.state import State
assert {{"first", "plan", "tiles"}} <= State.__optional_keys__, State.__optional_keys__
# `rulecraft compile --show` prints the generated code a compiled instruction holds too
# (a mypyc closure has no __closure__: its environment is read instead).
from rulecraft.cli.compile_cmd import generated_sources
program = rulecraft.load("tictactoe").program
place = next(r for r in program.routines if r.name == "action.place")
shown = [s for instr in place.code for s in generated_sources(instr)]
assert any("_kept_mask(ctx, " in s for s in shown), shown
# A generated routine runs on the compiled runtime only as its compiled copy (the dev
# tree's `make compiled`); without one (the wheel) its instructions run in C, never its
# source exec'd (slower there).  Its source is still there for --show.
for name in ("tictactoe", "radlands", "sparks"):
    for routine in rulecraft.load(name).program.routines:
        assert routine.source.startswith("def _generated(ctx, budget):"), routine.name
        assert not hasattr(routine.run, "__rulecraft_source__"), (name, routine.name)
print("same games")
"""


def test_makefile_and_the_wheel_compile_the_modules_named_here() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    joined = makefile.replace("\\\n", " ")  # the list's continued lines as one
    line = next(x for x in joined.splitlines() if x.startswith("MYPYC_MODULES"))
    assert tuple(line.split(":=")[1].split()) == MODULES
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]
    assert tuple(hook["modules"]) == MODULES
    # the build environment has what the hook compiles with
    assert any(r.startswith("mypy") for r in config["build-system"]["requires"])


def _hook() -> Any:
    """The build hook's module, loaded from the repository root as hatchling loads it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _App:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def display_warning(self, message: str) -> None:
        self.warnings.append(message)


def _run_hook(version: str, failing: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    module = _hook()
    calls: list[list[str]] = []

    def fake_compile(src: Path, modules: list[str], into: Path) -> dict[Path, str]:
        calls.append(modules)
        if failing:
            raise module.CompileFailed("no C compiler")
        return {into / "x__mypyc.so": "x__mypyc.so"}

    monkeypatch.setattr(module, "compile_modules", fake_compile)
    monkeypatch.delenv("RULECRAFT_PURE", raising=False)
    app = _App()
    # (root, config, build_config, metadata, directory, target_name, app): the hook reads
    # only the root, its config, the target and the app
    hook = module.CompiledRuntimeHook(
        str(ROOT), {"modules": list(MODULES)}, None, None, str(ROOT), "wheel", app
    )
    data: dict[str, Any] = {"force_include": {}, "pure_python": True}
    hook.initialize(version, data)
    hook.finalize(version, data, "")
    return calls, data, app.warnings


def test_the_game_runs_where_mypy_is_not_installed() -> None:
    """runtime/game.py names mypyc's class decorator (``Game`` compiled may be extended by
    Python classes); an install without mypy, whose ``mypy_extensions`` brings it, still
    imports and plays (the decorator a no-op there)."""
    code = (
        "import sys; sys.modules['mypy_extensions'] = None\n"
        "import rulecraft\n"
        "class Mine(rulecraft.Game): pass\n"
        "game = rulecraft.load('tictactoe').new_game(seed=1)\n"
        "game.choose('act:place:b2')\n"
        "print(len(game.legal_ids()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8"]


def test_a_failed_compilation_gives_a_pure_wheel_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls, data, warnings = _run_hook("standard", True, monkeypatch)
    assert calls == [list(MODULES)]
    assert data == {"force_include": {}, "pure_python": True}
    assert len(warnings) == 1
    assert "not compiled (no C compiler)" in warnings[0] and "pure Python" in warnings[0]


def test_a_compiled_wheel_carries_the_extensions_and_an_editable_install_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls, data, warnings = _run_hook("standard", False, monkeypatch)
    assert calls == [list(MODULES)] and warnings == []
    assert list(data["force_include"].values()) == ["x__mypyc.so"]
    assert data["pure_python"] is False and data["infer_tag"] is True
    # editable: an extension beside the source would shadow every later edit of it
    calls, data, _ = _run_hook("editable", False, monkeypatch)
    assert calls == [] and data == {"force_include": {}, "pure_python": True}


def _check_plays_the_same_games(package_root: Path, cwd: Path) -> None:
    """Run :data:`CHECK` in a fresh Python importing rulecraft from ``package_root``."""
    ran = subprocess.run(
        [sys.executable, "-c", CHECK.format(tests=str(ROOT / "tests" / "engine"), root=str(ROOT))],
        env={**os.environ, "PYTHONPATH": str(package_root)},
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    assert ran.returncode == 0 and "same games" in ran.stdout, ran.stdout + ran.stderr[-3000:]


def _build_wheel(into: Path) -> Path:
    from hatchling.builders.wheel import WheelBuilder

    (wheel,) = list(WheelBuilder(str(ROOT)).build(directory=str(into), versions=["standard"]))
    return Path(wheel)


@pytest.mark.slow
def test_the_installed_wheel_runs_the_compiled_runtime_and_the_same_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.fail("a C compiler is missing: the wheel cannot be compiled here")
    monkeypatch.delenv("RULECRAFT_PURE", raising=False)
    wheel = _build_wheel(tmp_path)
    assert "-cp311-" in wheel.name, wheel.name  # a platform wheel, not py3-none-any
    unpacked = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(unpacked)
    for module in MODULES:
        stem = "rulecraft/" + module.replace(".", "/")
        assert any(n.startswith(f"{stem}.") and n.endswith(".so") for n in names), module
        assert f"{stem}.py" in names  # the source ships beside it
    _check_plays_the_same_games(unpacked, tmp_path)


@pytest.mark.slow
def test_without_a_c_compiler_the_wheel_is_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RULECRAFT_PURE", raising=False)
    monkeypatch.setenv("CC", "/bin/false")  # setuptools compiles with $CC: it fails
    wheel = _build_wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        assert not [n for n in archive.namelist() if n.endswith(".so")]


@pytest.mark.slow
def test_the_dev_trees_compiled_copy_plays_the_same_games(tmp_path: Path) -> None:
    """What ``make compiled`` does: the modules compiled in a copy of ``src/``."""
    mypyc = Path(sys.executable).with_name("mypyc")
    if not mypyc.exists() or (shutil.which("cc") is None and shutil.which("gcc") is None):
        pytest.fail("mypyc or a C compiler is missing: the dev extra and a C toolchain")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src)
    (tmp_path / "rulesets").symlink_to(ROOT / "rulesets")
    built = subprocess.run(
        [str(mypyc), *("rulecraft/" + m.replace(".", "/") + ".py" for m in MODULES)],
        cwd=src,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    _check_plays_the_same_games(src, tmp_path)


def imports_in_closures(source: str) -> list[tuple[int, str]]:
    """The import statements inside a function nested in another function of ``source``
    (line, function): compiled by mypyc, such an import runs the import machinery at
    every call of an instruction or closure the engine makes."""
    found: list[tuple[int, str]] = []
    for outer in ast.walk(ast.parse(source)):
        if not isinstance(outer, ast.FunctionDef):
            continue
        for inner in ast.walk(outer):
            if inner is outer or not isinstance(inner, ast.FunctionDef | ast.Lambda):
                continue
            for node in ast.walk(inner):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.append((node.lineno, getattr(inner, "name", "<lambda>")))
    return sorted(set(found))


def test_no_compiled_closure_imports_at_each_call() -> None:
    """Waste Knights' rolls imported the chance module inside the ``roll`` instruction:
    10.0M of its 56.2M instructions a random playout (callgrind, compiled).  The makers
    of instructions import what their closures need, once."""
    offenders = [
        f"{module}:{line} in {name}"
        for module in MODULES
        for line, name in imports_in_closures(
            (ROOT / "src" / "rulecraft" / (module.replace(".", "/") + ".py")).read_text()
        )
    ]
    assert offenders == []


def test_an_import_in_an_instruction_is_found() -> None:
    maker = (
        "def _roll(pool):\n"
        "    from a import b\n"  # once, when the instruction is made: allowed
        "    def roll(ctx):\n"
        "        from rulecraft.runtime.chance import roll_pool\n"
        "        return roll_pool(ctx, pool(ctx))\n"
        "    return roll\n"
    )
    assert imports_in_closures(maker) == [(4, "roll")]
