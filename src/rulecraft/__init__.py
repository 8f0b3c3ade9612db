"""rulecraft: a rules engine for tabletop games."""

__version__ = "0.1.0"
