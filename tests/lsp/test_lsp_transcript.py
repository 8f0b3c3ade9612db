"""docs/editor.md's recorded session is what the server answers today."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .transcript import record

pytestmark = pytest.mark.xdist_group("lsp")

DOC = Path(__file__).resolve().parents[2] / "docs" / "editor.md"
_BLOCK = re.compile(
    r"<!-- transcript: tests/lsp/transcript.py -->\n```text\n(.*?)^```", re.S | re.M
)


def test_the_transcript_in_the_docs_is_recorded_from_the_real_server() -> None:
    found = _BLOCK.search(DOC.read_text("utf-8"))
    assert found is not None, "docs/editor.md lost its transcript block"
    assert found.group(1) == record(), "re-record: python tests/lsp/transcript.py"
