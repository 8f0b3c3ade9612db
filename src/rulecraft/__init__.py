"""rulecraft: a rules engine for tabletop games.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(seed=7)
>>> game.decision.prompt
'Place a mark'
"""

from rulecraft.compile.load import load
from rulecraft.errors import IllegalChoice, RuleError, RulesetError
from rulecraft.runtime.decision import Decision, Option, Result
from rulecraft.runtime.game import Game, GameRecord, Ruleset

__version__ = "0.1.0"

__all__ = [
    "Decision",
    "Game",
    "GameRecord",
    "IllegalChoice",
    "Option",
    "Result",
    "RuleError",
    "Ruleset",
    "RulesetError",
    "__version__",
    "load",
]
