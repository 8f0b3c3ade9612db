"""`rulecraft dice EXPR`: the exact distribution of a dice pool, in the terminal or as JSON.

    rulecraft dice 3d6
    rulecraft dice "2 white + 1 red" --ruleset GAME --at-least success   # bundled name or folder
    rulecraft dice "2 combat + 1 hit" --ruleset PATH --json
    rulecraft dice 4d6 --plot odds.png        # needs the optional extra rulecraft[plot]

Exit codes: 0 shown, 2 usage error (bad expression, unknown die, unreadable ruleset).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulecraft.cli.rulesets import bundled_listing, resolve_ruleset
from rulecraft.dice import DiceSet, DiceSpecError, JointDistribution, Pool, PoolError, distribution

_MAX_DICE = 400
"""More dice than any table rolls; bigger pools are refused rather than left to grind."""

_BAR_WIDTH = 40


class _UsageError(Exception):
    """A problem to report in one line with exit code 2."""


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "dice",
        help="exact odds of a dice pool",
        description="Show the exact distribution and 'at least k' table of a dice pool.",
        epilog="Examples: rulecraft dice 3d6; rulecraft dice '2 white + 1 red' --ruleset GAME",
    )
    p.add_argument("expr", help="a pool such as '3d6', '2d6 + 1' or '2 white + 1 red'")
    p.add_argument(
        "--ruleset",
        metavar="RULESET",
        help="read die types from a ruleset: a folder, its ruleset.yaml, or a bundled name",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--plot", metavar="FILE.png", help="also draw a chart (rulecraft[plot])")
    p.add_argument("--at-least", metavar="SYMBOL", help="show only this symbol")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        dice = load_dice(args.ruleset) if args.ruleset else DiceSet({})
        pool = Pool.parse(args.expr, dice)
        if pool.size > _MAX_DICE:
            raise _UsageError(f"{pool.size} dice is more than the {_MAX_DICE} this command shows")
        symbols = list(pool.symbols)
        if args.at_least is not None:
            if args.at_least not in symbols:
                raise _UsageError(
                    f"the pool cannot show {args.at_least!r} (it shows: {', '.join(symbols)})"
                )
            symbols = [args.at_least]
        dist = distribution(pool)
        if args.json:
            print(json.dumps(to_json(pool, dist, symbols), indent=2))
        else:
            print_table(pool, dist, symbols)
        if args.plot:
            plot(dist, symbols, Path(args.plot), str(pool))
    except (_UsageError, PoolError, DiceSpecError) as error:
        print(f"rulecraft dice: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (e.g. `| head`) left early: not an error, and no traceback on exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def load_dice(path_text: str) -> DiceSet:
    """The ``dice:`` section of ``PATH/ruleset.yaml`` (or of ``PATH`` if it is a file)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    folder = resolve_ruleset(path_text)  # a bundled name stands for its folder
    path = folder / "ruleset.yaml" if folder is not None else Path(path_text)
    if path.is_dir():
        path = path / "ruleset.yaml"
    if not path.exists():
        raise _UsageError(
            f"cannot read ruleset {path_text!r}: no such folder, manifest or bundled "
            f"ruleset ({bundled_listing()})"
        )
    try:
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise _UsageError(f"cannot read {path}: {error.strerror or error}") from error
    except (YAMLError, ValueError) as error:
        raise _UsageError(f"{path} is not valid YAML: {error}") from error
    if not isinstance(data, Mapping) or "dice" not in data:
        raise _UsageError(f"{path} has no 'dice:' section")
    try:
        return DiceSet.from_spec(data["dice"])
    except DiceSpecError as error:
        raise _UsageError(f"{path}: {error}") from error


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def to_json(pool: Pool, dist: JointDistribution, symbols: list[str]) -> dict[str, Any]:
    """The JSON document ``--json`` prints: exact fractions as ``"a/b"`` plus floats."""
    return {
        "pool": str(pool),
        "dice": {name: n for name, n in pool.signature},
        "auto": dict(pool.auto),
        "outcomes": dist.total,
        "symbols": {
            symbol: {
                "mean": _fraction(dist.mean(symbol)),
                "rows": [
                    {
                        "k": k,
                        "exactly": _fraction(p),
                        "at_least": _fraction(tail),
                        "exactly_float": float(p),
                        "at_least_float": float(tail),
                    }
                    for k, p, tail in dist.at_least_table(symbol)
                ],
            }
            for symbol in symbols
        },
    }


def print_table(pool: Pool, dist: JointDistribution, symbols: list[str]) -> None:
    """One table per symbol: k, P(exactly k), P(at least k) and a bar of P(at least k)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    console.print(f"{pool}: {dist.total} equally likely outcomes", markup=False)
    for symbol in symbols:
        mean = dist.mean(symbol)
        table = Table(title=f"{symbol} (mean {float(mean):.3f})", title_justify="left")
        table.add_column("k", justify="right")
        table.add_column("exactly", justify="right")
        table.add_column("at least", justify="right")
        table.add_column("P(at least k)", no_wrap=True)
        for k, p, tail in dist.at_least_table(symbol):
            bar = "█" * round(float(tail) * _BAR_WIDTH)
            table.add_row(str(k), f"{float(p):.2%}", f"{float(tail):.2%}", bar)
        console.print(table)


def plot(dist: JointDistribution, symbols: list[str], path: Path, title: str) -> None:
    """Bars of P(exactly k) and a step line of P(at least k), one panel per symbol."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise _UsageError("--plot needs matplotlib: pip install 'rulecraft[plot]'") from error
    fig, axes = plt.subplots(len(symbols), 1, figsize=(7, 2.6 * len(symbols)), squeeze=False)
    for ax, symbol in zip(axes[:, 0], symbols, strict=True):
        rows = dist.at_least_table(symbol)
        ks = [k for k, _, _ in rows]
        ax.bar(ks, [float(p) for _, p, _ in rows], label="exactly k")
        ax.step(ks, [float(t) for _, _, t in rows], where="mid", color="black", label="at least k")
        ax.set_ylim(0, 1)
        ax.set_ylabel(symbol)
        ax.legend(loc="upper right")
    axes[0, 0].set_title(title)
    try:
        fig.savefig(path)
    except OSError as error:
        raise _UsageError(f"cannot write {path}: {error.strerror or error}") from error
    finally:
        plt.close(fig)
