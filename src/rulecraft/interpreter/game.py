"""The public game object (being built; the signatures below are the contract).

A :class:`Game` wraps one plain-data state plus the history needed for undo and replay.

API contract (all other modules program against this):

- ``rulecraft.load(name_or_path) -> Ruleset``; ``Ruleset.new_game(players=2, seed=0, lang="en")``
- ``Game.decision -> Decision | None``; ``Game.result -> Result | None``
- ``Game.choose(option_id)``: answer, run to the next decision (mutates); raises
  ``IllegalChoice`` (a ``ValueError``) for an id not in ``decision.options``.
- ``Game.undo(steps=1)``: back to an earlier decision; ``Game.can_undo``.
- ``Game.clone()``, ``Game.to_json() -> dict``, ``Game.from_json(ruleset, data)``,
  ``Game.state_hash() -> str``.
- ``Game.record -> GameRecord`` (ruleset name, version, players, seed, choices);
  ``Game.replay(ruleset, record)``.
- ``Game.view(seat) -> dict``: JSON-ready; see ``docs/api.md`` for its shape.
- ``Game.describe(name_or_id, seat) -> str | None``: a card's text, if ``seat`` may see it.
- ``Game.odds() -> str | None``: exact odds of the pending roll or test, if one is pending.
- ``Game.log -> list[str]``: readable log lines.
- ``Game.determinize(seat, seed)``, ``Game.evaluate(seat) -> float``.
- ``Game.num_players``, ``Game.seat_names``, ``Game.turn``, ``Game.round``, ``Game.max_decisions``
  (declared bound on decisions of one game).
"""
