"""`rulecraft simulate RULESET`: play many bot games and summarise wins, lengths, errors.

    rulecraft simulate RULESET -n 1000 --agents random,mcts --seed 7 --workers 2
    rulecraft simulate RULESET -n 10000 --report balance.html --json balance.json
    rulecraft simulate RULESET -n 100000 --backend ray --address auto

The terminal summary is the default; ``--json`` prints the report as JSON (``--json FILE``
writes it to FILE instead), ``--report FILE.html`` writes the balance report with plots
(:mod:`rulecraft.tools.report`).  Seats are numbered from 1 in every output.

Exit codes: 0 every game finished, 1 some game raised or ran past its bound (each has a
replay file in ``--errors-dir``), 2 usage error or a ruleset that cannot be loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rulecraft.bots.agents import make_agent
from rulecraft.runtime.protocols import GameLike
from rulecraft.tools.balance import rate as wilson_rate
from rulecraft.tools.simulate import (
    BACKENDS,
    DEFAULT_ERRORS_DIR,
    LengthStats,
    ProgressCallback,
    RulesetGameFactory,
    SimulationReport,
    simulate,
    write_json_atomic,
)


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        help="play many bot games and report win rates, game lengths and errors",
        description="Play many games with bots (one spec per seat, or one for all seats): "
        "random, greedy, mcts, mcts:<iterations>, mcts:<seconds>s, with optional /d<rollout "
        "depth> and /w<iterations per determinization>, e.g. mcts:100/d30.",
    )
    p.add_argument("ruleset", help="ruleset name or path")
    p.add_argument("-n", "--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument(
        "--agents",
        default="random",
        help="comma-separated agent specs per seat, e.g. random,mcts:500 (default random)",
    )
    p.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    p.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to use (default: all cores; 1 runs in-process)",
    )
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats per game (default: the ruleset's players.default)",
    )
    p.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help="the report as JSON: printed, or written to FILE",
    )
    p.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="FILE.html",
        help="write the balance report (win rates, positions, lengths, cards, plots) as HTML",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local processes (default) or Ray tasks (needs rulecraft[ray])",
    )
    p.add_argument(
        "--address",
        default=None,
        help="the Ray cluster to join (e.g. auto, ray://head:10001); default: a local Ray "
        "instance with --workers CPUs",
    )
    p.add_argument(
        "--errors-dir",
        type=Path,
        default=DEFAULT_ERRORS_DIR,
        help=f"where replay files of failed games go (default ./{DEFAULT_ERRORS_DIR}/)",
    )
    p.set_defaults(func=run)


def make_factory(ruleset: str, players: int | None) -> Callable[[int], GameLike]:
    """The game factory for a ruleset (a seam for tests)."""
    return RulesetGameFactory(ruleset, players)


def _usage(message: str) -> int:
    print(f"rulecraft simulate: {message}", file=sys.stderr)
    return 2


@contextmanager
def _progress_bar(total: int) -> Iterator[ProgressCallback | None]:
    """A rich progress bar on stderr when it is a terminal, else no callback."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def run(args: argparse.Namespace) -> int:
    specs = [s.strip() for s in str(args.agents).split(",") if s.strip()]
    if not specs:
        return _usage("--agents needs at least one spec")
    if args.games < 0:
        return _usage("-n must be >= 0")
    if args.workers < 1:
        return _usage("--workers must be >= 1")
    if args.players is not None and args.players < 1:
        return _usage("--players must be >= 1")
    if args.address is not None and args.backend != "ray":
        return _usage("--address needs --backend ray")
    try:
        for spec in specs:
            make_agent(spec, 0)
    except ValueError as exc:
        return _usage(str(exc))
    factory = make_factory(args.ruleset, args.players)
    try:
        with _progress_bar(args.games) as progress:
            report = simulate(
                factory,
                args.games,
                specs,
                seed=args.seed,
                workers=args.workers,
                progress=progress,
                errors_dir=args.errors_dir,
                backend=args.backend,
                address=args.address,
            )
    except Exception as exc:
        # games' own failures are inside the report: what escapes is the setup (loading
        # the ruleset, agent count vs seats), which is the user's to fix
        return _usage(f"cannot simulate {args.ruleset!r}: {exc}")
    return _output(report, args)


def _output(report: SimulationReport, args: argparse.Namespace) -> int:
    """Print or write the report in the forms asked for; the exit code."""
    if args.report is not None:
        from rulecraft.tools.report import write_html

        try:
            write_html(report, args.report, title=args.ruleset)
        except ImportError as err:
            return _usage(f"--report needs matplotlib (pip install 'rulecraft[plot]'): {err}")
        print(f"balance report written to {args.report}", file=sys.stderr)
    if args.json == "-":
        print(json.dumps(report.to_json(), indent=2))
    else:
        if args.json is not None:
            write_json_atomic(Path(args.json), report.to_json())
            print(f"JSON report written to {args.json}", file=sys.stderr)
        render_report(report, Console(), args.ruleset)
    return 1 if report.errors else 0


def _lengths_row(name: str, stats: LengthStats) -> tuple[str, ...]:
    return (
        name,
        f"{stats.mean:.1f}",
        f"{stats.median:g}",
        f"{stats.p90:g}",
        str(stats.max),
    )


def render_report(report: SimulationReport, console: Console, title: str = "") -> None:
    """The readable summary: wins per seat with rates and 95% Wilson intervals, other
    outcomes, length distributions and errors with their replay files."""
    heading = f"{report.games} games of {title}" if title else f"{report.games} games"
    console.print(
        f"{heading}, seeds {report.seed}..{report.seed + report.games - 1}, "
        f"{report.elapsed_s:.1f} s"
    )
    wins = Table(title="Wins (rate over finished games, 95% Wilson interval)")
    for column in ("seat", "agent", "wins", "rate", "95% interval"):
        wins.add_column(column, justify="left" if column == "agent" else "right")
    for seat, count in enumerate(report.wins):
        rate, low, high = report.win_rate(seat)
        wins.add_row(
            str(seat + 1),
            report.agents[seat],
            str(count),
            f"{rate:.1%}",
            f"{low:.1%} - {high:.1%}",
        )
    console.print(wins)
    shared = f", shared wins {report.shared_wins}" if report.shared_wins else ""
    console.print(
        f"finished {report.finished}, draws {report.draws}, co-op wins {report.coop_wins}"
        f"{shared}, no winner {report.no_winner}, errors {len(report.errors)}"
    )
    _render_extras(report, console)
    start = report.start_player
    if start is not None:
        rate, low, high = start.rate_decided()
        rate_all, low_all, high_all = start.rate_all()
        console.print(
            f"start player won {start.wins} of {start.decided} decided games: {rate:.1%} "
            f"(95% {low:.1%} - {high:.1%}); of all {start.games} finished games: "
            f"{rate_all:.1%} (95% {low_all:.1%} - {high_all:.1%}); "
            "starts: " + ", ".join(f"seat {i + 1} {n}" for i, n in enumerate(start.starts))
        )
    if report.finished:
        lengths = Table(title="Game length")
        for column in ("measure", "mean", "median", "p90", "max"):
            lengths.add_column(column, justify="left" if column == "measure" else "right")
        lengths.add_row(*_lengths_row("decisions", report.decisions))
        if report.rounds is not None:
            lengths.add_row(*_lengths_row("rounds", report.rounds))
        console.print(lengths)
    for error in report.errors:
        last = error.error.strip().splitlines()[-1] if error.error.strip() else "error"
        where = f" (replay: {error.replay_file})" if error.replay_file else ""
        console.print(f"error in game seed {error.seed}: {last}{where}", markup=False)


def _render_extras(report: SimulationReport, console: Console) -> None:
    """Start positions and scores, one line each, when the games give them."""
    if report.positions is not None and report.players > 1:
        games = report.positions.games
        parts = []
        for i, won in enumerate(report.positions.wins):
            rate, low, high = wilson_rate(won, games)
            parts.append(f"{i + 1}: {rate:.1%} ({low:.1%} - {high:.1%})")
        console.print(f"wins by start position (of {games}): " + "; ".join(parts), markup=False)
    if report.scores:
        text = "; ".join(
            f"seat {s.seat + 1} {s.mean:.2f} (sd {s.stdev:.2f}, {s.min:g} - {s.max:g})"
            for s in report.scores
        )
        console.print(f"mean final score: {text}", markup=False)
    if report.cards:
        console.print(f"{len(report.cards)} card statistics: see --json or --report", markup=False)
