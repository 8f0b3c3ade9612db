"""The hostile-input corpus for rulesets: YAML manifests, ``.rcl`` files, includes and rules
that fail at run time (issue 17, "Tools to keep it so").

Saves and REPL input have their own corpora (helpers F and C); these cases are named
``yaml_*``, ``rcl_*``, ``include_*`` and ``runtime_*``.  Every case is the base ruleset of
:mod:`tests.hostile.build` broken in one place, with the code and the place it must be
reported at:

- validation cases: ``rulecraft validate`` exits 1 with that diagnostic (never RC999, never
  exit 2, no traceback, within the time limit);
- runtime cases: the ruleset validates clean, and choosing the action ``play`` raises a
  ``RuleError`` with that code at that place of ``rules.rcl``.

Lines of the base files (the numbers below count from them)::

    ruleset.yaml                         rules.rcl
     1 rulecraft: 1                       1 card alpha "Alpha":
     2 name: hostile                      2     copies: 3
     3 title: "Hostile"                   3     cost: 1
     4 players: {min: 2, max: 2}          4
     5 files: [rules.rcl]                 5 action play "Play":
    16 components:                        6     <the action's body>
    17   - {kind: card, zone: deck}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.hostile.build import BASE_MANIFEST, BASE_RULES

MANIFEST = "ruleset.yaml"
RULES = "rules.rcl"
BODY = BASE_RULES + "    gain 1 gold\n"


@dataclass(frozen=True)
class Case:
    """One hostile input and where its problem must be reported."""

    name: str
    files: dict[str, str | bytes]
    code: str
    file: str
    line: int
    column: int
    runtime: bool = False
    args: tuple[str, ...] = ()
    symlinks: dict[str, str] = field(default_factory=dict)

    @property
    def area(self) -> str:
        return self.name.split("_", 1)[0]


def _manifest(old: str, new: str) -> str:
    assert BASE_MANIFEST.count(old) == 1, old
    return BASE_MANIFEST.replace(old, new)


def yaml(name: str, old: str, new: str, code: str, line: int, column: int) -> Case:
    """The base manifest with ``old`` replaced by ``new``."""
    return Case(
        f"yaml_{name}", {MANIFEST: _manifest(old, new), RULES: BODY}, code, MANIFEST, line, column
    )


def yaml_raw(name: str, text: str | bytes, code: str, line: int, column: int) -> Case:
    return Case(f"yaml_{name}", {MANIFEST: text, RULES: BODY}, code, MANIFEST, line, column)


def rcl(
    name: str,
    rules: str | bytes,
    code: str,
    line: int,
    column: int,
    *args: str,
    file: str = RULES,
) -> Case:
    return Case(
        f"rcl_{name}", {MANIFEST: BASE_MANIFEST, RULES: rules}, code, file, line, column, args=args
    )


def body(name: str, text: str, code: str, line: int, column: int) -> Case:
    """A ``.rcl`` case whose breakage is in the action's body (line 6 is its first line)."""
    rules = BASE_RULES + "".join(f"    {ln}\n" for ln in text.splitlines())
    return rcl(name, rules, code, line, column)


def include(
    name: str,
    files: dict[str, str | bytes],
    code: str,
    file: str,
    line: int,
    column: int,
    manifest: str = BASE_MANIFEST,
    symlinks: dict[str, str] | None = None,
) -> Case:
    return Case(
        f"include_{name}",
        {MANIFEST: manifest, **files},
        code,
        file,
        line,
        column,
        symlinks=symlinks or {},
    )


def runtime(
    name: str,
    text: str,
    code: str,
    line: int,
    column: int = 5,
    extra: str = "",
    manifest: str = BASE_MANIFEST,
) -> Case:
    """A valid ruleset whose action ``play`` fails at run time (``extra`` follows the action)."""
    rules = BASE_RULES + "".join(f"    {ln}\n" for ln in text.splitlines()) + extra
    return Case(
        f"runtime_{name}",
        {MANIFEST: manifest, RULES: rules},
        code,
        RULES,
        line,
        column,
        runtime=True,
    )


# ---------------------------------------------------------------------------- YAML
_TAGS = [
    "!!python/object/apply:os.system [echo hi]",
    "!!python/object/apply:subprocess.check_output [[ls]]",
    "!!python/object/new:os.system [echo hi]",
    "!!python/object:builtins.dict {a: 1}",
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/tuple [1, 2]",
    "!!python/bytes aGk=",
    "!!binary aGk=",
    "!custom value",
    "!custom [1, 2]",
    "!custom {a: 1}",
    "!!set {a, b}",
    "!!omap [a: 1]",
    "!!pairs [a: 1]",
    "!<tag:example.com,2000:thing> x",
]

YAML_CASES = [
    *[
        yaml(f"tag_{i}", "name: hostile", f"name: {tag}", "RC020", 2, 7)
        for i, tag in enumerate(_TAGS)
    ],
    yaml(
        "tag_on_players",
        "players: {min: 2, max: 2}",
        "players: !!python/object/apply:dict [[]]",
        "RC020",
        4,
        10,
    ),
    yaml(
        "tag_on_placement",
        "- {kind: card, zone: deck}",
        "- !!python/object:x {kind: card}",
        "RC020",
        17,
        5,
    ),
    yaml("tag_in_flow_list", "files: [rules.rcl]", "files: [!!python/tuple [1]]", "RC020", 5, 9),
    yaml("tag_on_anchor", "name: hostile", "name: &n !!python/tuple [1]", "RC020", 2, 7),
    yaml("surrogate_title", 'title: "Hostile"', 'title: "\\ud800"', "RC004", 3, 8),
    yaml("surrogate_low", 'title: "Hostile"', 'title: "ab\\udfff"', "RC004", 3, 8),
    yaml("surrogate_pair_escapes", 'title: "Hostile"', 'title: "\\ud83d\\ude00"', "RC004", 3, 8),
    yaml("surrogate_key", 'title: "Hostile"', '"\\ud800": 1', "RC004", 3, 1),
    yaml(
        "surrogate_label",
        "gold: {per: player, start: 3}",
        'gold: {per: player, start: 3, label: "\\udc00"}',
        "RC004",
        15,
        40,
    ),
    yaml("players_min_above_max", "{min: 2, max: 2}", "{min: 5, max: 2}", "RC014", 4, 16),
    yaml("players_16_to_1", "{min: 2, max: 2}", "{min: 16, max: 1}", "RC014", 4, 16),
    yaml("players_zero", "{min: 2, max: 2}", "{min: 0, max: 2}", "RC014", 4, 16),
    yaml("players_too_many", "{min: 2, max: 2}", "{min: 2, max: 17}", "RC014", 4, 24),
    yaml("players_text", "{min: 2, max: 2}", "{min: two, max: 2}", "RC012", 4, 16),
    yaml(
        "copies_two_billion",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: 2000000000}",
        "RC224",
        17,
        38,
    ),
    yaml(
        "copies_above_bound",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: 10001}",
        "RC224",
        17,
        38,
    ),
    yaml(
        "copies_zero",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: 0}",
        "RC014",
        17,
        38,
    ),
    yaml(
        "copies_negative",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: -5}",
        "RC014",
        17,
        38,
    ),
    yaml(
        "copies_beyond_64_bits",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: 99999999999999999999999}",
        "RC009",
        17,
        38,
    ),
    yaml(
        "copies_float",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: 1.0e9}",
        "RC224",
        17,
        38,
    ),
    yaml(
        "copies_nan",
        "- {kind: card, zone: deck}",
        "- {kind: card, zone: deck, copies: .nan}",
        "RC012",
        17,
        38,
    ),
    # generate: makes definitions from value lists (issue 17: "Bound every count that creates
    # objects"); 10**10 combinations and 2,000,000,000 copies of each.
    yaml(
        "generate_ten_billion",
        "components:\n",
        "generate:\n  - {kind: card, id: 'g_{a}_{b}', each: {a: {from: 1, to: 100000}, "
        "b: {from: 1, to: 100000}}}\ncomponents:\n",
        "RC254",
        17,
        5,
    ),
    yaml(
        "generate_copies_two_billion",
        "components:\n",
        "generate:\n  - {kind: card, id: 'g_{cost}', each: {cost: [1, 2]}, copies: 2000000000}\n"
        "components:\n",
        "RC224",
        17,
        5,
    ),
    yaml("start_beyond_64_bits", "start: 3}", "start: 99999999999999999999}", "RC009", 15, 30),
    yaml(
        "start_negative_beyond_64_bits",
        "start: 3}",
        "start: -99999999999999999999}",
        "RC009",
        15,
        30,
    ),
    yaml("start_hex_beyond_64_bits", "start: 3}", "start: 0xfffffffffffffffffff}", "RC009", 15, 30),
    yaml("start_infinite", "start: 3}", "start: .inf}", "RC012", 15, 30),
    yaml("start_5000_digits", "start: 3}", "start: " + "9" * 5000 + "}", "RC009", 15, 30),
    yaml("syntax_colon_in_value", "name: hostile", "name: a: b", "RC001", 2, 8),
    yaml("syntax_tab_indent", "  card:\n", "\tcard:\n", "RC001", 7, 1),
    yaml("syntax_unclosed_quote", 'title: "Hostile"', 'title: "Hostile', "RC001", 3, 8),
    yaml("syntax_unclosed_flow", "files: [rules.rcl]", "files: [rules.rcl", "RC001", 6, 6),
    yaml("duplicate_key", "name: hostile", "name: hostile\nname: again", "RC002", 3, 1),
    yaml("impossible_date", "name: hostile", "name: hostile\nreleased: 2024-13-01", "RC003", 3, 11),
    yaml("undefined_alias", "name: hostile", "name: *nothing", "RC001", 2, 7),
    yaml("second_document", "rulecraft: 1", "rulecraft: 1\n---\nname: other", "RC001", 2, 1),
    yaml("boolean_key", "name: hostile", "name: hostile\ntrue: 1", "RC020", 3, 1),
    yaml("complex_key", "name: hostile", "name: hostile\n? [a, b]\n: 1", "RC020", 3, 3),
    yaml("unknown_key", "name: hostile", "name: hostile\nplayres: 2", "RC010", 3, 1),
    yaml("wrong_type", "files: [rules.rcl]", "files: rules.rcl", "RC012", 5, 8),
    yaml("bad_enum", "visibility: owner}", "visibility: secret}", "RC013", 12, 35),
    yaml(
        "map_too_wide",
        "flow:\n",
        "map: {kind: square, width: 100000, height: 2}\nflow:\n",
        "RC014",
        18,
        28,
    ),
    yaml(
        "deep_nesting",
        "name: hostile",
        "name: hostile\ndeep: " + "[" * 300 + "]" * 300,
        "RC008",
        3,
        106,
    ),
    yaml_raw(
        "nul_byte", BASE_MANIFEST.encode().replace(b"hostile", b"host\x00ile"), "RC005", 2, 11
    ),
    yaml_raw("bell_character", BASE_MANIFEST.replace("hostile", "host\x07ile"), "RC005", 2, 11),
    yaml_raw(
        "latin1_byte", BASE_MANIFEST.encode().replace(b"Hostile", b"H\xf6stile"), "RC004", 3, 10
    ),
    yaml_raw("utf16", BASE_MANIFEST.encode("utf-16"), "RC004", 1, 1),
    yaml_raw("empty", "", "RC006", 1, 1),
    yaml_raw("only_comments", "# nothing here\n# still nothing\n", "RC006", 1, 1),
    yaml_raw("not_a_mapping", "- a\n- b\n", "RC011", 1, 1),
    yaml_raw(
        "alias_bomb",
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n"
            for p, c in zip("abcdefgh", "bcdefghi", strict=True)
        ),
        "RC007",
        6,
        1,
    ),
]

# ---------------------------------------------------------------------------- .rcl
_DIGITS = "9" * 5000
RCL_CASES = [
    body("digits_5000_in_gain", f"gain {_DIGITS} gold", "RC205", 6, 10),
    body("digits_100_in_gain", "gain " + "9" * 100 + " gold", "RC205", 6, 10),
    body("digits_12_in_gain", "gain 999999999999 gold", "RC205", 6, 10),
    body("digits_5000_in_let", f"let n = {_DIGITS}", "RC205", 6, 13),
    body("digits_5000_in_condition", f"if gold > {_DIGITS}:\n    gain 1 gold", "RC205", 6, 15),
    rcl("digits_5000_in_attribute", BODY.replace("cost: 1", f"cost: {_DIGITS}"), "RC205", 3, 11),
    rcl("digits_5000_in_copies", BODY.replace("copies: 3", f"copies: {_DIGITS}"), "RC205", 2, 13),
    rcl(
        "digits_5000_entry_number", BODY + f'\nentry {_DIGITS} "E":\n    text: "x"\n', "RC205", 8, 1
    ),
    rcl("copies_two_billion", BODY.replace("copies: 3", "copies: 2000000000"), "RC224", 2, 5),
    rcl("copies_above_bound", BODY.replace("copies: 3", "copies: 10001"), "RC224", 2, 5),
    rcl("copies_text", BODY.replace("copies: 3", 'copies: "many"'), "RC209", 2, 5),
    rcl(
        "components_add_up",
        "".join(f'card c{i} "C{i}":\n    copies: 10000\n    cost: 1\n\n' for i in range(6))
        + BODY.split("\n\n", 1)[1],
        "RC224",
        17,
        5,
        file=MANIFEST,
    ),
    rcl("define_two_cycle", "define a = b\ndefine b = a\n\n" + BODY, "RC225", 1, 1),
    rcl("define_self", "define a = a + 1\n\n" + BODY, "RC225", 1, 1),
    rcl("define_self_call", "define f(n) = f(n + 1)\n\n" + BODY, "RC225", 1, 1),
    rcl(
        "define_three_cycle", "define a = b\ndefine b = c\ndefine c = [a]\n\n" + BODY, "RC225", 1, 1
    ),
    rcl("define_cycle_in_args", "define f(n) = max(f(n), 1)\n\n" + BODY, "RC225", 1, 1),
    rcl("define_cycle_in_collection", "define a = count(a where it > 0)\n\n" + BODY, "RC225", 1, 1),
    rcl("define_cycle_after_text", BODY + "\ndefine a = b\ndefine b = a\n", "RC225", 8, 1),
    rcl(
        "cr_only_unknown_name",
        (BASE_RULES + "    gain 1 glod\n").encode().replace(b"\n", b"\r"),
        "RC201",
        6,
        12,
    ),
    rcl(
        "crlf_unknown_name",
        (BASE_RULES + "    gain 1 glod\n").encode().replace(b"\n", b"\r\n"),
        "RC201",
        6,
        12,
    ),
    rcl(
        "cr_only_comment_then_error",
        ("# a comment\n" + BASE_RULES + "    gain 1 glod\n").encode().replace(b"\n", b"\r"),
        "RC201",
        7,
        12,
    ),
    rcl(
        "mixed_endings",
        (BASE_RULES + "    gain 1 gold\r    gain 1 glod\r\n").encode(),
        "RC201",
        7,
        12,
    ),
    body("stray_bang", "gain 2 gold!", "RC102", 6, 16),
    body("stray_dollar", "gain $2 gold", "RC102", 6, 10),
    body("stray_backtick", "gain `2` gold", "RC102", 6, 10),
    body("stray_euro", "gain 2€ gold", "RC102", 6, 11),
    body("stray_escape_sequence", "gain 2 gold \x1b[31m", "RC102", 6, 17),
    rcl("nul_byte", BODY.encode().replace(b"gold", b"go\x00ld"), "RC100", 6, 14),
    rcl("latin1_byte", BODY.encode().replace(b"Alpha", b"\xc4lpha", 1), "RC100", 1, 13),
    rcl(
        "encoded_surrogate", BODY.encode().replace(b"Alpha", b"\xed\xa0\x80lpha", 1), "RC100", 1, 13
    ),
    rcl("utf16", BODY.encode("utf-16"), "RC100", 1, 4),
    rcl("bom_then_error", ("\ufeff" + BASE_RULES + "    gain 1 glod\n").encode(), "RC201", 6, 12),
    body("unclosed_text", 'say "hello', "RC105", 6, 9),
    rcl("unclosed_label", BODY.replace('"Alpha"', '"Alpha'), "RC105", 1, 12),
    rcl("bad_dedent", BODY + "  gain 1 gold\n", "RC103", 7, 1),
    body("unexpected_indent", "gain 1 gold\n    gain 1 gold", "RC101", 7, 1),
    body(
        "deep_parentheses", "gain " + "(" * 3000 + "1" + ")" * 3000 + " gold\nsay (", "RC101", 7, 10
    ),
    body("deep_negation", "let x = " + "not " * 5000 + "true", "RC104", 5, 1),
    body("deep_calls", "let x = " + "abs(" * 3000 + "1" + ")" * 3000, "RC104", 5, 1),
    body("deep_lists", "let x = " + "[" * 3000 + "]" * 3000, "RC104", 5, 1),
    rcl("missing_colon", BODY.replace('card alpha "Alpha":', 'card alpha "Alpha"'), "RC101", 1, 19),
    rcl("keyword_as_id", BODY.replace("card alpha", "card if"), "RC101", 1, 6),
    body(
        "choose_without_variable",
        "choose first(you.hand) from you.hand:\n    say it",
        "RC106",
        6,
        12,
    ),
    body("unknown_resource", "gain 1 glod", "RC201", 6, 12),
    body("unknown_function", "let x = frist(you.hand)", "RC201", 6, 13),
    body("unknown_zone", "draw 1 from dekc to hand", "RC201", 6, 17),
    body("unknown_entry", "go to 99", "RC201", 6, 5),
    body("very_long_name", "gain 1 " + "g" * 100_000, "RC201", 6, 12),
    rcl("duplicate_component", BODY + '\ncard alpha "Again":\n    cost: 2\n', "RC202", 8, 1),
    body("deal_without_target", "deal 2 damage", "RC101", 6, 18),
    body("gain_negative_literal", "gain -7 gold", "RC204", 6, 11),
    body("map_function_without_map", "let s = space_at(1, 1)", "RC201", 6, 13),
    body("count_two_arguments", "let n = count(you.hand, you.deck)", "RC206", 6, 13),
    rcl("empty_file_strict", "\n\n", "RC107", 1, 1, "--strict"),
]

# ---------------------------------------------------------------------------- includes
_INC = BODY + 'include "more.rcl"\n'
INCLUDE_CASES = [
    include("parent_folder", {RULES: BODY + 'include "../outside.rcl"\n'}, "RC220", RULES, 7, 1),
    include("absolute_path", {RULES: BODY + 'include "/etc/hostname"\n'}, "RC220", RULES, 7, 1),
    include("missing_file", {RULES: _INC}, "RC221", RULES, 7, 1),
    include("a_folder", {RULES: BODY + 'include "sub"\n', "sub/x.txt": "x"}, "RC221", RULES, 7, 1),
    include("glob_characters", {RULES: BODY + 'include "*.rcl"\n'}, "RC221", RULES, 7, 1),
    include(
        "binary_file", {RULES: _INC, "more.rcl": b"\x89PNG\r\n\x00\x00"}, "RC100", "more.rcl", 2, 1
    ),
    include(
        "latin1_file",
        {RULES: _INC, "more.rcl": b'card b "B\xe4":\n    cost: 1\n'},
        "RC100",
        "more.rcl",
        1,
        10,
    ),
    include(
        "syntax_error_inside",
        {RULES: _INC, "more.rcl": 'card beta "Beta"\n    cost: 1\n'},
        "RC101",
        "more.rcl",
        1,
        17,
    ),
    include(
        "huge_number_inside",
        {RULES: _INC, "more.rcl": f'card beta "Beta":\n    cost: {_DIGITS}\n'},
        "RC205",
        "more.rcl",
        2,
        11,
    ),
    include(
        "huge_copies_inside",
        {RULES: _INC, "more.rcl": 'card beta "Beta":\n    copies: 2000000000\n    cost: 1\n'},
        "RC224",
        "more.rcl",
        2,
        5,
    ),
    include(
        "cr_only_inside",
        {RULES: _INC, "more.rcl": b'card beta "Beta":\r    cost: 1\r    cots: 2 $\r'},
        "RC102",
        "more.rcl",
        3,
        13,
    ),
    include(
        "duplicate_across_files",
        {RULES: _INC, "more.rcl": 'card alpha "Alpha again":\n    cost: 1\n'},
        "RC202",
        "more.rcl",
        1,
        1,
    ),
    include(
        "define_cycle_across_files",
        {RULES: "define a = b\n" + _INC, "more.rcl": "define b = a\n"},
        "RC225",
        RULES,
        1,
        1,
    ),
    include(
        "itself_with_error",
        {RULES: BODY + 'include "rules.rcl"\neffect e:\n    gain 1 glod\n'},
        "RC201",
        RULES,
        9,
        12,
    ),
    include(
        "cycle_of_two",
        {RULES: _INC, "more.rcl": 'include "rules.rcl"\neffect e:\n    gain 1 glod\n'},
        "RC201",
        "more.rcl",
        3,
        12,
    ),
    include(
        "chain_of_40",
        {
            RULES: BODY + 'include "i0.rcl"\n',
            **{f"i{i}.rcl": f'include "i{i + 1}.rcl"\n' for i in range(40)},
            "i40.rcl": "effect e:\n    gain 1 glod\n",
        },
        "RC201",
        "i40.rcl",
        2,
        12,
    ),
    include(
        "symlink_outside",
        {RULES: BODY + 'include "link.rcl"\n'},
        "RC220",
        RULES,
        7,
        1,
        symlinks={"link.rcl": "/etc/hostname"},
    ),
    include(
        "files_parent_pattern",
        {RULES: BODY},
        "RC220",
        MANIFEST,
        5,
        20,
        manifest=_manifest("files: [rules.rcl]", "files: [rules.rcl, ../*.rcl]"),
    ),
    include(
        "files_absolute_pattern",
        {RULES: BODY},
        "RC220",
        MANIFEST,
        5,
        9,
        manifest=_manifest("files: [rules.rcl]", "files: [/etc/*]"),
    ),
    include(
        "files_match_nothing",
        {RULES: BODY},
        "RC221",
        MANIFEST,
        5,
        20,
        manifest=_manifest("files: [rules.rcl]", "files: [rules.rcl, nothing*.rcl]"),
    ),
    include(
        "files_match_binary",
        {RULES: BODY, "blob.rcl": b"\x00\x01\x02"},
        "RC100",
        "blob.rcl",
        1,
        1,
        manifest=_manifest("files: [rules.rcl]", "files: ['*.rcl']"),
    ),
]

# ---------------------------------------------------------------------------- runtime
RUNTIME_CASES = [
    runtime("gain_negative", "let n = 0 - 7\ngain n gold", "RC303", 7),
    runtime("lose_negative", "let n = 0 - 7\nlose n gold", "RC303", 7),
    runtime("spend_negative", "let n = 0 - 7\nspend n gold", "RC303", 7),
    runtime("suffer_negative", "let n = 0 - 7\nsuffer n gold", "RC303", 7),
    runtime("heal_negative", "let n = 0 - 7\nheal n gold", "RC303", 7),
    runtime("deal_negative", "let n = 0 - 2\ndeal n damage to first(you.deck)", "RC303", 7),
    runtime("draw_negative", "let n = 0 - 1\ndraw n from deck to hand", "RC303", 7),
    runtime("repeat_negative", "let n = 0 - 1\nrepeat n:\n    gain 1 gold", "RC303", 7),
    runtime("text_times_two_billion", 'let x = "ab" * 2000000000', "RC304", 6),
    runtime("two_billion_times_text", 'let x = 2000000000 * "ab"', "RC304", 6),
    runtime("list_times_two_billion", "let x = [1, 2] * 2000000000", "RC304", 6),
    runtime("range_two_billion", "let x = range(1, 2000000000)", "RC304", 6),
    runtime("number_squared_in_a_loop", "let x = 3\nrepeat 10:\n    let x = x * x", "RC304", 8, 9),
    runtime("list_doubling", "let x = [1]\nrepeat 40:\n    let x = x + x", "RC304", 8, 9),
    runtime("text_doubling", 'let x = "ab"\nrepeat 40:\n    let x = x + x', "RC304", 8, 9),
    # An interpolated text is built at run time too: doubling it ran until memory was gone.
    runtime(
        "interpolation_doubling", 'let x = "ab"\nrepeat 17:\n    let x = "{x}{x}"', "RC304", 8, 9
    ),
    runtime("interpolated_long_list", 'say "{range(1, 100000)}"', "RC304", 6),
    # chance() computes an exact distribution: 200 dice of four symbols never finished, a
    # face showing 2,000,000,000 hits ran out of memory.
    runtime(
        "chance_of_a_huge_pool",
        'say "{chance(200 tri, a >= 1)}"',
        "RC304",
        6,
        manifest=BASE_MANIFEST.replace(
            "components:\n",
            "dice:\n  tri:\n    faces: [{a: 1}, {b: 1}, {c: 1}, {d: 1}, {}]\ncomponents:\n",
        ),
    ),
    runtime(
        "chance_of_a_huge_face",
        'say "{chance(2 big, hit >= 1)}"',
        "RC304",
        6,
        manifest=BASE_MANIFEST.replace(
            "components:\n", "dice:\n  big:\n    faces: [{hit: 2000000000}, {}]\ncomponents:\n"
        ),
    ),
    runtime(
        "zone_full",
        "move first(you.deck) to you.board\nmove first(you.deck) to you.board",
        "RC301",
        7,
    ),
    runtime("no_entry", "let n = 99\ngo to n", "RC302", 7),
    runtime(
        "recursion_behind_and", "say f(1)", "RC305", 6, extra="\ndefine f(n) = n > 0 and f(n + 1)\n"
    ),
    runtime(
        "recursion_behind_or", "say f(1)", "RC305", 6, extra="\ndefine f(n) = n < 0 or f(n + 1)\n"
    ),
    runtime(
        "recursion_in_where",
        "say f(1)",
        "RC305",
        6,
        extra="\ndefine f(n) = count([n] where f(it + 1))\n",
    ),
    runtime("repeat_a_billion", "repeat 1000000000:\n    gain 0 gold", "RC306", 6),
    # (stopped where the loop goes back to its test: the ``while`` itself, line 6)
    runtime("while_true", "while true:\n    gain 0 gold", "RC306", 6),
    runtime("text_as_amount", 'let n = "many"\ngain n gold', "RC300", 7),
    runtime("number_plus_text", 'let x = 1 + "a"', "RC300", 6),
    runtime("list_minus_number", "let x = [1] - 1", "RC300", 6),
    runtime("move_to_a_player", "move first(you.deck) to you", "RC300", 6),
    runtime("card_as_player", "let s = seat(first(you.deck))", "RC300", 6),
    runtime("text_as_player", 'gain 1 gold to "nobody"', "RC300", 6),
]

_DICE = BASE_MANIFEST + "dice:\n  sky: {faces: [blank, sun]}\n"
RUNTIME_CASES += [
    runtime("roll_two_billion_dice", "roll 2000000000 sky as r", "RC304", 6, manifest=_DICE),
    runtime("roll_many_plain_dice", "let n = 5000\nroll n d6 as r", "RC304", 7, manifest=_DICE),
    runtime("roll_a_huge_plain_die", "roll 1 d2000000000 as r", "RC304", 6, manifest=_DICE),
    runtime("roll_no_dice", "let n = 0 - 3\nroll n sky as r", "RC300", 7, manifest=_DICE),
]

CASES: list[Case] = [*YAML_CASES, *RCL_CASES, *INCLUDE_CASES, *RUNTIME_CASES]
