"""The layer contract (issue 11: "a layered package whose folders show the pipeline
(language -> compile -> runtime -> bots/tools), enforced by an import test"): a module
imports only from its own layer and the layers below it.  docs/architecture.md draws them.

The compiler targets the runtime: it builds the runtime's instructions and records, so
``compile`` sits above ``runtime`` and imports it, never the other way round (the runtime
runs a compiled :class:`Program` and never sees syntax: it imports neither ``compile`` nor
``language``, tested below)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "rulecraft"

#: Lower layers first; a module may import from its own layer and the layers below it.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"diagnostics", "errors", "rng", "splitmix", "suggest"}),
    frozenset({"language", "dice"}),
    frozenset({"runtime"}),
    frozenset({"compile"}),
    frozenset({"bots"}),
    frozenset({"tools"}),
    frozenset({"repl", "envs", "lsp", "pettingzoo", "openspiel"}),
    frozenset({"cli"}),
)

#: Upward imports that exist today, module -> imported module (none: keep it so).
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()


def _layer(module: str) -> int:
    top = module.split(".")[1] if module.count(".") else ""
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index
    return len(LAYERS)  # the package's __init__ sits on top: it exports the API


def all_imports() -> set[tuple[str, str]]:
    """Every ``from rulecraft.X import ...`` in ``src/``, as (module, imported module); a
    name imported from a package (``from rulecraft.runtime import engine``) counts as its
    module."""
    found: set[tuple[str, str]] = set()
    for path in SRC.rglob("*.py"):
        module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rulecraft."):
                target = str(node.module)
                if (SRC / target.split(".", 1)[1].replace(".", "/")).is_dir():
                    found.update((module, f"{target}.{alias.name}") for alias in node.names)
                else:
                    found.add((module, target))
    return found


def upward_imports() -> set[tuple[str, str]]:
    return {(m, t) for m, t in all_imports() if _layer(t) > _layer(m)}


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    found = upward_imports()
    assert found - KNOWN_UPWARD == set(), "a new upward import"
    assert KNOWN_UPWARD - found == set(), "an upward import is gone: strike it from the list"


def test_the_layers_name_every_top_level_module() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    modules = {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert packages | modules <= set().union(*LAYERS)


def test_the_runtime_never_imports_the_compiler_or_the_language() -> None:
    """Design rule 3: the runtime never walks syntax trees (it runs what the compiler built)."""
    found = {
        (module, target)
        for module, target in all_imports()
        if module.startswith("rulecraft.runtime")
        and target.startswith(("rulecraft.compile", "rulecraft.language"))
    }
    assert found == set()
