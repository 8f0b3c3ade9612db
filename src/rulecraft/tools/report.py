"""The balance report of a simulation as one self-contained HTML file with plots.

``rulecraft simulate RULESET -n N --report balance.html`` writes it; :func:`render_html`
builds it from a :class:`~rulecraft.tools.simulate.SimulationReport`.  The page
has: the run (games, agents, seeds), wins per seat with 95% Wilson intervals, outcomes
(solo, co-op, shared wins, draws, no winner, errors), wins by start position, final
scores, the game length distribution, and per-card statistics (times chosen through each
action, the seats that did, and their win rate with its interval).  The plots are PNGs
drawn with matplotlib (the ``plot`` extra) and embedded as ``data:`` URIs, so the file
needs nothing beside it.  Seats and positions are numbered from 1.

The page depends only on the report's data (not on the time the run took), so two runs
with the same seed give the same page, whichever backend played them.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulecraft.tools.balance import CardStats, rate

if TYPE_CHECKING:
    from rulecraft.tools.simulate import SimulationReport

#: Cards shown in the card plot (the table lists them all).
PLOTTED_CARDS = 25

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th { background: #f0f0f0; } td.name { text-align: left; }
img { max-width: 100%; display: block; margin: 0.5em 0 1.5em; }
.note { color: #555; font-size: 0.9em; }
"""


def write_html(report: SimulationReport, path: Path, title: str = "") -> None:
    """Write :func:`render_html` to ``path``."""
    Path(path).write_text(render_html(report, title), encoding="utf-8")


def render_html(report: SimulationReport, title: str = "") -> str:
    """The whole page (see the module docstring)."""
    name = html.escape(title or "simulation")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Balance report: {name}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Balance report: {name}</h1>",
        _run_section(report),
        _wins_section(report),
        _positions_section(report),
        _scores_section(report),
        _lengths_section(report),
        _cards_section(report),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]], names: int = 0) -> str:
    """An HTML table; the first ``names`` columns are text (left-aligned)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = "".join(
            f"<td{' class=name' if i < names else ''}>{html.escape(str(v))}</td>"
            for i, v in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _interval(low: float, high: float) -> str:
    return f"{low:.1%} - {high:.1%}"


def _run_section(report: SimulationReport) -> str:
    last = report.seed + report.games - 1
    agents = ", ".join(f"seat {i + 1}: {a}" for i, a in enumerate(report.agents))
    return (
        f"<p>{report.games} games, {report.players} seats ({html.escape(agents)}), "
        f"seeds {report.seed}..{last}; {report.finished} finished, "
        f"{len(report.errors)} errors.</p>"
    )


def _wins_section(report: SimulationReport) -> str:
    rows = []
    for seat, count in enumerate(report.wins):
        value, low, high = report.win_rate(seat)
        rows.append((seat + 1, report.agents[seat], count, f"{value:.1%}", _interval(low, high)))
    outcomes = _table(
        ("solo wins", "co-op wins", "shared wins", "draws", "no winner", "errors"),
        [
            (
                report.solo_wins,
                report.coop_wins,
                report.shared_wins,
                report.draws,
                report.no_winner,
                len(report.errors),
            )
        ],
    )
    plot = _bar_plot(
        [f"seat {s + 1}" for s in range(report.players)],
        [rate(w, report.finished) for w in report.wins],
        "win rate over finished games (95% Wilson interval)",
    )
    return (
        "<h2>Wins per seat</h2>"
        + _table(("seat", "agent", "wins", "rate", "95% interval"), rows, names=0)
        + outcomes
        + plot
    )


def _positions_section(report: SimulationReport) -> str:
    positions = report.positions
    if positions is None:
        return ""
    rows = []
    rates = []
    for i, won in enumerate(positions.wins):
        value, low, high = rate(won, positions.games)
        rates.append((value, low, high))
        rows.append((i + 1, won, positions.games, f"{value:.1%}", _interval(low, high)))
    plot = _bar_plot(
        [f"position {i + 1}" for i in range(len(positions.wins))],
        rates,
        "win rate by start position (1 = took the first turn)",
    )
    return (
        "<h2>Wins by start position</h2>"
        '<p class="note">Position 1 took the first turn, position 2 is the next seat, and so '
        "on; over the finished games that say who started.</p>"
        + _table(("position", "wins", "games", "rate", "95% interval"), rows)
        + plot
    )


def _scores_section(report: SimulationReport) -> str:
    if not report.scores:
        return ""
    rows = [
        (s.seat + 1, s.count, f"{s.mean:.2f}", f"{s.stdev:.2f}", f"{s.min:g}", f"{s.max:g}")
        for s in report.scores
    ]
    return "<h2>Final scores</h2>" + _table(("seat", "games", "mean", "sd", "min", "max"), rows)


def _lengths_section(report: SimulationReport) -> str:
    if not report.finished:
        return ""
    rows = [("decisions", *_length_cells(report.decisions))]
    if report.rounds is not None:
        rows.append(("rounds", *_length_cells(report.rounds)))
    return (
        "<h2>Game length</h2>"
        + _table(("measure", "mean", "median", "p90", "max"), rows, names=1)
        + _histogram(report.length_counts)
    )


def _length_cells(stats: Any) -> tuple[str, ...]:
    return (f"{stats.mean:.1f}", f"{stats.median:g}", f"{stats.p90:g}", str(stats.max))


def _cards_section(report: SimulationReport) -> str:
    if not report.cards:
        return ""
    rows = []
    for card in report.cards:
        value, low, high = card.win_rate()
        rows.append(
            (
                card.card,
                card.action,
                card.times,
                card.seat_games,
                card.wins,
                f"{value:.1%}",
                _interval(low, high),
            )
        )
    return (
        "<h2>Cards</h2>"
        '<p class="note">A card counts for a seat when the seat chose it through an action '
        "(play, buy, ...) or used one of its abilities; <em>seat-games</em> counts the "
        "(seat, game) pairs where that happened at least once and <em>win rate</em> is how "
        "often those seats won. A card a seat could not see is never counted.</p>"
        + _card_plot(report.cards)
        + _table(
            ("card", "action", "times", "seat-games", "wins", "win rate", "95% interval"),
            rows,
            names=2,
        )
    )


# ---------------------------------------------------------------------------- plots
def _png(figure: Any) -> str:
    """The figure as an embedded PNG ``<img>`` (and closes it)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    # no Software/time metadata: the same data draws the same bytes
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")  # headless: no display on servers and CI
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height))


def _bar_plot(labels: list[str], rates: list[tuple[float, float, float]], title: str) -> str:
    figure, axes = _figure(6, 3)
    values = [r[0] for r in rates]
    errors = [[r[0] - r[1] for r in rates], [r[2] - r[0] for r in rates]]
    axes.bar(labels, values, yerr=errors, capsize=6, color="#4c78a8")
    axes.set_ylim(0, 1)
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    return _png(figure)


def _histogram(length_counts: Sequence[tuple[int, int]]) -> str:
    if not length_counts:
        return ""
    figure, axes = _figure(7, 3)
    lengths = [length for length, _ in length_counts]
    counts = [count for _, count in length_counts]
    bins = min(40, max(1, lengths[-1] - lengths[0] + 1))
    axes.hist(lengths, bins=bins, weights=counts, color="#72b7b2")
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    axes.set_title("game length distribution", fontsize=10)
    figure.tight_layout()
    return _png(figure)


def _card_plot(cards: Sequence[CardStats]) -> str:
    shown = list(cards[:PLOTTED_CARDS])
    figure, axes = _figure(7, 0.8 + 0.28 * len(shown))
    labels = [f"{c.card} ({c.action})" for c in shown]
    rates = [c.win_rate() for c in shown]
    positions = list(range(len(shown)))[::-1]
    axes.barh(
        positions,
        [r[0] for r in rates],
        xerr=[[r[0] - r[1] for r in rates], [r[2] - r[0] for r in rates]],
        capsize=3,
        color="#f58518",
    )
    axes.set_yticks(positions, labels, fontsize=8)
    axes.set_xlim(0, 1)
    axes.set_title(
        f"win rate of the seats that chose each card (the {len(shown)} most chosen)",
        fontsize=10,
    )
    figure.tight_layout()
    return _png(figure)
