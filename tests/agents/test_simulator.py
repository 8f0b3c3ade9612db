"""The simulator: counts add up, workers do not change the report, errors replay."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from rulecraft.bots.agents import DecisionLimitExceeded, RandomAgent, play_game
from rulecraft.tools import simulate as simulator_module
from rulecraft.tools.simulate import (
    LengthStats,
    RulesetGameFactory,
    StartPlayerStats,
    game_start_seat,
    load_replay,
    replay_choices,
    seat_specs,
    simulate,
    wilson_interval,
    write_json_atomic,
)

from .fakegames import (
    CountdownFactory,
    CrashingNimFactory,
    EndlessFactory,
    HiddenDuelFactory,
    NimFactory,
    StartingNimFactory,
    StartingTicTacToeFactory,
    TicTacToeFactory,
)


def test_doctests() -> None:
    failures, tried = doctest.testmod(simulator_module)
    assert tried > 0 and failures == 0


def test_counts_add_up(tmp_path: Path) -> None:
    report = simulate(HiddenDuelFactory(), 60, ["random", "greedy"], seed=5, errors_dir=tmp_path)
    assert report.games == 60 and report.finished == 60 and not report.errors
    assert report.agents == ("random", "greedy") and report.players == 2
    assert sum(report.wins) + report.draws + report.no_winner == 60
    assert report.coop_wins == 0
    assert report.decisions.count == 60
    # every duel plays all 8 cards: one decision each
    assert report.decisions.max == report.decisions.median == 8
    assert report.rounds is None
    assert list(tmp_path.iterdir()) == []


def test_greedy_beats_random_in_the_duel(tmp_path: Path) -> None:
    # banking odd cards doubles them: greedy sees it, random banks evens half the time
    report = simulate(HiddenDuelFactory(), 80, ["greedy", "random"], seed=0, errors_dir=None)
    rate, low, _ = report.win_rate(0)
    assert rate > 0.7 and low > 0.5


def test_coop_wins_and_losses_are_counted() -> None:
    report = simulate(CountdownFactory(players=3, coop=True), 40, ["random"], seed=1)
    assert report.players == 3 and report.agents == ("random",) * 3
    assert report.coop_wins > 0 and report.no_winner > 0
    assert report.coop_wins + report.no_winner == 40
    assert report.wins == (report.coop_wins,) * 3


def test_rounds_are_reported_when_the_game_has_them() -> None:
    report = simulate(NimFactory(), 30, ["random"], seed=0)
    assert report.rounds is not None and report.rounds.count == 30
    assert report.rounds.max <= report.decisions.max


def test_random_tic_tac_toe_rates_match_the_known_values() -> None:
    # random playouts end .585 / .288 / .127 (first / second / draw): a check on the loop
    report = simulate(TicTacToeFactory(), 3000, ["random"], seed=0)
    assert abs(report.wins[0] / 3000 - 0.585) < 0.035
    assert abs(report.wins[1] / 3000 - 0.288) < 0.035
    assert abs(report.draws / 3000 - 0.127) < 0.035


def test_two_workers_give_the_same_report(tmp_path: Path) -> None:
    progress: list[tuple[int, int]] = []
    one = simulate(
        CrashingNimFactory(), 24, ["random", "mcts:10"], seed=3, workers=1, errors_dir=tmp_path
    )
    two = simulate(
        CrashingNimFactory(),
        24,
        ["random", "mcts:10"],
        seed=3,
        workers=2,
        errors_dir=tmp_path,
        progress=lambda done, total: progress.append((done, total)),
    )
    assert one == two
    assert one.to_json() | {"elapsed_s": 0} == two.to_json() | {"elapsed_s": 0}
    assert progress[-1] == (24, 24)
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)


def test_an_erroring_game_leaves_a_replay_that_reproduces_the_error(tmp_path: Path) -> None:
    factory = CrashingNimFactory()
    report = simulate(factory, 6, ["random"], seed=10, errors_dir=tmp_path / "errs")
    assert [e.seed for e in report.errors] == [10, 12, 14]  # the even seeds crash
    assert report.finished == 3 and sum(report.wins) == 3
    error = report.errors[0]
    assert "RuntimeError: rule bug reached by" in error.error
    assert error.replay_file is not None
    data = load_replay(Path(error.replay_file))
    assert data["seed"] == 10 and data["players"] == 2 and data["agents"] == ["random", "random"]
    assert data["error"] == error.error and len(data["choices"]) == 3
    last_line = error.error.strip().splitlines()[-1]
    with pytest.raises(RuntimeError) as caught:
        replay_choices(factory, data["seed"], data["choices"])
    assert f"RuntimeError: {caught.value}" == last_line
    # no temporary files left behind by the atomic writes
    assert sorted(p.name for p in (tmp_path / "errs").iterdir()) == [
        "seed-10.json",
        "seed-12.json",
        "seed-14.json",
    ]


def test_a_game_past_its_bound_is_an_error(tmp_path: Path) -> None:
    report = simulate(EndlessFactory(), 2, ["random"], seed=0, errors_dir=tmp_path)
    assert len(report.errors) == 2 and report.finished == 0
    assert "DecisionLimitExceeded" in report.errors[0].error
    data = load_replay(tmp_path / "seed-0.json")
    assert len(data["choices"]) == 30
    with pytest.raises(DecisionLimitExceeded):
        replay_choices(EndlessFactory(), 0, data["choices"])
    # the same choices minus one are still within the bound
    replay_choices(EndlessFactory(), 0, data["choices"][:-1])


def test_replay_of_a_finished_game_reaches_its_result() -> None:
    factory = NimFactory()
    played = play_game(factory(7), [RandomAgent(1), RandomAgent(2)])
    assert replay_choices(factory, 7, played.choices).result == played.result


def test_seat_specs_and_bad_specs() -> None:
    assert seat_specs(["random", "mcts"], 2) == ("random", "mcts")
    with pytest.raises(ValueError, match="3 seats"):
        seat_specs(["random", "mcts"], 3)
    with pytest.raises(ValueError, match="3 seats"):
        simulate(CountdownFactory(players=3), 2, ["random", "greedy"])
    with pytest.raises(ValueError, match="unknown agent"):
        simulate(NimFactory(), 2, ["randm"])


def test_length_stats() -> None:
    stats = LengthStats.of(list(range(1, 11)))
    assert (stats.count, stats.mean, stats.median, stats.p90, stats.max) == (10, 5.5, 5.5, 9, 10)
    assert LengthStats.of([]).count == 0


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(0.192, abs=0.002)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0


def test_atomic_write_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "x.json"
    write_json_atomic(target, {"a": 1})
    write_json_atomic(target, {"a": 2})
    assert json.loads(target.read_text()) == {"a": 2}
    assert [p.name for p in target.parent.iterdir()] == ["x.json"]


def test_ruleset_factory_is_picklable() -> None:
    import pickle

    factory = RulesetGameFactory("default", 2)
    assert pickle.loads(pickle.dumps(factory)) == factory


def test_start_player_wins_are_counted_per_game() -> None:
    # seeds 0,1 (mod 4): the start player wins; seeds 2,3 (mod 4): it loses
    report = simulate(StartingNimFactory(), 40, ["random"], seed=0)
    start = report.start_player
    assert start is not None
    assert (start.games, start.decided, start.wins) == (40, 40, 20)
    assert start.starts == (20, 20)
    rate, low, high = start.rate_decided()
    assert rate == 0.5 and low < 0.5 < high
    assert start.rate_all() == start.rate_decided()
    # seeds 0..9: 0,1,4,5,8,9 are start-player wins
    report = simulate(StartingNimFactory(), 10, ["random"], seed=0)
    assert report.start_player is not None and report.start_player.wins == 6


def test_start_player_rate_over_decided_games_leaves_draws_out() -> None:
    report = simulate(StartingTicTacToeFactory(), 300, ["random"], seed=0)
    start = report.start_player
    assert start is not None and report.draws > 0
    assert start.games == 300 and start.decided == 300 - report.draws
    assert start.wins == report.wins[0] and start.starts == (300, 0)
    assert start.rate_decided()[0] == pytest.approx(report.wins[0] / start.decided)
    assert start.rate_all()[0] == pytest.approx(report.wins[0] / 300)
    assert start.rate_all()[0] < start.rate_decided()[0]
    data = report.to_json()["start_player"]
    assert data["wins"] == start.wins and data["decided"] == start.decided
    low, high = data["wilson95_all"]
    assert low <= data["rate_all"] <= high and data["starts"] == [300, 0]


def test_start_player_is_omitted_for_games_without_start_seat() -> None:
    report = simulate(NimFactory(), 10, ["random"], seed=0)
    assert report.start_player is None
    assert "start_player" not in report.to_json()
    assert game_start_seat(NimFactory()(0)) is None
    assert game_start_seat(StartingNimFactory()(3)) == 1


def test_start_player_stats_skip_failed_games(tmp_path: Path) -> None:
    class CrashOnOddSeeds(StartingNimFactory):
        def __call__(self, seed: int):  # type: ignore[no-untyped-def]
            if seed % 2:
                raise RuntimeError("setup bug")
            return super().__call__(seed)

    report = simulate(CrashOnOddSeeds(), 8, ["random"], seed=0, errors_dir=None)
    assert len(report.errors) == 4
    assert report.start_player == StartPlayerStats(games=4, decided=4, wins=2, starts=(4, 0))


def test_start_player_rates_of_no_games() -> None:
    empty = StartPlayerStats(games=0, decided=0, wins=0, starts=(0, 0))
    assert empty.rate_decided() == (0.0, 0.0, 1.0)
