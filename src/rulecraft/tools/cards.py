"""Printable card sheets: every component of a ruleset as a poker-size card in a PDF.

Cards are 63 x 88 mm with a bleed around each (3 mm by default, less when nine do not fit
the paper: 2.5 mm on Letter), nine to a page in a 3 x 3 grid, with crop marks at every trim
corner and along the page margins.  Each page of fronts is followed by a page of backs,
mirrored left to right so that a long-edge duplex print puts each back behind its front.
The back of a two-sided component is its other side; any other card gets the ruleset's back
(its title and the kind).

What a card shows comes from the compiled ruleset (names and texts in the chosen language,
constant attributes, copies) and from each kind's optional ``print:`` section of the
manifest (which attribute is the cost, which the text, which fields, the frame colour, the
back's text, or ``skip``).  A text that does not fit is set smaller, down to
:data:`MIN_TEXT_PT`; what still does not fit is cut and reported as a warning.

ReportLab is an optional dependency (``pip install 'rulecraft[cards]'``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from rulecraft.diagnostics import Span
from rulecraft.language.yaml_source import PositionMap
from rulecraft.suggest import did_you_mean

CARD_W = 63 * mm
CARD_H = 88 * mm
DEFAULT_BLEED_MM = 3.0
SAFE = 4 * mm  # no text closer than this to the trim line (the white panel starts at 2.5)
MAX_TEXT_PT = 9.0
MIN_TEXT_PT = 6.0
PAPERS = {"a4": A4, "letter": LETTER}
# Frame colours for kinds without print.color: picked by a hash of the kind's name, so a
# kind keeps its colour between runs and rulesets.
PALETTE = ("#8c2f39", "#2f5d8c", "#3d7a3a", "#7a5c1e", "#5b3f86", "#1f7a78", "#8a4b1c", "#4a4a4a")
_FONTS = {"regular": "Vera", "bold": "VeraBd", "italic": "VeraIt"}


@dataclass(frozen=True, slots=True)
class PrintSpec:
    """A kind's ``print:`` section, with its defaults filled in."""

    cost: str | None = "cost"
    text: str = "text"
    fields: tuple[str, ...] | None = None  # None: every other constant attribute
    color: str | None = None
    back: str | dict[str, str] | None = None  # text for the generic back (a manifest text)
    skip: bool = False


@dataclass(frozen=True, slots=True)
class CardFace:
    """What one side of a card shows."""

    name: str
    cost: str | None
    type_line: str
    text: str
    fields: tuple[tuple[str, str], ...]
    color: str
    footer: str


@dataclass(frozen=True, slots=True)
class GenericBack:
    """The back every one-sided card of a kind shares."""

    title: str
    kind_label: str
    color: str


@dataclass(frozen=True, slots=True)
class Card:
    """One printed card (each copy is its own card): a two-sided component's back is its
    other side, any other card's the kind's generic back."""

    id: str
    kind: str
    span: Span
    front: CardFace
    back: CardFace | GenericBack


@dataclass(frozen=True, slots=True)
class CardWarning:
    """A card whose text had to be cut, located at its definition."""

    span: Span
    message: str

    def __str__(self) -> str:
        return f"{self.span}: warning: {self.message}"


@dataclass
class SheetReport:
    """What rendering produced."""

    cards: int
    pages: int
    bleed_mm: float
    warnings: list[CardWarning] = field(default_factory=list)


# ---------------------------------------------------------------------------- the cards
def _pick(texts: Any, lang: str | None) -> str:
    """A text in ``lang`` (``""`` or None: the default language) from a text dict."""
    if isinstance(texts, dict):
        if lang and lang in texts:
            return str(texts[lang])
        return str(texts.get("", next(iter(texts.values()), "")))
    return "" if texts is None else str(texts)


def show_value(value: Any, lang: str | None) -> str:
    """An attribute's value as printed: ``{'white': 1}`` is ``1 white``, True is ``yes``.

    >>> show_value({"white": 1, "red": 2}, None), show_value(True, None), show_value(3, None)
    ('1 white, 2 red', 'yes', '3')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if "" in value:
            return _pick(value, lang)
        return ", ".join(f"{n} {unit}" for unit, n in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(show_value(v, lang) for v in value)
    return "" if value is None else str(value)


def print_spec(kind_manifest: Any) -> PrintSpec:
    """A kind's print settings from its manifest entry (defaults when absent)."""
    raw = kind_manifest.get("print") if isinstance(kind_manifest, dict) else None
    if not isinstance(raw, dict):
        return PrintSpec()
    fields = raw.get("fields")
    back = raw.get("back")
    return PrintSpec(
        cost=str(raw["cost"]) if raw.get("cost") else ("cost" if "cost" not in raw else None),
        text=str(raw.get("text", "text")),
        fields=tuple(str(f) for f in fields) if isinstance(fields, list) else None,
        color=str(raw["color"]) if raw.get("color") else None,
        back=back if isinstance(back, str | dict) else None,
        skip=bool(raw.get("skip", False)),
    )


def kind_color(kind: str, spec: PrintSpec) -> str:
    """The kind's frame colour: its ``print.color``, else one of :data:`PALETTE`."""
    if spec.color:
        return spec.color
    digest = hashlib.sha256(kind.encode("utf-8")).digest()
    return PALETTE[digest[0] % len(PALETTE)]


@dataclass(frozen=True, slots=True)
class _KindInfo:
    name: str
    label: str
    spec: PrintSpec
    attribute_order: tuple[str, ...]


def _kind_info(manifest: dict[str, Any], kind: str, lang: str | None) -> _KindInfo:
    kinds = manifest.get("kinds")
    raw = kinds.get(kind) if isinstance(kinds, dict) else None
    raw = raw if isinstance(raw, dict) else {}
    label = raw.get("label")
    shown = label if isinstance(label, str) else _pick(_lang_keys(label, manifest), lang)
    attributes = raw.get("attributes")
    order = tuple(attributes) if isinstance(attributes, dict) else ()
    return _KindInfo(kind, shown or kind, print_spec(raw), order)


def _lang_keys(texts: Any, manifest: dict[str, Any]) -> dict[str, str]:
    """A manifest text ``{en: .., de: ..}`` keyed like compiled texts (default language "")."""
    if not isinstance(texts, dict):
        return {}
    langs = manifest.get("languages") or ["en"]
    default = str(langs[0])
    return {("" if str(k) == default else str(k)): str(v) for k, v in texts.items()}


def _face(
    info: _KindInfo,
    name: dict[str, str],
    attributes: dict[str, Any],
    lang: str | None,
    footer: str,
) -> CardFace:
    spec = info.spec
    cost = attributes.get(spec.cost) if spec.cost else None
    wanted = spec.fields
    if wanted is None:
        skip = {spec.cost, spec.text, "name", "copies"}
        order = [a for a in info.attribute_order if a in attributes]
        order += sorted(a for a in attributes if a not in order)
        wanted = tuple(a for a in order if a not in skip)
    fields = tuple(
        (a, show_value(attributes[a], lang)) for a in wanted if attributes.get(a) is not None
    )
    return CardFace(
        name=_pick(name, lang),
        cost=None if cost is None else show_value(cost, lang),
        type_line=info.label,
        text=_pick(attributes.get(spec.text), lang),
        fields=fields,
        color=kind_color(info.name, spec),
        footer=footer,
    )


def collect_cards(
    program: Any, manifest: dict[str, Any], *, lang: str | None, kinds: Iterable[str] | None
) -> list[Card]:
    """Every card to print, each copy separately, in the order the ruleset defines them."""
    languages = [str(x) for x in (manifest.get("languages") or ["en"])]
    key = None if lang is None or lang == languages[0] else lang
    title = manifest.get("title")
    game = title if isinstance(title, str) else _pick(_lang_keys(title, manifest), key)
    game = game or str(manifest.get("name", ""))
    chosen = set(kinds) if kinds is not None else None
    cards: list[Card] = []
    for definition in program.defs.values():
        info = _kind_info(manifest, definition.kind, key)
        if (chosen is not None and definition.kind not in chosen) or (
            chosen is None and info.spec.skip
        ):
            continue
        footer = f"{info.label} · {definition.id}"
        front = _face(info, definition.name, dict(definition.attributes), key, footer)
        color = kind_color(definition.kind, info.spec)
        back_title = game
        if isinstance(info.spec.back, str):
            back_title = info.spec.back
        elif isinstance(info.spec.back, dict):
            back_title = _pick(_lang_keys(info.spec.back, manifest), key)
        back: CardFace | GenericBack = GenericBack(back_title, info.label, color)
        for attributes in definition.side_attributes.values():
            back_name = attributes.get("name") or definition.name
            back_attributes = {**definition.attributes, **attributes}
            back = _face(info, back_name, back_attributes, key, footer)
        for _copy in range(max(int(definition.copies), 1)):
            cards.append(Card(definition.id, definition.kind, definition.span, front, back))
    return cards


# ---------------------------------------------------------------------------- the sheet
def _register_fonts() -> None:
    # Bitstream Vera ships inside ReportLab: embedded (subset) TrueType, so umlauts and
    # typographic quotes print, and the PDF's text can be read back.
    for name in (*_FONTS.values(), "VeraBI"):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, f"{name}.ttf"))
    # so that <b> and <i> inside a paragraph pick the Vera faces
    pdfmetrics.registerFontFamily(
        "Vera", normal="Vera", bold="VeraBd", italic="VeraIt", boldItalic="VeraBI"
    )


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Where the nine cards of a page go: trim boxes in a centred 3 x 3 grid of bleed boxes."""

    page_w: float
    page_h: float
    bleed: float

    @classmethod
    def fit(cls, paper: str, bleed_mm: float) -> SheetLayout:
        """The layout for ``paper`` with the largest bleed up to ``bleed_mm`` that fits."""
        page_w, page_h = PAPERS[paper]
        room = min(page_w - 3 * CARD_W, page_h - 3 * CARD_H) / 6
        room_mm = int(room / mm * 2) / 2  # whole half millimetres
        return cls(page_w, page_h, max(min(bleed_mm, room_mm), 0.0) * mm)

    @property
    def cell(self) -> tuple[float, float]:
        """Width and height of one card with its bleed."""
        return CARD_W + 2 * self.bleed, CARD_H + 2 * self.bleed

    @property
    def margins(self) -> tuple[float, float]:
        """The page's left and bottom margins around the grid of bleed boxes."""
        cell_w, cell_h = self.cell
        return (self.page_w - 3 * cell_w) / 2, (self.page_h - 3 * cell_h) / 2

    def trim_origin(self, slot: int, *, mirrored: bool = False) -> tuple[float, float]:
        """Bottom-left corner of slot ``slot``'s trim box (0 is top left; backs mirrored)."""
        column, row = slot % 3, slot // 3
        if mirrored:
            column = 2 - column
        cell_w, cell_h = self.cell
        left, bottom = self.margins
        x = left + column * cell_w + self.bleed
        y = bottom + (2 - row) * cell_h + self.bleed
        return x, y


def _crop_marks(canvas: Canvas, layout: SheetLayout, slots: int) -> None:
    """Marks along every trim line: in the bleed at each corner, and in the page margins."""
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeColor("#000000")
    b = layout.bleed
    for slot in range(slots):
        x, y = layout.trim_origin(slot)
        for cx in (x, x + CARD_W):
            for cy in (y, y + CARD_H):
                out_x = -1 if cx == x else 1
                out_y = -1 if cy == y else 1
                canvas.line(cx, cy + out_y * 0.5 * mm, cx, cy + out_y * b)
                canvas.line(cx + out_x * 0.5 * mm, cy, cx + out_x * b, cy)
    left, bottom = layout.margins
    if bottom > 2 * mm:
        for slot in range(3):
            x, _ = layout.trim_origin(slot)
            for cx in (x, x + CARD_W):
                canvas.line(cx, 1 * mm, cx, bottom - 0.5 * mm)
                top = layout.page_h - bottom
                canvas.line(cx, top + 0.5 * mm, cx, layout.page_h - 1 * mm)
    if left > 2 * mm:
        for slot in (0, 3, 6):
            _, y = layout.trim_origin(slot)
            for cy in (y, y + CARD_H):
                canvas.line(1 * mm, cy, left - 0.5 * mm, cy)
                right = layout.page_w - left
                canvas.line(right + 0.5 * mm, cy, layout.page_w - 1 * mm, cy)
    canvas.restoreState()


def _fit_line(text: str, font: str, size: float, width: float) -> tuple[str, float, bool]:
    """``text`` at the largest size down to :data:`MIN_TEXT_PT` that fits ``width``; cut with
    an ellipsis when even that is too wide (the flag says so)."""
    while size > MIN_TEXT_PT and pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text, size, False
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…", size, True


def _paragraph(text: str, size: float, font: str = "regular") -> Paragraph:
    style = ParagraphStyle(
        "card",
        fontName=_FONTS[font],
        fontSize=size,
        leading=size * 1.2,
        textColor=HexColor("#111111"),
    )
    body = "<br/>".join(escape(part) for part in text.split("\n"))
    return Paragraph(body, style)


def _fit_paragraph(text: str, width: float, height: float) -> tuple[Paragraph, float, bool]:
    """The text set as large as fits the box (down to the minimum), then cut by words."""
    size = MAX_TEXT_PT
    while True:
        para = _paragraph(text, size)
        _, needed = para.wrap(width, height)
        if needed <= height:
            return para, size, False
        if size <= MIN_TEXT_PT:
            break
        size -= 0.5
    words = text.split(" ")
    low, high = 0, len(words)
    while low < high:  # the most words that fit, with an ellipsis
        middle = (low + high + 1) // 2
        _, needed = _paragraph(" ".join(words[:middle]) + " …", size).wrap(width, height)
        if needed <= height:
            low = middle
        else:
            high = middle - 1
    return _paragraph(" ".join(words[:low]) + " …", size), size, True


def _frame(canvas: Canvas, x: float, y: float, bleed: float, color: str) -> None:
    """The card's colour out to the bleed line and a white panel inside the safe area."""
    canvas.setFillColor(color)
    canvas.rect(x - bleed, y - bleed, CARD_W + 2 * bleed, CARD_H + 2 * bleed, stroke=0, fill=1)
    canvas.setFillColor("#ffffff")
    inset = 2.5 * mm
    canvas.roundRect(
        x + inset, y + inset, CARD_W - 2 * inset, CARD_H - 2 * inset, 2 * mm, stroke=0, fill=1
    )


def _draw_cost(canvas: Canvas, x: float, y: float, face: CardFace) -> float:
    """The cost in a disc at the top right; returns the width it takes from the name."""
    if face.cost is None:
        return 0.0
    radius = 3.6 * mm
    cx, cy = x + CARD_W - SAFE - radius, y + CARD_H - SAFE - radius
    canvas.setFillColor(face.color)
    canvas.circle(cx, cy, radius, stroke=0, fill=1)
    text, size, _ = _fit_line(face.cost, _FONTS["bold"], 10, 2 * radius - 1 * mm)
    canvas.setFillColor("#ffffff")
    canvas.setFont(_FONTS["bold"], size)
    canvas.drawCentredString(cx, cy - size * 0.35, text)
    return 2 * radius + 1 * mm


def draw_face(canvas: Canvas, x: float, y: float, bleed: float, face: CardFace) -> list[str]:
    """One card face with its trim box at ``(x, y)``; returns what did not fit."""
    problems: list[str] = []
    _frame(canvas, x, y, bleed, face.color)
    width = CARD_W - 2 * SAFE
    name_room = width - _draw_cost(canvas, x, y, face)
    name, size, cut = _fit_line(face.name, _FONTS["bold"], 11, name_room)
    if cut:
        problems.append(f"the name {face.name!r} is cut to {name!r}")
    top = y + CARD_H - SAFE
    canvas.setFillColor("#111111")
    canvas.setFont(_FONTS["bold"], size)
    canvas.drawString(x + SAFE, top - 5 * mm, name)
    canvas.setFont(_FONTS["italic"], 7)
    canvas.drawString(x + SAFE, top - 9 * mm, face.type_line)
    canvas.setStrokeColor(face.color)
    canvas.setLineWidth(0.6)
    canvas.line(x + SAFE, top - 10.5 * mm, x + CARD_W - SAFE, top - 10.5 * mm)
    canvas.setFont(_FONTS["regular"], 5)
    canvas.setFillColor("#666666")
    canvas.drawString(x + SAFE, y + SAFE, face.footer)
    bottom = y + SAFE + 3 * mm
    if face.fields:
        shown = "   ".join(f"<b>{escape(k)}</b> {escape(v)}" for k, v in face.fields)
        fields = Paragraph(
            shown, ParagraphStyle("fields", fontName=_FONTS["regular"], fontSize=7, leading=8.5)
        )
        _, used = fields.wrap(width, CARD_H / 3)
        fields.drawOn(canvas, x + SAFE, bottom)
        bottom += used + 1.5 * mm
    room = top - 12 * mm - bottom
    if face.text and room > 0:
        para, text_size, cut = _fit_paragraph(face.text, width, room)
        if cut:
            problems.append(
                f"the text of {face.name!r} does not fit even at {text_size:g} pt: it is cut"
            )
        _, used = para.wrap(width, room)
        para.drawOn(canvas, x + SAFE, top - 12 * mm - used)
    return problems


def draw_back(canvas: Canvas, x: float, y: float, bleed: float, back: GenericBack) -> None:
    """The common back: the ruleset's title (or the kind's ``print.back``) and the kind."""
    canvas.setFillColor(back.color)
    canvas.rect(x - bleed, y - bleed, CARD_W + 2 * bleed, CARD_H + 2 * bleed, stroke=0, fill=1)
    canvas.setStrokeColor("#ffffff")
    canvas.setLineWidth(1.2)
    inset = 4 * mm
    canvas.roundRect(x + inset, y + inset, CARD_W - 2 * inset, CARD_H - 2 * inset, 3 * mm)
    canvas.setFillColor("#ffffff")
    shown, size, _ = _fit_line(back.title, _FONTS["bold"], 16, CARD_W - 2 * inset - 4 * mm)
    canvas.setFont(_FONTS["bold"], size)
    canvas.drawCentredString(x + CARD_W / 2, y + CARD_H / 2, shown)
    canvas.setFont(_FONTS["italic"], 9)
    canvas.drawCentredString(x + CARD_W / 2, y + CARD_H / 2 - 7 * mm, back.kind_label)


def render_sheets(
    cards: list[Card],
    out: Path,
    *,
    paper: str = "a4",
    bleed_mm: float = DEFAULT_BLEED_MM,
    backs: bool = True,
    title: str = "",
) -> SheetReport:
    """Write the card sheets to ``out``: per nine cards a page of fronts, then of backs."""
    _register_fonts()
    layout = SheetLayout.fit(paper, bleed_mm)
    canvas = Canvas(str(out), pagesize=(layout.page_w, layout.page_h))
    canvas.setTitle(title or "card sheets")
    canvas.setCreator("rulecraft cards")
    report = SheetReport(len(cards), 0, layout.bleed / mm)
    for first in range(0, len(cards), 9):
        page = cards[first : first + 9]
        for slot, card in enumerate(page):
            x, y = layout.trim_origin(slot)
            for problem in draw_face(canvas, x, y, layout.bleed, card.front):
                report.warnings.append(CardWarning(card.span, problem))
        _crop_marks(canvas, layout, len(page))
        canvas.showPage()
        report.pages += 1
        if not backs:
            continue
        for slot, card in enumerate(page):
            x, y = layout.trim_origin(slot, mirrored=True)
            if isinstance(card.back, GenericBack):
                draw_back(canvas, x, y, layout.bleed, card.back)
            else:
                for problem in draw_face(canvas, x, y, layout.bleed, card.back):
                    report.warnings.append(CardWarning(card.span, f"(back) {problem}"))
        _crop_marks(canvas, layout, len(page))
        canvas.showPage()
        report.pages += 1
    canvas.save()
    report.warnings = _unique(report.warnings)
    return report


def _unique(warnings: list[CardWarning]) -> list[CardWarning]:
    """Each warning once (every copy of a card would repeat it)."""
    seen: set[tuple[str, int, str]] = set()
    out = []
    for warning in warnings:
        key = (warning.span.file, warning.span.line, warning.message)
        if key not in seen:
            seen.add(key)
            out.append(warning)
    return out


def check_print_sections(manifest: dict[str, Any], positions: PositionMap) -> list[CardWarning]:
    """A ``print:`` key naming an attribute the kind does not declare, located in the
    manifest (the card would silently print nothing there)."""
    problems: list[CardWarning] = []
    kinds = manifest.get("kinds")
    for kind, raw in kinds.items() if isinstance(kinds, dict) else ():
        spec = raw.get("print") if isinstance(raw, dict) else None
        if not isinstance(spec, dict):
            continue
        attributes = raw.get("attributes")
        declared = [str(a) for a in attributes] if isinstance(attributes, dict) else []
        named: list[tuple[tuple[Any, ...], Any]] = [
            (("cost",), spec.get("cost")),
            (("text",), spec.get("text")),
        ]
        fields = spec.get("fields")
        named += [
            (("fields", i), f) for i, f in enumerate(fields if isinstance(fields, list) else [])
        ]
        for where, name in named:
            if name is None or str(name) in declared:
                continue
            guess = did_you_mean(str(name), declared)
            hint = f" (did you mean '{guess}'?)" if guess else ""
            span = positions.value_span(("kinds", kind, "print", *where))
            message = f"print.{where[0]} names {name!r}, which {kind} does not declare{hint}"
            problems.append(CardWarning(span, message))
    return problems
