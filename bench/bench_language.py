"""Language-layer speed: parsing, checking and validating large generated rulesets.

    .venv/bin/python bench/bench_language.py

A ruleset of 10,000 components (and one of 1,000 for the scaling check) is generated from
varied templates: plain attributes, abilities with costs and conditions, triggers with
parameters, modifiers and grants, and effects that choose.  Measured, best of a few runs:

1. Parse throughput: ``parse_source`` (Lark parse + AST records) in lines/s.
2. The language layer (parse + AST + the compiler's name/type checks and the story checks,
   i.e. ``check_ruleset`` without the manifest's YAML and schema) against a bare Lark LALR
   parse of the same text with the same grammar file and the same indenter.  Goal <= 2x.
3. Full ``check_ruleset`` time (manifest, files, compile, semantic checks) for 1k and 10k
   components, and the growth ratio 10k/1k.  Goal <= 12 (10x the components).

When a goal is missed the script profiles the language layer and prints the top functions
(also stored in the JSON).  Prints one ``SUMMARY language:`` line and writes
``bench/baseline/language.json``.
"""

from __future__ import annotations

import cProfile
import datetime
import gc
import io
import json
import os
import platform
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lark import Lark

from rulecraft.compile.compiler import Compiler
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.compile.semantic import story_checks
from rulecraft.diagnostics import Severity, Span
from rulecraft.language.parser import _RclIndenter, grammar_text, parse_source

LARGE = 10_000
SMALL = 1_000
REPEATS = 2
RATIO_GOAL = 2.0
GROWTH_GOAL = 12.0

MANIFEST = """\
rulecraft: 1
name: bench
players: {min: 2, max: 4}
files: [cards.rcl, rules.rcl]
kinds:
  unit:
    attributes: {cost: number!, power: number!, title: text}
    counters: [charge]
    active_in: [board]
  relic:
    attributes: {cost: number!, use: effect}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  board: {per: player, visibility: public}
  pile: {visibility: public}
resources:
  gold: {per: player, start: 3}
  mana: {per: player, start: 0}
components:
  - {kind: [unit, relic], zone: deck}
defaults: {draw_from: deck, draw_to: hand, discard_to: pile}
flow:
  phases:
    - name: main
      actions: [play, abilities]
      max: 1
"""

RULES = """\
define strong(card) = card.power >= 3

action play "Play a unit" for card in you.hand costs 1 gold:
    move card to you.board
    emit played(card)

effect refill(n):
    draw n
"""

# Each template is one component; {i} is its number.  Together they use every member kind.
TEMPLATES = (
    # plain attributes and a translated name
    """unit u{i} "Unit {i}" @de "Einheit {i}":
    cost: {c}
    power: {p}
    title: "A plain unit, number {i}" @de "Eine schlichte Einheit, Nummer {i}"
""",
    # an ability with a cost, a limit and a condition
    """unit u{i} "Striker {i}":
    cost: {c}
    power: {p}
    ability "Strike" @de "Schlag" costs {k} gold once per turn if count(you.hand) > 0:
        gain 1 mana
        draw 1
        if this.charge >= 2:
            deal 1 charge to this
""",
    # triggers with parameters, conditions and an optional one
    """unit u{i} "Watcher {i}":
    cost: {c}
    power: {p}
    when played(card) if card == this:
        gain {k} gold
    at turn_start(who) if who == you and count(you.board) > {k} optionally:
        refill(1)
""",
    # a modifier and a grant with a while clause
    """unit u{i} "Banner {i}":
    cost: {c}
    power: {p}
    modify power of you.board where it != this by 1 while count(you.board) >= {k}
    grant warded to you.board where strong(it)
""",
    # an effect attribute that chooses
    """relic r{i} "Relic {i}" @de "Relikt {i}":
    cost: {c}
    use:
        choose target from you.board where it.power <= {p} prompt "Pick a unit" @de "Wähle":
            move target to you.hand
            gain {k} mana
        choose:
            option "Gold":
                gain 1 gold
            option "Mana" if you.mana > 0:
                gain 1 mana
""",
)


def cards(n: int) -> str:
    parts = [f"# {n} generated components\n"]
    for i in range(n):
        parts.append(
            TEMPLATES[i % len(TEMPLATES)].format(i=i, c=i % 7, p=1 + i % 5, k=1 + i % 3) + "\n"
        )
    return "".join(parts)


def write_ruleset(folder: Path, n: int) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    text = cards(n)
    (folder / "ruleset.yaml").write_text(MANIFEST, "utf-8")
    (folder / "cards.rcl").write_text(text, "utf-8")
    (folder / "rules.rcl").write_text(RULES, "utf-8")
    return text


def best_of(repeats: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


class GcClock:
    """Time spent in the cyclic garbage collector, and full (generation 2) collections."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.full = 0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start
            self.full += info["generation"] == 2


def timed_with_gc(repeats: int, action: Callable[[], object]) -> dict[str, float]:
    """Best wall time of ``action``, with the GC time and full collections of that run."""
    best: dict[str, float] = {"seconds": float("inf")}
    for _ in range(repeats):
        clock = GcClock()
        gc.collect()
        gc.callbacks.append(clock)
        start = time.perf_counter()
        try:
            action()
        finally:
            elapsed = time.perf_counter() - start
            gc.callbacks.remove(clock)
        if elapsed < best["seconds"]:
            best = {"seconds": elapsed, "gc_seconds": clock.seconds, "gc_full": clock.full}
    return best


def without_gc(action: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        gc.disable()
        try:
            return action()
        finally:
            gc.enable()

    return run


def bare_lark() -> Lark:
    """The same grammar file and indenter, nothing else: the floor for parsing."""
    return Lark(grammar_text(), parser="lalr", postlex=_RclIndenter())


def language_layer(folder: Path) -> list[Any]:
    """Parse + AST + checks of every .rcl file: check_ruleset without YAML and schema."""
    units = []
    problems = []
    for name in ("cards.rcl", "rules.rcl"):
        unit, found = parse_source((folder / name).read_text("utf-8"), f"bench/{name}")
        units.append(unit)
        problems.extend(found)
    manifest = MANIFEST_DATA
    compiler = Compiler(manifest, units, "bench/ruleset.yaml", lambda path: _SPAN)
    compiler.compile()
    problems.extend(compiler.diags)
    problems.extend(story_checks(compiler))
    return problems


def _manifest_data() -> dict[str, Any]:
    from rulecraft.language.yaml_source import load_yaml

    data, _, problems = load_yaml(MANIFEST, "bench/ruleset.yaml")
    assert not problems and isinstance(data, dict), problems
    return data


MANIFEST_DATA = _manifest_data()
# The language layer is measured without the manifest's positions: every manifest
# location is this one span.
_SPAN = Span("bench/ruleset.yaml")


def profile_top(action: Callable[[], object], limit: int = 15) -> list[dict[str, Any]]:
    profiler = cProfile.Profile()
    profiler.enable()
    action()
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    rows = []
    for (file, line, func), (_, calls, tottime, cumtime, _) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append(
            {
                "function": f"{Path(file).name}:{line}({func})",
                "calls": calls,
                "tottime_s": round(tottime, 4),
                "cumtime_s": round(cumtime, 4),
            }
        )
    rows.sort(key=lambda r: r["tottime_s"], reverse=True)
    return rows[:limit]


def main() -> int:
    results: dict[str, Any] = {
        "name": "language",
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        },
    }
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small", Path(tmp) / "large"
        write_ruleset(small, SMALL)
        text = write_ruleset(large, LARGE)
        lines = text.count("\n")

        # Warm up: build the parsers and import everything once.
        checked = check_ruleset(large)
        errors = [d for d in checked.diagnostics if d.severity == Severity.ERROR]
        if errors or checked.program is None:
            print("\n".join(str(d) for d in errors[:10]), file=sys.stderr)
            print("the generated ruleset does not validate", file=sys.stderr)
            return 1
        warnings = len(checked.diagnostics)
        bare = bare_lark()
        bare.parse(text)

        bare_s = best_of(REPEATS, lambda: bare.parse(text))
        parse_s = best_of(REPEATS, lambda: parse_source(text, "bench/cards.rcl"))
        layer_s = best_of(REPEATS, lambda: language_layer(large))
        # The same three with the cyclic GC off, to separate the collector's share.
        nogc_bare_s = best_of(REPEATS, without_gc(lambda: bare.parse(text)))
        nogc_parse_s = best_of(REPEATS, without_gc(lambda: parse_source(text, "bench/cards.rcl")))
        nogc_layer_s = best_of(REPEATS, without_gc(lambda: language_layer(large)))
        full_large = timed_with_gc(REPEATS, lambda: check_ruleset(large))
        full_small = timed_with_gc(REPEATS + 1, lambda: check_ruleset(small))
        full_large_s, full_small_s = full_large["seconds"], full_small["seconds"]
        # The same with the cyclic GC off: how much of the growth is the collector's.
        nogc_large_s = best_of(REPEATS, without_gc(lambda: check_ruleset(large)))
        nogc_small_s = best_of(REPEATS + 1, without_gc(lambda: check_ruleset(small)))

        results["ruleset"] = {
            "components": LARGE,
            "lines": lines,
            "bytes": len(text.encode("utf-8")),
            "templates": len(TEMPLATES),
            "warnings": warnings,
        }
        results["parse"] = {
            "bare_lark_s": bare_s,
            "bare_lark_lines_per_s": lines / bare_s,
            "parse_source_s": parse_s,
            "parse_source_lines_per_s": lines / parse_s,
            "parse_ratio_vs_bare": parse_s / bare_s,
            "gc_off_bare_lark_s": nogc_bare_s,
            "gc_off_parse_source_s": nogc_parse_s,
            "gc_off_parse_ratio_vs_bare": nogc_parse_s / nogc_bare_s,
        }
        layer_ratio = layer_s / bare_s
        results["language_layer"] = {
            "what": "parse + AST + compiler checks + story checks, no YAML/schema",
            "seconds": layer_s,
            "ratio_vs_bare_lark": layer_ratio,
            "goal": RATIO_GOAL,
            "goal_met": layer_ratio <= RATIO_GOAL,
            "gc_off_seconds": nogc_layer_s,
            "gc_off_ratio_vs_bare_lark": nogc_layer_s / nogc_bare_s,
        }
        growth = full_large_s / full_small_s
        results["validate"] = {
            "small_components": SMALL,
            "small_s": full_small_s,
            "small_gc_s": full_small["gc_seconds"],
            "small_gc_full_collections": full_small["gc_full"],
            "large_components": LARGE,
            "large_s": full_large_s,
            "large_gc_s": full_large["gc_seconds"],
            "large_gc_full_collections": full_large["gc_full"],
            "growth_ratio": growth,
            "gc_off_small_s": nogc_small_s,
            "gc_off_large_s": nogc_large_s,
            "gc_off_growth_ratio": nogc_large_s / nogc_small_s,
            "goal": GROWTH_GOAL,
            "goal_met": growth <= GROWTH_GOAL,
        }
        if layer_ratio > RATIO_GOAL or growth > GROWTH_GOAL:
            top = profile_top(lambda: language_layer(large))
            results["profile_language_layer_top"] = top
            print("goal missed; where the language layer spends its time (tottime):")
            for row in top:
                print(
                    f"  {row['tottime_s']:8.3f}s {row['cumtime_s']:8.3f}s cum "
                    f"{row['calls']:>9} calls  {row['function']}"
                )

    out = Path(__file__).parent / "baseline" / "language.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(
        f"SUMMARY language: parse {lines / parse_s:,.0f} lines/s "
        f"(bare lark {lines / bare_s:,.0f}, x{parse_s / bare_s:.2f}); "
        f"language layer x{layer_ratio:.2f} bare lark (goal <= {RATIO_GOAL:g}: "
        f"{'met' if layer_ratio <= RATIO_GOAL else 'MISSED'}, "
        f"x{nogc_layer_s / nogc_bare_s:.2f} with GC off); "
        f"validate {SMALL:,} comps {full_small_s:.2f}s, {LARGE:,} comps {full_large_s:.2f}s, "
        f"growth x{growth:.1f} (goal <= {GROWTH_GOAL:g}: "
        f"{'met' if growth <= GROWTH_GOAL else 'MISSED'}; "
        f"GC {full_large['gc_seconds']:.1f}s of the 10k run, growth with GC off "
        f"x{nogc_large_s / nogc_small_s:.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
