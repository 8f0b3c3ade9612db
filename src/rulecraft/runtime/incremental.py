"""Legal options kept up to date as pieces move, instead of listed from scratch.

A board game's menu is mostly ``for space in spaces where C``: Tic-Tac-Toe's ``empty(it)``,
Connect Four's ``open(it)``.  Listed from scratch, that tests ``C`` on every space at every
decision, although a move changes two piles.  When ``C`` reads nothing of the game but the
piles of spaces fixed by the space it tests (the compiler proves it, and says which piles:
:class:`~rulecraft.runtime.program.KeptSpaces`), the spaces it keeps are remembered on the
context as a bit mask, and after pieces move only the spaces whose test reads a changed
pile are tested again.

What is remembered is derived data, never part of the state: a new context (a loaded
save, an undo) starts with nothing remembered and tests every space once; a clone takes a
copy of what its original remembers (:func:`carry`), a determinization nothing.  The
moves that can change a pile in place note it (:func:`engine.move_comp`,
:func:`engine.shuffle_zone`, ``set c.owner``); whatever else rewrites a game's state in
place forgets what is remembered (:func:`forget`): an arranged position, a plan's reset, a
determinization.  The spaces come out in the map's order, as the ``where``
lists them, so the options, and every game, are the same as when listed from scratch
(``tests/engine/test_incremental.py`` compares the two along random games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rulecraft.runtime.program import KeptSpaces, MapSpec

if TYPE_CHECKING:
    from rulecraft.runtime.engine import Ctx


def kept_spaces(ctx: Ctx, kept: KeptSpaces) -> list[str]:
    """The spaces ``kept``'s ``where`` keeps now, in its order."""
    mask = kept_mask(ctx, kept)
    spaces = kept.spaces
    out: list[str] = []
    while mask:
        low = mask & -mask
        out.append(spaces[low.bit_length() - 1])
        mask ^= low
    return out


def kept_mask(ctx: Ctx, kept: KeptSpaces) -> int:
    """The spaces ``kept``'s ``where`` keeps now as a bit mask: bit ``i`` for
    ``kept.spaces[i]`` (the lowest bit first is the ``where``'s order)."""
    _up_to_date(ctx)
    masks = ctx.kept
    if masks is None:
        masks = ctx.kept = {}
    # (typed apart from the dictionary's optional value: mypyc then does int arithmetic)
    found = masks.get(kept)
    mask: int = _scan(ctx, kept) if found is None else found
    if found is None:
        masks[kept] = mask
    return mask


def _up_to_date(ctx: Ctx) -> None:
    """What is remembered brought up to date, or the piles' moves noted from now on."""
    if ctx.moved is None:
        ctx.moved = []
    elif ctx.moved:
        _catch_up(ctx)


def _scan(ctx: Ctx, kept: KeptSpaces) -> int:
    """Every space tested: the bit mask of those kept."""
    zones = ctx.zones
    test = kept.test
    empty_only = kept.empty_only
    mask = 0
    bit = 1
    for space in kept.spaces:
        if (not zones.get(space)) if empty_only else test(zones, space):
            mask |= bit
        bit <<= 1
    return mask


def owned_spaces(ctx: Ctx, mp: MapSpec) -> list[int]:
    """Seat by seat, the bit mask of the spaces of ``mp`` (the program's map, without
    tiles) holding a piece the seat owns: bit ``i`` for ``mp.zone_keys[i]``
    (:func:`map.in_a_row`).  Only the piles moved since are looked at again."""
    _up_to_date(ctx)
    owned = ctx.owned
    if owned is None:
        owned = ctx.owned = [0] * int(ctx.st["players"])
        zones = ctx.zones
        comps = ctx.comps
        bit = 1
        for key, _ in mp.zone_keys:  # (every bit starts clear: only the pieces set one)
            pile = zones.get(key)
            if pile:
                for cid in pile:
                    owner = comps[cid]["o"]
                    if owner is not None:
                        mine: int = owned[owner]
                        owned[owner] = mine | bit
            bit <<= 1
    return owned


def _own(ctx: Ctx, owned: list[int], key: str, i: int) -> None:
    """Bit ``i`` of each seat's mask set as the pile ``key`` says (see owned_spaces)."""
    bit: int = 1 << i
    keep: int = ~bit
    for seat in range(len(owned)):
        was: int = owned[seat]
        if was & bit:
            owned[seat] = was & keep
    pile = ctx.zones.get(key)
    if pile:
        comps = ctx.comps
        for cid in pile:
            owner = comps[cid]["o"]
            if owner is not None:
                mine: int = owned[owner]
                owned[owner] = mine | bit


def _catch_up(ctx: Ctx) -> None:
    """Everything remembered brought up to date with the piles moved since: the spaces
    whose test reads one of them tested again, their owners looked at again."""
    moved = ctx.moved
    assert moved is not None  # set whenever anything is remembered
    masks = ctx.kept
    if masks is not None:
        zones = ctx.zones
        for kept, was in masks.items():
            watchers = kept.watchers
            test = kept.test
            spaces = kept.spaces
            empty_only = kept.empty_only
            mask: int = was
            for pile in moved:
                for i in watchers.get(pile, ()):
                    space = spaces[i]
                    if (not zones.get(space)) if empty_only else test(zones, space):
                        mask |= 1 << i
                    else:
                        mask &= ~(1 << i)
            masks[kept] = mask
    owned = ctx.owned
    mp = ctx.prog.map
    if owned is not None and mp is not None:
        index = space_index(mp)
        for pile in moved:
            at = index.get(pile)
            if at is not None:
                _own(ctx, owned, pile, at)
    moved.clear()


def space_index(mp: MapSpec) -> dict[str, int]:
    """Each space's pile -> its index in ``mp.zone_keys`` (worked out once per map)."""
    found = mp.index
    if not found:
        found.update((key, i) for i, (key, _) in enumerate(mp.zone_keys))
    return found


def remembers(ctx: Ctx) -> bool:
    """Does ``ctx`` remember anything :func:`carry` would copy?"""
    return ctx.moved is not None or ctx.ability_piles is not None


def carry(ctx: Ctx, to: Ctx) -> None:
    """What ``ctx`` remembers, remembered by ``to`` too (a context over a clone of its
    state: the copies change apart from then on)."""
    to.kept = None if ctx.kept is None else dict(ctx.kept)
    to.owned = None if ctx.owned is None else list(ctx.owned)
    to.moved = None if ctx.moved is None else list(ctx.moved)
    to.rows = None if ctx.rows is None else dict(ctx.rows)
    # the clone's piles are the same, in the same order (lists are never changed in place)
    to.ability_piles = None if ctx.ability_piles is None else dict(ctx.ability_piles)


def forget(ctx: Ctx) -> None:
    """Forget what is remembered: the state was rewritten in place (an arranged position)."""
    redealt(ctx)
    ctx.ability_piles = None


def redealt(ctx: Ctx) -> None:
    """Forget what depends on which card lies where: cards were swapped in their piles
    (a determinization), no pile was added or taken away, so which piles may hold cards
    with abilities (:attr:`Ctx.ability_piles`) is still known."""
    forget_piles(ctx)
    ctx.activity = None
    ctx.instances = None


#: The most piles :attr:`Ctx.moved` notes before what is remembered of them is forgotten
#: (worked out afresh when next asked): a game that moves many cards between two questions
#: does not keep a list of them without end.
MAX_MOVED_NOTED: Final = 1024


def noted(ctx: Ctx, pile: str) -> None:
    """Pile ``pile`` changed (a card left or entered it, it was shuffled, a card in it
    changed owner): noted for the next catch-up while anything is remembered; past
    :data:`MAX_MOVED_NOTED` piles with nobody asking, what is remembered is forgotten."""
    moved = ctx.moved
    if moved is not None:
        moved.append(pile)
        if len(moved) > MAX_MOVED_NOTED:
            forget_piles(ctx)


def forget_piles(ctx: Ctx) -> None:
    """Forget the spaces kept, the seats' spaces and rows, and the piles noted."""
    ctx.kept = None
    ctx.owned = None
    ctx.moved = None
    ctx.rows = None
