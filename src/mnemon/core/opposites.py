"""Opposite words, which flip a fact as a negation does: "Enable the feature flag for EU users" and "Disable the
feature flag for EU users", "Guests are allowed in the lab" and "Guests are forbidden in the lab" say the same words
but for one, and that one says the other is false. The advisory diff reads them as it reads "not".

A small, explicit table of pairs in their usual English forms, and a word against its negative-prefixed form
("available" / "unavailable", "complete" / "incomplete", "likes" / "dislikes"). "on"/"off" and "up"/"down" are
mostly prepositions and particles ("deploy on Fridays", "set up", "day off"), so they count only after a verb of
state or switching ("is on", "turned off", "went down"), and "up to 5" is a limit. Words of a state ("cold",
"full", "high", "wrong") count after a verb of being ("is cold", "feels warm", "went bad"), not in a name ("cold
storage", "a high-level plan"). A text that says both sides of a pair ("turn on the lights and off the fan", "allow
reads, forbid writes") is about two things: that pair flips none.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
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
    ("join/leave", _forms("join joins joined joining"), _forms("leave leaves left leaving")),
    ("win/lose", _forms("win wins won winning"), _forms("lose loses lost losing")),
    ("like/hate", _forms("like likes liked love loves loved enjoy enjoys enjoyed"),
     _forms("hate hates hated detest detests detested dislike dislikes disliked")),
    ("support/oppose", _forms("support supports supported supporting"),
     _forms("oppose opposes opposed opposing")),
    ("hire/fire", _forms("hired"), _forms("fired")),
    # states, said after a verb of being ("is cold", "feels warm", "went bad"): "cold storage", "a high-level plan",
    # "a good first issue" are names
    ("hot/cold", _forms("hot warm"), _forms("cold")),
    ("present/absent", _forms("present"), _forms("absent")),
    ("alive/dead", _forms("alive"), _forms("dead")),
    ("full/empty", _forms("full"), _forms("empty")),
    ("safe/dangerous", _forms("safe"), _forms("dangerous unsafe")),
    ("correct/wrong", _forms("correct right"), _forms("wrong incorrect")),
    ("running/stopped", _forms("running"), _forms("stopped")),
    ("green/red", _forms("green"), _forms("red")),
    ("high/low", _forms("high"), _forms("low")),
    ("fast/slow", _forms("fast quick"), _forms("slow")),
    ("good/bad", _forms("good"), _forms("bad")),
)
_STATES = frozenset(("hot/cold", "present/absent", "alive/dead", "full/empty", "safe/dangerous", "correct/wrong",
                     "running/stopped", "green/red", "high/low", "fast/slow", "good/bad"))
_LINKING = frozenset("feel feels felt seem seems seemed look looks looked become becomes became get gets got "
                     "go goes went turn turns turned run runs ran".split())
_DEGREE = frozenset("very too so quite really pretty rather fairly extremely not never all still now already "
                    "currently always getting".split())
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
                       "up": frozenset(("to",)), "open": frozenset(("question", "questions", "source")),
                       # "the left panel", "left of the button", "a leave of absence"
                       "left": frozenset("side hand of to over panel pane column corner sidebar menu wing click "
                                         "arrow edge margin half".split()),
                       "leave": frozenset(("of",))}
# "the left panel", "turn left", "is left over", "parental leave": no side of the pair
_NOT_THE_PAIR_BEFORE = {"left": frozenset("the a on to turn turned turns far upper lower top bottom nothing anything "
                                          "something little much is are was were still only".split()),
                        "leave": frozenset("on parental sick annual maternity paternity unpaid paid".split())}
# "2 seats left", "no budget left", "a few days left": what remains, no leaving
_REMAINING = re.compile(r"(?i)(\b(?:\d[\d,.]*|no|few|any|some|many|much|little|nothing|none)\s+(?:[^\W\d_]+\s+){0,2})"
                        r"left\b")
# "like" is a side only after the one who likes: "I like it", "users really like it" (not "looks like", "I'd like")
_LIKE_AFTER = frozenset("i we you they people users customers really also still do does did don't doesn't didn't "
                        "genuinely".split())


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
    ("热/冷", ("热", "温暖", "暖和"), ("冷", "寒冷")),
    ("加入/离开", ("加入", "入职"), ("离开", "离职", "退出")),
    ("赢/输", ("赢了", "赢得", "获胜", "胜出"), ("输了", "输掉", "输给", "落败")),
    ("喜欢/讨厌", ("喜欢", "喜爱"), ("讨厌", "厌恶")),
    ("支持/反对", ("支持", "赞成"), ("反对",)),
    ("正确/错误", ("正确",), ("错误",)),
    ("有效/无效", ("有效",), ("无效", "失效")),
    ("安全/危险", ("安全",), ("危险",)),
    ("锁定/解锁", ("锁定",), ("解锁",)),
)
# words holding a side's characters that say no side: 热门 (popular), 热情 (eager), 冷静 (calm), 输入 (input) …
_ZH_NOT_THE_PAIR = re.compile("热门|热情|热点|热线|热身|热搜|热度|热爱|加热|冷静|冷漠|冷门|冷笑|有效期|安全带")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


@lru_cache(maxsize=64)
def _zh_sides(text: str) -> dict[str, tuple[int, str]]:
    out: dict[str, tuple[int, str]] = {}
    if not _CJK.search(text):
        return out
    text = _ZH_NOT_THE_PAIR.sub("", text)
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


def being_verb(words: list[str], k: int) -> int:
    """The index of the verb of being the word at `k` is said after ("is cold", "is still not full"), or -1."""
    j = k - 1
    while j >= 0 and words[j] in _DEGREE and k - j <= 3:
        j -= 1
    return j if j >= 0 and (_copula(words[j]) or words[j] in _LINKING) else -1


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
    words = [w.replace("’", "'") for w in _WORD.findall(_REMAINING.sub(r"\1remaining", normalize(text)))]
    said: dict[str, dict[int, str]] = {}
    loose: dict[str, set[int]] = {}
    for k, w in enumerate(words):
        nxt = words[k + 1] if k + 1 < len(words) else ""
        prev = words[k - 1] if k else ""
        if nxt in _NOT_THE_PAIR_AFTER.get(w, ()) or prev in _NOT_THE_PAIR_BEFORE.get(w, ()):
            continue
        if w == "like" and prev not in _LIKE_AFTER:
            continue
        for name, side in _PAIR_OF.get(w, ()):
            if name not in _SWITCHES:
                if name not in _STATES or being_verb(words, k) >= 0:
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


@lru_cache(maxsize=128)  # (asked again by each rule that weighs a new memory against the same candidate)
def opposites(new_text: str, old_text: str) -> tuple[Opposite, ...]:
    """The pairs of which `new_text` says one side and `old_text` the other (each says only that side)."""
    new, old = _sides(new_text) | _zh_sides(new_text), _sides(old_text) | _zh_sides(old_text)
    found = [Opposite(name, new[name][1], old[name][1])
             for name in new if name in old and new[name][0] != old[name][0]]
    new_words, old_words = _words(new_text), _words(old_text)
    prefixed = _prefixed(new_words, old_words)
    prefixed += [Opposite(o.pair, o.old_word, o.new_word) for o in _prefixed(old_words, new_words)]
    named = {(o.new_word, o.old_word) for o in found}  # ("locked"/"unlocked" is in the table: named once)
    return (*found, *(o for o in prefixed if (o.new_word, o.old_word) not in named))


@lru_cache(maxsize=64)
def _words(text: str) -> frozenset[str]:
    return frozenset(w.replace("’", "'") for w in _WORD.findall(normalize(text)))


def without_opposites(text: str, found: Sequence[Opposite]) -> str:
    """`text` without the opposite words of `found`: what it says besides them ("实验室访客进入" of "实验室允许访客进入":
    the character pairs across 允许 and 禁止 differ as well)."""
    for word in {w for o in found for w in (o.new_word, o.old_word)}:
        if _CJK.search(word):
            text = re.sub(rf"{re.escape(word)}了?", "", text)  # (and its 了: "测试通过了" / "测试失败了")
        else:
            text = re.sub(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", " ", text)
    return text


def opposite_reason(found: Sequence[Opposite]) -> str:
    said = " ".join(o.new_word for o in found)
    unsaid = " ".join(o.old_word for o in found)
    pairs = ", ".join(o.pair for o in found)
    return f'the new memory says "{said}" and this one "{unsaid}": opposite words ({pairs}), one denies the other'
