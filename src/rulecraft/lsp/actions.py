"""Code actions: one quick fix per did-you-mean hint of the validator.

The validator says ``unknown resource or counter 'pionts'`` with the hint ``did you mean
'points'?``; the fix replaces the misspelt word (found on the diagnostic's line, at or after
its column) with the suggestion.

>>> misspelt_and_fix("unknown resource or counter 'pionts'\\nhint: did you mean 'points'?", None)
('pionts', 'points')
>>> misspelt_and_fix("unknown key `cots`", "did you mean `cost`?")
('cots', 'cost')
"""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types as lsp

from rulecraft.lsp.positions import code_point_column, make_range

_SUGGESTION = re.compile(r"did you mean ['`]([^'`]+)['`]\?")
_QUOTED = re.compile(r"['`]([^'`\n]+)['`]")


def misspelt_and_fix(message: str, hint: str | None) -> tuple[str, str] | None:
    """The misspelt name a diagnostic quotes and the name its hint suggests, if both."""
    body, _, inline_hint = message.partition("\nhint: ")
    suggestion = _SUGGESTION.search(hint or inline_hint)
    quoted = _QUOTED.findall(body)
    if suggestion is None or not quoted:
        return None
    return quoted[-1], suggestion.group(1)


def _hint_of(diagnostic: lsp.Diagnostic) -> str | None:
    data: Any = diagnostic.data
    if isinstance(data, dict) and isinstance(data.get("hint"), str):
        return str(data["hint"])
    return None


def quick_fixes(
    uri: str, lines: list[str], diagnostics: list[lsp.Diagnostic]
) -> list[lsp.CodeAction]:
    """A preferred quick fix for each diagnostic that carries a did-you-mean suggestion."""
    actions = []
    for diagnostic in diagnostics:
        found = misspelt_and_fix(diagnostic.message, _hint_of(diagnostic))
        if found is None:
            continue
        wrong, right = found
        line = diagnostic.range.start.line
        text = lines[line] if 0 <= line < len(lines) else ""
        start = code_point_column(text, diagnostic.range.start.character)
        pattern = re.compile(rf"(?<![\w]){re.escape(wrong)}(?![\w])")
        match = pattern.search(text, start) or pattern.search(text)
        if match is None:
            continue
        edit = lsp.TextEdit(
            range=make_range(lines, line, match.start(), match.end()), new_text=right
        )
        actions.append(
            lsp.CodeAction(
                title=f"Replace '{wrong}' with '{right}'",
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=True,
                edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return actions
