"""The examples in the dice modules' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "rulecraft.dice",
    "rulecraft.dice.spec",
    "rulecraft.dice.pool",
    "rulecraft.dice.exact",
    "rulecraft.dice.sampling",
    "rulecraft.dice._memo",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
