"""Rulesets as environments for learning agents: PettingZoo (:mod:`rulecraft.pettingzoo`)
and OpenSpiel (:mod:`rulecraft.openspiel`), sharing one action numbering
(:mod:`rulecraft.envs.actions`) and one observation encoding (:mod:`rulecraft.envs.encoding`).
"""
