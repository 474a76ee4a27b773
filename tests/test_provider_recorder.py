"""helpers.provider.recorder: readable HTTP dumps, secrets redacted wherever they appear."""

from __future__ import annotations

import httpx
import pytest

from helpers.provider import LocalProvider
from helpers.provider.recorder import Exchange, redact, redact_headers
from tests.provider_support import body

SECRET = "sk-proj-Abc123SECRETxyz789"
GOOGLE = "AIzaSyA1234567890abcdefghijklmnop"


def test_redact_headers_keeps_the_scheme_and_hides_the_key():
    headers = [("Authorization", f"Bearer {SECRET}"), ("x-api-key", SECRET),
               ("x-goog-api-key", GOOGLE), ("content-type", "application/json")]  # fmt: skip
    assert redact_headers(headers) == [
        ("Authorization", "Bearer <redacted>"),
        ("x-api-key", "<redacted>"),
        ("x-goog-api-key", "<redacted>"),
        ("content-type", "application/json"),
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        (f'{{"api_key": "{SECRET}"}}', '{"api_key": "<redacted>"}'),
        (
            f"/v1beta/models/g:generateContent?key={GOOGLE}&alt=sse",
            "/v1beta/models/g:generateContent?key=<redacted>&alt=sse",
        ),
        ("task-manager sk-x", "task-manager sk-x"),  # not key-shaped: untouched
    ],
)
def test_redact_text(text, expected):
    assert redact(text) == expected


def test_a_recorded_exchange_never_holds_the_key():
    with LocalProvider("echo") as p:
        payload = {**body("openai-chat"), "user": SECRET}
        url = p.endpoint("openai-chat") + f"?key={SECRET}"
        r = httpx.post(url, json=payload, headers={"authorization": f"Bearer {SECRET}"})
        assert r.status_code == 200
        exchange = p.recorder.last
    everything = [str(exchange), repr(exchange), exchange._repr_html_(), p.recorder.dump(),
                  repr(p.recorder), exchange.request_body.decode(), exchange.path]  # fmt: skip
    everything += [v for _, v in exchange.request_headers]
    assert not any(SECRET in text for text in everything)
    assert exchange.header("authorization") == "Bearer <redacted>"


def test_dump_reads_like_http():
    with LocalProvider("sundry") as p:
        httpx.post(p.endpoint("anthropic"), json=body("anthropic"), headers={"x-api-key": "k"})
        text = str(p.recorder.last)
    request, response = text.split("\n\n--- response ---\n")
    assert request.startswith("POST /v1/messages HTTP/1.1\nHost: 127.0.0.1:")
    assert '\n\n{\n  "model": ' in request  # pretty JSON after a blank line
    assert response.startswith("HTTP/1.1 200 OK\nserver: on-the-wire-local/1.0\n")
    assert "content-length: " in response and '"stop_reason": "tool_use"' in response


def test_html_shows_request_and_response_side_by_side():
    json_type = [("content-type", "application/json")]
    exchange = Exchange("POST", "/v1/messages", json_type, b"{}", 200, json_type, b'{"ok": 1}')
    exchange.note = "streamed"
    html = exchange._repr_html_()
    assert "<th style='text-align:left'>request</th>" in html and "streamed" in html
    assert repr(exchange) == "<Exchange POST /v1/messages -> 200, streamed>"
