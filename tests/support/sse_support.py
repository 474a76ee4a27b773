"""Shared by the test_sse_* modules: replies to stream, and the SDKs as an outside oracle.

``sdk_final(provider, raw)`` hands the same raw SSE bytes to the official SDK (through an
in-memory transport: no socket) and returns what the SDK's own stream accumulator builds, as a
plain dict in the provider's response shape.
"""

from __future__ import annotations

from pathlib import Path

from helpers.messages import Reasoning, Reply, Usage, assistant, tool_call

FIXTURES = Path(__file__).parent / "fixtures" / "sse"
TEXT = "Hi Maya, I've refunded $129.00 for order SO-48213; it reaches your card in 5 days."


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def text_reply() -> Reply:
    return Reply(assistant(TEXT), Usage(1200, 31), "end_turn", "m", "id-text")


def tools_reply(provider: str, think: bool = True) -> Reply:
    """Reasoning (where the provider shows it), narration and two parallel calls."""
    first = tool_call("call_a1", "search_code", {"pattern": r"Quote\(", "path": "internal"})
    second = tool_call("call_b2", "run_tests", {"packages": "./internal/orders/..."})
    blocks: list = []
    if think and provider == "anthropic":
        blocks.append(Reasoning("Who calls ShippingQuote? And a baseline.", "c2lnbg==", provider))
    if think and provider == "openai-responses":
        blocks.append(Reasoning("Who calls it?", "gAAAAAc2ln", "openai", id="rs_1"))
    if think and provider == "gemini":
        blocks.append(Reasoning("Who calls it?", None, "gemini"))
        first.signature = "Q2lRQg=="
    blocks += ["Two things at once.", first, second]
    usage = Usage(2000, 60, reasoning_tokens=9)
    return Reply(assistant(*blocks), usage, "tool_calls", "m", "id-tools")


def _transport(raw: bytes):
    import httpx2

    def handler(request):
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=raw)

    return httpx2.Client(transport=httpx2.MockTransport(handler))


def sdk_final(provider: str, raw: bytes) -> dict:
    """The SDK's own accumulated final object for ``raw``, dumped to a dict."""
    messages = [{"role": "user", "content": "hi"}]
    if provider == "anthropic":
        import anthropic

        http = _transport(raw)
        client = anthropic.Anthropic(
            api_key="sk-test", base_url="http://sdk.test", http_client=http
        )
        with client.messages.stream(model="m", max_tokens=99, messages=messages) as stream:
            return stream.get_final_message().model_dump(mode="json")
    import openai

    http = _transport(raw)
    client = openai.OpenAI(api_key="sk-test", base_url="http://sdk.test/v1", http_client=http)
    if provider == "openai-chat":
        with client.chat.completions.stream(model="m", messages=messages) as stream:
            return stream.get_final_completion().model_dump(mode="json")
    with client.responses.stream(model="m", input="hi") as stream:
        return stream.get_final_response().model_dump(mode="json")
