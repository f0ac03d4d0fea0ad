"""`mneme --pretty` indents every JSON document it prints, its own refusals included: a line `mneme` cannot
translate (`mneme --pretty remember`), a Mneme command mnemon does not have (`mneme --pretty tick`) and a Mneme
variable's refused value printed their envelope on one line, while mnemon's own errors were indented."""
from __future__ import annotations

import json

import pytest

from cli.test_mneme_qa_s41_help_note_on_refusal import _run  # (tests/ is on sys.path)


def _indented(out: str) -> dict[str, object]:
    doc = json.loads(out)
    assert out == json.dumps(doc, ensure_ascii=False, indent=2) + "\n", out
    return doc


@pytest.mark.parametrize("args", [["--pretty", "remember"], ["--pretty", "--db"], ["--pretty", "tick"],
                                  ["--pretty", "explain", "x"]])
def test_its_own_refusals_are_indented_when_asked(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out = _run(capsys, args)
    assert code == 2
    assert _indented(out)["ok"] is False


def test_a_refused_mneme_variable_is_indented_when_asked(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEME_CARD_THEME", "purple")
    code, out = _run(capsys, ["--pretty", "status"])
    assert code == 1
    assert "MNEME_CARD_THEME" in _indented(out)["error"]["message"]  # type: ignore[index]


@pytest.mark.parametrize("args", [["remember"], ["tick"], ["--db"]])
@pytest.mark.parametrize("after_separator", [False, True])
def test_without_pretty_a_refusal_stays_on_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                                    after_separator: bool) -> None:
    # a "--pretty" after `--` is an argument, not the option
    code, out = _run(capsys, [*args, "--", "--pretty"] if after_separator else args)
    assert code == 2 and out.count("\n") == 1 and json.loads(out)["ok"] is False
