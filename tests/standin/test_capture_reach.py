"""Issue 35, item 5: ``capture()`` reaches every client in the process that talks to the
providers' hosts, fences the network for everything else, and an empty capture fails.

Real SDKs on a real loopback socket: a client built before the block, or given the provider's
real base URL, is routed to the stand-in (``standin.routing``) and its exchange keeps the URL it
meant. The suite blocks the network for the whole run (conftest.py); the tests of the fence lift
that block for the time of one capture, so what they see is the capture's own fence.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket

import anthropic
import httpx
import openai
import pytest

from standin import routing
from standin.capturing import NOTHING_CAPTURED, capture
from standin.netguard import NetworkBlockedError, block_network, is_blocking, unblock_network
from standin.server import LOCAL_KEY

pytest_plugins = ["pytester"]

HELLO = [{"role": "user", "content": "Hi, my order SO-48213 arrived cracked."}]
REAL_LOOKING = "sk-proj-" + "Q" * 40  # never sent anywhere: the routing swaps it out
GEMINI_BODY = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}
#: built at import time, long before any capture: it keeps api.openai.com as its base URL
MODULE_CLIENT = openai.OpenAI(api_key=REAL_LOOKING, max_retries=0)


@contextlib.contextmanager
def unfenced():
    """Lift the suite's own network block, so a capture's fence is the only one; put it back."""
    unblock_network()
    try:
        yield
    finally:
        block_network()


def test_a_client_built_before_the_block_and_one_with_a_real_base_url_are_captured():
    import httpx2

    assert str(MODULE_CLIENT.base_url) == "https://api.openai.com/v1/"
    explicit = anthropic.Anthropic(
        base_url="https://api.anthropic.com", api_key=REAL_LOOKING, max_retries=0
    )
    with capture() as seen:
        MODULE_CLIENT.chat.completions.create(model="gpt-4o-mini", messages=HELLO)
        explicit.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=HELLO)
        with MODULE_CLIENT.chat.completions.stream(model="gpt-4o-mini", messages=HELLO) as s:
            s.get_final_completion()
    assert [s.url for s in seen] == [
        "https://api.openai.com/v1/chat/completions",
        "https://api.anthropic.com/v1/messages",
        "https://api.openai.com/v1/chat/completions",
    ]
    assert [s.format for s in seen] == ["openai-chat", "anthropic", "openai-chat"]
    assert seen[1].line().startswith("#2 POST https://api.anthropic.com/v1/messages -> 200")
    seen.assert_all_accepted()
    assert httpx2.Client.send is routing._originals.get((httpx2.Client, "send"), httpx2.Client.send)
    assert routing.target() is None


def test_a_routed_request_carries_the_placeholder_key_and_the_url_it_meant():
    import httpx2

    with routing.routed("http://127.0.0.1:9"):
        for module in (httpx, httpx2):
            request = module.Request(
                "POST",
                "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?key=AIzaREAL&alt=sse",
                headers={"authorization": f"Bearer {REAL_LOOKING}", "x-goog-api-key": "AIzaREAL"},
            )
            routed = routing._httpx_request(request)
            assert str(routed.url) == (
                f"http://127.0.0.1:9/v1beta/models/m:generateContent?key={LOCAL_KEY}&alt=sse"
            )
            assert routed.headers["authorization"] == f"Bearer {LOCAL_KEY}"
            assert routed.headers["x-goog-api-key"] == LOCAL_KEY
            assert routed.headers["host"] == "127.0.0.1:9"
            meant = routed.headers[routing.ROUTED_FROM]
            assert meant.startswith("https://generativelanguage.googleapis.com/v1beta/models/m:")
            assert "AIzaREAL" not in str(routed.url) + str(routed.headers)
            other = routing._httpx_request(module.Request("GET", "https://example.com/x"))
            assert str(other.url) == "https://example.com/x"  # not a provider's: untouched


def test_requests_aiohttp_and_vertex_hosts_are_routed_too():
    import aiohttp
    import requests

    vertex = (
        "https://europe-west4-aiplatform.googleapis.com/v1/projects/p/locations/europe-west4"
        "/publishers/google/models/gemini-2.5-flash:generateContent"
    )

    async def with_aiohttp() -> int:
        async with aiohttp.ClientSession(headers={"x-goog-api-key": "AIzaREAL"}) as session:
            gemini = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash"
            async with session.post(gemini + ":generateContent", json=GEMINI_BODY) as r:
                return r.status

    with capture() as seen:
        gemini = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash"
        r = requests.post(gemini + ":generateContent?key=AIzaREAL", json=GEMINI_BODY, timeout=10)
        assert r.status_code == 200, r.text
        assert asyncio.run(with_aiohttp()) == 200
        r = httpx.post(vertex, json=GEMINI_BODY, headers={"authorization": "Bearer ya29.x"})
        assert r.status_code == 200, r.text
    assert [s.url.split("?")[0] for s in seen] == [
        gemini + ":generateContent",
        gemini + ":generateContent",
        vertex,
    ]
    assert all(s.format == "gemini" for s in seen)
    seen.assert_all_accepted()


@pytest.mark.parametrize(
    ("path", "version"),
    [
        ("/v1beta/models/m:generateContent", "v1beta"),
        ("/v1/projects/p/locations/l/publishers/google/models/m:generateContent", "v1"),
        ("/v1beta1/projects/p/locations/l/publishers/google/models/m:countTokens", "v1beta1"),
        ("/v1beta1/publishers/google/models/m:streamGenerateContent", "v1beta1"),  # express
        ("/v1beta1/models/m:generateContent", None),  # v1beta1 is Vertex AI's only
        ("/v1beta/publishers/google/models/m:generateContent", None),  # v1beta the API's only
    ],
)
def test_vertex_ai_paths_are_served_and_others_are_not(path, version):
    from standin.provider.routes import find_route

    route = find_route(path)
    assert (route and route.version) == version
    assert route is None or (route.provider, route.model) == ("gemini", "m")


@pytest.mark.filterwarnings("ignore:Inheritance class AiohttpClientSession:DeprecationWarning")
def test_a_google_genai_client_built_before_the_block_is_captured_sync_and_async():
    from google import genai

    client = genai.Client(api_key="AIza" + "Q" * 35)  # the real Gemini API's URL
    with capture() as seen:
        assert client.models.generate_content(model="gemini-2.5-flash", contents="Hi").text

        async def asynchronous() -> None:  # google-genai's aio client (aiohttp when installed)
            await client.aio.models.generate_content(model="gemini-2.5-flash", contents="Hi")
            stream = client.aio.models.generate_content_stream
            async for _ in await stream(model="gemini-2.5-flash", contents="Hi"):
                pass

        asyncio.run(asynchronous())
    urls = [s.url for s in seen]
    gemini = "https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash"
    assert urls == [
        gemini + ":generateContent",
        gemini + ":generateContent",
        gemini + ":streamGenerateContent?alt=sse",
    ]
    seen.assert_all_accepted()


def test_google_genai_s_vertex_client_is_routed_and_answered():
    from google import genai

    with capture() as seen:
        client = genai.Client(vertexai=True, api_key="AQ.placeholder")  # express mode
        reply = client.models.generate_content(model="gemini-2.5-flash", contents="Hi")
        assert reply.text
    (only,) = seen
    assert only.url.startswith("https://aiplatform.googleapis.com/v1beta1/publishers/google/")
    seen.assert_all_accepted()


def test_the_fence_names_the_host_and_everything_is_restored_after():
    os.environ["HTTPS_PROXY"] = "http://127.0.0.1:3128"
    try:
        with unfenced():
            sends = (httpx.Client.send, httpx.AsyncClient.send)
            with capture() as seen:
                assert is_blocking()
                assert "HTTPS_PROXY" not in os.environ  # a local proxy would carry it out
                with pytest.raises(httpx.ConnectError, match="example.com.*capture"):
                    httpx.get("https://example.com/")
                with pytest.raises(NetworkBlockedError, match=r"93\.184\.215\.14.*capture"):
                    socket.create_connection(("93.184.215.14", 443), timeout=1)
                client = openai.OpenAI(base_url="https://gateway.example/v1", api_key="x")
                with pytest.raises(openai.APIConnectionError) as caught:
                    client.with_options(max_retries=0).models.list()
                assert "gateway.example" in str(caught.value.__cause__)
                assert len(seen) == 0
            assert not is_blocking()
            assert (httpx.Client.send, httpx.AsyncClient.send) == sends
            assert os.environ["HTTPS_PROXY"] == "http://127.0.0.1:3128"
    finally:
        os.environ.pop("HTTPS_PROXY", None)  # block_network() cleared it again
    assert is_blocking()  # the suite's own block is back


def test_an_error_inside_the_block_restores_everything():
    saved = os.environ.get("OPENAI_BASE_URL")
    with unfenced():
        with pytest.raises(RuntimeError, match="boom"), capture():
            raise RuntimeError("boom")
        assert not is_blocking()
    assert os.environ.get("OPENAI_BASE_URL") == saved
    assert routing.target() is None


def test_nested_captures_stack_and_the_outer_one_gets_its_requests_back():
    with capture() as outer:
        MODULE_CLIENT.models.list()
        with capture() as inner:
            MODULE_CLIENT.chat.completions.create(model="gpt-4o-mini", messages=HELLO)
            assert os.environ["OPENAI_BASE_URL"] == inner.provider.url + "/v1"
        assert os.environ["OPENAI_BASE_URL"] == outer.provider.url + "/v1"
        MODULE_CLIENT.chat.completions.create(model="gpt-4o-mini", messages=HELLO)
    assert [s.url for s in outer] == [
        "https://api.openai.com/v1/models",
        "https://api.openai.com/v1/chat/completions",
    ]
    assert [s.url for s in inner] == ["https://api.openai.com/v1/chat/completions"]
    assert routing.target() is None


def test_two_captures_in_two_threads_may_end_in_any_order():
    """Routing is per process: the newer capture gets the requests while it is open; ending
    out of order leaves the other one working, and the last one out restores everything."""
    import threading

    saved = os.environ.get("OPENAI_BASE_URL")
    first_open, second_open, first_done = threading.Event(), threading.Event(), threading.Event()
    found: dict[str, object] = {}

    def first() -> None:
        with capture() as seen:
            found["first"] = seen
            first_open.set()
            second_open.wait(10)
        first_done.set()  # ends while the second one is still open

    thread = threading.Thread(target=first)
    thread.start()
    first_open.wait(10)
    with capture() as second:
        second_open.set()
        first_done.wait(10)
        assert os.environ["OPENAI_BASE_URL"] == second.provider.url + "/v1"
        MODULE_CLIENT.chat.completions.create(model="gpt-4o-mini", messages=HELLO)
    thread.join(10)
    assert len(second) == 1 and len(found["first"]) == 0
    assert os.environ.get("OPENAI_BASE_URL") == saved
    assert routing.target() is None


def test_an_empty_capture_fails_its_assertion_saying_why():
    with capture() as seen:
        pass
    with pytest.raises(AssertionError) as caught:
        seen.assert_all_accepted()
    assert str(caught.value) == NOTHING_CAPTURED
    for reason in ("another process", "another host", "before the block", "serve"):
        assert reason in NOTHING_CAPTURED


FIXTURE_TESTS = """
import openai

CLIENT = openai.OpenAI(api_key="sk-placeholder-built-at-import", max_retries=0)

def test_a_client_built_at_import_time(on_the_wire):
    CLIENT.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}]
    )
    on_the_wire.assert_all_accepted()
    assert on_the_wire[0].url == "https://api.openai.com/v1/chat/completions"

def test_nothing_sent(on_the_wire):
    on_the_wire.assert_all_accepted()
"""


def test_the_fixture_captures_a_client_built_at_import_time(pytester):
    pytester.makepyfile(test_agent=FIXTURE_TESTS)
    result = pytester.runpytest_inprocess("-p", "no:on_the_wire", "-p", "standin.pytest_plugin")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*no request was captured*"])
