"""Balance reports: start positions, shared vs co-op wins, scores, per-card statistics,
the HTML and JSON files, and the Ray backend giving the local backend's report."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rulecraft.cli.main import main
from rulecraft.runtime.decision import Result
from rulecraft.tools.balance import (
    GameFacts,
    card_choice,
    card_stats,
    count_cards,
    position_stats,
    score_stats,
)
from rulecraft.tools.report import render_html
from rulecraft.tools.simulate import RulesetGameFactory, simulate

from .fakegames import Countdown, CountdownFactory


def _facts(
    winners: tuple[int, ...],
    start: int | None = 0,
    cards: tuple[tuple[int, str], ...] = (),
    scores: tuple[float, ...] = (),
    draw: bool = False,
) -> GameFacts:
    return GameFacts(2, winners, draw, start, scores, count_cards(cards))


def test_card_choices_are_read_from_option_ids() -> None:
    assert card_choice("act:play:scout#12") == ("play", "scout")
    assert card_choice("ab:water_tank#2:1") == ("ability", "water_tank")
    # a card the seat cannot see is offered by position: never counted
    assert card_choice("act:play:z:hand@1[3]") is None
    assert card_choice("act:target:@1") is None
    assert card_choice("pass") is None and card_choice("scout#1") is None


def test_card_stats_count_times_seat_games_and_wins() -> None:
    games = [
        # seat 1 buys gold twice and wins; seat 2 buys gold once and loses
        _facts((0,), cards=((0, "act:buy:gold#1"), (0, "act:buy:gold#2"), (1, "act:buy:gold#3"))),
        # seat 2 buys gold and wins; nobody else buys
        _facts((1,), cards=((1, "act:buy:gold#1"), (0, "act:buy:copper#1"))),
        # a draw: buying gold won nothing
        _facts((), cards=((0, "act:buy:gold#4"),), draw=True),
    ]
    stats = {(c.card, c.action): c for c in card_stats(games)}
    gold = stats[("gold", "buy")]
    assert (gold.times, gold.seat_games, gold.wins) == (5, 4, 2)
    assert gold.win_rate()[0] == 0.5
    copper = stats[("copper", "buy")]
    assert (copper.times, copper.seat_games, copper.wins) == (1, 1, 0)
    assert [c.card for c in card_stats(games)] == ["gold", "copper"]  # most chosen first
    assert copper.to_json()["wilson95"][0] == 0.0


def test_positions_count_from_the_start_seat() -> None:
    games = [_facts((1,), start=1), _facts((1,), start=0), _facts((0,), start=1), _facts(())]
    stats = position_stats(games, 2)
    assert stats is not None
    # seat 2 started and won (position 1), seat 2 won from position 2, seat 1 from 2
    assert stats.games == 4 and stats.wins == (1, 2)
    assert stats.to_json()[0]["position"] == 1
    assert position_stats([_facts((0,), start=None)], 2) is None


def test_score_stats_per_seat() -> None:
    games = [_facts((0,), scores=(10, 4)), _facts((1,), scores=(6, 8))]
    first, second = score_stats(games, 2)
    assert (first.seat, first.mean, first.min, first.max) == (0, 8.0, 6, 10)
    assert second.to_json()["seat"] == 2 and second.mean == 6.0
    assert score_stats([_facts((0,))], 2) == ()


class SharedCountdown(Countdown):
    """A competitive Countdown where the last two movers share the victory, from a
    ruleset whose ends are all 'winner' (not co-op)."""

    program = SimpleNamespace(end_conditions=(SimpleNamespace(outcome="winner"),))

    @property
    def result(self) -> Result | None:
        if self.state["counter"] > 0:
            return None
        last = self.state["to_move_prev"]
        return Result(winners=tuple(sorted({last, (last - 1) % self.num_players})))


@dataclass(frozen=True)
class SharedCountdownFactory:
    def __call__(self, seed: int) -> SharedCountdown:
        return SharedCountdown(start=8 + seed % 7, players=3)


class CoopCountdown(Countdown):
    """Countdown in co-op mode, from a ruleset that declares an all_win end."""

    program = SimpleNamespace(end_conditions=(SimpleNamespace(outcome="all_win"),))


@dataclass(frozen=True)
class CoopCountdownFactory:
    def __call__(self, seed: int) -> CoopCountdown:
        return CoopCountdown(start=8 + seed % 7, players=3, coop=True)


def test_a_shared_victory_is_not_a_coop_win() -> None:
    report = simulate(SharedCountdownFactory(), 30, ["random"], seed=0)
    assert report.shared_wins == 30 and report.coop_wins == 0 and report.solo_wins == 0
    assert sum(report.wins) == 60
    assert report.to_json()["shared_wins"] == 30


def test_a_cooperative_ruleset_wins_together() -> None:
    report = simulate(CoopCountdownFactory(), 30, ["random"], seed=0)
    assert report.coop_wins > 0 and report.shared_wins == 0
    assert report.coop_wins + report.no_winner == 30
    # without a program to read, every seat winning is a co-op win (the old rule)
    plain = simulate(CountdownFactory(players=3, coop=True), 30, ["random"], seed=0)
    assert plain.coop_wins == report.coop_wins


def test_sparks_report_has_cards_positions_and_lengths() -> None:
    report = simulate(RulesetGameFactory("sparks"), 24, ["random"], seed=5)
    assert report.finished == 24 and report.players == 2
    assert report.positions is not None and sum(report.positions.wins) == sum(report.wins)
    assert sum(count for _, count in report.length_counts) == 24
    assert report.cards, "sparks plays creatures and spells through actions"
    for card in report.cards:
        assert card.seat_games <= card.times and card.seat_games <= 2 * 24
        assert card.wins <= card.seat_games
    data = report.to_json()
    assert [w["seat"] for w in data["wins"]] == [1, 2]
    assert data["cards"][0]["times"] == max(c.times for c in report.cards)


def test_players_default_comes_from_the_manifest() -> None:
    import rulecraft

    program = rulecraft.load("waste_knights").program
    game = RulesetGameFactory("waste_knights")(0)
    assert game.num_players == program.default_players


def test_html_report_has_every_section_and_plots(tmp_path: Path) -> None:
    report = simulate(RulesetGameFactory("sparks"), 12, ["random"], seed=1)
    page = render_html(report, "sparks")
    for heading in (
        "Wins per seat",
        "Wins by start position",
        "Game length",
        "Cards",
    ):
        assert f"<h2>{heading}</h2>" in page
    assert page.count('src="data:image/png;base64,') == 4  # seats, positions, lengths, cards
    assert "<td>1</td><td>random</td>" in page  # seats numbered from 1
    assert render_html(report, "sparks") == page  # same data, same bytes


def test_cli_writes_json_and_html_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html_file, json_file = tmp_path / "r.html", tmp_path / "r.json"
    argv = ["simulate", "sparks", "-n", "6", "--workers", "1", "--seed", "2"]
    code = main([*argv, "--report", str(html_file), "--json", str(json_file)])
    captured = capsys.readouterr()
    assert code == 0
    assert "6 games of sparks" in captured.out  # the terminal summary stays
    data: dict[str, Any] = json.loads(json_file.read_text(encoding="utf-8"))
    assert data["games"] == 6 and data["wins"][0]["seat"] == 1
    assert "<h2>Cards</h2>" in html_file.read_text(encoding="utf-8")
    assert f"written to {html_file}" in captured.err


def test_cli_address_needs_the_ray_backend(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "sparks", "-n", "1", "--address", "auto"])
    assert code == 2
    assert "--address needs --backend ray" in capsys.readouterr().err


@pytest.fixture(scope="module")
def local_ray() -> Any:
    import ray  # the dev extra has it: these tests run in make test

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.xdist_group("ray")  # one worker, one local Ray instance
def test_ray_backend_gives_the_local_report(local_ray: Any, tmp_path: Path) -> None:
    factory = RulesetGameFactory("sparks")
    progress: list[int] = []
    local = simulate(factory, 40, ["random", "greedy"], seed=9, workers=2, chunk_size=3)
    remote = simulate(
        factory,
        40,
        ["random", "greedy"],
        seed=9,
        chunk_size=3,
        backend="ray",
        progress=lambda done, total: progress.append(done),
    )
    assert remote == local
    assert remote.to_json() | {"elapsed_s": 0} == local.to_json() | {"elapsed_s": 0}
    assert render_html(remote, "sparks") == render_html(local, "sparks")
    # progress streams batch by batch (14 batches of at most 3 games)
    assert progress == sorted(progress) and progress[-1] == 40 and len(progress) == 14


@pytest.mark.xdist_group("ray")
def test_ray_backend_from_the_cli(local_ray: Any, tmp_path: Path) -> None:
    out = tmp_path / "ray.json"
    argv = ["simulate", "tictactoe", "-n", "20", "--seed", "4", "--json", str(out)]
    assert main([*argv, "--backend", "ray", "--errors-dir", str(tmp_path)]) == 0
    local = tmp_path / "local.json"
    argv_local = ["simulate", "tictactoe", "-n", "20", "--seed", "4", "--json", str(local)]
    assert main([*argv_local, "--workers", "1", "--errors-dir", str(tmp_path)]) == 0
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (out, local))
    assert a | {"elapsed_s": 0} == b | {"elapsed_s": 0}
    assert re.fullmatch(r"[\d.]+", str(a["elapsed_s"]))


SCORED = Path(__file__).parent / "fixtures" / "scored"


def _play(pattern: list[int]) -> Any:
    import rulecraft

    game = rulecraft.load(str(SCORED)).new_game(seed=1)
    n = 0
    while game.result is None:
        game.choose(game.legal_ids()[pattern[n % len(pattern)]])
        n += 1
    return game.result


def test_manifest_score_fills_result_scores() -> None:
    # seat 1 takes 2 points each turn, the others 1: 6, 3, 3 points, scored x10
    result = _play([1, 0, 0])
    assert result.winners == (0,)
    assert result.scores == {0: 60.0, 1: 30.0, 2: 30.0}
    assert result.to_json()["scores"] == {"0": 60.0, "1": 30.0, "2": 30.0}


def test_a_ruleset_without_score_gives_no_scores() -> None:
    import rulecraft

    game = rulecraft.load("tictactoe").new_game(seed=1)
    for cell in ("a1", "b1", "a2", "b2", "a3"):
        game.choose(f"act:place:{cell}")
    assert game.result is not None and game.result.scores == {}


def test_scored_ruleset_simulates_with_default_players_scores_and_shared_wins(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = simulate(RulesetGameFactory(str(SCORED)), 60, ["random"], seed=0)
    assert report.players == 3  # players.default, not 2
    assert report.coop_wins == 0  # a tie for the most points is shared, not co-op
    assert report.shared_wins > 0 and report.solo_wins > 0
    assert [s.seat for s in report.scores] == [0, 1, 2]
    assert all(30 <= s.min <= s.mean <= s.max <= 60 for s in report.scores)
    out = tmp_path / "scored.json"
    code = main(["simulate", str(SCORED), "-n", "12", "--workers", "1", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "mean final score: seat 1" in text and "shared wins" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["players"] == 3 and [s["seat"] for s in data["scores"]] == [1, 2, 3]


def test_a_misspelt_score_is_a_located_error(tmp_path: Path) -> None:
    import shutil

    import rulecraft

    folder = tmp_path / "bad"
    shutil.copytree(SCORED, folder)
    manifest = folder / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("you.points * 10", "you.points * * 10"),
        encoding="utf-8",
    )
    with pytest.raises(rulecraft.RulesetError) as caught:
        rulecraft.load(str(folder))
    line = next(
        i
        for i, text in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1)
        if text.startswith("score:")
    )
    assert f"ruleset.yaml:{line}:" in str(caught.value)
