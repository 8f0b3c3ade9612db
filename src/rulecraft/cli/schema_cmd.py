"""`rulecraft schema`: print the JSON Schema of ``ruleset.yaml`` manifests.

Editors use it for completion and inline checks (for instance the YAML language server's
``# yaml-language-server: $schema=...`` comment); ``--check`` verifies the schema itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from typing import Any

SCHEMA_PACKAGE = "rulecraft.language"
SCHEMA_NAME = "manifest.schema.json"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "schema",
        help="print the JSON Schema of ruleset.yaml manifests",
        description="Print the JSON Schema that ruleset.yaml manifests must follow.",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="instead of printing it, check the schema itself (unknown keywords, metaschema)",
    )
    p.set_defaults(func=run)


def read_manifest_schema() -> str | None:
    """The shipped schema's text, or None when it is not installed."""
    try:
        return resources.files(SCHEMA_PACKAGE).joinpath(SCHEMA_NAME).read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError):
        return None


def run(args: argparse.Namespace) -> int:
    text = read_manifest_schema()
    if text is None:
        print(
            f"rulecraft schema: error: {SCHEMA_NAME} is missing from {SCHEMA_PACKAGE} "
            "(broken installation?)",
            file=sys.stderr,
        )
        return 2
    if not getattr(args, "check", False):
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    from rulecraft.compile.report import render
    from rulecraft.language.schema_check import check_schema_itself

    try:
        schema = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"rulecraft schema: error: {SCHEMA_NAME} is not valid JSON: {error}", file=sys.stderr)
        return 1
    if not isinstance(schema, dict):
        print(f"rulecraft schema: error: {SCHEMA_NAME} is not a JSON object", file=sys.stderr)
        return 1
    problems = check_schema_itself(schema, SCHEMA_NAME)
    print(render(problems, "text"))
    return 1 if problems else 0
