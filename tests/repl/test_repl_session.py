"""The REPL's command logic, driven line by line against the fake game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repl.fakegame import SECRET_PREFIX, SECRET_TEXT, FakeGame, LastSecretStashAgent
from repl.helpers import feed, make_session, output
from rulecraft.repl.session import COMMAND_NAMES, HINT_AGENT, Session
from rulecraft.runtime.protocols import Agent


def play_out(session: Session, answer: str = "1", limit: int = 500) -> str:
    """Answer ``answer`` (or option 1 where it is not legal) until the game ends."""
    for _ in range(limit):
        decision = session.game.decision
        if not session.running or decision is None:
            break
        session.handle(answer if answer.isdigit() or answer in decision.ids else "1")
    assert not session.running
    return output(session)


def test_a_whole_game_against_a_bot_reaches_the_result() -> None:
    session = make_session(seed=5)
    out = play_out(session)
    assert not session.running
    result = session.game.result
    assert result is not None
    assert "Game over: winner(s) seat" in out or "Game over: a draw" in out
    assert result.reason in out
    # The bot's moves were told as the log tells them, with no seat tag of the REPL's own
    # in front (issue 16: "[seat 2 mcts] Player 1 draws ..." put lines on the wrong seat).
    assert "\n  Seat 2 " in out
    assert "[seat" not in out


def test_all_human_seats_take_turns_at_the_prompt() -> None:
    session = make_session({0: "human", 1: "human"})
    assert session.prompt() == "seat 1> "
    session.handle("pass")
    assert session.prompt() == "seat 2> "
    assert "Seat 2 (Player 2): Choose an action" in output(session)


def test_help_lists_every_command() -> None:
    out = feed(make_session(), ["help"])
    for name in COMMAND_NAMES:
        assert f"\n  {name}" in out


def test_state_shows_the_view_and_options_again() -> None:
    session = make_session()
    before = output(session).count("Choose an action")
    out = feed(session, ["state"])
    assert out.count("Choose an action") == before + 1
    assert out.count("Players") == 2


def test_show_describes_visible_cards_only() -> None:
    session = make_session(seed=3)
    game = session.game
    assert isinstance(game, FakeGame)
    own = game.catalog[game.hands[0][0]]
    other = "c2s1"  # seat 2's secret card: in its hidden hand or deck at the start
    out = feed(session, [f"show {own.name}", f"show {other}", "show"])
    assert f"{own.name} ({own.kind}): {own.text}" in out
    assert f"Seat 1 sees no card called '{other}'." in out
    assert "Usage: show CARD" in out
    assert game.catalog[other].text not in out


def test_log_prints_the_last_lines() -> None:
    session = make_session({0: "human", 1: "human"})
    feed(session, ["pass", "pass", "pass"])
    mark = len(output(session))
    feed(session, ["log 2"])
    tail = output(session)[mark:]
    assert tail.splitlines() == ["Seat 2 passes.", "Seat 1 passes."]
    mark = len(output(session))
    feed(session, ["log", "log x"])
    tail = output(session)[mark:]
    assert tail.count("passes.") == 3
    assert "Usage: log [N]" in tail


def test_undo_goes_back_past_bot_moves_to_the_humans_decision() -> None:
    session = make_session(seed=2)
    start = session.game.to_json()
    session.handle("pass")  # the human passes, then the bot moves
    assert len(session.game.to_json()["choices"]) == 2
    out = feed(session, ["undo"])
    assert session.game.to_json() == start
    assert "Undid 1 decision." in out
    assert "Nothing to undo." in feed(session, ["undo"])
    assert "Usage: undo [N]" in feed(session, ["undo 0"])


def test_undo_many() -> None:
    session = make_session({0: "human", 1: "human"})
    feed(session, ["pass", "pass", "pass"])
    feed(session, ["undo 2"])
    assert session.game.to_json()["choices"] == ["pass"]


def test_odds_reports_a_pending_roll() -> None:
    session = make_session()
    out = feed(session, ["odds"])
    assert out.rstrip().endswith("No roll or test is pending, and none of your options rolls dice.")
    out = feed(session, ["gamble", "odds"])
    assert out.rstrip().endswith("d6 roll of 4+: 1/2 (50.0%)")


class _LastOption:
    name = "last"

    def choose(self, game: object) -> str:
        decision = getattr(game, "decision")  # noqa: B009
        return str(decision.options[-1].id)


def test_hint_prints_what_the_bot_would_pick() -> None:
    asked: list[str] = []

    def factory(spec: str, seed: int) -> Agent:
        asked.append(spec)
        return _LastOption()

    session = make_session({0: "human", 1: "human"}, agent_factory=factory)
    decision = session.game.decision
    assert decision is not None
    before = session.game.to_json()
    out = feed(session, ["hint"])
    assert asked == [HINT_AGENT]
    assert f"Hint ({HINT_AGENT}): {len(decision.options)}. Pass [pass]" in out
    assert session.game.to_json() == before  # asking for a hint does not move


def test_hint_reports_a_search_bots_effort() -> None:
    class Searcher(_LastOption):
        last_iterations = 0

        def choose(self, game: object) -> str:
            self.last_iterations = 200
            return super().choose(game)

    session = make_session({0: "human", 1: "human"}, agent_factory=lambda s, n: Searcher())
    assert "Pass [pass] (best after 200 simulated playouts)" in feed(session, ["hint"])


def test_hint_without_bots_says_so() -> None:
    def broken(spec: str, seed: int) -> Agent:
        raise ImportError("no bots here")

    session = make_session({0: "human", 1: "human"}, agent_factory=broken)
    assert "No hint available: no bots here" in feed(session, ["hint"])
    assert session.running


def test_quit_stops_the_session() -> None:
    session = make_session()
    out = feed(session, ["quit", "1"])
    assert not session.running
    assert out.rstrip().endswith("Bye.")


def test_bad_command_and_bad_number_do_not_stop_the_game() -> None:
    session = make_session({0: "human", 1: "human"})
    out = feed(session, ["hlep", "undoo 2", "99", "0", "stahs:c13", "frobnicate"])
    assert "Unknown command or option 'hlep'. Did you mean 'help'?" in out
    assert "Did you mean 'undo'?" in out
    assert "There is no option 99: pick 1-" in out
    assert "There is no option 0: pick 1-" in out
    assert "Unknown command or option 'frobnicate'. Type a number" in out
    assert session.running and session.game.to_json()["choices"] == []
    feed(session, ["pass"])
    assert session.game.to_json()["choices"] == ["pass"]


def test_option_ids_and_numbers_both_choose() -> None:
    session = make_session({0: "human", 1: "human"})
    decision = session.game.decision
    assert decision is not None
    feed(session, ["2", "draw"])
    assert session.game.to_json()["choices"] == [decision.options[1].id, "draw"]


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    session = make_session(seed=4)
    feed(session, ["1", "gamble"])
    saved = session.game.to_json()
    path = tmp_path / "game.json"
    out = feed(session, [f"save {path}"])
    assert f"Saved to {path}." in out
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temp file left
    data = json.loads(path.read_text())
    # One format with Game.save: the game's own save plus the seats.
    assert data["seats"] == {"1": "human", "2": "first"}
    assert {key: data[key] for key in saved} == saved
    feed(session, ["back", "pass"])
    assert session.game.to_json() != saved
    out = feed(session, [f"load {path}"])
    assert f"Loaded {path}." in out
    assert session.game.to_json() == saved
    assert session.running
    assert out.rstrip().endswith("2. Back off  [back]")


def test_load_restores_seats_from_the_file(tmp_path: Path) -> None:
    session = make_session({0: "human", 1: "human"})
    path = tmp_path / "g.json"
    feed(session, [f"save {path}"])
    data = json.loads(path.read_text())
    data["seats"]["2"] = "first"
    path.write_text(json.dumps(data))
    feed(session, ["pass", f"load {path}", "pass"])
    # Seat 2 is now a bot, so it answered at once after the human's pass.
    assert len(session.game.to_json()["choices"]) == 2
    assert session.seats == {0: "human", 1: "first"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a rulecraft save file"),
        ('{"format": "other"}', "not a rulecraft save file"),
        (None, "this save is for ruleset 'chess'"),
        (None, "the saved game is damaged"),
        (None, "bad seat number"),
        (None, "2 seats saved for a 3-player game"),
    ],
)
def test_a_corrupted_save_is_rejected_and_the_game_goes_on(
    tmp_path: Path, content: str | None, message: str
) -> None:
    session = make_session({0: "human", 1: "human"})
    path = tmp_path / "save.json"
    feed(session, ["pass", f"save {path}"])
    if content is None:
        data = json.loads(path.read_text())
        if "chess" in message:
            data["ruleset"] = "chess"
        elif "damaged" in message:
            data["choices"] = ["pass", "play:nonsense"]
        elif "seat number" in message:
            data["seats"] = {"0": "human"}
        else:
            data["players"] = 3
        content = json.dumps(data)
    path.write_text(content)
    before = session.game.to_json()
    out = feed(session, [f"load {path}"])
    assert message in out
    assert out.rstrip().endswith("The current game goes on.")
    assert session.running and session.game.to_json() == before
    feed(session, ["pass"])
    assert session.game.to_json()["choices"] == ["pass", "pass"]


def test_load_and_save_report_file_problems(tmp_path: Path) -> None:
    session = make_session()
    out = feed(session, [f"load {tmp_path / 'missing.json'}", f"save {tmp_path / 'no' / 'x.json'}"])
    assert "Could not read" in out and "Could not save to" in out
    assert "Usage: save FILE" in feed(session, ["save"])
    assert "Usage: load FILE" in feed(session, ["load"])
    assert session.running


def test_a_broken_bot_ends_the_session_with_a_message() -> None:
    class Broken:
        name = "broken"

        def choose(self, game: object) -> str:
            return "no-such-option"

    session = make_session(agent_factory=lambda spec, seed: Broken())
    feed(session, ["pass"])
    assert not session.running and session.exit_code == 1
    assert "bot at seat 2 (Player 2) (first) failed" in output(session)


def test_lang_reaches_the_game() -> None:
    session = make_session(lang="de")
    assert "Wähle eine Aktion" in output(session)


def test_bots_only_play_to_the_end_on_start() -> None:
    session = make_session({0: "first", 1: "first"})
    assert not session.running and session.game.result is not None


def test_completion_words_cover_commands_options_and_visible_cards() -> None:
    session = make_session(seed=3)
    game = session.game
    assert isinstance(game, FakeGame)
    words = session.completion_words()
    decision = game.decision
    assert decision is not None
    assert set(COMMAND_NAMES) <= set(words)
    assert set(decision.ids) <= set(words)
    assert str(len(decision.options)) in words
    cards = session.card_words()
    assert game.catalog[game.hands[0][0]].name in cards
    assert not any(game.catalog[c].name in cards for c in game.hands[1] + game.decks[1])


LINES = st.one_of(
    st.sampled_from(
        [
            *("1", "2", "3", "4", "5", "state", "log 50", "undo", "odds", "hint", "gamble"),
            *("show c2s1", "show c2s2", "show c21", "show c22", "show c23", "show c24"),
        ]
    ),
    st.integers(min_value=1, max_value=9).map(str),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 50), lines=st.lists(LINES, max_size=40))
def test_other_seats_hidden_cards_never_appear(seed: int, lines: list[str]) -> None:
    session = make_session(
        seed=seed,
        agent_factory=lambda spec, s: LastSecretStashAgent(),
        rounds=4,
        target=100,
    )
    feed(session, lines)
    out = play_out(session, "pass")
    # Only seat 2's secrets are checked: seat 1 (the human) may see its own.
    assert f"{SECRET_PREFIX}2" not in out
    assert f"{SECRET_TEXT} 2" not in out
    game = session.game
    assert isinstance(game, FakeGame)
    assert game.vaults[1]  # the bot did stash secrets: there was something to leak


def test_the_log_tells_each_seat_its_own_private_lines() -> None:
    session = make_session({0: "human", 1: "human"}, seed=3)
    game = session.game
    assert isinstance(game, FakeGame)
    drawn = game.catalog[game.decks[0][0]].name
    mark = len(output(session))
    out = feed(session, ["draw"])
    # Seat 1 reads its own line; the screen after it is seat 2's, which reads the twin.
    seat_1_news, seat_2_news = out[mark:].split("Since your last decision:")[1:]
    assert f"Seat 1 draws {drawn}." in seat_1_news and "Seat 1 draws a card." not in seat_1_news
    assert "Seat 1 draws a card." in seat_2_news and drawn not in seat_2_news
    mark = len(out)
    out = feed(session, ["log"])[mark:]  # now seat 2's turn: it reads the public twin
    assert "Seat 1 draws a card." in out and drawn not in out


def test_the_humans_own_secret_cards_are_shown() -> None:
    # The positive control for the test above: the sentinel is visible where it may be.
    out = output(make_session(seed=3))
    assert f"{SECRET_PREFIX}1-1" in out
