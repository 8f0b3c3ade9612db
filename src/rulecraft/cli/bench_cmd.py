"""`rulecraft bench` (not built yet)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("bench", help="bench (not built yet)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("rulecraft bench: not built yet")
    return 2
