"""OpenSpiel games for any ruleset: ``rulecraft.openspiel.register(name)`` then
``pyspiel.load_game("rulecraft_<name>")``.

Needs the ``openspiel`` extra (``pip install 'rulecraft[openspiel]'``).  How chance,
hidden information and returns are modelled: :mod:`rulecraft.envs.spiel` and
docs/environments.md.
"""

from __future__ import annotations

from rulecraft.envs.spiel import (
    RulecraftSpielGame,
    RulecraftSpielState,
    ViewObserver,
    register,
    short_name,
)

__all__ = ["RulecraftSpielGame", "RulecraftSpielState", "ViewObserver", "register", "short_name"]
