"""rulecraft: a rules engine for tabletop games.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(seed=7)
>>> game.decision.prompt
'Place a mark'
"""

from rulecraft.errors import IllegalChoice, RuleError, RulesetError
from rulecraft.interpreter.decision import Decision, Option, Result
from rulecraft.interpreter.game import Game, GameRecord, Ruleset, load

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
