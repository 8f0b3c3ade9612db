"""The runtime: the state as plain JSON data, the engine that runs a compiled program up to
the next decision, its instructions, values, view, chance and map.  It never imports the
compiler or the language: it runs what they produced (docs/architecture.md)."""
