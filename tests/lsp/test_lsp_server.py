"""End-to-end tests of `rulecraft lsp`: a real LSP client (pytest-lsp) talks to the real
server over stdio, on the bundled rulesets (read, never written: edits live in buffers)."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from rulecraft.language.formatter import format_source

pytestmark = pytest.mark.xdist_group("lsp")

ROOT = Path(__file__).resolve().parents[2] / "rulesets"
SPARKS_CARDS = ROOT / "sparks" / "cards.rcl"
SPARKS_RULES = ROOT / "sparks" / "rules.rcl"
SPARKS_MANIFEST = ROOT / "sparks" / "ruleset.yaml"
PLOT = ROOT / "waste_knights" / "plot.rcl"


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "rulecraft.cli.main", "lsp"]),
)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    body = path.read_text("utf-8") if text is None else text
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(
                uri=uri, language_id="rulecraft", version=version, text=body
            )
        )
    )
    return uri


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(
        lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )


def _replace(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def _diagnostics_until(
    client: LanguageClient, uri: str, wanted: str | None, timeout: float = 120.0
) -> list[lsp.Diagnostic]:
    """Wait until the diagnostics of ``uri`` include code ``wanted`` (None: are empty)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        found = client.diagnostics.get(uri)
        if found is not None:
            codes = {str(d.code) for d in found}
            if (wanted is None and not found) or (wanted is not None and wanted in codes):
                return list(found)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics {wanted!r} for {uri}: {client.diagnostics.get(uri)}")


def _position(path_or_text: Path | str, needle: str, offset: int = 0) -> lsp.Position:
    text = path_or_text.read_text("utf-8") if isinstance(path_or_text, Path) else path_or_text
    for number, line in enumerate(text.splitlines()):
        column = line.find(needle)
        if column >= 0:
            return lsp.Position(line=number, character=column + offset)
    raise AssertionError(f"{needle!r} not found")


def _doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_syntax_error_is_reported_as_you_type_with_code_and_line(
    client: LanguageClient,
) -> None:
    text = SPARKS_CARDS.read_text("utf-8").replace(
        'creature ember_golem "Ember Golem" @de "Glutgolem":',
        'creature ember_golem "Ember Golem" @de "Glutgolem"',
    )
    uri = _open(client, SPARKS_CARDS, text)
    try:
        found = await _diagnostics_until(client, uri, "RC101")
        syntax = [d for d in found if d.code == "RC101"]
        assert [d.range.start.line for d in syntax] == [
            _position(text, "creature ember_golem").line
        ]
        assert all(d.source == "rulecraft" for d in syntax)
        assert syntax[0].severity == lsp.DiagnosticSeverity.Error
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_unknown_name_has_hint_and_a_quick_fix_and_fixing_clears_it(
    client: LanguageClient,
) -> None:
    original = SPARKS_CARDS.read_text("utf-8")
    text = original.replace("gain 1 points", "gain 1 pionts", 1)
    uri = _open(client, SPARKS_CARDS, text)
    try:
        found = await _diagnostics_until(client, uri, "RC201")
        problem = next(d for d in found if d.code == "RC201")
        assert "'pionts'" in problem.message
        assert "did you mean 'points'?" in problem.message
        assert problem.code_description is not None
        assert problem.code_description.href.endswith("#rc201")  # its entry in the docs
        where = _position(text, "gain 1 pionts")
        # the squiggle covers exactly the misspelt word
        assert problem.range.start == _position(text, "pionts")
        assert problem.range.end == _position(text, "pionts", len("pionts"))

        fixes = await client.text_document_code_action_async(
            lsp.CodeActionParams(
                text_document=_doc(uri),
                range=problem.range,
                context=lsp.CodeActionContext(diagnostics=[problem]),
            )
        )
        assert fixes is not None and len(fixes) == 1
        fix = fixes[0]
        assert isinstance(fix, lsp.CodeAction) and fix.edit is not None
        assert fix.edit.changes is not None
        (edit,) = fix.edit.changes[uri]
        assert edit.new_text == "points"
        column = where.character + len("gain 1 ")
        assert (edit.range.start.line, edit.range.start.character) == (where.line, column)
        assert edit.range.end.character == column + len("pionts")

        # Typing elsewhere re-parses at once; the last check's finding stays until the next
        # whole-ruleset check (half a second later) replaces it: no blinking squiggles.
        waiting = client.wait_for_notification("textDocument/publishDiagnostics")
        _replace(client, uri, text + "# a comment typed at the end\n", 2)
        first = await asyncio.wait_for(waiting, 10)
        assert first.uri == uri and [d.code for d in first.diagnostics] == ["RC201"]

        _replace(client, uri, original, 3)
        await _diagnostics_until(client, uri, None)
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_card_shows_its_name_and_text_in_every_language(
    client: LanguageClient,
) -> None:
    uri = _open(client, SPARKS_CARDS)
    try:
        result = await client.text_document_hover_async(
            lsp.HoverParams(
                text_document=_doc(uri), position=_position(SPARKS_CARDS, "ember_golem", 2)
            )
        )
        assert result is not None and isinstance(result.contents, lsp.MarkupContent)
        text = result.contents.value
        assert "| en | Ember Golem | Overheat (1 energy" in text
        assert "| de | Glutgolem | Überhitzen (1 Energie" in text
        assert "cost: 3" in text and "power: 4" in text
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_used_name_shows_its_definition(client: LanguageClient) -> None:
    uri = _open(client, SPARKS_CARDS)
    try:
        result = await client.text_document_hover_async(
            lsp.HoverParams(
                text_document=_doc(uri), position=_position(SPARKS_CARDS, "enemy_creatures", 3)
            )
        )
        assert result is not None and isinstance(result.contents, lsp.MarkupContent)
        assert "define enemy_creatures = opponents.board" in result.contents.value
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_define_an_effect_and_a_zone(client: LanguageClient) -> None:
    uri = _open(client, SPARKS_CARDS)
    try:
        cases = [
            ("enemy_creatures", SPARKS_RULES, "define enemy_creatures", len("define ")),
            ("knock_out(target)", SPARKS_RULES, "effect knock_out", len("effect ")),
        ]
        for needle, file, at, offset in cases:
            found = await client.text_document_definition_async(
                lsp.DefinitionParams(
                    text_document=_doc(uri), position=_position(SPARKS_CARDS, needle, 1)
                )
            )
            assert isinstance(found, list) and len(found) == 1, needle
            assert found[0].uri == file.as_uri()
            assert found[0].range.start == _position(file, at, offset)
    finally:
        _close(client, uri)
    rules = _open(client, SPARKS_RULES)
    try:
        found = await client.text_document_definition_async(
            lsp.DefinitionParams(
                text_document=_doc(rules), position=_position(SPARKS_RULES, "you.hand", 5)
            )
        )
        assert isinstance(found, list) and len(found) == 1
        assert found[0].uri == SPARKS_MANIFEST.as_uri()
        assert found[0].range.start == _position(SPARKS_MANIFEST, "  hand:", 2)
    finally:
        _close(client, rules)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_and_references_of_an_entry_number(client: LanguageClient) -> None:
    uri = _open(client, PLOT)
    try:
        found = await client.text_document_definition_async(
            lsp.DefinitionParams(text_document=_doc(uri), position=_position(PLOT, "go to 60", 6))
        )
        assert isinstance(found, list) and len(found) == 1
        assert found[0].range.start == _position(PLOT, "entry 60 ", 6)
        refs = await client.text_document_references_async(
            lsp.ReferenceParams(
                text_document=_doc(uri),
                position=_position(PLOT, "entry 60 ", 6),
                context=lsp.ReferenceContext(include_declaration=False),
            )
        )
        text = PLOT.read_text("utf-8")
        expected = sum(1 for line in text.splitlines() if line.strip().endswith("go to 60"))
        assert refs is not None and len(refs) == expected >= 1
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_references_of_a_define_across_files(client: LanguageClient) -> None:
    uri = _open(client, SPARKS_RULES)
    try:
        refs = await client.text_document_references_async(
            lsp.ReferenceParams(
                text_document=_doc(uri),
                position=_position(SPARKS_RULES, "define enemy_creatures", 8),
                context=lsp.ReferenceContext(include_declaration=True),
            )
        )
        assert refs is not None
        places = {(r.uri, r.range.start.line) for r in refs}
        assert (SPARKS_RULES.as_uri(), _position(SPARKS_RULES, "define enemy_").line) in places
        assert (SPARKS_CARDS.as_uri(), _position(SPARKS_CARDS, "from enemy_creat").line) in places
    finally:
        _close(client, uri)


async def _complete(client: LanguageClient, uri: str, text: str, needle: str) -> set[str]:
    position = _position(text, needle, len(needle))
    result = await client.text_document_completion_async(
        lsp.CompletionParams(text_document=_doc(uri), position=position)
    )
    assert result is not None
    items = result.items if isinstance(result, lsp.CompletionList) else result
    return {item.label for item in items}


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_offers_fields_names_keywords_and_entries(
    client: LanguageClient,
) -> None:
    text = SPARKS_CARDS.read_text("utf-8")
    uri = _open(client, SPARKS_CARDS, text)
    try:
        fields = await _complete(client, uri, text, "if this.")
        assert {"charge", "cost", "power"} <= fields
        assert "cast" not in fields  # a spell's attribute, not an Ember Golem's
        names = await _complete(client, uri, text, "        draw ")
        assert {"deck", "hand", "energy", "points", "enemy_creatures", "knock_out"} <= names
        assert {"choose", "where", "repeat"} <= names  # keywords from the grammar
        assert {"card", "source", "dest"} <= names  # the trigger's parameters in scope
    finally:
        _close(client, uri)
    plot_text = PLOT.read_text("utf-8")
    plot = _open(client, PLOT, plot_text)
    try:
        entries = await _complete(client, plot, plot_text, "go to ")
        assert {"1", "60", "61"} <= entries
        assert "deck" not in entries
    finally:
        _close(client, plot)


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_gives_what_rulecraft_fmt_writes(client: LanguageClient) -> None:
    canonical = SPARKS_RULES.read_text("utf-8")
    messy = canonical.replace(
        "define enemy_creatures = opponents.board", "define   enemy_creatures=opponents.board"
    )
    assert messy != canonical
    uri = _open(client, SPARKS_RULES, messy)
    try:
        options = lsp.FormattingOptions(tab_size=4, insert_spaces=True)
        edits = await client.text_document_formatting_async(
            lsp.DocumentFormattingParams(text_document=_doc(uri), options=options)
        )
        assert edits is not None and len(edits) == 1
        assert edits[0].new_text == format_source(messy, str(SPARKS_RULES)) == canonical
        _replace(client, uri, canonical, 2)
        again = await client.text_document_formatting_async(
            lsp.DocumentFormattingParams(text_document=_doc(uri), options=options)
        )
        assert again is not None and len(again) == 0
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols_outline_cards_and_entries(client: LanguageClient) -> None:
    uri = _open(client, SPARKS_CARDS)
    plot = _open(client, PLOT)
    try:
        outline = await client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(text_document=_doc(uri))
        )
        assert outline is not None
        names = [s.name for s in outline if isinstance(s, lsp.DocumentSymbol)]
        assert names[0] == 'creature spark_imp "Spark Imp"'
        assert 'creature ember_golem "Ember Golem"' in names
        golem = next(s for s in outline if s.name == 'creature ember_golem "Ember Golem"')
        assert isinstance(golem, lsp.DocumentSymbol) and golem.children is not None
        assert [c.name for c in golem.children] == ['ability "Overheat"']
        entries = await client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(text_document=_doc(plot))
        )
        assert entries is not None
        assert 'entry 60 "Dry Season"' in [s.name for s in entries]
    finally:
        _close(client, uri)
        _close(client, plot)


@pytest.mark.asyncio(loop_scope="module")
async def test_saving_checks_the_whole_ruleset_from_disk(
    client: LanguageClient, tmp_path: Path
) -> None:
    copy = tmp_path / "sparks"
    shutil.copytree(ROOT / "sparks", copy)
    rules = copy / "rules.rcl"
    uri = _open(client, rules)
    try:
        await asyncio.sleep(0.2)
        cards = copy / "cards.rcl"
        cards.write_text(cards.read_text("utf-8").replace("knock_out(target)", "knockout(target)"))
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=_doc(uri)))
        found = await _diagnostics_until(client, cards.as_uri(), "RC201")
        assert any("did you mean 'knock_out'?" in d.message for d in found)
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_manifest_changed_on_disk_is_checked_again(
    client: LanguageClient, tmp_path: Path
) -> None:
    copy = tmp_path / "sparks"
    shutil.copytree(ROOT / "sparks", copy)
    manifest = copy / "ruleset.yaml"
    manifest.write_text(manifest.read_text("utf-8").replace("players: {min: 2", "player: {min: 2"))
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(
            changes=[lsp.FileEvent(uri=manifest.as_uri(), type=lsp.FileChangeType.Changed)]
        )
    )
    found = await _diagnostics_until(client, manifest.as_uri(), "RC010")
    assert any("did you mean `players`?" in d.message for d in found)


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_inside_a_card_being_written_offers_its_kind_attributes(
    client: LanguageClient,
) -> None:
    # Half a line typed: the component does not parse, its header still names the kind.
    text = SPARKS_CARDS.read_text("utf-8").replace(
        "    copies: 5\n    cost: 3\n", "    copies: 5\n    po\n    cost: 3\n", 1
    )
    uri = _open(client, SPARKS_CARDS, text)
    try:
        names = await _complete(client, uri, text, "    po")
        assert {"power", "cost"} <= names
        assert "cast" not in names  # a spell's attribute
        fields = await _complete(client, uri, text, "if this.")
        assert {"charge", "power"} <= fields and "cast" not in fields
    finally:
        _close(client, uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_typing_during_a_whole_ruleset_check_does_not_break_it(
    client: LanguageClient,
) -> None:
    # Each change is parsed at once while whole-ruleset checks are scheduled and run (in a
    # worker process: in a thread, sharing the parser's stateful indentation post-lexer, a
    # check once died with an AssertionError in Lark while the index was being built).
    text = PLOT.read_text("utf-8").replace("go to 60", "go to 6000", 1)
    uri = _open(client, PLOT, text)
    try:
        for version in range(2, 40):
            _replace(client, uri, text + "#" * version + "\n", version)
            await asyncio.sleep(0.1)
        found = await _diagnostics_until(client, uri, "RC230")
        assert any("6000" in d.message for d in found)
        assert not [d for d in found if d.code == "RC101"]  # no parse went wrong
        position = _position(text, "go to 61", 6)
        result = await client.text_document_hover_async(
            lsp.HoverParams(text_document=_doc(uri), position=position)
        )
        assert result is not None  # the server still parses and answers
    finally:
        _close(client, uri)
