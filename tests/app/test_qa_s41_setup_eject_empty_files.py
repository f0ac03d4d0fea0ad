"""`setup` then `setup --eject` leaves every file setup touches as it was before: one setup created goes, one that
existed stays with its bytes — an empty `AGENTS.md`, a `{"hooks": {}}` settings file included. Those were deleted
(by the eject, or by a personal setup taking a block that was never there out of the project's `AGENTS.md`), their
`.mnemon-backup` left behind; the eject's answer says, per file, that it was given back."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.integrations import setup as integrations_setup

SKILL = ".claude/skills/mnemon/SKILL.md"
# each file kind setup touches in a project, and what "empty settings" and "the user's content" are for it
KINDS = {
    ".claude/settings.json": ('{"hooks": {}}', '{"permissions": {"allow": ["Bash(ls:*)"]}}\n'),
    ".claude/settings.local.json": ('{"hooks":{}}\n', '{"env": {"A": "1"}}'),
    ".mcp.json": ('{"mcpServers": {}}', '{"mcpServers": {"other": {"command": "npx"}}}'),
    "AGENTS.md": ("\n\n", "# Agents\n\nBe nice.\n"),
    ".codex/config.toml": ("\n", 'model = "o3"\n'),
    SKILL: ("\n", "---\nname: mnemon\ndescription: mine\n---\nMy own notes.\n"),
}
STATES = ("absent", "empty", "empty settings", "user content")


def _text(kind: str, state: str) -> str | None:
    return {"absent": None, "empty": "", "empty settings": KINDS[kind][0], "user content": KINDS[kind][1]}[state]


def _files(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes() for p in sorted(project.rglob("*")) if p.is_file()
            and ".git/" not in str(p.relative_to(project)) + "/"}


def _run(project: Path, home: Path, *, eject: bool, shared: bool) -> dict:
    return integrations_setup.setup(targets=["claude-code", "codex"], user=False, project=str(project), eject=eject,
                              dry_run=False, hooks=True, mcp=True, options=["--db", str(home / "m.db")],
                              environ={"HOME": str(home), "PATH": ""}, python="/usr/bin/python3",
                              shared=[] if shared else None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(states=st.fixed_dictionaries({k: st.sampled_from(STATES) for k in KINDS}), shared=st.booleans())
def test_eject_leaves_each_file_as_it_was_before_setup(tmp_path_factory, states: dict[str, str],
                                                       shared: bool) -> None:
    root = tmp_path_factory.mktemp("eject")
    project, home = root / "project", root / "home"
    project.mkdir(), home.mkdir()
    for kind, state in states.items():
        text = _text(kind, state)
        if text is not None:
            (project / kind).parent.mkdir(parents=True, exist_ok=True)
            (project / kind).write_bytes(text.encode())
    before = _files(project)
    _run(project, home, eject=False, shared=shared)
    out = _run(project, home, eject=True, shared=shared)
    after = {k: v for k, v in _files(project).items() if not k.endswith(".mnemon-backup")}
    assert after == before
    said = {c["path"]: c for h in out["hosts"] for c in h["changes"]}
    for kind, text in before.items():
        change = said.get(str(project / kind))
        if change is not None and change["action"] != "unchanged":  # given back: said so, with the copy it came from
            assert change["restored"] == str(project / kind) + ".mnemon-backup", change


def test_a_personal_setup_keeps_an_empty_agents_md_of_the_project(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir(), home.mkdir()
    (project / "AGENTS.md").write_bytes(b"")
    out = _run(project, home, eject=False, shared=False)
    assert (project / "AGENTS.md").read_bytes() == b""
    said = {c["path"]: c["action"] for h in out["hosts"] for c in h["changes"]}
    assert said[str(project / "AGENTS.md")] == "unchanged"
