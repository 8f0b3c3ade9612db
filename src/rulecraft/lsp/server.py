"""The language server's wiring: pygls features mapped onto the index and the validator.

Diagnostics run in two passes (see :mod:`rulecraft.lsp.checks`): the open buffer's syntax on
every change, the whole ruleset half a second after the last change and on save.  Every
request rebuilds the index of the ruleset holding the document from the open buffers
(unchanged files come from a cache), so answers always match what the editor shows.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from rulecraft import __version__
from rulecraft.diagnostics import Diagnostic
from rulecraft.lsp import actions, checks, completion, formatting, hover, navigation, symbols
from rulecraft.lsp.index import IndexBuilder, RulesetIndex, find_root
from rulecraft.lsp.positions import (
    code_point_column,
    make_range,
    path_to_uri,
    set_encoding,
    uri_to_path,
)

# Whole-ruleset checks wait for this pause in typing (a check of the largest bundled
# ruleset takes about 0.6 s warm; re-checking on every keystroke would queue them up).
DEBOUNCE_SECONDS = 0.5
log = logging.getLogger(__name__)


class RulecraftServer(LanguageServer):
    """The server's state: the index builder, what was published, pending checks."""

    def __init__(self) -> None:
        super().__init__("rulecraft", __version__)
        self.builder = IndexBuilder()
        self.published: dict[Path, set[Path]] = {}  # ruleset root -> files with diagnostics
        self.pending: dict[Path, asyncio.Task[None]] = {}
        self.last_check: dict[Path, list[Diagnostic]] = {}  # the last whole-ruleset findings
        self.check_lock = asyncio.Lock()
        # Whole-ruleset checks run in one worker process: the parser's indentation post-lexer
        # keeps state, so a check in a thread beside the index's parsing corrupted both
        # (measured: an AssertionError in Lark's Indenter). The worker stays warm.
        self.checker = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))

    def overlays(self) -> dict[Path, str]:
        """The text of every open document, by path."""
        out: dict[Path, str] = {}
        for uri, document in self.workspace.text_documents.items():
            if uri.startswith("file:"):
                out[uri_to_path(uri)] = document.source
        return out

    def index_for(self, uri: str) -> tuple[RulesetIndex, Path]:
        """The index of the ruleset holding the document, and the document's path."""
        path = uri_to_path(uri)
        return self.builder.build(path, self.overlays()), path

    def publish(self, path: Path, diagnostics: list[Diagnostic], lines: list[str]) -> None:
        """Send one file's diagnostics (an empty list clears them)."""
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=path_to_uri(path),
                diagnostics=[checks.to_lsp(d, lines) for d in diagnostics],
            )
        )

    def publish_syntax(self, uri: str) -> None:
        """As you type: the buffer's syntax problems (the parser's codes and hints), with
        the last whole-ruleset check's other findings kept until the next check replaces
        them (so they do not blink out at every keystroke)."""
        index, path = self.index_for(uri)
        source = index.files.get(path)
        if source is not None:
            kept = [d for d in self.last_check.get(path, []) if not is_syntax(d)]
            self.publish(path, source.syntax + kept, source.lines)

    async def check_ruleset(self, uri: str) -> None:
        """The whole ruleset's diagnostics, published per file (and cleared where fixed)."""
        path = uri_to_path(uri)
        root = find_root(path)
        if root is None:
            self.publish_syntax(uri)
            return
        async with self.check_lock:
            overlays = self.overlays()
            loop = asyncio.get_running_loop()
            by_file, lost = await loop.run_in_executor(
                self.checker, checks.ruleset_diagnostics, root, overlays
            )
        manifest = checks.manifest_of(root)
        if lost:
            by_file.setdefault(manifest, []).extend(lost)
        index = self.builder.build(path, overlays)
        stale = self.published.get(root, set()) - set(by_file)
        for file in stale:
            self.publish(file, [], [])
        for file, found in by_file.items():
            lines = index.lines_of(file) or _read_lines(file)
            self.publish(file, found, lines)
        for file in stale:
            self.last_check.pop(file, None)
        self.last_check.update(by_file)
        self.published[root] = set(by_file)

    def schedule_check(self, uri: str, delay: float) -> None:
        """Check the ruleset after ``delay`` seconds unless another change comes first."""
        root = find_root(uri_to_path(uri)) or uri_to_path(uri)
        previous = self.pending.pop(root, None)
        if previous is not None:
            previous.cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            try:
                await self.check_ruleset(uri)
            except Exception as err:  # a crash in a check must not take the server down
                log.exception("checking %s failed", uri)
                # ...nor pass unseen: the editor shows why its squiggles stopped updating
                self.window_show_message(
                    lsp.ShowMessageParams(
                        type=lsp.MessageType.Error,
                        message=f"rulecraft: checking {root.name} failed: {err!r}",
                    )
                )

        self.pending[root] = asyncio.get_running_loop().create_task(later())


def is_syntax(diagnostic: Diagnostic) -> bool:
    """Codes RC100-RC199 are the file's reading and syntax problems (docs/errors.md): the
    parser finds them in the buffer itself on every change."""
    return diagnostic.code.startswith("RC1") and len(diagnostic.code) == 5


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _cursor(index: RulesetIndex, path: Path, position: lsp.Position) -> tuple[int, int]:
    line = index.lines_of(path)
    text = line[position.line] if position.line < len(line) else ""
    return position.line, code_point_column(text, position.character)


def _location(index: RulesetIndex, path: Path, line: int, start: int, end: int) -> lsp.Location:
    lines = index.lines_of(path) or _read_lines(path)
    return lsp.Location(uri=path_to_uri(path), range=make_range(lines, line, start, end))


def create_server() -> RulecraftServer:
    """A server with every feature registered."""
    server = RulecraftServer()
    _register_documents(server)
    _register_navigation(server)
    _register_editing(server)
    return server


def _register_documents(server: RulecraftServer) -> None:
    @server.feature(lsp.INITIALIZED)
    def initialized(ls: RulecraftServer, params: lsp.InitializedParams) -> None:
        set_encoding(str(ls.workspace.position_encoding or "utf-16"))
        ls.checker.submit(checks.warm_up)  # the worker starts while the editor opens files

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: RulecraftServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.publish_syntax(params.text_document.uri)
        ls.schedule_check(params.text_document.uri, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulecraftServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.publish_syntax(params.text_document.uri)
        ls.schedule_check(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RulecraftServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule_check(params.text_document.uri, 0.0)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def files_changed(ls: RulecraftServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        # A manifest or a file not open in the editor changed on disk: check its ruleset.
        for change in params.changes:
            ls.schedule_check(change.uri, DEBOUNCE_SECONDS)


def _register_navigation(server: RulecraftServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: RulecraftServer, params: lsp.HoverParams) -> lsp.Hover | None:
        index, path = ls.index_for(params.text_document.uri)
        line, column = _cursor(index, path, params.position)
        target = navigation.target_at(index, path, line, column)
        if target is None:
            return None
        text = hover.hover_markdown(index, navigation.definitions(index, target))
        if text is None:
            return None
        contents = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)
        return lsp.Hover(contents=contents)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: RulecraftServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        index, path = ls.index_for(params.text_document.uri)
        line, column = _cursor(index, path, params.position)
        target = navigation.target_at(index, path, line, column)
        if target is None:
            return []
        found = navigation.definitions(index, target)
        return [_location(index, s.path, s.line, s.start, s.end) for s in found]

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: RulecraftServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        index, path = ls.index_for(params.text_document.uri)
        line, column = _cursor(index, path, params.position)
        target = navigation.target_at(index, path, line, column)
        if target is None:
            return []
        include = params.context.include_declaration
        found = navigation.references(index, target, include_declaration=include)
        return [_location(index, *place) for place in found]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(
        ls: RulecraftServer, params: lsp.DocumentSymbolParams
    ) -> list[lsp.DocumentSymbol]:
        index, path = ls.index_for(params.text_document.uri)
        source = index.files.get(path)
        return symbols.document_symbols(source) if source is not None else []


def _register_editing(server: RulecraftServer) -> None:
    @server.feature(
        lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", " "])
    )
    def on_completion(ls: RulecraftServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        index, path = ls.index_for(params.text_document.uri)
        line, column = _cursor(index, path, params.position)
        lines = index.lines_of(path)
        prefix = lines[line][:column] if line < len(lines) else ""
        items = completion.complete(index, path, line, prefix)
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def on_formatting(
        ls: RulecraftServer, params: lsp.DocumentFormattingParams
    ) -> list[lsp.TextEdit] | None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        return formatting.format_edits(document.source, document.path or document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def on_code_action(ls: RulecraftServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        document = ls.workspace.get_text_document(params.text_document.uri)
        lines = document.source.splitlines()
        found = list(params.context.diagnostics)
        return actions.quick_fixes(params.text_document.uri, lines, found)


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    server = create_server()
    try:
        server.start_io()
    finally:
        server.checker.shutdown(cancel_futures=True)
