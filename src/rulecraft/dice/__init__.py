"""Dice as data: die types, pools, exact distributions and fast, replayable rolls.

>>> from rulecraft.dice import DiceSet, Pool, distribution
>>> dice = DiceSet.from_spec({"green": {"faces": [[], ["fate"], ["success"], ["success"],
...                                               ["success"], ["botch"]]}})
>>> pool = Pool.parse("2 green", dice)
>>> distribution(pool).at_least("success", 1)
Fraction(3, 4)
>>> distribution(pool).net("success", "botch")[0]
Fraction(5, 12)
"""

from rulecraft.dice.exact import (
    Goal,
    JointDistribution,
    OpposedResult,
    RerollAdvice,
    SymbolCounts,
    best_reroll,
    distribution,
    odds_text,
    opposed,
)
from rulecraft.dice.pool import Pool, PoolError, PoolRules
from rulecraft.dice.sampling import RollResult, roll, sample
from rulecraft.dice.spec import VALUE_SYMBOL, DiceSet, DiceSpecError, DieType

__all__ = [
    "VALUE_SYMBOL",
    "DiceSet",
    "DiceSpecError",
    "DieType",
    "Goal",
    "JointDistribution",
    "OpposedResult",
    "Pool",
    "PoolError",
    "PoolRules",
    "RerollAdvice",
    "RollResult",
    "SymbolCounts",
    "best_reroll",
    "distribution",
    "odds_text",
    "opposed",
    "roll",
    "sample",
]
