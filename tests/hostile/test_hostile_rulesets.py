"""Run the hostile-input corpus for rulesets (:mod:`tests.hostile.corpus_rulesets`).

Each case must end in a clean, located answer: ``rulecraft validate`` exits 1 with the
expected code at the expected file, line and column (never RC999 or exit 2, no traceback),
or, for a runtime case, a ``RuleError`` with the expected code at the expected place of
``rules.rcl``.  A hang is a failure too: every case runs under a time limit.
"""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.corpus_rulesets import CASES, Case

import rulecraft
from rulecraft.cli.main import main
from rulecraft.runtime.engine import RuleError

TIME_LIMIT_S = 60


class Hang(Exception):
    """The case ran longer than the time limit."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def build(case: Case, folder: Path) -> Path:
    root = folder / case.name
    root.mkdir(parents=True)
    for name, content in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", errors="surrogatepass")
    for name, target in case.symlinks.items():
        os.symlink(target, root / name)
    return root


def validate(
    root: Path, args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    with time_limit(TIME_LIMIT_S):
        code = main(["validate", "--format", "json", *args, str(root)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_corpus_is_large_and_covers_every_area() -> None:
    areas = Counter(case.area for case in CASES)
    assert sum(areas.values()) >= 150, areas
    assert areas["yaml"] >= 40 and areas["rcl"] >= 40, areas
    assert areas["include"] >= 15 and areas["runtime"] >= 25, areas
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", [c for c in CASES if not c.runtime], ids=lambda c: c.name)
def test_hostile_input_gets_a_located_diagnostic(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = build(case, tmp_path)
    code, out, err = validate(root, case.args, capsys)
    assert "Traceback" not in out + err
    assert code == 1, (code, out[-2000:], err[-2000:])
    diagnostics = json.loads(out)["diagnostics"]
    assert not [d for d in diagnostics if d["code"] == "RC999"], diagnostics
    assert all(d["line"] >= 1 and d["column"] >= 1 for d in diagnostics)
    found = [(d["code"], Path(d["file"]).name, d["line"], d["column"]) for d in diagnostics]
    expected = (case.code, Path(case.file).name, case.line, case.column)
    assert expected in found, found
    where = [d["file"] for d in diagnostics if d["code"] == case.code]
    assert any(Path(f).parts[-len(Path(case.file).parts) :] == Path(case.file).parts for f in where)


@pytest.mark.parametrize("case", [c for c in CASES if c.runtime], ids=lambda c: c.name)
def test_hostile_rules_fail_with_a_located_rule_error(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = build(case, tmp_path)
    code, out, _ = validate(root, (), capsys)
    assert code == 0, out  # the ruleset itself is valid: the failure is the game's
    game = rulecraft.load(str(root)).new_game(seed=1)
    with pytest.raises(RuleError) as info, time_limit(TIME_LIMIT_S):
        game.choose("act:play")
    err = info.value
    assert err.code == case.code, str(err)
    assert err.span is not None, str(err)
    assert (Path(err.span.file).name, err.span.line, err.span.column) == (
        case.file,
        case.line,
        case.column,
    ), str(err)
    assert str(err).startswith(f"{err.span}: ")
