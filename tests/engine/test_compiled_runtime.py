"""The runtime compiled with mypyc (``make compiled``) plays the same games as the source.

Issue 11: "Where an existing compiler of Python (mypyc, Cython) pays for the fixed engine
code, use it with a pure-Python fallback, built by the project's own install step."  The
build takes a minute of CPU, so this test is marked slow (``pytest -m slow``); ``make
compiled-check`` runs the whole record-hash suite on the build instead.  What it guards:
the source stays compilable (mypyc refuses some constructs, see docs/architecture.md) and
the compiled modules change no game.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The modules `make compiled` compiles (the Makefile's MYPYC_MODULES).
MODULES = ("engine", "instructions", "builtins", "ids", "values", "state")
CHECK = """
import json, sys
sys.path.insert(0, {tests!r})
import rulecraft
import rulecraft.runtime.engine
from test_record_hashes import _baseline, game_fingerprint
compiled = rulecraft.runtime.engine.__file__
assert compiled.endswith(".so"), compiled
baseline = _baseline()
for name in ("tictactoe", "radlands", "waste_knights", "waylanders"):
    ruleset = rulecraft.load(name)
    got = [game_fingerprint(ruleset, seed) for seed in range(10)]
    assert got == baseline[name][:10], name
print("same games")
"""


def test_makefile_compiles_the_modules_named_here() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = next(x for x in makefile.splitlines() if x.startswith("MYPYC_MODULES"))
    assert tuple(line.split(":=")[1].split()) == MODULES


@pytest.mark.slow
def test_the_compiled_runtime_plays_the_same_games(tmp_path: Path) -> None:
    mypyc = Path(sys.executable).with_name("mypyc")
    if not mypyc.exists() or (shutil.which("cc") is None and shutil.which("gcc") is None):
        pytest.fail("mypyc or a C compiler is missing: the dev extra and a C toolchain")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src)
    (tmp_path / "rulesets").symlink_to(ROOT / "rulesets")
    built = subprocess.run(
        [str(mypyc), *(f"rulecraft/runtime/{m}.py" for m in MODULES)],
        cwd=src,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    env = {**os.environ, "PYTHONPATH": str(src)}
    ran = subprocess.run(
        [sys.executable, "-c", CHECK.format(tests=str(ROOT / "tests" / "engine"))],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0 and "same games" in ran.stdout, ran.stdout + ran.stderr[-3000:]
