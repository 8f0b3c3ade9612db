"""Record a JSON-RPC session with `rulecraft lsp` on the bundled Sparks ruleset.

docs/editor.md shows this transcript; ``test_lsp_transcript.py`` records it again and
compares, so the page stays true.  Run ``python tests/lsp/transcript.py`` to print it.

The client side is raw JSON-RPC over the server's stdin/stdout (Content-Length framing),
exactly what an editor sends.  File URIs are shown relative to the ``rulesets`` folder,
docs links by their anchor.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
CARDS = RULESETS / "sparks" / "cards.rcl"


class Session:
    """A client talking to one server process; keeps the exchange as text."""

    def __init__(self) -> None:
        command = [sys.executable, "-m", "rulecraft.cli.main", "lsp"]
        self.server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lines: list[str] = []
        self.next_id = 1
        self.buffer = b""

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.server.stdin is not None
        self.server.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.server.stdin.flush()

    def _read_more(self, deadline: float) -> None:
        """Wait (until ``deadline``) for more bytes from the server: a server that never
        answers fails the test instead of hanging it."""
        assert self.server.stdout is not None
        fd = self.server.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        chunk = os.read(fd, 65536) if ready else b""
        if not chunk:
            raise TimeoutError("the server sent nothing in time")
        self.buffer += chunk

    def _receive(self, timeout: float = 120) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._read_more(deadline)
        header, _, rest = self.buffer.partition(b"\r\n\r\n")
        length = 0
        for line in header.decode("ascii").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
        while len(rest) < length:
            self.buffer = header + b"\r\n\r\n" + rest
            self._read_more(deadline)
            header, _, rest = self.buffer.partition(b"\r\n\r\n")
        self.buffer = rest[length:]
        message: dict[str, Any] = json.loads(rest[:length])
        return message

    def show(self, arrow: str, what: str, payload: Any) -> None:
        text = json.dumps(payload, ensure_ascii=False).replace(RULESETS.as_uri(), "file:///…")
        # a code's docs link depends on the machine (a published site, a built one, or the
        # Markdown file): only its anchor is shown
        text = re.sub(r'"href": "[^"]*#(rc\d+)"', r'"href": "…#\1"', text)
        self.lines.append(f"{arrow} {what} {text}")

    def request(self, method: str, params: dict[str, Any], shown: Any = None) -> Any:
        ident = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        self.show("-->", method, params if shown is None else shown)
        while True:
            message = self._receive()
            if message.get("id") == ident and "method" not in message:
                return message.get("result")

    def notify(self, method: str, params: dict[str, Any], shown: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})
        self.show("-->", method, params if shown is None else shown)

    def wait_for(self, method: str, done: Any) -> dict[str, Any]:
        """The first notification ``method`` whose params satisfy ``done``."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            message = self._receive(deadline - time.monotonic())
            if message.get("method") == method and done(message["params"]):
                return dict(message["params"])
        raise TimeoutError(method)

    def close(self) -> None:
        self.request("shutdown", {})
        self.notify("exit", {})
        self.server.wait(timeout=10)


def _at(text: str, needle: str, offset: int = 0) -> dict[str, int]:
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return {"line": number, "character": line.index(needle) + offset}
    raise ValueError(needle)


def record() -> str:
    """The session shown in docs/editor.md, as text."""
    session = Session()
    uri = CARDS.as_uri()
    text = CARDS.read_text("utf-8").replace("gain 1 points", "gain 1 pionts", 1)
    doc = {"uri": uri}
    try:
        init = session.request(
            "initialize", {"processId": None, "rootUri": RULESETS.as_uri(), "capabilities": {}}
        )
        caps = sorted(k for k, v in init["capabilities"].items() if v)
        session.show("<--", "result", {"capabilities": caps, "serverInfo": init["serverInfo"]})
        session.notify("initialized", {})
        opened = {"uri": uri, "languageId": "rulecraft", "version": 1, "text": text}
        shown = {"textDocument": {**opened, "text": "…cards.rcl with 'gain 1 pionts'…"}}
        session.notify("textDocument/didOpen", {"textDocument": opened}, shown)
        published = session.wait_for(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and any(d["code"] == "RC201" for d in p["diagnostics"]),
        )
        session.show("<--", "textDocument/publishDiagnostics", published)
        (problem,) = published["diagnostics"]
        fixes = session.request(
            "textDocument/codeAction",
            {"textDocument": doc, "range": problem["range"], "context": {"diagnostics": [problem]}},
        )
        session.show("<--", "result", fixes)
        for method, needle, offset in (
            ("textDocument/hover", "ember_golem", 2),
            ("textDocument/definition", "enemy_creatures", 3),
        ):
            params = {"textDocument": doc, "position": _at(text, needle, offset)}
            session.show("<--", "result", session.request(method, params))
        position = _at(text, "if this.", len("if this."))
        found = session.request(
            "textDocument/completion", {"textDocument": doc, "position": position}
        )
        labels = [item["label"] for item in found["items"]]
        session.show("<--", "result", {"isIncomplete": found["isIncomplete"], "labels": labels})
        session.close()
    finally:
        if session.server.poll() is None:
            session.server.kill()
    return "\n".join(session.lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(record())
