"""The command line as a new user meets it: one test per finding of issue 15.

Each test quotes the finding it guards. They run the real CLI (``main``) on copies of the
bundled rulesets, from a working folder outside the repository where the finding says so.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.cli.main import build_parser, main
from rulecraft.compile.load import bundled_names

REPO = Path(__file__).resolve().parents[2]
RULESETS = REPO / "rulesets"
DICE_DOC = REPO / "docs" / "dice.md"
# sparks/cards.rcl line 19: "            gain 1 points" inside Ember Golem's ability.
GLOD_LINE = 19


@pytest.fixture(autouse=True)
def no_published_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULECRAFT_DOCS_URL", raising=False)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def glod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of sparks under ``tmp_path/work/sparks`` with ``gain 1 glod``; cwd is ``work``."""
    work = tmp_path / "work"
    shutil.copytree(RULESETS / "sparks", work / "sparks")
    cards = work / "sparks" / "cards.rcl"
    lines = cards.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[GLOD_LINE - 1].strip() == "gain 1 points"
    lines[GLOD_LINE - 1] = lines[GLOD_LINE - 1].replace("gain 1 points", "gain 1 glod")
    cards.write_text("".join(lines), encoding="utf-8")
    monkeypatch.chdir(work)
    return work / "sparks"


# -- "diagnostics give paths relative to the current directory (text, json, github, and SARIF
#     with uriBaseId), and the source line with the caret is always shown"
def test_text_names_the_file_from_the_working_folder_and_shows_the_line(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["validate", "sparks"], capsys)
    assert code == 1
    lines = out.splitlines()
    at = lines.index(
        f"sparks/cards.rcl:{GLOD_LINE}:20: error RC201: unknown resource or counter 'glod'"
    )
    assert lines[at + 1] == "                gain 1 glod"
    assert lines[at + 2] == "                       ^~~~"


def test_inside_the_ruleset_folder_names_are_relative_to_it(
    glod: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(glod)
    _, out, _ = run(["validate", "."], capsys)
    assert out.startswith(f"cards.rcl:{GLOD_LINE}:20: error RC201")
    assert "    gain 1 glod" in out  # the excerpt is found from here too


def test_outside_the_working_folder_names_are_absolute(
    glod: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _, out, _ = run(["validate", "../work/sparks"], capsys)
    assert out.startswith(f"{glod.resolve() / 'cards.rcl'}:{GLOD_LINE}:20: error RC201")
    assert "    gain 1 glod" in out


def test_json_and_github_use_the_same_relative_names(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(["validate", "--format", "json", "sparks"], capsys)
    (found,) = json.loads(out)["diagnostics"]
    assert (found["file"], found["line"], found["column"], found["end_column"]) == (
        "sparks/cards.rcl",
        GLOD_LINE,
        20,
        23,
    )
    _, out, _ = run(["validate", "--format", "github", "sparks"], capsys)
    assert out.startswith(
        f"::error file=sparks/cards.rcl,line={GLOD_LINE},col=20,endLine={GLOD_LINE},"
        "endColumn=23,title=RC201::"
    )
    assert "                gain 1 glod" in out  # the full text report follows, with excerpt


def test_sarif_locations_are_relative_to_a_uri_base(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(["validate", "--format", "sarif", "sparks"], capsys)
    (sarif_run,) = json.loads(out)["runs"]
    (result,) = sarif_run["results"]
    artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "sparks/cards.rcl", "uriBaseId": "SRCROOT"}
    base = sarif_run["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert base == Path.cwd().as_uri() + "/"
    rule = sarif_run["tool"]["driver"]["rules"][0]
    assert rule["helpUri"].endswith("errors.md#rc201")


# -- "the caret sits under the misspelt word (`gain 1 glod` points at `1`)"
def test_the_caret_is_under_the_unit_in_a_sum(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = glod / "cards.rcl"
    text = cards.read_text(encoding="utf-8").replace("gain 1 glod", "gain 1 points + 2 glod")
    cards.write_text(text, encoding="utf-8")
    _, out, _ = run(["validate", "sparks"], capsys)
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "RC201" in line)
    caret = lines[at + 2]
    assert lines[at + 1][caret.index("^") :].startswith("glod")
    assert caret.strip() == "^~~~"


# -- "a schema error must not hide the other problems of the file"
def test_a_schema_error_does_not_hide_the_rcl_errors(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = glod / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("\nversion:", "\nverzion:"), "utf-8"
    )
    code, out, _ = run(["validate", "--format", "json", "sparks"], capsys)
    assert code == 1
    codes = {(d["code"], d["file"]) for d in json.loads(out)["diagnostics"]}
    assert codes == {("RC010", "sparks/ruleset.yaml"), ("RC201", "sparks/cards.rcl")}


# -- "every command that takes a ruleset accepts a bundled name (`validate tictactoe` and
#     `dice ... --ruleset waste_knights` fail today)"
def test_validate_accepts_a_bundled_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["validate", "--strict", "tictactoe"], capsys)
    assert (code, out.strip()) == (0, "no problems found")


def test_a_local_folder_wins_over_a_bundled_name(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["validate", "sparks"], capsys)[0] == 1  # ./sparks has the typo


def test_an_unknown_name_lists_the_bundled_rulesets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["validate", "nosuchgame"], capsys)
    assert code == 2
    assert f"bundled rulesets: {', '.join(bundled_names())}" in err


def test_dice_accepts_a_bundled_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["dice", "1 red", "--ruleset", "waste_knights", "--json"], capsys)
    assert code == 0
    # The red die of the rulebook: fate, success, 2 success, 2 success, botch, success+botch.
    rows = json.loads(out)["symbols"]["success"]["rows"]
    assert [(r["k"], r["exactly"]) for r in rows] == [(0, "1/3"), (1, "1/3"), (2, "1/3")]


def test_fmt_and_test_accept_a_bundled_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["fmt", "--check", "tictactoe"], capsys)
    assert code == 0 and "0 file(s) would be reformatted, 1 unchanged" in err
    code, out, _ = run(["test", "tictactoe"], capsys)
    assert code == 0 and "0 failed" in out


# -- "`rulecraft list` names the bundled rulesets"
def test_list_names_every_bundled_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["list"], capsys)
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()[:-1]]
    assert (
        names == bundled_names() == sorted(p.parent.name for p in RULESETS.glob("*/ruleset.yaml"))
    )
    default = (RULESETS / "DEFAULT").read_text(encoding="utf-8").strip()
    assert re.search(rf"^{default}\s+\*", out, re.M)
    rows = json.loads(run(["list", "--json"], capsys)[1])
    assert [r["name"] for r in rows] == names
    assert all(Path(r["folder"], "ruleset.yaml").is_file() for r in rows)


# -- "`play nosuchgame` outside the repository lists the bundled ones, not 'rulesets/'"
def test_play_an_unknown_game_outside_the_repository(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rulecraft.cli.main", "play", "nosuchgame"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert "rulesets/" not in result.stderr
    assert f"bundled rulesets: {', '.join(bundled_names())}" in result.stderr
    assert "Traceback" not in result.stderr


# -- "`rulecraft --help` advertises `bench (not built yet)`: ship it or remove it"
def test_help_advertises_only_commands_that_work(capsys: pytest.CaptureFixture[str]) -> None:
    help_text = build_parser().format_help()
    assert "not built yet" not in help_text
    assert "bench" not in help_text  # benchmarks run from the checkout: `make bench`
    with pytest.raises(SystemExit):
        main(["bench"])
    assert "invalid choice: 'bench'" in capsys.readouterr().err


# -- "`validate --lang de` on a ruleset without German gives one error, not 864 warnings"
def test_lang_the_ruleset_does_not_declare_is_one_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["validate", "--format", "json", "--lang", "de", "waste_knights"], capsys)
    assert code == 1
    (only,) = json.loads(out)["diagnostics"]
    assert only["code"] == "RC241" and only["file"].endswith("waste_knights/ruleset.yaml")
    assert "languages are en" in only["message"]


# -- "RC240 must not fire on a string compared in a condition (`unit == "points"`)"
def test_a_compared_string_needs_no_translation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cards = (RULESETS / "sparks" / "cards.rcl").read_text(encoding="utf-8")
    assert 'unit == "points"' in cards
    code, out, _ = run(["validate", "--strict", "--lang", "de", str(RULESETS / "sparks")], capsys)
    assert (code, out.strip()) == (0, "no problems found")
    # ... while a shown text without its German still warns.
    folder = tmp_path / "sparks"
    shutil.copytree(RULESETS / "sparks", folder)
    (folder / "cards.rcl").write_text(cards.replace(' @de "Aschewache"', "", 1), encoding="utf-8")
    _, out, _ = run(["validate", "--format", "json", "--lang", "de", str(folder)], capsys)
    found = json.loads(out)["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [
        ("RC240", "'Ash Guard' has no de translation")
    ]


# -- "docs/dice.md's `--ruleset` example uses a die that exists"
def test_the_dice_page_examples_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = re.findall(r"^rulecraft (dice .*--ruleset.*)$", DICE_DOC.read_text("utf-8"), re.M)
    assert len(commands) >= 2
    monkeypatch.chdir(REPO)
    for command in commands:
        args = [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', command.split("#")[0])]
        code, _, err = run(args, capsys)
        assert code == 0, (command, err)


# -- "stale lines in docs/rulesets/radlands.md"
def test_the_radlands_page_has_no_stale_lines() -> None:
    page = (REPO / "docs" / "rulesets" / "radlands.md").read_text(encoding="utf-8")
    assert "fmt drops `face down`" not in page  # rulecraft fmt keeps it (ENGINE_GAPS.md)
    assert "what the engine cannot express yet" not in page  # "No gap is open."
    # Every command line of the page sits in a code block, none hangs off a paragraph.
    for match in re.finditer(r"^    rulecraft .*$", page, re.M):
        before = page[: match.start()].rstrip(" ").splitlines()[-1]
        assert before == "" or before.startswith("    "), match.group(0)


def test_the_caret_is_under_the_unit_of_a_cost(
    glod: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = glod / "cards.rcl"
    text = cards.read_text(encoding="utf-8").replace("costs 1 energy once", "costs 1 enrgy once")
    cards.write_text(text, encoding="utf-8")
    _, out, _ = run(["validate", "--format", "json", "sparks"], capsys)
    found = [d for d in json.loads(out)["diagnostics"] if "enrgy" in d["message"]]
    (only,) = found
    line = text.splitlines()[only["line"] - 1]
    assert line[only["column"] - 1 : only["end_column"]] == "enrgy"
    assert only["hint"] == "did you mean 'energy'?"
