"""The built parser is kept between processes (language/parser.py, grammar_cache_file):
building the grammar's LALR tables took 1.9 s in every process that parsed a ruleset (each
CLI call, simulation worker and test worker), loading them takes a small part of that.
Each test runs fresh processes, since a process builds or loads the parser once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rulecraft.language import parser

# Parses a ruleset's text and prints what came out, with Lark's own account of whether
# the parser was loaded from the cache file (its debug log line) on stderr.
PARSE = """
import logging, sys
from lark.utils import logger
logger.setLevel(logging.DEBUG)
from rulecraft.language.parser import parse_source
text = 'define double(x) = 2 * x\\n\\naction take "Take":\\n    gain double(2) gold\\n'
unit, problems = parse_source(text, 'rules.rcl')
print(len(unit.items), [type(i).__name__ for i in unit.items], len(problems))
"""


def _run(cache_dir: Path | str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULECRAFT_CACHE_DIR": str(cache_dir)}
    return subprocess.run(
        [sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, check=True
    )


def test_the_second_process_loads_the_parser_the_first_one_built(tmp_path: Path) -> None:
    first = _run(tmp_path)
    kept = tmp_path / Path(str(parser.grammar_cache_file())).name
    assert kept.is_file()
    assert "Loading grammar from cache" not in first.stderr
    second = _run(tmp_path)
    assert "Loading grammar from cache" in second.stderr
    assert second.stdout == first.stdout
    assert first.stdout.startswith("2 ")  # the define and the action, no problem


def test_a_damaged_cache_file_is_built_again(tmp_path: Path) -> None:
    fresh = _run(tmp_path)
    kept = next(tmp_path.iterdir())
    kept.write_bytes(kept.read_bytes()[:2000])  # the hash line intact, the tables cut short
    damaged = _run(tmp_path)
    assert damaged.stdout == fresh.stdout
    kept.write_text("not a parser\n", encoding="utf-8")
    replaced = _run(tmp_path)
    assert replaced.stdout == fresh.stdout
    assert "Loading grammar from cache" in _run(tmp_path).stderr  # written anew, and valid


def test_without_a_cache_folder_the_parser_is_built_each_time(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    folder = blocker / "rulecraft"  # cannot be made: a file stands where its parent would
    done = _run(folder)
    assert "Loading grammar from cache" not in done.stderr
    assert done.stdout.startswith("2 ")
    assert not folder.exists()


def test_the_language_servers_lexer_is_kept_in_a_file_of_its_own(tmp_path: Path) -> None:
    """The language server tokenises with the basic lexer (lsp/index.py): another build
    of the grammar, so another file (one file for both would be rebuilt at every turn)."""
    script = (
        "import logging\nfrom lark.utils import logger\nlogger.setLevel(logging.DEBUG)\n"
        "from rulecraft.lsp import index\nprint(len(index._tokens('define a = 1\\n')))\n"
    )
    env = {**os.environ, "RULECRAFT_CACHE_DIR": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        for _ in range(2)
    ]
    assert "Loading grammar from cache" in runs[1].stderr
    assert runs[0].stdout == runs[1].stdout
    _run(tmp_path)  # the parser beside it
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 2 and names[0].startswith("grammar-") and names[1].startswith("lsp-")
