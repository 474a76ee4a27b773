"""The official SDKs pointed at the stand-in: what they put on the wire, how they retry,
what they build, and that their stream accumulation agrees with ours."""

from __future__ import annotations

import anthropic
import openai
import pytest

from helpers import sse
from helpers.formats import parse_response, render
from standin import RateLimited, ServerError
from tests.support.provider_support import KEY, body, model

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # model-age notices


@pytest.fixture
def oai(p):
    p.recorder.clear()
    with openai.OpenAI(base_url=p.base_url("openai"), api_key=KEY) as client:
        yield client


@pytest.fixture
def ant(p):
    p.recorder.clear()
    with anthropic.Anthropic(base_url=p.base_url("anthropic"), api_key=KEY) as client:
        yield client


def test_openai_headers_on_the_wire(p, oai):
    completion = oai.chat.completions.create(**body("openai-chat"))
    sent = p.recorder.last
    assert sent.method == "POST" and sent.path == "/v1/chat/completions"
    assert sent.header("authorization") == "Bearer <redacted>"
    assert sent.header("user-agent") == f"OpenAI/Python {openai.__version__}"
    assert sent.header("x-stainless-retry-count") == "0"
    assert sent.header("x-stainless-lang") == "python"
    assert sent.header("idempotency-key") is None
    assert completion._request_id == sent.header("x-request-id", response=True)
    call = completion.choices[0].message.tool_calls[0]
    assert type(call).__name__ == "ChatCompletionMessageFunctionToolCall"
    assert call.function.arguments == '{"query":"SO-48213"}'  # a JSON *string*


def test_anthropic_headers_on_the_wire(p, ant):
    message = ant.messages.create(**body("anthropic"))
    sent = p.recorder.last
    assert sent.path == "/v1/messages"
    assert sent.header("authorization") == "Bearer <redacted>"  # 2.14 sends Bearer, not x-api-key
    assert sent.header("anthropic-version")
    assert sent.header("x-stainless-retry-count") == "0"
    assert message._request_id == sent.header("request-id", response=True)
    assert [type(b).__name__ for b in message.content] == ["TextBlock", "ToolUseBlock"]
    assert message.content[1].input == {"query": "SO-48213"}  # a dict


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_retry_after_429_resends_the_same_body_with_a_new_count(p, sdk, oai, ant):
    p.inject(RateLimited(retry_after=0.01, retry_after_ms=10))
    if sdk == "openai":
        oai.chat.completions.create(**body("openai-chat"))
    else:
        ant.messages.create(**body("anthropic"))
    first, second = p.recorder.exchanges
    assert (first.status, second.status) == (429, 200)
    assert first.request_bytes == second.request_bytes
    assert [first.header("x-stainless-retry-count"), second.header("x-stainless-retry-count")] == [
        "0",
        "1",
    ]


def test_retries_give_up_after_max_retries(p, oai):
    p.inject(ServerError(500), times=2)
    client = oai.with_options(max_retries=1)
    with pytest.raises(openai.InternalServerError) as info:
        client.chat.completions.create(**body("openai-chat"))
    assert info.value.status_code == 500 and len(p.recorder) == 2
    assert "The server had an error" in str(info.value)


def test_a_rule_violation_raises_bad_request_with_the_providers_text(p, ant):
    from helpers.examples import sundry

    broken = sundry.ticket(model("anthropic"))
    del broken.messages[3]
    with pytest.raises(anthropic.BadRequestError) as info:
        ant.messages.create(**render(broken, "anthropic").body)
    assert info.value.status_code == 400 and len(p.recorder) == 1  # never retried
    assert info.value.body["error"]["type"] == "invalid_request_error"


def test_openai_chat_stream_sdk_and_our_assembler_agree(p, oai):
    with oai.chat.completions.stream(
        **body("openai-chat"), stream_options={"include_usage": True}
    ) as stream:
        kinds = {event.type for event in stream}
        final = stream.get_final_completion()
    assert "tool_calls.function.arguments.delta" in kinds
    sent = p.recorder.last
    assert sent.request_json["stream"] is True
    ours = sse.assemble(sent.response_bytes, "openai-chat")
    theirs = parse_response(final.model_dump(mode="json"), "openai-chat")
    assert ours.message == theirs.message
    assert ours.usage.input_tokens == final.usage.prompt_tokens


def test_openai_responses_stream_sdk_and_our_assembler_agree(p, oai):
    with oai.responses.stream(**body("openai-responses")) as stream:
        final = stream.get_final_response()
    ours = sse.assemble(p.recorder.last.response_bytes, "openai-responses")
    assert ours.message == parse_response(final.model_dump(mode="json"), "openai-responses").message
    assert final.output_text == "Let me look that order up."


def test_anthropic_stream_sdk_and_our_assembler_agree(p, ant):
    payload = {**body("anthropic"), "thinking": {"type": "enabled", "budget_tokens": 1024}}
    payload["max_tokens"] = 4096
    with ant.messages.stream(**payload) as stream:
        kinds = {event.type for event in stream}
        final = stream.get_final_message()
    assert {"thinking", "signature", "text", "input_json"} <= kinds
    ours = sse.assemble(p.recorder.last.response_bytes, "anthropic")
    assert ours.message == parse_response(final.model_dump(mode="json"), "anthropic").message
    assert final.content[0].type == "thinking" and final.content[0].signature
