"""The general scripted model: values valid for any schema it claims, the tool rule, the wire.

Property tests (hypothesis) check every generated value with ``jsonschema``; the rule is checked
on neutral turns; the wire (stop reasons, structured output, threads, count and model routes)
through ``routes.answer``, without a socket (the SDKs on a socket: tests/standin/test_clients.py).
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.messages import Message, Request, Text, Tool, ToolCall, ToolResult
from standin.provider import general, routes, state
from standin.provider import schema_values as sv
from standin.provider.turn import Turn
from standin.provider.wire_options import Options, read

FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def valid(schema, value) -> None:
    jsonschema.Draft202012Validator(schema, format_checker=FORMAT_CHECKER).validate(value)


# --- schemas the generator claims to support (sv.SUPPORTED), built satisfiable ----------------

NAMES = st.sampled_from(["city", "query", "count", "unit", "a", "b", "items", "id", "date", "x_y"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-50, 50),
    st.text(max_size=5),
    st.floats(-10, 10, allow_nan=False).map(lambda f: round(f, 2)),
)
FORMATS = ["date", "date-time", "time", "email", "uri", "uuid", "ipv4", "ipv6", "hostname"]
STEPS = [1, 2, 3, 5, 10, 0.5, 0.25, 0.1, 0.01, 0.2]


@st.composite
def string_schemas(draw, wide: bool = False):
    s: dict = {"type": "string"}
    if draw(st.booleans()):
        s["format"] = draw(st.sampled_from(FORMATS))
    else:
        lo = draw(st.integers(0, 12))
        if draw(st.booleans()):
            s["minLength"] = lo
        if draw(st.booleans()):
            s["maxLength"] = lo + draw(st.integers(3 if wide else 0, 12))
    if not wide and draw(st.booleans()):  # a pattern met through its default (one value)
        s["pattern"] = "^[A-Z]{2}-[0-9]+$"
        s["default"] = "AB-12"
        s.pop("format", None)
        s.pop("minLength", None)
        s.pop("maxLength", None)
    return s


@st.composite
def number_schemas(draw, wide: bool = False):
    integer = draw(st.booleans())
    s: dict = {"type": "integer" if integer else "number"}
    step = draw(st.none() | st.sampled_from(STEPS))
    if integer and isinstance(step, float):
        step = draw(st.sampled_from([0.5, 0.25, 2.5]))  # integer multiples exist
    width = 2 * (int(step) + 1 if step else 1) + (10 if wide else 0) + draw(st.integers(0, 20))
    lo = draw(
        st.integers(-100, 100) | st.floats(-100, 100, allow_nan=False).map(lambda f: round(f, 3))
    )
    hi = lo + width
    if draw(st.booleans()):
        key = "exclusiveMinimum" if draw(st.booleans()) else "minimum"
        s[key] = lo
    if draw(st.booleans()):
        key = "exclusiveMaximum" if draw(st.booleans()) else "maximum"
        s[key] = hi if ("minimum" in s or "exclusiveMinimum" in s) else draw(st.integers(-100, 100))
    if step is not None:
        s["multipleOf"] = step
    return s


def leaf_schemas(wide: bool = False):
    return st.one_of(
        string_schemas(wide),
        number_schemas(wide),
        st.just({"type": "boolean"}) if not wide else string_schemas(True),
        st.just({"type": "null"}) if not wide else number_schemas(True),
        st.lists(SCALARS, min_size=1, max_size=4, unique_by=lambda v: json.dumps(v)).map(
            lambda e: {"enum": e}
        ),
        SCALARS.map(lambda c: {"const": c}),
        st.just({}),
        st.just({"type": ["string", "null"]}),
        st.just({"type": "string", "examples": ["Paris"]}),
    )


def object_of(children):
    @st.composite
    def build(draw):
        props = draw(st.dictionaries(NAMES, children, max_size=4))
        s: dict = {"type": "object", "properties": props}
        if props:
            s["required"] = draw(st.lists(st.sampled_from(sorted(props)), unique=True))
        if draw(st.booleans()):
            s["additionalProperties"] = False
        if props and draw(st.booleans()):
            s["minProperties"] = draw(st.integers(0, len(props)))
        return s

    return build()


def array_of(children):
    @st.composite
    def build(draw):
        unique = draw(st.booleans())
        item = draw(leaf_schemas(wide=True) if unique else children)
        lo = draw(st.integers(0, 3))
        s = {"type": "array", "items": item, "minItems": lo}
        if draw(st.booleans()):
            s["maxItems"] = lo + draw(st.integers(0, 3))
        if unique:
            s["uniqueItems"] = True
            if "enum" in item:  # distinct members are needed for minItems
                s["minItems"] = min(lo, len(item["enum"]))
                s["maxItems"] = max(s.get("maxItems", 0), s["minItems"])
            if "const" in item or item.get("type") in ("null", "boolean"):
                s["minItems"] = min(lo, 1)
                s.pop("maxItems", None)
            if item.get("format") in ("date", "time", "date-time"):
                s["minItems"] = min(lo, 2)
        return s

    return build()


@st.composite
def one_of_types(draw, children):
    """oneOf over branches of different JSON types (so exactly one branch can match)."""
    pool = [
        {"type": "string", "minLength": 1},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "integer", "minimum": 0},
        {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
        {"type": "array", "items": {"type": "integer"}},
    ]
    branches = draw(
        st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique_by=lambda b: b["type"])
    )
    return {"oneOf": branches}


def schemas():
    return st.recursive(
        leaf_schemas(),
        lambda children: st.one_of(
            object_of(children),
            array_of(children),
            st.lists(children, min_size=1, max_size=3).map(lambda b: {"anyOf": b}),
            one_of_types(children),
            st.tuples(object_of(children), object_of(children)).map(_disjoint_all_of),
        ),
        max_leaves=12,
    )


def _disjoint_all_of(pair):
    a, b = pair
    b = {
        **b,
        "properties": {k + "_2": v for k, v in b["properties"].items()},
        "required": [k + "_2" for k in b.get("required", [])],
    }
    a, b = dict(a), dict(b)
    a.pop("additionalProperties", None)  # additionalProperties:false in allOf excludes the other's
    b.pop("additionalProperties", None)
    a.pop("minProperties", None)
    b.pop("minProperties", None)
    return {"allOf": [a, b]}


def with_refs(schema):
    """The same schema with every object property moved to $defs and referenced."""
    defs: dict = {}

    def walk(s, path):
        if isinstance(s, dict) and isinstance(s.get("properties"), dict):
            for name, sub in list(s["properties"].items()):
                key = f"{path}_{name}".strip("_")
                defs[key] = walk(sub, key)
                s["properties"][name] = {"$ref": f"#/$defs/{key}"}
        return s

    root = walk(json.loads(json.dumps(schema)), "")
    return {**root, "$defs": defs} if isinstance(root, dict) else root


@QUICK
@given(schemas())
def test_generated_values_validate(schema):
    value = sv.generate(schema)
    valid(schema, value)
    assert sv.generate(schema) == value  # deterministic


@QUICK
@given(schemas())
def test_with_refs_validate(schema):
    schema = with_refs(schema)
    valid(schema, sv.generate(schema))


@QUICK
@given(object_of(schemas()))
def test_tool_arguments_validate(parameters):
    args = sv.object_value(parameters)
    assert isinstance(args, dict)
    valid(parameters, args)


@QUICK
@given(object_of(schemas()), st.text(max_size=80))
def test_hints_from_any_text_never_break_validity(parameters, text):
    hint = general.hints_from(text, [json.dumps({"city": text, "count": len(text)})], answer=text)
    valid(parameters, sv.object_value(parameters, hint))


def test_pydantic_models_round_trip():
    pydantic = pytest.importorskip("pydantic")
    import datetime
    import enum
    import uuid
    from typing import Literal

    class Unit(enum.Enum):
        C = "celsius"
        F = "fahrenheit"

    class Address(pydantic.BaseModel):
        street: str = pydantic.Field(min_length=3, max_length=40)
        zip: str = pydantic.Field(pattern=r"^[0-9]{5}$", examples=["75001"])

    class Node(pydantic.BaseModel):
        name: str
        children: list[Node] = []

    class Order(pydantic.BaseModel):
        order_id: uuid.UUID
        placed: datetime.date
        at: datetime.datetime
        unit: Unit
        kind: Literal["a", "b"]
        qty: int = pydantic.Field(ge=1, le=9, multiple_of=3)
        price: float = pydantic.Field(gt=0, lt=1000)
        ratio: float = pydantic.Field(ge=0, le=1, multiple_of=0.05)
        address: Address
        lines: list[Address] = pydantic.Field(min_length=2)
        note: str | None = None
        tags: set[str] = set()
        tree: Node
        either: int | str

    schema = Order.model_json_schema()
    value = sv.generate(schema)
    valid(schema, value)
    Order.model_validate(value)  # pydantic agrees too


def test_openai_strict_schema_and_gemini_upper_case():
    strict = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "temperature_c": {"type": "number"},
            "conditions": {"type": "array", "items": {"type": "string", "enum": ["sun", "rain"]}},
            "wind": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        },
        "required": ["city", "temperature_c", "conditions", "wind"],
        "additionalProperties": False,
    }
    hint = general.hints_from("What's the weather in Paris?", ['{"temperature_c": 21.5}'])
    value = sv.generate(strict, hint)
    valid(strict, value)
    assert value["city"] == "Paris" and value["temperature_c"] == 21.5

    gemini = {
        "type": "OBJECT",
        "properties": {"n": {"type": "INTEGER", "minimum": 3}},
        "required": ["n"],
        "propertyOrdering": ["n"],
    }
    assert sv.generate(gemini) == {"n": 3}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "number", "multipleOf": 0.1, "minimum": 0.25},  # 0.30000000000000004 trap
        {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.001},
        {"type": "integer", "exclusiveMinimum": 4.5, "maximum": 5},
        {"type": "integer", "multipleOf": 2.5, "minimum": 1},
        {"type": "number", "minimum": 5, "exclusiveMinimum": True},  # draft 4 boolean form
        {"type": "string", "minLength": 50},
        {"type": "string", "format": "email", "minLength": 30},
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 3},
            "minItems": 4,
            "uniqueItems": True,
        },
        {"type": "object", "required": ["x"], "patternProperties": {"^x$": {"type": "integer"}}},
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "dependentRequired": {"a": ["b"]},
            "required": ["a"],
        },
        {"$ref": "#/$defs/n", "$defs": {"n": {"type": "integer", "minimum": 7}}},
        {"allOf": [{"type": "integer", "minimum": 3}, {"maximum": 4, "multipleOf": 2}]},
        {
            "type": "array",
            "prefixItems": [{"type": "string"}, {"type": "integer"}],
            "items": False,
            "minItems": 2,
        },
    ],
)
def test_edge_cases(schema):
    valid(schema, sv.generate(schema))


def test_unsatisfiable_is_reported_not_faked():
    with pytest.raises(sv.Unsatisfiable):
        sv.generate({"type": "integer", "minimum": 3, "maximum": 2})
    with pytest.raises(sv.Unsatisfiable):
        sv.generate({"type": "string", "pattern": "^[0-9]{7}$"})  # no hint/default/example


# --- the rule, on neutral turns ----------------------------------------------------------------

WEATHER = Tool(
    "get_weather",
    "Get the current weather for a city.",
    {
        "type": "object",
        "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}},
        "required": ["city"],
    },
)
TIME = Tool(
    "getLocalTime",
    "The local time in a time zone.",
    {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
)
FINAL = Tool(
    "final_answer",
    "Provides a final answer to the given problem.",
    {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]},
)


def turn(text: str, tools=(), choice="auto", parallel=True, history=(), schema=None) -> Turn:
    messages = [Message("user", [Text(text)]), *history]
    t = Turn(Request("gpt-4o-mini", messages, tools=list(tools)), "openai-chat")
    t.options = Options(choice, parallel, schema)
    return t


def names(blocks) -> list[str]:
    return [b.name for b in blocks if isinstance(b, ToolCall)]


def after(call: str, result: str) -> list[Message]:
    made = ToolCall("call_1", call, {})
    return [Message("assistant", [made]), Message("user", [ToolResult("call_1", [Text(result)])])]


def test_auto_calls_the_tool_that_fits_with_the_city_from_the_text():
    (call,) = general.general(turn("What's the weather in Paris?", [TIME, WEATHER]))
    assert call.name == "get_weather" and call.arguments == {"city": "Paris"}
    assert call.id.startswith("call_")


def test_auto_answers_in_text_when_nothing_fits_and_none_never_calls():
    assert names(general.general(turn("Tell me a joke", [WEATHER]))) == []
    assert names(general.general(turn("Weather in Paris?", [WEATHER], "none"))) == []
    (said,) = general.general(turn("Hello there"))
    assert said.text == 'You said: "Hello there".'


def test_forced_and_required_choices():
    assert names(
        general.general(turn("Weather in Paris?", [WEATHER, TIME], {"name": "getLocalTime"}))
    ) == ["getLocalTime"]
    assert names(general.general(turn("Tell me a joke", [TIME, WEATHER], "required"))) == [
        "getLocalTime"
    ]
    allowed = {"mode": "required", "allowed": ["get_weather"]}
    assert names(general.general(turn("Tell me a joke", [TIME, WEATHER], allowed))) == [
        "get_weather"
    ]


def test_parallel_calls_one_per_name_word_and_one_when_not_allowed():
    text = "The weather in Paris and the local time in Tokyo?"
    assert names(general.general(turn(text, [WEATHER, TIME]))) == ["get_weather", "getLocalTime"]
    assert names(general.general(turn(text, [WEATHER, TIME], parallel=False))) == ["getLocalTime"]


def test_after_results_auto_quotes_them_and_required_finishes():
    history = after("get_weather", "Sunny, 21 C")
    (said,) = general.general(turn("Weather in Paris?", [WEATHER], history=history))
    assert said.text == "Here is what I found: get_weather returned Sunny, 21 C."
    (done,) = general.general(
        turn("Weather in Paris?", [WEATHER, FINAL], "required", history=history)
    )
    assert done.name == "final_answer" and "Sunny, 21 C" in done.arguments["answer"]


def test_smolagents_observation_text_counts_as_a_result():
    called = Message("assistant", [Text("Calling tools:\n[{'function': {'name': 'get_weather'}}]")])
    seen = Message("user", [Text("Observation:\nSunny, 21 C in Paris")])
    t = turn("Weather in Paris?", [WEATHER, FINAL], "required", history=[called, seen])
    (done,) = general.general(t)
    assert done.name == "final_answer"


def test_structured_output_is_json_valid_for_the_schema():
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "temperature_c": {"type": "integer"}},
        "required": ["city", "temperature_c"],
        "additionalProperties": False,
    }
    (said,) = general.general(turn("Weather in Paris?", schema=schema))
    value = json.loads(said.text)
    valid(schema, value)
    assert value["city"] == "Paris"


def test_named_stories_hand_other_requests_to_the_general_model():
    from standin.provider import scenarios

    assert scenarios.for_turn(scenarios.sundry, turn("Weather?", [WEATHER])) is general.general
    search = Tool("search_orders", "Find orders.", {"type": "object"})
    assert scenarios.for_turn(scenarios.sundry, turn("SO-1 broke", [search])) is scenarios.sundry
    no_tools = turn("SO-1 broke", [search], "none")
    assert scenarios.for_turn(scenarios.sundry, no_tools) is general.general


def test_options_from_each_wire():
    chat = {"tool_choice": {"type": "function", "function": {"name": "f"}}, "stop": "X"}
    assert read(chat, "openai-chat") == Options({"name": "f"}, True, None, None, ("X",))
    responses = {"text": {"format": {"type": "json_schema", "schema": {"type": "object"}}}}
    assert read(responses, "openai-responses").output_schema == {"type": "object"}
    anthropic = {"tool_choice": {"type": "any", "disable_parallel_tool_use": True}, "max_tokens": 9}
    assert read(anthropic, "anthropic") == Options("required", False, None, 9, ())
    gemini = {"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}
    assert read(gemini, "gemini").tool_choice == "required"


# --- the wire: routes.answer, no socket ---------------------------------------------------------

KEYS = {
    "openai-chat": {"authorization": "Bearer sk-local"},
    "openai-responses": {"authorization": "Bearer sk-local"},
    "anthropic": {"x-api-key": "sk-local", "anthropic-version": "2023-06-01"},
    "gemini": {"x-goog-api-key": "sk-local"},
}
PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
    "gemini": "/v1/models/gemini-2.5-flash:generateContent",
}


def ask(provider, body, path=None, extra=None, method="POST"):
    route = routes.find_route(path or PATHS[provider])
    assert route is not None and route.method == method
    headers = {**KEYS[provider], "content-type": "application/json", **(extra or {})}
    response = routes.answer(route, headers, json.dumps(body).encode(), general.general)
    return response.status, json.loads(response.body) if response.body else response.events


USER = "What's the weather in Paris? Tell me everything about it."


def test_stop_sequences_and_max_tokens_end_the_reply_as_each_provider_says():
    status, body = ask(
        "anthropic",
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 50,
            "stop_sequences": ["weather"],
            "messages": [{"role": "user", "content": USER}],
        },
    )
    assert status == 200, body
    assert (body["stop_reason"], body["stop_sequence"]) == ("stop_sequence", "weather")
    assert "weather" not in body["content"][0]["text"]
    status, body = ask(
        "openai-responses", {"model": "gpt-4o-mini", "input": USER, "max_output_tokens": 3}
    )
    assert (body["status"], body["incomplete_details"]) == (
        "incomplete",
        {"reason": "max_output_tokens"},
    )
    assert body["usage"]["output_tokens"] == 3
    status, body = ask(
        "openai-chat",
        {"model": "gpt-4o-mini", "max_tokens": 4, "messages": [{"role": "user", "content": USER}]},
    )
    assert body["choices"][0]["finish_reason"] == "length"
    assert body["usage"]["completion_tokens"] == 4
    status, body = ask(
        "gemini",
        {
            "contents": [{"role": "user", "parts": [{"text": USER}]}],
            "generationConfig": {"maxOutputTokens": 2},
        },
    )
    assert body["candidates"][0]["finishReason"] == "MAX_TOKENS"


def test_count_tokens_match_the_usage_of_the_same_request():
    messages = [{"role": "user", "content": USER}]
    _, counted = ask(
        "anthropic",
        {"model": "claude-sonnet-4-5", "messages": messages},
        "/v1/messages/count_tokens",
    )
    _, reply = ask(
        "anthropic", {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": messages}
    )
    assert counted == {"input_tokens": reply["usage"]["input_tokens"]}
    contents = [{"role": "user", "parts": [{"text": USER}]}]
    for prefix in ("/v1", "/v1beta"):
        path = f"{prefix}/models/gemini-2.5-flash:countTokens"
        _, plain = ask("gemini", {"contents": contents}, path)
        _, wrapped = ask(
            "gemini",
            {"generateContentRequest": {"model": "models/gemini-2.5-flash", "contents": contents}},
            path,
        )
        assert plain == wrapped and plain["totalTokens"] > 0
    status, both = ask(
        "gemini",
        {"contents": contents, "generateContentRequest": {}},
        "/v1beta/models/gemini-2.5-flash:countTokens",
    )
    assert status == 400 and "not both" in both["error"]["message"]


def test_model_list_in_openai_and_anthropic_shape():
    status, listed = ask("openai-chat", {}, "/v1/models", method="GET")
    assert status == 200 and listed["object"] == "list"
    assert {"id": "gpt-4o-mini", "object": "model", "created": 0, "owned_by": "openai"} in listed[
        "data"
    ]
    status, one = ask("openai-chat", {}, "/v1/models/gpt-4o-mini", method="GET")
    assert one["id"] == "gpt-4o-mini"
    status, missing = ask("openai-chat", {}, "/v1/models/gpt-nope", method="GET")
    assert status == 404 and "gpt-nope" in missing["error"]["message"]
    status, listed = ask("anthropic", {}, "/v1/models", method="GET")
    assert listed["data"][0]["type"] == "model" and listed["has_more"] is False


THREADS = {"anthropic-beta": state.MESSAGE_THREADS_BETA}


def test_message_threads_keep_the_history_and_bill_it_as_input(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(state, "clock", lambda: now[0])
    tool = {
        "name": "get_weather",
        "description": "Weather for a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
    create = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "tools": [tool],
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "thread": {"type": "create"},
    }
    status, first = ask("anthropic", create, extra=THREADS)
    assert status == 200 and first["stop_reason"] == "tool_use"
    call = first["content"][-1]
    answer = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "Sunny"}],
    }
    follow = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [answer],
        "thread": {"type": "continue", "previous_message_id": first["id"]},
    }
    status, second = ask("anthropic", follow, extra=THREADS)
    assert status == 200, second
    assert second["content"][0]["text"] == "Here is what I found: get_weather returned Sunny."
    unthreaded = {k: v for k, v in create.items() if k != "thread"}
    unthreaded["messages"] = [
        *create["messages"],
        {"role": "assistant", "content": first["content"]},
        answer,
    ]
    _, whole = ask("anthropic", unthreaded)
    assert second["usage"]["input_tokens"] == whole["usage"]["input_tokens"]
    status, again = ask("anthropic", follow, extra=THREADS)  # each reply continues once
    assert status == 400 and again["error"]["details"]["error_code"] == "thread_already_continued"
    late = {**follow, "thread": {"type": "continue", "previous_message_id": second["id"]}}
    now[0] += state.THREAD_TTL_SECONDS + 1
    status, gone = ask("anthropic", late, extra=THREADS)
    assert status == 404 and gone["error"]["details"]["error_code"] == "thread_not_found"


def test_threads_refuse_what_they_do_not_take_and_unmodelled_betas_are_refused():
    create = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}],
        "thread": {"type": "create"},
    }
    status, body = ask("anthropic", create)  # no beta header
    assert status == 400 and body["error"]["message"] == "thread: Extra inputs are not permitted"
    thinking = {
        **create,
        "max_tokens": 2048,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
    }
    status, body = ask("anthropic", thinking, extra=THREADS)
    details = body["error"]["details"]
    assert status == 400 and details == {
        "error_code": "thread_unsupported_request",
        "unsupported": ["thinking"],
    }
    status, body = ask(
        "anthropic",
        {**create, "thread": {"type": "continue", "previous_message_id": "msg_nope"}},
        extra=THREADS,
    )
    assert status == 404
    plain = {k: v for k, v in create.items() if k != "thread"}
    status, body = ask("anthropic", plain, extra={"anthropic-beta": "made-up-2099-01-01"})
    assert status == 400 and "does not model the beta 'made-up-2099-01-01'" in str(body)
