"""The language: the grammar (``rulecraft.lark``, the single source of truth), the parser,
the syntax tree with spans, the formatter and the Pygments lexer; and the manifest read
with positions and checked against its JSON Schema."""
