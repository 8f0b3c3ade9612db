"""Hypothesis strategies that write small random but valid rulesets.

A generated ruleset has a fixed manifest skeleton (two to four players, a deck, a hand, a
board of random capacity and a discard pile per player, gold with random bounds, a damage
counter on cards, one phase whose actions are the generated ones, an end condition) and a
random ``.rcl`` file: cards with random copies and costs, some with triggers; effects with
parameters; definitions; actions whose bodies mix gains, losses, spending, draws, moves,
discards, shuffles, damage, lets and sets, arithmetic (``+ - * / %``, ``max``, ``min``,
``abs``, ``count``), ``if``/``else``, ``repeat``, ``for each``, ``while``, choices, custom
events and calls.  Amounts may be negative or huge on purpose: the runtime must answer those
with a located ``RuleError``, never anything else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

NUMBERS = st.one_of(
    st.integers(0, 5),
    st.integers(-3, 9),
    st.sampled_from([0, 1, 2, 100, 2000000000]),
)


@dataclass
class Scope:
    """What the statement being generated may use."""

    numbers: list[str] = field(default_factory=list)  # integer variables
    cards: list[str] = field(default_factory=list)  # variables holding a component
    depth: int = 0

    def child(self) -> Scope:
        return Scope(list(self.numbers), list(self.cards), self.depth + 1)


@dataclass
class Names:
    """The names generated so far (effects with their arity, definitions, events)."""

    effects: dict[str, int] = field(default_factory=dict)
    defines: dict[str, int] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    fresh: int = 0

    def new(self, prefix: str) -> str:
        self.fresh += 1
        return f"{prefix}{self.fresh}"


def number(draw: st.DrawFn, scope: Scope, names: Names, depth: int = 0) -> str:
    """An integer expression."""
    leaves = ["lit", "gold", "count", "lit"]
    if scope.numbers:
        leaves.append("var")
    if scope.cards:
        leaves.append("card")
    kinds = leaves if depth >= 2 else [*leaves, "op", "op", "call", "define"]
    kind = draw(st.sampled_from(kinds))
    if kind == "lit":
        value = draw(NUMBERS)
        return str(value) if value >= 0 else f"(0 - {-value})"
    if kind == "gold":
        return draw(st.sampled_from(["you.gold", "opponent.gold", "gold"]))
    if kind == "count":
        zone = draw(st.sampled_from(["you.hand", "you.deck", "you.board", "opponent.hand"]))
        return f"count({zone})"
    if kind == "var":
        return draw(st.sampled_from(scope.numbers))
    if kind == "card":
        card = draw(st.sampled_from(scope.cards))
        return draw(st.sampled_from([f"{card}.cost", f"{card}.damage"]))
    if kind == "op":
        op = draw(st.sampled_from(["+", "-", "*", "/", "%"]))
        left = number(draw, scope, names, depth + 1)
        right = number(draw, scope, names, depth + 1)
        return f"({left} {op} {right})"
    if kind == "define" and names.defines:
        name = draw(st.sampled_from(sorted(names.defines)))
        args = [number(draw, scope, names, depth + 1) for _ in range(names.defines[name])]
        return f"{name}({', '.join(args)})" if args else name
    fn = draw(st.sampled_from(["max", "min", "abs"]))
    args = [number(draw, scope, names, depth + 1) for _ in range(1 if fn == "abs" else 2)]
    return f"{fn}({', '.join(args)})"


def condition(draw: st.DrawFn, scope: Scope, names: Names) -> str:
    kind = draw(st.sampled_from(["cmp", "cmp", "empty", "and", "true"]))
    if kind == "empty":
        zone = draw(st.sampled_from(["you.hand", "you.deck", "you.board"]))
        return draw(st.sampled_from([f"empty({zone})", f"not empty({zone})"]))
    if kind == "true":
        return draw(st.sampled_from(["true", "false"]))
    op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
    text = f"{number(draw, scope, names, 1)} {op} {number(draw, scope, names, 1)}"
    if kind == "and":
        joiner = draw(st.sampled_from(["and", "or"]))
        text += f" {joiner} {number(draw, scope, names, 2)} > 0"
    return text


def block(draw: st.DrawFn, scope: Scope, names: Names, indent: int) -> list[str]:
    """One to four statements (lines without the block's own indentation)."""
    scope = scope.child()
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        lines += statement(draw, scope, names, indent)
    return lines


def _nested(draw: st.DrawFn, scope: Scope, names: Names, indent: int) -> list[str]:
    return ["    " + line for line in block(draw, scope, names, indent + 1)]


SIMPLE = [
    "gain",
    "lose",
    "spend",
    "draw",
    "move",
    "discard",
    "shuffle",
    "deal",
    "let",
    "set",
    "say",
    "emit",
    "call",
    "flag",
    "build",
]
COMPOUND = ["if", "repeat", "for", "while", "choose", "options"]


def statement(draw: st.DrawFn, scope: Scope, names: Names, indent: int) -> list[str]:
    kinds = SIMPLE if scope.depth >= 3 else SIMPLE + COMPOUND
    kind = draw(st.sampled_from(kinds))
    n = number(draw, scope, names)
    if kind in ("gain", "lose", "spend"):
        whom = draw(st.sampled_from(["", " to opponent", " to you"] if kind == "gain" else [""]))
        return [f"{kind} {n} gold{whom}"]
    if kind == "draw":
        return [f"draw {n} from deck to hand"]
    if kind == "move":
        dest = draw(st.sampled_from(["you.board", "you.deck", "you.hand", "opponent.board"]))
        what = draw(st.sampled_from(["first(you.hand)", "top(you.deck)", *scope.cards]))
        return [f"move {what} to {dest}"]
    if kind == "discard":
        return ["discard first(you.hand) to you.pile"]
    if kind == "shuffle":
        return ["shuffle you.deck"]
    if kind == "deal":
        target = draw(st.sampled_from(["first(you.board)", "top(you.deck)", *scope.cards]))
        return [f"deal {n} damage to {target}"]
    if kind == "let":
        name = names.new("v")
        scope.numbers.append(name)
        return [f"let {name} = {n}"]
    if kind == "set":
        if scope.numbers:
            return [f"set {draw(st.sampled_from(scope.numbers))} to {n}"]
        return [f"set gold to {n}"]
    if kind == "say":
        return [f'say "n is {{{n}}}"']
    if kind == "emit" and names.events:
        return [f"emit {draw(st.sampled_from(names.events))}({n})"]
    if kind == "call" and names.effects:
        name = draw(st.sampled_from(sorted(names.effects)))
        args = [number(draw, scope, names, 1) for _ in range(names.effects[name])]
        return [f"{name}({', '.join(args)})" if args else name]
    if kind == "build":  # texts and lists sized at run time, now and then far too large
        n = draw(st.sampled_from([n, "3", "2000000000"]))
        if draw(st.booleans()):
            return [f'say "ab" * {n}']
        var = names.new("v")
        scope.numbers.append(var)
        size = draw(st.sampled_from([f"range(1, {n})", f"[1, 2] * {n}"]))
        return [f"let {var} = count({size})"]
    if kind == "flag":
        return [draw(st.sampled_from(["set flag marked on you", "clear flag marked on you"]))]
    if kind == "if":
        lines = [f"if {condition(draw, scope, names)}:", *_nested(draw, scope, names, indent)]
        if draw(st.booleans()):
            lines += ["else:", *_nested(draw, scope, names, indent)]
        return lines
    if kind == "repeat":
        return [f"repeat {n}:", *_nested(draw, scope, names, indent)]
    if kind == "while":
        return [f"while {condition(draw, scope, names)}:", *_nested(draw, scope, names, indent)]
    if kind in ("for", "choose"):
        var = names.new("c")
        inner = scope.child()
        inner.cards.append(var)
        zone = draw(st.sampled_from(["you.hand", "you.board", "you.deck", "opponent.board"]))
        head = f"for each {var} in {zone}:" if kind == "for" else f"choose {var} from {zone}:"
        return [head, *["    " + ln for ln in block(draw, inner, names, indent + 1)]]
    if kind == "options":
        lines = ["choose:"]
        for label in ("A", "B")[: draw(st.integers(1, 2))]:
            lines += [f'    option "{label}":']
            lines += ["    " + ln for ln in _nested(draw, scope, names, indent + 1)]
        return lines
    return [f"gain {n} gold"]


MANIFEST = """\
rulecraft: 1
name: fuzz
players: {{min: 2, max: 4}}
files: [rules.rcl]
kinds:
  card:
    attributes: {{cost: number}}
    counters: [damage]
zones:
  deck: {{per: player, visibility: hidden, order: ordered}}
  hand: {{per: player, visibility: owner}}
  board: {{per: player, visibility: public{capacity}}}
  pile: {{per: player, visibility: public}}
resources:
  gold: {{per: player, start: {start}{bounds}}}
flags: [marked]
components:
  - {{kind: card, zone: deck}}
flow:
  phases:
    - name: main
      actions: [{actions}]
      max: {max_actions}
end:
  - if: "you.gold >= {goal}"
    winner: you
"""


def indent(lines: list[str], by: str = "    ") -> str:
    return "".join(f"{by}{line}\n" for line in lines)


@st.composite
def rulesets(draw: st.DrawFn) -> tuple[str, str]:
    """A random valid ruleset: (the manifest, rules.rcl)."""
    names = Names()
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 2))):
        name = names.new("d")
        arity = draw(st.integers(0, 2))
        params = [f"p{i}" for i in range(arity)]
        body = number(draw, Scope(numbers=params), names, 1)
        names.defines[name] = arity
        head = f"define {name}({', '.join(params)})" if params else f"define {name}"
        parts.append(f"{head} = {body}\n")
    for _ in range(draw(st.integers(0, 2))):
        names.events.append(names.new("ev"))
    for _ in range(draw(st.integers(0, 2))):
        name = names.new("e")
        arity = draw(st.integers(0, 1))
        params = [f"q{i}" for i in range(arity)]
        body = block(draw, Scope(numbers=params, depth=1), names, 1)
        names.effects[name] = arity  # after its body: no recursion through effects here
        head = f"effect {name}({', '.join(params)}):" if params else f"effect {name}:"
        parts.append(head + "\n" + indent(body))
    for i in range(draw(st.integers(1, 3))):
        lines = [f'card k{i} "Card {i}":', f"    copies: {draw(st.integers(1, 4))}"]
        lines.append(f"    cost: {draw(st.integers(0, 3))}")
        if names.events and draw(st.booleans()):
            event = draw(st.sampled_from(names.events))
            lines.append(f"    when {event}(n):")
            lines += [
                "        " + ln for ln in block(draw, Scope(numbers=["n"], depth=2), names, 2)
            ]
        elif draw(st.booleans()):
            lines.append("    when gained(who, unit, n) if n > 1:")
            lines += [
                "        " + ln for ln in block(draw, Scope(numbers=["n"], depth=2), names, 2)
            ]
        parts.append("\n".join(lines) + "\n")
    actions = []
    for _ in range(draw(st.integers(1, 3))):
        name = names.new("a")
        actions.append(name)
        cost = draw(st.sampled_from(["", " costs 1 gold", " costs 2 gold"]))
        body = block(draw, Scope(depth=0), names, 1)
        parts.append(f'action {name} "Action {name}"{cost}:\n' + indent(body))
    for event in names.events:
        parts.append(f"rule on_{event}:\n    when {event}(n):\n        gain 1 gold\n")
    low = draw(st.sampled_from(["", ", min: 0", ", min: -5"]))
    high = draw(st.sampled_from(["", ", max: 20"]))
    manifest = MANIFEST.format(
        capacity=draw(st.sampled_from(["", ", capacity: 2", ", capacity: 5"])),
        start=draw(st.integers(0, 5)),
        bounds=low + high,
        actions=", ".join(actions),
        max_actions=draw(st.integers(1, 3)),
        goal=draw(st.integers(5, 30)),
    )
    return manifest, "\n".join(parts)
