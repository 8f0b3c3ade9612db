"""bench/mutation.py, the mutation-testing tool of issue 17 ("Add mutation testing (mutmut or
a small script) over the dice, view, semantic and engine modules as a slow target").

Only its quick parts run here: the arguments, the mutants it enumerates and applies.  The
slow part (a pytest run per mutant) is ``make mutation``.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "mutation.py"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mutation", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_mutation"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_bare_run_takes_every_target(
    tool: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """`make mutation` runs it with no target: argparse used to refuse the empty default
    ("invalid choice: []") before trying a single mutant."""
    assert tool.main(["--list"]) == 0
    keys = capsys.readouterr().out.splitlines()
    modules = {key.split(":")[0] for key in keys}
    expected = {m for target in tool.TARGETS.values() for m in target.modules}
    assert modules == expected


def test_an_unknown_target_is_refused(tool: ModuleType) -> None:
    with pytest.raises(SystemExit) as stop:
        tool.main(["--list", "viewz"])
    assert stop.value.code == 2


SOURCE = '''\
"""Doc."""
def f(a, b):
    if a < b and b != 0:
        return a + b
    return None
'''


def test_every_mutant_changes_the_code_once(tool: ModuleType) -> None:
    mutants = tool.enumerate_mutants("m.py", SOURCE)
    ops = sorted(m.op for m in mutants)
    assert ops == [
        "0->1",
        "Add->Sub",
        "And->Or",
        "Lt->LtE",
        "NotEq->Eq",
        "negate-cond",
        "return-None",
    ]
    original = ast.unparse(ast.parse(SOURCE))
    changed = {tool.mutated_source(SOURCE, m) for m in mutants}
    assert original not in changed and len(changed) == len(mutants)
    add_to_sub = next(m for m in mutants if m.op == "Add->Sub")
    assert "return a - b" in tool.mutated_source(SOURCE, add_to_sub)
