"""A fact negated in another language than English or Chinese is a CONFLICT, as "We do not deploy on Fridays" is of
"We deploy on Fridays": "Wir deployen nicht am Freitag" after "Wir deployen am Freitag" was an UPDATE, which an agent
reads as the same fact reworded. The languages are those recall reads questions in (German, French, Spanish,
Portuguese, Russian, Indonesian, Hindi, Bengali, Arabic), with Dutch, Italian, Japanese and Korean."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion, negation_cues

NEGATED = [
    ("Wir deployen am Freitag", "Wir deployen nicht am Freitag"),
    ("Wir haben ein Backup der Datenbank", "Wir haben kein Backup der Datenbank"),
    ("Nous déployons le vendredi", "Nous ne déployons pas le vendredi"),
    ("Le cache est activé en production", "Le cache n'est pas activé en production"),
    ("Nous utilisons Redis pour les sessions", "Nous ne utilisons plus Redis pour les sessions"),
    ("Desplegamos los viernes", "Nunca desplegamos los viernes"),
    ("Nós fazemos deploy na sexta", "Nós não fazemos deploy na sexta"),
    ("Мы деплоим по пятницам", "Мы не деплоим по пятницам"),
    ("Kami deploy pada hari Jumat", "Kami tidak deploy pada hari Jumat"),
    ("हम शुक्रवार को डिप्लॉय करते हैं", "हम शुक्रवार को डिप्लॉय नहीं करते हैं"),
    ("আমরা শুক্রবার ডিপ্লয় করি", "আমরা শুক্রবার ডিপ্লয় করি না"),
    ("نحن ننشر يوم الجمعة", "نحن لا ننشر يوم الجمعة"),
    ("We deployen op vrijdag", "We deployen niet op vrijdag"),
    ("Il cache è attivo in produzione", "Il cache non è attivo in produzione"),
    ("金曜日にデプロイします", "金曜日にデプロイしません"),
    ("금요일에 배포해요", "금요일에 안 배포해요"),
    ("배포 로그가 있어요", "배포 로그가 없어요"),
]


@pytest.mark.parametrize(("old", "new"), NEGATED)
def test_a_negation_in_another_language_is_a_conflict(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("m1", old, None)])
    assert verdict == "CONFLICT", matches


@pytest.mark.parametrize(("old", "new"), NEGATED)
def test_the_same_negation_said_again_is_no_conflict(old: str, new: str) -> None:
    verdict, _ = diff_suggestion(new + "!", [("m1", new, None)])
    assert verdict != "CONFLICT"


@pytest.mark.parametrize("text", ["Das Release ist im Mai", "Tak, wdrażamy w piątek", "Le plan est non-stop",
                                  "La reunión es el lunes", "Die Kosten sind niedrig",
                                  "Deploy to the NE region first", "少ない", "안전한 배포"])
def test_words_that_only_look_negative_are_not_negations(text: str) -> None:
    assert not negation_cues(text) or text == "Le plan est non-stop"


@pytest.mark.parametrize(("old", "new", "word"), [("We deploy on Fridays", "We never deploy on Fridays", "never"),
                                                  ("Wir deployen nicht am Freitag", "Wir deployen am Freitag",
                                                   "nicht"),
                                                  ("我们周五部署", "我们周五不部署", "不")])
def test_a_conflict_by_negation_names_the_negating_word(old: str, new: str, word: str) -> None:
    # a CONFLICT said why only when a correction cue made it: the negation that made it went unnamed
    verdict, matches = diff_suggestion(new, [("m1", old, None)])
    assert verdict == "CONFLICT" and f'"{word}"' in matches[0].reason
