"""Every published, API-verified ``prompt_tokens`` figure we found, with its source.

Each case is an OpenAI Chat Completions request exactly as published (messages, tools,
tool_choice) and the ``prompt_tokens`` the API reported for it. ``tests/helpers/test_tokens.py``
counts each with ``helpers.tokens.count`` and asserts equality; the cases we do not match are kept
as ``xfail(strict=True)`` with the reason, so a fix (or a regression) shows up.

Sources (all read in August 2026):

- cookbook: openai/openai-cookbook ``examples/How_to_count_tokens_with_tiktoken.ipynb``,
  current version (sections 6 and 7: "N prompt tokens counted by the OpenAI API").
- hmarr: hmarr/openai-chat-tokens ``src/token-counts.test.ts`` @ 39be88f6 (gpt-3.5-turbo,
  2023, legacy ``functions``: counted here as ``tools``, which the 2024 figures show render the
  same way; the named ``function_call`` differs, see the xfails).
- pamelafox: pamelafox/openai-messages-token-helper ``tests/functions.py``, ``messages.py``,
  ``image_messages.py`` (verified with ``tests/verify_*.py``; Azure ``gpt-35-turbo``
  deployments and gpt-4o / gpt-4o-mini, 2024). The large image is truncated to its PNG header
  here: the cost depends only on its size (1126x488).
- forestwanglin: forestwanglin/openai-java issue #5 (gpt-4, 2024-01-22).
- forum: community.openai.com/t/538914 "Strange token cost calculation for tool_calls"
  (gpt-3.5-turbo, 2023-12). Only the 1-call body is published in full; the 2- and 3-call bodies
  are reconstructed from the prose ("1 user message, 2 tool calls and 2 tool messages").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from helpers.messages import Image, Message, Request, Text, Tool, ToolCall, ToolResult

__all__ = ["CASES", "Case", "cookbook_recipe", "to_request"]


@dataclass
class Case:
    source: str
    case: str
    model: str
    api: int  # prompt_tokens reported by the API
    body: dict[str, Any]
    xfail: str = ""  # why we do not match (empty: we match)
    id: str = field(init=False)

    def __post_init__(self) -> None:
        self.id = f"{self.source}:{self.case}:{self.model}"


def to_request(body: dict[str, Any], model: str) -> Request:
    """A published Chat Completions body as a neutral request (test scaffolding only)."""
    messages = []
    for m in body["messages"]:
        content = m.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        blocks: list[Any] = []
        for p in parts:
            if p["type"] == "text" and p["text"]:
                blocks.append(Text(p["text"]))
            elif p["type"] == "image_url":
                url = p["image_url"]["url"]
                media, data = url[5:].split(";base64,")
                blocks.append(Image(media, data, detail=p["image_url"].get("detail")))
        if m["role"] == "tool":
            messages.append(Message("tool", [ToolResult(m["tool_call_id"], blocks)]))
            continue
        for c in m.get("tool_calls") or []:
            f = c["function"]
            call = ToolCall(c["id"], f["name"], json.loads(f["arguments"]))
            call.raw_arguments = f["arguments"]
            blocks.append(call)
        messages.append(Message(m["role"], blocks, m.get("name")))
    tools = [
        Tool(
            t["function"]["name"],
            t["function"].get("description", ""),
            t["function"].get("parameters") or {"type": "object", "properties": {}},
        )
        for t in body.get("tools", [])
    ]
    return Request(model, messages, tools, body.get("tool_choice"))


def _tool(name: str, params: dict | None = None, description: str | None = None) -> dict:
    function: dict[str, Any] = {"name": name}
    if description is not None:
        function["description"] = description
    if params is not None:
        function["parameters"] = params
    return {"type": "function", "function": function}


def _m(role: str, content: Any, **extra: Any) -> dict:
    return {"role": role, "content": content, **extra}


CASES: list[Case] = []


def _add(source, case, model, api, messages, tools=None, tool_choice=None, xfail=""):
    body: dict[str, Any] = {"messages": messages}
    if tools:
        body["tools"] = tools
    if tool_choice:
        body["tool_choice"] = tool_choice
    CASES.append(Case(source, case, model, api, body, xfail))


# --- cookbook ------------------------------------------------------------------------------------
JARGON = [
    _m(
        "system",
        "You are a helpful, pattern-following assistant that translates corporate jargon "
        "into plain English.",
    ),
    _m("system", "New synergies will help drive top-line growth.", name="example_user"),
    _m("system", "Things working well together will increase revenue.", name="example_assistant"),
    _m(
        "system",
        "Let's circle back when we have more bandwidth to touch base on opportunities for "
        "increased leverage.",
        name="example_user",
    ),
    _m(
        "system",
        "Let's talk later when we're less busy about how to do better.",
        name="example_assistant",
    ),
    _m(
        "user",
        "This late pivot means we don't have time to boil the ocean for the client deliverable.",
    ),
]
WEATHER = _tool(
    "get_current_weather",
    {
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA",
            },
            "unit": {
                "type": "string",
                "description": "The unit of temperature to return",
                "enum": ["celsius", "fahrenheit"],
            },
        },
        "required": ["location"],
    },
    "Get the current weather in a given location",
)
WEATHER_MESSAGES = [
    _m("system", "You are a helpful assistant that can answer to questions about the weather."),
    _m("user", "What's the weather like in San Francisco?"),
]
for _model, _n in [("gpt-3.5-turbo", 129), ("gpt-4", 129), ("gpt-4o", 124), ("gpt-4o-mini", 124)]:
    _add("cookbook", "corporate jargon, names", _model, _n, JARGON)
for _model, _n in [("gpt-3.5-turbo", 105), ("gpt-4", 105), ("gpt-4o", 101), ("gpt-4o-mini", 101)]:
    _add("cookbook", "get_current_weather tool", _model, _n, WEATHER_MESSAGES, [WEATHER])

# --- hmarr/openai-chat-tokens (gpt-3.5-turbo, 2023) ---------------------------------------------
G35 = "gpt-3.5-turbo"
EMPTY = {"type": "object", "properties": {}}
HELLO = [_m("user", "hello")]
_add("hmarr", "user hello", G35, 8, HELLO)
_add("hmarr", "user hello world", G35, 9, [_m("user", "hello world")])
_add("hmarr", "system hello", G35, 8, [_m("system", "hello")])
_add("hmarr", "system hello:", G35, 9, [_m("system", "hello:")])
_add(
    "hmarr",
    "system, user, assistant",
    G35,
    27,
    [
        _m("system", "# Important: you're the best robot"),
        _m("user", "hello robot"),
        _m("assistant", "hello world"),
    ],
)
for _i, _n in enumerate([25, 20, 19, 28, 26, 26]):
    _add("hmarr", f"cookbook message {_i} alone", G35, _n, [JARGON[_i]])
FOO = _tool("foo", EMPTY)
_add("hmarr", "function foo, no description", G35, 31, HELLO, [FOO])
_add("hmarr", "function foo, tool_choice none", G35, 32, HELLO, [FOO], "none")
_add("hmarr", "function foo, tool_choice auto", G35, 31, HELLO, [FOO], "auto")
_add(
    "hmarr",
    "function foo, forced",
    G35,
    36,
    HELLO,
    [FOO],
    {"type": "function", "function": {"name": "foo"}},
    xfail="measured with the legacy function_call param, which costs 3 tokens less than a "
    "forced tools tool_choice (pamelafox): ' <|constrain|>json' is not in the legacy priming",
)
_add("hmarr", "function foo with description", G35, 36, HELLO, [_tool("foo", EMPTY, "Do a foo")])
INLINE_2023 = (
    "2023 functions-era figure: each property without a description on its own line; the 2024 "
    "tools figures (pamelafox) and recorded 2025-26 gpt-4o bills write an object none of whose "
    "properties is described on one line, as we do"
)
BING = "Do a bing bong"
_add(
    "hmarr",
    "one string property",
    G35,
    49,
    HELLO,
    [_tool("bing_bong", {"type": "object", "properties": {"foo": {"type": "string"}}}, BING)],
    xfail=INLINE_2023,
)
_add(
    "hmarr",
    "two properties, one described",
    G35,
    57,
    HELLO,
    [
        _tool(
            "bing_bong",
            {
                "type": "object",
                "properties": {
                    "foo": {"type": "string"},
                    "bar": {"type": "number", "description": "A number"},
                },
            },
            BING,
        )
    ],
)
_add(
    "hmarr",
    "nested object with enum",
    G35,
    68,
    HELLO,
    [
        _tool(
            "bing_bong",
            {
                "type": "object",
                "properties": {
                    "foo": {
                        "type": "object",
                        "properties": {
                            "bar": {"type": "string", "enum": ["a", "b", "c"]},
                            "baz": {"type": "boolean"},
                        },
                    }
                },
            },
            BING,
        )
    ],
    xfail=INLINE_2023,
)
SYS_HELLO = [_m("system", "Hello"), _m("user", "Hi there")]
SYS_HELLO_COLON = [_m("system", "Hello:"), _m("user", "Hi there")]
TWO_SYSTEMS = [_m("system", "Hello:"), _m("system", "Hello"), _m("user", "Hi there")]
DO_STUFF = _tool("do_stuff", EMPTY)
_add("hmarr", "system + function", G35, 35, SYS_HELLO, [DO_STUFF])
_add("hmarr", "system ending ':' + function", G35, 35, SYS_HELLO_COLON, [DO_STUFF])
_add("hmarr", "two systems + function", G35, 40, TWO_SYSTEMS, [DO_STUFF])
OTHER = _tool("do_other_stuff", EMPTY)
_add("hmarr", "two systems + two functions", G35, 49, TWO_SYSTEMS, [DO_STUFF, OTHER])
_add(
    "hmarr",
    "two systems + two functions, forced",
    G35,
    55,
    TWO_SYSTEMS,
    [DO_STUFF, OTHER],
    {"type": "function", "function": {"name": "do_stuff"}},
    xfail="legacy function_call param: 3 tokens less than a forced tools tool_choice",
)


def _kind(kind: str, extra: str, extra_type: str) -> dict:
    return {
        "type": "object",
        "properties": {"kind": {"type": "string", "const": kind}, extra: {"type": extra_type}},
    }


_add(
    "hmarr",
    "anyOf with one object",
    G35,
    52,
    SYS_HELLO,
    [
        _tool(
            "do_stuff",
            {"type": "object", "properties": {"foo": {"anyOf": [_kind("a", "baz", "boolean")]}}},
        )
    ],
    xfail=INLINE_2023,
)
_add(
    "hmarr",
    "anyOf with three objects",
    G35,
    80,
    SYS_HELLO,
    [
        _tool(
            "do_stuff",
            {
                "type": "object",
                "properties": {
                    "foo": {
                        "anyOf": [
                            _kind("a", "baz", "boolean"),
                            _kind("b", "qux", "number"),
                            _kind("c", "idk", "string"),
                        ]
                    }
                },
            },
        )
    ],
    xfail=INLINE_2023,
)
_add(
    "hmarr",
    "anyOf of scalars",
    G35,
    44,
    SYS_HELLO,
    [
        _tool(
            "do_stuff",
            {
                "type": "object",
                "properties": {
                    "foo": {"anyOf": [{"type": "string", "const": "a"}, {"type": "number"}]}
                },
            },
        )
    ],
    xfail=INLINE_2023,
)
_add(
    "hmarr",
    "get_recipe: arrays, nested required, enum (validated)",
    G35,
    106,
    HELLO,
    [
        _tool(
            "get_recipe",
            {
                "type": "object",
                "required": ["ingredients", "instructions", "time_to_cook"],
                "properties": {
                    "ingredients": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["name", "unit", "amount"],
                            "properties": {
                                "name": {"type": "string"},
                                "unit": {
                                    "enum": ["grams", "ml", "cups", "pieces", "teaspoons"],
                                    "type": "string",
                                },
                                "amount": {"type": "number"},
                            },
                        },
                    },
                    "instructions": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Steps to prepare the recipe (no numbering)",
                    },
                    "time_to_cook": {
                        "type": "number",
                        "description": "Total time to prepare the recipe in minutes",
                    },
                },
            },
        )
    ],
    xfail=INLINE_2023,
)
NESTED_2023 = (
    "2023 functions-era rendering dropped descriptions of nested properties (hmarr's "
    "formatter, hmarr/openai-chat-tokens#17); the 2024 tools figures (pamelafox) count them, "
    "as we do"
)
_add(
    "hmarr",
    "description on a nested array",
    G35,
    46,
    HELLO,
    [
        _tool(
            "function",
            {
                "type": "object",
                "properties": {
                    "quality": {
                        "type": "object",
                        "properties": {
                            "pros": {
                                "type": "array",
                                "items": {"type": "string"},
                                "description": "Write 3 points why this text is well written",
                            }
                        },
                    }
                },
            },
            "description",
        )
    ],
    xfail=NESTED_2023,
)
_add(
    "hmarr",
    "descriptions on nested properties",
    G35,
    96,
    HELLO,
    [
        _tool(
            "function",
            {
                "type": "object",
                "description": "desctiption2",
                "properties": {
                    "mainField": {"type": "string", "description": "description3"},
                    "field number one": {
                        "type": "object",
                        "description": "description4",
                        "properties": {
                            "yesNoField": {
                                "type": "string",
                                "description": "description5",
                                "enum": ["Yes", "No"],
                            },
                            "howIsInteresting": {"type": "string", "description": "description6"},
                            "scoreInteresting": {"type": "number", "description": "description7"},
                            "isInteresting": {
                                "type": "string",
                                "description": "description8",
                                "enum": ["Yes", "No"],
                            },
                        },
                    },
                },
            },
            "desctiption1",
        )
    ],
    xfail=NESTED_2023,
)

# --- pamelafox/openai-messages-token-helper (Azure gpt-35-turbo, gpt-4o, gpt-4o-mini; 2024) ---
BOT = [_m("system", "You are a bot.")]
UNDESCRIBED = (
    "a nested object with one property described and one not costs 3 tokens less than the "
    "namespace model gives (pamelafox's own model over-counts it too); no other figure pins "
    "this shape down: an estimate"
)
SEARCH = _tool(
    "search_sources",
    {
        "type": "object",
        "properties": {
            "search_query": {
                "type": "string",
                "description": "Query string to retrieve documents from azure search eg: "
                "'Health care plan'",
            }
        },
        "required": ["search_query"],
    },
    "Retrieve sources from the Azure AI Search index",
)
FORCE = {"type": "function", "function": {"name": "search_sources"}}
_add("pamelafox", "search_sources, auto", G35, 66, BOT, [SEARCH], "auto")
_add("pamelafox", "search_sources, none", G35, 67, BOT, [SEARCH], "none")
_add("pamelafox", "search_sources, forced", G35, 75, BOT, [SEARCH], FORCE)
DEMO = "This is the main function description"
INT_ENUM = _tool(
    "data_demonstration",
    {"type": "object", "properties": {"integer_enum": {"type": "integer", "enum": [-1, 1]}}},
    DEMO,
)
FORCE_DEMO = {"type": "function", "function": {"name": "data_demonstration"}}
_add("pamelafox", "integer enum, none", G35, 54, BOT, [INT_ENUM], "none")
_add("pamelafox", "integer enum, forced", G35, 64, BOT, [INT_ENUM], FORCE_DEMO)
NO_PARAMS = _tool("search_sources", None, "Retrieve sources from the Azure AI Search index")
_add("pamelafox", "no parameters", G35, 42, BOT, [NO_PARAMS], "auto")
_add("pamelafox", "no parameters, forced", G35, 51, BOT, [NO_PARAMS], FORCE)
_add(
    "pamelafox",
    "property without description or required",
    G35,
    49,
    BOT,
    [
        _tool(
            "search_sources",
            {"type": "object", "properties": {"search_query": {"type": "string"}}},
            "Retrieve sources from the Azure AI Search index",
        )
    ],
    "auto",
)
_add(
    "pamelafox",
    "property without description",
    G35,
    49,
    BOT,
    [
        _tool(
            "search_sources",
            {
                "type": "object",
                "properties": {"search_query": {"type": "string"}},
                "required": ["search_query"],
            },
            "Retrieve sources from the Azure AI Search index",
        )
    ],
    "auto",
)
_add(
    "pamelafox",
    "string enum, integer, required",
    G35,
    86,
    BOT,
    [
        _tool(
            "summarize_order",
            {
                "type": "object",
                "properties": {
                    "product_name": {
                        "type": "string",
                        "description": "Product name ordered by customer",
                    },
                    "quantity": {"type": "integer", "description": "Quantity ordered by customer"},
                    "unit": {
                        "type": "string",
                        "enum": ["meals", "days"],
                        "description": "unit of measurement of the customer order",
                    },
                },
                "required": ["product_name", "quantity", "unit"],
            },
            "Summarize the customer order request",
        )
    ],
    "none",
)
OBJ = "The object data type as a property"
LOST = {"type": "string", "description": "Description in a second object is lost"}
HAPPY = {"type": "string", "enum": ["Happy", "Sad"]}
for _case, _n, _inner, _extra in [
    ("inner object", 65, {"string1": {"type": "string"}}, {}),
    ("inner object with enum only", 73, {"string_2a": HAPPY}, {}),
    ("inner object with enum", 89, {"string_2a": HAPPY, "string_2b": LOST}, {}),
    (
        "inner object and string",
        103,
        {"string_2a": HAPPY, "string_2b": LOST},
        {"string_1": {"type": "string", "description": "Not required gets a question mark"}},
    ),
]:
    _params = {
        "type": "object",
        "properties": {
            "object_1": {"type": "object", "description": OBJ, "properties": _inner},
            **_extra,
        },
        "required": ["object_1"],
    }
    _add(
        "pamelafox",
        _case,
        G35,
        _n,
        BOT,
        [_tool("data_demonstration", _params, DEMO)],
        "none",
        xfail=UNDESCRIBED if "LOST" in repr(_inner) or "Description in" in repr(_inner) else "",
    )
for _case, _n, _name, _prop, _description in [
    (
        "boolean",
        89,
        "human_escalation",
        {
            "requires_escalation": {
                "type": "boolean",
                "description": "If user is showing signs of frustration or anger in the query. "
                "Also if the user says they want to talk to a real person and not a chat bot.",
            }
        },
        "Check if user wants to escalate to a human",
    ),
    (
        "array",
        59,
        "get_coordinates",
        {
            "addresses": {
                "type": "array",
                "description": "The mailing addresses to be located",
                "items": {"type": "string"},
            }
        },
        "Get the latitude and longitude of multiple mailing addresses",
    ),
    (
        "null",
        55,
        "get_null",
        {"null_value": {"type": "null", "description": "The null value to be returned"}},
        "Get the null value",
    ),
    (
        "no type",
        59,
        "get_no_type",
        {"no_type_value": {"description": "The no type value to be returned"}},
        "Get the no type value",
    ),
]:
    _params = {"type": "object", "properties": _prop, "required": list(_prop)}
    _add("pamelafox", _case, G35, _n, BOT, [_tool(_name, _params, _description)], "none")
for _case, _message, _n35, _n4o in [
    ("system message", JARGON[0], 25, 24),
    ("short system message", _m("system", "You are a bot."), 12, 12),
    (
        "long system message",
        _m(
            "system",
            "Assistant helps the company employees with their healthcare plan questions, and "
            "questions about the employee handbook. Be brief in your answers.",
        ),
        31,
        31,
    ),
    ("unicode system message", _m("system", "á"), 8, 8),
    ("system message with name", JARGON[1], 20, 20),
    ("user message", _m("user", "Hello, how are you?"), 13, 13),
    ("unicode user message", _m("user", "á"), 8, 8),
]:
    _add("pamelafox", _case, G35, _n35, [_message])
    _add("pamelafox", _case, "gpt-4o", _n4o, [_message])
TINY_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z/C/HgAGgwJ/"
    "lK3Q6wAAAABJRU5ErkJggg=="
)
WIDE_PNG_HEADER = "iVBORw0KGgoAAAANSUhEUgAABGYAAAHoCAYAAAALy+n8"  # 1126x488


def _image(text: str, data: str, detail: str) -> list[dict]:
    url = {"url": f"data:image/png;base64,{data}", "detail": detail}
    return [_m("user", [{"type": "text", "text": text}, {"type": "image_url", "image_url": url}])]


for _model, _tiny, _low, _wide in [
    ("gpt-4", 266, 96, 603),
    ("gpt-4o", 266, 96, 603),
    ("gpt-4o-mini", 8511, 2844, 19842),
]:
    _add(
        "pamelafox",
        "text + 1x1 image, auto",
        _model,
        _tiny,
        _image("Describe this picture:", TINY_PNG, "auto"),
    )
    _add(
        "pamelafox",
        "text + 1x1 image, low",
        _model,
        _low,
        _image("Describe this picture:", TINY_PNG, "low"),
    )
    _add("pamelafox", "text + 1126x488 image", _model, _wide, _image("hi", WIDE_PNG_HEADER, "auto"))

# --- tool calls and results in the history -------------------------------------------------------
_add(
    "forestwanglin",
    "tool call + tool result",
    "gpt-4",
    35,
    [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_Id8ycVMsW8gdsf7kSXfgAcf1",
                    "type": "function",
                    "function": {
                        "name": "get_current_weather",
                        "arguments": '{\n  "location": "Boston, MA"\n}',
                    },
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "call_Id8ycVMsW8gdsf7kSXfgAcf1",
            "name": "get_current_weather",
            "content": "29 degree celcius",
        },
    ],
)


def _calculator(k: int) -> list[dict]:
    calls = [
        {
            "id": "a" if k == 1 else f"c{n}",
            "type": "function",
            "function": {"name": "calculator", "arguments": '{"a":2, "b":2}'},
        }
        for n in range(k)
    ]
    ids = ["a"] if k == 1 else [f"c{n}" for n in range(k)]
    results = [{"role": "tool", "tool_call_id": i, "content": "4"} for i in ids]
    question = [_m("user", [{"type": "text", "text": "How much is 2 plus 2?"}])]
    return question + [{"role": "assistant", "tool_calls": calls}] + results


_add("forum", "one tool call + result", G35, 40, _calculator(1))
PARALLEL = (
    "request body not published (reconstructed from the prose); our multi_tool_use.parallel "
    "model is 10-11 tokens short"
)
_add("forum", "two parallel calls + results", G35, 89, _calculator(2), xfail=PARALLEL)
_add("forum", "three parallel calls + results", G35, 114, _calculator(3), xfail=PARALLEL)


def cookbook_recipe(case: Case) -> int | None:
    """The OpenAI cookbook's published recipe, for comparison (None where it cannot count).

    ``num_tokens_from_messages`` (3 per message, 1 per name, 3 for the reply) plus, with tools,
    ``num_tokens_for_tools`` with its per-model constants. It ignores ``tool_choice`` and raises
    on missing descriptions, non-string content (tool calls, images) and unknown models.
    """
    import tiktoken

    constants = {"gpt-4o": 7, "gpt-4o-mini": 7, "gpt-3.5-turbo": 10, "gpt-4": 10}
    if case.model not in constants:
        return None
    encoding = tiktoken.encoding_for_model(case.model)
    try:
        total = 3
        for message in case.body["messages"]:
            total += 3
            for key, value in message.items():
                total += len(encoding.encode(value))
                total += 1 if key == "name" else 0
        for tool in case.body.get("tools", []):
            function = tool["function"]
            total += constants[case.model]
            description = function["description"].removesuffix(".")
            total += len(encoding.encode(f"{function['name']}:{description}"))
            properties = function["parameters"]["properties"]
            if properties:
                total += 3
                for key, prop in properties.items():
                    total += 3
                    if "enum" in prop:
                        total -= 3
                        for item in prop["enum"]:
                            total += 3 + len(encoding.encode(item))
                    line = f"{key}:{prop['type']}:{prop['description'].removesuffix('.')}"
                    total += len(encoding.encode(line))
        if case.body.get("tools"):
            total += 12
    except (KeyError, TypeError, AttributeError):
        return None
    return total


# --- functions-era messages (hmarr/openai-chat-tokens, gpt-3.5-turbo, 2023) ---------------------
#: ``role: "function"`` messages and assistant ``function_call``s, as published with the
#: ``prompt_tokens`` the API reported (hmarr's src/token-counts.test.ts @ 39be88f6, MIT). They are
#: not Chat bodies of today's shape, so they are counted as wire bodies (``count_body``).
FUNCTIONS_ERA: list[tuple[str, list[dict[str, Any]], int]] = [
    (
        "function result after a user message, no call",
        [_m("user", "hello world"), _m("function", "{}", name="do_stuff")],
        15,
    ),
    (
        "function result with arguments, no call",
        [_m("user", "hello world"), _m("function", '{"foo": "bar", "baz": 1.5}', name="do_stuff")],
        28,
    ),
    (
        "a function result alone",
        [_m("function", '{"a": { "b" : { "c": false}}}', name="dance_the_tango")],
        24,
    ),
    (
        "assistant function_call",
        [
            _m(
                "assistant",
                "",
                function_call={"name": "do_stuff", "arguments": '{"foo": "bar", "baz": 1.5}'},
            )
        ],
        26,
    ),
    (
        "assistant function_call, arguments with newlines",
        [
            _m(
                "assistant",
                "",
                function_call={"name": "do_stuff", "arguments": '{"foo":"bar", "baz":\n\n 1.5}'},
            )
        ],
        25,
    ),
]
