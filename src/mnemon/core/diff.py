"""The advisory diff of `remember`: ADD / UPDATE / CONFLICT / DUPLICATE.

Only byte-identical active content is ever skipped (the store answers that by hash lookup); everything here is a
suggestion for the agent, never a reason to change or delete an existing memory.

Word overlap alone misses the usual way a fact is corrected: "Mira moved from Lisbon to Porto" shares two of five
words with "Mira lives in Lisbon". So a new memory is also read for a correction cue ("moved from X", "instead of
X", "no longer X", "…, not X", …): a candidate about the same subject that states the replaced value X is a CONFLICT
(the seed's verdict for a memory the new one contradicts, as "switched from"/"instead of" already are in its cue
list), whatever its overlap. English cues, plus the Chinese ones the seed's cue list implies (从…搬到, 不再).
"Mira lives in Porto, not Lisbon" retires only a memory that also says the rest of its clause ("Mira lives in
Lisbon", not "Mira works in Lisbon"), and only when the "not" after the comma ends the clause with a value.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .cue_words import MAY_CORRECT
from .diff_changes import changed_fact
from .diff_handover import handover
from .diff_measures import WEEKDAYS as _WEEKDAYS, measure_difference as _measure_difference
from .diff_measures import measure_restated as _measure_restated, number_difference as _number_difference
from .diff_slots import changed_part
from .diff_states import state_change
from .diff_updates import superseding_update
from .diff_when import STATEMENT_TIME
from .diff_words import FROM_VERBS as _FROM_VERBS, content_words as _content
from .measure_values import MONTHS
from .opposites import opposite_reason, opposites, without_opposites
from .text import jaccard, normalize, token_set, tokens

# Chinese "not": 不, 没 (its 有 is the verb it negates: 没有备份 says 有备份 is false), 并不, 未 …; not the words that
# merely hold the character (不错 good, 不断 on and on, 不同 different, 差不多, 未来 future, 淹没 submerged)
_ZH_NOT = ("并不|并没|并非|绝非|从未|未曾|尚未|无法|(?<![差对了])(?<!不得)不(?!再|过|错|断|同|少|久|仅|管|论|然|但|如|止|只|光|得不)"
           "|(?<![淹埋出沉])没(?!收)|未(?!来|知)")
# "not" in the other languages recall reads questions in, and a few more: whole words (German "nicht", "kein…",
# French "ne … pas" and "n'", Spanish and Portuguese "nunca", "não", Russian "не", Indonesian "tidak", Hindi "नहीं",
# Bengali "না", Arabic "لا", Dutch "niet", Italian "non", Korean "안"), and Japanese and Korean negative endings.
# Not the words that only look like one: "Mai" (May), Polish "tak" (yes), 少ない (few), 안전 (safety)
_OTHER_NOT_WORDS = (
    "nicht|kein|keine|keinen|keinem|keiner|keines|nie|niemals|pas|jamais|aucun|aucune|nunca|jamás|ningún|ninguna"
    "|não|nenhum|nenhuma|non|не|нет|никогда|niet|geen|nooit|tidak|bukan|belum|jangan|नहीं|मत|না|নয়|নেই"
    "|لا|لم|لن|ليس|ليست|안")
# (French "ne" only before its "pas", "plus", "jamais" …: "the NE region" says no "not")
_NE = r"ne(?=\s+\w+(?:\s+\w+)?\s+(?:pas|plus|jamais|rien|personne|guère|point)(?!\w))"
_OTHER_NOT = (rf"(?<!\w)(?:{_OTHER_NOT_WORDS}|{_NE})(?![\w\u0900-\u09ff])|(?<!\w)n['’](?=\w)"
              r"|ません|しない|できない|ではない|じゃない|(?<=[てで]い)ない|(?<=[てで]い)なかった|않|못하|없")
_NEGATION = re.compile(
    r"(?i)\b(?:no longer|switched from|instead of|rather than|replaced|deprecated|never|do not|does not|cannot|not|no"
    rf"|\w+n['’]t)\b|不再|放弃|替换|取消|{_ZH_NOT}|{_OTHER_NOT}"
)
COSINE_OVERRIDE = 0.85
CONFLICT_SIMILARITY = 0.7


@dataclass(frozen=True)
class DiffMatch:
    id: str
    similarity: float
    suggestion: str
    reason: str = ""  # set when a correction cue, or a changed small word, not the overlap, made the verdict


# ("no longer" and 不再 say "not" of now: "Deploys are no longer allowed" says what "… are not allowed" says)
_PLAIN_NEGATIONS = frozenset(("do not", "does not", "cannot", "not", "no", "never", "no longer", "不再",
                              "不", "没", "并不", "并没", "并非", "绝非", "从未", "未曾", "尚未", "无法", "未"))


_OTHER_NOT_SET = frozenset(_OTHER_NOT_WORDS.split("|")) | {"ne", "n'", "ません", "しない", "できない", "ではない",
                                                            "じゃない", "ない", "なかった", "않", "못하", "없"}


def _negation(cue: str) -> str:
    # "isn't", "do not", "can't", "no", "never", "nicht", "ne … pas" all say not: a text differs in polarity from
    # another by saying it, not by the way it spells it
    cue = cue.lower().replace("’", "'")
    return "not" if cue in _PLAIN_NEGATIONS or cue in _OTHER_NOT_SET or cue.endswith("n't") else cue


@lru_cache(maxsize=64)  # (read again for each candidate of a new memory, and for each rule that weighs polarity)
def negation_cues(text: str) -> frozenset[str]:
    return frozenset(_negation(m.group(0)) for m in _NEGATION.finditer(text))


_NEGATION_CLAUSE = re.compile(r"[,;:!?()\n，；：！？]|[.。](?!\d)|\s[—–-]\s|\bbut\b|但是?|而")


def _negates_the_other(text: str, other: str) -> bool:
    """Whether a negation `text` says and `other` does not is about what `other` says: not when the clauses of
    `text` free of it say all `other` says ("Mira leads the payments team, not the billing team")."""
    extra = negation_cues(text) - negation_cues(other)
    if not extra:
        return False
    free = " ".join(c for c in _NEGATION_CLAUSE.split(text) if c and not negation_cues(c) & extra)
    return not token_set(other) <= token_set(free)


def flips(new_text: str, old_text: str) -> bool:
    """Whether one text denies the other: a negation only one side says (about what the other says), or opposite
    words ("enable" / "disable"), but not both at once ("Guests are not allowed" says what "… forbidden" says)."""
    new_cues, old_cues = negation_cues(new_text), negation_cues(old_text)
    opposite = bool(opposites(new_text, old_text))
    if opposite and new_cues ^ old_cues == {"not"}:
        return False
    return opposite or _negates_the_other(new_text, old_text) or _negates_the_other(old_text, new_text)


def classify(similarity: float, new_text: str, old_text: str) -> str:
    if similarity < 0.5:
        return "ADD"
    # a negation only one side says flips the fact; the same one on both ("Never commit secrets to git" said again
    # with a word more) is a restatement, as it would be without the negation
    if similarity >= CONFLICT_SIMILARITY and flips(new_text, old_text):
        return "CONFLICT"
    if similarity > 0.9:
        return "DUPLICATE"
    return "UPDATE"


# ── corrections ───────────────────────────────────────────────────────────────
_W = r"\w+(?:[.'’&/+-]\w+)*"  # a word, with the inner punctuation of "Node.js", "O'Neil", "e-mail"
# a replaced value ends where the new one or a circumstance begins ("from Lisbon to Porto", "from Slack for chat")
_VALUE_END = (r"(?:to|into|towards|for|with|by|because|since|after|before|and|but|or|in|on|at|as|when|while|so|"
              r"then|last|this|next|yesterday|today|now)")
_VALUE = rf"(?P<old>{_W}(?:\s+(?!{_VALUE_END}\b){_W}){{0,4}})"
# a replaced predicate ("no longer lives in Lisbon") runs to the end of its clause
_PREDICATE = rf"(?P<old>{_W}(?:\s+(?!(?:and|but|because|since|so|anymore|any)\b){_W}){{0,5}})"
_NOT_A_VALUE = (r"(?:only|just|even|yet|ever|sure|far|near|because|since|that|to|always|all|much|least|quite|"
                r"really|so|too|very|necessarily|exactly|once|now|anymore|any|enough)")
# a Chinese value: no clause punctuation inside, no space at either end (a Latin value stands between spaces)
_ZH_VALUE = r"(?P<old>[^\s，。；、！？,.;!?](?:[^\n，。；、！？,.;!?]{0,22}?[^\s，。；、！？,.;!?])?)"
_ZH_INTO = "换成|改为|改成|改到|转到|切换到|切换为|变为|变成|调到"  # "… changed into" what follows
_ZH_REPLACE = "取代|代替|替代|替换"
# Japanese verbs of a change ("XからYに移転しました": moved from X to Y), not "送りました" (sent) or "まで" (until)
_JA_CHANGED = "移転|移行|移動|変更|切り替え|切り替わ|切替|乗り換え|引っ越|変わ|替え|替わ"
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("from", re.compile(  # "moved from X", "switched our chat from X": the object, when given, is what changed
        rf"(?i)\b(?:{_FROM_VERBS})(?:\s+(?P<obj>(?!from\b){_W}(?:\s+(?!from\b){_W}){{0,2}}))?\s+from\s+{_VALUE}")),
    ("instead of", re.compile(rf"(?i)\binstead\s+of\s+{_VALUE}")),
    # "rather than" alone is often a plain preference; with "now" it retires a value
    ("now … rather than", re.compile(rf"(?i)\bnow\b[^.;:!?]{{0,80}}?\brather\s+than\s+{_VALUE}")),
    ("replaced … with", re.compile(rf"(?i)\breplaced\s+{_VALUE}\s+(?:with|by)\b")),
    # "Slack was replaced by Zulip", "Confluence has been superseded": the name (or the word) before the verb
    ("replaced by", re.compile(r"(?P<old>\b[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*){0,2}|\b\w+)\s+(?i:(?:was|were|has been|"
                               r"have been|had been|is being|will be|got|gets|is|are)\s+(?:now\s+)?"
                               r"(?:replaced|superseded))\b"
                               rf"(?:\s+(?i:by|with)\s+{_VALUE.replace('<old>', '<new>')})?")),
    # "Zulip replaced Slack for team chat", "Notion supersedes Confluence" (not "… replaced Slack with …")
    ("replaces", re.compile(rf"(?i)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bis\s)(?<!\bare\s)"
                            rf"\b(?:replaced|replaces|superseded|supersedes)\s+(?!by\b|with\b){_VALUE}"
                            rf"(?=\s*(?:$|[,.;:!?]|\s(?!with\b|by\b){_VALUE_END}\b))")),
    ("no longer", re.compile(rf"(?i)\bno\s+longer\s+{_PREDICATE}")),
    ("not … anymore", re.compile(rf"(?i)(?:\bnot|n['’]t|\bnever)\s+{_PREDICATE}\s+any\s*(?:more|longer)\b")),
    # "stopped using Slack", "quit publishing …": a habit ended (not "never stopped using", "stopped by the office")
    ("stopped", re.compile(r"(?i)(?<!\bnever\s)(?<!\bnot\s)(?<!n't\s)(?<!n’t\s)\b(?:stopped|quit|ceased)\s+"
                           rf"(?=\w+ing\b){_PREDICATE}")),
    # "is used to cache sessions" and "got used to" are no past habit
    ("used to", re.compile(r"(?i)(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!\bbeen\s)"
                           rf"(?<!\bget\s)(?<!\bgot\s)\bused\s+to\s+{_PREDICATE}")),
    # "Mira lives in Porto, not Lisbon": a "not" after a comma or dash whose value ends the clause; words that make
    # it no value ("Porto, not far from Lisbon", "tea, not only for the taste", "not because …") never do
    ("…, not", re.compile(rf"(?i)[,;—–]\s*(?:but\s+)?not\s+(?!{_NOT_A_VALUE}\b)(?P<old>{_W}(?:\s+{_W}){{0,3}})"
                        r"\s*(?=$|[,.;:!?)\]—–])")),
    # (a Latin-script value stands between spaces in mixed text: "团队从 Slack 换成了 Zulip", "从 Google Cloud 迁到")
    ("从…到", re.compile(rf"从\s*{_ZH_VALUE}\s*(?:搬到|搬去|迁到|迁往|迁至|换到|{_ZH_INTO})")),
    # "東京オフィスは渋谷から新宿に移転しました": the value after the topic (は, が …) and before から
    ("から…に", re.compile(r"(?:^|(?<=[\sはがもを、。，,]))(?P<old>[^\s、。，,.!?！？はがもを]{1,16}?)\s*から\s*"
                         rf"[^、。，,.!?！？]{{1,20}}?\s*[にへ]\s*(?:{_JA_CHANGED})")),
    ("不再", re.compile(r"不再(?P<old>[^，。；、！？,.;!?]{1,16}?)[了的啦]?(?=$|[，。；、！？,.;!?])")),
    ("把…换成", re.compile(rf"把\s*{_ZH_VALUE}\s*(?:换为|替换成|替换为|更换为|更换成|调成|调整为|{_ZH_INTO})")),
    # "Zulip 取代了 Slack", "用 Zulip 代替 Slack" (not "Slack 被 Zulip 取代了": there the value comes first)
    ("取代", re.compile(rf"(?<!被)(?:{_ZH_REPLACE})了?\s*(?!了){_ZH_VALUE}\s*(?=$|[，。；、！？,.;!?])")),
    ("被…取代", re.compile(r"(?:^|(?<=[\s，。；、！？,.;!?的]))(?P<old>[^\s，。；、！？,.;!?的]{1,16}?)\s*(?:已经|已|也|都)?被"
                         rf"\s*[^，。；、！？,.;!?]{{0,20}}?(?:{_ZH_REPLACE})")),
    # "米拉住在波尔图，不是里斯本" (not "，不是因为…", which gives a reason)
    ("，不是", re.compile(r"[，,；;]\s*(?:而|但|可|并)?不是\s*(?!因为|为了|由于|只|很|太|所有|每|一直|说|要|在于)"
                        rf"{_ZH_VALUE}\s*(?=$|[，。；、！？,.;!?])")),
)
# a word one of which every match of an English cue holds (in lower case): in ASCII text the others are not read
# (a text has one or two cues; their expressions cost recall ≈ 0.15 ms a candidate), and no Chinese or Japanese cue
# can match there at all
_CUE_NEEDS: dict[str, tuple[str, ...]] = {
    "from": ("from",), "instead of": ("instead",), "now … rather than": ("rather",), "replaced … with": ("replaced",),
    "replaced by": ("replaced", "superseded"), "replaces": ("replace", "supersede"), "no longer": ("longer",),
    "not … anymore": ("any",), "stopped": ("stopped", "quit", "ceased"), "used to": ("used",), "…, not": ("not",)}
# the cues a clause's subject stands right before (with its adverbs): "Team chat no longer …", "Mira finally moved
# from …"; before "instead of", "rather than" and ", not" stand a verb and the new value too
_SUBJECT_FIRST = frozenset(("from", "no longer", "not … anymore", "used to", "replaced … with", "stopped"))
_NOT_AN_OBJECT = frozenset({"to", "into", "over", "back", "away"})
_CLAUSE_START = re.compile(r"(?:^|[.!?;:]\s+|[。！？；：\n])")
_SEGMENT = re.compile(r"[,，]")
_INTRO = frozenset("after before since when while as in on at during following because once last this by until "
                   "from with".split())
_FIRST_PERSON = {"i": "i", "me": "i", "my": "i", "we": "we", "us": "we", "our": "we"}
# a note written without its subject, opening on what was done ("Chose Qdrant as the vector database", "Went with
# Postgres", "Migrated the queue to SQS") is its writer's own statement: a first person's correction retires it
_SUBJECTLESS = re.compile(r"(?i)\s*(?:chose|picked|went|use[sd]?|using|[a-z]{2,}[a-df-z]ed)\b")  # (not "speed", "need")
_CJK_TEXT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
SUBJECT_WINDOW = 4  # a common-noun subject is one of a candidate's first content words ("Team chat runs on …")

# A memory can name the retired value without stating it as the subject's current one: "Mira was born in Lisbon",
# "We built a Slack bot", "Mira loves the food in Lisbon" all stay true after "Mira moved from Lisbon to Porto"
# (and "switched from Slack"), so they are no conflict, and recall must not demote them as superseded.
_RAW_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_EVENT_PAST = frozenset(
    "born died built wrote written made met saw seen went gone gave given took taken found lost broke broken ran "
    "began begun bought brought taught told sold won spent sent paid said came drove flew grew knew fell".split())
_ATTITUDE = frozenset(
    "love loves like likes enjoy enjoys hate hates miss misses visit visits visiting recommend recommends dislike "
    "dislikes admire admires".split())
# past forms that put their subject in the state they name ("moved to Porto", "chose Slack", "is based in Lisbon")
_INTO_STATE = frozenset(_FROM_VERBS.split("|")) | frozenset(
    "based located named called scheduled hosted deployed stored pinned settled standardized standardised selected "
    "picked chose chosen adopted decided joined hired employed installed configured".split())
_STATE_AUX = frozenset("is are am be been being has have 's ’s".split())
_PAST_AUX = frozenset(("was", "were", "had", "did"))
# what follows a past-tense verb (not an "-ed" adjective as in "our shared drive")
_VERB_FOLLOWER = frozenset("a an the this that these those our my his her their its some in at on to from with for by "
                           "up out over into".split())


@dataclass(frozen=True)
class Correction:
    """One cue in a new memory: what it retires (`old`) and whose value that was (`subjects` / `pronoun`)."""
    cue: str
    span: str
    old: str
    old_tokens: frozenset[str]
    subjects: tuple[str, ...]  # the first content word of each comma segment before the cue, in its clause
    subject_text: str
    pronoun: str  # "i" / "we" when the clause's subject is only that; else ""
    object_tokens: frozenset[str]  # "switched our chat from X": the thing that changed
    # "…, not X": what the clause says besides its new value ("Mira lives in Porto" → mira, live), which a memory must
    # say too to be the one retired: "Mira works in Lisbon" is not what "Mira lives in Porto, not Lisbon" corrects
    context_tokens: frozenset[str] = frozenset()


@lru_cache(maxsize=4096)  # (asked of each word of a measure's clause, for the new memory and each candidate)
def _leading_phrase(segment: str, subject: str, whole: bool) -> str:
    """The words of `segment` up to its subject word and the rest of its name: "The team", "Sven" (of "Sven now
    works at Wayne"), "Zhang Wei", "The Payments Platform Team". `whole`: the segment is all subject but for
    adverbs and auxiliaries ("Team chat" of "Team chat no longer runs on Slack", "Mira" of "Mira finally")."""
    if _CJK_TEXT.search(segment):
        return segment.strip().removesuffix("は").removesuffix("が")  # (a Japanese topic's particle is no name)
    split = segment.split()
    if whole:
        content = [k for k, word in enumerate(split) if _content(word)]
        if content:
            return " ".join(split[:content[-1] + 1])
    words: list[str] = []
    for k, word in enumerate(split):
        words.append(word)
        if subject in tokens(word):
            # the rest of a name of several capitalised words ("Zhang Wei", not "Sven Now")
            while word[:1].isupper() and k + 1 < len(split) and split[k + 1][:1].isupper() and _content(split[k + 1]):
                k += 1
                word = split[k]
                words.append(word)
            break
    return " ".join(words)


def _subject_of(prefix: str, whole: bool = False) -> tuple[tuple[str, ...], str, str]:
    """Who or what a cue is about, from its clause's words before it: the first content word of each comma
    segment ("Mira, our designer," → mira, design) with their words as written, or else a first-person pronoun."""
    subjects: list[str] = []
    named: list[str] = []
    segments = _SEGMENT.split(prefix)
    for i, segment in enumerate(segments):
        first = segment.split()[:1]
        if i < len(segments) - 1 and first and first[0].lower() in _INTRO:
            continue  # "After months of planning, Mira …": an adverbial, not who moved
        words = _content(segment)
        if words:
            subjects.append(words[0])
            named.append(_leading_phrase(segment, words[0], whole and i == len(segments) - 1))
        elif not subjects and first and first[0].lower() in _FIRST_PERSON:
            return (), first[0], _FIRST_PERSON[first[0].lower()]
    return tuple(dict.fromkeys(subjects)), ", ".join(named), ""


def _besides_new_value(clause: str) -> frozenset[str] | None:
    """The content words of `clause` ("Mira lives in Porto now") other than its last value ("Porto", a name of
    several capitalised words whole), or None when the clause negates (no value of its own to put in place)."""
    if negation_cues(clause):
        return None
    words = clause.split()
    while words and not _content(words[-1]):
        words.pop()  # "now", "then", "in", "the": no value
    if not words:
        return None
    value = [words.pop()]
    while value[0][:1].isupper() and words and words[-1][:1].isupper() and len(words) > 1:
        value.insert(0, words.pop())  # "Globex Corp" (not the clause's first word: "Mira", its subject)
    return frozenset(_content(" ".join(words))) - frozenset(_content(" ".join(value)))


_REPLACED = frozenset(("replaced by", "replaces"))


def _replaced_context(text: str, m: re.Match[str], prefix: str) -> frozenset[str]:
    """What the comma segment of a replacement says besides the two values and its verb ("for team chat" of
    "Zulip replaced Slack for team chat"): the memory stating the replaced value must say it too. `prefix`: the
    words before the replaced value, when they name it ("The nightly cron job was replaced by …")."""
    if _CJK_TEXT.search(text):
        return frozenset()
    after = _SEGMENT.split(text[m.end():])[0]
    before = _SEGMENT.split(prefix)[-1]
    # (not when: "… superseded by Notion in March")
    return frozenset(t for t in _content(f"{before} {after}")
                     if t not in MONTHS and t not in _WEEKDAYS and not t[0].isdigit())


@lru_cache(maxsize=64)  # (a candidate's own are read by two rules; the new memory's against each candidate)
def corrections(text: str) -> tuple[Correction, ...]:
    """The correction cues of `text` with the values they retire, in order. Deterministic; regexes only."""
    found: list[Correction] = []
    clause_ends: list[int] | None = None  # where each clause of `text` starts, found once (not once per cue)
    lowered = text.lower() if text.isascii() else None
    for cue, pattern in _CUES:
        if lowered is not None and not any(word in lowered for word in _CUE_NEEDS.get(cue, ())):
            continue
        for m in pattern.finditer(text):
            if clause_ends is None:
                clause_ends = [s.end() for s in _CLAUSE_START.finditer(text)]
            old = m.group("old").strip()
            old_tokens = frozenset(_content(old))
            if not old_tokens:
                continue
            before = bisect_right(clause_ends, m.start())
            clause_start = clause_ends[before - 1] if before else 0
            prefix = text[clause_start:m.start()]
            context: frozenset[str] = frozenset()
            if cue == "…, not":
                besides = _besides_new_value(prefix)
                if besides is None or old_tokens & besides:
                    continue  # "Mira is not in Porto, not Lisbon"; "Mira met Ana, not Ana's sister": no new value
                context = besides
            subjects, subject_text, pronoun = _subject_of(prefix, cue in _SUBJECT_FIRST)
            if cue in _REPLACED or (cue == "被…取代" and not subjects and not pronoun):
                # the replaced thing is the subject: what else its clause says must be said of it too
                subjects, subject_text, pronoun = (), "", ""
                context = _replaced_context(text, m, prefix if cue == "replaced by" else "")
            obj = m.groupdict().get("obj") or ""
            if obj.split()[:1] and obj.split()[0].lower() in _NOT_AN_OBJECT:
                obj = ""  # "switched to Zulip from Slack" names the new value there, not what changed
            found.append(Correction(cue, m.group(0).strip(), old, old_tokens, subjects,
                                    (subject_text if subjects else obj.strip()) or subject_text or prefix.strip(" ,，"),
                                    pronoun,
                                    frozenset(_content(obj)), context))
    return tuple(found)


def correction_terms(text: str) -> list[str]:
    """The words to look the corrected memories up by (subjects, objects, replaced values): a long correction's
    rarest words may leave out the very value it retires."""
    terms: dict[str, None] = {}
    for c in corrections(text):
        terms.update(dict.fromkeys([*c.subjects, *sorted(c.object_tokens), *sorted(c.old_tokens)]))
    return list(terms)


def _is_event_word(words: list[str], k: int, value_words: set[str]) -> bool:
    """Whether `words[k]` makes what follows an event of the past or an attitude, not a current state."""
    w = words[k]
    prev = words[k - 1] if k else ""
    nxt = words[k + 1] if k + 1 < len(words) else ""
    if w in _ATTITUDE:
        return True
    if w in _PAST_AUX:  # "was born", "had lived"; but "was moved to Monday" puts it there
        return nxt not in _INTO_STATE and nxt not in _STATE_AUX
    if prev in _STATE_AUX or w in _INTO_STATE:  # "is hosted on", "has lived in", "moved to", "chose"
        return False
    if w in _EVENT_PAST:
        return True
    return (len(w) > 3 and w.endswith("ed") and not w.endswith("eed")
            and (nxt in _VERB_FOLLOWER or nxt in value_words))


def _as_current_value(c: Correction, content: str) -> bool:
    """Whether some mention in `content` of the value `c` retires states it as current: the words of its clause
    before it (since the end of any earlier mention) hold no past event or attitude the correction does not say too.
    A mention is a run of the value's words with no other content word between them ("used Jenkins")."""
    if _CJK_TEXT.search(content):
        return True  # no tense to read: the subject and the value decide, as before
    said = {w.lower() for w in _RAW_WORD.findall(c.span)}
    matches = list(_RAW_WORD.finditer(content))
    words = [m.group().lower() for m in matches]
    value_words = {w for w in words if set(tokens(w)) & c.old_tokens}
    # each word's clause, found once: per mention, a scan from the text's start made a long memory that names the
    # value often cost seconds of every `remember` it was a candidate of
    clause_of: list[int] = []  # index of the first word of each word's clause
    ends = iter(s.end() for s in _CLAUSE_START.finditer(content) if s.end() > 0)
    boundary = next(ends, None)
    clause_first = 0
    for j, x in enumerate(matches):
        while boundary is not None and boundary <= x.start():
            clause_first = j
            boundary = next(ends, None)
        clause_of.append(clause_first)
    lead_start = 0
    mentioned = False
    k = 0
    while k < len(words):
        if words[k] not in value_words:
            k += 1
            continue
        mentioned = True
        first = max(lead_start, clause_of[k])
        if not any(words[j] not in said and _is_event_word(words, j, value_words) for j in range(first, k + 1)):
            return True
        end = k + 1  # past this mention: its value words and the stopwords between them
        while end < len(words) and (words[end] in value_words or not tokens(words[end])):
            end += 1
        lead_start = k = end
    return not mentioned


def _denies_value(c: Correction, content: str) -> bool:
    """Whether each clause of `content` naming the value `c` retires says "not" before it ("Deploys are not allowed
    on Fridays", 我们不用 Slack): such a memory says what the correction says, not the value it retires."""
    mentions = 0
    for clause in _NEGATION_CLAUSE.split(content):
        said = normalize(clause or "")
        at = min((i for i in (said.find(t) for t in c.old_tokens) if i >= 0), default=-1)
        if at < 0:
            continue
        mentions += 1
        if "not" not in negation_cues(said[:at]):
            return False
    return mentions > 0


def _names_retired_value(c: Correction, content: str, content_tokens: frozenset[str]) -> bool:
    missing = c.old_tokens - content_tokens
    # a lone CJK character of the value beside a space ("不再用 Redis": 用) is a token of its own, while the memory
    # stating the value holds it inside a longer run ("我们用 Redis": 们用): it is there when its text is
    return not missing or all(_CJK_TEXT.fullmatch(t) and t in normalize(content) for t in missing)


def _states_retired_value(c: Correction, content: str, content_tokens: frozenset[str]) -> bool:
    if not _names_retired_value(c, content, content_tokens):
        return False
    if _denies_value(c, content):
        return False
    if not _as_current_value(c, content):
        return False
    if c.object_tokens and not c.object_tokens <= content_tokens:
        return False
    if not c.context_tokens <= content_tokens:
        return False
    if c.subjects:
        lead = set(tokens(content)[:SUBJECT_WINDOW])
        names = {t for word in _CAPITALISED.findall(content) for t in tokens(word)}
        return any(s in lead or s in names for s in c.subjects)
    if c.object_tokens or c.cue in _REPLACED or c.cue == "被…取代":
        # "We switched our chat from Slack": the object is the subject that matters; "Slack was replaced by Zulip":
        # the replaced thing is
        return True
    if not c.pronoun:
        return False
    return _SUBJECTLESS.match(content) is not None or any(_FIRST_PERSON.get(w.strip(".,;:!?").lower()) == c.pronoun
                                                          for w in content.split()[:SUBJECT_WINDOW])


def _retiring(found: Sequence[Correction], content: str,
              content_tokens: frozenset[str] | None = None) -> Correction | None:
    """The correction of `found` that retires what `content` (its tokens `content_tokens`, when known) states."""
    if content_tokens is None:
        content_tokens = token_set(content)
    own: list[frozenset[str]] | None = None
    for c in found:
        if not _names_retired_value(c, content, content_tokens):
            continue  # (most of recall's pairs: the memory's own cues are not read for them)
        if own is None:
            own = [c.old_tokens for c in corrections(content)]
        # a memory that itself retires the value (the same correction, told again) is no conflict
        if any(c.old_tokens <= o for o in own):
            continue
        if _states_retired_value(c, content, content_tokens):
            return c
    return None


def correction_reason(found: Sequence[Correction], content: str, content_tokens: frozenset[str] | None = None) -> str:
    """Why `content` is what a correction in the new memory retires, or "" when it is not."""
    c = _retiring(found, content, content_tokens)
    return "" if c is None else (f'correction "{c.span}" (cue "{c.cue}") retires "{c.old}", which this memory states '
                                 f'{_about(c)}')


def _about(c: Correction) -> str:
    return f'about "{c.subject_text}"' if c.subject_text else "as current"  # ("Slack was replaced by Zulip")


def _retired_by_stored(new_text: str, content: str) -> str:
    """Why the new memory states what a correction in the stored `content` retires ("Mira lives in Lisbon" said
    after "Mira moved from Lisbon to Porto"), or ""."""
    c = _retiring(corrections(content), new_text) if MAY_CORRECT.said_in(content) else None
    return "" if c is None else (f'this memory\'s correction "{c.span}" (cue "{c.cue}") retires "{c.old}", which '
                                 f'the new memory states {_about(c)}')


def _similarity_beside_negation(new_tokens: frozenset[str], new_text: str, old_text: str) -> float:
    """The overlap of two texts whose negations differ, leaving out the negation words: "We never deploy on Fridays"
    says of "We deploy on Fridays" everything but the "never", which alone pulled their overlap under the conflict
    threshold (2/3); the same for opposite words ("allowed" / "forbidden"). 0 when neither flips the other."""
    new_cues, old_cues = negation_cues(new_text), negation_cues(old_text)
    if not flips(new_text, old_text):
        return 0.0
    if new_cues == old_cues:  # opposite words, not a negation: "Guests are allowed" / "Guests are forbidden"
        opposed = opposites(new_text, old_text)
        return jaccard(token_set(without_opposites(new_text, opposed)), token_set(without_opposites(old_text, opposed)))
    # a clause saying the negation may deny the other text whole: "The API doesn't use JWT tokens, it uses session
    # cookies" says of "The API uses JWT tokens" what its first clause says
    extra = (new_cues - old_cues, old_cues - new_cues)
    pairs = [(new_text, old_text)] + [(c, old_text) for c in _NEGATION_CLAUSE.split(new_text)
                                      if c and negation_cues(c) & extra[0]] + [
        (new_text, c) for c in _NEGATION_CLAUSE.split(old_text) if c and negation_cues(c) & extra[1]]
    if _CJK_TEXT.search(new_text) or _CJK_TEXT.search(old_text):
        # CJK text is tokenised as character pairs: 不 sits inside 伟不 and 不是, so only the text without it compares
        # (and without the 有 of 没有 and a closing 了: "测试没有通过" / "测试通过了")
        return max(jaccard(token_set(_NEGATION.sub("", variant(a))), token_set(_NEGATION.sub("", variant(b))))
                   for a, b in pairs for variant in (str, _without_zh_particles, _without_ja_endings))
    # the words as written: "never" is read as not, which keyword tokens drop, but "never" is a token
    said = {t for text in (new_text, old_text) for m in _NEGATION.finditer(text) for t in tokens(m.group(0))}
    said |= STATEMENT_TIME  # ("the cache is warm now" / "the cache is not warm": "now" is when, not what)
    return max(jaccard(token_set(a) - said, token_set(b) - said) for a, b in pairs)


def _without_zh_particles(text: str) -> str:
    return re.sub(r"没有|了(?=\s*(?:$|[，。；！？,.;!?]))", "", text)


# a Japanese verb's closing ending, polite or plain, said or denied ("あります" / "ありません", "通りました" /
# "通りませんでした", "使っている" / "使っていない"), and the もう of "no longer": the rest is what both say
_JA_ENDING = re.compile(r"もう|(?:ませんでした|ました|ません|ます|でした|です|なかった|ない|(?<=い)る)"
                        r"(?=\s*(?:$|[、。，！？,.;!?]))")


def _without_ja_endings(text: str) -> str:
    return _JA_ENDING.sub("", text)


# Stopwords that carry the fact when they are all two texts differ in: "Server is up" / "Server is down", "He lives
# in Lisbon" / "She lives in Lisbon", "All tests pass" / "Some tests pass", "Mira was the lead" / "Mira is the lead".
# Keyword tokens drop them, so such pairs looked like the same text said twice.
_POLAR = frozenset("""
    up down on off in out into onto above below over under before after from to against
    all any some few more most less least only each both same other
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers
    herself they them their theirs themselves
    was were had did
""".split())
SHARED_WORDS = 0.5  # the overlap from which two texts are one text with words changed, not two phrasings


def polar_words(text: str) -> frozenset[str]:
    """The `_POLAR` words of `text`, a contraction read as its first word ("wasn't" → was, "we're" → we)."""
    out: set[str] = set()
    for word in _RAW_WORD.findall(normalize(text).replace("’", "'")):
        base, apostrophe, rest = word.partition("'")
        if apostrophe and rest == "t" and base.endswith("n"):
            base = base[:-1]
        if base in _POLAR:
            out.add(base)
    return frozenset(out)


def _word_difference(new_text: str, old_text: str) -> str:
    """Why two texts with most words in common may not be the same fact: each says a content word the other does
    not ("Deploy freeze ends on Friday" / "… starts on Friday"), or "" when one only adds words to the other."""
    new_t, old_t = token_set(new_text), token_set(old_text)
    said, unsaid = new_t - old_t, old_t - new_t
    if not said or not unsaid:
        return ""

    def written(text: str, which: frozenset[str]) -> str:
        return " ".join(w for w in dict.fromkeys(_SWAP_WORD.findall(text)) if set(tokens(w)) & which)

    # (a vector may call a changed word and a synonym alike: "ends" for "starts" and "resides" for "lives")
    return (f'nearly the same words, but the new memory says "{written(new_text, said)}" where this one says '
            f'"{written(old_text, unsaid)}": the same fact only if those mean the same')


def _polar_difference(new_text: str, old_text: str) -> str:
    """Why two texts with (nearly) the same words are not the same fact, or "" when their polar words agree."""
    new_p, old_p = polar_words(new_text), polar_words(old_text)
    if new_p == old_p:
        return ""
    said, unsaid = sorted(new_p - old_p), sorted(old_p - new_p)
    parts = ([f'the new memory says "{" ".join(said)}"'] if said else []) + (
        [f'this one says "{" ".join(unsaid)}"'] if unsaid else [])
    return "nearly the same words, but " + " and ".join(parts) + ": not the same fact said again"


def _negation_difference(new_text: str, old_text: str) -> str:
    """Why two texts with (nearly) the same words contradict: the negation only one of them says, as written."""
    new_cues, old_cues = negation_cues(new_text), negation_cues(old_text)
    said = " ".join(dict.fromkeys(m.group(0) for m in _NEGATION.finditer(new_text)
                                  if _negation(m.group(0)) not in old_cues))
    unsaid = " ".join(dict.fromkeys(m.group(0) for m in _NEGATION.finditer(old_text)
                                    if _negation(m.group(0)) not in new_cues))
    if said and unsaid:
        return f'the new memory says "{said}" and this one "{unsaid}": they negate differently'
    if said or unsaid:
        return (f'the new memory says "{said}" and this one does not' if said else
                f'this one says "{unsaid}" and the new memory does not') + ": one negates the other"
    return ""


_SWAP_WORD = re.compile(r"\w+(?:['’]\w+)*")
_JOINING = frozenset(("and", "or", "nor", "vs", "versus", "plus", "&"))
SWAP_SPAN = 24  # the most words from the first swapped word to the last


def _swap_difference(new_text: str, old_text: str) -> str:
    """Why two texts of the same words are not the same fact: two runs of words in each other's place ("Bob
    reports to Alice" / "Alice reports to Bob"), unless only "and"/"or" stands between them ("Alice and Bob")."""
    new_said, old_said = _SWAP_WORD.findall(new_text), _SWAP_WORD.findall(old_text)
    new_w, old_w = [w.lower() for w in new_said], [w.lower() for w in old_said]
    if len(new_w) != len(old_w) or new_w == old_w:
        return ""
    differ = [k for k in range(len(new_w)) if new_w[k] != old_w[k]]
    p, q = differ[0], differ[-1] + 1
    if q - p > SWAP_SPAN:
        return ""  # (two long passages moved: no roles swapped, and a quadratic search of long memories)
    for x in range(1, q - p):
        for y in range(1, q - p - x + 1):
            first, middle, last = new_w[p:p + x], new_w[p + x:q - y], new_w[q - y:q]
            if old_w[p:q] == last + middle + first and first != last and not set(middle) <= _JOINING:
                return (f'the same words with "{" ".join(new_said[p:p + x])}" and "{" ".join(new_said[q - y:q])}" '
                        "in each other's place: not the same fact said again")
    return ""


def diff_suggestion(
    new_text: str, candidates: list[tuple[str, str, float | None]], created: Mapping[str, str] | None = None
) -> tuple[str, list[DiffMatch]]:
    """`candidates` = (id, content, calibrated cosine or None); `created`: their creation times, when known.
    Returns the overall verdict and the matches.

    Any DUPLICATE wins the verdict — unless a CONFLICT, or an UPDATE stating a difference, is newer than every
    duplicate (the fact said again after a newer memory contradicted or changed it) — then any CONFLICT (a
    correction names its old fact even when a closer memory is only an UPDATE), then any UPDATE (a measure's new
    value may share few words), else ADD."""
    new_tokens = token_set(new_text)
    new_words = tokens(new_text, keep_stopwords=True)
    found = corrections(new_text)
    matches: list[DiffMatch] = []
    for cid, content, cosine in candidates:
        sim = jaccard(new_tokens, token_set(content))
        if cosine is not None and cosine >= COSINE_OVERRIDE and cosine > sim:
            sim = cosine
        if new_words and tokens(content, keep_stopwords=True) == new_words:
            # the same words in the same order state the same thing, cue or not: never a conflict with itself
            matches.append(DiffMatch(cid, round(sim, 4), "DUPLICATE"))
            continue
        rewritten = _measure_restated(new_text, content)
        if rewritten and not flips(new_text, content) and polar_words(new_text) == polar_words(content):
            # the same value written another way ("30s" / "30 seconds"): too few words alike to be called one
            matches.append(DiffMatch(cid, round(sim, 4), "DUPLICATE", rewritten))
            continue
        beside = _similarity_beside_negation(new_tokens, new_text, content)
        if beside >= CONFLICT_SIMILARITY:  # (only the conflict threshold: the rest of the words decide the others)
            sim = max(sim, beside)
        suggestion = classify(sim, new_text, content)
        # even when near-identical: "We replaced Memcached with Redis" reverses "We replaced Redis with Memcached"
        reason = (correction_reason(found, content) or _retired_by_stored(new_text, content)
                  or handover(new_text, content) or handover(content, new_text, stored=True))
        if reason:
            suggestion = "CONFLICT"
        elif suggestion != "CONFLICT" and (reason := superseding_update(new_text, content)):
            suggestion = "UPDATE"  # (a new value said as a change: "is now 250", "was upgraded to Kubernetes 1.29")
        elif suggestion == "CONFLICT":  # (only a negation one side says, or an opposite word, makes one here)
            opposed = opposites(new_text, content)
            reason = opposite_reason(opposed) if opposed else _negation_difference(new_text, content)
        elif suggestion == "DUPLICATE":
            # a changed value ("100" → "500") is nearly the same vector and nearly the same words: a new fact
            reason = _number_difference(new_text, content) or _swap_difference(new_text, content)
            if not reason and jaccard(new_tokens, token_set(content)) >= SHARED_WORDS:
                # (two phrasings a high cosine calls the same differ in their small words anyway: only the same
                # words with a small word changed are read for it)
                reason = _polar_difference(new_text, content) or _word_difference(new_text, content)
            if reason:
                suggestion = "UPDATE"
        elif flips(new_text, content) and (reason := state_change(new_text, content)):
            suggestion = "CONFLICT"  # (the opposite state of the same subject, however the rest is worded)
        else:  # (an ADD or UPDATE: a new value of one measure is an UPDATE, however few words it shares)
            reason = (_measure_difference(new_text, content) or changed_part(new_text, content)
                      or changed_fact(new_text, content))  # (a count, or a home, of the same subject)
            if not reason and suggestion == "UPDATE" and jaccard(new_tokens, token_set(content)) >= SHARED_WORDS:
                # an UPDATE by overlap names its changed words, as a DUPLICATE turned UPDATE does: "Bob owns the
                # billing service" / "Alice owns …", "Postgres 16" / "Postgres 15" gave the agent no reason at all
                # (not of CJK text: a run of characters is one "word", and the reason quoted both memories whole)
                cjk = _CJK_TEXT.search(new_text) or _CJK_TEXT.search(content)
                reason = _number_difference(new_text, content) or ("" if cjk else _word_difference(new_text, content))
            if reason:
                suggestion = "UPDATE"
        matches.append(DiffMatch(cid, round(sim, 4), suggestion, reason))
    matches.sort(key=lambda m: (-m.similarity, m.id))
    if not matches:
        return "ADD", []
    verdict, restated = _newer_difference(matches, created or {})
    if verdict:
        return verdict, restated
    for verdict in ("DUPLICATE", "CONFLICT", "UPDATE"):  # (an UPDATE below 0.5 is a measure's new value)
        if any(m.suggestion == verdict for m in matches):
            return verdict, matches
    return matches[0].suggestion, matches


def _newer_difference(matches: list[DiffMatch], created: Mapping[str, str]) -> tuple[str, list[DiffMatch]]:
    """The verdict of a fact said again after a newer memory contradicted or changed it, with its duplicates'
    reasons naming that memory, or ("", []) when no such memory is newer than every duplicate: "Zhang Wei owns the
    payment service." after "Zhang Wei no longer owns …" is a CONFLICT; "… p99 is 420 ms." after "… is 180 ms" an
    UPDATE (a newer memory differing by overlap alone, with no stated difference, leaves the duplicate)."""
    duplicates = [created.get(m.id, "") for m in matches if m.suggestion == "DUPLICATE"]
    if not duplicates or not all(duplicates):
        return "", []
    for verdict, says in (("CONFLICT", "contradicts it"), ("UPDATE", "states another value")):
        newer = [m.id for m in matches if m.suggestion == verdict and m.reason
                 and created.get(m.id, "") > max(duplicates)]
        if newer:
            why = f"the same fact, but the newer {', '.join(newer)} {says}"
            return verdict, [replace(m, reason=why) if m.suggestion == "DUPLICATE" else m for m in matches]
    return "", []
