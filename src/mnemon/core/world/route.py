"""Which way an agent's prompt goes: a question to answer from memory (`retrieval`), a correction of something the
store holds (`correction`), or both ("Actually she moved to Porto — where does she work now?").

Mneme's preflight asked a cloud model when an API key was set and fell back to a regex; this is rules only, so the
route is the same offline, on every machine, for every run. The cues are wording, not meaning: `confidence` says how
clear they were, `cues` lists them, and a prompt with no cue at all routes to `retrieval` (reading memory is the
harmless default) at low confidence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..surface import step

RETRIEVAL, CORRECTION, BOTH = "retrieval", "correction", "both"

# wording that says a stored fact is wrong or out of date (EN, ZH). The apostrophe may be typographic (’), as
# phones and chat clients type it; 不对 inside the tag question 对不对 ("right?") asks, it does not correct.
_CORRECTION = re.compile(
    r"\b(?:actually|correction|to correct|not anymore|anymore|any more|any longer|no longer|is now|are now|"
    r"was wrong|were wrong|is wrong|"
    r"that['’]s wrong|that is wrong|mistaken|moved to|moved from|changed to|switched to|switched from|replaced|instead of|scratch that|i meant|"
    r"not right|not true|not correct|incorrect)\b|"
    r"\bupdate:|其实|更正|纠正|不再|已经不|改成|改为|搬到|换成|搞错|说错|弄错|错了|(?<!对)不对|不正确|不是真的",
    re.IGNORECASE)
# wording that asks for something
_RETRIEVAL = re.compile(
    r"\?|？|\b(?:what|where|when|who|whom|whose|which|why|how|remind me|recall|look up|find|do you remember|"
    r"tell me|list|show me|summari[sz]e)\b|什么|哪|谁|为什么|怎么|多少|吗|呢",
    re.IGNORECASE)

NEXT_STEPS = {
    RETRIEVAL: "Answer from the context pack; cite source_path for vault items.",
    CORRECTION: "Store the corrected fact with `mnemon remember`; when its diff_suggestion is UPDATE or CONFLICT, "
                "link it to the memory it replaces with `mnemon link NEW_ID OLD_ID --type supersedes`.",
    BOTH: "Answer from the context pack with the correction applied, then store the corrected fact with "
          "`mnemon remember` (and `mnemon link NEW_ID OLD_ID --type supersedes` when it replaces a memory).",
}
# the same steps for an agent calling tools (MCP, HTTP), which can type no command
TOOL_NEXT_STEPS = {
    RETRIEVAL: NEXT_STEPS[RETRIEVAL],
    CORRECTION: "Store the corrected fact with `remember`; when its diff_suggestion is UPDATE or CONFLICT, link it to "
                "the memory it replaces with `link` (source_id: the new id, target_id: the old, edge_type: "
                "supersedes).",
    BOTH: "Answer from the context pack with the correction applied, then store the corrected fact with `remember` "
          "(and `link` it, edge_type supersedes, to the memory it replaces).",
}


@dataclass(frozen=True)
class Route:
    path: str
    confidence: float
    reason: str
    cues: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "confidence": self.confidence, "reason": self.reason, "source": "rules",
                "cues": list(self.cues), "next_step": step(NEXT_STEPS[self.path], TOOL_NEXT_STEPS[self.path])}


def _found(pattern: re.Pattern[str], text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.group(0).strip().lower() for m in pattern.finditer(text)))


def route(prompt: str) -> Route:
    corrections, questions = _found(_CORRECTION, prompt), _found(_RETRIEVAL, prompt)
    if corrections and questions:
        return Route(BOTH, 0.7, "the prompt corrects a fact and asks a question", corrections + questions)
    if corrections:
        return Route(CORRECTION, 0.8, "correction wording: " + ", ".join(corrections), corrections)
    if questions:
        return Route(RETRIEVAL, 0.9, "question wording: " + ", ".join(questions), questions)
    return Route(RETRIEVAL, 0.5, "no correction or question wording; reading memory is the default", ())
