"""Every docstring example in the package runs (python-chess style: docstrings with runnable
examples stay true). Some test files run their own module's doctests too; this one makes
sure no module's examples are left out (errors.py and chance.py had examples nothing ran)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rulecraft

MODULES = sorted(m.name for m in pkgutil.walk_packages(rulecraft.__path__, "rulecraft."))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_modules_docstrings_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_package_has_examples_to_run() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(name), verbose=False).attempted for name in MODULES
    )
    assert attempted >= 200
