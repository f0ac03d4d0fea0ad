"""Entity extraction: regex patterns, a tech dictionary, and admission of words already known as entities.

Pure: the caller injects `known(candidates) -> subset` (one indexed lookup in the store), so single-word project
names ("Athena") become entities once any memory has named them explicitly.
"""
from __future__ import annotations

import errno
import re
import signal
from bisect import bisect_left
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .lazy_regex import LazyRegex
from .text import STOPWORDS

MAX_ENTITY_CHARS = 200

# A ticket id ("JIRA-1234", "PAY-87") names one ticket; its project key is no name of its own: as the acronym "JIRA"
# it linked every ticket of the project to every other. An id may hold several numbers ("CVE-2024-3094"): cut at the
# first, every CVE of a year was one entity
_TICKET = r"\b[A-Z]{2}[A-Z0-9]{0,8}(?:-[0-9]+)+\b"
# What a generic acronym qualifies may name one thing: a status code ("HTTP 502": memories about that error),
# a pull request ("PR #734"); spelt one way however written ("HTTPS 502", "http 502", "PR734")
_STATUS_CODE = re.compile(r"(?i)\bHTTPS? ?([1-5][0-9]{2})\b(?![.,]?[0-9])")
_PULL_REQUEST = re.compile(r"\bPR ?#?([0-9]{1,7})\b")
# and a standard cited by its number ("RFC 7231", "PEP 8", "ISO 8601"), however joined to it ("RFC-7231", "PEP8")
_STANDARD = re.compile(r"\b(RFC|PEP|ISO)[ -]?([0-9]{1,5})\b(?![.,]?[0-9])")
# An identifier in capitals names one setting or error wherever it is written: an env var or constant
# ("DATABASE_URL", "ERR_OSSL_EVP_UNSUPPORTED": capitals and digits joined by underscores), a compiler's or linter's
# error code ("E0425", "TS2345", "SC2086": a few capitals, then three digits or more). Nothing an ordinary sentence
# shouts has that shape ("DO NOT MERGE", "Q3", "P99"), so a shouted run leaves it alone
IDENTIFIER_CHARS = 64
_IDENTIFIER = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{1,4}[0-9]{3,5}\b")
# A system's error and signal names ("ECONNREFUSED", "SIGKILL") are too long for an acronym and hold no underscore;
# they are known names, not guessed from their shape (a long word in capitals is mostly emphasis: "IMPORTANT"), and
# found in shouting too. ENOTFOUND is Node's name for a failed DNS lookup, no errno
_SYSTEM_NAMES = frozenset([*errno.errorcode.values(), *signal.Signals.__members__, "ENOTFOUND"])
_LONG_CAPS = re.compile(r"\b[A-Z]{7,15}\b")
_PATTERNS = [
    re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b"),  # multi-segment CamelCase
    re.compile(r"\b[A-Z]{2,6}\b(?!-[0-9]+\b)"),  # acronyms, but not a ticket id's key
    re.compile(r"(?<![\w/.])(?:[\w.-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,9}\b(?!\.\w)"),  # file-path-like
    re.compile(r"https?://[^\s<>\"'）)]+"),
    re.compile(r"(?<![\w@])@[A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_]"),
    re.compile(r"《([^》]{1,50})》|「([^」]{1,50})」"),
    re.compile(_TICKET),
]

_ACRONYM_STOP = frozenset(
    """A I IN ON THE AND OR OF TO IS IT AS AT BE BY DO GO IF ME MY NO SO UP US WE AN AM ARE WAS HE SHE HIS HER OK
    YES NOT BUT FOR YOU ALL ANY CAN HAD HAS HOW ITS NEW NOW OLD OUR OUT SEE TWO WAY WHO BOY DID GET LET PUT SAY TOO
    USE ETC TODO FYI BTW IMO PS RE VS AM PM TBD WIP NB OH HI LOL OMG
    ASAP LGTM IMHO AFAIK IIRC FWIW TBH TLDR TL DR IDK NVM AFK BRB THX PLS PLZ TY NP EOD EOW ETA OOO WFH PTAL ACK
    NACK WTF LMAO ROFL FIXME XXX HACK NOTE MUST NEVER ALWAYS ONLY THIS THAT THESE THOSE THEY THEM THEN THAN THERE
    HERE WHAT WHEN WHERE WHY WITH FROM INTO HAVE BEEN WERE WILL JUST VERY REALLY STILL ALSO SOME MORE MOST NEED
    STOP WAIT PLEASE SHOULD WOULD COULD DONT DON WON CANT ISN AGAIN DONE FIX BUG BROKEN URGENT READ
    KEEP MAKE SURE OKAY GOOD BAD BIG HUGE
    ERROR ERRORS ERR WARN INFO DEBUG TRACE FATAL FAIL FAILED PASS PASSED SKIP""".split()
)  # (the last line: log levels and test outcomes, quoted from log lines about unrelated failures)
# Generic technical acronyms name a kind of thing (a protocol, a format, an interface, a step of the workflow), not
# one thing: "HTTP", "API", "JSON", "CI", "PR" are in most memories of a software project, so as entities they linked
# "HTTP 502 from the gateway" to "HTTP 429 rate limit" and every pull request to every other (as "LB", "SLA", "PDF"
# linked checkout's load balancer to search's, one customer's SLA to another's). An acronym naming one
# product, vendor, service, organisation or team ("AWS", "GKE", "NASA", "SRE") is no kind and stays. Extend this
# list for such words (the stoplist above is for words that are no acronym at all). Not admitted as known either.
GENERIC_ACRONYMS = frozenset(
    """HTTP HTTPS TCP UDP IP DNS SSH SSL TLS FTP SFTP SMTP IMAP RPC CDN VPN LAN WAN
    API APIS CLI GUI UI UX SDK IDE REPL ORM CRUD ENV VM OS IO CPU GPU RAM SSD HDD
    URL URLS URI JSON XML CSV HTML CSS YAML TOML SQL DB ID IDS UUID EOF
    CI CD PR PRS MR QA UAT AI ML LLM RFC PEP ISO
    LB NAT DHCP NTP VLAN NIC NFS LDAP SAML OIDC SSO MFA OTP CORS CSRF XSS TTL ACL RBAC
    PID UID GID TTY STDIN STDOUT STDERR IPC OOM GC WAL ACID OLTP OLAP ETL DDL DML DOM SPA SSR SEO CMS CRM
    PDF PNG JPG JPEG GIF SVG ZIP ASCII UTF USB HDMI LED LCD WIFI NLP RAG OCR
    KPI OKR MVP POC RCA SLA SLO SLI MTTR ADR PRD FAQ NDA EOL LTS ROI PII""".split()
)
# Units, time zones and currencies measure or date a thing, they name none: "16 GB", "09:30 UTC", "12 USD" in two
# memories about a laptop and a backup, or a budget and a renewal, are no link between them. Not admitted as known
# either (stores written before this hold them as entities)
_UNITS = frozenset(
    """KB MB GB TB PB EB KM KG MM CM ML KW KWH MWH MPH KPH RPM GHZ MHZ FPS QPS RPS TPS
    UTC GMT PT MT CT ET PST PDT EST EDT CST CDT MST MDT AKST AKDT HST CET CEST EET EEST WET BST IST JST KST HKT SGT
    AEST AEDT ACST AWST NZST NZDT
    USD EUR GBP JPY CNY RMB INR CAD AUD CHF SEK NOK DKK HKD SGD NZD KRW BRL MXN ZAR PLN""".split()
)
_KINDS_AND_UNITS = GENERIC_ACRONYMS | _UNITS
# A run of this many ALL-CAPS words (only spaces and punctuation between them) is shouting, not a list of acronyms:
# "NOTE THAT THE BUILD IS BROKEN" would otherwise make BUILD and BROKEN entities that link unrelated memories. Words
# are joined by whitespace (with any punctuation around it), so "API/CLI/SDK" stays three names; a word with a digit
# ("EC2", "S3") is a name, not emphasis, and ends the run
SHOUTING_RUN = 3
# (possessive, and a word starts only where no caps word joins it by ' or -: the run ends only at a word character or
# a non-caps letter, so giving back part of a gap or word never helps, and backtracking would make a page of spaces or
# of "AB-AB-…" take seconds)
_CAPS_WORD = r"(?<![A-Z]['’-])\b[A-Z]++(?:['’-][A-Z]++)*+\b"
_SHOUTING = re.compile(rf"{_CAPS_WORD}(?:[^\w\s]*+\s\W*+{_CAPS_WORD}){{{SHOUTING_RUN - 1},}}")
# A run may cross sentence ends ("STOP. DEPLOYING. FRIDAYS."), but an acronym ending or starting a sentence of
# ordinary words is a name beside the shouting, not part of it: "Deploy to GKE. DO NOT TOUCH PROD" keeps GKE
_SENTENCE_END = re.compile(r"[.!?]+\s")
_CAPS_WORDS = re.compile(_CAPS_WORD)
_WORD_CHAR = re.compile(r"\w")


def _shouted_spans(text: str) -> list[tuple[int, int]]:
    """The spans of shouting: each run of ALL-CAPS words, less a short first or last sentence of the run whose
    sentence goes on in ordinary words outside it."""
    runs = [m.span() for m in _SHOUTING.finditer(text)]
    if not runs:
        return []
    sentence_ends = [m.span() for m in _SENTENCE_END.finditer(text)]
    spans = []
    for start, end in runs:
        before = bisect_left(sentence_ends, (start, 0))
        after = bisect_left(sentence_ends, (end, 0))  # the sentence ends inside the run: before..after-1
        if after > before:
            first_end, last_end = sentence_ends[before][1], sentence_ends[after - 1][1]
            sentence_start = sentence_ends[before - 1][1] if before else 0
            if _WORD_CHAR.search(text, sentence_start, start) and _caps_words(text, start, first_end) < SHOUTING_RUN:
                start = first_end
            sentence_end = sentence_ends[after][0] if after < len(sentence_ends) else len(text)
            if _WORD_CHAR.search(text, end, sentence_end) and _caps_words(text, last_end, end) < SHOUTING_RUN:
                end = last_end
        if _caps_words(text, start, end) >= SHOUTING_RUN:
            spans.append((start, end))
    return spans


def _caps_words(text: str, start: int, end: int) -> int:
    return len(_CAPS_WORDS.findall(text, start, end))


_RELATIVE = re.compile(r"^(?:\.\.?/)+")
# "e.g.", "i.e.", "a.m.", "U.S." look like a file "e" with the extension "g": as entities they would link every memory
# that uses them. A real file has a longer name or extension ("a.out", "x.py", "main.c")
_ABBREVIATION = re.compile(r"[A-Za-z]\.[A-Za-z]")

TECH_TERMS = frozenset(
    """Go Rust Python Java JavaScript TypeScript Kotlin Swift Ruby PHP Scala Haskell Elixir Erlang Clojure Lua Perl Zig
    Julia Dart C++ C# React Vue Angular Svelte Next.js Nuxt Django Flask FastAPI Rails Spring Express NestJS Laravel
    SQLite PostgreSQL Postgres MySQL MariaDB MongoDB Redis Cassandra DynamoDB Elasticsearch OpenSearch ClickHouse
    DuckDB Snowflake BigQuery Neo4j Qdrant Milvus Weaviate Pinecone Chroma FAISS pgvector Kafka RabbitMQ NATS
    Docker Kubernetes Helm Terraform Ansible Nginx Apache Linux Ubuntu Debian macOS Windows Android iOS AWS GCP Azure
    Vercel Netlify Cloudflare Heroku GitHub GitLab Bitbucket Jenkins CircleCI Git Ollama OpenAI Anthropic Claude GPT
    Gemini Llama Mistral DeepSeek Qwen HuggingFace PyTorch TensorFlow JAX NumPy Pandas Polars Spark Airflow dbt
    gRPC GraphQL REST JWT OAuth MCP RLM MAGMA LangChain LlamaIndex Codex Cursor Copilot Hermes Obsidian Notion Slack
    Jira Figma Webpack Vite Bun Deno Node.js npm pip Poetry uv Cargo Bazel CMake Grafana Prometheus Sentry Datadog
    Supabase Firebase Stripe Tailwind WebAssembly WASM Markdown""".split()
)
# A dictionary term is a whole token: not preceded by [\w.+#-], not followed (past a version glued on) by [\w+#] or by
# "." and a word character; the longest term that fits wins. Found by scanning runs of term characters and looking the
# run's prefixes up, which matches exactly what the alternation `(?<![\w.+#-])(term|…)(?=VERSION?(?![\w+#]|\.\w))`
# would (tests/core compare them), at the same speed, without compiling a 200-branch regex (~1.5 ms) in every process.
# Every term starts with an ASCII letter, is at least two characters long and is made of [\w.+#-] only, so a run holds
# any term that starts there.
_TECH_RUN = re.compile(r"(?<![\w.+#-])[A-Za-z][\w.+#-]*")
_TECH_STOP = re.compile(r"[\w+#]|\.\w")
# A term may have its version glued on ("Python3.11", "C++17", "Go1.22"): it names the product as "Python 3.11" does
_TECH_VERSION = re.compile(r"[0-9]++(?:\.[0-9]++)*+")
# and so in lower case, taken when the store knows the term ("python3.11")
_GLUED_VERSION = re.compile(r"(?<![\w.+#-])([A-Za-z]{2,})[0-9]++(?:\.[0-9]++)*+(?![\w+#]|\.\w)")
_TECH_HEADS = frozenset(term[:2] for term in TECH_TERMS)
_TECH_LENGTHS = sorted({len(term) for term in TECH_TERMS}, reverse=True)


def tech_terms(text: str) -> list[tuple[int, str]]:
    """(position, term) of every dictionary term in `text`, left to right."""
    found: list[tuple[int, str]] = []
    for m in _TECH_RUN.finditer(text):
        run = m.group()
        if run[:2] not in _TECH_HEADS:
            continue
        start = m.start()
        for n in _TECH_LENGTHS:
            if n <= len(run) and run[:n] in TECH_TERMS and not _TECH_STOP.match(text, _past_version(text, start + n)):
                found.append((start, run[:n]))
                break
    return found


def _past_version(text: str, at: int) -> int:
    version = _TECH_VERSION.match(text, at)
    return version.end() if version else at


# Candidates for the known-entity path: capitalised words (also without a possessive 's: "O'Brien's"), any ASCII
# word, and CJK n-grams (2..6 chars).
_CAPITALISED = re.compile(r"\b[A-Z][\w'-]*\b")
_ASCII_WORD = re.compile(r"\b[A-Za-z][A-Za-z0-9_-]{2,}\b")
_CJK_RUN = LazyRegex(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]{2,}")  # only for non-ASCII text
# Other text gets the same two kinds of candidate by Unicode letter classes: "Müller's" yields "Müller" as
# "Miller's" yields "Miller" ([A-Z] and [A-Za-z] saw no word in "Müller" at all), and a curly apostrophe joins a
# word as a straight one does ("O’Brien’s"). A word holding CJK is left to the n-grams.
_LETTER_WORD = LazyRegex(r"(?<!\w)[^\W\d_]\w*(?:['’-]\w+)*")
_APOSTROPHE = re.compile(r"['’]")
_POSSESSIVE_END = re.compile(r"['’]s$")
# and runs of 2..4 words inside one clause, for the names of several words a store knows ("Ana Lima", "staging
# cluster", given once with --entities): a run never crosses punctuation ("Call Ana. Lima is a city")
# A word in lower case is itself ("mark", "will"), except right after a word a person's name often follows ("ask bob",
# "with alice", "cc: carol", "who is dana"): there it is also asked for as a name, capitalised, and taken only when
# the store knows it
# ((?i) for the cue made the scan twice as slow as naming its first letter's two cases)
_NAME_CUE = re.compile(r"\b(?:[Aa]sk(?:ed|ing)?|[Ww]ith|[Ff]rom|[Tt]old|[Tt]ell|[Cc][Cc]|[Pp]ing(?:ed)?"
                       r"|[Ww]ho(?:\s+is|['’]s)):?\s+([a-z]{3,})(?:['’]s)?\b")
# A possessive is a reason too, in a question: "what is on mark's plate"
_POSSESSIVE_NAME = re.compile(r"\b([a-z]{3,})['’]s\b")
# First names and surnames that are everyday words, in lower case mostly the word: a modal or verb ("will", "may",
# "mark", "grant", "bob"), a month ("june"), a noun or adjective ("bill", "rose", "frank", "summer", "green"); not
# words more often a topic than a person ("art", "love", "price"). A question that writes one in lower case asks
# about the name only when it gives a reason (`lower_case_names`); its other lower-case words are asked for
# capitalised too ("athena", "lighthouse", "mira"), as agents lower-case their questions
NAMES_ALSO_WORDS = frozenset(
    """will may mark bill pat bob frank grant rose june april august summer autumn winter dawn hope faith joy grace
    rob rich sue jack ray guy chase drew gene max nick norm bud chip buck duke earl dean ken rusty sandy ruby amber
    pearl jade ivy holly lily iris daisy heather violet olive hazel ginger penny robin jay brook reed glen dale cliff
    heath lane wade miles hunter mason bishop spike rocky carol jean
    green brown white black gray grey young long hall wood stone hill bell ward cook baker turner walker fisher
    carter miller parker cooper porter knight banks ford fox wolf lamb""".split())
_CLAUSE_BREAK = re.compile(r"[.,;:!?()\[\]{}\"“”«»/\n\t]+|\s[-–—]+\s")
NAME_WORDS_MAX = 4

KnownLookup = Callable[[set[str]], Iterable[str]]


def _bare(value: str) -> str:
    """`value` without the punctuation of the sentence around it; a leading dot is part of a name (".github/ci.yml",
    ".NET"), and was cut from it."""
    return value.strip().lstrip(",;:!?").rstrip(".,;:!?")


def _add(out: list[str], seen: set[str], value: str) -> None:
    value = _bare(value)
    if not value or len(value) > MAX_ENTITY_CHARS or value in seen:
        return
    seen.add(value)
    out.append(value)


def extract_entities(text: str, known: KnownLookup | None = None,
                     name_heads: Container[str] | None = None) -> list[str]:
    """Entities in order of first appearance; `known` admits otherwise-unmatched words that the store already knows,
    and runs of words (names of several words) starting with one of `name_heads` when given (else any run)."""
    out: list[str] = []
    seen: set[str] = set()
    spans: list[tuple[int, str]] = []
    shouted = _shouted_spans(text)
    for pat in _PATTERNS:
        for m in pat.finditer(text):
            value = next((g for g in m.groups() if g), None) if m.groups() else m.group()
            if value is None:
                continue
            if pat is _PATTERNS[1] and (_stop_listed(value) or value in _UNITS or value in GENERIC_ACRONYMS
                                        or any(a <= m.start() < b for a, b in shouted)):
                continue
            if pat is _PATTERNS[-1] and _STANDARD.fullmatch(value):
                continue  # (spelt as the standard below)
            if pat is _PATTERNS[2]:
                if _ABBREVIATION.fullmatch(value):
                    continue
                value = _RELATIVE.sub("", value)  # "./scripts/deploy.sh" is the file scripts/deploy.sh names
            spans.append((m.start(), value))
    spans.extend(tech_terms(text))
    spans.extend((m.start(), m.group()) for m in _IDENTIFIER.finditer(text)
                 if 4 <= len(m.group()) <= IDENTIFIER_CHARS and not _STANDARD.fullmatch(m.group()))
    spans.extend((m.start(), f"{m.group(1)} {m.group(2)}") for m in _STANDARD.finditer(text))
    spans.extend((m.start(), m.group()) for m in _LONG_CAPS.finditer(text) if m.group() in _SYSTEM_NAMES)
    spans.extend((m.start(), f"HTTP {m.group(1)}") for m in _STATUS_CODE.finditer(text))
    spans.extend((m.start(), f"PR #{m.group(1)}") for m in _PULL_REQUEST.finditer(text))
    if known is not None:
        capitalised = set(_CAPITALISED.findall(text))
        cands: set[str] = set(_ASCII_WORD.findall(text))
        if not text.isascii():
            for word in _LETTER_WORD.findall(text):
                if _CJK_RUN.search(word):
                    continue
                if word[0].isupper():
                    capitalised.add(word)
                cands.update(part for part in _APOSTROPHE.split(word) if len(part) >= 3)
            for run in _CJK_RUN.findall(text):
                for n in range(2, min(6, len(run)) + 1):
                    cands.update(run[i : i + n] for i in range(len(run) - n + 1))
        cands |= capitalised
        cands.update(_POSSESSIVE_END.sub("", word) for word in capitalised if _POSSESSIVE_END.search(word))
        cands |= word_runs(text, name_heads)
        cands.update(m.group(1) for m in _GLUED_VERSION.finditer(text) if m.group(1).lower() in _TERM_BY_FOLD)
        cands -= {v for _, v in spans}
        cands -= _KINDS_AND_UNITS
        # an acronym the pattern found may be a known name written in capitals ("KAFKA" for "Kafka")
        acronyms = {v for _, v in spans if v.isupper() and v.isalpha()}
        pool = cands | acronyms
        # (most candidates are plain lower-case words, which are only themselves: a bulk import asks for every one)
        spelt = {c: others for c in pool
                 if not (c.islower() and " " not in c and c not in _TERM_BY_FOLD) and (others := _other_spellings(c))}
        for m in _NAME_CUE.finditer(text):
            word = m.group(1)
            if word in pool and word not in spelt and word not in _TERMS_ALSO_WORDS and not _stop_listed(word):
                spelt[word] = (word.capitalize(),)
        ask = pool.union(*spelt.values())
        if ask:
            # a stop-listed word is no name however the store came to know it (given once on purpose: "TODO", "The"),
            # nor a kind or unit in lower case ("api", "utc"; "Dom" and "Nat" are people)
            admitted = {name for name in known(ask) if not _stop_listed(name)
                        and not (name.islower() and name.upper() in _KINDS_AND_UNITS)}
            stored: dict[str, str] = {}  # as written → the spelling the store knows
            for c in pool & admitted:
                stored[c] = c
            for c, others in spelt.items():
                name = None if c in stored else next((s for s in others if s in admitted), None)
                if name is not None:
                    stored[c] = name
            spans = [(pos, stored.get(v, v)) for pos, v in spans]
            names: list[tuple[int, int]] = []  # where known names written in capitals are
            for c in cands & stored.keys():
                pos = text.find(c)
                spans.append((pos if pos >= 0 else len(text), stored[c]))
                if stored[c] != c and pos >= 0:
                    names.append((pos, pos + len(c)))
            for name in admitted - ask:  # a lookup that spells the words its own way (recall's questions)
                pos = text.find(name)
                spans.append((pos if pos >= 0 else len(text), name))
            # "ask ALICE CHEN" names Alice Chen, not the acronyms ALICE and CHEN ("AWS Lambda" keeps AWS)
            spans = [(pos, v) for pos, v in spans
                     if not (v in acronyms and any(a <= pos < b for a, b in names))]
    for _, value in sorted(spans, key=lambda s: s[0]):
        _add(out, seen, value)
    return out


def lower_case_names(question: str) -> set[str]:
    """The lower-case words `question` gives a reason to read as a name: right after a name cue ("ask mark", "who is
    mark") or possessive ("mark's")."""
    return {m.group(1) for pattern in (_NAME_CUE, _POSSESSIVE_NAME) for m in pattern.finditer(question)}


def _stop_listed(word: str) -> bool:
    return " " not in word and (word.casefold() in STOPWORDS or word.upper() in _ACRONYM_STOP)


def word_runs(text: str, heads: Container[str] | None = None) -> set[str]:
    """Every run of 2..`NAME_WORDS_MAX` words inside one clause of `text`, as written (single spaces), also without
    a possessive 's on its last word: the candidates for a known name of several words; with `heads` (lower-cased),
    only the runs starting with one of them in any case (a bulk import knows the first words of every such name)."""
    runs: set[str] = set()
    if heads is not None and not heads:
        return runs
    for clause in _CLAUSE_BREAK.split(text):
        words = clause.split()
        # (a bulk import runs this for every memory: each word is folded and its possessive looked for once, and
        # only the runs from a head are built)
        starts = range(len(words) - 1) if heads is None else [k for k in range(len(words) - 1)
                                                              if words[k].lower() in heads]
        if not starts:
            continue
        bare = [w[:-2] if w.endswith(("'s", "’s")) else None for w in words]
        for k in starts:
            for last in range(k + 1, min(k + NAME_WORDS_MAX, len(words))):
                runs.add(" ".join(words[k:last + 1]))
                if bare[last] is not None:
                    runs.add(" ".join([*words[k:last], bare[last]]))  # type: ignore[list-item]
    return runs


# Dictionary terms that are also everyday words: written in lower case ("react to", "the rest", "cut some slack")
# they are the word, not the product, and never taken for the known name
_TERMS_ALSO_WORDS = frozenset(
    """go rust swift ruby dart elixir express rails spring flask spark slack notion cursor copilot poetry cargo helm
    chroma bun react angular pandas polars llama stripe sentry gemini claude codex hermes mistral apache airflow
    snowflake pinecone windows tailwind obsidian julia""".split())
_TERM_BY_FOLD = {t.lower(): t for t in TECH_TERMS if not t.isupper() and t.lower() not in _TERMS_ALSO_WORDS}


@lru_cache(maxsize=8192)  # (a bulk import asks it of the same names and word runs again and again)
def _other_spellings(written: str) -> tuple[str, ...]:
    """The spellings, other than as written, under which the store may know `written`, most likely first: a name of
    several words capitalised or in lower case ("alice chen" → "Alice Chen"), a word in capitals or capitalised in
    another case ("KUBERNETES" → "Kubernetes", "Athena" → "athena"), and a dictionary term by its own spelling
    ("github" → "GitHub"). A plain lower-case word is otherwise itself: "mark", "will", "rest" are words before they
    are the names "Mark", "Will" or "REST"; and nothing becomes ALL CAPS, which is spelt as an acronym is."""
    lower = written.lower()
    if " " in written:
        # (title() capitalises inside a word too: "jean-luc o'brien" → "Jean-Luc O'Brien")
        out = [written.title(), " ".join(w[:1].upper() + w[1:].lower() for w in written.split(" ")), lower,
               *_word_by_word(written)]
    elif written.isupper():
        out = [written.capitalize(), written.title(), lower, _TERM_BY_FOLD.get(lower, lower)]
    elif written[:1].isupper():
        out = [lower, _TERM_BY_FOLD.get(lower, lower)]
    else:
        out = [_TERM_BY_FOLD.get(lower, lower)]
    return tuple(s for s in dict.fromkeys(out) if s != written)


ACRONYM_LETTERS = 4  # the longest word asked for in capitals inside a name ("AWS Lambda", "SAP HANA")
SPELLINGS_MAX = 16  # the most spellings a name of several words is asked for in


def _word_by_word(written: str) -> list[str]:
    """A name of several words whose words are cased each its own way ("AWS Lambda", "GitHub Actions", "SAP HANA"):
    each word capitalised, in capitals when short and no stopword ("to", "and"), or as the dictionary spells it, at
    most `SPELLINGS_MAX`."""
    forms = [_word_forms(word) for word in written.split(" ")]
    if all(len(f) == 1 for f in forms):
        return []  # (each word capitalised is asked for already)
    out = [""]
    for options in forms:
        out = [f"{head} {form}".lstrip() for head in out for form in options][:SPELLINGS_MAX]
    return out


@lru_cache(maxsize=4096)  # (a bulk import asks for the same words' runs again and again)
def _word_forms(word: str) -> tuple[str, ...]:
    low = word.lower()
    return tuple(dict.fromkeys([word[:1].upper() + word[1:].lower(), _TERM_BY_FOLD.get(low, low.capitalize()),
                                *([word.upper()] if word.isalpha() and len(word) <= ACRONYM_LETTERS
                                  and low not in STOPWORDS else [])]))


_ANY_TERM_BY_FOLD = {t.lower(): t for t in TECH_TERMS}


def spelt_as_known(names: Sequence[str], known: KnownLookup) -> list[str]:
    """`names` given by the caller, each as the store already spells it in any case ("alice chen", "REACT" →
    "Alice Chen", "React"), else as the dictionary does ("kubernetes" → "Kubernetes"), else as given: a name given on
    purpose is that name, even a word in lower case."""
    spelt = {n: [n, *_other_spellings(n), n.capitalize(), n.upper()] for n in names}
    admitted = set(known({s for options in spelt.values() for s in options}))
    return [next((s for s in spelt[n] if s in admitted), _ANY_TERM_BY_FOLD.get(n.lower(), n)) for n in names]


def merge_entities(provided: Iterable[str], extracted: Iterable[str], mode: str = "merge") -> list[str]:
    """Provided entities first, then extracted ones (mode merge); or only one side (provided|auto). One entity
    however it is cased: a provided one as extraction spells it (the store's, the dictionary's or the text's
    spelling: "kubernetes" given for a text saying "Kubernetes"), else in its first spelling."""
    out: list[str] = []
    seen: set[str] = set()
    sources: list[Iterable[str]] = []
    extracted = list(extracted) if mode in ("merge", "auto") else []
    if mode in ("merge", "provided"):
        spelling = {e.casefold(): e for e in reversed(extracted)}
        sources.append([spelling.get(_bare(e).casefold(), e) for e in provided])
    sources.append(extracted)
    folded: set[str] = set()
    for src in sources:
        for e in src:
            if _bare(e).casefold() in folded:
                continue
            _add(out, seen, e)
            folded.update(v.casefold() for v in out[len(folded):])
    return out


# ── a person or team named in part ("who is Mira" → the entity "Mira Chen") ──────────────────────────────────────
# A name is words of letters (a hyphen or apostrophe inside: Jean-Luc, O'Brien) separated by spaces; "Node.js",
# "src/app.py" or "GPT-4o" are not, so "node" or "app" never stands for them
_NAME_PART = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"
_MULTIWORD_NAME = re.compile(rf"{_NAME_PART}(?:\s+{_NAME_PART})+")
# and a handle is made of words ("@dana", "@dana.reyes"): a first name asks about it beside the names it is a word of
_NAME_HANDLE = re.compile(r"@([^\W\d_]+(?:[._-][^\W\d_]+)*)")
_HANDLE_JOINS = re.compile(r"[._-]")
_NAME_WORD = re.compile(_NAME_PART)
_POSSESSIVE = re.compile(r"['’]s$")
# a word that is part of more names than this is a common word ("Team", "New", "Group"), not someone's name
PARTIAL_NAME_MAX = 5


def name_parts(entities: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each word of the multi-word names and handles among `entities` (lower-cased, as recall compares entities) →
    those names.

    >>> name_parts(["Mira Chen", "Miranda Lopez", "Node.js", "Kafka", "@mira"])["mira"]
    ('mira chen', '@mira')
    >>> "js" in name_parts(["Node.js"])
    False
    """
    index: dict[str, list[str]] = {}
    for entity in entities:
        handle = _NAME_HANDLE.fullmatch(entity) if entity[:1] == "@" else None
        if handle is not None:
            name, words = entity.lower(), _HANDLE_JOINS.split(handle.group(1).lower())
        elif " " in entity and _MULTIWORD_NAME.fullmatch(entity):
            name = " ".join(entity.lower().split())
            words = name.split()
        else:
            continue
        for part in dict.fromkeys(words):
            index.setdefault(part, []).append(name)
    return {part: tuple(dict.fromkeys(names)) for part, names in index.items()}


@dataclass(frozen=True)
class NamesInQuery:
    whole: tuple[str, ...]  # names the query spells out in full ("Mira Chen")
    partial: tuple[tuple[str, tuple[str, ...]], ...]  # (query word, the names it is a whole word of): "mira"


def names_in_query(query: str, parts: Mapping[str, Sequence[str]]) -> NamesInQuery:
    """The multi-word names (keys and values of `name_parts`) that `query` names in full or by one of their words.

    A word counts whole: "Mira" names "Mira Chen", never "Miranda Lopez". Stopwords never do ("The Beatles" is not
    asked about by "the"), nor a lower-case word in a query that capitalises a word past its first: a query written
    with capitals capitalises its names, while one in lower case ("Who is mira") may still name someone, though not
    by an everyday word ("we mark it done") unless it gives a reason ("who is mark", "mark's").

    >>> parts = name_parts(["Mira Chen", "Mira Patel", "Miranda Lopez"])
    >>> names_in_query("who is Mira?", parts).partial
    (('mira', ('mira chen', 'mira patel')),)
    >>> names_in_query("what did mira chen's team ship", parts)
    NamesInQuery(whole=('mira chen',), partial=())
    """
    if not parts:
        return NamesInQuery((), ())
    words: list[tuple[str, bool]] = []  # (lower-cased word without a possessive 's, written with a capital)
    for match in _NAME_WORD.finditer(query):
        word = _POSSESSIVE.sub("", match.group())
        words.append((word.lower(), word[:1].isupper()))
    capitalised = any(upper for _, upper in words[1:])
    reasons = lower_case_names(query)
    lowered = [w for w, _ in words]
    whole: dict[str, None] = {}
    covered: set[int] = set()
    for k, (word, _) in enumerate(words):
        for name in parts.get(word, ()):
            span = name.split()
            if lowered[k:k + len(span)] == span:
                whole[name] = None
                covered.update(range(k, k + len(span)))
    partial: dict[tuple[str, ...], str] = {}
    for k, (word, upper) in enumerate(words):
        if k in covered or word in STOPWORDS or (capitalised and not upper) or (
                not upper and word in NAMES_ALSO_WORDS and word not in reasons):
            continue
        names = tuple(parts.get(word, ()))
        # (a handle's word alone is no name: "which channel" asks about no "@channel")
        if names and len(names) <= PARTIAL_NAME_MAX and not all(n.startswith("@") for n in names):
            partial.setdefault(names, word)  # "Mira … Chen" apart still asks about "Mira Chen" once
    return NamesInQuery(tuple(whole), tuple((word, names) for names, word in partial.items()))
