"""The layer contract (issue 11: 'layers import only downwards ... enforced by an import
test'), as a ratchet: the package is not yet split into language/compile/runtime, so the
imports that still go upwards are listed here by name, and the test fails both on a new
upward import and on a listed one that is gone (then strike it from the list).
docs/architecture.md draws the layers."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "rulecraft"

#: Lower layers first; a module may import from its own layer and the layers below it.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"diagnostics", "errors"}),
    frozenset({"grammar", "dice"}),
    frozenset({"validators", "interpreter"}),  # compile + runtime (to be split)
    frozenset({"tools"}),
    frozenset({"repl", "envs", "lsp", "pettingzoo", "openspiel"}),
    frozenset({"cli"}),
)

#: Upward imports that exist today, module -> imported module. Each is a debt: the
#: interpreter reaches into the validators for did-you-mean and the YAML reader, the
#: simulator into the balance report and the Ray backend, dice into the game's stream.
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset(
    {
        ("rulecraft.dice.sampling", "rulecraft.interpreter.random"),
        ("rulecraft.interpreter.simulator", "rulecraft.tools.balance"),
        ("rulecraft.interpreter.simulator", "rulecraft.tools.cluster"),
    }
)


def _layer(module: str) -> int:
    top = module.split(".")[1] if module.count(".") else ""
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index
    return len(LAYERS)  # the package's __init__ sits on top: it exports the API


def upward_imports() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in SRC.rglob("*.py"):
        module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rulecraft."):
                target = str(node.module)
                if _layer(target) > _layer(module):
                    found.add((module, target))
    return found


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    found = upward_imports()
    assert found - KNOWN_UPWARD == set(), "a new upward import"
    assert KNOWN_UPWARD - found == set(), "an upward import is gone: strike it from the list"


def test_the_layers_name_every_top_level_module() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    modules = {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert packages | modules <= set().union(*LAYERS)
