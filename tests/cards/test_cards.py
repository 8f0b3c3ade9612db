"""`rulecraft cards`: the PDF is read back (pypdf) and checked card by card."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from ruamel.yaml import YAML

from rulecraft.cli.main import main
from rulecraft.compile.load import bundled_names
from rulecraft.compile.pipeline import check_ruleset
from rulecraft.tools.cards import CARD_W, SheetLayout

ROOT = Path(__file__).resolve().parents[2] / "rulesets"


def _segments(
    reader: PdfReader, page: int, *, bold: bool = False
) -> list[tuple[str, float, float]]:
    """Each text drawn on a page with its position (x, y in points); ``bold``: only the
    texts set in the bold face (names, costs, field names)."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        base = str(font.get("/BaseFont", "")) if isinstance(font, dict) else ""
        if text.strip() and (not bold or base.endswith("-Bold")):
            found.append((text.strip(), tm[4] + cm[4], tm[5] + cm[5]))

    reader.pages[page].extract_text(visitor_text=visit)
    return found


def _front_names(reader: PdfReader, *, backs: bool = True) -> Counter[str]:
    """How often each bold text is drawn on the pages of fronts."""
    step = 2 if backs else 1
    names: Counter[str] = Counter()
    for page in range(0, len(reader.pages), step):
        names.update(text for text, _, _ in _segments(reader, page, bold=True))
    return names


def _skipped_kinds(root: Path) -> set[str]:
    """The kinds whose manifest entry says ``print: {skip: true}`` (not printed cards)."""
    kinds = YAML(typ="safe").load((root / "ruleset.yaml").read_text()).get("kinds") or {}
    return {
        kind
        for kind, entry in kinds.items()
        if isinstance(entry, dict) and (entry.get("print") or {}).get("skip") is True
    }


def _expected(root: Path, lang: str | None = None) -> Counter[str]:
    """Each card name times its copies, straight from the compiled ruleset, leaving out
    the kinds the manifest does not print."""
    program = check_ruleset(root).program
    assert program is not None
    key = None if lang is None or lang == program.languages[0] else lang
    skipped = _skipped_kinds(root)
    wanted: Counter[str] = Counter()
    for definition in program.defs.values():
        if definition.kind in skipped:
            continue
        name = definition.name.get(key or "", definition.name[""]) if key else definition.name[""]
        wanted[name] += definition.copies
    return wanted


def _render(tmp_path: Path, *args: str) -> PdfReader:
    out = tmp_path / "cards.pdf"
    assert main(["cards", *args, "--out", str(out)]) == 0
    return PdfReader(out)


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_ruleset_renders_every_card_name_copies_times(
    name: str, tmp_path: Path
) -> None:
    reader = _render(tmp_path, name)
    wanted = _expected(ROOT / name)
    cards = sum(wanted.values())
    assert len(reader.pages) == 2 * -(-cards // 9)  # a page of fronts and one of backs
    shown = _front_names(reader)
    assert {n: shown[n] for n in wanted} == dict(wanted)


def test_copies_are_respected_and_languages_chosen(tmp_path: Path) -> None:
    reader = _render(tmp_path, "sparks", "--lang", "de")
    shown = _front_names(reader)
    assert shown["Funkenwicht"] == 6  # spark_imp, copies: 6
    assert shown["Glutgolem"] == 5
    assert shown["Spark Imp"] == 0


def test_backs_are_mirrored_for_long_edge_duplex(tmp_path: Path) -> None:
    reader = _render(tmp_path, "waste_knights", "--kind", "injury")
    program = check_ruleset(ROOT / "waste_knights").program
    assert program is not None
    injuries = [d for d in program.defs.values() if d.kind == "injury"]
    first = injuries[0]
    back_name = next(iter(first.side_attributes.values()))["name"][""]
    front = [s for s in _segments(reader, 0) if s[0] == first.name[""]]
    back = [s for s in _segments(reader, 1) if s[0] == back_name]
    layout = SheetLayout.fit("a4", 3.0)
    left_x, _ = layout.trim_origin(0)
    right_x, _ = layout.trim_origin(2)
    assert any(abs(x - left_x) < 5 * 2.84 for _, x, _ in front)
    # the first card's other side is printed in the right-hand column of the back page
    assert back and all(right_x <= x <= right_x + CARD_W for _, x, _ in back)


def test_letter_paper_fits_nine_with_a_smaller_bleed(tmp_path: Path) -> None:
    reader = _render(tmp_path, "sparks", "--paper", "letter", "--no-backs")
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    assert len(reader.pages) == -(-40 // 9)
    layout = SheetLayout.fit("letter", 3.0)
    assert layout.bleed == pytest.approx(2.5 * 72 / 25.4)


def _sparks_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "sparks"
    shutil.copytree(ROOT / "sparks", copy)
    return copy


def test_text_that_does_not_fit_is_shrunk_then_cut_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = _sparks_copy(tmp_path)
    cards = copy / "cards.rcl"
    long_text = " ".join(["The golem overheats and burns everything near it."] * 40)
    source = cards.read_text("utf-8")
    start = source.index('    text: "Overheat')
    end = source.index("\n", start)
    cards.write_text(source[:start] + f'    text: "{long_text}"' + source[end:], "utf-8")
    reader = _render(tmp_path, str(copy))
    out = capsys.readouterr().out
    line = source[:start].count("\n") + 1
    assert "'Ember Golem'" in out and "does not fit even at 6 pt" in out
    golem = source.index('creature ember_golem "Ember Golem"')
    assert f"cards.rcl:{source[:golem].count(chr(10)) + 1}:1: warning" in out, (out, line)
    assert out.count("warning") == 1  # five copies, one warning
    assert _front_names(reader)["Ember Golem"] == 5


def test_print_section_sets_cost_fields_colour_back_and_skip(tmp_path: Path) -> None:
    copy = _sparks_copy(tmp_path)
    manifest = copy / "ruleset.yaml"
    text = manifest.read_text("utf-8")
    text = text.replace(
        "    active_in: [board]\n",
        "    active_in: [board]\n"
        "    print: {cost: power, fields: [cost], color: '#225588', back: {en: Foe, de: Feind}}\n",
        1,
    )
    text = text.replace(
        "    attributes: {cost: number!, cast: effect}\n",
        "    attributes: {cost: number!, cast: effect}\n    print: {skip: true}\n",
        1,
    )
    manifest.write_text(text, "utf-8")
    assert not [d for d in check_ruleset(copy).diagnostics if d.severity == "error"]
    reader = _render(tmp_path, str(copy))
    fronts = _front_names(reader)
    assert fronts["Spark Imp"] == 6
    assert sum(fronts[n] for n in _expected(copy) if n not in ("Spark Imp",)) > 0
    spells = ["Fireball", "Drain", "Inspiration"]
    assert all(fronts[n] == 0 for n in spells)
    page = [s[0] for s in _segments(reader, 0)]
    assert "cost" in [s[0] for s in _segments(reader, 0, bold=True)]  # cost became a field
    assert "power" not in page  # and power sits in the cost disc
    assert "Feind" not in page and "Foe" in [s[0] for s in _segments(reader, 1)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sparks", "--lang", "fr"], "has no language 'fr'"),
        (["sparks", "--kind", "dragon"], "no components of kind dragon"),
        (["no_such_ruleset"], "no ruleset 'no_such_ruleset'"),
    ],
)
def test_usage_errors_exit_2_and_say_why(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", *args, "--out", str(tmp_path / "x.pdf")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


def test_docstring_examples() -> None:
    import doctest

    from rulecraft.tools import cards

    result = doctest.testmod(cards)
    assert result.attempted > 0 and result.failed == 0


def test_a_print_section_naming_no_attribute_is_a_located_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = _sparks_copy(tmp_path)
    manifest = copy / "ruleset.yaml"
    text = manifest.read_text("utf-8").replace(
        "    active_in: [board]\n", "    active_in: [board]\n    print: {fields: [powr]}\n", 1
    )
    manifest.write_text(text, "utf-8")
    _render(tmp_path, str(copy))
    out = capsys.readouterr().out
    line = text[: text.index("print: {fields")].count("\n") + 1
    column = text.splitlines()[line - 1].index("powr") + 1
    expected = (
        f"{manifest}:{line}:{column}: warning: print.fields names 'powr', "
        "which creature does not declare (did you mean 'power'?)"
    )
    assert expected in out.splitlines()
