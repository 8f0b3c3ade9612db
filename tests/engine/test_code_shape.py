"""The shape of the engine's code (issue 11, "What must be shown": "No function over 80 lines
in `src/` (a test)").

A function's length counts from its ``def`` line to the last line of its body, both
included; its decorators are not counted (``ast.FunctionDef.lineno`` is the ``def`` line).
Nested functions and methods are functions too: each is measured on its own, and an outer
function's length includes the functions nested in it.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

#: The longest a function may be, in lines.
MAX_LINES = 80


def function_lengths(root: Path) -> list[tuple[str, int, str, int]]:
    """Every function and method under ``root``: (path, line of its def, name, length)."""
    found: list[tuple[str, int, str, int]] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                found.append((path.relative_to(root).as_posix(), node.lineno, node.name, length))
    return sorted(found)


def test_no_function_in_src_is_over_80_lines() -> None:
    offenders = [
        f"{path}:{line} {name} {length}"
        for path, line, name, length in function_lengths(SRC)
        if length > MAX_LINES
    ]
    assert offenders == [], f"functions over {MAX_LINES} lines (split them):\n" + "\n".join(
        offenders
    )


def test_a_function_one_line_too_long_is_found(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES - 1))
    (tmp_path / "long.py").write_text(f"def long() -> None:\n{body}    pass\n", encoding="utf-8")
    assert function_lengths(tmp_path) == [("long.py", 1, "long", MAX_LINES + 1)]


def test_lengths_count_from_def_to_the_last_line_without_decorators(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import functools\n"
        "\n"
        "@functools.cache\n"
        "def f() -> int:\n"
        "    def g() -> int:\n"
        "        return 1\n"
        "\n"
        "    return g()\n"
        "\n"
        "class C:\n"
        "    def method(self) -> None:\n"
        "        pass\n",
        encoding="utf-8",
    )
    assert function_lengths(tmp_path) == [
        ("m.py", 4, "f", 5),
        ("m.py", 5, "g", 2),
        ("m.py", 11, "method", 2),
    ]


def test_every_node_type_has_the_function_that_compiles_it() -> None:
    """The compiler finds the function for a node through a registry by the node's type
    (issue 11: 'a statement compiler with one function per statement type found through a
    registry'): a node type added to the syntax tree without its function is found here,
    not by a ruleset whose member or item is silently skipped."""
    from rulecraft.compile.components import MEMBERS
    from rulecraft.compile.control import CONTROL
    from rulecraft.compile.declarations import COLLECTORS
    from rulecraft.compile.expressions import EXPRESSIONS
    from rulecraft.language import ast as syntax

    def node_types(base: type) -> set[type]:
        return {
            t
            for t in vars(syntax).values()
            if isinstance(t, type) and issubclass(t, base) and t is not base
        }

    assert node_types(syntax.Expr) == set(EXPRESSIONS)
    # every simple statement its own node type, none a catch-all (issue 11: "typed statement
    # nodes instead of one catch-all node"); SimpleStmt is only their common base
    assert node_types(syntax.Stmt) - {syntax.SimpleStmt} == set(CONTROL)
    assert set(syntax.SIMPLE_STATEMENTS) == node_types(syntax.SimpleStmt)
    assert len({t.verb for t in syntax.SIMPLE_STATEMENTS}) == len(syntax.SIMPLE_STATEMENTS)
    assert node_types(syntax.Member) == set(MEMBERS)
    # an include is resolved by the pipeline (its file's items join the units)
    assert node_types(syntax.Item) - {syntax.Include} == set(COLLECTORS)
