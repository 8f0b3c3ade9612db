"""The ``pycon`` sessions of docs/solver.md run as doctests, so the page stays true."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "solver.md"


def test_solver_page_sessions_run() -> None:
    text = DOC.read_text(encoding="utf-8")
    sessions = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert sessions, "docs/solver.md has no pycon session"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    for i, body in enumerate(sessions):
        test = parser.get_doctest(body, globs, f"solver.md session {i + 1}", str(DOC), 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)
    assert runner.failures == 0
    assert runner.tries > 0
