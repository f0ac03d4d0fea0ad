"""Opposite words, which flip a fact as a negation does: "Enable the feature flag for EU users" and "Disable the
feature flag for EU users", "Guests are allowed in the lab" and "Guests are forbidden in the lab" say the same words
but for one, and that one says the other is false. The advisory diff reads them as it reads "not".

A small, explicit table of pairs in their usual English forms, and a word against its negative-prefixed form
("available" / "unavailable", "complete" / "incomplete", "likes" / "dislikes"). "on"/"off" and "up"/"down" are
mostly prepositions and particles ("deploy on Fridays", "set up", "day off"), so they count only after a verb of
state or switching ("is on", "turned off", "went down"), and "up to 5" is a limit. A text that says both sides of a
pair ("turn on the lights and off the fan", "allow reads, forbid writes") is about two things: that pair flips none.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .text import normalize


def _forms(words: str) -> frozenset[str]:
    return frozenset(words.split())


# (name, one side, the other side)
_PAIRS: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = (
    ("enable/disable", _forms("enable enabled enables enabling"), _forms("disable disabled disables disabling")),
    ("allow/forbid", _forms("allow allowed allows allowing permit permitted permits permitting"),
     _forms("forbid forbids forbidden forbidding forbade prohibit prohibited prohibits prohibiting deny denied denies "
            "denying disallow disallowed disallows ban banned bans")),
    ("accept/reject", _forms("accept accepted accepts accepting approve approved approves approving"),
     _forms("reject rejected rejects rejecting denied")),
    ("include/exclude", _forms("include included includes including"),
     _forms("exclude excluded excludes excluding")),
    ("open/closed", _forms("open opened opens"), _forms("closed close closes")),
    ("pass/fail", _forms("pass passed passes passing succeed succeeded succeeds succeeding success successful"),
     _forms("fail failed fails failing failure unsuccessful")),
    ("online/offline", _forms("online"), _forms("offline")),
    ("true/false", _forms("true"), _forms("false")),
    ("public/private", _forms("public"), _forms("private")),
    ("required/optional", _forms("required mandatory compulsory"), _forms("optional")),
    ("increase/decrease", _forms("increase increased increases increasing"),
     _forms("decrease decreased decreases decreasing")),
    ("faster/slower", _forms("faster"), _forms("slower")),
    ("higher/lower", _forms("higher"), _forms("lower")),
    ("better/worse", _forms("better"), _forms("worse")),
    ("locked/unlocked", _forms("locked"), _forms("unlocked")),
    ("on/off", _forms("on"), _forms("off")),
    ("up/down", _forms("up"), _forms("down")),
)
# "on"/"off", "up"/"down" say a state right after a copula ("the flag is on", "it's still off", "is back up") or a
# few words after a verb of switching ("turned it off", "switch the VPN on", "the site went down"); not "set up",
# "go on", "keep up", "is deployed on Fridays"
_COPULAS = frozenset("is are was were be been being am stay stays stayed remain remains remained".split())
_ADVERBS = frozenset("now still back already currently always fully".split())
_SWITCHES = {
    "on/off": frozenset("turn turns turned turning switch switches switched switching toggle toggles toggled flip "
                        "flips flipped".split()),
    "up/down": frozenset("go goes went gone going come comes came coming".split()),
}
SWITCH_REACH = 3  # words from a verb of switching to its "on"/"off"
_CONJUNCTIONS = frozenset(("and", "but", "or", "while", "whereas"))
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# "close to the station", "a close call", "up to 5 replicas": no state of the pair
_NOT_THE_PAIR_AFTER = {"close": frozenset(("to", "by", "call", "friend", "friends", "enough", "look")),
                       "up": frozenset(("to",)), "open": frozenset(("question", "questions", "source"))}


# Chinese pairs, found as written inside a run of characters (no spaces to find words by)
_ZH_PAIRS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("启用/禁用", ("启用",), ("禁用", "停用")),
    ("开启/关闭", ("开启", "打开"), ("关闭",)),
    ("允许/禁止", ("允许", "准许"), ("禁止",)),
    ("成功/失败", ("成功",), ("失败",)),
    ("批准/拒绝", ("批准", "接受", "通过了"), ("拒绝", "驳回")),
    ("通过/失败", ("通过了", "测试通过"), ("失败",)),
    ("包含/排除", ("包含", "包括"), ("排除",)),
    ("公开/私有", ("公开",), ("私有",)),
    ("在线/离线", ("在线", "上线"), ("离线", "下线")),
    ("增加/减少", ("增加", "提高", "上升"), ("减少", "降低", "下降")),
    ("必需/可选", ("必需", "必选"), ("可选",)),
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


@lru_cache(maxsize=64)
def _zh_sides(text: str) -> dict[str, tuple[int, str]]:
    out: dict[str, tuple[int, str]] = {}
    if not _CJK.search(text):
        return out
    for name, one, other in _ZH_PAIRS:
        said = [(side, w) for side, forms in ((0, one), (1, other)) for w in forms if w in text]
        if said and len({side for side, _ in said}) == 1:
            out[name] = said[0]
    return out


@dataclass(frozen=True)
class Opposite:
    pair: str
    new_word: str
    old_word: str


def _copula(word: str) -> bool:
    return word in _COPULAS or word.endswith("'s")  # "it's on"


def _says_state(words: list[str], k: int, switches: frozenset[str]) -> bool:
    prev, prev2 = (words[k - 1] if k else ""), (words[k - 2] if k > 1 else "")
    if _copula(prev) or (prev in _ADVERBS and _copula(prev2)):
        return True
    return any(w in switches for w in words[max(0, k - SWITCH_REACH):k])


_PAIR_OF: dict[str, list[tuple[str, int]]] = {}  # a word → the pairs and sides it says
for _name, _one, _other in _PAIRS:
    for _side, _said in ((0, _one), (1, _other)):
        for _form in _said:
            _PAIR_OF.setdefault(_form, []).append((_name, _side))


@lru_cache(maxsize=64)  # (a new memory is read against each of its candidates, a candidate several times)
def _sides(text: str) -> dict[str, tuple[int, str]]:
    """The pairs `text` says one side of: pair name → (side 0 or 1, the word as said)."""
    words = [w.replace("’", "'") for w in _WORD.findall(normalize(text))]
    said: dict[str, dict[int, str]] = {}
    loose: dict[str, set[int]] = {}
    for k, w in enumerate(words):
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if nxt in _NOT_THE_PAIR_AFTER.get(w, ()):
            continue
        for name, side in _PAIR_OF.get(w, ()):
            if name not in _SWITCHES:
                said.setdefault(name, {}).setdefault(side, w)
                continue
            if _says_state(words, k, _SWITCHES[name]):
                said.setdefault(name, {}).setdefault(side, w)
            elif k and words[k - 1] in _CONJUNCTIONS:  # "turn on the lights and off the fan": the same verb's
                loose.setdefault(name, set()).add(side)
    out: dict[str, tuple[int, str]] = {}
    for name, sides in said.items():
        if len(sides) == 1 and not (loose.get(name, set()) - set(sides)):
            (side, word), = sides.items()
            out[name] = (side, word)
    return out


# A negative prefix makes a word's opposite ("unavailable", "incomplete", "dislikes"): un- before any word of three
# letters or more but those that only start so; dis- before a few verbs ("discover" is no "not cover"); in-, im-,
# il-, ir- before an adjective's ending ("install", "inform", "income" are no "not stall", "not form", "not come")
_UN_WORDS = frozenset("under understand understands understood until unless unit units union unique universe "
                      "universal unity unite united".split())
_DIS_BASES = frozenset("like likes liked agree agrees agreed approve approves approved connect connects connected "
                       "continue continues continued trust trusts trusted honest loyal satisfied similar "
                       "qualified qualifies".split())
_IN_PREFIX = re.compile(r"^(?:in|im|il|ir)(?P<base>\w{3,}(?:ble|ete|id|ive|ect|ent|ant|al|ure|ular|ate|ite|ient))$")


def _unprefixed(word: str) -> str:
    """The word `word` negates by its prefix, or ""."""
    if word.startswith("un") and len(word) > 4 and word not in _UN_WORDS:
        return word[2:]
    if word.startswith("dis") and word[3:] in _DIS_BASES:
        return word[3:]
    m = _IN_PREFIX.match(word)
    return m.group("base") if m else ""


def _prefixed(new_words: frozenset[str], old_words: frozenset[str]) -> list[Opposite]:
    """The words of `new_words` whose negative prefix denies a word of `old_words`, neither text saying both."""
    found: list[Opposite] = []
    for w in sorted(new_words - old_words):
        base = _unprefixed(w)
        if base and base in old_words and base not in new_words:
            found.append(Opposite(f"{base}/{w}", w, base))
    return found


def opposites(new_text: str, old_text: str) -> list[Opposite]:
    """The pairs of which `new_text` says one side and `old_text` the other (each says only that side)."""
    new, old = _sides(new_text) | _zh_sides(new_text), _sides(old_text) | _zh_sides(old_text)
    found = [Opposite(name, new[name][1], old[name][1])
             for name in new if name in old and new[name][0] != old[name][0]]
    new_words, old_words = _words(new_text), _words(old_text)
    found += _prefixed(new_words, old_words)
    found += [Opposite(o.pair, o.old_word, o.new_word) for o in _prefixed(old_words, new_words)]
    return found


@lru_cache(maxsize=64)
def _words(text: str) -> frozenset[str]:
    return frozenset(w.replace("’", "'") for w in _WORD.findall(normalize(text)))


def without_opposites(text: str, found: list[Opposite]) -> str:
    """`text` without the opposite words of `found`: what it says besides them ("实验室访客进入" of "实验室允许访客进入":
    the character pairs across 允许 and 禁止 differ as well)."""
    for word in {w for o in found for w in (o.new_word, o.old_word)}:
        if _CJK.search(word):
            text = re.sub(rf"{re.escape(word)}了?", "", text)  # (and its 了: "测试通过了" / "测试失败了")
        else:
            text = re.sub(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", " ", text)
    return text


def opposite_reason(found: list[Opposite]) -> str:
    said = " ".join(o.new_word for o in found)
    unsaid = " ".join(o.old_word for o in found)
    pairs = ", ".join(o.pair for o in found)
    return f'the new memory says "{said}" and this one "{unsaid}": opposite words ({pairs}), one denies the other'
