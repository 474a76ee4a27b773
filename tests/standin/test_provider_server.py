"""standin.server: loopback only, clean start/stop, bad clients survived."""

from __future__ import annotations

import json
import socket
import threading

import httpx
import pytest

from standin import LocalProvider
from tests.support.provider_support import KEY, PROVIDERS, VERSION, body, model, post


@pytest.fixture(scope="module")
def p():
    with LocalProvider("sundry", max_body_bytes=200_000) as provider:
        yield provider


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", ""])
def test_refuses_any_host_but_loopback(host):
    with pytest.raises(ValueError, match="127.0.0.1 only"):
        LocalProvider(host=host)


def test_binds_loopback_on_a_free_port_and_releases_it():
    provider = LocalProvider().start()
    host, port = provider._server.server_address
    assert host == "127.0.0.1" and port > 0
    assert provider.url == f"http://127.0.0.1:{port}"
    assert repr(provider) == f"<LocalProvider {provider.url} scenario='sundry', 0 exchanges>"
    assert provider._thread.daemon
    provider.stop()
    provider.stop()  # twice is fine
    assert "stopped" in repr(provider)
    with socket.socket() as s:  # the port is free again
        s.bind(("127.0.0.1", port))
    again = LocalProvider(port=port).start()
    assert again.port == port
    again.stop()


def test_stop_closes_keep_alive_connections():
    provider = LocalProvider().start()
    url, headers = (
        provider.endpoint("anthropic"),
        {"x-api-key": KEY, "anthropic-version": "2023-06-01"},
    )
    with httpx.Client() as client:
        assert client.post(url, json=body("anthropic"), headers=headers).status_code == 200
        provider.stop()
        assert not provider._thread.is_alive()
        with pytest.raises(httpx.TransportError):
            client.post(url, json=body("anthropic"), headers=headers)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_endpoint_answers_and_streams(p, provider):
    whole = post(p, provider)
    assert whole.status_code == 200, whole.text
    streamed = post(p, provider, stream=True)
    assert streamed.status_code == 200
    assert streamed.headers["content-type"].startswith("text/event-stream")
    assert streamed.headers.get("transfer-encoding") == "chunked"


@pytest.mark.parametrize(
    "provider, path, status, wording",
    [
        ("openai-chat", "/v1/chat/complete", 404, "Invalid URL (POST /v1/chat/complete)"),
        ("anthropic", "/v1/messages/nope", 404, "Not found"),
        ("gemini", "/v1beta/models/x:nope", 404, "Not found"),
    ],
)
def test_unknown_path_is_a_404_in_the_providers_style(p, provider, path, status, wording):
    r = httpx.post(p.url + path, json={}, headers={"authorization": f"Bearer {KEY}"})
    assert r.status_code == status and wording in r.text
    if provider == "anthropic":
        assert r.json()["type"] == "error" and r.json()["error"]["type"] == "not_found_error"
    if provider == "gemini":
        assert r.json()["error"]["status"] == "NOT_FOUND"
    assert post(p, "openai-chat").status_code == 200  # still serving


def test_get_on_an_endpoint_is_405(p):
    r = httpx.get(p.endpoint("openai-chat"), headers={"authorization": f"Bearer {KEY}"})
    assert r.status_code == 405 and r.json()["error"]["type"] == "invalid_request_error"


def test_malformed_json_gets_the_real_openai_text(p):
    headers = {"authorization": f"Bearer {KEY}", "content-type": "application/json"}
    r = httpx.post(p.endpoint("openai-chat"), content=b'{"model": ', headers=headers)
    assert r.status_code == 400
    assert r.json()["error"]["message"].startswith("We could not parse the JSON body")
    assert post(p, "openai-chat").status_code == 200


def test_wrong_content_type_is_a_400(p):
    headers = {"x-api-key": KEY, "anthropic-version": "2023-06-01", "content-type": "text/plain"}
    r = httpx.post(p.endpoint("anthropic"), content=json.dumps(body("anthropic")), headers=headers)
    assert r.status_code == 400 and "content type" in r.json()["error"]["message"]


def test_oversized_body_is_a_413_and_the_server_keeps_serving(p):
    huge = {**body("anthropic"), "metadata": {"pad": "x" * 300_000}}
    r = httpx.post(
        p.endpoint("anthropic"),
        json=huge,
        headers={"x-api-key": KEY, "anthropic-version": "2023-06-01"},
    )
    assert r.status_code == 413
    assert r.json()["error"]["type"] == "request_too_large"
    assert post(p, "anthropic").status_code == 200


def test_missing_key_is_a_401(p):
    r = httpx.post(p.endpoint("openai-chat"), json=body("openai-chat"))
    assert r.status_code == 401 and r.json()["error"]["code"] is None
    assert r.json()["error"]["message"].startswith("You didn't provide an API key.")
    for wrong in (
        {"x-api-key": KEY, "anthropic-version": "2023-06-01"},
        {"authorization": ""},
        {"authorization": "Bearer"},
    ):
        r = httpx.post(p.endpoint("openai-chat"), json=body("openai-chat"), headers=wrong)
        assert r.status_code == 401, wrong
    r = httpx.post(p.endpoint("anthropic"), json=body("anthropic"), headers={"x-api-key": ""})
    assert r.status_code == 401 and r.json()["error"] == {
        "type": "authentication_error",
        "message": "x-api-key header is required",
    }
    r = httpx.post(p.endpoint("gemini", model("gemini")), json=body("gemini"))
    assert r.status_code == 403 and r.json()["error"]["status"] == "PERMISSION_DENIED"
    url = p.endpoint("gemini", model("gemini")) + "?key=" + KEY
    assert httpx.post(url, json=body("gemini")).status_code == 200  # the key in the query


def test_client_disconnecting_mid_stream_is_recorded_and_harmless(p):
    url = p.endpoint("anthropic")
    payload = {**body("anthropic"), "stream": True}
    with (
        httpx.Client() as client,
        client.stream(
            "POST", url, json=payload, headers={"x-api-key": KEY, "anthropic-version": "2023-06-01"}
        ) as r,
    ):
        next(r.iter_bytes(50))
    # the server notices on its next write, records it, and keeps serving
    assert post(p, "anthropic").status_code == 200


def test_two_concurrent_clients(p):
    results: dict[str, int] = {}

    def run(provider):
        with httpx.Client() as client:
            for _ in range(3):
                headers = {"authorization": f"Bearer {KEY}", **VERSION.get(provider, {})}
                r = client.post(p.endpoint(provider), json=body(provider), headers=headers)
                results[provider] = r.status_code

    threads = [threading.Thread(target=run, args=(name,)) for name in ("anthropic", "openai-chat")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert results == {"anthropic": 200, "openai-chat": 200}
