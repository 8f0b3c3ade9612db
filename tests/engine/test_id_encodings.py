"""One module knows the id encodings (issue 11: "ids are strings told apart by prefix at 66
sites, the same test written four ways"; "What must be shown: ... no id prefix literal
outside its module (a test)").

Two parts:

* :func:`prefix_literals` scans every module of ``src/`` except ``runtime/ids.py`` with
  ``ast`` and lists each place that spells an id encoding itself.  It looks for exactly:

  1. ``x.startswith(P)`` / ``x.endswith(P)`` / ``x.removeprefix(P)`` with ``P`` (or an
     element of a tuple ``P``) one of the id prefixes :data:`PREFIXES`;
  2. a comparison (``==``, ``!=``, ``in``, ``not in``) of anything with one of
     :data:`PREFIXES` or a tuple/list/set holding one (``key[:2] == "z:"``,
     ``head in ("s:", "d:")``);
  3. ``P + x``: an id built by concatenating a prefix;
  4. an f-string whose first literal part starts with a prefix (``f"z:{name}@{seat}"``,
     ``f"@{seat}"``, ``f"act:{name}"``, ``f"opt{i + 1}"``), or whose literal part between
     two values is exactly a separator (``f"{definition}#{copy}"``);
  5. ``"#" in x`` / ``"@" in x`` (the component and owner separators tested by hand) and
     ``x.split``/``rsplit``/``partition``/``rpartition`` on ``"#"`` or ``"@"``;
  6. any other string constant, outside a docstring, that starts with a multi-character
     prefix (``"act:place"``, ``"z:hand"``, ``"plan:reset"``): a spelt-out id.

  ``language/`` is not scanned: it reads and writes the text of ``.rcl`` files, where
  ``@de`` marks a translation and ``#`` a comment, and it sits below the runtime.

  ``"#"`` alone as a prefix is not an id prefix (it starts a comment in the language: the
  LSP and the formatter test it), and ``"@"`` and ``"#"`` inside other text are not
  tested, nor are docstrings (their examples show ids as a reader sees them).
* round trips of the codec :mod:`rulecraft.runtime.ids` (hypothesis), and its doctests.
"""

from __future__ import annotations

import ast
import doctest
import itertools
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulecraft.runtime import ids

SRC = Path(__file__).resolve().parents[2] / "src" / "rulecraft"
IDS_MODULE = SRC / "runtime" / "ids.py"

#: Every prefix an id starts with (players, zones, spaces, definitions, action and
#: ability options, plan options, numbered choices).
PREFIXES = frozenset({ids.PLAYER, ids.ZONE, ids.SPACE, ids.DEFINITION, ids.ACTION, ids.ABILITY})
#: How option ids spelt whole (``plan:reset``) start, and the text before a numbered
#: choice's number (``opt1``: an f-string's literal part exactly ``opt``).
PLAN_START = "plan:"
CHOICE_START = "opt"
#: The separators inside ids: a component's copy number, a zone's owner.
SEPARATORS = frozenset({ids.COPY, ids.OWNER})
_SPLITTERS = frozenset({"split", "rsplit", "partition", "rpartition"})
_PREFIX_TESTS = frozenset({"startswith", "endswith", "removeprefix"})


def _strings(node: ast.expr) -> list[str]:
    """The string constants of ``node``: itself, or the elements of a tuple/list/set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
    return []


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of the module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _starts_with_id_prefix(text: str) -> bool:
    return text == CHOICE_START or any(text.startswith(p) for p in (*PREFIXES, PLAN_START))


def _fstring_problem(node: ast.JoinedStr) -> str | None:
    parts = node.values
    first = parts[0] if parts else None
    if (
        isinstance(first, ast.Constant)
        and isinstance(first.value, str)
        and len(parts) > 1
        and _starts_with_id_prefix(first.value)
    ):
        return f"an f-string builds an id from {first.value!r}"
    for i in range(1, len(parts) - 1):
        part = parts[i]
        if (
            isinstance(part, ast.Constant)
            and part.value in SEPARATORS
            and isinstance(parts[i - 1], ast.FormattedValue)
            and isinstance(parts[i + 1], ast.FormattedValue)
        ):
            return f"an f-string joins an id with {part.value!r}"
    return None


def _node_problem(node: ast.AST) -> str | None:
    """What ``node`` spells of an id encoding, if anything (rules 1-5 of the docstring)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        method = node.func.attr
        args = _strings(node.args[0])
        if method in _PREFIX_TESTS and PREFIXES.intersection(args):
            return f".{method}({sorted(PREFIXES.intersection(args))})"
        if method in _SPLITTERS and SEPARATORS.intersection(args):
            return f".{method}({args[0]!r})"
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for operand in operands:
            hit = PREFIXES.intersection(_strings(operand))
            if hit:
                return f"a comparison with {sorted(hit)}"
        if (
            isinstance(node.left, ast.Constant)
            and node.left.value in SEPARATORS
            and isinstance(node.ops[0], ast.In | ast.NotIn)
        ):
            return f"{node.left.value!r} in ..."
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add)
        and isinstance(node.left, ast.Constant)
        and node.left.value in PREFIXES
    ):
        return f"{node.left.value!r} + ..."
    if isinstance(node, ast.JoinedStr):
        return _fstring_problem(node)
    return None


def prefix_literals(path: Path, root: Path = SRC.parent) -> list[str]:
    """Every place of the module at ``path`` that spells an id encoding (``file:line: what``,
    the file named from ``root``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = _docstrings(tree)
    in_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    name = path.relative_to(root)
    found = []
    for node in ast.walk(tree):
        problem = _node_problem(node)
        if (
            problem is None
            and isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and id(node) not in in_fstrings
            and len(node.value) > 2
            and any(node.value.startswith(p) for p in (*PREFIXES, PLAN_START) if len(p) > 1)
        ):
            problem = f"the id {node.value!r} spelt out"
        if problem is not None:
            found.append(f"{name}:{getattr(node, 'lineno', 0)}: {problem}")
    return found


def test_no_id_prefix_literal_outside_the_ids_module() -> None:
    # language/ is left out: it reads and writes .rcl text, where '@de' marks a translation
    # and '#' a comment, never an id, and it sits below the runtime (it cannot import ids).
    language = SRC / "language"
    modules = sorted(p for p in SRC.rglob("*.py") if p != IDS_MODULE and language not in p.parents)
    assert len(modules) > 50  # the scan reads the whole package
    found = [problem for path in modules for problem in prefix_literals(path)]
    assert not found, "\n".join(found)


# ---------------------------------------------------------------------------- the codec
names = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
seats = st.integers(min_value=0, max_value=99)


def test_the_ids_module_examples_run() -> None:
    """Every example of ids.py's docstrings, read from its source and run against the
    module imported (compiled, `make compiled`, doctest finds no docstring to run)."""
    tree = ast.parse(IDS_MODULE.read_text(encoding="utf-8"))
    runner = doctest.DocTestRunner()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef):
            text = ast.get_docstring(node)
            name = getattr(node, "name", "ids")
            if text:
                parser = doctest.DocTestParser()
                runner.run(parser.get_doctest(text, dict(vars(ids)), name, str(IDS_MODULE), 0))
    assert runner.tries > 20 and runner.failures == 0


@given(seats)
def test_a_player_id_gives_its_seat_back(seat: int) -> None:
    pid = ids.player_id(seat)
    assert ids.is_player(pid) and ids.seat_of(pid) == seat and ids.parse_player(pid) == seat
    assert not (ids.is_zone(pid) or ids.is_space(pid) or ids.is_def(pid) or ids.is_component(pid))


@given(names, st.none() | seats)
def test_a_zone_key_gives_its_name_and_owner_back(name: str, owner: int | None) -> None:
    key = ids.zone_key(name, owner)
    assert ids.is_zone(key) and ids.is_place(key)
    assert ids.split_zone_key(key) == (name, owner)
    assert (ids.zone_name(key), ids.zone_owner(key)) == (name, owner)
    assert not (ids.is_player(key) or ids.is_space(key) or ids.is_component(key))


@given(names)
def test_a_space_and_a_definition_give_their_names_back(name: str) -> None:
    space, definition = ids.space_id(name), ids.def_id(name)
    assert ids.is_space(space) and ids.is_place(space) and ids.space_name(space) == name
    assert ids.is_def(definition) and ids.def_name(definition) == name
    assert ids.bare_name(space) == ids.bare_name(definition) == name
    assert ids.zone_name(space) == space and ids.zone_owner(space) is None
    for value in (space, definition):
        assert not (ids.is_player(value) or ids.is_zone(value) or ids.is_component(value))


@given(names, st.integers(min_value=1, max_value=999))
def test_a_component_id_gives_its_definition_back(name: str, copy: int) -> None:
    cid = ids.component_id(name, copy)
    assert ids.is_component(cid) and ids.component_def(cid) == name
    # generated code tells a zone, space or definition by its second character alone
    assert cid[ids.NAME_MARK_AT] != ids.NAME_MARK != ids.player_id(copy)[ids.NAME_MARK_AT]
    assert all(p.index(ids.NAME_MARK) == ids.NAME_MARK_AT == len(p) - 1 for p in ids.NAMED)
    assert ids.without_copy_number(ids.action_option("play", cid)) == ids.action_option(
        "play", name
    )
    assert not (ids.is_player(cid) or ids.is_zone(cid) or ids.is_space(cid) or ids.is_def(cid))


@given(names, st.none() | names, names, st.integers(min_value=1, max_value=99), seats)
def test_option_ids_come_apart_as_they_were_built(
    action: str, target: str | None, definition: str, copy: int, index: int
) -> None:
    assert ids.split_option(ids.action_option(action, target)) == ("act", action, target or "")
    cid = ids.component_id(definition, copy)
    option = ids.ability_option(cid, index)
    assert ids.split_option(option) == ("ab", cid, str(index))
    assert option.startswith(ids.ability_option_prefix(cid))
    assert ids.split_option(ids.PASS) == ("", ids.PASS, "")


def test_the_engine_reads_ids_through_the_codec() -> None:
    # The engine's names call the codec's functions (functions, not aliases: compiled, an
    # alias is called through Python), never copies of their bodies.
    from rulecraft.runtime import engine as E

    pairs: list[tuple[Any, Any, list[Any]]] = [
        (E.player, ids.player_id, [0, 3, 70]),
        (E.seat_of, ids.seat_of, ["@2", 2, "@12"]),
        (E.zone_name, ids.zone_name, ["z:hand@1", "z:pile", "s:a1"]),
        (E.zone_owner, ids.zone_owner, ["z:hand@1", "z:pile", "s:a1"]),
        (E.is_comp, ids.is_component, ["spark#1", "z:hand@0", "@1", 3]),
        (E.without_copy_number, ids.without_copy_number, ["act:play:spark#1", "pass"]),
    ]
    for mine, codec, samples in pairs:
        assert [mine(x) for x in samples] == [codec(x) for x in samples]
        code = getattr(mine, "__code__", None)  # (the pure package: its code names the call)
        assert code is None or code.co_names[-1] == codec.__name__


# ---------------------------------------------------------------------------- state records
def test_the_state_records_name_what_a_game_holds() -> None:
    # runtime/state.py's TypedDicts (issue 11: 'TypedDicts for the state (still plain
    # JSON)') name exactly the keys a played game's components, decision and result hold.
    import rulecraft
    from rulecraft.runtime.state import ComponentState, GameResult, PendingDecision

    game = rulecraft.load("tictactoe").new_game(players=2, seed=1)
    pending = game.state["pending"]
    assert set(pending) == set(PendingDecision.__annotations__)
    while game.state["result"] is None:
        game.choose(game.state["pending"]["options"][0][0])
    assert set(game.state["result"]) == set(GameResult.__annotations__)
    for comp in game.state["comps"].values():
        assert ComponentState.__required_keys__ <= set(comp) <= set(ComponentState.__annotations__)
        assert ids.is_zone(comp["z"]) or ids.is_space(comp["z"])


def test_is_component_tells_apart_what_its_prefixes_say() -> None:
    """``is_component`` reads one character at a time (compiled, ``startswith`` of the
    prefixes' tuple built the tuple at every call): it answers as the prefixes do for every
    text of up to five characters drawn from the separators and the prefixes' letters."""
    not_component = (ids.ZONE, ids.SPACE, ids.PLAYER)
    letters = sorted(set("".join(not_component) + ids.COPY + ids.DEFINITION + "a"))
    for size in range(6):
        for chars in itertools.product(letters, repeat=size):
            text = "".join(chars)
            want = ids.COPY in text and not text.startswith(not_component)
            assert ids.is_component(text) is want, text
    assert not any(ids.is_component(v) for v in (None, 3, ["a#1"]))
