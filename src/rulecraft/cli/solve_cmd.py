"""`rulecraft solve RULESET`: search one seat's deterministic stretch of play exhaustively.

The position is a new game (``--seed``, ``--players``) or a save (``--save FILE``, as the
REPL writes them).  Exit codes: 0 the goal is reachable, 1 it is not (or the search was cut
by a bound before finding it), 2 usage errors, a ruleset or save that does not load, or a
stretch the solver refuses (chance, another seat, nobody deciding).  The search itself is
:mod:`rulecraft.tools.solver` (see ``docs/solver.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_REACHABLE = 0
EXIT_UNREACHABLE = 1
EXIT_USAGE = 2


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "solve",
        help="search one seat's stretch of play: is the goal reachable, and the best line",
        description="Search every line of play of the deciding seat until its stretch ends "
        "(the game ends, its plan is executed, another seat decides, or a bound is hit), "
        "with a transposition table; print whether the goal is reachable, the best line "
        "under the objective, and the search's numbers.",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a bundled ruleset name or a folder")
    p.add_argument(
        "--save", metavar="FILE", help="solve from this saved game (default: a new game)"
    )
    p.add_argument("--seed", type=int, default=0, help="the new game's seed (default 0)")
    p.add_argument("--players", type=int, help="the new game's number of players")
    p.add_argument(
        "--goal",
        metavar="EXPR",
        help="an expression that must hold at the stretch's end (default: it ends without "
        "a loss or a dead end)",
    )
    p.add_argument(
        "--objective",
        metavar="EXPR",
        action="append",
        help="an expression to maximise at the stretch's end; repeat it for a lexicographic "
        "order (health, then XP, ...); default: the manifest's evaluation",
    )
    p.add_argument(
        "--first",
        action="store_true",
        help="stop at the first line that meets the goal (proves it reachable, fast)",
    )
    p.add_argument("--max-nodes", type=int, default=200_000, help="most positions to expand")
    p.add_argument("--max-depth", type=int, default=200, help="most decisions in a line")
    p.add_argument(
        "--format", choices=["text", "json"], default="text", help="text (default) or json"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import rulecraft
    from rulecraft.runtime.game import Game
    from rulecraft.tools.solver import Stretch, StretchRefused, solve

    def fail(message: str) -> int:
        print(f"rulecraft solve: {message}", file=sys.stderr)
        return EXIT_USAGE

    if args.max_nodes < 1 or args.max_depth < 1:
        return fail("--max-nodes and --max-depth must be at least 1")
    try:
        ruleset = rulecraft.load(args.ruleset)
    except rulecraft.RulesetError as err:
        return fail(f"{err}")
    except FileNotFoundError as err:
        return fail(str(err))
    try:
        if args.save:
            game = Game.load_file(ruleset, args.save)
        else:
            game = ruleset.new_game(players=args.players, seed=args.seed)
    except ValueError as err:
        return fail(str(err))
    stretch = Stretch(
        goal=args.goal,
        objective=tuple(args.objective or ()),
        max_nodes=args.max_nodes,
        max_depth=args.max_depth,
        first_goal=args.first,
    )
    try:
        result = solve(game, stretch=stretch)
    except StretchRefused as err:
        return fail(f"cannot solve this position: {err}")
    except ValueError as err:  # a goal or objective that does not compile or is no number
        return fail(str(err))
    if args.format == "json":
        json.dump(result.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(result.summary())
    return EXIT_REACHABLE if result.reachable else EXIT_UNREACHABLE
