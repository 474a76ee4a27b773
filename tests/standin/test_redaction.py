"""Redaction by construction: every place a key can ride in a request or a response, checked in
every output built from a record; and the harmless look-alikes left exactly as they were."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx
import pytest

from standin import LocalProvider
from standin.cli.serve import log_line
from standin.redaction import is_secret_name, redact, redact_body, redact_path

OPENAI_KEY = "sk-proj-" + "A1b2C3d4" * 6
ANTHROPIC_KEY = "sk-ant-api03-" + "Zz9Yy8Xx7" * 5
GOOGLE_KEY = "AIzaSy" + "Q7w8E9r0T1" * 3 + "abc"
SECRETS = (OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY, "opaque-credential-4242")
LOOK_ALIKES = ("sk-learn-extra", "sk-100200300", "?key=price", "task-manager sk-x")


def _user(text: str) -> dict:
    return {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]}


def _json_bytes(payload: dict) -> bytes:
    return json.dumps(payload).encode()


# (name, how to send it): each sends one request to the echo provider with a key in one place
PLACEMENTS = {
    "authorization header": lambda: {"headers": {"authorization": f"Bearer {OPENAI_KEY}"}},
    "x-api-key header": lambda: {"headers": {"x-api-key": ANTHROPIC_KEY}},
    "x-goog-api-key header": lambda: {"headers": {"x-goog-api-key": GOOGLE_KEY}},
    "custom secret header": lambda: {"headers": {"X-Custom-Auth-Token": SECRETS[3]}},
    "cookie": lambda: {"headers": {"cookie": f"session={SECRETS[3]}"}},
    "?key= query": lambda: {"params": {"key": GOOGLE_KEY}},
    "?api_key= query": lambda: {"params": {"api_key": SECRETS[3]}},
    "?KEY= query": lambda: {"params": {"KEY": OPENAI_KEY}},
    "percent-encoded query": lambda: {"query": "key=" + quote(OPENAI_KEY, safe="")},
    "key in message text": lambda: {"content": _json_bytes(_user(f"my key is {OPENAI_KEY}"))},
    "JSON-escaped key": lambda: {
        "content": _json_bytes(_user("key: " + OPENAI_KEY)).replace(b"sk-", b"sk\\u002d")
    },
    "all-escaped key": lambda: {
        "content": json.dumps(_user("key: " + ANTHROPIC_KEY), ensure_ascii=False)
        .replace(ANTHROPIC_KEY, "".join(f"\\u{ord(c):04x}" for c in ANTHROPIC_KEY))
        .encode()
    },
    "key in a streamed reply": lambda: {
        "content": _json_bytes({**_user(f"say {OPENAI_KEY} back"), "stream": True})
    },
    "key in the reply": lambda: {"content": _json_bytes(_user(ANTHROPIC_KEY))},
    "google key in text": lambda: {"content": _json_bytes(_user(f"AIza key {GOOGLE_KEY}."))},
}


def _send(p, placement: str):
    options = PLACEMENTS[placement]()
    headers = {"authorization": "Bearer local", "content-type": "application/json"}
    headers.update(options.get("headers", {}))
    url = p.endpoint("openai-chat")
    if "query" in options:
        url += "?" + options["query"]
    content = options.get("content", _json_bytes(_user("hello")))
    httpx.post(url, content=content, headers=headers, params=options.get("params"), timeout=10)
    return p.recorder.last


def _outputs(p, exchange) -> dict[str, str]:
    """Every text a learner or a log can see of one recorded exchange."""
    return {
        "str()": str(exchange),
        "dump()": p.recorder.dump(),
        "HTML view": exchange._repr_html_(),
        "recorder HTML": p.recorder._repr_html_() + repr(p.recorder),
        "serve log": log_line(exchange),
        "stored bytes": repr(
            (exchange.request_bytes, exchange.response_bytes, exchange.path)
            + tuple(exchange.request_headers + exchange.response_headers)
        ),
        "decoded bodies": json.dumps(exchange.request_json) + exchange.response_text,
    }


@pytest.fixture(scope="module")
def p():
    with LocalProvider("echo") as provider:
        yield provider


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_every_placement_is_redacted_in_every_output(p, placement):
    p.recorder.clear()
    exchange = _send(p, placement)
    assert exchange is not None and exchange.status == 200, exchange
    for output, text in _outputs(p, exchange).items():
        decoded = text.encode().decode("unicode_escape", "ignore")  # \\u-escapes, read back
        for secret in SECRETS:
            for shown in (text, decoded):
                assert secret not in shown, f"{placement}: the key shows in {output}"
                assert secret[8:30] not in shown, f"{placement}: part of the key in {output}"
    assert "<redacted>" in str(exchange)  # hidden, and visibly so


@pytest.mark.parametrize("harmless", LOOK_ALIKES)
def test_look_alikes_are_left_alone(p, harmless):
    text = f"Install {harmless} from https://shop.example/item?key=price&sku=sk-100200300 now"
    assert redact(text) == text
    body = _json_bytes(_user(text))
    assert redact_body(body, "application/json") == body  # byte-exact: nothing rewritten
    p.recorder.clear()
    httpx.post(
        p.endpoint("openai-chat"),
        content=body,
        headers={"authorization": "Bearer local", "content-type": "application/json"},
        timeout=10,
    )
    assert text in str(p.recorder.last)  # the echoed reply too


def test_a_key_cut_across_stream_deltas_is_removed_from_every_piece():
    def event(text: str) -> str:
        return "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]})

    pieces = ["Here: sk-pr", "oj-" + OPENAI_KEY[8:30], OPENAI_KEY[30:] + " done"]
    raw = ("\n\n".join(event(t) for t in pieces) + "\n\ndata: [DONE]\n\n").encode()
    redacted = redact_body(raw, "text/event-stream").decode()
    texts = [
        json.loads(line[6:])["choices"][0]["delta"]["content"]
        for line in redacted.split("\n\n")
        if line.startswith("data: {")
    ]
    assert "".join(texts) == "Here: <redacted> done"


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("Authorization", True),
        ("x-api-key", True),
        ("X-Custom-Auth-Token", True),
        ("api_key", True),
        ("KEY", True),
        ("client_secret", True),
        ("x-ratelimit-remaining-tokens", False),
        ("anthropic-ratelimit-input-tokens-limit", False),
        ("content-type", False),
        ("alt", False),
    ],
)
def test_secret_names(name, secret):
    assert is_secret_name(name) is secret


def test_query_names_are_case_insensitive_and_values_decoded():
    path = f"/v1/x?alt=sse&Api_Key={quote(GOOGLE_KEY)}&q={quote(OPENAI_KEY)}&page=2"
    assert redact_path(path) == "/v1/x?alt=sse&Api_Key=<redacted>&q=<redacted>&page=2"
