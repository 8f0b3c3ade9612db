"""Unit tests of ``compile/semantic.py``: the story graph, its checks (RC230-RC232), its
Mermaid and DOT export, and the missing-translation warning RC240.

Issue 17: "`tests/validators` kills none of the mutants of `compile/semantic.py` tried
(terminal verbs removed, story checks); RC240 and the story-graph export have no unit test
there."  Each case is a small variant of one story ruleset (``tests/engine/fixtures/story``)
checked by the real pipeline.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.compile.pipeline import check_ruleset
from rulecraft.compile.semantic import StoryGraph, story_graph, translation_checks
from rulecraft.diagnostics import Diagnostic, Severity

FIXTURE = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "story"

ENTRY_2 = """entry 2 "The Open Road":
    text: "The road is clear."
    do:
        gain 1 xp
        if xp >= 3:
            win
        else:
            return
"""


def story(tmp_path: Path, replace: dict[str, str] | None = None, extra: str = "") -> Path:
    """The fixture story with texts replaced (each must apply) and entries added."""
    root = tmp_path / "story"
    shutil.copytree(FIXTURE, root)
    rcl = root / "story.rcl"
    text = rcl.read_text(encoding="utf-8")
    for old, new in (replace or {}).items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    rcl.write_text(text + extra, encoding="utf-8")
    return root


def story_problems(root: Path) -> list[Diagnostic]:
    checked = check_ruleset(root)
    return [d for d in checked.diagnostics if d.code in ("RC230", "RC231", "RC232")]


def codes(root: Path) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line, d.message) for d in story_problems(root)]


def test_the_fixture_story_is_clean_and_its_graph_is_right(tmp_path: Path) -> None:
    root = story(tmp_path)
    assert story_problems(root) == []
    checked = check_ruleset(root)
    graph = story_graph(checked.compiler)
    assert graph.entries == {1: "The Rusted Gate", 2: "The Open Road", 3: "Ambush"}
    assert graph.edges == {(1, 2), (1, 3)}
    assert graph.roots == {1}
    assert graph.endings == {2}
    assert graph.reachable() == {1, 2, 3}


def test_an_unreachable_entry_is_rc230(tmp_path: Path) -> None:
    root = story(tmp_path, extra='\nentry 4 "Lost":\n    do:\n        return\n')
    [(code, line, message)] = codes(root)
    assert (code, message) == ("RC230", "entry 4 cannot be reached")
    assert line == 34
    [warning] = story_problems(root)
    assert warning.severity == Severity.WARNING


def test_an_entry_reached_only_through_another_unreachable_one_is_unreachable(
    tmp_path: Path,
) -> None:
    extra = (
        '\nentry 4 "Lost":\n    do:\n        go to 5\n'
        '\nentry 5 "Also lost":\n    do:\n        return\n'
    )
    assert [c[2] for c in codes(story(tmp_path, extra=extra))] == [
        "entry 4 cannot be reached",
        "entry 5 cannot be reached",
    ]


def test_the_manifest_story_start_is_a_root(tmp_path: Path) -> None:
    root = story(tmp_path, extra='\nentry 4 "Plot start":\n    do:\n        return\n')
    manifest = root / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "story: {start: [4]}\n", encoding="utf-8"
    )
    assert codes(root) == []
    assert story_graph(check_ruleset(root).compiler).roots == {1, 4}


@pytest.mark.parametrize(
    "ending",
    ["go to 3", "return", "win", "lose for you", "tie", "end game"],
)
def test_every_terminal_verb_ends_an_entry(tmp_path: Path, ending: str) -> None:
    body = f"        gain 1 xp\n        {ending}\n"
    root = story(tmp_path, {ENTRY_2: f'entry 2 "The Open Road":\n    do:\n{body}'})
    assert [c for c in codes(root) if c[0] == "RC231"] == []


def test_an_entry_that_does_not_end_is_a_dead_end(tmp_path: Path) -> None:
    root = story(tmp_path, {ENTRY_2: 'entry 2 "The Open Road":\n    do:\n        gain 1 xp\n'})
    problems = story_problems(root)
    assert [(d.code, d.span.line, d.severity) for d in problems][:1] == [
        ("RC231", 17, Severity.ERROR)
    ]
    assert problems[0].message == (
        "entry 2 is a dead end: it has no choice and does not go anywhere"
    )


def test_an_ending_early_in_the_block_still_ends_it(tmp_path: Path) -> None:
    body = "        win\n        gain 1 xp\n"
    root = story(tmp_path, {ENTRY_2: f'entry 2 "The Open Road":\n    do:\n{body}'})
    assert codes(root) == []


@pytest.mark.parametrize(
    ("body", "ends"),
    [
        ("if xp >= 3:\n            win\n        else:\n            return\n", True),
        ("if xp >= 3:\n            win\n", False),
        ("if xp >= 3:\n            gain 1 xp\n        else:\n            return\n", False),
        ("if xp >= 3:\n            win\n        else:\n            gain 1 xp\n", False),
        ("gain 1 xp\n        if xp >= 3:\n            gain 1 xp\n        return\n", True),
    ],
    ids=["if-else both end", "if without else", "if branch open", "else open", "then return"],
)
def test_every_branch_of_an_if_must_end(tmp_path: Path, body: str, ends: bool) -> None:
    root = story(tmp_path, {ENTRY_2: f'entry 2 "The Open Road":\n    do:\n        {body}'})
    dead = [c for c in codes(root) if c[0] == "RC231"]
    assert (dead == []) is ends, dead


def test_a_choice_that_can_end_without_going_anywhere_is_rc231(tmp_path: Path) -> None:
    root = story(tmp_path, {"suffer 1 wounds; return": "suffer 1 wounds"})
    [(code, line, message)] = codes(root)
    assert code == "RC231" and line == 31
    assert message == "choice 'Take a wound' of entry 3 can end without going anywhere"


@pytest.mark.parametrize(
    ("old", "new", "ends"),
    [
        ("fail: suffer 2 wounds; go to 3", "fail: suffer 2 wounds", False),
        ("pass: gain 1 xp; go to 2", "pass: gain 1 xp", False),
        ("fail: suffer 2 wounds; go to 3", "fail: suffer 2 wounds; return", True),
    ],
    ids=["fail open", "pass open", "both end"],
)
def test_both_outcomes_of_a_test_must_end(tmp_path: Path, old: str, new: str, ends: bool) -> None:
    dead = [c for c in codes(story(tmp_path, {old: new})) if c[0] == "RC231"]
    assert (dead == []) is ends, dead


def test_no_reachable_ending_is_rc232(tmp_path: Path) -> None:
    extra = '\nentry 4 "Hidden victory":\n    do:\n        win\n'
    root = story(tmp_path, {"            win\n": "            return\n"}, extra)
    problems = story_problems(root)
    assert [(d.code, d.severity) for d in problems] == [
        ("RC230", Severity.WARNING),
        ("RC232", Severity.ERROR),
    ]
    assert problems[1].message == "no ending of the story can be reached"
    assert problems[1].span.line == 34


def test_a_story_without_endings_is_not_rc232(tmp_path: Path) -> None:
    root = story(tmp_path, {"            win\n": "            return\n"})
    assert codes(root) == []


# ---------------------------------------------------------------------------- export
def graph() -> StoryGraph:
    return StoryGraph(
        entries={1: "Gate", 2: 'The "Road"', 3: "End"},
        edges={(1, 2), (2, 3), (1, 3)},
        roots={1},
        endings={3},
    )


def test_mermaid_export() -> None:
    assert graph().mermaid() == (
        "flowchart TD\n"
        '    e1["1: Gate"]\n'
        '    e2["2: The "Road""]\n'
        '    e3(["3: End"])\n'
        "    start((start)) --> e1\n"
        "    e1 --> e2\n"
        "    e1 --> e3\n"
        "    e2 --> e3\n"
    )


def test_dot_export() -> None:
    assert graph().dot() == (
        "digraph story {\n"
        "    rankdir=TB;\n"
        '    e1 [label="1: Gate", shape=box];\n'
        "    e2 [label=\"2: The 'Road'\", shape=box];\n"
        '    e3 [label="3: End", shape=doubleoctagon];\n'
        "    start -> e1;\n"
        "    e1 -> e2;\n"
        "    e1 -> e3;\n"
        "    e2 -> e3;\n"
        "}\n"
    )


def test_reachable_follows_edges_from_the_roots_only() -> None:
    g = StoryGraph(entries={1: "a", 2: "b", 3: "c", 4: "d"}, edges={(1, 2), (2, 1), (3, 4)})
    assert g.reachable() == set()
    g.roots = {2}
    assert g.reachable() == {1, 2}
    g.roots = {3}
    assert g.reachable() == {3, 4}


# ---------------------------------------------------------------------------- RC240
def translations(tmp_path: Path, lang: str, languages: str = "[en, de]") -> list[Diagnostic]:
    root = story(tmp_path, {'entry 3 "Ambush":': 'entry 3 "Ambush" @de "Hinterhalt":'})
    manifest = root / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8").replace(
        "languages: [en]", f"languages: {languages}"
    )
    manifest.write_text(text, encoding="utf-8")
    checked = check_ruleset(root)
    assert checked.manifest is not None
    return translation_checks(checked.units, checked.manifest, lang, "ruleset.yaml")


def test_rc240_names_every_text_without_a_translation(tmp_path: Path) -> None:
    warnings = translations(tmp_path, "de")
    assert {d.code for d in warnings} == {"RC240"}
    assert all(d.severity == Severity.WARNING for d in warnings)
    messages = [d.message for d in warnings]
    assert "'The Rusted Gate' has no de translation" in messages
    assert "'Raiders!' has no de translation" in messages
    assert "'Ambush' has no de translation" not in messages  # translated
    gate = next(d for d in warnings if d.message.startswith("'The Rusted Gate'"))
    assert (gate.span.line, gate.hint) == (8, 'add @de "..." after the text')


def test_rc240_is_silent_for_the_default_language(tmp_path: Path) -> None:
    assert translations(tmp_path, "en") == []


def test_rc240_cuts_a_long_text_to_forty_characters(tmp_path: Path) -> None:
    warnings = translations(tmp_path, "de")
    gate_text = "'A gate of welded car doors blocks the hi' has no de translation"
    assert gate_text in [d.message for d in warnings]


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">=", "in"])
def test_rc240_skips_a_text_compared_in_a_condition(tmp_path: Path, op: str) -> None:
    """`unit == "points"` compares with a value; nobody reads it, so it needs no translation."""
    root = story(tmp_path, {"if xp >= 3:": f'if "calm" {op} "storm":'})
    manifest = root / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8").replace("languages: [en]", "languages: [en, de]")
    manifest.write_text(text, encoding="utf-8")
    checked = check_ruleset(root)
    assert checked.manifest is not None
    messages = [
        d.message for d in translation_checks(checked.units, checked.manifest, "de", "ruleset.yaml")
    ]
    assert "'The Open Road' has no de translation" in messages
    assert not any("calm" in m or "storm" in m for m in messages), messages


def test_a_go_to_inside_a_side_makes_a_root(tmp_path: Path) -> None:
    """A card's side is walked too: 'Limp home' on the wounded side leads to entry 4."""
    side = (
        '    wits: 1 white\n    side wounded "Ranger (wounded)":\n'
        '        ability "Limp home":\n            go to 4\n'
    )
    root = story(
        tmp_path,
        {"    wits: 1 white\n": side},
        extra='\nentry 4 "Home":\n    do:\n        return\n',
    )
    manifest = root / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace(
        "    active_in: [party]\n", "    active_in: [party]\n    sides: [fit, wounded]\n"
    )
    manifest.write_text(text, encoding="utf-8")
    assert codes(root) == []
    assert story_graph(check_ruleset(root).compiler).roots == {1, 4}


def test_a_go_to_inside_a_while_loop_is_an_edge_of_the_story(tmp_path: Path) -> None:
    """The story walk used to list the statement kinds it descends into and missed
    ``while`` bodies, so an entry reached only from a loop read as unreachable (RC230);
    it now walks with rulecraft.language.visit, which knows every node type."""
    extra = (
        '\nentry 4 "Searching":\n    do:\n        while xp < 1:\n            go to 5\n'
        '\nentry 5 "Found":\n    do:\n        return\n'
    )
    root = story(
        tmp_path,
        {'action explore "Explore":\n    go to 1\n': 'action explore "Explore":\n    go to 4\n'},
        extra=extra,
    )
    graph = story_graph(check_ruleset(root).compiler)
    assert (4, 5) in graph.edges
    unreachable = {message for code, _, message in codes(root) if code == "RC230"}
    assert "entry 5 cannot be reached" not in unreachable
    assert "entry 1 cannot be reached" in unreachable  # the action now goes to 4
