"""PettingZoo environments for any ruleset: ``rulecraft.pettingzoo.env(name)``.

Needs the ``pettingzoo`` extra (``pip install 'rulecraft[pettingzoo]'``).  The encoding of
observations and the numbering of actions are in :mod:`rulecraft.envs`; see
docs/environments.md.
"""

from __future__ import annotations

from rulecraft.envs.aec import RulecraftAECEnv, agent_name, env

__all__ = ["RulecraftAECEnv", "agent_name", "env"]
