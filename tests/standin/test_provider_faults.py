"""standin.provider.faults: 429, 5xx, slow answers and cut streams, as a client sees them."""

from __future__ import annotations

import httpx
import pytest

from helpers import sse
from standin import CutStream, LocalProvider, RateLimited, ServerError, Slow
from standin.provider.faults import FaultQueue, make
from tests.support.provider_support import KEY, body, model, post


@pytest.fixture
def p():
    with LocalProvider("sundry") as provider:
        yield provider


def test_queue_counts_down_in_order():
    queue = FaultQueue()
    queue.add("rate_limit", times=2)
    queue.add(ServerError(503))
    assert [queue.take(), queue.take(), queue.take(), queue.take()] == [
        RateLimited(), RateLimited(), ServerError(503), None,
    ]  # fmt: skip
    assert make("overloaded") == ServerError(529)
    with pytest.raises(ValueError, match="unknown fault 'boom'"):
        make("boom")


def test_rate_limit_then_success(p):
    p.inject(RateLimited(retry_after=2, retry_after_ms=1500))
    first = post(p, "anthropic")
    assert first.status_code == 429
    assert first.headers["retry-after"] == "2" and first.headers["retry-after-ms"] == "1500"
    assert first.json()["error"]["type"] == "rate_limit_error"
    assert post(p, "anthropic").status_code == 200
    assert p.recorder[0].note.startswith("fault: RateLimited(")


@pytest.mark.parametrize(
    "provider, status, field",
    [("openai-chat", 500, "server_error"), ("anthropic", 529, "overloaded_error"),
     ("gemini", 500, "INTERNAL")],
)  # fmt: skip
def test_server_errors_in_the_providers_envelope(p, provider, status, field):
    p.inject(ServerError(status))
    r = post(p, provider)
    assert r.status_code == status and field in r.text


def test_slow_response_trips_a_client_timeout(p):
    p.inject(Slow(0.5))
    with pytest.raises(httpx.ReadTimeout):
        post(p, "openai-chat", timeout=0.1)


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "openai-responses", "gemini"])
def test_cut_stream_leaves_an_incomplete_body(p, provider):
    p.inject(CutStream(after=2))
    url = p.endpoint(provider, model(provider), stream=True)
    payload = body(provider) if provider == "gemini" else {**body(provider), "stream": True}
    received = b""
    headers = {
        "authorization": f"Bearer {KEY}",
        "x-api-key": KEY,
        "anthropic-version": "2023-06-01",
        "x-goog-api-key": KEY,
    }
    with (
        httpx.Client() as client,
        pytest.raises(httpx.RemoteProtocolError),
        client.stream("POST", url, json=payload, headers=headers) as r,
    ):
        for chunk in r.iter_bytes():
            received += chunk
    assert len(sse.events(received)) == 2
    with pytest.raises(sse.StreamError):
        sse.accumulate(received, provider)
    assert "stream cut after 2 of" in p.recorder.last.note
    assert post(p, provider).status_code == 200


def test_cut_plain_response(p):
    p.inject(CutStream())
    with pytest.raises(httpx.RemoteProtocolError):
        post(p, "openai-chat")
