"""Manifest validation speed: YAML loading with positions, schema checking, limits, reports.

    .venv/bin/python bench/bench_validate.py

1. ``load_yaml`` on a generated ~3,000-line manifest against a bare ruamel round-trip load
   of the same text (the cost of the depth pre-scan and the conversion with positions).
2. ``check_schema`` on the loaded data, clean and with one error in every item.
3. How fast hostile inputs are refused: an alias bomb (10**10 nodes if expanded) and
   5,000 levels of nesting (which make ruamel itself overflow the stack, slowly).
4. Rendering 1,000 diagnostics in each output format.
5. ``check_ruleset`` on whole rulesets of 10,000 and 100,000 components (and 350,000 with
   ``--components 10000,100000,350000``), N cards in a ``.rcl`` file placed one by one in
   the manifest (issue 17: 350,000 took 187 s and 1.7 GB; from about 50,000 on the manifest
   holds more than 200,000 YAML values and is refused, RC007, once loaded) or by their kind
   (the whole pipeline runs; above 100,000 components the ruleset is refused, RC224, after
   the same work). Each size runs in its own process; CPU seconds are the figure to compare
   (the machine is shared), with wall time and peak memory beside them. The target: CPU time
   per component at the largest size within 1.5x of the smallest (linear).

Prints one ``SUMMARY validate:`` line and writes ``bench/baseline/validate.json``.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from rulecraft.compile.report import NoSources, OutputFormat, render
from rulecraft.diagnostics import Diagnostic, Span
from rulecraft.language.schema_check import check_schema
from rulecraft.language.yaml_source import load_yaml

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


SCALING_SIZES = (10_000, 100_000)

_MEASURE = """
import json, resource, sys, time
from pathlib import Path
from rulecraft.compile.pipeline import check_ruleset
cpu, wall = time.process_time(), time.perf_counter()
found = check_ruleset(Path(sys.argv[1])).diagnostics
print(json.dumps({
    "cpu_s": time.process_time() - cpu,
    "wall_s": time.perf_counter() - wall,
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "codes": sorted({d.code for d in found}),
}))
"""


def write_big_ruleset(folder: Path, components: int, shape: str) -> None:
    """N cards in ``rules.rcl``, each placed by its own ``components:`` item (``manifest``:
    the issue's shape, refused by the YAML size bound from about 50,000 on) or all placed by
    their kind (``rcl``: validated in full)."""
    cards = "".join(f'card c{i} "Card {i}":\n    cost: {i % 5}\n\n' for i in range(components))
    (folder / "rules.rcl").write_text(cards + 'action play "Play":\n    gain 1 gold\n', "utf-8")
    if shape == "manifest":
        placements = "".join(f"  - {{ids: [c{i}], zone: deck}}\n" for i in range(components))
    else:
        placements = "  - {kind: card, zone: deck}\n"
    manifest = (
        "rulecraft: 1\nname: big\nplayers: {min: 2, max: 2}\nfiles: [rules.rcl]\n"
        "kinds:\n  card:\n    attributes: {cost: number}\n"
        "zones:\n  deck: {visibility: hidden, order: ordered}\n"
        "resources:\n  gold: {per: player, start: 3}\n"
        f"components:\n{placements}"
        "flow:\n  phases:\n    - name: main\n      actions: [play]\n      max: 1\n"
    )
    (folder / "ruleset.yaml").write_text(manifest, "utf-8")


def bench_scaling(sizes: tuple[int, ...], shape: str) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            write_big_ruleset(Path(tmp), size, shape)
            out = subprocess.run(
                [sys.executable, "-c", _MEASURE, tmp],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        row = json.loads(out)
        row["cpu_s_per_10k"] = row["cpu_s"] / size * 10_000
        rows[str(size)] = row
    first, last = rows[str(sizes[0])], rows[str(sizes[-1])]
    return {
        "sizes": rows,
        "growth_per_component": last["cpu_s_per_10k"] / first["cpu_s_per_10k"],
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
        "scaling": {
            shape: bench_scaling(_sizes(sys.argv[1:]), shape) for shape in ("manifest", "rcl")
        },
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
        and all(row["growth_per_component"] <= 1.5 for row in results["scaling"].values())
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
        + "".join(
            f"{shape} {int(n):,} components {row['cpu_s']:.1f} s CPU ({row['wall_s']:.1f} s "
            f"wall, {row['peak_mb']:.0f} MB, {','.join(row['codes']) or 'clean'}); "
            for shape, scaling in results["scaling"].items()
            for n, row in scaling["sizes"].items()
        )
        + f"targets {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


def _sizes(argv: list[str]) -> tuple[int, ...]:
    """``--components 10000,100000,350000`` chooses the sizes of the scaling run."""
    if "--components" in argv:
        return tuple(int(n) for n in argv[argv.index("--components") + 1].split(","))
    return SCALING_SIZES


if __name__ == "__main__":
    sys.exit(main())
