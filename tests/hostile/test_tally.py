"""The counter behind issue 17's closing numbers (:mod:`tests.hostile.tally`) counts what it
claims: "the number of hostile inputs tried, clean located errors, tracebacks, hangs and
silent acceptances (the last three must be 0)".  Each outcome is produced on purpose here,
so a counter that always says "located" fails."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from tests.hostile import tally
from tests.hostile.tally import HANG, LOCATED, OTHER, SILENT, TRACEBACK, Tally

from rulecraft.diagnostics import Span
from rulecraft.runtime import engine
from rulecraft.runtime.engine import RuleError

EXPECTED = ("RC224", "rules.rcl", 2, 5)


def report(*diagnostics: tuple[str, str, int, int]) -> str:
    rows = [
        {"code": c, "file": f"r/{f}", "line": line, "column": col, "severity": "error"}
        for c, f, line, col in diagnostics
    ]
    return json.dumps({"diagnostics": rows}) + "\x00"


@pytest.mark.parametrize(
    ("code", "printed", "outcome"),
    [
        (1, report(EXPECTED), LOCATED),
        (1, report(("RC201", "rules.rcl", 6, 5), EXPECTED), LOCATED),
        (1, report(("RC224", "rules.rcl", 3, 5)), OTHER),  # the right code, the wrong line
        (0, report(), SILENT),
        (1, report(("RC999", "rules.rcl", 1, 1), EXPECTED), TRACEBACK),
        (2, report(), TRACEBACK),
        (1, report(EXPECTED) + "Traceback (most recent call last):", TRACEBACK),
    ],
    ids=["located", "among others", "elsewhere", "clean", "RC999", "exit 2", "traceback"],
)
def test_validation_outcomes(code: int, printed: str, outcome: str) -> None:
    assert tally.validation_outcome(code, printed, EXPECTED) == outcome


def test_rule_error_outcomes() -> None:
    span = Span("/tmp/r/rules.rcl", 6, 5)
    place = ("rules.rcl", 6, 5)
    assert tally.rule_error_outcome(RuleError("x", "RC303", span), "RC303", place) == LOCATED
    assert tally.rule_error_outcome(RuleError("x", "RC300", span), "RC303", place) == OTHER
    assert tally.rule_error_outcome(RuleError("board full", "RC301"), "RC301", place) == OTHER
    assert tally.rule_error_outcome(KeyError("x"), "RC303", place) == TRACEBACK
    assert tally.rule_error_outcome(None, "RC303", place) == SILENT


def test_refusal_repl_and_probe_outcomes() -> None:
    assert tally.refusal_outcome(ValueError("unknown card 'x#1'"), "unknown card") == LOCATED
    assert tally.refusal_outcome(ValueError("bad"), "unknown card") == OTHER
    assert tally.refusal_outcome(IndexError("list index"), "unknown card") == TRACEBACK
    assert tally.refusal_outcome(None, "unknown card") == SILENT
    assert tally.repl_outcome(True, True, True, "9" * 5000) == LOCATED
    assert tally.repl_outcome(True, True, False, "   ") == LOCATED  # blank: nothing to say
    assert tally.repl_outcome(True, True, False, "x") == SILENT
    assert tally.repl_outcome(True, False, True, "x") == OTHER
    assert tally.repl_outcome(False, True, True, "x") == TRACEBACK
    made_up = "ValueError: '<id>' is not one of the options"
    refused = ValueError("'<id>' is not one of the options")
    assert tally.probe_outcome(made_up, refused, None) == LOCATED
    assert tally.probe_outcome(made_up, ValueError("'<id>' is in the deck"), None) == OTHER
    assert tally.probe_outcome(made_up, None, None) == SILENT
    assert tally.probe_outcome(made_up, refused, "Phoenix: a card") == SILENT
    assert tally.probe_outcome(made_up, KeyError("x"), None) == TRACEBACK


def test_a_tally_counts_exceptions_and_hangs() -> None:
    counted = Tally("t")

    def crash() -> str:
        raise KeyError("owner")

    def hang() -> str:
        time.sleep(5)
        return LOCATED

    assert counted.add("ok", lambda: LOCATED) == LOCATED
    assert counted.add("crash", crash) == TRACEBACK
    assert counted.add("hang", hang, seconds=1) == HANG
    assert counted.tried == 3
    assert counted.counts == {LOCATED: 1, TRACEBACK: 1, HANG: 1, SILENT: 0, OTHER: 0}
    assert counted.notes == [
        "traceback: crash KeyError: 'owner'",
        "hang: hang no answer within 1 s",
    ]


def test_the_saves_and_runtime_corpora_count_clean(tmp_path: Path) -> None:
    for counted in (tally.tally_saves(tmp_path), tally.tally_runtime(tmp_path)):
        assert counted.tried == counted.counts[LOCATED], counted.notes
    assert tally.tally_saves(tmp_path).tried >= 50


def test_a_leaking_engine_counts_silent_acceptances(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = tally.tally_hidden(decisions=3, names=("sparks",))
    assert honest.tried > 0 and honest.tried == honest.counts[LOCATED], honest.notes
    monkeypatch.setattr(engine, "visible_to", lambda ctx, cid, seat: True)
    leaky = tally.tally_hidden(decisions=3, names=("sparks",))
    assert leaky.counts[SILENT] > 0
    assert any("channels" in note for note in leaky.notes)
