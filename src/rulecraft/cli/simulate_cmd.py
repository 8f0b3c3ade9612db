"""`rulecraft simulate RULESET`: play many bot games and summarise wins, lengths, errors.

    rulecraft simulate RULESET -n 1000 --agents random,mcts --seed 7 --workers 2

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

from rulecraft.interpreter.agents import make_agent
from rulecraft.interpreter.protocols import GameLike
from rulecraft.interpreter.simulator import (
    DEFAULT_ERRORS_DIR,
    LengthStats,
    ProgressCallback,
    RulesetGameFactory,
    SimulationReport,
    simulate,
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
    p.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--errors-dir",
        type=Path,
        default=DEFAULT_ERRORS_DIR,
        help=f"where replay files of failed games go (default ./{DEFAULT_ERRORS_DIR}/)",
    )
    p.set_defaults(func=run)


def make_factory(ruleset: str, players: int) -> Callable[[int], GameLike]:
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
    if args.players < 1:
        return _usage("--players must be >= 1")
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
            )
    except Exception as exc:
        # games' own failures are inside the report: what escapes is the setup (loading
        # the ruleset, agent count vs seats), which is the user's to fix
        return _usage(f"cannot simulate {args.ruleset!r}: {exc}")
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
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
            str(seat), report.agents[seat], str(count), f"{rate:.1%}", f"{low:.1%} - {high:.1%}"
        )
    console.print(wins)
    console.print(
        f"finished {report.finished}, draws {report.draws}, co-op wins {report.coop_wins}, "
        f"no winner {report.no_winner}, errors {len(report.errors)}"
    )
    start = report.start_player
    if start is not None:
        rate, low, high = start.rate_decided()
        rate_all, low_all, high_all = start.rate_all()
        console.print(
            f"start player won {start.wins} of {start.decided} decided games: {rate:.1%} "
            f"(95% {low:.1%} - {high:.1%}); of all {start.games} finished games: "
            f"{rate_all:.1%} (95% {low_all:.1%} - {high_all:.1%}); "
            f"starts by seat {', '.join(str(n) for n in start.starts)}"
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
