"""Manifest validation speed: YAML loading with positions, schema checking, limits, reports.

    .venv/bin/python bench/bench_validate.py

1. ``load_yaml`` on a generated ~3,000-line manifest against a bare ruamel round-trip load
   of the same text (the cost of the depth pre-scan and the conversion with positions).
2. ``check_schema`` on the loaded data, clean and with one error in every item.
3. How fast hostile inputs are refused: an alias bomb (10**10 nodes if expanded) and
   5,000 levels of nesting (which make ruamel itself overflow the stack, slowly).
4. Rendering 1,000 diagnostics in each output format.

Prints one ``SUMMARY validate:`` line and writes ``bench/baseline/validate.json``.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from ruamel.yaml import YAML

from rulecraft.diagnostics import Diagnostic, Span
from rulecraft.validators.report import NoSources, OutputFormat, render
from rulecraft.validators.schema_check import check_schema
from rulecraft.validators.yaml_source import load_yaml

ITEMS = 500
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "items"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "kind", "cost"],
                "properties": {
                    "id": {"type": "string", "pattern": "^[a-z0-9_]+$"},
                    "kind": {"enum": ["draw", "discard", "reserve"]},
                    "cost": {"type": "integer", "minimum": 0, "maximum": 10},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "text": {"type": "string"},
                },
            },
        },
    },
}


def manifest(broken: bool) -> str:
    lines = ["name: Benchmark", "items:"]
    for i in range(ITEMS):
        cost = 11 if broken else i % 10  # 11 breaks "maximum: 10"
        lines += [
            f"  - id: item_{i}",
            f"    kind: {['draw', 'discard', 'reserve'][i % 3]}",
            f"    cost: {cost}",
            f"    tags: [t{i % 7}, t{i % 5}]",
            f"    text: 'Item number {i}, with a sentence of text.'",
            "    # a comment line",
        ]
    return "\n".join(lines) + "\n"


def best_of(repeats: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def bench_loading() -> dict[str, Any]:
    text = manifest(broken=False)
    lines = text.count("\n")
    bare = best_of(3, lambda: YAML(typ="rt").load(text))
    ours = best_of(3, lambda: load_yaml(text, "bench.yaml"))
    return {
        "lines": lines,
        "ruamel_round_trip_s": bare,
        "load_yaml_s": ours,
        "load_yaml_lines_per_s": lines / ours,
        "overhead_ratio": ours / bare,
    }


def bench_schema() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for label, broken in (("clean", False), ("broken", True)):
        data, positions, problems = load_yaml(manifest(broken), "bench.yaml")
        assert not problems
        found: list[Diagnostic] = []

        def run(
            data: object = data, positions: Any = positions, found: list[Diagnostic] = found
        ) -> None:
            found[:] = check_schema(data, SCHEMA, positions, "bench.yaml")

        results[f"{label}_s"] = best_of(3, run)
        results[f"{label}_diagnostics"] = len(found)
    return results


def bench_hostile() -> dict[str, Any]:
    bomb = ["l0: &l0 [" + ", ".join(["x"] * 10) + "]"]
    bomb += [f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]" for n in range(1, 10)]
    bomb_text = "\n".join(bomb) + "\n"
    deep_text = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    codes: dict[str, list[str]] = {}

    def refuse(name: str, text: str) -> float:
        def run() -> None:
            codes[name] = [d.code for d in load_yaml(text, "hostile.yaml")[2]]

        return best_of(3, run)

    return {
        "alias_bomb_refused_s": refuse("bomb", bomb_text),
        "alias_bomb_codes": codes["bomb"],
        "nesting_5000_refused_s": refuse("deep", deep_text),
        "nesting_codes": codes["deep"],
    }


def bench_reports() -> dict[str, Any]:
    diagnostics = [
        Diagnostic(
            "RC010", f"unknown key `k{i}`, 100% odd", Span(f"r{i % 7}.yaml", i + 1, 3), hint="x"
        )
        for i in range(1000)
    ]
    return {
        f"{fmt.value}_ms": best_of(3, lambda fmt=fmt: render(diagnostics, fmt, sources=NoSources()))
        * 1000
        for fmt in OutputFormat
    }


def main() -> int:
    results: dict[str, Any] = {
        "name": "validate",
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        },
        "loading": bench_loading(),
        "schema": bench_schema(),
        "hostile": bench_hostile(),
        "reports": bench_reports(),
    }
    loading, schema, hostile, reports = (
        results["loading"],
        results["schema"],
        results["hostile"],
        results["reports"],
    )
    ok = (
        loading["overhead_ratio"] <= 1.5
        and hostile["alias_bomb_codes"] == ["RC007"]
        and hostile["alias_bomb_refused_s"] <= 0.2
        and hostile["nesting_codes"] == ["RC008"]
        and hostile["nesting_5000_refused_s"] <= 0.5
        and schema["broken_diagnostics"] == ITEMS
    )
    results["all_targets_met"] = ok
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline", "validate.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(results, indent=2) + "\n")
    print(
        f"SUMMARY validate: load_yaml {loading['load_yaml_lines_per_s']:,.0f} lines/s "
        f"({loading['overhead_ratio']:.2f}x bare ruamel round-trip); "
        f"schema {loading['lines']} lines clean {schema['clean_s'] * 1000:.0f} ms, "
        f"{schema['broken_diagnostics']} errors {schema['broken_s'] * 1000:.0f} ms; "
        f"alias bomb refused in {hostile['alias_bomb_refused_s'] * 1000:.0f} ms, "
        f"5000-deep nesting in {hostile['nesting_5000_refused_s'] * 1000:.0f} ms; "
        f"1000 diagnostics: text {reports['text_ms']:.0f} ms, sarif {reports['sarif_ms']:.0f} ms; "
        f"targets {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
