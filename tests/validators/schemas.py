"""A small manifest-like schema the validator tests run against (not the shipped one)."""

from __future__ import annotations

from typing import Any

TEST_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "version": {"type": "integer", "minimum": 1},
        "released": {"type": "string", "format": "date"},
        "mode": {"enum": ["solo", "coop", "versus"]},
        "players": {
            "type": "object",
            "properties": {
                "min": {"type": "integer", "minimum": 1},
                "max": {"type": "integer", "maximum": 8},
            },
            "required": ["min"],
            "additionalProperties": False,
        },
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "code": {"type": "string", "pattern": "^[a-z]+$"},
        "decks": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["kind"],
                "properties": {"kind": {"enum": ["draw", "discard"]}},
                # if/then discriminator: a "draw" deck needs a size.
                "if": {"properties": {"kind": {"const": "draw"}}},
                "then": {
                    "properties": {"size": {"type": "integer", "minimum": 1}},
                    "required": ["size"],
                },
            },
        },
        "effects": {
            "type": "array",
            "items": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"op": {"const": "gain"}, "amount": {"type": "integer"}},
                        "required": ["op", "amount"],
                    },
                    {
                        "type": "object",
                        "properties": {"op": {"const": "move"}, "to": {"type": "string"}},
                        "required": ["op", "to"],
                    },
                ]
            },
        },
    },
    "allOf": [{"$ref": "#/$defs/described"}],
    "unevaluatedProperties": False,
    "required": ["name"],
    "$defs": {"described": {"properties": {"description": {"type": "string"}}}},
}
