"""Issue 16's REPL findings, each with the test that would have caught it.

Quotes are from issue 16 ("The REPL, tried as a new user would").
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import rulecraft
from repl.fakegame import SECRET_PREFIX, FakeGame, FakeSource
from repl.helpers import feed, make_session, output
from rulecraft.cli.play_cmd import EngineSource
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.repl import messages
from rulecraft.repl.mapdraw import draw_map
from rulecraft.repl.session import Session
from rulecraft.runtime.decision import Decision, Option
from rulecraft.runtime.protocols import Agent

REPO = Path(__file__).resolve().parents[2]
TABLE_BORDER = "┏"
OPTION_LINE = re.compile(r"^ +(\d+)\. .*  \[(.+)\]$")


def engine_session(
    name: str,
    seats: dict[int, str],
    *,
    seed: int = 1,
    lang: str | None = "en",
    width: int = 100,
) -> Session:
    """A session on a bundled ruleset with the real engine and bots."""
    source = EngineSource(rulecraft.load(name), name)
    game = source.new_game(None, seed, lang)
    console = Console(file=StringIO(), width=width, color_system=None)
    session = Session(source, game, seats, console, seed=seed, lang=lang)
    session.start()
    return session


def typed(session: Session, lines: list[str]) -> str:
    """Send lines as a person at the prompt would (the prompt and line are echoed, as the
    line reader does); return the whole output."""
    for line in lines:
        session.say(session.prompt() + line)
        session.handle(line)
    return output(session)


def screens(text: str, prompt: str = "seat 1> ") -> list[str]:
    """The output cut at each prompt echo: one chunk per screen."""
    return [chunk for chunk in re.split(r"(?m)^" + re.escape(prompt) + ".*$", text) if chunk]


def shown_options(text: str) -> list[tuple[int, str]]:
    """(number, id) of the options on the last screen of ``text``."""
    last = text.rsplit("Seat ", 1)[-1]
    found = [OPTION_LINE.match(line) for line in last.splitlines()]
    return [(int(m.group(1)), m.group(2)) for m in found if m]


# -- "a compact screen: what changed since your last decision, then your options" ------------


def test_the_screen_before_a_decision_has_no_tables_and_state_has_them() -> None:
    session = make_session({0: "human", 1: "human"})
    out = output(session)
    assert TABLE_BORDER not in out
    assert "Seat 1 (Player 1): Choose an action" in out
    out = feed(session, ["pass"])
    assert "Since your last decision:\n  Seat 1 passes." in out
    assert TABLE_BORDER not in out
    assert TABLE_BORDER in feed(session, ["state"])


@pytest.fixture(scope="module")
def radlands_turn() -> str:
    """Seat 1's first two turns of Radlands against the random bot (seed 1)."""
    session = engine_session("radlands", {0: "human", 1: "random"})
    return typed(session, ["1"] * 12)


def test_radlands_screens_are_short(radlands_turn: str) -> None:
    # Issue 16: "Radlands redraws about 100 lines of tables before every decision".
    lengths = [len(chunk.splitlines()) for chunk in screens(radlands_turn)]
    assert len(lengths) >= 10
    assert max(lengths) <= 40 and sum(lengths) / len(lengths) <= 20, lengths
    assert TABLE_BORDER not in radlands_turn


def test_the_state_command_still_shows_every_table() -> None:
    session = engine_session("radlands", {0: "human", 1: "random"})
    mark = len(output(session))
    out = feed(session, ["state"])[mark:]
    assert len(out.splitlines()) > 60 and "Draw deck" in out and "Players" in out


def test_waste_knights_first_screen_is_short_and_fits_the_width() -> None:
    # Issue 16: "Waste Knights' first screen is about 260 lines".
    session = engine_session("waste_knights", {0: "human", 1: "random"}, width=80)
    first = output(session)
    assert len(first.splitlines()) <= 40
    assert all(len(line) <= 80 for line in first.splitlines())
    assert "'log " in first  # the earlier lines are one command away


def test_a_dice_pool_field_is_shown_as_dice() -> None:
    # Issue 16: "`blades=` prints empty where the card says `2 green`".
    session = engine_session("waste_knights", {0: "human", 1: "random"})
    out = feed(session, ["state"])
    assert "blades=1 white + 1 green" in out  # Johnny Taylor, on the roster
    assert "blades=2 green" in out
    assert "blades=," not in out and "blades= " not in out
    shown = feed(session, ["show Johnny Taylor"])[len(out) :]
    assert "blades: 1 white + 1 green\nguns: 2 green" in shown


def test_fake_dice_fields_come_from_the_source() -> None:
    out = feed(make_session(seed=3), ["state"])
    assert "dice=1 green" in out or "dice=2 green" in out or "dice=3 green" in out


# -- "boards with coordinates and the glyphs a ruleset declares" -------------------------------


def test_tictactoe_draws_its_declared_glyphs_with_coordinates() -> None:
    # Issue 16: "Tic-Tac-Toe shows `Mark1`, not X".
    session = engine_session("tictactoe", {0: "human", 1: "human"})
    out = feed(session, ["a1", "b2"])
    assert "   a b c\n 1 X . .\n 2 . O .\n 3 . . ." in out
    assert "Mark1" not in out


def test_connect4_draws_x_and_o() -> None:
    session = engine_session("connect4", {0: "human", 1: "human"})
    out = feed(session, ["a6", "b6"])
    assert " 6 X O . . . . ." in out


@pytest.mark.parametrize(
    ("glyphs", "ok"),
    [
        ("{mark: [X, O]}", True),
        ('{mark: "#"}', True),
        ('{mark: ""}', False),
        ("{mark: [X, two words]}", False),
        ("{mark: []}", False),
        ("{mark: TOOLONG}", False),
        ("[X, O]", False),
    ],
)
def test_glyphs_are_checked_by_the_schema(tmp_path: Path, glyphs: str, ok: bool) -> None:
    folder = tmp_path / "ttt"
    folder.mkdir()
    manifest = (REPO / "rulesets/tictactoe/ruleset.yaml").read_text(encoding="utf-8")
    manifest = re.sub(r"(?m)^glyphs:\n  mark: \[X, O\]\n", f"glyphs: {glyphs}\n", manifest)
    (folder / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (folder / "rules.rcl").write_text(
        (REPO / "rulesets/tictactoe/rules.rcl").read_text(encoding="utf-8"), encoding="utf-8"
    )
    errors = [d for d in check_ruleset(folder).diagnostics if d.severity.name == "ERROR"]
    assert not errors if ok else errors
    for error in errors:  # located in the manifest, on the glyphs line
        assert error.span.file.endswith("ruleset.yaml") and error.span.line > 1


def _hex_board(width: int, height: int) -> dict[str, Any]:
    spaces = [
        {
            "id": f"{q},{r}",
            "x": q,
            "y": r,
            "terrain": "hill" if (q + r) % 3 == 0 else "plain",
            "pieces": [{"id": f"tok#{q}", "name": f"Token {q}", "owner": None}]
            if (q, r) == (width - 1, height - 1)
            else [],
        }
        for r in range(height)
        for q in range(width)
    ]
    return {"kind": "hex", "width": width, "height": height, "spaces": spaces}


@pytest.mark.parametrize(("width", "height", "columns"), [(10, 8, 80), (10, 8, 40), (26, 12, 80)])
def test_a_hex_map_fits_the_width_and_every_cell_sits_under_its_coordinates(
    width: int, height: int, columns: int
) -> None:
    # Issue 16: "Waste Knights' map is 260 columns wide while moves are offered as `5,2`".
    drawing = draw_map(_hex_board(width, height), width=columns)
    grid = drawing.grid
    assert all(len(line) <= columns for line in grid)
    header, rows = grid[0], grid[1 : height + 1]
    for r, line in enumerate(rows):
        assert line.split()[0] == str(r)  # the row label is r
    # The cell of (q, r) starts where row r's shift puts column q, and the top label of
    # column q sits over row 0's cell q: so q is read off the top, r off the side.
    first = [m.start() for m in re.finditer(r"\S+", header)]
    pitch = first[1] - first[0]
    for r, line in enumerate(rows):
        for q in range(width):
            start = first[q] + r * pitch // 2
            assert line[start] != " ", (q, r, line)


def test_hex_neighbours_on_the_drawing_are_neighbours_on_the_map() -> None:
    drawing = draw_map(_hex_board(4, 3), width=80)
    row0, row1 = drawing.grid[1], drawing.grid[2]
    # (1,0) and its down-left neighbour (0,1) and down-right neighbour (1,1): the cell of
    # row 1 starts half a pitch right of row 0's, between two cells of row 0.
    cells0 = [m.start() for m in re.finditer(r"\S+", row0)][1:]
    cells1 = [m.start() for m in re.finditer(r"\S+", row1)][1:]
    assert cells0[0] < cells1[0] < cells0[1]


def test_waste_knights_map_command_has_coordinates_legend_and_the_knights(
    radlands_turn: str,
) -> None:
    session = engine_session("waste_knights", {0: "human", 1: "random"}, width=80)
    for _ in range(4):  # the knight, three gear cards: the knights are on the map then
        session.handle("1")
    mark = len(output(session))
    out = feed(session, ["map"])[mark:]
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert any(line.split() == [str(q) for q in range(10)] for line in lines)
    assert "Legend:" in out and "Port Rust:" in out
    assert "@1" in out and "Player 1 (hex)" in out


# -- "choose by label or a unique prefix; option numbers that match the shown ids" -------------


def test_b1_chooses_act_place_b1() -> None:
    # Issue 16: "`b1` is refused; only `act:place:b1` works".
    session = engine_session("tictactoe", {0: "human", 1: "human"})
    feed(session, ["b1", "Place a mark: c1", "place a mark: A2", "act:place:b3"])
    assert session.game.to_json()["choices"] == [
        "act:place:b1",
        "act:place:c1",
        "act:place:a2",
        "act:place:b3",
    ]


def test_tab_completes_the_short_ids_people_type() -> None:
    session = engine_session("tictactoe", {0: "human", 1: "human"})
    words = session.completion_words()
    assert "b1" in words and "act:place:b1" in words and "help" in words


def test_a_unique_prefix_chooses_and_an_ambiguous_one_lists_the_candidates() -> None:
    session = make_session({0: "human", 1: "human"})
    before = session.game.to_json()
    out = feed(session, ["p"])  # Play ..., Pass: ambiguous
    assert "'p' fits" in out and "Pass" in out
    assert session.game.to_json() == before
    feed(session, ["dra"])
    assert session.game.to_json()["choices"] == ["draw"]


def _replay(choices: list[str]) -> Session:
    session = engine_session("tictactoe", {0: "human", 1: "human"})
    feed(session, choices)
    return session


def test_every_shown_number_chooses_the_id_shown_next_to_it() -> None:
    # Issue 16: "option numbers that match the shown ids".
    moves = ["b2", "a1"]
    shown = shown_options(output(_replay(moves)))
    assert [n for n, _ in shown] == list(range(1, 8))
    for number, option_id in shown:
        session = _replay(moves)
        session.handle(str(number))
        assert session.game.to_json()["choices"][-1] == option_id


# -- "bot narration on the right seat and saying what happened" --------------------------------


def test_radlands_bot_lines_carry_no_seat_tag(radlands_turn: str) -> None:
    # Issue 16: "`[seat 2 mcts] Player 1 draws ...`, `[seat 2 random] moved`".
    assert "[seat" not in radlands_turn and " moved" not in radlands_turn
    assert "Player 2: End turn" in radlands_turn


class _Gambler:
    """Gambles, then backs off (a choice the log does not tell), then passes."""

    name = "gambler"

    def __init__(self) -> None:
        self.backed_off = False

    def choose(self, game: Any) -> str:
        ids = game.decision.ids
        if "back" in ids:
            self.backed_off = True
            return "back"
        return "pass" if self.backed_off else "gamble"


def test_a_move_the_log_does_not_tell_is_told_by_its_label() -> None:
    session = make_session(agent_factory=lambda spec, seed: _Gambler())
    out = feed(session, ["pass"])
    assert "Seat 2 considers a gamble." in out
    assert "Seat 2 (first) chose: Back off" in out


class _SecretGame(FakeGame):
    """The back-off option of seat 2 names a card in seat 2's hidden hand."""

    @property
    def decision(self) -> Decision | None:
        decision = super().decision
        if decision is None or decision.seat != 1 or not self.gambling:
            return decision
        secret = self.catalog[self.hands[1][0]].name
        options = tuple(
            Option(o.id, f"Back off, keep {secret}") if o.id == "back" else o
            for o in decision.options
        )
        return Decision(decision.seat, decision.prompt, options)


class _SecretSource(FakeSource):
    def new_game(self, players: int | None, seed: int, lang: str | None) -> FakeGame:
        return _SecretGame(players or 2, seed, lang or "en")


def test_an_untold_label_naming_a_hidden_card_is_replaced_by_the_prompt() -> None:
    source = _SecretSource()
    game = source.new_game(2, 3, "en")
    console = Console(file=StringIO(), width=100, color_system=None)
    agents: dict[str, Agent] = {}
    session = Session(
        source,
        game,
        {0: "human", 1: "first"},
        console,
        seed=3,
        agent_factory=lambda spec, seed: agents.setdefault(spec, _Gambler()),
    )
    session.start()
    hidden = game.catalog[game.hands[1][0]].name
    out = feed(session, ["pass"])
    assert 'Seat 2 (first) answered "Roll the die?"' in out
    assert hidden not in out and "keep" not in out


# -- "the header names the seat that decides" ----------------------------------------------------


def test_the_header_names_the_deciding_seat_during_setup() -> None:
    # Issue 16: "`turn 0, round 0 | active: 2` during seat 1's setup choice".
    session = engine_session("waste_knights", {0: "human", 1: "random"})
    out = output(session)
    decision = session.game.decision
    assert decision is not None and decision.seat == 0
    assert session.game.view(0)["active"] == 1  # the state's active seat is seat 2's
    assert "turn 0, round 0 | seat 1 (Player 1) decides" in out
    assert "active" not in out


def test_every_screen_header_names_the_seat_of_its_options() -> None:
    session = make_session({0: "human", 1: "human"})
    out = feed(session, ["pass", "pass", "draw"])
    headers = re.findall(r"\| seat (\d) \(Player \d\) decides", out)
    prompts = re.findall(r"^Seat (\d) \(Player \d\): ", out, re.MULTILINE)
    assert headers == prompts and headers == ["1", "2", "1", "2"]


# -- "the REPL's own words in the chosen --lang" -------------------------------------------------


def test_a_german_game_has_german_menus() -> None:
    # Issue 16: "German game text under English menus today".
    session = make_session({0: "human", 1: "human"}, lang="de")
    out = feed(session, ["pass", "hilfe", "help", "99"])
    assert "Seit deiner letzten Entscheidung:" in out
    assert "Platz 2 (Spieler 2) entscheidet" in out and "Platz 2 (Spieler 2): Wähle" in out
    assert "Unbekannter Befehl oder Option 'hilfe'." in out
    assert "die Befehle zeigen" in out and "Es gibt keine Option 99" in out
    assert "Since your last decision" not in out and "Unknown command" not in out


def test_radlands_defaults_to_its_first_language_for_the_menus_too() -> None:
    session = engine_session("radlands", {0: "human", 1: "random"}, lang=None)
    out = output(session)
    assert "Platz 1 (Player 1) entscheidet" in out and "Lager wählen" in out


def _catalogue_keys_used() -> Iterator[str]:
    sources = (REPO / "src/rulecraft/repl").glob("*.py")
    pattern = re.compile(r"""(?:self\.text|say|session\.text)\(\s*["']([a-z_.]+)["']""")
    for path in sources:
        yield from pattern.findall(path.read_text(encoding="utf-8"))


def test_the_catalogue_has_every_message_in_every_language_with_the_same_fields() -> None:
    for key, texts in messages.CATALOGUE.items():
        assert set(texts) == set(messages.LANGUAGES), key
        fields = {lang: messages.fields(text) for lang, text in texts.items()}
        assert len({frozenset(f) for f in fields.values()}) == 1, (key, fields)
    used = set(_catalogue_keys_used())
    assert len(used) > 40
    assert used <= set(messages.CATALOGUE), used - set(messages.CATALOGUE)
    for key in used:  # and every text formats with its own fields
        for text in messages.CATALOGUE[key].values():
            names = messages.fields(text)
            assert string.Formatter().format(text, **dict.fromkeys(names, "x"))


def test_no_secret_appears_in_german_either() -> None:
    session = make_session(seed=3, lang="de")
    out = feed(session, ["pass", "state", "log 50"])
    assert f"{SECRET_PREFIX}2" not in out


# -- "saying what happened": "Molotov Cocktail (broken) turns to broken" -----------------------

FLIP_MANIFEST = """\
rulecraft: 1
name: flipper
title: "Flipper"
players: {min: 2, max: 2}
files: [rules.rcl]
kinds:
  card:
    sides: [working, broken]
zones:
  deck: {per: player, visibility: public}
components:
  - {kind: card, zone: deck}
flow:
  phases:
    - name: main
      actions: [play]
      max: 1
"""

FLIP_RULES = """\
card knife "Knife":
    copies: 1

action play "Play":
    flip first(you.deck) to broken
    flip first(you.deck) to broken
"""


def test_a_card_already_on_a_side_does_not_turn_to_it_in_the_log(tmp_path: Path) -> None:
    (tmp_path / "ruleset.yaml").write_text(FLIP_MANIFEST, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(FLIP_RULES, encoding="utf-8")
    game = rulecraft.load(str(tmp_path)).new_game(seed=1)
    game.choose("act:play")
    turns = [line for line in game.log_for(0) if "turns to" in line]
    assert turns == ["Knife turns to broken"]


# -- the solver's hook (rulecraft.tools.solver.repl_solve) -------------------------------------


def test_solve_answers_in_one_message_and_leaves_the_game_as_it_was() -> None:
    session = engine_session("tictactoe", {0: "human", 1: "human"})
    before = session.game.to_json()
    mark = len(output(session))
    out = feed(session, ["solve", "solve not an expression ((("])[mark:]
    assert "Cannot solve" in out  # Tic-Tac-Toe: the other seat decides next
    assert session.game.to_json() == before and session.running
    fake = make_session({0: "human", 1: "human"})
    fake_before = fake.game.to_json()
    assert "Cannot solve" in feed(fake, ["solve"]) and fake.game.to_json() == fake_before


def test_odds_answers_for_the_options_that_would_roll() -> None:
    """'the REPL's odds answers for the options of the pending decision that would roll
    (today it says "No roll or test is pending." on games whose rolls never pause)'
    (issue 10). Dig's push rolls three dig dice (one hazard face of six on each)."""
    session = engine_session("dig", {0: "human", 1: "random"}, seed=3)
    out = typed(session, ["odds"]).split("seat 1> odds\n", 1)[1]
    assert "1. Dig on (0.46% to bust): rolls 3 dig" in out
    assert "   hazard: 0 57.87%, 1 34.72%, 2 6.94%, 3 0.46%" in out
    assert "No roll or test is pending" not in out
