"""`rulecraft lsp`: the language server, speaking LSP over stdin/stdout.

Editors start it themselves (see docs/editor.md); run by hand it waits for a client.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "lsp",
        help="run the language server (LSP over stdio) for editors",
        description="Run the rulecraft language server on stdin/stdout (docs/editor.md).",
    )
    p.add_argument(
        "--stdio", action="store_true", help="talk over stdin/stdout (the default and only way)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here: pygls costs about half a second to import, which no other command needs.
    from rulecraft.lsp.server import serve

    serve()
    return 0
