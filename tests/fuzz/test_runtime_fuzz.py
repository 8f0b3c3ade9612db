"""The runtime fuzzer (issue 17): random valid rulesets played with random seeds and choices.

:func:`tests.fuzz.gen.rulesets` writes a ruleset from the grammar's pieces (cards, actions,
triggers, loops, moves, draws, arithmetic, choices, events, effects, definitions); it must
validate clean, and then a game of it is played with a random number of players, seed and
choices.  The only failure allowed is a located ``RuleError`` (an ``RC3xx`` code and the
``.rcl`` place of the rule that was running); runaway loops stop at the step limit (lowered
here so that they stop fast).

``make test`` runs ``FUZZ_EXAMPLES`` (default 200) examples; ``make fuzz`` runs 5,000 with
``FUZZ_EXAMPLES=5000`` (a nightly-style run, see docs/errors.md).
"""

from __future__ import annotations

import os
import random
import tempfile
from collections import Counter
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz.gen import rulesets

from rulecraft.compile.pipeline import check_ruleset
from rulecraft.diagnostics import Severity
from rulecraft.runtime import engine
from rulecraft.runtime.engine import RuleError
from rulecraft.runtime.game import Ruleset

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
DECISIONS = 40
STEP_LIMIT = 20_000  # the real limit is 200,000: a runaway loop here stops 10x sooner

#: What the games ended with, for the report (filled while the test runs).
OUTCOMES: Counter[str] = Counter()


def load(manifest: str, rules: str) -> Ruleset:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    (folder / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (folder / "rules.rcl").write_text(rules, encoding="utf-8")
    checked = check_ruleset(folder)
    errors = [str(d) for d in checked.diagnostics if d.severity == Severity.ERROR]
    assert not errors, (errors, rules)
    assert checked.program is not None
    return Ruleset(checked.program, checked.diagnostics)


def play(ruleset: Ruleset, players: int, seed: int) -> str:
    """Play one game with random choices; return how it ended."""
    pick = random.Random(seed)
    try:
        game = ruleset.new_game(players=players, seed=seed)
        for _ in range(DECISIONS):
            decision = game.decision
            if game.result is not None or decision is None:
                return "ended"
            game.choose(pick.choice(decision.options).id)
    except RuleError as err:
        assert err.code.startswith("RC3"), str(err)
        assert err.span is not None and err.span.file.endswith(".rcl"), str(err)
        assert err.span.line >= 1 and err.span.column >= 1, str(err)
        assert str(err).startswith(f"{err.span}: "), str(err)
        return err.code
    return "decision limit"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rulesets(), st.integers(2, 4), st.integers(0, 2**32))
def test_random_rulesets_fail_only_with_located_rule_errors(
    ruleset: tuple[str, str], players: int, seed: int
) -> None:
    manifest, rules = ruleset
    with mock.patch.object(engine, "MAX_STEPS_PER_DECISION", STEP_LIMIT):
        OUTCOMES[play(load(manifest, rules), players, seed)] += 1


def test_the_fuzzer_reaches_the_interesting_outcomes() -> None:
    """Control: the generator is not so tame that nothing fails, nor so wild that nothing
    plays (fixed seeds, 60 examples)."""
    seen: Counter[str] = Counter()

    @settings(max_examples=60, deadline=None, database=None, derandomize=True)
    @given(rulesets(), st.integers(0, 2**32))
    def run(ruleset: tuple[str, str], seed: int) -> None:
        with mock.patch.object(engine, "MAX_STEPS_PER_DECISION", STEP_LIMIT):
            seen[play(load(*ruleset), 2, seed)] += 1

    run()
    assert seen["ended"] + seen["decision limit"] >= 10, seen
    assert sum(n for code, n in seen.items() if code.startswith("RC3")) >= 3, seen
    assert len([code for code in seen if code.startswith("RC3")]) >= 2, seen


#: Found by the fuzzer on 2026-12-02 (verbatim): a runaway loop stopped at the jump of an
#: ``if true:`` was reported at ``<none>:0:0``.  The constants ``true``, ``false`` and
#: ``none`` had no place in the syntax tree, so that jump, placed at its condition, had none.
CONSTANT_CONDITION = (
    "rulecraft: 1\nname: fuzz\nplayers: {min: 2, max: 4}\nfiles: [rules.rcl]\nkinds:\n"
    "  card:\n    attributes: {cost: number}\n    counters: [damage]\nzones:\n"
    "  deck: {per: player, visibility: hidden, order: ordered}\n"
    "  hand: {per: player, visibility: owner}\n  board: {per: player, visibility: public}\n"
    "  pile: {per: player, visibility: public}\nresources:\n"
    "  gold: {per: player, start: 1, min: -5}\nflags: [marked]\ncomponents:\n"
    "  - {kind: card, zone: deck}\nflow:\n  phases:\n    - name: main\n"
    '      actions: [a6]\n      max: 1\nend:\n  - if: "you.gold >= 5"\n    winner: you\n',
    "define d1 = (you.gold + 0)\n\neffect e4(q0):\n    let v5 = count([1, 2] * you.gold)\n"
    '    move first(you.hand) to you.deck\n\ncard k0 "Card 0":\n    copies: 1\n'
    "    cost: 0\n    when ev2(n):\n        gain (you.gold + you.gold) gold\n\n"
    'card k1 "Card 1":\n    copies: 1\n    cost: 0\n    when ev2(n):\n'
    "        gain 0 gold\n        gain 0 gold\n        gain 0 gold\n        gain you.gold gold\n\n"
    'action a6 "Action a6":\n    lose (you.gold + d1) gold\n    e4(d1)\n'
    "    while d1 != (0 - 0):\n        lose count(you.hand) gold\n"
    "        discard first(you.hand) to you.pile\n        if true:\n            lose 0 gold\n"
    "        lose opponent.gold gold\n\nrule on_ev2:\n    when ev2(n):\n        gain 1 gold\n\n"
    "rule on_ev3:\n    when ev3(n):\n        gain 1 gold\n",
)


def test_a_runaway_loop_stopped_at_if_true_is_located_there() -> None:
    with mock.patch.object(engine, "MAX_STEPS_PER_DECISION", STEP_LIMIT):
        assert play(load(*CONSTANT_CONDITION), 2, 0) == "RC306"  # play checks the place


def test_the_constants_have_a_place() -> None:
    from rulecraft.language.parser import parse_expression

    for text, column in (("true", 1), ("1 == none", 6), ("not false", 5)):
        tree, problems = parse_expression(text, "x.rcl")
        assert tree is not None and not problems
        const = tree
        while not hasattr(const, "value"):
            const = getattr(const, "right", None) or getattr(const, "operand", None)
        assert (const.span.file, const.span.line, const.span.column) == ("x.rcl", 1, column)
