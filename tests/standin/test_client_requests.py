"""Issue 35, items 1-4: every option in every spelling, structured output in all its forms,
formats the prompt states, Anthropic threads in ``check``, ``anthropic-version`` required.

One stand-in on a real loopback socket for the module. Every body sent through :func:`send` is
also given to the verdict (what ``python -m helpers check`` runs): a 200 from the stand-in and
an accepted verdict go together, both ways (one decision). The bodies are written as the
clients write them (LiteLLM's mixed Gemini spellings, DSPy's ChatAdapter markers, instructor's
JSON-mode prompt), so the framework tests of the next round can reuse ``send`` and the fixture.
"""

from __future__ import annotations

import json
import re
import shlex

import httpx
import jsonschema
import pytest

from helpers.sse import accumulate
from standin import LocalProvider
from standin.cli.serve import banner
from standin.provider.keys import ANTHROPIC_NO_VERSION
from standin.provider.state import MESSAGE_THREADS_BETA
from standin.verdict import verdict

KEY = "sk-local-test"
STRUCTURED = "structured-outputs-2025-11-13"
MODELS = {
    "openai-chat": "gpt-4o-mini",
    "openai-responses": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
}
HEADERS = {
    "openai-chat": {"authorization": f"Bearer {KEY}"},
    "openai-responses": {"authorization": f"Bearer {KEY}"},
    "anthropic": {"x-api-key": KEY, "anthropic-version": "2023-06-01"},
    "gemini": {"x-goog-api-key": KEY},
}
USER = "What's the weather in Paris for order SO-48213? Reply in JSON."
PERSON = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
#: The same in the OpenAPI subset ``responseSchema`` takes (no ``additionalProperties``).
PERSON_SUBSET = {k: v for k, v in PERSON.items() if k != "additionalProperties"}


@pytest.fixture(scope="module")
def p():
    with LocalProvider("sundry") as provider:
        yield provider


def url(p, provider: str, stream: bool = False) -> str:
    if provider == "gemini":
        return p.endpoint("gemini", MODELS["gemini"], stream=stream)
    return p.endpoint(provider)


def send(
    p, provider: str, body: dict, headers: dict | None = None, stream: bool = False
) -> tuple[int, dict]:
    """POST ``body`` (streamed: the reply the events add up to); assert ``check`` makes the
    stand-in's decision on the body as sent."""
    sent = {**HEADERS[provider], **(headers or {})}
    if stream and provider != "gemini":
        body = {**body, "stream": True}
    r = httpx.post(url(p, provider, stream), json=body, headers=sent, timeout=10)
    betas = tuple(b.strip() for b in sent.get("anthropic-beta", "").split(",") if b.strip())
    result = verdict(body, provider, format=provider, betas=betas)
    assert result.accepted == (r.status_code == 200), (r.status_code, r.text[:300], result)
    if stream and r.status_code == 200:
        assert r.headers["content-type"].startswith("text/event-stream")
        return r.status_code, accumulate(r.content, provider)
    return r.status_code, r.json()


def text_of(provider: str, reply: dict) -> str:
    if provider == "openai-chat":
        return reply["choices"][0]["message"]["content"]
    if provider == "openai-responses":
        return reply["output"][-1]["content"][0]["text"]
    if provider == "anthropic":
        return "".join(b.get("text", "") for b in reply["content"])
    return "".join(part.get("text", "") for part in reply["candidates"][0]["content"]["parts"])


def calls_of(provider: str, reply: dict) -> list[str]:
    if provider == "anthropic":
        return [b["name"] for b in reply["content"] if b["type"] == "tool_use"]
    parts = reply["candidates"][0]["content"]["parts"]
    return [part["functionCall"]["name"] for part in parts if "functionCall" in part]


# --- 1. Gemini: every option in either spelling, at every level --------------------------------

WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}
ORDER = {
    "name": "lookup_order",
    "description": "Look up an order by its id.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}},
}


def _gemini(snake: bool, **extra) -> dict:
    body = {"contents": [{"role": "user", "parts": [{"text": USER}]}], **extra}
    if snake:  # LiteLLM's spelling: snake_case fields inside camelCase ones
        return json.loads(
            json.dumps(body).replace("functionCallingConfig", "function_calling_config")
        )
    return body


@pytest.mark.parametrize("snake", [False, True], ids=["camelCase", "snake_case"])
def test_gemini_allowed_function_names_in_either_spelling_are_obeyed(p, snake):
    names = "allowed_function_names" if snake else "allowedFunctionNames"
    config = {"functionCallingConfig": {"mode": "ANY", names: ["get_weather"]}}
    key = "tool_config" if snake else "toolConfig"
    tools = [{"function_declarations" if snake else "functionDeclarations": [ORDER, WEATHER]}]
    status, reply = send(p, "gemini", _gemini(snake, tools=tools, **{key: config}))
    assert status == 200, reply
    assert calls_of("gemini", reply) == ["get_weather"]  # lookup_order fits better, not allowed


@pytest.mark.parametrize(
    "config",
    [
        {"responseMimeType": "application/json", "responseJsonSchema": PERSON},
        {"response_mime_type": "application/json", "response_json_schema": PERSON},
        {"response_mime_type": "application/json", "response_schema": PERSON_SUBSET},
    ],
    ids=["camelCase", "snake_case", "response_schema"],
)
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_gemini_structured_output_in_either_spelling_is_json_for_the_schema(p, config, stream):
    key = "generation_config" if "response_mime_type" in config else "generationConfig"
    status, reply = send(p, "gemini", _gemini(False, **{key: config}), stream=stream)
    assert status == 200, reply
    jsonschema.validate(json.loads(text_of("gemini", reply)), PERSON)


def test_a_litellm_shaped_gemini_body_is_read_in_its_mixed_spellings(p):
    """LiteLLM writes camelCase containers with snake_case fields inside (its Gemini
    transformation: ``toolConfig.functionCallingConfig.allowed_function_names``,
    ``generationConfig.response_mime_type``, ``system_instruction``)."""
    body = {
        "system_instruction": {"parts": [{"text": "You are terse."}]},
        "contents": [{"role": "user", "parts": [{"text": USER}]}],
        "tools": [{"functionDeclarations": [ORDER, WEATHER]}],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowed_function_names": ["get_weather"]}
        },
        "generationConfig": {"max_output_tokens": 200},
    }
    status, reply = send(p, "gemini", body)
    assert status == 200 and calls_of("gemini", reply) == ["get_weather"]
    config = {"response_mime_type": "application/json", "response_json_schema": PERSON}
    plain = {k: v for k, v in body.items() if k not in ("tools", "toolConfig")}
    status, reply = send(p, "gemini", {**plain, "generationConfig": config})
    jsonschema.validate(json.loads(text_of("gemini", reply)), PERSON)


def test_gemini_limits_and_stop_sequences_in_snake_case_are_obeyed(p):
    config = {"max_output_tokens": 40, "stop_sequences": ["Paris"]}
    status, reply = send(p, "gemini", _gemini(False, generation_config=config))
    assert status == 200 and reply["candidates"][0]["finishReason"] == "STOP"
    assert "Paris" not in text_of("gemini", reply) and text_of("gemini", reply)
    config = {"max_output_tokens": 2}
    status, reply = send(p, "gemini", _gemini(False, generation_config=config))
    assert reply["candidates"][0]["finishReason"] == "MAX_TOKENS"
    assert reply["usageMetadata"]["candidatesTokenCount"] == 2


def test_gemini_json_mode_without_a_schema_is_a_non_empty_object(p):
    config = {"response_mime_type": "application/json"}
    status, reply = send(p, "gemini", _gemini(False, generation_config=config))
    value = json.loads(text_of("gemini", reply))
    assert status == 200 and value and "Paris" in value["answer"]


# --- 1. structured output in every current form ------------------------------------------------

FORMATS = {
    "chat response_format": (
        "openai-chat",
        {
            "messages": [{"role": "user", "content": USER}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "person", "schema": PERSON, "strict": True},
            },
        },
        {},
    ),
    "responses text.format": (
        "openai-responses",
        {
            "input": USER,
            "text": {"format": {"type": "json_schema", "name": "person", "schema": PERSON}},
        },
        {},
    ),
    "anthropic output_config.format": (
        "anthropic",
        {
            "max_tokens": 256,
            "messages": [{"role": "user", "content": USER}],
            "output_config": {"format": {"type": "json_schema", "schema": PERSON}},
        },
        {},
    ),
    "anthropic output_format (beta)": (
        "anthropic",
        {
            "max_tokens": 256,
            "messages": [{"role": "user", "content": USER}],
            "output_format": {"type": "json_schema", "schema": PERSON},
        },
        {"anthropic-beta": STRUCTURED},
    ),
}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("case", FORMATS)
def test_structured_output_in_every_form_is_json_for_the_schema(p, case, stream):
    provider, body, headers = FORMATS[case]
    status, reply = send(p, provider, {"model": MODELS[provider], **body}, headers, stream)
    assert status == 200, reply
    jsonschema.validate(json.loads(text_of(provider, reply)), PERSON)


def test_anthropic_output_format_without_its_beta_is_refused_as_unknown(p):
    _, body, _ = FORMATS["anthropic output_format (beta)"]
    status, reply = send(p, "anthropic", {"model": MODELS["anthropic"], **body})
    assert status == 400
    assert reply["error"]["message"] == "output_format: Extra inputs are not permitted"


# --- 2. JSON mode and formats the prompt states ------------------------------------------------

#: instructor's JSON-mode system prompt (instructor/providers: "json that match the following
#: json_schema"), with a pydantic schema.
INSTRUCTOR = (
    "As a genius expert, your task is to understand the content and provide the parsed objects "
    "in json that match the following json_schema:\n\n"
    + json.dumps({**PERSON, "title": "Person"}, indent=2)
    + "\n\nMake sure to return an instance of the JSON, not the schema itself"
)


def test_json_mode_answers_a_non_empty_object_with_the_request_s_words(p):
    body = {
        "model": MODELS["openai-chat"],
        "messages": [{"role": "user", "content": USER}],
        "response_format": {"type": "json_object"},
    }
    status, reply = send(p, "openai-chat", body)
    value = json.loads(text_of("openai-chat", reply))
    assert status == 200 and "SO-48213" in value["answer"]


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic"])
def test_a_json_schema_in_the_system_prompt_is_followed(p, provider):
    messages = [{"role": "user", "content": "Extract: Ada is 36 years old."}]
    if provider == "anthropic":  # instructor's ANTHROPIC_JSON mode: no output field at all
        body = {"max_tokens": 256, "system": INSTRUCTOR, "messages": messages}
    else:  # instructor's JSON mode: json_object plus the schema in the prompt
        messages = [{"role": "system", "content": INSTRUCTOR}, *messages]
        body = {"messages": messages, "response_format": {"type": "json_object"}}
    status, reply = send(p, provider, {"model": MODELS[provider], **body})
    assert status == 200, reply
    jsonschema.validate(json.loads(text_of(provider, reply)), PERSON)


def test_a_json_example_in_the_prompt_is_followed():
    from standin.provider.prompt_formats import example_schema, stated_schema

    text = 'Reply in JSON like this: ```json\n{"city": "Paris", "celsius": 21, "ok": true}\n```'
    schema = stated_schema([text])
    assert schema == example_schema({"city": "Paris", "celsius": 21, "ok": True})
    assert stated_schema(['no format here {"a": 1}']) is None  # not asked for JSON


def test_an_xml_tag_the_prompt_names_is_followed(p):
    body = {
        "model": MODELS["anthropic"],
        "max_tokens": 256,
        "system": "Think, then put your final answer in <answer></answer> tags.",
        "messages": [{"role": "user", "content": "Is the sky blue?"}],
    }
    status, reply = send(p, "anthropic", body)
    assert status == 200
    assert re.fullmatch(r"<answer>.*sky blue.*</answer>", text_of("anthropic", reply), re.S)


# DSPy's ChatAdapter, as dspy.ReAct writes it (dspy/adapters/chat_adapter.py, dspy/predict/react.py)
DSPY_TOOLS = [
    "(1) lookup_order, whose description is <desc>Look up an order by its id.</desc>. It takes "
    "arguments {'order_id': {'type': 'string'}}.",
    "(2) get_weather, whose description is <desc>Weather for a city.</desc>. It takes arguments "
    "{'city': {'type': 'string'}}.",
    "(3) finish, whose description is <desc>Marks the task as complete.</desc>. It takes "
    "arguments {}.",
]
DSPY_SYSTEM = "\n".join(
    [
        "Your input fields are:",
        "1. `question` (str):",
        "2. `trajectory` (str):",
        "Your output fields are:",
        "1. `next_thought` (str):",
        "2. `next_tool_name` (Literal['lookup_order', 'get_weather', 'finish']):",
        "3. `next_tool_args` (dict[str, Any]):",
        "All interactions will be structured in the following way, with the appropriate values "
        "filled in.",
        "",
        *(f"[[ ## {f} ## ]]\n{{{f}}}\n" for f in ("question", "trajectory", "next_thought")),
        "[[ ## next_tool_name ## ]]",
        "{next_tool_name}        # note: the value you produce must exactly match one of: "
        "lookup_order; get_weather; finish",
        "",
        "[[ ## next_tool_args ## ]]",
        "{next_tool_args}        # note: the value you produce must adhere to the JSON schema: "
        '{"type": "object", "additionalProperties": true}',
        "",
        "[[ ## completed ## ]]",
        "In adhering to this structure, your objective is:",
        "        Given the fields `question`, produce the fields `answer`.",
        "        You are an Agent. Your goal is to use one or more of the supplied tools.",
        *(f"        {line}" for line in DSPY_TOOLS),
        "        When providing `next_tool_args`, the value inside the field must be in JSON "
        "format",
    ]
)
DSPY_ASK = (
    "Respond with the corresponding output fields, starting with the field `[[ ## next_thought ## "
    "]]`, then `[[ ## next_tool_name ## ]]` (must be formatted as a valid Python "
    "Literal['lookup_order', 'get_weather', 'finish']), then `[[ ## next_tool_args ## ]]` (must "
    "be formatted as a valid Python dict[str, Any]), and then ending with the marker for "
    "`[[ ## completed ## ]]`."
)
_MARKER = re.compile(r"\[\[ ## (\w+) ## \]\]\n?(.*?)(?=\n*\[\[ ## |\Z)", re.S)


def _dspy_user(trajectory: str) -> str:
    question = "Where is my order SO-48213?"
    return f"[[ ## question ## ]]\n{question}\n\n[[ ## trajectory ## ]]\n{trajectory}\n\n{DSPY_ASK}"


def _dspy(p, trajectory: str) -> dict[str, str]:
    messages = [
        {"role": "system", "content": DSPY_SYSTEM},
        {"role": "user", "content": _dspy_user(trajectory)},
    ]
    status, reply = send(p, "openai-chat", {"model": MODELS["openai-chat"], "messages": messages})
    assert status == 200, reply
    text = text_of("openai-chat", reply)
    fields = {name: value.strip() for name, value in _MARKER.findall(text)}
    assert list(fields) == ["next_thought", "next_tool_name", "next_tool_args", "completed"], text
    return fields


def test_dspy_react_field_markers_are_followed_to_the_end(p):
    first = _dspy(p, "")
    assert first["next_tool_name"] == "lookup_order"
    assert json.loads(first["next_tool_args"]) == {"order_id": "SO-48213"}
    trajectory = (
        f"[[ ## thought_0 ## ]]\n{first['next_thought']}\n\n[[ ## tool_name_0 ## ]]\n"
        f"lookup_order\n\n[[ ## tool_args_0 ## ]]\n{first['next_tool_args']}\n\n"
        "[[ ## observation_0 ## ]]\nShipped on Monday."
    )
    second = _dspy(p, trajectory)
    assert second["next_tool_name"] == "finish"
    assert json.loads(second["next_tool_args"]) == {}
    assert "Shipped on Monday" in second["next_thought"]


#: DSPy's JSONAdapter (dspy/adapters/json_adapter.py): JSON mode, the fields named in the user
#: text, an example object in the system text.
DSPY_JSON_SYSTEM = (
    "Your input fields are:\n1. `question` (str):\nYour output fields are:\n1. `reasoning` "
    "(str):\n2. `answer` (str):\n3. `confidence` (float):\nAll interactions will be structured "
    "in the following way, with the appropriate values filled in.\n\nInputs will have the "
    "following structure:\n\n[[ ## question ## ]]\n{question}\n\nOutputs will be a JSON "
    'object with the following fields.\n\n{\n  "reasoning": "{reasoning}",\n  "answer": '
    '"{answer}",\n  "confidence": "{confidence}"\n}'
)
DSPY_JSON_ASK = (
    "[[ ## question ## ]]\nWhere is my order SO-48213?\n\nRespond with a JSON object in the "
    "following order of fields: `reasoning`, then `answer`, then `confidence` (must be formatted "
    "as a valid Python float)."
)


@pytest.mark.parametrize("json_mode", [True, False], ids=["json_object", "text"])
def test_dspy_json_adapter_fields_are_one_json_object(p, json_mode):
    messages = [
        {"role": "system", "content": DSPY_JSON_SYSTEM},
        {"role": "user", "content": DSPY_JSON_ASK},
    ]
    body = {"model": MODELS["openai-chat"], "messages": messages}
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    status, reply = send(p, "openai-chat", body)
    value = json.loads(text_of("openai-chat", reply))
    assert status == 200 and list(value) == ["reasoning", "answer", "confidence"]
    assert "SO-48213" in value["answer"] and isinstance(value["confidence"], float | int)


def test_dspy_predict_with_old_and_new_field_names():
    from standin.provider.prompt_formats import dspy_fields

    new = "Respond with the corresponding output fields, starting with the field `[[ ## a ## ]]`"
    assert dspy_fields(new + ", and then ending with the marker for `[[ ## completed ## ]]`.") == [
        ("a", "")
    ]
    old = "Respond with the corresponding output fields, starting with the field `reasoning`, "
    old += "then `label`, and then ending with the marker for `completed`."
    assert [name for name, _ in dspy_fields(old)] == ["reasoning", "label"]


# --- 3. Anthropic threads: check reads them as the stand-in does --------------------------------


def test_a_thread_continuation_the_stand_in_answers_is_accepted_by_check(p):
    beta = {"anthropic-beta": MESSAGE_THREADS_BETA}
    tool = {
        "name": "get_weather",
        "description": "Weather for a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
    create = {
        "model": MODELS["anthropic"],
        "max_tokens": 64,
        "tools": [tool],
        "tool_choice": {"type": "any"},
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "thread": {"type": "create"},
    }
    status, first = send(p, "anthropic", create, beta)
    assert status == 200 and first["stop_reason"] == "tool_use"
    call = first["content"][-1]
    result = {"type": "tool_result", "tool_use_id": call["id"], "content": "Sunny"}
    follow = {
        "model": MODELS["anthropic"],
        "max_tokens": 64,
        "tool_choice": {"type": "any"},  # the tools are the thread's, not in this body
        "messages": [{"role": "user", "content": [result]}],
        "thread": {"type": "continue", "previous_message_id": first["id"]},
    }
    status, second = send(p, "anthropic", follow, beta)  # the tool runner's second body
    assert status == 200, second
    warned = verdict(follow, "anthropic", format="anthropic", betas=(MESSAGE_THREADS_BETA,))
    assert any("continues" in w.message for w in warned.violations.warnings)
    # with the stored turns given, check judges the whole conversation, placed in the chain
    chain = [*create["messages"], {"role": "assistant", "content": first["content"]}]
    joined = verdict(follow, "anthropic", format="anthropic", chain=chain)
    assert joined.accepted, joined
    kept = [(w.rule, "keeps the tools" in w.message) for w in joined.violations.warnings]
    assert kept == [("tool-choice-without-tools", True)]  # the tools are the thread's
    wrong = {**follow, "messages": [{"role": "user", "content": [{**result, "tool_use_id": "x"}]}]}
    refused = verdict(wrong, "anthropic", format="anthropic", chain=chain)
    assert not refused.accepted
    assert refused.first_error.path.startswith("messages[0]"), refused.first_error


# --- 4. anthropic-version, and the curl examples ------------------------------------------------


def test_an_anthropic_request_without_anthropic_version_is_refused_as_the_api_does(p):
    hi = [{"role": "user", "content": "Hi"}]
    body = {"model": MODELS["anthropic"], "max_tokens": 16, "messages": hi}
    r = httpx.post(p.endpoint("anthropic"), json=body, headers={"x-api-key": KEY}, timeout=10)
    assert r.status_code == 400
    error = {"type": "invalid_request_error", "message": ANTHROPIC_NO_VERSION}
    assert r.json() == {"type": "error", "error": error}
    r = httpx.post(p.endpoint("anthropic"), json=body, headers={}, timeout=10)
    assert r.status_code == 401  # no key is refused first


def test_every_curl_example_serve_prints_is_answered(p):
    text = banner(p)
    commands = re.findall(r"curl .*?-d '[^']*'", text.replace("\\\n", " "), re.S)
    assert len(commands) == 3
    for command in commands:
        words = shlex.split(command)
        headers = dict(words[i + 1].split(": ", 1) for i, w in enumerate(words) if w == "-H")
        target = next(w for w in words[1:] if w.startswith("http"))
        data = words[words.index("-d") + 1]
        r = httpx.post(target, content=data, headers=headers, timeout=10)
        assert r.status_code == 200, (command, r.text[:200])


def test_a_chat_shaped_tool_choice_on_responses_is_an_unknown_parameter(p):
    """LiteLLM 1.82.6 sends Chat's tool_choice shape to /v1/responses; OpenAI names the unknown
    field before the missing name (BerriAI/litellm#27611), and so does the stand-in."""
    tool = {"type": "function", "name": "lookup_order", "parameters": ORDER["parameters"]}
    body = {
        "model": MODELS["openai-responses"],
        "input": USER,
        "tools": [tool],
        "tool_choice": {"type": "function", "function": {"name": "lookup_order"}},
    }
    status, reply = send(p, "openai-responses", body)
    assert status == 400
    assert reply["error"]["message"] == "Unknown parameter: 'tool_choice.function'."
    assert reply["error"]["param"] == "tool_choice.function"
    flat = {**body, "tool_choice": {"type": "function", "name": "lookup_order"}}
    status, reply = send(p, "openai-responses", flat)  # the Responses shape is answered
    assert status == 200, reply
    assert reply["output"][-1]["name"] == "lookup_order"
