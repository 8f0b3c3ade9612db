"""The typed syntax tree of the rulecraft language.

Every node is a frozen record with a :class:`~rulecraft.diagnostics.Span`.  The parser
(:mod:`rulecraft.language.parser`) builds these from the Lark grammar; the checker and the
compiler consume them; nothing after the parser sees a Lark tree.

>>> from rulecraft.language.parser import parse_text
>>> unit = parse_text('effect greet:\\n    say "hello"\\n', "demo.rcl")
>>> unit.items[0].name, type(unit.items[0].body[0]).__name__
('greet', 'Do')
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
class Do(Stmt):
    """A simple effect: ``verb`` plus the parts it takes.

    verbs: gain lose spend suffer heal deal draw discard move shuffle reveal look roll reroll goto
    set_flag clear_flag set let end emit prevent flip exhaust ready say return win
    lose_game tie call.  ``value`` is the main operand, ``target`` what ``to``/``on``/``for``
    names, ``source`` what ``from`` names, ``name`` a bare word (flag, event, variable,
    ``end`` scope), ``args`` event arguments.
    """

    verb: str
    value: Expr | None = None
    target: Expr | None = None
    source: Expr | None = None
    name: str | None = None
    args: tuple[Expr, ...] = ()
    position: str | None = None
    until: str | None = None
    facedown: bool = False


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
            if isinstance(stmt, Do) and stmt.verb == "call" and stmt.value is not None:
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
