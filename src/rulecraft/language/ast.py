"""The typed syntax tree of the rulecraft language.

Every node is a frozen record with a :class:`~rulecraft.diagnostics.Span`.  The parser
(:mod:`rulecraft.language.parser`) builds these from the Lark grammar; the checker and the
compiler consume them; nothing after the parser sees a Lark tree.

>>> from rulecraft.language.parser import parse_text
>>> unit = parse_text('effect greet:\\n    say "hello"\\n', "demo.rcl")
>>> unit.items[0].name, type(unit.items[0].body[0]).__name__
('greet', 'Say')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rulecraft.diagnostics import Span

NOWHERE = Span("<none>", 0, 0)


# ---------------------------------------------------------------------------- text
@dataclass(frozen=True, slots=True)
class Text:
    """A string in the ruleset's default language plus translations (``@de "..."``)."""

    default: str
    translations: tuple[tuple[str, str], ...] = ()

    def get(self, lang: str | None = None) -> str:
        if lang:
            for code, value in self.translations:
                if code == lang:
                    return value
        return self.default

    def as_dict(self) -> dict[str, str]:
        out = {"": self.default}
        out.update(self.translations)
        return out


# ---------------------------------------------------------------------------- expressions
@dataclass(frozen=True, slots=True)
class Expr:
    span: Span


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """An integer, boolean or ``none`` literal."""

    value: int | bool | None


@dataclass(frozen=True, slots=True)
class TextLit(Expr):
    text: Text


@dataclass(frozen=True, slots=True)
class Name(Expr):
    name: str


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    obj: Expr
    field: str
    field_span: Span | None = None  # where the field's name stands, for diagnostics


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    key: Expr


@dataclass(frozen=True, slots=True)
class Qty(Expr):
    """``2 water``, ``1 red``: an amount of a named unit (resource, counter, die type)."""

    amount: Expr
    unit: str


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    """Arithmetic (+ - * / %), comparison (== != < <= > >=), ``and``, ``or``, ``in``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Has(Expr):
    obj: Expr
    flag: str


@dataclass(frozen=True, slots=True)
class Where(Expr):
    """``collection where condition``: ``it`` names each element inside the condition."""

    collection: Expr
    condition: Expr


@dataclass(frozen=True, slots=True)
class Conditional(Expr):
    """``then if condition else otherwise``: one of two values; only the chosen one is
    evaluated.  The span runs from the first branch to the end of the second."""

    then: Expr
    condition: Expr
    otherwise: Expr


@dataclass(frozen=True, slots=True)
class ListExpr(Expr):
    items: tuple[Expr, ...]


# ---------------------------------------------------------------------------- statements
@dataclass(frozen=True, slots=True)
class Stmt:
    span: Span


@dataclass(frozen=True, slots=True)
class SimpleStmt(Stmt):
    """A statement on one line (``gain 2 water``, ``move x to y``): each kind is its own
    node type below, named by its :attr:`verb`.  Their parts have the same names
    throughout: ``value`` is the main operand, ``target`` what ``to``/``on``/``for``
    names, ``source`` what ``from`` names, ``name`` a bare word (a flag, event, variable,
    ``end`` scope)."""

    #: The statement's word, as messages and the formatter spell it
    verb: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Gain(SimpleStmt):
    """``gain AMOUNT [to P]``"""

    verb: ClassVar[str] = "gain"
    value: Expr
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Lose(SimpleStmt):
    """``lose AMOUNT [from P]``"""

    verb: ClassVar[str] = "lose"
    value: Expr
    source: Expr | None = None


@dataclass(frozen=True, slots=True)
class Spend(SimpleStmt):
    """``spend AMOUNT [from P]``"""

    verb: ClassVar[str] = "spend"
    value: Expr
    source: Expr | None = None


@dataclass(frozen=True, slots=True)
class Suffer(SimpleStmt):
    """``suffer AMOUNT [to X]``"""

    verb: ClassVar[str] = "suffer"
    value: Expr
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Heal(SimpleStmt):
    """``heal AMOUNT [from X]``"""

    verb: ClassVar[str] = "heal"
    value: Expr
    source: Expr | None = None


@dataclass(frozen=True, slots=True)
class Deal(SimpleStmt):
    """``deal AMOUNT to X``"""

    verb: ClassVar[str] = "deal"
    value: Expr
    target: Expr


@dataclass(frozen=True, slots=True)
class Win(SimpleStmt):
    """``win [for P]``"""

    verb: ClassVar[str] = "win"
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class LoseGame(SimpleStmt):
    """``lose [for P]``: the game, not a resource"""

    verb: ClassVar[str] = "lose_game"
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Tie(SimpleStmt):
    """``tie``"""

    verb: ClassVar[str] = "tie"


@dataclass(frozen=True, slots=True)
class Draw(SimpleStmt):
    """``draw N [from ZONE] [to ZONE]``"""

    verb: ClassVar[str] = "draw"
    value: Expr
    source: Expr | None = None
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Discard(SimpleStmt):
    """``discard CARDS [to ZONE]``"""

    verb: ClassVar[str] = "discard"
    value: Expr
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Move(SimpleStmt):
    """``move CARDS to PLACE [at top|bottom] [face down]``"""

    verb: ClassVar[str] = "move"
    value: Expr
    target: Expr
    position: str | None = None
    facedown: bool = False


@dataclass(frozen=True, slots=True)
class Shuffle(SimpleStmt):
    """``shuffle ZONE``"""

    verb: ClassVar[str] = "shuffle"
    value: Expr


@dataclass(frozen=True, slots=True)
class Reveal(SimpleStmt):
    """``reveal CARDS [to P]``"""

    verb: ClassVar[str] = "reveal"
    value: Expr
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Look(SimpleStmt):
    """``look at CARDS`` (reveal them to you)"""

    verb: ClassVar[str] = "look"
    value: Expr


@dataclass(frozen=True, slots=True)
class Roll(SimpleStmt):
    """``roll POOL [as NAME]``"""

    verb: ClassVar[str] = "roll"
    value: Expr
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Reroll(SimpleStmt):
    """``reroll DICE``"""

    verb: ClassVar[str] = "reroll"
    value: Expr


@dataclass(frozen=True, slots=True)
class Goto(SimpleStmt):
    """``go to ENTRY``"""

    verb: ClassVar[str] = "goto"
    value: Expr


@dataclass(frozen=True, slots=True)
class SetFlag(SimpleStmt):
    """``set flag NAME [on X] [until END]``"""

    verb: ClassVar[str] = "set_flag"
    name: str
    target: Expr | None = None
    until: str | None = None


@dataclass(frozen=True, slots=True)
class ClearFlag(SimpleStmt):
    """``clear flag NAME [on X]``"""

    verb: ClassVar[str] = "clear_flag"
    name: str
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class SetValue(SimpleStmt):
    """``set FIELD to VALUE``"""

    verb: ClassVar[str] = "set"
    value: Expr
    target: Expr


@dataclass(frozen=True, slots=True)
class Let(SimpleStmt):
    """``let NAME = VALUE``"""

    verb: ClassVar[str] = "let"
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class End(SimpleStmt):
    """``end turn`` / ``end phase`` / ..."""

    verb: ClassVar[str] = "end"
    name: str


@dataclass(frozen=True, slots=True)
class Emit(SimpleStmt):
    """``emit EVENT[(ARGS)]``"""

    verb: ClassVar[str] = "emit"
    name: str
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class Prevent(SimpleStmt):
    """``prevent [AMOUNT]``"""

    verb: ClassVar[str] = "prevent"
    value: Expr | None = None


@dataclass(frozen=True, slots=True)
class Flip(SimpleStmt):
    """``flip CARD [to SIDE]``"""

    verb: ClassVar[str] = "flip"
    value: Expr
    target: Expr | None = None


@dataclass(frozen=True, slots=True)
class Exhaust(SimpleStmt):
    """``exhaust CARD``"""

    verb: ClassVar[str] = "exhaust"
    value: Expr


@dataclass(frozen=True, slots=True)
class Ready(SimpleStmt):
    """``ready CARD``"""

    verb: ClassVar[str] = "ready"
    value: Expr


@dataclass(frozen=True, slots=True)
class Say(SimpleStmt):
    """``say TEXT``"""

    verb: ClassVar[str] = "say"
    value: Expr


@dataclass(frozen=True, slots=True)
class Return(SimpleStmt):
    """``return`` (from an entry or effect)"""

    verb: ClassVar[str] = "return"


@dataclass(frozen=True, slots=True)
class ExprStmt(SimpleStmt):
    """An expression on its own line: an effect run (``deal_hand()``, ``card.on_play``)."""

    verb: ClassVar[str] = "call"
    value: Expr


#: Every kind of simple statement, in the grammar's order.
SIMPLE_STATEMENTS: tuple[type[SimpleStmt], ...] = (
    *(Gain, Lose, LoseGame, Win, Tie, Spend, Suffer, Heal, Deal, Draw, Discard, Move),
    *(Shuffle, Reveal, Look, Roll, Goto, SetFlag, ClearFlag, SetValue, Let, End, Emit),
    *(Prevent, Flip, Exhaust, Ready, Say, Return, Reroll, ExprStmt),
)


@dataclass(frozen=True, slots=True)
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...] | None


@dataclass(frozen=True, slots=True)
class ForEach(Stmt):
    var: str
    collection: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class While(Stmt):
    """``while condition: body``: the body runs again as long as the condition holds."""

    condition: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    """``choose [up to] [N] var from collection [by who] [prompt "..."]: body``."""

    var: str
    count: Expr | None
    up_to: bool
    collection: Expr
    chooser: Expr | None
    prompt: Text | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class OptionClause:
    span: Span
    label: Text
    condition: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class ChooseOption(Stmt):
    """``choose [by who] [prompt "..."]:`` followed by ``option "label" [if cond]: ...``."""

    chooser: Expr | None
    prompt: Text | None
    options: tuple[OptionClause, ...]


@dataclass(frozen=True, slots=True)
class Test(Stmt):
    """``test skill (target) [with extra dice] [as NAME]:`` with ``pass:`` and ``fail:``
    branches."""

    skill: str
    target: Expr
    extra: Expr | None
    on_pass: tuple[Stmt, ...]
    on_fail: tuple[Stmt, ...]
    name: str | None = None  # ``as NAME``: the roll, readable in both branches


# ---------------------------------------------------------------------------- members
@dataclass(frozen=True, slots=True)
class Member:
    span: Span


@dataclass(frozen=True, slots=True)
class Attribute(Member):
    """``name: value`` -- a value is a statement block; most hold one expression."""

    name: str
    body: tuple[Stmt, ...]

    @property
    def expr(self) -> Expr | None:
        """The attribute's value when it is a single expression, else ``None``."""
        if len(self.body) == 1:
            stmt = self.body[0]
            if isinstance(stmt, ExprStmt):
                return stmt.value
        return None


@dataclass(frozen=True, slots=True)
class Ability(Member):
    label: Text | None
    cost: Expr | None
    limit: str | None
    condition: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Trigger(Member):
    timing: str  # when | after | before | at
    event: str
    params: tuple[str, ...]
    condition: Expr | None
    optional: bool
    body: tuple[Stmt, ...]
    prompt: Text | None = None  # the yes/no question of an optional trigger


@dataclass(frozen=True, slots=True)
class Modifier(Member):
    """``modify prop of targets by amount [(min a)] [(max b)] [while condition]``: a static
    modifier; ``minimum``/``maximum`` clamp the value right after this modifier applies."""

    prop: str
    targets: Expr
    amount: Expr
    condition: Expr | None
    minimum: Expr | None = None
    maximum: Expr | None = None


@dataclass(frozen=True, slots=True)
class Grant(Member):
    """``grant flag to targets [while condition]``: a static trait."""

    flag: str
    targets: Expr
    condition: Expr | None


@dataclass(frozen=True, slots=True)
class Side(Member):
    name: str
    label: Text | None
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class Choice(Member):
    label: Text
    condition: Expr | None
    body: tuple[Stmt, ...]


# ---------------------------------------------------------------------------- items
@dataclass(frozen=True, slots=True)
class Item:
    span: Span


@dataclass(frozen=True, slots=True)
class Include(Item):
    path: str


@dataclass(frozen=True, slots=True)
class Component(Item):
    kind: str
    id: str
    label: Text | None
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class Entry(Item):
    number: int
    label: Text | None
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class Rule(Item):
    name: str
    label: Text | None
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class EffectDef(Item):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Define(Item):
    name: str
    params: tuple[str, ...]
    expr: Expr


@dataclass(frozen=True, slots=True)
class ActionDef(Item):
    name: str
    label: Text | None
    for_var: str | None
    for_collection: Expr | None
    cost: Expr | None
    limit: str | None
    condition: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Unit:
    """One parsed ``.rcl`` file."""

    file: str
    items: tuple[Item, ...] = field(default=())
