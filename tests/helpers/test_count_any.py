"""Issue 34: anyone's request is counted, whatever model it names, and labelled honestly.

Every model the pinned price data (genai-prices) knows for the three providers, and one new
name per provider, is counted with its provider's rule by ``count`` (``count_body``) and by the
stand-in over real HTTP, never refused; a model the table lacks is never labelled exact.
"""

from __future__ import annotations

import httpx
import pytest

from helpers.examples import sundry
from helpers.formats import render
from helpers.messages import Request
from helpers.models import PRICE_PROVIDERS, UnknownModelError, model_info
from standin.wire_count import count_body
from tests.support.provider_support import KEY

#: One name per provider that neither the table nor the price data knows.
NEW_NAMES = ("gpt-9-turbo", "claude-ultra-9", "gemini-9-flash")
FORMATS = {"openai": "openai-chat", "anthropic": "anthropic", "gemini": "gemini"}


def _price_data_models() -> list[str]:
    from genai_prices.data_snapshot import get_snapshot

    providers = get_snapshot().providers
    return sorted({m.id for p in providers if p.id in PRICE_PROVIDERS for m in p.models})


def _everything() -> list[str]:
    return [*_price_data_models(), *NEW_NAMES]


def _body(model: str, plain: bool = False) -> tuple[dict, str]:
    """The Sundry opening for ``model`` (``plain``: its first user message alone, so no model's
    own rule about tools applies), in the wire format of the provider that counts it."""
    fmt = FORMATS[model_info(model).provider]
    request = sundry.opening(model)
    if plain:
        request = Request(model, request.messages[-1:])
    return render(request, fmt).body, fmt


def test_the_price_data_holds_what_the_issue_counted():
    names = _price_data_models()
    assert len(names) > 150
    for name in ("claude-opus-4-6", "gemini-3.5-flash", "gemini-3-pro-preview", "gpt-5.4"):
        assert name in names


def test_count_counts_every_model_the_price_data_knows_and_new_names():
    for model in _everything():
        body, fmt = _body(model)
        counted = count_body(body, fmt, model)
        assert counted.total > 0, model
        info = model_info(model)
        if info.matched_by_prefix is not None:  # not in the table: noted
            assert model in " ".join(counted.notes), model
            # never exact, but for harmony: the published gpt-oss format, the same for each
            assert counted.estimate or info.counting == "harmony", model


EXACT_UNLISTED = ("harmony", "gemini-gemma3")


def test_the_local_provider_counts_every_model_the_price_data_knows_and_new_names(p):
    headers = {
        "authorization": f"Bearer {KEY}",
        "x-goog-api-key": KEY,
        "x-api-key": KEY,
        "anthropic-version": "2023-06-01",
    }
    with httpx.Client(headers=headers, timeout=10) as client:
        for model in _everything():
            body, fmt = _body(model, plain=True)
            if fmt == "anthropic":
                url = p.url + "/v1/messages/count_tokens"
            elif fmt == "gemini":
                url = p.endpoint("gemini", model).replace(":generateContent", ":countTokens")
            else:
                url = p.endpoint(fmt)
            r = client.post(url, json=body)
            assert r.status_code == 200, (model, r.text[:300])
            label = r.headers.get("x-on-the-wire-input-count", "")
            info = model_info(model)
            # harmony's format and Gemma 3's tokenizer (the models Google's SDK maps to it, by
            # name) are the same for every model they serve: those may be exact
            if info.matched_by_prefix is not None and info.counting not in EXACT_UNLISTED:
                assert label.startswith("estimate"), (model, label)


@pytest.mark.parametrize(
    ("asked", "resolved"),
    [
        ("gemini-flash-latest", "gemini-3.8-flash"),
        ("claude-opus-4-6-20260205", "claude-opus-4-6"),
        ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),
        ("gpt-5.4-2026-03-05", "gpt-5.4"),
        (
            "projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
            "gemini-2.5-flash",
        ),
    ],
)
def test_aliases_snapshots_and_vertex_paths_resolve_to_their_model(asked, resolved):
    assert model_info(asked).id == resolved


def test_a_new_model_is_counted_with_its_providers_rule_and_says_so():
    claude = model_info("claude-ultra-9")
    assert (claude.provider, claude.counting) == ("anthropic", "anthropic-estimate")
    assert "not in the table" in claude.note and "claude-sonnet-4-6's rule" in claude.note
    assert model_info("gpt-oss-20b").counting == "harmony"  # its family's rule, not gpt-4o's
    assert model_info("gpt-5.4").encoding == "o200k_base"  # tiktoken's encoding for the name
    with pytest.raises(UnknownModelError, match="no provider uses this name"):
        model_info("llama-3")


def test_a_vertex_ai_url_names_the_model_for_count(tmp_path, capsys):
    from standin.cli import gemini_url, main

    url = (
        "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/"
        "publishers/google/models/gemini-2.5-flash:generateContent"
    )
    assert gemini_url(url) == ("v1", "gemini-2.5-flash")
    path = tmp_path / "body.json"
    body, _ = _body("gemini-2.5-flash")
    import json

    path.write_text(json.dumps(body), encoding="utf-8")
    assert main(["count", str(path), "--url", url]) == 0
    assert "gemini-2.5-flash" in capsys.readouterr().out


def test_the_local_provider_answers_on_a_vertex_ai_path(p):
    body, _ = _body("gemini-2.5-flash")
    path = "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash"
    r = httpx.post(p.url + path + ":countTokens", json=body, headers={"x-goog-api-key": KEY})
    assert r.status_code == 200 and r.json()["totalTokens"] > 0


#: Shapes Google accepted and billed in recorded traffic (issue 34 item 5; docs/rules.md).
ACCEPTED_GEMINI = {
    "contents": [{"role": "user", "parts": {"text": "What is the weather in Paris?"}}],
    "systemInstruction": {"parts": {"text": "Be brief."}},
    "tools": [
        {
            "functionDeclarations": [
                {"name": "weather", "description": None, "parameters": {"type": "object"}}
            ]
        }
    ],
}


def test_shapes_google_accepted_are_read_by_count_and_check(tmp_path, capsys):
    import json

    from standin.cli import main

    path = tmp_path / "accepted.json"
    path.write_text(json.dumps(ACCEPTED_GEMINI), encoding="utf-8")
    listed = {
        **ACCEPTED_GEMINI,
        "contents": [{"role": "user", "parts": [{"text": "What is the weather in Paris?"}]}],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "tools": [
            {"functionDeclarations": [{"name": "weather", "parameters": {"type": "object"}}]}
        ],
    }
    assert count_body(ACCEPTED_GEMINI, "gemini").total == count_body(listed, "gemini").total
    assert main(["check", str(path), "--profile", "gemini"]) == 0
    assert "no violations" in capsys.readouterr().out
    assert main(["count", str(path), "--total"]) == 0


def test_shapes_google_accepted_are_answered_by_the_local_provider(p):
    for kind in ("countTokens", "generateContent"):
        url = p.endpoint("gemini", "gemini-2.5-flash").replace(":generateContent", f":{kind}")
        r = httpx.post(url, json=ACCEPTED_GEMINI, headers={"x-goog-api-key": KEY})
        assert r.status_code == 200, (kind, r.text[:300])


_HI = {"role": "user", "content": "What is in these?"}
_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}
_RESULT = {"type": "tool_result", "tool_use_id": "toolu_1"}
_CALL = {
    "role": "assistant",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "find", "input": {}}],
}
_SEARCH = {"type": "search_result", "source": "https://example.com", "title": "T"}
_SEARCH["content"] = [{"type": "text", "text": "Paris is in France."}]
_DOC = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}}
_TOOL = [{"name": "find", "description": "Find.", "input_schema": {"type": "object"}}]


def _anthropic(**extra):
    return {"model": "claude-sonnet-4-6", "max_tokens": 64, "messages": [_HI], **extra}


def _with_result(block):
    turns = [_HI, _CALL, {"role": "user", "content": [{**_RESULT, "content": [block]}]}]
    return _anthropic(messages=turns, tools=_TOOL)


def _gemini(part=None, **extra):
    parts = [{"text": "What is in this?"}] + ([part] if part else [])
    return {"contents": [{"role": "user", "parts": parts}], **extra}


#: (body, format, the part the label must name): each feature the count cannot see.
UNSEEN = [
    (
        _anthropic(output_config={"format": {"type": "json_schema", "schema": _SCHEMA}}),
        "anthropic",
        "output_config.format",
    ),
    (
        _anthropic(output_format={"type": "json_schema", "schema": _SCHEMA}),
        "anthropic",
        "output_format",
    ),
    (
        _anthropic(context_management={"edits": [{"type": "clear_tool_uses_20250919"}]}),
        "anthropic",
        "context_management",
    ),
    (_with_result(_SEARCH), "anthropic", "messages[2].content[0]"),
    (_with_result(_DOC), "anthropic", "messages[2].content[0]"),
    (_gemini(cachedContent="cachedContents/abc123"), "gemini", "cachedContent"),
    (_gemini(generationConfig={"responseSchema": _SCHEMA}), "gemini", "responseSchema"),
    (
        _gemini(generation_config={"response_json_schema": _SCHEMA}),
        "gemini",
        "response_json_schema",
    ),
    (
        _gemini({"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}}),
        "gemini",
        "contents[0].parts[1]",
    ),
    (
        _gemini({"inlineData": {"mimeType": "video/mp4", "data": "AAAA"}}),
        "gemini",
        "contents[0].parts[1]",
    ),
    (
        _gemini({"fileData": {"mimeType": "application/pdf", "fileUri": "gs://b/f.pdf"}}),
        "gemini",
        "contents[0].parts[1]",
    ),
    (
        {
            "model": "gpt-4o",
            "messages": [_HI],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "W", "schema": _SCHEMA},
            },
        },
        "openai-chat",
        "response_format",
    ),
    (
        {
            "model": "gpt-4o",
            "input": "Hi",
            "text": {"format": {"type": "json_schema", "name": "W", "schema": _SCHEMA}},
        },
        "openai-responses",
        "text.format",
    ),
]


@pytest.mark.parametrize(("body", "fmt", "part"), UNSEEN, ids=[u[2] + "-" + u[1] for u in UNSEEN])
def test_what_the_count_cannot_see_is_named_in_its_label(body, fmt, part):
    from standin.explained import explained

    counted = count_body(body, fmt)
    assert counted.estimate and part in counted.uncertain, counted.uncertain
    assert part in explained(counted)


BETAS = {"context_management": "context-management-2025-06-27"}


def test_the_local_provider_names_what_its_count_cannot_see(p):
    """The count header of the stand-in's reply carries the same label."""
    headers = {"x-api-key": KEY, "anthropic-version": "2023-06-01", "x-goog-api-key": KEY}
    for body, fmt, part in UNSEEN:
        if fmt not in ("anthropic", "gemini") or part == "output_format":
            continue  # the pinned SDK's types no longer take the beta output_format: a 400
        # a reply: its usage header is the count's (on the proxy's model: on Gemma 3 models a
        # responseSchema is seen, billed nothing: tests/helpers/test_gemini_tokenizer.py)
        url = p.endpoint(fmt, "gemini-3.8-flash")
        beta = BETAS.get(part)  # the beta header the SDK's beta types read the field with
        r = httpx.post(
            url, json=body, headers={**headers, **({"anthropic-beta": beta} if beta else {})}
        )
        label = r.headers.get("x-on-the-wire-input-count", "")
        assert r.status_code == 200 and part in label, (part, r.status_code, r.text[:200], label)
