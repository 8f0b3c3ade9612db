"""rulecraft.repl: play a game at the terminal (``rulecraft play``).

:mod:`~rulecraft.repl.session` answers typed lines, :mod:`~rulecraft.repl.render` draws a
seat's view, :mod:`~rulecraft.repl.terminal` reads lines (prompt_toolkit or plain).
"""
