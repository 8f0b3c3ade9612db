"""Run every benchmark in this folder and print their one-line summaries.

    .venv/bin/python bench/run.py            # all of them
    .venv/bin/python bench/run.py dice engine  # some of them

Each ``bench_<name>.py`` prints a line starting ``SUMMARY <name>:`` and writes its numbers to
``bench/baseline/<name>.json``; commit that file to record a new baseline.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    wanted = set(argv)
    scripts = sorted(here.glob("bench_*.py"))
    failures = 0
    summaries: list[str] = []
    for script in scripts:
        name = script.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        print(f"== {name}", flush=True)
        proc = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, check=False
        )
        sys.stdout.write(proc.stdout)
        if proc.returncode != 0:
            failures += 1
            sys.stdout.write(proc.stderr[-2000:])
        summaries.extend(line for line in proc.stdout.splitlines() if line.startswith("SUMMARY"))
    print("\n".join(["", "== summaries", *summaries]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
