"""Planning's cheap paths give exactly what the general ones do: a vault's rows must not change with its speed."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.app.vault.plan import links_to_plan, named_link_edges, plain_link_edges, plan_note
from mnemon.core.vault.model import MarkdownLink, WikiLink

_NAME = st.text(alphabet=st.sampled_from('ab Z."\\/_-é1\u2028'), min_size=1, max_size=12)
_WIKILINK = st.builds(WikiLink, target=_NAME, section=st.none(), alias=st.none(), is_embed=st.booleans(),
                      line=st.integers(1, 99), evidence=_NAME)
_MARKDOWN_LINK = st.builds(MarkdownLink, target=_NAME, raw_target=_NAME, section=st.none(), text=_NAME,
                           line=st.integers(1, 99), evidence=_NAME)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WIKILINK, max_size=6), st.lists(_MARKDOWN_LINK, max_size=3))
def test_plain_links_plan_the_edges_the_general_path_plans(wikilinks: list[WikiLink],
                                                          markdown_links: list[MarkdownLink]) -> None:
    links = links_to_plan(wikilinks, markdown_links)
    assert plain_link_edges("note:a.md", links) == named_link_edges("note:a.md", links)


def test_a_note_of_plain_and_named_links_keeps_every_link_edge() -> None:
    plain = plan_note("a.md", b"# A\n\nSee [[Beta]] and [[Gamma]] and [x](d.md).\n", 1.0, ())
    named = plan_note("b.md", b"# B\n\nSee [[Beta#Intro|the beta]] and [[Gamma]].\n", 1.0, ())
    assert [(e.link_key, e.metadata) for e in plain.edges if e.link_key] == [
        ("beta", '{"key":"beta","target":"Beta","line":3}'), ("gamma", '{"key":"gamma","target":"Gamma","line":3}'),
        ("d", '{"key":"d","target":"d.md","line":3}')]
    assert [(e.link_key, e.metadata) for e in named.edges if e.link_key] == [
        ("beta", '{"key":"beta","target":"Beta","section":"Intro","alias":"the beta","line":3}'),
        ("gamma", '{"key":"gamma","target":"Gamma","line":3}')]
