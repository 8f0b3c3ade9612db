"""The examples in the REPL modules' docstrings run."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from rulecraft.cli import play_cmd
from rulecraft.repl import choosing, glyphs, mapdraw, messages, narrate, render, session, terminal

MODULES = [render, session, terminal, play_cmd, choosing, glyphs, mapdraw, messages, narrate]


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module: ModuleType) -> None:
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
