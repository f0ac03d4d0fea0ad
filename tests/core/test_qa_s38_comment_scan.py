"""QA round 38: finding a note's comments takes time in proportion to its length.

After each `%%` comment the next `<!--` was looked for again from there, and in a note without one the search ran
to its end every time (and the other way round): a line of 200,000 '%' took 20 s for `note add-bullet` to add a
bullet below it, ingest as long. Each opener is now looked for again only once passed; the comments found are the
same ones."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.vault import comments
from mnemon.core.vault.comments import _comment_spans, blank_comments


def reference_spans(prose: str) -> tuple[list[tuple[int, int]], int]:
    """The rule as it was written before (each opener looked for from the last comment's end)."""
    spans: list[tuple[int, int]] = []
    at, html_open = 0, True
    while True:
        html = prose.find("<!--", at) if html_open else -1
        obsidian = prose.find("%%", at)
        if html == -1 and obsidian == -1:
            return spans, -1
        if html != -1 and (obsidian == -1 or html < obsidian):
            close = prose.find("-->", html + 2)
            if close == -1:
                html_open = False
                continue
            spans.append((html, close + 3))
        else:
            close = prose.find("%%", obsidian + 2)
            if close == -1:
                spans.append((obsidian, len(prose)))
                return spans, obsidian
            spans.append((obsidian, close + 2))
        at = spans[-1][1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<!--", "-->", "%%", "%", "<", "-", "!", "x", "\n", " "]), max_size=40))
def test_the_same_comments_are_found(pieces: list[str]) -> None:
    prose = "".join(pieces)
    assert _comment_spans(prose) == reference_spans(prose)


class Counted(str):
    """A text that counts the characters its `find` calls pass over."""

    scanned = 0

    def find(self, sub: str, start: int | None = None, *rest: int) -> int:  # type: ignore[override]
        found = str.find(self, sub, start, *rest)
        Counted.scanned += (found if found != -1 else len(self)) - (start or 0)
        return found


def scanned(prose: str) -> int:
    Counted.scanned = 0
    comments._comment_spans(Counted(prose))
    return Counted.scanned


def test_many_comments_of_one_kind_are_found_in_linear_time() -> None:
    for prose in ("%" * 20_000, "%%x%%" * 4_000, "<!--x-->" * 2_500, "%%a%%<!--b-->" * 1_500 + "%%",
                  "<!--" * 5_000, "%%x%%" * 4_000 + "<!-- -->"):
        assert scanned(prose) <= 3 * len(prose), prose[:20]


def test_a_line_of_percent_signs_is_blanked_whole() -> None:
    # pairs of "%%": 50,000 comments of "%%%%", the line after them shown
    prose = "- a\n" + "%" * 200_000 + "\nafter\n"
    assert blank_comments(prose) == "- a\n" + " " * 200_000 + "\nafter\n"
