"""Check loaded YAML data against a JSON Schema and report every error at its YAML position.

jsonschema (Draft 2020-12, formats checked) finds the errors; this module gives each a
stable code, a plain-language message naming the offending path, the line and column of
the offending node (the key itself for unknown keys, the enclosing mapping for missing
keys) and, where it can, a "did you mean" hint.

>>> from rulecraft.language.yaml_source import load_yaml
>>> schema = {"type": "object", "properties": {"cost": {"type": "integer", "minimum": 0}},
...           "additionalProperties": False}
>>> data, positions, _ = load_yaml("cost: -1\\ncots: 2\\n", "card.yaml")
>>> for problem in check_schema(data, schema, positions, "card.yaml"):
...     print(problem)
card.yaml:1:7: error RC014: `cost` must be at least 0 (got -1)
card.yaml:2:1: error RC010: unknown key `cots` (hint: did you mean `cost`?)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from rulecraft.diagnostics import Diagnostic, Severity, Span
from rulecraft.language.yaml_source import JsonPath, PositionMap
from rulecraft.suggest import did_you_mean

UNKNOWN_KEY = "RC010"
MISSING_KEY = "RC011"
WRONG_TYPE = "RC012"
NOT_ALLOWED = "RC013"
OUT_OF_RANGE = "RC014"
NO_MATCH = "RC015"
DUPLICATE_ITEMS = "RC016"
OTHER = "RC019"
INVALID_SCHEMA = "RC030"
UNKNOWN_KEYWORD = "RC031"

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "empty (null)",
}

_RANGE_WORDS = {
    "minimum": "at least {}",
    "maximum": "at most {}",
    "exclusiveMinimum": "greater than {}",
    "exclusiveMaximum": "less than {}",
    "multipleOf": "a multiple of {}",
    "minLength": "at least {} characters long",
    "maxLength": "at most {} characters long",
    "minItems": "a list of at least {} items",
    "maxItems": "a list of at most {} items",
    "minProperties": "a mapping of at least {} keys",
    "maxProperties": "a mapping of at most {} keys",
}


def format_path(path: Iterable[str | int]) -> str:
    """A JSON path as designers read it.

    >>> format_path(["cards", 2, "cost"])
    'cards[2].cost'
    >>> format_path([])
    'the document'
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "the document"


def _where(path: Sequence[str | int]) -> str:
    return f"`{format_path(path)}`" if path else "the document"


def _kind_of(instance: object) -> str:
    if isinstance(instance, bool):
        return "true or false"
    if instance is None:
        return "empty (null)"
    if isinstance(instance, int):
        return "an integer"
    if isinstance(instance, float):
        return "a number"
    if isinstance(instance, str):
        return "text"
    if isinstance(instance, list):
        return "a list"
    if isinstance(instance, dict):
        return "a mapping"
    return type(instance).__name__


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _type_phrase(expected: object) -> str:
    names = (
        [expected]
        if isinstance(expected, str)
        else list(expected)
        if isinstance(expected, list | tuple)
        else []
    )
    return " or ".join(_TYPE_NAMES.get(str(name), str(name)) for name in names)


class _Locator:
    """Turns jsonschema errors into diagnostics located with a PositionMap."""

    def __init__(self, schema: Mapping[str, Any], positions: PositionMap, file: str) -> None:
        self.root_schema = schema
        self.positions = positions
        self.file = file

    def at_value(self, path: JsonPath) -> Span:
        return self.positions.value_span(path)

    def at_key(self, path: JsonPath) -> Span:
        return self.positions.key_span(path)

    def diagnose(self, error: ValidationError) -> Iterator[Diagnostic]:
        path: JsonPath = tuple(error.absolute_path)
        kind = error.validator
        instance = error.instance
        value: Any = error.validator_value
        where = _where(path)
        if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
            yield from self._unknown_keys(error, path, instance)
        elif kind in ("required", "dependentRequired") and isinstance(instance, dict):
            yield self._missing_key(error, path, instance)
        elif kind == "type":
            message = f"{where} must be {_type_phrase(value)}, not {_kind_of(instance)}"
            yield Diagnostic(WRONG_TYPE, message, self.at_value(path))
        elif kind in ("enum", "const"):
            yield self._not_allowed(path, instance, [value] if kind == "const" else value)
        elif kind in _RANGE_WORDS:
            wanted = _RANGE_WORDS[str(kind)].format(_show(value))
            got = f"{len(instance)}" if isinstance(instance, list | dict | str) else _show(instance)
            if kind in ("minLength", "maxLength", "minItems", "maxItems"):
                got = f"length {got}"
            elif kind in ("minProperties", "maxProperties"):
                got = f"{got} keys"
            message = f"{where} must be {wanted} (got {got})"
            yield Diagnostic(OUT_OF_RANGE, message, self.at_value(path))
        elif (
            kind == "pattern" and "propertyNames" in error.schema_path and isinstance(instance, str)
        ):
            # a key that breaks the naming rule: point at that key, not at its mapping
            message = f"the key {_show(instance)} in {where} must match the pattern {value}"
            yield Diagnostic(NO_MATCH, message, self.positions.key_span((*path, instance)))
        elif kind == "pattern":
            message = f"{where} must match the pattern {value} (got {_show(instance)})"
            yield Diagnostic(NO_MATCH, message, self.at_value(path))
        elif kind == "format":
            message = f"{where} is not a valid {value} (got {_show(instance)})"
            yield Diagnostic(NO_MATCH, message, self.at_value(path))
        elif kind == "uniqueItems":
            message = f"{where} has duplicate items"
            yield Diagnostic(DUPLICATE_ITEMS, message, self.at_value(path))
        elif kind in ("oneOf", "anyOf") and error.context:
            yield from self._explain_alternatives(error, path)
        else:
            message = f"{where}: {error.message}" if path else error.message
            yield Diagnostic(OTHER, message, self.at_value(path))

    def _unknown_keys(
        self, error: ValidationError, path: JsonPath, instance: dict[str, Any]
    ) -> Iterator[Diagnostic]:
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        allowed = sorted(_declared_properties(schema, self.root_schema))
        if error.validator == "additionalProperties":
            patterns = list((schema.get("patternProperties") or {}).keys())
            unexpected = [key for key in instance if _is_additional(key, allowed, patterns)]
        else:
            # jsonschema names the unevaluated keys only in its message, as Python reprs.
            unexpected = [key for key in instance if repr(key) in error.message]
        if error.validator_value is not False or not unexpected:
            message = f"{_where(path)}: {error.message}" if path else error.message
            yield Diagnostic(OTHER, message, self.at_value(path))
            return
        for key in unexpected:
            suggestion = did_you_mean(key, allowed)
            hint = f"did you mean `{suggestion}`?" if suggestion else _allowed_hint(allowed)
            inside = f" in {_where(path)}" if path else ""
            message = f"unknown key `{key}`{inside}"
            yield Diagnostic(UNKNOWN_KEY, message, self.at_key((*path, key)), hint=hint)

    def _missing_key(
        self, error: ValidationError, path: JsonPath, instance: dict[str, Any]
    ) -> Diagnostic:
        value: Any = error.validator_value
        if error.validator == "required":
            names = [name for name in value if name not in instance]
        else:  # dependentRequired: {"a": ["b"]} means "a" needs "b"
            names = [name for needed in value.values() for name in needed if name not in instance]
        missing = next((name for name in names if repr(name) in error.message), None)
        missing = missing if missing is not None else (names[0] if names else "?")
        inside = f" in {_where(path)}" if path else ""
        message = f"missing required key `{missing}`{inside}"
        # The parent mapping is where the key belongs: point at the key that opens it.
        span = self.at_key(path) if path else self.at_value(path)
        return Diagnostic(MISSING_KEY, message, span, hint=f"add `{missing}: ...`")

    def _not_allowed(self, path: JsonPath, instance: object, allowed: Sequence[Any]) -> Diagnostic:
        shown = ", ".join(_show(option) for option in allowed)
        if len(allowed) == 1:
            message = f"{_where(path)} must be {shown} (got {_show(instance)})"
        else:
            message = f"{_where(path)} must be one of {shown} (got {_show(instance)})"
        hint = None
        if isinstance(instance, str):
            suggestion = did_you_mean(instance, [a for a in allowed if isinstance(a, str)])
            hint = f"did you mean {_show(suggestion)}?" if suggestion else None
        return Diagnostic(NOT_ALLOWED, message, self.at_value(path), hint=hint)

    def _explain_alternatives(self, error: ValidationError, path: JsonPath) -> Iterator[Diagnostic]:
        """Explain a failed ``oneOf``/``anyOf`` through the branch the author meant.

        jsonschema's ``best_match`` often picks the wrong branch.  A branch whose type does
        not fit, or whose discriminating property (a ``const``/``enum`` one level down)
        differs, was clearly not meant; if exactly one branch survives, its own errors are
        the real explanation.  (Schemas should prefer ``if``/``then`` discriminators, which
        produce direct errors; this is the fallback.)
        """
        branches: dict[int, list[ValidationError]] = {}
        for sub in error.context or []:
            index = sub.relative_schema_path[0] if sub.relative_schema_path else -1
            branches.setdefault(int(index), []).append(sub)
        meant = [
            errors
            for errors in branches.values()
            if not any(_rules_out_branch(sub) for sub in errors)
        ]
        if meant:
            # Several plausible branches: the one with the fewest problems is the likeliest.
            chosen = min(meant, key=len)
            for sub in chosen:
                yield from self.diagnose(sub)
            return
        discriminators = [
            sub
            for errors in branches.values()
            for sub in errors
            if sub.validator in ("const", "enum") and len(sub.relative_path) == 1
        ]
        keys = {tuple(sub.absolute_path) for sub in discriminators}
        if len(keys) == 1:
            (key_path,) = keys
            allowed: list[Any] = []
            for sub in discriminators:
                options: Any = (
                    [sub.validator_value] if sub.validator == "const" else sub.validator_value
                )
                allowed.extend(option for option in options if option not in allowed)
            yield self._not_allowed(key_path, discriminators[0].instance, allowed)
            return
        types: list[Any] = [
            sub.validator_value
            for errors in branches.values()
            for sub in errors
            if sub.validator == "type" and not sub.relative_path
        ]
        if len(types) == len(branches):
            expected: list[str] = []
            for value in types:
                for name in [value] if isinstance(value, str) else value:
                    if name not in expected:
                        expected.append(name)
            message = (
                f"{_where(path)} must be {_type_phrase(expected)}, not {_kind_of(error.instance)}"
            )
            yield Diagnostic(WRONG_TYPE, message, self.at_value(path))
            return
        message = f"{_where(path)} matches none of the allowed forms"
        hints = sorted({sub.message for errors in branches.values() for sub in errors})
        yield Diagnostic(OTHER, message, self.at_value(path), hint="; ".join(hints[:4]) or None)


def _rules_out_branch(error: ValidationError) -> bool:
    if error.validator == "type" and not error.relative_path:
        return True
    return error.validator in ("const", "enum") and len(error.relative_path) <= 1


def _is_additional(key: str, declared: Sequence[str], patterns: Sequence[str]) -> bool:
    if key in declared:
        return False
    return not any(re.search(pattern, key) for pattern in patterns)


def _allowed_hint(allowed: Sequence[str]) -> str | None:
    if not allowed:
        return None
    shown = ", ".join(allowed[:12]) + (", ..." if len(allowed) > 12 else "")
    return f"allowed keys: {shown}"


def _resolve_local_ref(ref: str, root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, Mapping) else None


def _declared_properties(
    schema: Mapping[str, Any], root: Mapping[str, Any], seen: set[int] | None = None
) -> set[str]:
    """Property names a schema declares, through allOf/anyOf/oneOf/if/then/else and $ref."""
    seen = set() if seen is None else seen
    if id(schema) in seen:
        return set()
    seen.add(id(schema))
    names = set((schema.get("properties") or {}).keys())
    for keyword in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(keyword) or []:
            if isinstance(sub, Mapping):
                names |= _declared_properties(sub, root, seen)
    for keyword in ("if", "then", "else"):
        sub = schema.get(keyword)
        if isinstance(sub, Mapping):
            names |= _declared_properties(sub, root, seen)
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = _resolve_local_ref(ref, root)
        if target is not None:
            names |= _declared_properties(target, root, seen)
    return names


def check_schema(
    data: object, schema: Mapping[str, Any], positions: PositionMap, file: str
) -> list[Diagnostic]:
    """Every schema error in ``data``, located with ``positions``, sorted by position."""
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    locator = _Locator(schema, positions, file)
    found: dict[tuple[str, Span, str], Diagnostic] = {}
    for error in validator.iter_errors(data):
        for diagnostic in locator.diagnose(error):
            found.setdefault((diagnostic.code, diagnostic.span, diagnostic.message), diagnostic)
    return sorted(found.values(), key=Diagnostic.sort_key)


# Keywords of the 2020-12 vocabularies (core, applicator, unevaluated, validation,
# meta-data, format, content) plus the legacy ones the metaschema still describes.
KNOWN_KEYWORDS = frozenset(
    {
        "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
        "$comment", "$defs", "definitions",
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
        "prefixItems", "items", "contains", "properties", "patternProperties",
        "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
        "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
        "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
        "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties",
        "required", "dependentRequired",
        "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
        "format", "contentEncoding", "contentMediaType", "contentSchema",
    }
)  # fmt: skip

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_VALUES = (
    "not", "if", "then", "else", "items", "contains", "additionalProperties",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)  # fmt: skip


def _pointer(path: Sequence[str | int]) -> str:
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in path)
    return "/" + "/".join(escaped) if path else "/"


def _walk_keywords(node: object, path: tuple[str | int, ...]) -> Iterator[tuple[str, JsonPath]]:
    """(keyword, location) for every keyword of every subschema under ``node``."""
    if not isinstance(node, Mapping):
        return
    for keyword, value in node.items():
        yield keyword, (*path, keyword)
        if keyword in _SCHEMA_MAPS and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _walk_keywords(sub, (*path, keyword, name))
        elif keyword in _SCHEMA_LISTS and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _walk_keywords(sub, (*path, keyword, index))
        elif keyword in _SCHEMA_VALUES:
            yield from _walk_keywords(value, (*path, keyword))


def check_schema_itself(
    schema: Mapping[str, Any], file: str = "manifest.schema.json"
) -> list[Diagnostic]:
    """Problems in a schema: metaschema violations, and keywords jsonschema would ignore.

    A misspelled keyword (``"requried"``) is silently ignored by jsonschema, which would
    quietly switch a check off, so every keyword must be known (or start with ``x-``).

    >>> check_schema_itself({"type": "object", "requried": ["name"]})[0].message
    'unknown schema keyword `requried` at /requried'
    """
    meta = Draft202012Validator(
        Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    problems = [
        Diagnostic(
            INVALID_SCHEMA, f"invalid schema at {_pointer(list(e.absolute_path))}: {e.message}",
            Span(file),
        )
        for e in meta.iter_errors(schema)
    ]  # fmt: skip
    for keyword, path in _walk_keywords(schema, ()):
        if keyword in KNOWN_KEYWORDS or keyword.startswith("x-"):
            continue
        suggestion = did_you_mean(keyword, KNOWN_KEYWORDS)
        hint = f"did you mean `{suggestion}`?" if suggestion else "prefix custom keys with x-"
        message = f"unknown schema keyword `{keyword}` at {_pointer(path)}"
        problems.append(Diagnostic(UNKNOWN_KEYWORD, message, Span(file), Severity.ERROR, hint))
    return problems
