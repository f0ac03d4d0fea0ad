"""The README and docs/agents.md tell the truth about the command line and the error contract: every `mnemon …` line
they show parses as the CLI parses it (its commands, options and values exist), every command and option a bare span
names (`state list --type`) exists, the error-code table lists exactly the codes a command can answer with the exit
codes they have, and the HTTP section names each code's status."""
from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from mnemon.core import errors
from mnemon.interfaces.cli.main import cli, register_all
from mnemon.interfaces.http.server import STATUS_OF_CODE
from mnemon.interfaces.operations import OPERATIONS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/agents.md")


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _mnemon_lines(text: str) -> list[str]:
    """The `mnemon …` command lines of a text: in ```bash blocks (comments cut) and in `inline spans`, a line
    chaining several (`a && b`, `mnemon status | mnemon log`) as each."""
    found = [line.split("  #")[0].strip() for block in re.findall(r"```bash\n(.*?)```", text, re.S)
             for line in block.splitlines()]
    found += re.findall(r"`(mnemon [^`]+)`", text)
    chained = r"\s&&\s|\s\|\s(?=mnemon\s)"
    parts = [part.strip() for line in found for part in re.split(chained, line.replace("\\|", "|"))]
    return [part for part in parts if part.startswith("mnemon ")]


def _variants(line: str) -> Iterator[str]:
    """A synopsis as the command lines it stands for: `[x]` with and without x, `[a | b]` and `a|b|c` as each."""
    line = line.replace("…", " ")
    bracket = re.search(r"\[([^\[\]]*)\]", line)
    if bracket:
        for choice in ["", *re.split(r"\s+\|\s+", bracket.group(1))]:
            yield from _variants(line[:bracket.start()] + choice + line[bracket.end():])
        return
    words = line.split(" ")
    alternatives = [w.split("|") if "|" in w and not w.startswith(("'", '"')) else [w] for w in words]
    for chosen in itertools.product(*alternatives):
        yield " ".join(chosen)


def _walk(words: list[str]) -> tuple[click.Command, str, list[str], list[str]]:
    """The command a line names, its name, the global options and group options before it, and its arguments."""
    command: click.Command = cli
    name, before = "mnemon", []
    while isinstance(command, click.Group):
        options = {o: p for p in command.params for o in p.opts}
        while words and words[0].startswith("-"):
            word = words.pop(0)
            assert word.split("=")[0] in options, f"{word} is no option of {name}"
            before.append(word)
            if "=" not in word and not getattr(options[word], "is_flag", False) and words:
                before.append(words.pop(0))
        if not words:
            break
        sub = command.get_command(click.Context(command), words[0])
        assert sub is not None, f"{words[0]!r} is no command of {name}"
        command, name = sub, words.pop(0)
    return command, name, before, words


def _parse(line: str) -> None:
    words = ["1" if w == "N" else w for w in shlex.split(line)[1:]]  # `--limit N`: a number
    command, name, _before, rest = _walk(words)
    if not isinstance(command, click.Group):
        command.make_context(name, rest, resilient_parsing=False)


def test_every_mnemon_command_line_the_docs_show_parses() -> None:
    register_all()
    checked = 0
    for doc in DOCS:
        for line in _mnemon_lines(_text(doc)):
            for variant in _variants(line):
                if len(shlex.split(variant)) < 2:
                    continue  # "mnemon …": no command named
                try:
                    _parse(variant)
                except click.MissingParameter:
                    if "…" not in line and "|" not in line:  # `note delete … --force`, `store list|create`: a
                        raise  # synopsis leaves a command's arguments out
                except (click.ClickException, AssertionError) as exc:
                    pytest.fail(f"{doc}: `{line}` as `{variant}`: {getattr(exc, 'format_message', exc.__str__)()}")
                checked += 1
    assert checked > 80


def test_every_command_and_option_a_bare_span_names_exists() -> None:
    """`state list --type`, `import --revive-forgotten`, `note daily read --dry-run`: spans naming a command without
    the program, often without the option's value: the command and each option must exist."""
    register_all()
    spans = 0
    for doc in DOCS:
        for span in re.findall(r"`([a-z][a-z-]*(?: [^`]*)?)`", _text(doc)):
            if span.split()[0] not in cli.commands or " " not in span or span.startswith("mnemon"):
                continue
            words = [w for w in span.split("…")[0].split() if w != "|"]  # `note … --force`: some note command
            if words[1:2] and words[0] == "sense" and words[1] == "run":
                continue  # Mneme's, named as a command mnemon does not have
            command, name, _before, rest = _walk(words)
            options = {o for p in command.params for o in p.opts}
            for word in rest:
                if word.startswith("--"):
                    assert word.split("=")[0] in options, f"{doc}: `{span}`: {word} is no option of {name}"
            spans += 1
    assert spans > 20


def _error_table() -> dict[str, int]:
    """docs/agents.md's table of error codes: code → exit."""
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d) \|", _text("docs/agents.md"), re.M)
    return {code: int(exit_code) for code, exit_code in rows}


def _codes_written(folder: Path) -> set[str]:
    """The codes of the envelopes the command line, the resident process and `mneme` write themselves (not the HTTP
    server's own refusals, which its section lists)."""
    texts = [path.read_text(encoding="utf-8") for path in folder.rglob("*.py") if "http" not in path.parts]
    pattern = r'error_envelope\(\s*"([a-z_]+)"|"code":\s*"([a-z_]+)"'
    return {code for text in texts for pair in re.findall(pattern, text) for code in pair if code}


def _subclasses(cls: type[errors.MnemonError]) -> Iterator[type[errors.MnemonError]]:
    for sub in cls.__subclasses__():
        if sub.__module__ == errors.__name__:
            yield sub
            yield from _subclasses(sub)


def test_the_error_table_lists_exactly_the_codes_a_command_answers_with() -> None:
    table = _error_table()
    raised = {cls.code: cls.exit_code for cls in _subclasses(errors.MnemonError)}
    written = _codes_written(ROOT / "src" / "mnemon" / "interfaces")
    assert {"usage", "unsupported", "daemon_failed", "internal"} <= written
    assert set(table) == set(raised) | written
    for code, exit_code in raised.items():
        assert table[code] == exit_code, code
    assert table["usage"] == table["unsupported"] == 2


def test_the_http_section_names_each_codes_status() -> None:
    text = _text("docs/agents.md")
    section = text[text.index("## HTTP"):text.index("## Settings")]
    for code, status in STATUS_OF_CODE.items():
        # the status, then the code before any other status number or the end of the clause
        assert re.search(rf"\b{status}\b(?:(?!\b[1-5]\d\d\b)[^;]){{0,240}}?`{code}`", section, re.S), (code, status)


def test_the_mcp_tools_the_docs_list_are_the_servers() -> None:
    served = {op.name for op in OPERATIONS}
    readme = _text("README.md")
    listed = readme[readme.index("`mnemon mcp serve` serves"):readme.index("as Model Context Protocol tools")]
    assert set(re.findall(r"`([a-z_]+)`", listed)) == served
    agents = _text("docs/agents.md")
    listed = agents[agents.index("(tools: "):]
    listed = listed[:listed.index(";")]
    assert set(re.findall(r"[a-z_]+", listed[len("(tools: "):])) == served
