"""The examples in the language server's docstrings run as tests."""

from __future__ import annotations

import doctest

import pytest

from rulecraft.lsp import actions, hover, positions


@pytest.mark.parametrize("module", [actions, hover, positions])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
