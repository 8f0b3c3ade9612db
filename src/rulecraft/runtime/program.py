"""The compiled form of a ruleset: what the engine runs.

The compiler (:mod:`rulecraft.compile.compiler`) turns the AST and the manifest into a
:class:`Program`.  Expressions become closures ``fn(ctx) -> value``; statement blocks become
:class:`Routine` s, flat lists of instructions ``instr(ctx) -> None`` addressed by
``(routine, pc)`` so that the engine's continuation (the stack of frames in the state) is
plain data; each routine also has one generated Python function that runs them
(:mod:`rulecraft.compile.routine_code`).  Nothing here refers to Lark.

Runtime values are plain JSON data, told apart by their shape (:mod:`rulecraft.runtime.ids`
builds and reads every id; no other module spells a prefix):

======================  ==========================================
``"@0"``                a player (seat 0)
``"deck#3"``            a component instance (definition ``deck``, copy 3)
``"z:hand@1"``          a zone (``hand`` of seat 1; ``z:pile`` when shared)
``"s:b2"``              a map space (also the zone holding its pieces)
``"d:goblin"``          a component definition
``{"": "Hi", "de": ..}`` a text with translations
``"front"``             any other bare word: a symbol (kinds, sides, flags, enum values)
======================  ==========================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulecraft.diagnostics import Span

if TYPE_CHECKING:
    from rulecraft.runtime.engine import Ctx

Value = Any
ExprFn = Callable[["Ctx"], Value]
Instr = Callable[["Ctx"], None]
RoutineFn = Callable[["Ctx", int], int]
#: A text to show: its translations by language, or a function that builds it (a label
#: that interpolates ``{...}``)
Label = dict[str, str] | ExprFn


@dataclass(frozen=True, slots=True)
class Routine:
    """A compiled block: instructions run in order; the frame's ``pc`` indexes ``code``."""

    name: str
    code: tuple[Instr, ...]
    spans: tuple[Span, ...]
    params: tuple[str, ...] = ()
    #: The routine as one generated function (:mod:`rulecraft.compile.routine_code`):
    #: ``run(ctx, budget) -> steps`` runs the top frame from its ``pc`` as
    #: :func:`rulecraft.runtime.engine.interpret` runs ``code``; ``None``: ``code`` is
    #: run an instruction at a time (by ``interpret``).
    run: RoutineFn | None = None
    #: The generated function's source (``rulecraft compile --show`` prints it), also
    #: where it is not run (``run`` is ``None``: the compiled runtime without a compiled
    #: copy of it runs ``code``, faster than the source exec'd).
    source: str = ""


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    name: str
    per_player: bool
    visibility: str  # public | owner | hidden
    order: str  # ordered | unordered | bag
    capacity: int | None
    label: dict[str, str]
    size: int | None = None
    #: Fields of a card in this zone that every seat sees even while the card is face
    #: down or hidden (where it lies, not what it is: the sector a face-down card stands in).
    public_fields: tuple[str, ...] = ()
    #: Fields a card carries only while it is in this zone (a sector, a row): leaving the
    #: zone clears them, so a card back in a hand keeps no trace of where it stood.
    local_fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    name: str
    per_player: bool
    minimum: int | None
    maximum: int | None
    start: int
    label: dict[str, str]
    # how log lines name an amount of it, per language: "point|points" (one|more)
    unit: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """A value the game or each player carries that is not a resource (manifest ``fields:``):
    a trump suit, a chosen card, a bid.  Never logged when set; shown in views only when
    ``shown``."""

    name: str
    per_player: bool
    type: str
    default: Any
    shown: bool


@dataclass(frozen=True, slots=True)
class KindSpec:
    name: str
    active_in: frozenset[str]
    abilities_in: frozenset[str]
    active_if: ExprFn | None
    counters: tuple[str, ...]
    sides: tuple[str, ...]
    #: ``active_if`` as the flags it tests on ``this`` (each flag, and whether the card
    #: must have it), when it is nothing else and each flag is only ever set on a card
    #: (:mod:`rulecraft.compile.flags`); ``None``: the engine runs ``active_if``.
    active_flags: tuple[tuple[str, bool], ...] | None = None


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    """An activated ability of a component definition (index ``index`` on ``side``)."""

    owner: str  # definition id
    index: int
    label: dict[str, str]
    cost: tuple[tuple[str, ExprFn], ...]
    limit: str | None
    condition: ExprFn | None
    routine: int
    side: str | None
    #: The cost when it is written as numbers (``costs 1 water``), as its (unit, count)
    #: parts: a menu tests it first, from the numbers, before the condition, which costs
    #: more to work out and is not worth asking when the seat cannot pay.  (Neither
    #: changes anything; a computed cost, None here, keeps its place after the condition,
    #: which may be what keeps it from failing.)
    fixed_cost: tuple[tuple[str, int], ...] | None = None
    #: Component id -> this ability's option on it (``[id, None, value]``) and the key its
    #: ``once per`` limit counts uses under (``None``: no limit), made once: a menu lists
    #: every ability of every card in play at each decision, and offers these very lists
    #: (options are replaced, never changed in place; :func:`instructions._ability_keys`).
    keys: dict[str, tuple[list[Any], str | None]] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True, eq=False)  # (one per where: hashed as itself)
class KeptSpaces:
    """``spaces where C`` when ``C`` reads nothing of the game but the piles of spaces fixed
    by the space it tests (``empty(it)``, ``empty(space_at(it.x, it.y + 1))``): the spaces
    it keeps can be kept up to date as pieces move instead of testing every space at every
    decision (:mod:`rulecraft.runtime.incremental`; the compiler's side is
    :mod:`rulecraft.compile.incremental`)."""

    #: the map's spaces, in the order the ``where`` walks them
    spaces: tuple[str, ...]
    #: ``C`` for one space: ``test(zones, space)``, with the state's zones
    test: Callable[[dict[str, list[str]], str], bool]
    #: each pile ``C`` reads -> the indexes (in ``spaces``) of the spaces whose test reads it
    watchers: dict[str, tuple[int, ...]]
    #: the generated source of ``test`` (what ``rulecraft compile --show`` prints)
    source: str
    #: ``C`` is ``empty(it)`` itself: the engine tests the space's pile in place instead
    #: of calling ``test`` (a call of Python code costs more than the test)
    empty_only: bool = False


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """An action a turn's menu can offer (``action`` items of the language)."""

    name: str
    label: dict[str, str] | ExprFn  # a function when the label interpolates {...}
    for_var: str | None
    for_collection: ExprFn | None
    cost: tuple[tuple[str, ExprFn], ...]
    limit: str | None
    condition: ExprFn | None
    routine: int
    #: The ids a menu offers the action under, written once by the compiler: the
    #: action's own (``act:NAME``), the stem each value's id follows (``act:NAME:``),
    #: and the key its ``once per`` limit counts uses under (``None``: no limit).
    option: str
    option_stem: str
    limit_key: str | None
    #: ``for_collection`` kept up to date as pieces move, when it can be (else ``None``)
    kept: KeptSpaces | None = None
    #: the option of each of ``kept``'s spaces, in its order, ``[id, None, value]``: built
    #: once, and the menu offers these very lists (no text sliced or joined, no id hashed,
    #: nothing built or freed at a decision; options are replaced, never changed in place)
    kept_options: tuple[list[Any], ...] = ()
    #: Value -> the option a menu offers the action under for it and whether that holds
    #: only while the seat sees the value (a card: one it cannot see is named by its
    #: place), made at the first menu offering it (:func:`instructions._value_option`).
    value_options: dict[str, tuple[list[Any], bool]] = field(
        default_factory=dict, compare=False, repr=False
    )


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """A triggered ability: on ``event`` at ``timing``, run ``routine`` if ``condition``."""

    owner: str | None  # definition id, or None for a rule (always in force)
    timing: str  # before | when | after | at
    event: str
    params: tuple[str, ...]
    condition: ExprFn | None
    optional: bool
    routine: int
    label: dict[str, str]
    side: str | None


@dataclass(frozen=True, slots=True)
class ModifierSpec:
    owner: str | None
    prop: str
    targets: ExprFn
    amount: ExprFn
    condition: ExprFn | None
    side: str | None
    # (min a) / (max b): the value is clamped right after this modifier applies
    minimum: ExprFn | None = None
    maximum: ExprFn | None = None
    #: (amount, minimum, maximum) when each is a number written in the rule (``by -1
    #: (min 0)``): applied without running an expression or binding the card's locals.
    fixed: tuple[int, int | None, int | None] | None = None


@dataclass(frozen=True, slots=True)
class GrantSpec:
    owner: str | None
    flag: str
    targets: ExprFn
    condition: ExprFn | None
    side: str | None


@dataclass(frozen=True, slots=True)
class ComponentDef:
    """A component definition: its static attributes (already evaluated when constant)."""

    id: str
    kind: str
    name: dict[str, str]
    attributes: dict[str, Value]
    dynamic: dict[str, ExprFn]
    effects: dict[str, int]  # attribute name -> routine (effect-valued attributes)
    side_attributes: dict[str, dict[str, Value]]
    copies: int
    text: dict[str, str]
    span: Span


@dataclass(frozen=True, slots=True)
class Placement:
    """``copies`` instances of a definition start in ``zone`` (one set per seat if
    ``per_player``); their ids are ``<definition>#<n>``."""

    def_id: str
    copies: int
    zone: str
    per_player: bool


@dataclass(frozen=True, slots=True)
class EntryDef:
    number: int
    title: dict[str, str]
    text: dict[str, str]
    routine: int
    span: Span


@dataclass(frozen=True, slots=True)
class PlanSpec:
    """A phase played as a plan: the player may reset it to its start (a snapshot kept in
    the state) and ends it by executing it, offered only while ``execute_if`` holds."""

    execute_if: ExprFn | None
    execute_label: dict[str, str]
    reset_label: dict[str, str]
    max_resets: int | None = None  # the most resets of one plan (None: no limit)


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    name: str
    label: dict[str, str] | ExprFn  # a function when the label interpolates {...}
    body: int | None  # routine run at the start of the phase
    actions: tuple[str, ...]  # action names, plus "abilities"
    max_actions: int | None
    distinct: bool
    mandatory: bool
    pass_label: dict[str, str]
    plan: PlanSpec | None = None
    # ask even when passing is the only choice (false: such a phase just ends)
    ask_to_pass: bool = True


@dataclass(frozen=True, slots=True)
class EndSpec:
    """A game-end condition checked at every decision point."""

    condition: ExprFn
    outcome: str  # winner | loser | draw | all_win | all_lose
    who: ExprFn | None
    reason: dict[str, str]
    per_seat: bool


@dataclass(frozen=True, slots=True)
class PolicySpec:
    name: str
    pick: str  # first | last | random | min | max | worst | best
    score: ExprFn | None


@dataclass(frozen=True, slots=True)
class MapTile:
    """A tile of a modular board (``map: tiles:``): its own spaces, placed into a slot at
    setup.  ``spaces`` are the map's ids of its spaces (``TILE_SPACE``); ``offsets`` where
    each lies from the slot's origin; ``ports`` which spaces touch each named port."""

    id: str
    spaces: tuple[str, ...]
    offsets: dict[str, tuple[int, int]]
    ports: dict[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class MapSlot:
    """A place on a modular board that holds one tile; its tile's spaces lie around
    ``origin``."""

    id: str
    origin: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MapSpec:
    """The map.  With tiles, ``coords``, ``by_coord`` and ``zone_keys`` hold the board's
    own spaces and ``adjacency`` the links that do not depend on where tiles lie; the map
    of one placement (``runtime.map.current_map``) adds the rest."""

    kind: str  # square | hex | graph
    width: int
    height: int
    spaces: tuple[str, ...]
    coords: dict[str, tuple[int, int]]
    terrain: dict[str, str]
    adjacency: dict[str, tuple[str, ...]]
    costs: dict[str, int]
    blocks_sight: frozenset[str]
    by_coord: dict[tuple[int, int], str] = field(default_factory=dict)
    zone_keys: tuple[tuple[str, tuple[int, int]], ...] = ()
    tiles: tuple[MapTile, ...] = ()
    slots: tuple[MapSlot, ...] = ()
    #: (slot, port, slot, port): the two ports touch, whichever tiles lie there
    joins: tuple[tuple[str, str, str, str], ...] = ()
    #: (space, slot, port): a board space touches the port of the tile in that slot
    board_ports: tuple[tuple[str, str, str], ...] = ()
    place_tiles: str = "shuffle"  # shuffle | listed
    #: the tile ids slot by slot of this map's placement (only in a placed map)
    placement: tuple[str, ...] = ()
    #: placed maps already built, by placement (runtime.map.current_map)
    placed: dict[tuple[str, ...], MapSpec] = field(default_factory=dict, compare=False, repr=False)
    #: the lines of n spaces in a straight line, by n, as bit masks (runtime.map.lines_of)
    lines: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    #: by n, space by space (as in ``zone_keys``), the lines of ``lines[n]`` through it
    lines_through: dict[int, tuple[tuple[int, ...], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: each space's pile -> its index in ``zone_keys`` (runtime.incremental.space_index)
    index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    #: by start, the cheapest cost of every space and the step each came from
    #: (runtime.map.routes_from): terrain and links never change while a map lies
    routes: dict[str, tuple[dict[str, int], dict[str, str]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: by space, the piles of its neighbours (a space's ``neighbors`` field), made once
    neighbor_keys: dict[str, tuple[str, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: by space's pile, what entering it costs (a space's ``cost`` field), made once
    key_costs: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    #: by space's pile, the ``distance`` to every space's pile (-1: no way there), made
    #: once per space asked about (runtime.map.distance), on maps of up to 1,024 spaces
    distances: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Program:
    """Everything the engine needs to run one ruleset."""

    name: str
    title: dict[str, str]
    version: str
    languages: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int
    routines: list[Routine]
    zones: dict[str, ZoneSpec]
    resources: dict[str, ResourceSpec]
    kinds: dict[str, KindSpec]
    defs: dict[str, ComponentDef]
    placements: tuple[Placement, ...]
    entries: dict[int, EntryDef]
    actions: dict[str, ActionSpec]
    abilities: dict[str, tuple[AbilitySpec, ...]]
    triggers: dict[str, tuple[TriggerSpec, ...]]
    modifiers: dict[str, tuple[ModifierSpec, ...]]
    grants: dict[str, tuple[GrantSpec, ...]]
    phases: tuple[PhaseSpec, ...]
    main: int
    end_conditions: tuple[EndSpec, ...]
    policies: dict[str, PolicySpec]
    evaluation: ExprFn | None
    map: MapSpec | None
    dice: Any
    test_pool: ExprFn | None
    test_success: str
    test_cancel: str | None
    flow: dict[str, Any]
    max_decisions: int
    named_effects: dict[str, int] = field(default_factory=dict)
    root: str = ""
    #: What MCTS divides ``evaluation`` by before squashing it into a rollout score (the
    #: size of a "clear lead"): see docs/bots.md.
    evaluation_scale: float = 1.0
    #: The manifest's ``score``: each seat's final score (``you`` is the seat), read
    #: into ``Result.scores`` once the game is over.
    score: ExprFn | None = None
    #: The fewest dice any roll has (the manifest's ``rolls.min_dice``, 0: no floor): a
    #: pool that lost more dice gets back the strongest it lost ("You always roll at least
    #: 1 die").
    min_dice: int = 0
    #: the manifest's ``fields:``: game and player values that are not resources
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    #: Zone names where some kind's abilities can be used ("map" for the board): the
    #: action menu scans only these zones instead of every card of the game.
    ability_zones: frozenset[str] = frozenset()
    #: What the ruleset's names mean (``compile.names.Names``, frozen), kept so that
    #: expressions typed later (scenario checks, the REPL, the solver's goal) compile
    #: against the same names; the runtime never reads it.
    names: Any = None
    #: The flags the rules know (the manifest's ``flags:`` and every ``flag`` statement's)
    flags: frozenset[str] = frozenset()
    #: The flags no trait, kind or grant can give a card: a card has one only when it is
    #: set on it (:func:`rulecraft.compile.flags.only_set_flags`).
    only_set_flags: frozenset[str] = frozenset()
    #: Does any rule set a flag ``until`` a moment (the end of a turn, a round, a phase)?
    #: Without one, nothing is ever to be cleared as a turn or phase ends
    #: (``instructions._expire`` looks at nothing).
    timed_flags: bool = False
    #: Every ``spaces where`` kept up to date as pieces move (:mod:`incremental`): the
    #: actions' ``for ... in`` and those of expressions (``count(spaces where empty(it))``)
    kept_wheres: tuple[KeptSpaces, ...] = ()
    #: The state before setup, per number of players, built once (``engine.new_state``
    #: copies it: a card game's start is a thousand dictionaries to name and fill).
    start_states: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    #: The dice pools the rolls made, by their amounts (``runtime.chance``): a pool is
    #: immutable, and making one (die types looked up, checked, hashed) cost more than
    #: rolling it.
    pools: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)
    #: Pile key -> who may see its cards face up: its zone's visibility (``public`` for a
    #: space or a pile no zone declares) and the seat owning it (``engine.visible_to``,
    #: asked for every card a menu offers; learned as piles are met).
    pile_sight: dict[str, tuple[str, int | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: Pile key -> its zone's declaration, or ``(None,)`` for a space or a pile no zone
    #: declares (``engine.pile_zone``: a move asks it of the pile left and the pile
    #: entered; learned as piles are met, one lookup instead of parsing the key).
    pile_zones: dict[str, tuple[ZoneSpec | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: Zone name (``"map"`` for a space) -> definition -> its abilities and its kind, for
    #: the definitions whose kind uses abilities in that zone (``_ability_options`` in
    #: ``instructions``, for every card of the piles a menu looks at; learned as zones are met).
    ability_uses: dict[str, dict[str, tuple[tuple[AbilitySpec, ...], KindSpec]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: Component id -> what the keys of ``used`` that count its abilities' uses this turn
    #: start with (``builtins.was_used``, which a condition may ask of every card a menu
    #: weighs; made once per card, not joined at each question).
    used_prefixes: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: Component id -> its definition, learned as components are met
    #: (:func:`rulecraft.runtime.engine.definition_of`): a component's definition never
    #: changes (a re-deal moves records, each taking its new card's own definition), so
    #: every game of the program may share it.
    def_of: dict[str, ComponentDef] = field(default_factory=dict, compare=False, repr=False)
