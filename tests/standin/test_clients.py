"""Real clients against the stand-in on a loopback socket: the official SDKs and agent frameworks.

Each test runs a client to the end with a tool of its own name (``get_weather``), streamed and
not, in every format it speaks; structured output comes back valid for its schema; a forced
tool choice is honoured. After each test, every body the client sent must pass the verdict
(``standin.verdict``) of its provider: the stand-in is only as good as the bodies it accepts.
The SDKs run with their default settings (google-genai 3.x calls ``/v1``; the anthropic tool
runner sends message threads). The frameworks are test dependencies (requirements-test.txt);
a missing one skips its tests.
"""

from __future__ import annotations

import json
import os

import openai
import pytest
from pydantic import BaseModel

from standin import LocalProvider
from standin.verdict import verdict

KEY = "sk-local-on-the-wire"
QUESTION = "What's the weather in Paris?"
ANSWER = "Sunny, 21 C in Paris"
CLAUDE, GPT, GEMINI = "claude-sonnet-4-5", "gpt-4o-mini", "gemini-2.5-flash"
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # no trace export to OpenAI


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return f"Sunny, 21 C in {city}"


class Weather(BaseModel):
    city: str
    temperature_c: int


@pytest.fixture(scope="module")
def p():
    with LocalProvider("general") as provider:
        yield provider


def needs(*modules: str):
    """The test runs only where these (test dependency) modules are installed."""

    def mark(test):
        test.needs = modules
        return test

    return mark


@pytest.fixture(autouse=True)
def every_body_passes_check(p, request):
    """After the test: each request it sent is one its provider accepts."""
    for module in getattr(request.function, "needs", ()):
        pytest.importorskip(module)
    start = len(p.exchanges)
    yield
    threads: dict[str, dict] = {}  # reply id -> the thread's history, rebuilt from the record
    sent = [e for e in p.exchanges[start:] if e.method == "POST"]
    assert sent, "the client sent nothing"
    refused_on_purpose = getattr(request.node, "refused_on_purpose", 0)
    refused = [e for e in sent if e.status == 400]
    assert len(refused) == refused_on_purpose, [e.response_bytes[:300] for e in refused]
    for exchange in (e for e in sent if e.status != 400):
        body = json.loads(exchange.request_bytes)
        assert exchange.status == 200, (exchange.path, exchange.response_bytes[:300])
        if "count_tokens" in exchange.path or ":countTokens" in exchange.path:
            continue
        # check takes the body as sent, thread continuations too (issue 35, item 3)
        beta = exchange.header("anthropic-beta") or ""
        betas = tuple(b.strip() for b in beta.split(",") if b.strip())
        as_sent = verdict(body, exchange.provider, format=exchange.provider, betas=betas)
        assert as_sent.accepted, (exchange.path, [v.message for v in as_sent.violations])
        body = _unthreaded(body, threads, exchange)
        result = verdict(body, exchange.provider, format=exchange.provider)
        assert result.accepted, (exchange.path, [v.message for v in result.violations])


def _unthreaded(body: dict, threads: dict, exchange) -> dict:
    """An Anthropic thread request as the model reads it: the stored turns in front."""
    thread = body.pop("thread", None)
    if thread is None:
        return body
    if thread["type"] == "continue":
        kept = threads[thread["previous_message_id"]]
        body = {**body, **kept, "messages": [*kept["messages"], *body["messages"]]}
    if exchange.response_bytes.startswith(b"{"):
        reply = json.loads(exchange.response_bytes)
        said = {"role": "assistant", "content": reply["content"]}
        kept = {k: body[k] for k in ("system", "tools") if k in body}
        threads[reply["id"]] = {**kept, "messages": [*body["messages"], said]}
    return body


# --- openai 3.x: Chat Completions and Responses --------------------------------------------------

CHAT_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


@pytest.fixture(scope="module")
def openai_client(p):
    from openai import OpenAI

    return OpenAI(base_url=p.base_url("openai"), api_key=KEY, max_retries=0)


def _chat(client, messages, stream: bool, **extra):
    if not stream:
        return client.chat.completions.create(model=GPT, messages=messages, **extra)
    usage = {"include_usage": True}
    with client.chat.completions.stream(
        model=GPT, messages=messages, stream_options=usage, **extra
    ) as events:
        for _ in events:
            pass
        return events.get_final_completion()


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_openai_chat_tool_round_trip(openai_client, stream, request):
    messages = [{"role": "user", "content": QUESTION}]
    first = _chat(openai_client, messages, stream, tools=[CHAT_TOOL])
    (call,) = first.choices[0].message.tool_calls
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Paris"}
    assert first.choices[0].finish_reason == "tool_calls"
    reply = first.choices[0].message.model_dump(exclude_none=True)
    if stream:  # the stream helper's calls carry their stream `index`, which the API refuses
        bad = [*messages, reply, {"role": "tool", "tool_call_id": call.id, "content": "sunny"}]
        with pytest.raises(
            openai.BadRequestError, match=r"'messages\[1\]\.tool_calls\[0\]\.index'"
        ):
            _chat(openai_client, bad, False, tools=[CHAT_TOOL])
        request.node.refused_on_purpose = 1
        reply["tool_calls"] = [
            {k: c[k] for k in ("id", "type", "function")} for c in reply["tool_calls"]
        ]
        reply["tool_calls"][0]["function"] = {
            k: reply["tool_calls"][0]["function"][k] for k in ("name", "arguments")
        }
    messages += [
        reply,
        {"role": "tool", "tool_call_id": call.id, "content": get_weather("Paris")},
    ]
    second = _chat(openai_client, messages, stream, tools=[CHAT_TOOL])
    assert ANSWER in second.choices[0].message.content
    assert second.usage.prompt_tokens > first.usage.prompt_tokens


def test_openai_chat_structured_output_and_forced_tool(openai_client):
    messages = [{"role": "user", "content": QUESTION}]
    parsed = openai_client.chat.completions.parse(
        model=GPT, messages=messages, response_format=Weather
    )
    assert parsed.choices[0].message.parsed.city == "Paris"
    lookup = {**CHAT_TOOL, "function": {**CHAT_TOOL["function"], "name": "lookup"}}
    forced = openai_client.chat.completions.create(
        model=GPT,
        messages=messages,
        tools=[CHAT_TOOL, lookup],
        tool_choice={"type": "function", "function": {"name": "lookup"}},
    )
    assert [c.function.name for c in forced.choices[0].message.tool_calls] == ["lookup"]


RESPONSES_TOOL = {"type": "function", **CHAT_TOOL["function"]}


def _respond(client, stream: bool, **body):
    if not stream:
        return client.responses.create(model=GPT, **body)
    with client.responses.stream(model=GPT, **body) as events:
        for _ in events:
            pass
        return events.get_final_response()


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_openai_responses_tool_round_trip(openai_client, stream):
    first = _respond(openai_client, stream, input=QUESTION, tools=[RESPONSES_TOOL], store=False)
    (call,) = [item for item in first.output if item.type == "function_call"]
    assert (call.name, json.loads(call.arguments)) == ("get_weather", {"city": "Paris"})
    history = [
        {"role": "user", "content": QUESTION},
        *[item.model_dump(exclude_none=True) for item in first.output],
        {"type": "function_call_output", "call_id": call.call_id, "output": ANSWER},
    ]
    second = _respond(openai_client, stream, input=history, tools=[RESPONSES_TOOL], store=False)
    assert ANSWER in second.output_text


def test_openai_responses_structured_forced_and_limited(openai_client):
    parsed = openai_client.responses.parse(model=GPT, input=QUESTION, text_format=Weather)
    assert parsed.output_parsed.city == "Paris"
    forced = openai_client.responses.create(
        model=GPT,
        input="Tell me a joke",
        tools=[RESPONSES_TOOL],
        tool_choice={"type": "function", "name": "get_weather"},
    )
    assert [i.name for i in forced.output if i.type == "function_call"] == ["get_weather"]
    cut = openai_client.responses.create(model=GPT, input=QUESTION, max_output_tokens=5)
    assert cut.status == "incomplete" and cut.incomplete_details.reason == "max_output_tokens"
    assert [m.id for m in openai_client.models.list()] and openai_client.models.retrieve(GPT)


# --- anthropic 2.x: Messages, its tool runner (message threads), count_tokens --------------------

ANTHROPIC_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather for a city.",
    "input_schema": CHAT_TOOL["function"]["parameters"],
}


@pytest.fixture(scope="module")
def anthropic_client(p):
    import anthropic

    return anthropic.Anthropic(base_url=p.base_url("anthropic"), api_key=KEY, max_retries=0)


def _message(client, stream: bool, **body):
    if not stream:
        return client.messages.create(model=CLAUDE, max_tokens=512, **body)
    with client.messages.stream(model=CLAUDE, max_tokens=512, **body) as events:
        return events.get_final_message()


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_anthropic_tool_round_trip(anthropic_client, stream):
    messages = [{"role": "user", "content": QUESTION}]
    first = _message(anthropic_client, stream, messages=messages, tools=[ANTHROPIC_TOOL])
    assert first.stop_reason == "tool_use"
    (call,) = [b for b in first.content if b.type == "tool_use"]
    assert (call.name, call.input) == ("get_weather", {"city": "Paris"})
    messages += [
        {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": call.id, "content": ANSWER}],
        },
    ]
    second = _message(anthropic_client, stream, messages=messages, tools=[ANTHROPIC_TOOL])
    assert ANSWER in second.content[0].text and second.stop_reason == "end_turn"
    counted = anthropic_client.messages.count_tokens(
        model=CLAUDE, messages=messages, tools=[ANTHROPIC_TOOL]
    )
    assert counted.input_tokens == second.usage.input_tokens


def test_anthropic_structured_forced_and_stop_sequence(anthropic_client):
    messages = [{"role": "user", "content": QUESTION}]
    parsed = anthropic_client.messages.parse(
        model=CLAUDE, max_tokens=256, messages=messages, output_format=Weather
    )
    assert parsed.parsed_output.city == "Paris"
    lookup = {**ANTHROPIC_TOOL, "name": "lookup"}
    forced = anthropic_client.messages.create(
        model=CLAUDE,
        max_tokens=256,
        messages=messages,
        tools=[ANTHROPIC_TOOL, lookup],
        tool_choice={"type": "tool", "name": "lookup"},
    )
    assert [b.name for b in forced.content if b.type == "tool_use"] == ["lookup"]
    stopped = anthropic_client.messages.create(
        model=CLAUDE, max_tokens=256, messages=messages, stop_sequences=["Paris"]
    )
    assert (stopped.stop_reason, stopped.stop_sequence) == ("stop_sequence", "Paris")


def test_anthropic_tool_runner_with_message_threads(p, anthropic_client):
    from anthropic import beta_tool

    start = len(p.exchanges)
    runner = anthropic_client.beta.messages.tool_runner(
        model=CLAUDE,
        max_tokens=256,
        tools=[beta_tool(get_weather)],
        messages=[{"role": "user", "content": QUESTION}],
    )
    last = list(runner)[-1]
    assert ANSWER in last.content[0].text
    bodies = [json.loads(e.request_bytes) for e in p.exchanges[start:]]
    assert [b["thread"]["type"] for b in bodies] == ["create", "continue"]
    assert "tools" not in bodies[1] and len(bodies[1]["messages"]) == 1  # only the new turn


# --- google-genai 3.x, default settings (api_version v1) -----------------------------------------


@pytest.fixture(scope="module")
def genai_client(p):
    genai = pytest.importorskip("google.genai")  # a module fixture: set up before the check
    from google.genai import types

    return genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=p.url))


@needs("google.genai")
def test_google_genai_automatic_function_calling_and_count(p, genai_client):
    from google.genai import types

    config = types.GenerateContentConfig(tools=[get_weather])
    start = len(p.exchanges)
    reply = genai_client.models.generate_content(model=GEMINI, contents=QUESTION, config=config)
    assert ANSWER in reply.text
    assert all(e.path.startswith("/v1/models/") for e in p.exchanges[start:])
    counted = genai_client.models.count_tokens(model=GEMINI, contents=QUESTION)
    assert counted.total_tokens > 0


@needs("google.genai")
def test_google_genai_streamed_forced_and_structured(genai_client):
    from google.genai import types

    declaration = types.FunctionDeclaration(
        name="get_weather",
        description="Get the current weather for a city.",
        parameters_json_schema=CHAT_TOOL["function"]["parameters"],
    )
    forced = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[declaration])],
        tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(
                mode="ANY", allowed_function_names=["get_weather"]
            )
        ),
    )
    chunks = list(
        genai_client.models.generate_content_stream(
            model=GEMINI, contents="Tell me a joke", config=forced
        )
    )
    calls = [c for chunk in chunks for c in chunk.function_calls or []]
    assert [(c.name, c.args) for c in calls] == [("get_weather", {"city": "example"})]
    structured = types.GenerateContentConfig(
        response_mime_type="application/json", response_schema=Weather
    )
    reply = genai_client.models.generate_content(model=GEMINI, contents=QUESTION, config=structured)
    assert Weather.model_validate_json(reply.text).city == "Paris"


# --- agent frameworks -------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("wire", ["openai", "anthropic"])
@needs("pydantic_ai")
def test_pydantic_ai_tool_round_trip(p, wire, stream):
    import asyncio

    from pydantic_ai import Agent

    if wire == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        model = AnthropicModel(CLAUDE, provider=AnthropicProvider(base_url=p.url, api_key=KEY))
    else:
        from pydantic_ai.models.openai import OpenAIChatModel
        from pydantic_ai.providers.openai import OpenAIProvider

        provider = OpenAIProvider(base_url=p.base_url("openai"), api_key=KEY)
        model = OpenAIChatModel(GPT, provider=provider)
    agent = Agent(model, tools=[get_weather])
    if not stream:
        assert ANSWER in agent.run_sync(QUESTION).output
        return

    async def streamed() -> str:
        async with agent.run_stream(QUESTION) as run:
            return await run.get_output()

    assert ANSWER in asyncio.run(streamed())
    bodies = [json.loads(e.request_bytes) for e in p.exchanges[-2:]]
    assert all(body.get("stream") is True for body in bodies)


@needs("pydantic_ai")
def test_pydantic_ai_structured_output_tool_and_native(p):
    from pydantic_ai import Agent, NativeOutput
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=p.base_url("openai"), api_key=KEY)
    model = OpenAIChatModel(GPT, provider=provider)
    by_tool = Agent(model, output_type=Weather, tools=[get_weather]).run_sync(QUESTION).output
    assert by_tool.city == "Paris"
    native = Agent(model, output_type=NativeOutput(Weather)).run_sync(QUESTION).output
    assert native.city == "Paris"


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("api", ["chat", "responses"])
@needs("agents")
def test_openai_agents_tool_round_trip(p, api, stream):
    import asyncio

    import agents
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=p.base_url("openai"), api_key=KEY, max_retries=0)
    cls = agents.OpenAIChatCompletionsModel if api == "chat" else agents.OpenAIResponsesModel
    agent = agents.Agent(
        name="weather",
        instructions="Answer briefly.",
        model=cls(model=GPT, openai_client=client),
        tools=[agents.function_tool(get_weather)],
    )
    if not stream:
        result = agents.Runner.run_sync(agent, QUESTION, max_turns=4)
        assert ANSWER in result.final_output
        return

    async def streamed() -> str:
        result = agents.Runner.run_streamed(agent, QUESTION, max_turns=4)
        async for _ in result.stream_events():
            pass
        return result.final_output

    assert ANSWER in asyncio.run(streamed())
    bodies = [json.loads(e.request_bytes) for e in p.exchanges[-2:]]
    assert all(body.get("stream") is True for body in bodies)


@needs("smolagents")
def test_smolagents_tool_calling_agent_ends_with_final_answer(p):
    import smolagents

    @smolagents.tool
    def get_weather_now(city: str) -> str:
        """Get the current weather for a city.

        Args:
            city: The city name.
        """
        return get_weather(city)

    model = smolagents.OpenAIModel(model_id=GPT, api_base=p.base_url("openai"), api_key=KEY)
    agent = smolagents.ToolCallingAgent(
        tools=[get_weather_now], model=model, max_steps=3, verbosity_level=0
    )
    start = len(p.exchanges)
    assert ANSWER in str(agent.run(QUESTION))
    assert len(p.exchanges) - start == 2  # the tool, then final_answer: no step limit reached
