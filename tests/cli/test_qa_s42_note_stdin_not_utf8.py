"""`note write` (and the other note edits) reading their text from stdin: a Latin-1 file piped in was refused as
"input is not valid UTF-8 text (surrogates not allowed at 3)" — Python's words, no byte, no line, no way out. It now
says what the editor says of such a note: the byte, its line, and how to convert it; nothing is written."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_latin1_on_stdin_is_refused_with_the_byte_and_the_way_out(tmp_path: Path, locale: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "MNEMON_HOME": str(tmp_path / "m"), "MNEMON_DAEMON": "off",
           "XDG_CONFIG_HOME": str(tmp_path / ".c"), "LC_ALL": locale, "LANG": locale, "PYTHONUTF8": "",
           "PYTHONPATH": str(SRC)}
    proc = subprocess.run([sys.executable, "-m", "mnemon", "note", "write", "--vault", str(vault), "--mode",
                           "create", "Inbox/cafe.md"], input="# Café\n- menu\n".encode("cp1252"),
                          capture_output=True, env=env, timeout=60)
    out = json.loads(proc.stdout)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    message = out["error"]["message"]
    assert "surrogate" not in message
    assert "byte 0xe9 on line 1" in message and "iconv" in message, message
    assert not (vault / "Inbox").exists()


@pytest.mark.parametrize("args", [["retrieve"], ["retrieve", "--prompt", "-"], ["remember", "-"]])
def test_a_prompt_or_memory_piped_in_says_the_same(tmp_path: Path, args: list[str]) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "MNEMON_HOME": str(tmp_path / "m"), "MNEMON_DAEMON": "off",
           "XDG_CONFIG_HOME": str(tmp_path / ".c"), "MNEMON_EMBED_PROVIDER": "hash", "PYTHONPATH": str(SRC)}
    proc = subprocess.run([sys.executable, "-m", "mnemon", *args], input="the café supplier\n".encode("cp1252"),
                          capture_output=True, env=env, timeout=60)
    out = json.loads(proc.stdout)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    message = out["error"]["message"]
    assert "surrogate" not in message and "byte 0xe9 on line 1" in message, message
