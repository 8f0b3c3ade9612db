"""`rulecraft validate` and `rulecraft schema`, with the validation pipeline faked."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from rulecraft.cli import schema_cmd
from rulecraft.cli.main import main
from rulecraft.diagnostics import Diagnostic, Severity, Span

ERROR = Diagnostic("RC010", "unknown key `x`", Span("r/ruleset.yaml", 2, 1))
WARNING = Diagnostic(
    "RC022", "anchor defined twice", Span("r/ruleset.yaml", 3, 4), Severity.WARNING
)


Installer = Callable[[Callable[..., Sequence[Diagnostic]]], None]


@pytest.fixture
def pipeline(monkeypatch: pytest.MonkeyPatch) -> Installer:
    """Install a fake ``rulecraft.compile.pipeline`` whose validate_paths is given."""

    def install(validate_paths: Callable[..., Sequence[Diagnostic]]) -> None:
        module = types.ModuleType("rulecraft.compile.pipeline")
        module.__dict__["validate_paths"] = validate_paths
        monkeypatch.setitem(sys.modules, "rulecraft.compile.pipeline", module)

    return install


def returning(*diagnostics: Diagnostic) -> Callable[[list[Path]], list[Diagnostic]]:
    """A fake validate_paths that always finds ``diagnostics``."""

    def validate_paths(paths: list[Path]) -> list[Diagnostic]:
        return list(diagnostics)

    return validate_paths


def test_clean_exits_0(
    pipeline: Installer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[list[Path]] = []

    def validate_paths(paths: list[Path]) -> list[Diagnostic]:
        seen.append(paths)
        return []

    pipeline(validate_paths)
    assert main(["validate", str(tmp_path)]) == 0
    assert seen == [[tmp_path]]
    assert capsys.readouterr().out.strip() == "no problems found"


def test_errors_exit_1(
    pipeline: Installer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipeline(returning(ERROR))
    assert main(["validate", str(tmp_path)]) == 1
    assert "r/ruleset.yaml:2:1: error RC010: unknown key `x`" in capsys.readouterr().out


def test_warnings_fail_only_when_strict(pipeline: Installer, tmp_path: Path) -> None:
    pipeline(returning(WARNING))
    assert main(["validate", str(tmp_path)]) == 0
    assert main(["validate", "--strict", str(tmp_path)]) == 1


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_machine_formats_are_pure_json(
    pipeline: Installer, tmp_path: Path, capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    pipeline(returning(ERROR, WARNING))
    assert main(["validate", "--format", output_format, str(tmp_path)]) == 1
    parsed = json.loads(capsys.readouterr().out)
    assert parsed  # the whole of stdout is one JSON document


def test_github_format(
    pipeline: Installer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipeline(returning(ERROR))
    assert main(["validate", "--format", "github", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "::error file=r/ruleset.yaml,line=2,col=1,title=RC010::unknown key `x`"
    assert out[-1] == "1 error"


def test_internal_error_becomes_rc999_and_exit_2(
    pipeline: Installer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RULECRAFT_DEBUG", raising=False)

    def validate_paths(paths: list[Path]) -> list[Diagnostic]:
        raise KeyError("boom")

    pipeline(validate_paths)
    assert main(["validate", "--format", "json", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    (diagnostic,) = json.loads(captured.out)["diagnostics"]
    assert diagnostic["code"] == "RC999"
    assert "KeyError" in diagnostic["message"]
    assert "Traceback" not in captured.out + captured.err


def test_missing_pipeline_is_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("rulecraft.cli.validate_cmd.PIPELINE_MODULE", "rulecraft.no_such_module")
    assert main(["validate", str(tmp_path)]) == 2
    assert "RC999" in capsys.readouterr().out


def test_non_diagnostics_from_the_pipeline_are_an_internal_error(
    pipeline: Installer, tmp_path: Path
) -> None:
    def validate_paths(paths: list[Path]) -> list[object]:
        return ["not a diagnostic"]

    pipeline(validate_paths)  # type: ignore[arg-type]
    assert main(["validate", str(tmp_path)]) == 2


def test_missing_path_is_a_usage_error(
    pipeline: Installer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipeline(returning())
    assert main(["validate", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "no such file, directory or bundled ruleset" in err
    assert "bundled rulesets: " in err and "tictactoe" in err


def test_no_path_or_bad_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["validate"], ["validate", "--format", "xml", "."]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2


def test_lang_is_passed_when_the_pipeline_takes_it(pipeline: Installer, tmp_path: Path) -> None:
    seen: list[str | None] = []

    def validate_paths(paths: list[Path], lang: str | None = None) -> list[Diagnostic]:
        seen.append(lang)
        return []

    pipeline(validate_paths)
    assert main(["validate", "--lang", "fr", str(tmp_path)]) == 0
    assert main(["validate", str(tmp_path)]) == 0
    assert seen == ["fr", None]


def test_lang_is_refused_when_the_pipeline_cannot_use_it(
    pipeline: Installer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipeline(returning())
    assert main(["validate", "--lang", "fr", str(tmp_path)]) == 2
    assert "--lang" in capsys.readouterr().err


# --- rulecraft schema --------------------------------------------------------------------


def test_schema_prints_the_shipped_schema(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(schema_cmd, "read_manifest_schema", lambda: '{"type": "object"}')
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == {"type": "object"}


def test_schema_missing_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(schema_cmd, "SCHEMA_NAME", "no-such.schema.json")
    assert main(["schema"]) == 2
    captured = capsys.readouterr()
    assert "no-such.schema.json is missing" in captured.err and captured.out == ""


def test_schema_check(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(schema_cmd, "read_manifest_schema", lambda: '{"type": "object"}')
    assert main(["schema", "--check"]) == 0
    monkeypatch.setattr(schema_cmd, "read_manifest_schema", lambda: '{"requried": []}')
    assert main(["schema", "--check"]) == 1
    assert "RC031" in capsys.readouterr().out
    monkeypatch.setattr(schema_cmd, "read_manifest_schema", lambda: "{not json")
    assert main(["schema", "--check"]) == 1
