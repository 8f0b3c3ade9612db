"""Validator findings of issue 17, each with its regression test.

Issue 17: "`copies: 2000000000` (in `.rcl` or in the manifest's `components:`) validates clean
and `new_game` then eats all memory"; "A 5,000-digit integer in `.rcl` is RC999"; "a YAML
`!!python/object/apply:...` tag is RC999"; "`players: {min: 5, max: 2}` validates; a lone
surrogate (`"\\ud800"`) in a title validates"; "A `.rcl` file with CR-only line endings reads
as one comment line"; "Recursive `define`s (`define a = b`, `define b = a`;
`define f(n) = f(n+1)`) validate clean".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.build import BASE_MANIFEST, BASE_RULES, BODY_LINE, write_ruleset

import rulecraft
from rulecraft.compile.limits import MAX_COMPONENTS, MAX_COPIES
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.diagnostics import Diagnostic, Severity


def errors(folder: Path) -> list[Diagnostic]:
    return [d for d in check_ruleset(folder).diagnostics if d.severity == Severity.ERROR]


def located(folder: Path) -> list[tuple[str, str, int, int]]:
    return [(d.code, Path(d.span.file).name, d.span.line, d.span.column) for d in errors(folder)]


def test_the_base_ruleset_is_clean(tmp_path: Path) -> None:
    """Control: every finding below breaks this valid ruleset in one place."""
    assert check_ruleset(write_ruleset(tmp_path / "r")).diagnostics == []


def test_huge_copies_in_rcl(tmp_path: Path) -> None:
    rules = BASE_RULES.replace("copies: 3", "copies: 2000000000") + "    gain 1 gold\n"
    assert located(write_ruleset(tmp_path / "r", rules=rules)) == [("RC224", "rules.rcl", 2, 5)]


def test_huge_copies_in_the_manifest(tmp_path: Path) -> None:
    manifest = BASE_MANIFEST.replace(
        "- {kind: card, zone: deck}", "- {kind: card, zone: deck, copies: 2000000000}"
    )
    assert located(write_ruleset(tmp_path / "r", manifest=manifest)) == [
        ("RC224", "ruleset.yaml", 17, 38)
    ]


def test_copies_at_the_bound_are_fine(tmp_path: Path) -> None:
    rules = BASE_RULES.replace("copies: 3", f"copies: {MAX_COPIES}") + "    gain 1 gold\n"
    assert errors(write_ruleset(tmp_path / "r", rules=rules)) == []


def test_the_total_number_of_components_is_bounded(tmp_path: Path) -> None:
    """Many definitions, each within the per-component bound, add up beyond the total."""
    per = MAX_COPIES
    count = MAX_COMPONENTS // (per * 2) + 1  # two seats: a per-player deck doubles them
    cards = "".join(f'card c{i} "C{i}":\n    copies: {per}\n    cost: 1\n\n' for i in range(count))
    rules = cards + BASE_RULES.split("\n\n", 1)[1] + "    gain 1 gold\n"
    found = errors(write_ruleset(tmp_path / "r", rules=rules))
    assert [(d.code, d.span.line) for d in found] == [("RC224", 17)], found
    assert f"{MAX_COMPONENTS:,}" in found[0].message


def test_a_5000_digit_number_is_a_located_error(tmp_path: Path) -> None:
    folder = write_ruleset(tmp_path / "r", body="gain " + "9" * 5000 + " gold")
    # The broken action is dropped, so the phase's 'play' is unknown too (RC201).
    assert ("RC205", "rules.rcl", BODY_LINE, 10) in located(folder)


def test_a_5000_digit_entry_number_is_a_located_error(tmp_path: Path) -> None:
    rules = BASE_RULES + "    gain 1 gold\n\nentry " + "1" * 5000 + ' "E":\n    text: "x"\n'
    assert located(write_ruleset(tmp_path / "r", rules=rules))[0][:3] == (
        "RC205",
        "rules.rcl",
        BODY_LINE + 2,
    )


@pytest.mark.parametrize(
    "value",
    [
        "!!python/object/apply:os.system [echo hi]",
        "!!python/object:builtins.dict {a: 1}",
        "!!python/name:os.system",
        "!thing [1]",
    ],
)
def test_a_python_tag_is_a_located_error(tmp_path: Path, value: str) -> None:
    manifest = BASE_MANIFEST.replace("name: hostile", f"name: {value}")
    assert located(write_ruleset(tmp_path / "r", manifest=manifest)) == [
        ("RC020", "ruleset.yaml", 2, 7)
    ]


def test_players_min_above_max_is_an_error(tmp_path: Path) -> None:
    manifest = BASE_MANIFEST.replace("{min: 2, max: 2}", "{min: 5, max: 2}")
    assert located(write_ruleset(tmp_path / "r", manifest=manifest)) == [
        ("RC014", "ruleset.yaml", 4, 16)
    ]


def test_a_lone_surrogate_in_a_title_is_an_error(tmp_path: Path) -> None:
    manifest = BASE_MANIFEST.replace('title: "Hostile"', 'title: "Host\\ud800ile"')
    assert located(write_ruleset(tmp_path / "r", manifest=manifest)) == [
        ("RC004", "ruleset.yaml", 3, 8)
    ]


@pytest.mark.parametrize("ending", [b"\r", b"\r\n"])
def test_cr_line_endings_read_like_lf(tmp_path: Path, ending: bytes) -> None:
    text = (BASE_RULES + "    # a comment\n    gain 1 gold\n").encode()
    folder = write_ruleset(tmp_path / "r", rules=text.replace(b"\n", ending))
    assert check_ruleset(folder).diagnostics == []
    game = rulecraft.load(str(folder)).new_game(seed=1)
    game.choose("act:play")
    assert game.state["res"][0]["gold"] == 4


def test_cr_line_endings_keep_lines_and_columns(tmp_path: Path) -> None:
    text = (BASE_RULES + "    gain 1 glod\n").encode().replace(b"\n", b"\r")
    assert located(write_ruleset(tmp_path / "r", rules=text)) == [
        ("RC201", "rules.rcl", BODY_LINE, 12)
    ]


@pytest.mark.parametrize(
    ("defines", "line"),
    [
        ("define a = b\ndefine b = a\n", 1),
        ("define f(n) = f(n + 1)\n", 1),
        ("define x = 1\ndefine a = count([b, x])\ndefine b = a + 1\n", 2),
        ("define a = first(b where it > 0)\ndefine b = [a]\n", 1),
    ],
)
def test_certain_recursion_in_defines_is_found(tmp_path: Path, defines: str, line: int) -> None:
    rules = defines + "\n" + BASE_RULES + "    say a\n" if "define a" in defines else None
    if rules is None:
        rules = defines + "\n" + BASE_RULES + "    say f(1)\n"
    found = located(write_ruleset(tmp_path / "r", rules=rules))
    assert [f for f in found if f[0] == "RC225"] == [("RC225", "rules.rcl", line, 1)], found


@pytest.mark.parametrize(
    "defines",
    [
        "define f(n) = n > 0 and f(n - 1)\n",
        "define f(n) = n <= 0 or f(n - 1)\n",
        "define f(n) = count([1] where f(it))\n",
    ],
)
def test_recursion_behind_a_condition_is_left_to_the_runtime(tmp_path: Path, defines: str) -> None:
    rules = defines + "\n" + BASE_RULES + "    say f(1)\n"
    assert not [d for d in errors(write_ruleset(tmp_path / "r", rules=rules))]


def test_new_codes_are_described_and_documented() -> None:
    """Every RC code the limits and the runtime raise is in the registry and docs/errors.md."""
    import re

    from rulecraft.compile import limits
    from rulecraft.compile.report import CODE_DESCRIPTIONS
    from rulecraft.runtime import engine

    codes = {
        value
        for module in (engine, limits)
        for value in vars(module).values()
        if isinstance(value, str) and re.fullmatch(r"RC\d{3}", value)
    }
    assert {"RC224", "RC225", "RC300", "RC301", "RC302", "RC303", "RC304", "RC305"} <= codes
    assert codes <= set(CODE_DESCRIPTIONS)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text("utf-8")
    documented = set(re.findall(r"^\| (RC\d{3}) \|", doc, re.M))
    assert codes <= documented


def test_a_manifest_too_large_by_itself_is_not_called_an_alias_bomb() -> None:
    """The 350,000-component manifest of issue 17 crosses the YAML size bound without a
    single alias; the message said 'through aliases'."""
    from rulecraft.language.yaml_source import load_yaml

    text = "components:\n" + "".join(f"  - {{ids: [c{i}], zone: deck}}\n" for i in range(40))
    _, _, problems = load_yaml(text, "m.yaml", max_nodes=50)
    assert [(p.code, p.span.line) for p in problems] == [("RC007", 1)]
    assert "more than 50 values" in problems[0].message and "alias" not in problems[0].message
    bomb = "a: &a [x, x]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    _, _, problems = load_yaml(bomb, "m.yaml", max_nodes=20)
    assert "through aliases" in problems[0].message


RANGE_IN_A_SMALL_MEMORY = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # 2 GB: a regression fails fast
from tests.hostile.build import BASE_MANIFEST, write_ruleset
from rulecraft.compile.pipeline import check_ruleset
generate = "generate:\\n  - {kind: card, id: 'g_{n}', each: {n: {from: 1, to: 2000000000}}}\\n"
root = write_ruleset(Path(sys.argv[1]), manifest=BASE_MANIFEST.replace(
    "components:\\n", generate + "components:\\n"))
print([(d.code, d.span.line, d.span.column) for d in check_ruleset(root).diagnostics])
"""


def test_a_huge_generate_range_is_refused_before_it_is_built(tmp_path: Path) -> None:
    """`each: {n: {from: 1, to: 2000000000}}` built the whole list before counting it
    (a MemoryError, RC999, or all the machine's memory); now it is RC254 at the item, in a
    process limited to 2 GB."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-c", RANGE_IN_A_SMALL_MEMORY, str(tmp_path / "r")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "[('RC254', 17, 5)]"
