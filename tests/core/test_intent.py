"""Intent detection: what a user notices is which recall strategy their question gets.

Queries are written the way people ask them; each language has at least three questions per intent the reference
table gives a form for, plus the look-alike words that must *not* fire.
"""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.core.intent import Intent, IntentDecision, detect_intent

WHY, WHEN, ENTITY, GENERAL = Intent.WHY, Intent.WHEN, Intent.ENTITY, Intent.GENERAL

# (language, query, expected intent, the cue that must be reported)
ADDITIONAL_LANGUAGE_QUESTIONS: list[tuple[str, str, Intent, str]] = [
    # Hindi
    ("hi", "हमने Redis क्यों चुना?", WHY, "hi:क्यों"),
    ("hi", "बिल्ड फेल क्यों हुआ?", WHY, "hi:क्यों"),
    ("hi", "तुम क्यूँ देर से आए?", WHY, "hi:क्यूँ"),
    ("hi", "यह बदलाव किसलिए किया गया?", WHY, "hi:किसलिए"),
    ("hi", "हमने डेटाबेस कब बदला?", WHEN, "hi:कब"),
    ("hi", "अगली रिलीज़ कब होगी?", WHEN, "hi:कब"),
    ("hi", "वह किस समय आया?", WHEN, "hi:किस समय"),
    ("hi", "Qdrant क्या है?", ENTITY, "hi:क्या है"),
    ("hi", "वेक्टर डेटाबेस क्या हैं?", ENTITY, "hi:क्या है"),
    ("hi", "इस प्रोजेक्ट का लीडर कौन है?", ENTITY, "hi:कौन है"),
    # Spanish
    ("es", "¿Por qué elegimos Postgres?", WHY, "es:por qué"),
    ("es", "¿Por qué razón falló el despliegue?", WHY, "es:por qué"),
    ("es", "¿Para qué sirve este índice?", WHY, "es:para qué"),
    ("es", "¿Cuándo migramos la base de datos?", WHEN, "es:cuándo"),
    ("es", "¿Desde cuándo usamos Redis?", WHEN, "es:cuándo"),
    ("es", "¿A qué hora empieza la reunión?", WHEN, "es:a qué hora"),
    ("es", "¿Qué es Qdrant?", ENTITY, "es:qué es"),
    ("es", "¿Qué son los embeddings?", ENTITY, "es:qué es"),
    ("es", "¿Quién es Ana García?", ENTITY, "es:quién es"),
    # Arabic
    ("ar", "لماذا اخترنا Redis؟", WHY, "ar:لماذا"),
    ("ar", "ولماذا تأخر الإصدار؟", WHY, "ar:لماذا"),
    ("ar", "لماذا فشل النشر أمس؟", WHY, "ar:لماذا"),
    ("ar", "متى انتقلنا إلى Postgres؟", WHEN, "ar:متى"),
    ("ar", "ومتى صدر الإصدار الأول؟", WHEN, "ar:متى"),
    ("ar", "متي يبدأ الاجتماع؟", WHEN, "ar:متى"),
    ("ar", "ما هو Qdrant؟", ENTITY, "ar:ما هو"),
    ("ar", "ما هي قاعدة البيانات المتجهة؟", ENTITY, "ar:ما هو"),
    ("ar", "من هو مدير المشروع؟", ENTITY, "ar:من هو"),
    # French
    ("fr", "Pourquoi avons-nous choisi Redis ?", WHY, "fr:pourquoi"),
    ("fr", "Pour quelle raison le déploiement a échoué ?", WHY, "fr:pour quelle raison"),
    ("fr", "POURQUOI le serveur plante", WHY, "fr:pourquoi"),
    ("fr", "Quand avons-nous migré la base ?", WHEN, "fr:quand"),
    ("fr", "Depuis quand utilise-t-on Postgres ?", WHEN, "fr:quand"),
    ("fr", "À quelle heure commence la réunion ?", WHEN, "fr:à quelle heure"),
    ("fr", "Qu'est-ce que Qdrant ?", ENTITY, "fr:qu'est-ce que"),
    ("fr", "Qu’est-ce qu’un embedding ?", ENTITY, "fr:qu'est-ce que"),
    ("fr", "Qu'est ce que le RRF ?", ENTITY, "fr:qu'est-ce que"),
    ("fr", "C'est quoi RRF ?", ENTITY, "fr:c'est quoi"),
    # Bengali
    ("bn", "আমরা কেন Redis বেছে নিলাম?", WHY, "bn:কেন"),
    ("bn", "বিল্ড কেন ব্যর্থ হল?", WHY, "bn:কেন"),
    ("bn", "তুমি কেনো দেরি করলে?", WHY, "bn:কেন"),
    ("bn", "আমরা কখন ডেটাবেস বদলালাম?", WHEN, "bn:কখন"),
    ("bn", "মিটিং কবে?", WHEN, "bn:কবে"),
    ("bn", "রিলিজ কখন হবে?", WHEN, "bn:কখন"),
    ("bn", "Qdrant কী?", ENTITY, "bn:কী"),
    ("bn", "এটা কি?", ENTITY, "bn:কী"),
    ("bn", "প্রকল্পের প্রধান কে?", ENTITY, "bn:কী"),
    ("bn", "RRF কী।", ENTITY, "bn:কী"),
    # Portuguese
    ("pt", "Por que escolhemos o Redis?", WHY, "pt:por que"),
    ("pt", "O deploy falhou por quê?", WHY, "pt:por que"),
    ("pt", "Por qual motivo o servidor caiu?", WHY, "pt:por qual motivo"),
    ("pt", "Quando migramos o banco de dados?", WHEN, "pt:quando"),
    ("pt", "Desde quando usamos Postgres?", WHEN, "pt:quando"),
    ("pt", "A que horas começa a reunião?", WHEN, "pt:a que horas"),
    ("pt", "O que é o Qdrant?", ENTITY, "pt:o que é"),
    ("pt", "O que são embeddings?", ENTITY, "pt:o que é"),
    ("pt", "Quem é a Ana Souza?", ENTITY, "pt:quem é"),
    # Indonesian
    ("id", "Mengapa kita memilih Redis?", WHY, "id:mengapa"),
    ("id", "Kenapa build gagal?", WHY, "id:kenapa"),
    ("id", "Mengapakah server mati?", WHY, "id:mengapa"),
    ("id", "Kapan kita pindah ke Postgres?", WHEN, "id:kapan"),
    ("id", "Kapankah rapat dimulai?", WHEN, "id:kapan"),
    ("id", "Sejak kapan kita memakai Redis?", WHEN, "id:kapan"),
    ("id", "Apa itu Qdrant?", ENTITY, "id:apa itu"),
    ("id", "Siapa itu Budi Santoso?", ENTITY, "id:siapa itu"),
    ("id", "Apa yang dimaksud dengan RRF?", ENTITY, "id:apa yang dimaksud dengan"),
    # Russian
    ("ru", "Почему мы выбрали Redis?", WHY, "ru:почему"),
    ("ru", "Зачем нужен этот индекс?", WHY, "ru:зачем"),
    ("ru", "Отчего упал сервер?", WHY, "ru:отчего"),
    ("ru", "Когда мы перешли на Postgres?", WHEN, "ru:когда"),
    ("ru", "Когда начинается встреча?", WHEN, "ru:когда"),
    ("ru", "КОГДА вышел первый релиз?", WHEN, "ru:когда"),
    ("ru", "Что такое Qdrant?", ENTITY, "ru:что такое"),
    ("ru", "Кто такой Иван Петров?", ENTITY, "ru:кто такой"),
    ("ru", "Кто такая Анна?", ENTITY, "ru:кто такой"),
    # German
    ("de", "Warum haben wir Redis gewählt?", WHY, "de:warum"),
    ("de", "Wieso ist der Build fehlgeschlagen?", WHY, "de:wieso"),
    ("de", "Weshalb wurde die Datenbank gewechselt?", WHY, "de:weshalb"),
    ("de", "Wann haben wir auf Postgres migriert?", WHEN, "de:wann"),
    ("de", "Seit wann nutzen wir Redis?", WHEN, "de:wann"),
    ("de", "Bis wann muss das fertig sein?", WHEN, "de:wann"),
    ("de", "Was ist Qdrant?", ENTITY, "de:was ist"),
    ("de", "Wer ist Anna Schmidt?", ENTITY, "de:wer ist"),
    ("de", "Was sind Embeddings?", ENTITY, "de:was ist"),
]

LEGACY_QUESTIONS: list[tuple[str, Intent, tuple[str, ...]]] = [
    ("Why did we choose Qdrant?", WHY, ("en:why",)),
    ("What was the rationale for the rewrite", WHY, ("en:rationale",)),
    ("The deploy failed because of a missing migration", WHY, ("en:because",)),
    ("When did we migrate to Postgres?", WHEN, ("en:when",)),
    ("timeline of the migration", WHEN, ("en:timeline",)),
    ("What happened during the outage", WHEN, ("en:during",)),
    ("What is Qdrant?", ENTITY, ("en:what is",)),
    ("Tell me about the vector store", ENTITY, ("en:tell me about",)),
    ("Who is Alice?", ENTITY, ("en:who is",)),
    ("为什么选择 Qdrant？", WHY, ("zh:为什么",)),
    ("选择向量库的理由", WHY, ("zh:理由",)),
    ("什么时候迁移的数据库？", WHEN, ("zh:什么时候",)),
    ("上线之前做了什么", WHEN, ("zh:之前",)),
    ("Qdrant 是什么？", ENTITY, ("zh:是什么",)),
    ("谁是项目负责人", ENTITY, ("zh:谁是",)),
    # Traditional Chinese
    ("為什麼選擇 Qdrant？", WHY, ("zh:為什麼",)),
    ("為甚麼要重寫？", WHY, ("zh:為甚麼",)),
    ("什麼時候發布？", WHEN, ("zh:什麼時候",)),
    ("我們何時遷移的？", WHEN, ("zh:何時",)),
    ("Qdrant 是什麼？", ENTITY, ("zh:是什麼",)),
    ("請介紹一下 Qdrant", ENTITY, ("zh:介紹",)),
]


def auto(query: str) -> Intent:
    return detect_intent(query).intent


# ----------------------------------------------------------------------------------------------------------------
# Per-language recognition
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "query", "expected", "cue"), ADDITIONAL_LANGUAGE_QUESTIONS)
def test_additional_language_question_forms(lang: str, query: str, expected: Intent, cue: str) -> None:
    decision = detect_intent(query)
    assert decision == IntentDecision(expected, "auto", (cue,))


def test_every_additional_language_has_three_questions_per_intent() -> None:
    per_language: dict[tuple[str, Intent], int] = {}
    for lang, _, intent, _ in ADDITIONAL_LANGUAGE_QUESTIONS:
        per_language[(lang, intent)] = per_language.get((lang, intent), 0) + 1
    languages = {"hi", "es", "ar", "fr", "bn", "pt", "id", "ru", "de"}
    assert {key for key, count in per_language.items() if count >= 3} == {
        (lang, intent) for lang in languages for intent in (WHY, WHEN, ENTITY)
    }


@pytest.mark.parametrize(("query", "expected", "cues"), LEGACY_QUESTIONS)
def test_legacy_english_and_chinese_questions(query: str, expected: Intent, cues: tuple[str, ...]) -> None:
    assert detect_intent(query) == IntentDecision(expected, "auto", cues)


@pytest.mark.parametrize("query", ["Summarise the Qdrant setup", "Qdrant 向量库配置", "", "   ", "?!"])
def test_queries_without_cues_are_general(query: str) -> None:
    assert detect_intent(query) == IntentDecision(GENERAL, "auto", ())


@pytest.mark.parametrize(
    "query", [q for _, q, _, _ in ADDITIONAL_LANGUAGE_QUESTIONS if q.isascii()] + [q for q, _, _ in LEGACY_QUESTIONS]
)
def test_case_does_not_matter(query: str) -> None:
    expected = detect_intent(query)
    assert detect_intent(query.upper()) == expected
    assert detect_intent(query.title()) == expected


# ----------------------------------------------------------------------------------------------------------------
# Legacy count rule and the ENTITY tie-break
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the reason for the outage?", ENTITY),  # WHY 1, ENTITY 1: the tie-break
        ("Qdrant 是什么原因被选中的", ENTITY),  # 是什么 vs 原因: same tie in Chinese
        ("Why did it fail before the release?", GENERAL),  # WHY 1 = WHEN 1, no ENTITY
        ("Why, and why again, after the deploy?", WHY),  # every occurrence counts: 2 > 1
        ("When and why, and when again?", WHEN),
        ("Tell me about the time when it broke", WHEN),  # "tell me about" is one cue, WHEN has two
        ("Tell me about why it broke", ENTITY),  # 1 vs 1: ENTITY
        ("what is the history and timeline", WHEN),
    ],
)
def test_legacy_count_rule(query: str, expected: Intent) -> None:
    assert auto(query) == expected


def test_a_longer_cue_swallows_the_shorter_one_inside_it() -> None:
    assert detect_intent("tell me about Qdrant").cues == ("en:tell me about",)
    assert detect_intent("The deploy failed because").cues == ("en:because",)  # not also "cause"


@pytest.mark.parametrize(
    ("query", "cue"),
    [("你是什么时候加入的？", "zh:什么时候"), ("你是什麼時候加入的？", "zh:什麼時候"), ("他是甚麼時候走的", "zh:甚麼時候")],
)
def test_overlapping_chinese_cues_resolve_to_the_longest(query: str, cue: str) -> None:
    # 是什么 (ENTITY) overlaps 什么时候 (WHEN). Go counted both and the tie-break turned "when did you join" into
    # ENTITY; the longer cue is the question being asked.
    assert detect_intent(query) == IntentDecision(WHEN, "auto", (cue,))


def test_adjacent_chinese_cues_both_count() -> None:
    # 是什么 and 时间 touch but do not overlap: both count, and the tie goes to ENTITY as in the legacy rule.
    assert detect_intent("这是什么时间的记录") == IntentDecision(ENTITY, "auto", ("zh:是什么", "zh:时间"))


# ----------------------------------------------------------------------------------------------------------------
# Word boundaries
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "query",
    [
        "sometimes the index is slow",  # time inside sometimes
        "whenever I deploy, the cache is cold",  # decided: whenever is a condition, not a question about time
        "please update the readme",  # date inside update
        "the whereabouts of the backup",  # about inside whereabouts
        "call get_time() twice",  # identifiers: underscore is a word character
        "reasons and causes listed",  # plural forms are different words (legacy list is exact)
        "Мы никогда не использовали Redis",  # когда inside никогда (never)
        "Der Wannsee liegt in Berlin",  # wann inside Wannsee
        "Darum haben wir Redis gewählt",  # darum is not warum
        "कबूतर छत पर बैठा है",  # कब inside कबूतर (pigeon): Python's \b would match here
        "क्योंकि बिल्ड फेल हुआ",  # क्यों inside क्योंकि (because)
        "কেননা বিল্ড ব্যর্থ হয়েছে",  # কেন inside কেননা (because)
        "هذا نظام متين",  # متى-like letters inside متين (robust)
        "Kapanlagi is a site name",  # kapan glued to another word
    ],
)
def test_cues_inside_longer_words_do_not_fire(query: str) -> None:
    assert detect_intent(query) == IntentDecision(GENERAL, "auto", ())


def test_timeline_is_its_own_cue_and_real_time_matches_time() -> None:
    assert detect_intent("the timeline").cues == ("en:timeline",)
    assert detect_intent("a real-time view").cues == ("en:time",)  # a hyphen separates words


@pytest.mark.parametrize("word", ["warum", "wann", "pourquoi", "quand", "kapan", "mengapa", "почему", "когда"])
def test_letters_glued_to_a_cue_stop_it(word: str) -> None:
    assert auto(f"{word}?") != GENERAL
    assert auto(f"x{word}?") == GENERAL
    assert auto(f"{word}x?") == GENERAL
    assert auto(f"{word}\u0301?") == GENERAL  # a combining mark belongs to the word


# ----------------------------------------------------------------------------------------------------------------
# Language-specific rules
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("query", ["क्या हमने Redis चुना?", "क्या यह सही है?", "क्या हैरान हो?", "क्या"])
def test_bare_hindi_kya_is_not_entity(query: str) -> None:
    # क्या is also the yes/no particle; "क्या है" only counts as one phrase, and हैरान is a different word.
    assert detect_intent(query) == IntentDecision(GENERAL, "auto", ())


@pytest.mark.parametrize(
    "query", ["তুমি কি জানো?", "কী হয়েছিল গতকাল?", "সে কে আসবে বলেছিল", "কে? আর কেন?"]
)
def test_bengali_ki_ke_count_only_at_the_end(query: str) -> None:
    decision = detect_intent(query)
    assert decision.intent != ENTITY
    assert "bn:কী" not in decision.cues


@pytest.mark.parametrize("ending", ["", "?", " ?", "।", "? ", "??", "  ।\n"])
def test_bengali_end_of_question_allows_final_punctuation(ending: str) -> None:
    assert detect_intent("এটা কী" + ending) == IntentDecision(ENTITY, "auto", ("bn:কী",))


@pytest.mark.parametrize(
    "query",
    [
        "لِمَاذَا فَشِلَ النَّشْرُ؟",  # full harakat
        "لمـــاذا فشل النشر؟",  # tatweel
        "لِمـاذا فشل النشر؟",  # both
    ],
)
def test_arabic_why_with_harakat_and_tatweel(query: str) -> None:
    assert detect_intent(query) == IntentDecision(WHY, "auto", ("ar:لماذا",))


@pytest.mark.parametrize("query", ["مَتَىٰ يبدأ الاجتماع؟", "مَتَى يبدأ الاجتماع؟", "مـتـى يبدأ الاجتماع؟"])
def test_arabic_when_with_superscript_alif_and_tatweel(query: str) -> None:
    # مَتَىٰ carries a superscript (dagger) alif over the alif maqsura in classical spelling
    assert detect_intent(query) == IntentDecision(WHEN, "auto", ("ar:متى",))


def test_arabic_what_is_with_harakat_and_without_space() -> None:
    assert detect_intent("مَا هُوَ Qdrant؟").intent == ENTITY
    assert detect_intent("ماهو Qdrant؟").intent == ENTITY


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("¿Por qué elegimos Postgres?", WHY),
        ("¿Cuándo migramos?", WHEN),
        ("¿Qué es Qdrant?", ENTITY),
        ("O que é o Qdrant?", ENTITY),
        ("O deploy falhou por quê?", WHY),
        ("Quem é a Ana?", ENTITY),
    ],
)
def test_decomposed_accents_match_like_composed(query: str, expected: Intent) -> None:
    decomposed = unicodedata.normalize("NFD", query)
    assert decomposed != query
    assert detect_intent(decomposed) == detect_intent(query)
    assert detect_intent(decomposed).intent == expected


@pytest.mark.parametrize(
    "query",
    [
        "porque falló el despliegue",  # because, not why
        "cuando llueve, salimos tarde",  # conjunction without accent
        "creo que es importante",  # "que es" without accent is a relative clause
        "porque o deploy falhou",  # Portuguese because
    ],
)
def test_accents_are_not_stripped(query: str) -> None:
    assert detect_intent(query) == IntentDecision(GENERAL, "auto", ())


@pytest.mark.parametrize("apostrophe", ["'", "’", "ʼ"])
def test_french_quest_ce_que_with_any_apostrophe(apostrophe: str) -> None:
    for query in (f"Qu{apostrophe}est-ce que Qdrant ?", f"qu{apostrophe}est-ce qu{apostrophe}un index ?"):
        assert detect_intent(query) == IntentDecision(ENTITY, "auto", ("fr:qu'est-ce que",))


def test_spanish_por_que_es_reads_as_why_not_entity() -> None:
    # "por qué" is read first and takes "qué": the question is why something is so.
    assert detect_intent("¿Por qué es lento el índice?") == IntentDecision(WHY, "auto", ("es:por qué",))


# ----------------------------------------------------------------------------------------------------------------
# Conflicts between languages
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "query",
    [
        "Warum und wann?",  # two additional-language cues disagree
        "Pourquoi, et quand ?",
        "Why did we wait, wann?",  # additional-language cue disagrees with an English one
        "why why why — wann?",  # regardless of counts
        "What is the reason — warum?",  # warum agrees with "reason" but not with "what is"
        "为什么 kapan",
        "Qdrant 是什么 — почему?",
    ],
)
def test_disagreeing_cues_with_an_additional_language_fall_back_to_general(query: str) -> None:
    decision = detect_intent(query)
    assert decision.intent == GENERAL
    assert len(decision.cues) >= 2  # the cues are still reported, for transparency


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Why? Warum? Pourquoi? 为什么?", WHY),
        ("Когда? Wann? When?", WHEN),
        ("Was ist Qdrant, what is it?", ENTITY),
        ("Kapan dan kapan lagi?", WHEN),
    ],
)
def test_same_intent_cues_from_different_languages_agree(query: str, expected: Intent) -> None:
    assert auto(query) == expected


def test_cues_are_reported_in_query_order() -> None:
    decision = detect_intent("Warum? Why? 为什么? Pourquoi?")
    assert decision.cues == ("de:warum", "en:why", "zh:为什么", "fr:pourquoi")


# ----------------------------------------------------------------------------------------------------------------
# Quoted and code spans
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("query", "expected", "cues"),
    [
        ('What is "warum"?', ENTITY, ("en:what is",)),  # quoted German is a mention, not a question
        ("Wann wird `warum()` aufgerufen?", WHEN, ("de:wann",)),
        ("```\nwarum = 1\n```\nWann wurde das geändert?", WHEN, ("de:wann",)),
        ("Quand utiliser « pourquoi » ?", WHEN, ("fr:quand",)),
        ("Что значит “когда”", GENERAL, ()),
        ("「kapan」", GENERAL, ()),
    ],
)
def test_quoted_and_code_spans_hide_additional_language_cues(
    query: str, expected: Intent, cues: tuple[str, ...]
) -> None:
    assert detect_intent(query) == IntentDecision(expected, "auto", cues)


def test_quotes_do_not_hide_english_or_chinese_cues() -> None:
    # The span rule is for additional-language cues only; legacy cues keep their original behaviour.
    assert detect_intent('Was bedeutet "why"?') == IntentDecision(WHY, "auto", ("en:why",))
    assert detect_intent("Wann wird `why()` aufgerufen?").intent == GENERAL  # en:why vs de:wann


def test_an_unpaired_quote_hides_nothing() -> None:
    assert detect_intent('Warum "wann?').intent == GENERAL


@pytest.mark.parametrize(("lang", "query", "expected", "cue"), ADDITIONAL_LANGUAGE_QUESTIONS)
def test_a_whole_quoted_question_is_only_a_mention(lang: str, query: str, expected: Intent, cue: str) -> None:
    assert detect_intent(f'"{query}"').intent == GENERAL
    assert detect_intent(f"`{query}`").intent == GENERAL


# ----------------------------------------------------------------------------------------------------------------
# Override
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("override", "expected"),
    [("WHY", WHY), ("when", WHEN), ("Entity", ENTITY), ("general", GENERAL), (" why ", WHY), (Intent.WHEN, WHEN)],
)
def test_override_wins_in_any_language(override: str, expected: Intent) -> None:
    for query in ("Was ist Qdrant?", "क्यों?", "no cue at all"):
        assert detect_intent(query, override) == IntentDecision(expected, "override", ())


@pytest.mark.parametrize("override", ["", "HOW", "why?", "WHY,WHEN", "w", "général", "entıty"])
def test_invalid_override_is_refused_with_the_valid_values(override: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        detect_intent("why", override)
    assert raised.value.code == "invalid_input"
    for valid in ("WHY", "WHEN", "ENTITY", "GENERAL"):
        assert valid in raised.value.message


def test_non_text_input_is_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        detect_intent("why", 3)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        detect_intent(None)  # type: ignore[arg-type]


def test_intent_serialises_as_its_bare_value() -> None:
    assert str(Intent.ENTITY) == "ENTITY"
    assert f"{Intent.WHY}" == "WHY"


# ----------------------------------------------------------------------------------------------------------------
# Properties
# ----------------------------------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gets_a_decision(query: str) -> None:
    decision = detect_intent(query)
    assert decision.source == "auto"
    assert isinstance(decision.intent, Intent)
    assert all(":" in cue for cue in decision.cues)
    if decision.intent is not GENERAL:
        assert decision.cues


_CUE_HEAVY_ALPHABET = st.sampled_from(
    ["why ", "when ", "what is ", "warum ", "wann ", "¿por qué ", "cuándo ", "qu'est-ce que ", "क्यों ", "कब ",
     "क्या है ", "কী", "কে ", "?", "।", "لماذا ", "مَتَىٰ ", "为什么", "是什么时候", '"', "`", "«", "»", "x", " ",
     "e\u0301", "ё", "\u200d", "_", "-"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_CUE_HEAVY_ALPHABET, max_size=25).map("".join))
def test_cue_heavy_text_gets_a_decision_and_is_normalisation_invariant(query: str) -> None:
    decision = detect_intent(query)
    assert decision == detect_intent(unicodedata.normalize("NFD", query))
    assert decision == detect_intent(unicodedata.normalize("NFC", query))
    if decision.intent is not GENERAL:
        assert decision.cues


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_canonically_equivalent_text_gets_the_same_decision(query: str) -> None:
    assert detect_intent(unicodedata.normalize("NFD", query)) == detect_intent(unicodedata.normalize("NFC", query))


def test_every_cue_in_the_tables_fires_on_its_canonical_spelling() -> None:
    # A cue whose declared first word does not match its pattern would be silently unreachable.
    from mnemon.core import intent as module

    for cue in module._ENGLISH + module._ADDITIONAL:
        decision = detect_intent(f"{cue.label} ?")
        assert decision.cues == (f"{cue.lang}:{cue.label}",), cue
        assert decision.intent == cue.intent, cue
    for chinese, intent in module._CHINESE:
        assert detect_intent(chinese) == IntentDecision(intent, "auto", (f"zh:{chinese}",))
