"""load_yaml: plain data, positions, and a located diagnostic for every kind of broken input."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft import suggest
from rulecraft.compile import report
from rulecraft.diagnostics import Diagnostic, Severity
from rulecraft.language import schema_check, yaml_source
from rulecraft.language.schema_check import check_schema
from rulecraft.language.yaml_source import load_yaml

from .schemas import TEST_SCHEMA

VALID = """\
name: Example
version: 2
released: '2024-05-01'
mode: coop
players:
  min: 1
  max: 4
tags: [fast, family]
decks:
  - kind: draw
    size: 30
  - kind: discard
effects:
  - {op: gain, amount: 2}
  - op: move
    to: market
description: |
  A short game.
"""


def _bomb(levels: int, width: int) -> str:
    lines = [f"l0: &l0 [{', '.join(['x'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def validate_text(source: str | bytes) -> list[Diagnostic]:
    """Load then schema-check, as the pipeline does for a manifest."""
    data, positions, problems = load_yaml(source, "ruleset.yaml")
    if data is not None:
        problems += check_schema(data, TEST_SCHEMA, positions, "ruleset.yaml")
    return problems


# (id, source, expected code, line, column)
BROKEN: list[tuple[str, str | bytes, str, int, int]] = [
    ("syntax-mapping-in-value", "name: a: b\n", "RC001", 1, 8),
    ("syntax-unclosed-flow", "name: x\ntags: [a,\n", "RC001", 3, 1),
    ("syntax-tab-indent", "name: x\nplayers:\n\tmin: 1\n", "RC001", 3, 1),
    ("syntax-unclosed-quote", "name: 'x\nversion: 1\n", "RC001", 1, 7),  # where it opens
    ("syntax-two-documents", "name: x\n---\nname: y\n", "RC001", 2, 1),
    ("syntax-undefined-alias", "name: *nowhere\n", "RC001", 1, 7),
    ("duplicate-key", "name: x\nversion: 1\nname: y\n", "RC002", 3, 1),
    ("impossible-date", "name: x\nreleased: 2024-13-01\n", "RC003", 2, 11),
    ("impossible-date-in-list", "name: x\ntags:\n  - 2023-02-30\n", "RC003", 3, 5),
    ("not-utf8", b"name: x\nmode: caf\xe9\n", "RC004", 2, 10),
    ("utf16", "name: x\n".encode("utf-16"), "RC004", 1, 1),
    ("nul-bytes", b"name: x\n\x00\x01\x02junk", "RC005", 2, 1),
    ("control-character", "name: x\x07y\n", "RC005", 1, 8),
    ("empty", "", "RC006", 1, 1),
    ("only-comments", "# nothing yet\n\n", "RC006", 1, 1),
    ("alias-bomb", "name: x\n" + _bomb(9, 9), "RC007", 7, 1),
    ("deep-flow", "name: " + "[" * 150 + "]" * 150 + "\n", "RC008", 1, 106),
    ("deep-block", "".join("  " * i + f"k{i}:\n" for i in range(120)), "RC008", 101, 201),
    ("huge-int", "name: x\nversion: 99999999999999999999\n", "RC009", 2, 10),
    ("huge-negative-int", "name: x\nversion: -9223372036854775809\n", "RC009", 2, 10),
    ("custom-tag", "name: !secret x\n", "RC020", 1, 7),
    ("binary-value", "name: !!binary aGVsbG8=\n", "RC020", 1, 7),
    ("boolean-key", "name: x\ntrue: 1\n", "RC020", 2, 1),
    ("unknown-key", "name: x\nversoin: 2\n", "RC010", 2, 1),
    ("unknown-nested-key", "name: x\nplayers:\n  min: 1\n  mxa: 3\n", "RC010", 4, 3),
    ("missing-key", "version: 2\n", "RC011", 1, 1),
    ("missing-nested-key", "name: x\nplayers:\n  max: 3\n", "RC011", 2, 1),
    ("wrong-type", "name: x\nversion: two\n", "RC012", 2, 10),
    ("date-where-integer", "name: x\nversion: 2024-01-01\n", "RC012", 2, 10),
    ("enum", "name: x\nmode: co-op\n", "RC013", 2, 7),
    ("range", "name: x\nplayers:\n  min: 1\n  max: 12\n", "RC014", 4, 8),
    ("pattern", "name: x\ncode: ABC\n", "RC015", 2, 7),
    ("format", "name: x\nreleased: '2024-02-31'\n", "RC015", 2, 11),
    ("duplicate-items", "name: x\ntags: [a, b, a]\n", "RC016", 2, 7),
    ("then-branch", "name: x\ndecks:\n  - kind: draw\n", "RC011", 3, 5),
    ("oneof-branch", "name: x\neffects:\n  - op: gain\n    amount: lots\n", "RC012", 4, 13),
    ("oneof-discriminator", "name: x\neffects:\n  - op: teleport\n", "RC013", 3, 9),
]


@pytest.mark.parametrize(
    ("source", "code", "line", "column"),
    [case[1:] for case in BROKEN],
    ids=[case[0] for case in BROKEN],
)
def test_broken_input_gives_located_diagnostic(
    source: str | bytes, code: str, line: int, column: int
) -> None:
    problems = validate_text(source)
    assert problems, "expected a diagnostic"
    first = min(problems, key=Diagnostic.sort_key)
    assert (first.code, first.span.line, first.span.column) == (code, line, column), problems
    assert first.span.file == "ruleset.yaml"
    assert first.severity is Severity.ERROR


def test_valid_document_loads_to_plain_data() -> None:
    data, _, problems = load_yaml(VALID, "ruleset.yaml")
    assert problems == []
    assert validate_text(VALID) == []
    assert isinstance(data, dict)
    assert data["players"] == {"min": 1, "max": 4}
    effects = data["effects"]
    assert isinstance(effects, list) and effects[0] == {"op": "gain", "amount": 2}
    assert type(data["description"]) is str  # not ruamel's LiteralScalarString
    assert type(data["version"]) is int
    assert json.loads(json.dumps(data)) == data


def test_positions_of_keys_values_and_items() -> None:
    _, positions, _ = load_yaml(VALID, "ruleset.yaml")
    key = positions.key_span(("players", "max"))
    value = positions.value_span(("players", "max"))
    assert (key.line, key.column, key.end_column) == (7, 3, 5)
    assert (value.line, value.column, value.end_column) == (7, 8, 8)
    flow_item = positions.value_span(("tags", 1))
    assert (flow_item.line, flow_item.column, flow_item.end_column) == (8, 14, 19)
    in_flow_map = positions.value_span(("effects", 0, "amount"))
    assert (in_flow_map.line, in_flow_map.column) == (14, 24)
    block_item = positions.key_span(("decks", 1))
    assert (block_item.line, block_item.column) == (12, 5)
    assert ("players", "max") in positions


def test_unknown_path_falls_back_to_nearest_ancestor() -> None:
    _, positions, _ = load_yaml(VALID, "ruleset.yaml")
    assert positions.value_span(("players", "nope", 3)) == positions.value_span(("players",))
    assert positions.value_span(()).line == 1


def test_merged_keys_point_at_the_receiving_mapping() -> None:
    text = "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n"
    data, positions, problems = load_yaml(text, "f.yaml")
    assert problems == []
    assert data == {"base": {"x": 1}, "d": {"y": 2, "x": 1}}
    assert positions.value_span(("d", "x")).line == 3


def test_quoted_scalar_span_covers_the_quotes() -> None:
    _, positions, _ = load_yaml("a: 'it''s'\nb: \"q\"\n", "f.yaml")
    a = positions.value_span(("a",))
    assert (a.column, a.end_column) == (4, 10)
    b = positions.value_span(("b",))
    assert (b.column, b.end_column) == (4, 6)


def test_conversions() -> None:
    text = "d: 2024-01-01\nyes: no\n1: miss\nf: 1.5\nn:\nt: 2001-12-14t21:59:43Z\n"
    data, _, problems = load_yaml(text, "f.yaml")
    assert problems == []
    assert data == {
        "d": "2024-01-01",
        "yes": "no",  # YAML 1.2: yes/no are plain text
        "1": "miss",
        "f": 1.5,
        "n": None,
        "t": "2001-12-14T21:59:43+00:00",
    }


def test_int64_bounds_are_accepted() -> None:
    data, _, problems = load_yaml(f"a: {2**63 - 1}\nb: {-(2**63)}\n", "f.yaml")
    assert problems == []
    assert data == {"a": 2**63 - 1, "b": -(2**63)}


def test_explicit_null_document_is_not_empty() -> None:
    data, _, problems = load_yaml("~\n", "f.yaml")
    assert (data, problems) == (None, [])


def test_reused_anchor_is_a_warning_and_keeps_data() -> None:
    data, _, problems = load_yaml("a: &x 1\nb: &x 2\n", "f.yaml")
    assert data == {"a": 1, "b": 2}
    assert [(p.code, p.severity, p.span.line) for p in problems] == [("RC022", Severity.WARNING, 2)]


def test_node_budget_and_depth_limit_are_parameters() -> None:
    text = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
    assert load_yaml(text, "f.yaml")[2] == []
    _, _, problems = load_yaml(text, "f.yaml", max_nodes=10)
    assert [p.code for p in problems] == ["RC007"]
    _, _, problems = load_yaml("a: {b: {c: {d: 1}}}\n", "f.yaml", max_depth=2)
    assert [p.code for p in problems] == ["RC008"]


def test_alias_bomb_is_refused_quickly() -> None:
    # 10**9 nodes if expanded; refused after the budget, not after the heat death.
    _, _, problems = load_yaml(_bomb(10, 10), "f.yaml")
    assert [p.code for p in problems] == ["RC007"]


def test_all_errors_of_a_kind_are_reported() -> None:
    _, _, problems = load_yaml(f"a: {2**70}\nb: [{2**64}, !x 1]\n", "f.yaml")
    assert [(p.code, p.span.line) for p in problems] == [
        ("RC009", 1),
        ("RC009", 2),
        ("RC020", 2),
    ]


def test_load_from_path(tmp_path: Path) -> None:
    manifest = tmp_path / "ruleset.yaml"
    manifest.write_text(VALID, encoding="utf-8")
    data, positions, problems = load_yaml(manifest)
    assert problems == [] and isinstance(data, dict)
    assert positions.file == str(manifest)
    data, _, problems = load_yaml(tmp_path / "missing.yaml")
    assert data is None and [p.code for p in problems] == ["RC021"]
    _, _, problems = load_yaml(tmp_path)  # a directory
    assert [p.code for p in problems] == ["RC021"]


def test_utf8_bom_is_accepted() -> None:
    data, _, problems = load_yaml(b"\xef\xbb\xbfname: x\n", "f.yaml")
    assert (data, problems) == ({"name": "x"}, [])


@pytest.mark.parametrize("module", [yaml_source, schema_check, suggest, report])
def test_docstring_examples_run(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0


# --- fuzzing: never raise, always located ---------------------------------------------


def _plain(value: object) -> bool:
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(type(k) is str and _plain(v) for k, v in value.items())
    return False


def _check_outcome(source: str | bytes) -> None:
    data, positions, problems = load_yaml(source, "fuzz.yaml")
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    line_count = text.count("\n") + 1
    for problem in problems:
        assert problem.span.file == "fuzz.yaml"
        assert 1 <= problem.span.line <= line_count + 1, problem
        assert problem.span.column >= 1, problem
        assert problem.code.startswith("RC0"), problem
    if any(p.severity is Severity.ERROR for p in problems):
        assert data is None
    else:
        assert _plain(data)
        for path in list(positions.entries)[:50]:
            assert positions.value_span(path).line >= 1


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_never_raise(raw: bytes) -> None:
    _check_outcome(raw)


_YAML_CHARS = st.sampled_from(list(":-[]{}&*!|>'\"#%@`,?\t\n \x00\x07é0123456789abc"))


@st.composite
def mutated_valid_yaml(draw: st.DrawFn) -> str:
    text = VALID
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        position = draw(st.integers(min_value=0, max_value=len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "duplicate-line"]))
        if action == "insert":
            text = text[:position] + draw(_YAML_CHARS) + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + 1 :]
        elif action == "replace":
            text = text[:position] + draw(_YAML_CHARS) + text[position + 1 :]
        else:
            lines = text.splitlines(keepends=True)
            index = min(position, len(lines) - 1)
            text = "".join([*lines[: index + 1], lines[index], *lines[index + 1 :]])
    return text


@FUZZ
@given(mutated_valid_yaml())
def test_mutated_yaml_never_raises(text: str) -> None:
    _check_outcome(text)
    _check_outcome(text.encode("utf-8"))
