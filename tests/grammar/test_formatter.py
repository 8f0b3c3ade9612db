"""The canonical formatter: idempotent, AST-preserving, comment-keeping; and `rulecraft fmt`."""

from __future__ import annotations

import doctest
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulecraft.cli.main import main as cli_main
from rulecraft.language import ast, formatter
from rulecraft.language.formatter import format_source, format_unit, strip_spans
from rulecraft.language.parser import ParseFailed, parse_source, parse_text

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).parent / "fmt_cases"


def ast_of(text: str) -> object:
    return strip_spans(parse_text(text).items)


def assert_canonical(text: str) -> str:
    """Format ``text``; check the result parses to the same tree and is a fixed point."""
    once = format_source(text, "case.rcl")
    assert ast_of(once) == ast_of(text)
    assert format_source(once, "case.rcl") == once
    assert once.endswith("\n")
    assert all(line == line.rstrip() for line in once.splitlines())
    return once


# ---------------------------------------------------------------------------- corpora
def _ruleset_files() -> list[Path]:
    # Globbed at collection time: other developers add rulesets while this suite grows.
    return sorted((ROOT / "rulesets").rglob("*.rcl"))


@pytest.mark.parametrize(
    "path", _ruleset_files(), ids=lambda p: str(p.relative_to(ROOT / "rulesets"))
)
def test_every_bundled_rcl_file_formats_idempotently_to_the_same_ast(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _, problems = parse_source(text, str(path))
    if problems:
        pytest.skip(f"{path} does not parse (not the formatter's business): {problems[0]}")
    assert_canonical(text)


def test_the_corpus_is_not_empty() -> None:
    assert _ruleset_files(), "no .rcl files under rulesets/"


def test_every_simple_statement_the_parser_makes_can_be_printed() -> None:
    """A statement added to the grammar without a printer made ``rulecraft fmt`` crash on
    every file that used it (``reroll`` did): every simple statement type must print."""
    import dataclasses

    x, y = ast.Name(ast.NOWHERE, "x"), ast.Name(ast.NOWHERE, "y")
    parts: dict[str, object] = {"value": x, "target": y, "source": y, "name": "f"}
    assert ast.Reroll in ast.SIMPLE_STATEMENTS and len(ast.SIMPLE_STATEMENTS) > 20
    for kind in ast.SIMPLE_STATEMENTS:
        fields = {f.name for f in dataclasses.fields(kind)} - {"span"}
        stmt = kind(ast.NOWHERE, **{k: v for k, v in parts.items() if k in fields})
        assert formatter._simple_stmt(stmt)


def test_every_construct_is_already_canonical() -> None:
    text = (CASES / "constructs.rcl").read_text(encoding="utf-8")
    assert format_source(text, "constructs.rcl") == text


@pytest.mark.parametrize("name", ["comments", "layout"])
def test_fixture_formats_to_its_expected_output(name: str) -> None:
    source = (CASES / f"{name}.in.rcl").read_text(encoding="utf-8")
    expected = (CASES / f"{name}.out.rcl").read_text(encoding="utf-8")
    assert assert_canonical(source) == expected


def test_module_doctests_pass() -> None:
    result = doctest.testmod(formatter)
    assert result.attempted > 0 and result.failed == 0


# ---------------------------------------------------------------------------- expressions
@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a-(b-c)", "a - (b - c)"),
        ("(a-b)-c", "a - b - c"),
        ("not (a and b)", "not (a and b)"),
        ("(not a) and b", "not a and b"),
        ("((a where b).x)", "(a where b).x"),
        ("(a where b) where c", "(a where b) where c"),
        ("a * (b + c)", "a * (b + c)"),
        ("-(a + b) * 2", "-(a + b) * 2"),
        ("(a < b) == c", "(a < b) == c"),
        ("(a + b) gold", "(a + b) gold"),
        ("(2 gold).n", "(2 gold).n"),
        ("(x has f) or y", "x has f or y"),
        ("(a or b) and (c or d)", "(a or b) and (c or d)"),
        ("f( a , [1,2] )[ k ]", "f(a, [1, 2])[k]"),
        ('"x" @de "y"', '"x" @de "y"'),
    ],
)
def test_expressions_get_parentheses_only_where_needed(source: str, expected: str) -> None:
    got = format_source(f"define e = {source}\n")
    assert got == f"define e = {expected}\n"
    assert ast_of(got) == ast_of(f"define e = {source}\n")


def test_strings_are_escaped_back_and_hashes_inside_them_are_not_comments() -> None:
    src = 'effect e:\n    say "a \\"#\\" b\\\\ c\\n" # real\n'
    out = assert_canonical(src)
    assert out == 'effect e:\n    say "a \\"#\\" b\\\\ c\\n"  # real\n'


def test_expression_statement_that_starts_with_a_verb_word_keeps_its_meaning() -> None:
    src = "effect e:\n    (draw)(1)\n"
    out = assert_canonical(src)
    assert isinstance(parse_text(out).items[0], ast.EffectDef)


# ---------------------------------------------------------------------------- layout
def test_one_line_block_stays_up_to_exactly_100_columns_then_splits() -> None:
    stmt = 'say "' + "x" * 38 + '"'
    fits = f"effect e: {stmt}; {stmt}\n"
    assert len(fits) - 1 == 100
    assert format_source(fits) == fits
    longer = stmt.replace("x", "xx", 1)
    too_long = f"effect e: {stmt}; {longer}\n"
    assert format_source(too_long) == f"effect e:\n    {stmt}\n    {longer}\n"


def test_indented_block_stays_indented_even_if_short() -> None:
    src = "effect e:\n    gain 1\n"
    assert format_source(src) == src


def test_top_level_items_get_exactly_one_blank_line() -> None:
    src = "define a = 1\n\n\n\ndefine b = 2\ndefine c = 3\n"
    assert format_source(src) == "define a = 1\n\ndefine b = 2\n\ndefine c = 3\n"


def test_blank_lines_inside_blocks_collapse_to_one_and_never_follow_a_header() -> None:
    src = "effect e:\n\n    gain 1\n\n\n\n    gain 2\n"
    assert format_source(src) == "effect e:\n    gain 1\n\n    gain 2\n"


def test_tabs_and_odd_indentation_become_four_spaces() -> None:
    src = "card a:\n\tvalue: 1\n\tability:\n\t  gain 1\n"
    assert format_source(src) == "card a:\n    value: 1\n    ability:\n        gain 1\n"


def test_crlf_input_and_missing_final_newline() -> None:
    assert format_source("define a = 1\r\n\r\ndefine b = 2") == "define a = 1\n\ndefine b = 2\n"


def test_empty_and_comment_only_files() -> None:
    assert format_source("") == ""
    assert format_source("\n\n") == ""
    assert format_source("# only\n\n# comments   \n") == "# only\n\n# comments\n"


def test_syntax_errors_raise_with_located_diagnostics() -> None:
    with pytest.raises(ParseFailed) as caught:
        format_source("effect e:\n    gain (\n", "bad.rcl")
    assert caught.value.diagnostics[0].span.file == "bad.rcl"
    assert caught.value.diagnostics[0].span.line == 2


# ---------------------------------------------------------------------------- comments
def test_comment_before_else_and_trailing_comments_on_clause_headers() -> None:
    src = "effect e:\n    if a:\n        gain 1\n    # why else\n    else:  # t\n        gain 2\n"
    assert format_source(src) == src


def test_comments_inside_brackets_join_their_statements_trailing_comment() -> None:
    src = "effect e:\n    f([1,  # one\n       2])  # two\n"
    assert format_source(src) == "effect e:\n    f([1, 2])  # one # two\n"


def test_comment_at_end_of_nested_block_stays_in_it() -> None:
    src = "effect e:\n    if a:\n        gain 1\n        # still in the if\n    gain 2\n"
    assert format_source(src) == src


# ------------------------------------------------------------------------ hypothesis: random trees
SPAN = ast.NOWHERE
NAMES = ["a", "b", "card", "hand", "gold", "x1", "draw", "ready", "ünit"]
FIELDS = [*NAMES, "side", "true", "if"]
LANGS = ["de", "en", "fr-CA"]
TEXT_ALPHABET = string.ascii_letters[:6] + ' #"\\\n\t:ü'

names = st.sampled_from(NAMES)
# Where a member or item starts, a verb word is read as the verb: keep those out there.
plain_names = st.sampled_from([n for n in NAMES if n not in ("draw", "ready")])
texts = st.builds(
    ast.Text,
    st.text(TEXT_ALPHABET, max_size=8),
    st.lists(st.tuples(st.sampled_from(LANGS), st.text(TEXT_ALPHABET, max_size=5)), max_size=2).map(
        tuple
    ),
)
OPS = ["or", "and", "+", "-", "*", "/", "%", "in", "==", "!=", "<", "<=", ">", ">="]

leaf_exprs = st.one_of(
    st.builds(ast.Const, st.just(SPAN), st.integers(0, 99)),
    st.builds(ast.Const, st.just(SPAN), st.sampled_from([True, False, None])),
    st.builds(ast.Name, st.just(SPAN), names),
    st.builds(ast.TextLit, st.just(SPAN), texts),
)


def _extend(inner: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    return st.one_of(
        st.builds(ast.Binary, st.just(SPAN), st.sampled_from(OPS), inner, inner),
        st.builds(ast.Unary, st.just(SPAN), st.sampled_from(["-", "not"]), inner),
        st.builds(ast.Has, st.just(SPAN), inner, names),
        st.builds(ast.Where, st.just(SPAN), inner, inner),
        st.builds(ast.Qty, st.just(SPAN), inner, names),
        st.builds(ast.Attr, st.just(SPAN), inner, st.sampled_from(FIELDS)),
        st.builds(ast.Call, st.just(SPAN), inner, st.lists(inner, max_size=2).map(tuple)),
        st.builds(ast.Index, st.just(SPAN), inner, inner),
        st.builds(ast.ListExpr, st.just(SPAN), st.lists(inner, max_size=3).map(tuple)),
        st.builds(ast.Conditional, st.just(SPAN), inner, inner, inner),
    )


exprs = st.recursive(leaf_exprs, _extend, max_leaves=5)
opt_exprs = st.none() | exprs


def _stmt(
    kind: type[ast.SimpleStmt], **parts: st.SearchStrategy[object]
) -> st.SearchStrategy[ast.Stmt]:
    return st.builds(kind, st.just(SPAN), **parts)


simple_stmts = st.one_of(
    _stmt(ast.Gain, value=exprs, target=opt_exprs),
    _stmt(ast.Lose, value=exprs, source=opt_exprs),
    _stmt(ast.Spend, value=exprs, source=opt_exprs),
    _stmt(ast.Suffer, value=exprs, target=opt_exprs),
    _stmt(ast.Heal, value=exprs, source=opt_exprs),
    _stmt(ast.Deal, value=exprs, target=exprs),
    _stmt(ast.Draw, value=exprs, source=opt_exprs, target=opt_exprs),
    _stmt(ast.Discard, value=exprs, target=opt_exprs),
    _stmt(
        ast.Move,
        value=exprs,
        target=exprs,
        position=st.sampled_from([None, "top", "bottom"]),
        facedown=st.booleans(),
    ),
    _stmt(ast.Shuffle, value=exprs),
    _stmt(ast.Reveal, value=exprs, target=opt_exprs),
    _stmt(ast.Look, value=exprs),
    _stmt(ast.Roll, value=exprs, name=st.none() | names),
    _stmt(ast.Reroll, value=exprs),
    _stmt(ast.Goto, value=exprs),
    _stmt(ast.SetFlag, name=names, target=opt_exprs, until=st.none() | plain_names),
    _stmt(ast.ClearFlag, name=names, target=opt_exprs),
    _stmt(ast.SetValue, value=exprs, target=exprs),
    _stmt(ast.Let, value=exprs, name=names),
    _stmt(ast.End, name=names),
    _stmt(ast.Emit, name=names, args=st.lists(exprs, max_size=2).map(tuple)),
    _stmt(ast.Prevent, value=opt_exprs),
    _stmt(ast.Flip, value=exprs, target=opt_exprs),
    _stmt(ast.Exhaust, value=exprs),
    _stmt(ast.Ready, value=exprs),
    _stmt(ast.Say, value=exprs),
    _stmt(ast.Return),
    _stmt(ast.Win, target=opt_exprs),
    _stmt(ast.LoseGame, target=opt_exprs),
    _stmt(ast.Tie),
    _stmt(ast.ExprStmt, value=exprs),
)


def _bodies(stmt: st.SearchStrategy[ast.Stmt]) -> st.SearchStrategy[tuple[ast.Stmt, ...]]:
    return st.lists(stmt, min_size=1, max_size=3).map(tuple)


def _compound(inner: st.SearchStrategy[ast.Stmt]) -> st.SearchStrategy[ast.Stmt]:
    body = _bodies(inner)
    return st.one_of(
        st.builds(
            ast.If,
            st.just(SPAN),
            st.lists(st.tuples(exprs, body), min_size=1, max_size=2).map(tuple),
            st.none() | body,
        ),
        st.builds(ast.ForEach, st.just(SPAN), names, exprs, body),
        st.builds(ast.Repeat, st.just(SPAN), exprs, body),
        st.builds(ast.While, st.just(SPAN), exprs, body),
        st.builds(
            ast.Choose,
            st.just(SPAN),
            names,
            opt_exprs,
            st.booleans(),
            exprs,
            opt_exprs,
            st.none() | texts,
            body,
        ),
        st.builds(
            ast.ChooseOption,
            st.just(SPAN),
            opt_exprs,
            st.none() | texts,
            st.lists(
                st.builds(ast.OptionClause, st.just(SPAN), texts, opt_exprs, body),
                min_size=1,
                max_size=2,
            ).map(tuple),
        ),
        st.builds(
            ast.Test,
            st.just(SPAN),
            names,
            exprs,
            opt_exprs,
            body,
            st.just(()) | body,
            st.none() | names,
        ),
    )


stmts = st.recursive(simple_stmts, _compound, max_leaves=4)
bodies = _bodies(stmts)
params = st.lists(names, max_size=2).map(tuple)
limits = st.none() | names


def _members(inner: st.SearchStrategy[ast.Member]) -> st.SearchStrategy[ast.Member]:
    return st.builds(
        ast.Side,
        st.just(SPAN),
        names,
        st.none() | texts,
        st.lists(inner, min_size=1, max_size=2).map(tuple),
    )


leaf_members = st.one_of(
    st.builds(ast.Attribute, st.just(SPAN), plain_names, bodies),
    st.builds(ast.Ability, st.just(SPAN), st.none() | texts, opt_exprs, limits, opt_exprs, bodies),
    st.builds(
        ast.Trigger,
        st.just(SPAN),
        st.sampled_from(["when", "after", "before", "at"]),
        plain_names,
        params,
        opt_exprs,
        st.booleans(),
        bodies,
        st.none() | texts,
    ),
    st.builds(
        ast.Modifier, st.just(SPAN), plain_names, exprs, exprs, opt_exprs, opt_exprs, opt_exprs
    ),
    st.builds(ast.Grant, st.just(SPAN), plain_names, exprs, opt_exprs),
    st.builds(ast.Choice, st.just(SPAN), texts, opt_exprs, bodies),
)
members = st.lists(st.recursive(leaf_members, _members, max_leaves=3), min_size=1, max_size=3)


@st.composite
def action_defs(draw: st.DrawFn) -> ast.ActionDef:
    var = draw(st.none() | names)
    return ast.ActionDef(
        SPAN,
        draw(names),
        draw(st.none() | texts),
        var,
        draw(exprs) if var is not None else None,
        draw(opt_exprs),
        draw(limits),
        draw(opt_exprs),
        draw(bodies),
    )


items = st.one_of(
    st.builds(ast.Include, st.just(SPAN), st.text(TEXT_ALPHABET, max_size=6)),
    st.builds(
        ast.Component,
        st.just(SPAN),
        st.sampled_from(["card", "unit"]),
        names,
        st.none() | texts,
        members.map(tuple),
    ),
    st.builds(ast.Entry, st.just(SPAN), st.integers(0, 500), st.none() | texts, members.map(tuple)),
    st.builds(ast.Rule, st.just(SPAN), names, st.none() | texts, members.map(tuple)),
    st.builds(ast.EffectDef, st.just(SPAN), names, params, bodies),
    st.builds(ast.Define, st.just(SPAN), names, params, exprs),
    action_defs(),
)
units = st.builds(ast.Unit, st.just("gen.rcl"), st.lists(items, min_size=1, max_size=3).map(tuple))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units)
def test_printing_any_tree_parses_back_to_it_and_is_a_fixed_point(unit: ast.Unit) -> None:
    text = format_unit(unit)
    assert strip_spans(parse_text(text, "gen.rcl").items) == strip_spans(unit.items)
    assert format_source(text, "gen.rcl") == text


# ----------------------------------------------------------------------- hypothesis: mutated files
COMMENTS = st.sampled_from(["# c", '# "q" # x', "#", "#!  odd  "])


@st.composite
def mutated_sources(draw: st.DrawFn) -> str:
    files = _ruleset_files() + sorted(CASES.glob("*.rcl"))
    lines = draw(st.sampled_from(files)).read_text(encoding="utf-8").split("\n")
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["comment", "trailing", "blank", "delete", "spaces"]))
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == "comment":
            indent = " " * draw(st.integers(0, 12))
            lines.insert(at, indent + draw(COMMENTS))
        elif kind == "trailing" and lines and "#" not in lines[at] and lines[at].strip():
            if not lines[at].rstrip().endswith("\\"):
                lines[at] = lines[at] + draw(st.sampled_from(["  ", " ", "\t"])) + draw(COMMENTS)
        elif kind == "blank":
            lines.insert(at, " " * draw(st.integers(0, 4)))
        elif kind == "delete" and lines:
            del lines[at]
        elif kind == "spaces" and lines:
            lines[at] = lines[at].replace(", ", ",").replace(" == ", "==") + "   "
    return "\n".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_sources())
def test_mutated_files_that_parse_format_idempotently_to_the_same_ast(text: str) -> None:
    _, problems = parse_source(text, "mutant.rcl")
    assume(not problems)
    assert_canonical(text)


@settings(max_examples=40, deadline=None)
@given(mutated_sources())
def test_every_comment_survives_formatting(text: str) -> None:
    _, problems = parse_source(text, "mutant.rcl")
    assume(not problems)
    src_comments = [c.text for c in formatter._Source(text).comments]
    out = format_source(text, "mutant.rcl")
    out_text = "\n".join(c.text for c in formatter._Source(out).comments)
    for comment in src_comments:
        assert comment in out_text


# ---------------------------------------------------------------------------- the CLI
MESSY = "define a=1\ndefine b = 2\n"
CLEAN = "define a = 1\n\ndefine b = 2\n"


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "sub").mkdir()
    messy = tmp_path / "sub" / "messy.rcl"
    clean = tmp_path / "clean.rcl"
    messy.write_text(MESSY, encoding="utf-8")
    clean.write_text(CLEAN, encoding="utf-8")
    other = tmp_path / "notes.txt"
    other.write_text("define a=1\n", encoding="utf-8")
    return messy, clean, other


def test_cli_check_lists_changes_writes_nothing_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy, clean, _ = _tree(tmp_path)
    assert cli_main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat {messy}" in out and str(clean) not in out
    assert messy.read_text(encoding="utf-8") == MESSY


def test_cli_rewrites_folders_recursively_then_check_is_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy, clean, other = _tree(tmp_path)
    assert cli_main(["fmt", str(tmp_path)]) == 0
    assert messy.read_text(encoding="utf-8") == CLEAN
    assert other.read_text(encoding="utf-8") == "define a=1\n"  # not an .rcl file
    assert not list(tmp_path.rglob("*.tmp"))  # the atomic write left no temp file
    assert cli_main(["fmt", "--check", str(tmp_path), str(clean)]) == 0
    assert "would reformat" not in capsys.readouterr().out


def test_cli_diff_prints_a_unified_diff_without_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy, _, _ = _tree(tmp_path)
    assert cli_main(["fmt", "--diff", str(messy)]) == 0
    out = capsys.readouterr().out
    assert "-define a=1" in out and "+define a = 1" in out
    assert messy.read_text(encoding="utf-8") == MESSY


def test_cli_reports_syntax_errors_located_and_leaves_the_file_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.rcl"
    bad.write_text("define a = (1\ndefine  b=2\n", encoding="utf-8")
    messy, _, _ = _tree(tmp_path)
    assert cli_main(["fmt", str(bad), str(messy)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:1:" in out and "RC101" in out
    assert bad.read_text(encoding="utf-8") == "define a = (1\ndefine  b=2\n"
    assert messy.read_text(encoding="utf-8") == CLEAN  # the good file is still formatted


def test_cli_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    assert cli_main(["fmt", str(tmp_path / "nope.rcl")]) == 2
