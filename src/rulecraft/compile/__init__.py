"""The compiler: names, fields, expressions, statements, components and flow turned into a
runtime :class:`~rulecraft.runtime.program.Program`, and the checks of a whole ruleset
(``pipeline``: schema, parse, compile, semantic and size checks, in order)."""
