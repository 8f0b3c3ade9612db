"""The rulecraft language server (``rulecraft lsp``).

One module per concern: :mod:`.positions` (LSP positions and UTF-16 columns),
:mod:`.index` (what a ruleset defines and where each name is used), :mod:`.checks`
(diagnostics from the validator pipeline), :mod:`.hover`, :mod:`.navigation` (definition and
references), :mod:`.completion`, :mod:`.symbols` (the outline), :mod:`.formatting`,
:mod:`.actions` (quick fixes for did-you-mean hints) and :mod:`.server` (the pygls wiring).
Everything reuses the one parser, formatter and validator: the server has no grammar of its own.
"""
