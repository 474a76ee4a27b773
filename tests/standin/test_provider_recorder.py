"""standin.provider.recorder: readable HTTP dumps, secrets redacted wherever they appear."""

from __future__ import annotations

import anthropic
import httpx
import openai
import pytest

from standin import LocalProvider
from standin import server as provider_server
from standin.provider.recorder import Exchange, redact, redact_headers
from tests.support.provider_support import KEY, body, model, post

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
                  repr(p.recorder), exchange.request_bytes.decode(), exchange.path]  # fmt: skip
    everything += [v for _, v in exchange.request_headers]
    assert not any(SECRET in text for text in everything)
    assert exchange.header("authorization") == "Bearer <redacted>"


def test_dump_reads_like_http():
    with LocalProvider("sundry") as p:
        httpx.post(
            p.endpoint("anthropic"),
            json=body("anthropic"),
            headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
        )
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


# --- the exchange is recorded before the client can have the end of the stream -------------

STREAMS = ("openai-chat", "openai-responses", "anthropic", "gemini")


@pytest.mark.parametrize("fmt", STREAMS)
def test_a_stream_is_kept_before_its_first_byte_and_told_before_its_last_event(fmt, monkeypatch):
    """Every byte the server writes is tapped. The exchange is kept (``recorder.last``) before
    the first byte is written, since a client may stop reading at the stop reason, before the
    last event (LiteLLM does with Anthropic's); ``on_exchange`` (a record folder's files) hears
    of it before the last event is written, so both are there once any client has returned."""
    written = bytearray()
    at_record: list[bytes] = []
    at_told: list[bytes] = []

    class Tap:
        def __init__(self, wfile):
            self.wfile = wfile

        def write(self, data):
            written.extend(data)
            return self.wfile.write(data)

        def __getattr__(self, name):
            return getattr(self.wfile, name)

    real_setup = provider_server._Handler.setup

    def tapped_setup(handler):
        real_setup(handler)
        handler.wfile = Tap(handler.wfile)

    monkeypatch.setattr(provider_server._Handler, "setup", tapped_setup)
    with LocalProvider("sundry", on_exchange=lambda e: at_told.append(bytes(written))) as p:
        real_add = p.recorder.add
        p.recorder.add = lambda exchange: at_record.append(bytes(written)) or real_add(exchange)
        r = post(p, fmt, stream=True)
    assert r.status_code == 200 and len(at_record) == 1 and len(at_told) == 1
    events = [e for e in p.recorder.last.response_text.split("\n\n") if e.strip()]
    assert len(events) > 2 and written.endswith(b"0\r\n\r\n")
    assert at_record[0] == b""  # kept before a byte of the answer was written
    last_event = events[-1].encode()
    assert written.rfind(last_event) > 0  # the stream did end with that event...
    assert last_event not in at_told[0]  # ...written only after on_exchange was told
    assert events[-2].encode() in at_told[0]  # the rest was on its way already


def _streams_read_by_the_sdk(p, fmt: str, times: int):
    """Stream ``times`` answers the way a lesson reads them, one client for all; yields after
    each, as soon as the SDK has handed the answer over."""
    if fmt == "anthropic":
        client = anthropic.Anthropic(base_url=p.base_url(fmt), api_key=KEY, max_retries=0)
        start = client.messages.stream
    elif fmt.startswith("openai"):
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=KEY, max_retries=0)
        start = client.chat.completions.stream if fmt == "openai-chat" else client.responses.stream
    else:  # no Gemini SDK installed: its clients read until the stream ends
        client = httpx.Client(timeout=10)
        url = p.endpoint(fmt, model(fmt), stream=True)
    with client:
        for i in range(times):
            headers = {"x-probe": str(i)}
            if fmt == "gemini":
                auth = {"x-goog-api-key": KEY}
                r = client.post(url, json=body(fmt), headers={**auth, **headers})
                assert r.status_code == 200 and r.text.count("data: ") > 1
            else:
                with start(**body(fmt), extra_headers=headers) as stream:
                    assert len(list(stream)) > 2  # every event, as a lesson's loop reads them
            yield str(i)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("fmt", STREAMS)
def test_recorder_last_is_this_stream_right_after_the_sdk_finishes(fmt):
    """Streams back to back, each checked the moment the SDK hands its answer over:
    ``recorder.last`` is always the request just sent (lesson 07 and test_provider_sdk read it
    exactly so)."""
    with LocalProvider("sundry") as p:
        for count, probe in enumerate(_streams_read_by_the_sdk(p, fmt, 25), 1):
            assert p.recorder.last.header("x-probe") == probe and len(p.recorder) == count
