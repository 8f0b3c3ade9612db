"""check_schema: every error, its code, its YAML position; check_schema_itself."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from rulecraft.diagnostics import Diagnostic
from rulecraft.language.schema_check import check_schema, check_schema_itself
from rulecraft.language.yaml_source import load_yaml

from .schemas import TEST_SCHEMA


def check(text: str, schema: dict[str, Any] = TEST_SCHEMA) -> list[Diagnostic]:
    data, positions, problems = load_yaml(text, "r.yaml")
    assert problems == [], problems
    return check_schema(data, schema, positions, "r.yaml")


def brief(problems: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(p.code, p.span.line, p.span.column) for p in problems]


def test_all_errors_reported_sorted_and_located() -> None:
    text = "nam: x\nversion: 0\nplayers:\n  max: 9\n  mni: 1\nmode: coop\n"
    problems = check(text)
    assert brief(problems) == [
        ("RC010", 1, 1),  # nam
        ("RC011", 1, 1),  # name missing from the document
        ("RC014", 2, 10),  # version >= 1
        ("RC011", 3, 1),  # players.min missing: at the key opening the mapping
        ("RC014", 4, 8),  # players.max <= 8
        ("RC010", 5, 3),  # mni
    ]
    by_code = {(p.code, p.span.line): p for p in problems}
    assert by_code[("RC010", 1)].hint == "did you mean `name`?"
    assert by_code[("RC010", 5)].message == "unknown key `mni` in `players`"
    assert by_code[("RC010", 5)].hint == "did you mean `min`?"
    assert by_code[("RC011", 3)].message == "missing required key `min` in `players`"
    assert by_code[("RC014", 4)].message == "`players.max` must be at most 8 (got 9)"


def test_unknown_key_spans_the_key() -> None:
    (problem,) = check("name: x\nplayres: {}\n")
    assert (problem.span.line, problem.span.column, problem.span.end_column) == (2, 1, 7)
    assert problem.hint == "did you mean `players`?"


def test_unknown_key_suggests_keys_from_refs() -> None:
    (problem,) = check("name: x\ndescripton: hello\n")
    assert problem.hint == "did you mean `description`?"


def test_unknown_key_without_suggestion_lists_allowed_keys() -> None:
    (problem,) = check("name: x\nzzzzzz: 1\n")
    assert problem.hint is not None and problem.hint.startswith("allowed keys: code, decks")


def test_pattern_properties_are_not_unknown() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {}},
        "patternProperties": {"^x-": {}},
        "additionalProperties": False,
    }
    assert brief(check("a: 1\nx-note: 2\nb: 3\n", schema)) == [("RC010", 3, 1)]


def test_wrong_type_message() -> None:
    (problem,) = check("name: x\ntags: fast\n")
    assert problem.code == "RC012"
    assert problem.message == "`tags` must be a list, not text"


def test_enum_lists_allowed_values_and_suggests() -> None:
    (problem,) = check("name: x\nmode: Solo\n")
    assert problem.code == "RC013"
    assert problem.message == '`mode` must be one of "solo", "coop", "versus" (got "Solo")'
    assert problem.hint == 'did you mean "solo"?'


def test_format_is_checked() -> None:
    (problem,) = check("name: x\nreleased: next spring\n")
    assert (problem.code, problem.message) == (
        "RC015",
        '`released` is not a valid date (got "next spring")',
    )


def test_unquoted_date_becomes_text_that_the_schema_accepts() -> None:
    assert check("name: x\nreleased: 2024-05-01\n") == []


def test_if_then_discriminator_gives_direct_errors() -> None:
    problems = check("name: x\ndecks:\n  - kind: draw\n    size: 0\n  - kind: draw\n")
    assert brief(problems) == [("RC014", 4, 11), ("RC011", 5, 5)]
    assert problems[1].message == "missing required key `size` in `decks[1]`"


def test_one_of_is_explained_through_the_meant_branch() -> None:
    problems = check("name: x\neffects:\n  - op: move\n    to: 3\n  - op: gain\n")
    assert brief(problems) == [("RC012", 4, 9), ("RC011", 5, 5)]
    assert problems[0].message == "`effects[0].to` must be text, not an integer"
    assert problems[1].message == "missing required key `amount` in `effects[1]`"


def test_one_of_with_unknown_discriminator_lists_the_choices() -> None:
    (problem,) = check("name: x\neffects:\n  - op: gian\n    amount: 1\n")
    assert problem.code == "RC013"
    assert problem.message == '`effects[0].op` must be one of "gain", "move" (got "gian")'
    assert problem.hint == 'did you mean "gain"?'


def test_one_of_with_wrong_type_everywhere() -> None:
    (problem,) = check("name: x\neffects: [7]\n")
    assert (problem.code, problem.message) == (
        "RC012",
        "`effects[0]` must be a mapping, not an integer",
    )


def test_one_of_matching_several_branches_is_reported() -> None:
    schema = {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
    (problem,) = check("5\n", schema)
    assert problem.code == "RC019"


def test_other_keywords_fall_back_to_rc019() -> None:
    schema = {"type": "object", "not": {"required": ["a"]}}
    (problem,) = check("a: 1\n", schema)
    assert (problem.code, problem.span.line) == ("RC019", 1)


# --- the schema itself -------------------------------------------------------------------


def test_valid_schema_has_no_problems() -> None:
    assert check_schema_itself(TEST_SCHEMA) == []


def test_misspelled_keywords_are_found_everywhere() -> None:
    schema = {
        "type": "object",
        "requried": ["a"],
        "properties": {
            "requried": {"type": "string"},  # a property name, not a keyword
            "b": {"type": "array", "items": {"minimun": 1}},
        },
        "$defs": {"d": {"enum": [{"typo": 1}], "x-editor": "ok"}},
    }
    problems = check_schema_itself(schema)
    assert [(p.code, p.message, p.hint) for p in problems] == [
        ("RC031", "unknown schema keyword `requried` at /requried", "did you mean `required`?"),
        (
            "RC031",
            "unknown schema keyword `minimun` at /properties/b/items/minimun",
            "did you mean `minimum`?",
        ),
    ]


def test_metaschema_violations() -> None:
    problems = check_schema_itself({"type": "strnig", "minimum": "one"})
    assert {p.code for p in problems} == {"RC030"}
    assert len(problems) == 2


def test_shipped_manifest_schema_is_valid() -> None:
    resource = resources.files("rulecraft.language").joinpath("manifest.schema.json")
    assert resource.is_file(), "the package ships its manifest schema"
    schema = json.loads(resource.read_text(encoding="utf-8"))
    assert check_schema_itself(schema) == []
