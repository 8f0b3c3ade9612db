"""The wheel's build hook: the runtime's hottest modules compiled with mypyc (issue 11).

Issue 11 asks for the fixed engine code compiled "with a pure-Python fallback, built by the
project's own install step".  So ``pip install .`` (and ``python -m build``) builds a wheel
whose modules listed under ``[tool.hatch.build.targets.wheel.hooks.custom] modules`` in
``pyproject.toml`` are C extensions beside their ``.py`` sources; Python imports the
extension.  If mypyc or a C compiler is missing, or the compilation fails, the wheel is pure
Python and the build says why in one warning: the fallback.  ``RULECRAFT_PURE=1`` builds a
pure wheel on purpose.

Editable installs (the dev venv ``make`` builds) stay pure Python: an extension left beside a
source would shadow every later edit of it.  ``make compiled`` builds a compiled copy of the
dev tree instead (docs/architecture.md, "Speed").

hatch-mypyc, the published hook, was not used: it compiles in place, leaving the extensions
in ``src/`` (where they would shadow the sources of the editable install), and has no
fallback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Third-party packages need not be installed in the build environment: the compiled
#: modules import none, and what they reach through other modules is typed as Any.
MYPY_CONFIG = "[mypy]\nignore_missing_imports = True\n"


class CompileFailed(Exception):
    """mypyc could not build the extensions (the reason is the message)."""


def compile_modules(src: Path, modules: list[str], into: Path) -> dict[Path, str]:
    """Compile each of ``modules`` (dotted names under ``rulecraft``: ``runtime.engine``)
    from a copy of ``src`` made in ``into``; the built extensions, each with its path
    inside the wheel.

    Raises :class:`CompileFailed` when mypyc or the C compiler fails."""
    shutil.copytree(src / "rulecraft", into / "rulecraft", ignore=shutil.ignore_patterns("*.pyc"))
    (into / "mypy.ini").write_text(MYPY_CONFIG, encoding="utf-8")
    sources = [module_path(m) for m in modules]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *sources],
            cwd=into,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as err:
        raise CompileFailed(str(err)) from err
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
        raise CompileFailed("mypyc failed: " + " | ".join(tail))
    built: dict[Path, str] = {}
    for shared in into.glob("*__mypyc*"):
        if shared.is_file():
            built[shared] = shared.name
    for module in modules:
        source = Path(module_path(module))
        found = sorted((into / source.parent).glob(f"{source.stem}.*.so")) + sorted(
            (into / source.parent).glob(f"{source.stem}.*.pyd")
        )
        if not found:
            raise CompileFailed(f"mypyc built no extension for rulecraft.{module}")
        built[found[0]] = (source.parent / found[0].name).as_posix()
    return built


def module_path(module: str) -> str:
    """``runtime.engine`` -> ``rulecraft/runtime/engine.py``."""
    return "rulecraft/" + module.replace(".", "/") + ".py"


class CompiledRuntimeHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled runtime to a standard (not editable) wheel, or nothing."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("RULECRAFT_PURE"):
            return
        modules = list(self.config.get("modules", []))
        self._scratch = Path(tempfile.mkdtemp(prefix="rulecraft-mypyc-"))
        try:
            built = compile_modules(Path(self.root) / "src", modules, self._scratch)
        except CompileFailed as err:
            self.app.display_warning(
                f"rulecraft: the runtime is not compiled ({err}); the wheel is pure Python"
            )
            return
        for path, inside in built.items():
            build_data["force_include"][str(path)] = inside
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # the extensions are for this Python and platform

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
