"""Bots: agents that answer a game's decisions (random, greedy, MCTS)."""
