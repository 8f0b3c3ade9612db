"""Every code the validators emit is described for SARIF and documented in docs/errors.md."""

from __future__ import annotations

import re
from pathlib import Path

from rulecraft.cli import validate_cmd
from rulecraft.compile.report import CODE_DESCRIPTIONS
from rulecraft.language import schema_check, yaml_source

ERRORS_DOC = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


def _emitted_codes() -> set[str]:
    modules = (yaml_source, schema_check, validate_cmd)
    return {
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, str) and re.fullmatch(r"RC\d{3}", value)
    }


def test_emitted_codes_have_descriptions() -> None:
    emitted = _emitted_codes()
    assert len(emitted) >= 20
    assert emitted <= set(CODE_DESCRIPTIONS)


def test_described_codes_are_documented_in_a_table_row() -> None:
    documented = set(re.findall(r"^\| (RC\d{3}) \|", ERRORS_DOC.read_text(encoding="utf-8"), re.M))
    assert set(CODE_DESCRIPTIONS) <= documented
