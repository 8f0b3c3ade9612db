"""Fuzz the validator with mutated copies of the real rulesets.

Every ``.rcl`` file and ``ruleset.yaml`` under ``rulesets/`` (globbed when the test runs,
so new rulesets join in) is mutated: lines deleted, duplicated or swapped, random tokens
inserted, indentation changed, the text truncated.  A copy of its ruleset with the mutated
file is validated in a temporary folder.  Validation must never raise, and every
diagnostic must be located: line >= 1, column >= 1, in a file inside the copied folder.

The number of examples is bounded instead of timed (``deadline=None``): a deadline would
be a timing assertion, and the first example pays for building the parser.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecraft.compile.pipeline import MANIFEST, validate_paths
from rulecraft.diagnostics import Diagnostic

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"

# Tokens that tend to break things: block and bracket punctuation, quotes, keywords,
# YAML anchors and flow markers, a huge number, a NUL, a BOM and a byte that is not UTF-8
# (the lone surrogate is written back as the raw byte 0xff).
TOKENS = (
    ":",
    ";",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    '"',
    "#",
    "\t",
    "    ",
    "\n",
    "\\",
    "@de",
    "if",
    "else",
    "choose",
    "go to 999",
    "include",
    "effect",
    "-",
    "- ",
    "&a ",
    "*a",
    "!!python/object ",
    "99999999999999999999999999",
    "\x00",
    "\ufeff",
    "\udcff",
)


@dataclass(frozen=True)
class Mutation:
    """One edit of a file's lines; positions are taken modulo the current size."""

    kind: str
    at: int
    other: int
    token: str


mutations = st.builds(
    Mutation,
    kind=st.sampled_from(("delete", "duplicate", "swap", "insert", "indent", "dedent", "truncate")),
    at=st.integers(min_value=0, max_value=10_000),
    other=st.integers(min_value=0, max_value=10_000),
    token=st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)),
)


def mutable_files() -> list[tuple[Path, Path]]:
    """(ruleset folder, file) for every manifest and .rcl file of every bundled ruleset."""
    out: list[tuple[Path, Path]] = []
    for manifest in sorted(RULESETS.glob(f"*/{MANIFEST}")):
        root = manifest.parent
        out.append((root, manifest))
        out.extend((root, p) for p in sorted(root.rglob("*.rcl")))
    return out


def mutate(text: str, edits: list[Mutation]) -> str:
    lines = text.splitlines(keepends=True)
    for m in edits:
        n = len(lines)
        if m.kind == "truncate":
            joined = "".join(lines)
            lines = joined[: m.at % (len(joined) + 1)].splitlines(keepends=True)
            continue
        if n == 0:
            lines = [m.token]
            continue
        i, j = m.at % n, m.other % n
        if m.kind == "delete":
            del lines[i]
        elif m.kind == "duplicate":
            lines.insert(i, lines[i])
        elif m.kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif m.kind == "insert":
            column = m.other % (len(lines[i]) + 1)
            lines[i] = lines[i][:column] + m.token + lines[i][column:]
        elif m.kind == "indent":
            lines[i] = (" " * (1 + m.other % 8) if m.other % 3 else "\t") + lines[i]
        else:  # dedent
            width = 1 + m.other % 8
            stripped = lines[i].lstrip(" ")
            lines[i] = " " * max(0, len(lines[i]) - len(stripped) - width) + stripped
    return "".join(lines)


def unlocated(diagnostic: Diagnostic, folder: Path) -> str | None:
    """Why ``diagnostic`` is not properly located in ``folder``, or None when it is."""
    span = diagnostic.span
    if span.line < 1 or span.column < 1:
        return f"line/column below 1: {diagnostic}"
    shown = Path(span.file)
    path = shown if shown.is_absolute() else folder.parent / shown
    if not path.resolve().is_relative_to(folder.resolve()):
        return f"file outside the ruleset folder: {diagnostic}"
    return None


def test_there_are_rulesets_to_fuzz() -> None:
    files = mutable_files()
    assert any(p.name == MANIFEST for _, p in files)
    assert any(p.suffix == ".rcl" for _, p in files)


def test_mutate_changes_lines_as_described() -> None:
    text = "a\nb\nc\n"
    assert mutate(text, [Mutation("delete", 1, 0, "")]) == "a\nc\n"
    assert mutate(text, [Mutation("duplicate", 0, 0, "")]) == "a\na\nb\nc\n"
    assert mutate(text, [Mutation("swap", 0, 2, "")]) == "c\nb\na\n"
    assert mutate(text, [Mutation("insert", 1, 1, ":")]) == "a\nb:\nc\n"
    assert mutate(text, [Mutation("indent", 2, 1, "")]) == "a\nb\n  c\n"
    assert mutate("    x\n", [Mutation("dedent", 0, 1, "")]) == "  x\n"
    assert mutate(text, [Mutation("truncate", 3, 0, "")]) == "a\nb"


def test_unlocated_spots_a_file_outside_the_folder(tmp_path: Path) -> None:
    from rulecraft.diagnostics import Span

    folder = tmp_path / "game"
    assert unlocated(Diagnostic("RC101", "x", Span("game/rules.rcl", 2, 3)), folder) is None
    assert unlocated(Diagnostic("RC101", "x", Span("game/../other.rcl", 2, 3)), folder)
    assert unlocated(Diagnostic("RC101", "x", Span("game/rules.rcl", 0, 3)), folder)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), edits=st.lists(mutations, min_size=1, max_size=4))
def test_mutated_rulesets_never_crash_the_validator(
    data: st.DataObject, edits: list[Mutation]
) -> None:
    root, original = data.draw(st.sampled_from(mutable_files()), label="file")
    text = original.read_text("utf-8")
    mutated = mutate(text, edits)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / root.name
        shutil.copytree(root, folder)
        target = folder / original.relative_to(root)
        target.write_bytes(mutated.encode("utf-8", "surrogateescape"))
        diagnostics = validate_paths([folder])
        problems = [p for d in diagnostics if (p := unlocated(d, folder))]
        assert not problems, problems
