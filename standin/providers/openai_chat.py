"""What the stand-in does differently for OpenAI Chat Completions (``openai-chat``).

The stand-in's concern modules read these through ``standin.providers.of(format)``; each
name says which. What the provider *is* (host, key, format modules) is its row in
``helpers/formats/providers.py``.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.formats.common import Notes
from helpers.formats.openai_chat_render import _tool_call
from helpers.messages import Image, Reasoning, Reply, Text
from helpers.rules import openai_chat as rules
from standin.provider import signatures
from standin.rules.shared import NONE_KNOWN, OPENAI_SDK, OURS, not_on_the_wire, theirs

#: Fields it requires, with the text it answers when one is missing (``missing-field``,
#: ``standin.rules.required`` has the sources).
REQUIRED: list[tuple[str, str]] = [
    ("model", "you must provide a model parameter"),
    ("messages", "Missing required parameter: 'messages'."),
]

#: What its reasoning signatures start with (``standin.provider.signatures``): OpenAI's encrypted
#: content starts ``gAAAAA`` like the real one.
SIGNATURE_PREFIX = ""
#: Whether it still takes the functions era's ``functions``/``function_call`` messages
#: (``standin.functions_era``).
FUNCTIONS_ERA = True
#: Its tool-call ids: (prefix, length of the random-looking part) (``standin.provider.turn``).
TOOL_CALL_ID = ("call_", 24)
#: Whether its field names come in two spellings, snake_case and camelCase
#: (``standin.rules.spellings``, ``standin.known_fields``, ``standin.rules.wire_notes``).
TWO_SPELLINGS = False


#: Its content part types (as its own error message lists them).
PARTS = ("text", "image_url", "input_audio", "refusal", "audio", "file")
#: What the parser calls a node -> (the API's types, how the API names the node): unknown-block.
KINDS = {"part": (PARTS, "a Chat content part")}

#: The shared rules it answers its own way: (rule, verdict, error text, source), read by
#: ``standin.rules.shared``.
SHARED: list[tuple[str, str, str, str]] = [
    theirs("result-before-call", rules.ORPHAN),
    theirs("result-before-call", rules.NOT_FOUND),
    ("duplicate-id", "accepted", "", "tool messages pair by tool_call_id; " + NONE_KNOWN),
    ("duplicate-tool", "accepted", "", NONE_KNOWN),
    ("empty-content", "accepted", "", NONE_KNOWN),
    (
        "block-not-allowed",
        "refused",
        "a {role} message holds {allowed} blocks, not {kind}",
        OURS + " (an image in a system message is also an unknown-field; in an assistant or tool "
        "message, image-not-user)",
    ),
    not_on_the_wire(
        "unknown-role",
        "role is one of the SDK's message types (" + OPENAI_SDK + "chat/chat_completion_message_"
        "param.py)",
        "a body with another role is malformed (refused, naming messages[N].role)",
    ),
    not_on_the_wire(
        "content-not-list",
        "content is a string or a list of parts (" + OPENAI_SDK + "chat/chat_completion_user_"
        "message_param.py)",
        "the parser reads a string as one text block; another type is malformed",
    ),
    not_on_the_wire(
        "call-outside-assistant",
        "tool_calls is a field of the assistant message only (" + OPENAI_SDK + "chat/chat_"
        "completion_assistant_message_param.py)",
        "on another message it is an unknown-field",
    ),
    not_on_the_wire(
        "result-outside-tool-message",
        "tool_call_id is a field of the tool message only (" + OPENAI_SDK + "chat/chat_"
        "completion_tool_message_param.py)",
        "on another message it is an unknown-field",
    ),
    not_on_the_wire(
        "tool-message-content",
        "a tool message's content is a string or text parts, all of it the result ("
        + OPENAI_SDK
        + "chat/chat_completion_tool_message_param.py)",
        "another part there is an unknown-field",
    ),
]


# The response body it sends, for ``standin.render_response``.

_CHAT_FINISH = {
    "end_turn": "stop",
    "tool_calls": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
}


def response_body(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``chat.completion`` body a server would send for ``reply``."""
    where = "message"
    for j, block in enumerate(reply.message.content):
        if isinstance(block, Reasoning | Image):
            notes.add(f"{where}.content[{j}]", f"no {block.type} in a chat completion; dropped")
    texts = [b.text for b in reply.message.content if isinstance(b, Text)]
    if len(texts) > 1:
        notes.add(where, f"{len(texts)} text blocks joined into one content string")
    message: dict[str, Any] = {
        "role": "assistant",
        "content": "".join(texts) if texts else None,
        "refusal": None,
        "annotations": [],
    }
    calls = [_tool_call(c, where, notes) for c in reply.message.tool_calls]
    if calls:
        message["tool_calls"] = calls
    finish = _CHAT_FINISH.get(reply.stop_reason)
    if finish is None:
        finish = "stop"
        notes.add("stop_reason", "'other' has no finish_reason in Chat; sent 'stop'")
    u = reply.usage
    prompt_details = {"cached_tokens": u.cache_read_tokens, "audio_tokens": 0}
    if u.cache_write_tokens:
        prompt_details["cache_write_tokens"] = u.cache_write_tokens
    return {
        "id": reply.id or "chatcmpl-local",
        "object": "chat.completion",
        "created": created,
        "model": reply.model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": u.input_tokens,
            "completion_tokens": u.output_tokens,
            "total_tokens": u.input_tokens + u.output_tokens,
            "prompt_tokens_details": prompt_details,
            "completion_tokens_details": {
                "reasoning_tokens": u.reasoning_tokens,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": None,
    }


# Its errors, shared by OpenAI's two APIs (``standin.provider.errors``).
#: The real text for a body that is not JSON.
BAD_JSON = (
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
    "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was "
    "sent was not valid JSON. If you have trouble figuring out how to fix this, please "
    "contact us through our help center at help.openai.com.)"
)
#: The text for a path no endpoint serves (404): OpenAI's real wording.
NOT_FOUND = "Invalid URL ({method} {path})"
#: The real text for a model id it does not know (status 404).
UNKNOWN_MODEL = "The model `{model}` does not exist or you do not have access to it."
#: HTTP status -> (its error type, its default code).
ERROR_TYPES: dict[int, tuple[str, str | None]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", None),
    404: ("invalid_request_error", None),
    405: ("invalid_request_error", None),
    411: ("invalid_request_error", None),
    413: ("invalid_request_error", None),
    422: ("stand_in_error", "stand_in_cannot_fill"),
    429: ("requests", "rate_limit_exceeded"),
    500: ("server_error", None),
    502: ("server_error", None),
    503: ("server_error", None),
    529: ("server_error", None),
}


def error_body(
    status: int,
    message: str,
    param: str | None,
    code: str | None,
    request_id: str | None,
    details: list[dict] | None,
) -> dict[str, Any]:
    """``{"error": {"message", "type", "param", "code"}}``; ``code`` replaces the default."""
    kind, default_code = ERROR_TYPES.get(status, ERROR_TYPES[500])
    code = default_code if code is None else code
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def reasoning(text: str, seed: str) -> Reasoning:
    """A reasoning block with its synthetic signature (``standin.provider.turn``)."""
    return Reasoning(text, signatures.sign("openai-chat", text), "openai-chat")


# Serving it (``standin.provider.routes``, ``standin.provider.state``).
#: The response header that carries the request's id.
#: Its endpoints on the stand-in: (path pattern, kind, streamed, HTTP method). The models list
#: is OpenAI's, and answers for every provider's names.
ROUTES = [
    (r"/v1/chat/completions", "generate", False, "POST"),
    (r"/v1/models(?:/(?P<model>[^/]+))?", "models", False, "GET"),
]


def claims(path: str, headers: dict[str, str]) -> bool:
    """Whether an unroutable request looks like this provider's: never (the default's style)."""
    return False


REQUEST_ID_HEADER = "x-request-id"
#: Its response ids: (prefix, length of the digest part).
REPLY_ID = ("chatcmpl-", 29)
#: What it stores between requests: ``"responses"`` (chains and conversations), ``"threads"``
#: (message threads), or None.
STORES = None
#: Whether a thought's signature rides on the first function call (not on the thought).
SIGNS_FIRST_CALL = False
#: Whether its body names the stop sequence that ended the reply.
NAMES_STOP_SEQUENCE = False
#: Whether its stream carries usage only when ``stream_options.include_usage`` asks.
USAGE_ON_ASK = True
#: Its stream without ``?alt=sse`` as one JSON array (a function), or None: always SSE.
json_array = None


def wants_reasoning(body: dict[str, Any]) -> bool:
    """Chat Completions never shows reasoning."""
    return False


def bad_signature(body: dict[str, Any]) -> str | None:
    """Chat Completions carries no signed reasoning back."""
    return None


def key_refusal(headers: dict[str, str], key_in_query: bool) -> tuple | None:
    """No usable key: OpenAI's 401 (``standin.provider.keys``)."""
    from standin.provider.keys import openai_refusal

    return openai_refusal(headers)


def read_options(body: dict[str, Any]) -> Any:
    """Its request's wishes for the scenarios (``standin.provider.wire_options``)."""
    from standin.provider import wire_options

    return wire_options.chat(body)


def models_answer(ids: list[str], one: bool) -> dict[str, Any]:
    """``GET /v1/models[/{model}]`` (``standin.provider.side_routes``): OpenAI's list or model."""
    rows = [{"id": i, "object": "model", "created": 0, "owned_by": "openai"} for i in ids]
    return rows[0] if one else {"object": "list", "data": rows}


# Its family's live count (``standin.count_live``): OpenAI counts through Responses.
#: The key of the total in the answer.
LIVE_COUNT_TOTAL = "input_tokens"
#: What the answer means, said with it.
LIVE_COUNT_NOTES: list[str] = []


def live_count(info: Any, request: Any) -> tuple[str, dict[str, Any]]:
    """Path and JSON body of the count request: ``POST /v1/responses/input_tokens``."""
    from helpers.formats import render

    body = render(request, "openai-responses").body
    body["model"] = info.id
    return "/v1/responses/input_tokens", body


# Checking it (``standin.rules``).
#: The endpoint forwarded to it (``standin.forward``: generation and counting).
FORWARDED = re.compile(r"/v1/chat/completions")
#: Whether its checks add Anthropic's id pattern (``standin.rules.strict``).
ID_PATTERNS = False


def origins(body: dict[str, Any]) -> Any:
    """Where each neutral message and block came from in ``body`` (``standin.rules.origins``)."""
    from standin.rules import origins

    return origins.openai_chat(body)


def wire_notes() -> tuple[Any, Any] | None:
    """Its wire rules' note finder and locator (``standin.rules.wire_notes``)."""
    from standin.rules import wire_notes

    return wire_notes.chat_images, wire_notes.chat_key


def curl(stand_in: Any, key: str) -> list[str]:
    """The serve banner's curl example for this API (``standin/cli/serve.py``)."""
    hello = '"messages":[{"role":"user","content":"Hi, my order SO-48213 arrived cracked."}]'
    return [
        f"  curl {stand_in.endpoint('openai-chat')} \\",
        f"    -H 'authorization: Bearer {key}' -H 'content-type: application/json' \\",
        f'    -d \'{{"model":"gpt-4o-mini",{hello}}}\'',
        "",
    ]


def tool_choice_rows() -> list[tuple[str, str, str, str, str | None]]:
    """``docs/rules.md``'s tool_choice rows: (rule, verdict, its text, source, checked)."""
    from standin.rules import tool_choice as t

    return [
        (rule, "refused", text, t.SOURCES[text], t.CHECKED)
        for rule, text in (
            ("tool-choice-without-tools", t.CHAT_NO_TOOLS),
            ("tool-choice-undeclared", t.CHAT_UNDECLARED),
        )
    ]


def tool_choice(body: dict[str, Any], tools: list | None, profile: str) -> list:
    """What it refuses in the body's ``tool_choice`` (``standin.rules.tool_choice``)."""
    from standin.rules import tool_choice

    return tool_choice.judged_choice(body, tools, profile, tool_choice.chat)


def tool_schema(tool: dict[str, Any], i: int) -> tuple[Any, str, Any] | None:
    """Tool ``i``'s (name, path of its schema, schema) (``standin.rules.schemas``)."""
    if not isinstance(tool.get("function"), dict):
        return None
    schema = tool["function"].get("parameters", {})
    return tool["function"].get("name"), f"tools[{i}].function.parameters", schema


def schema_answer(i: int, name: Any, detail: str, where: str) -> Any:
    """Its answer to tool ``i``'s invalid JSON Schema (``standin.rules.schemas``)."""
    from helpers.rules import Answer
    from standin.rules.schemas import OPENAI

    return Answer(OPENAI.format(name=name, detail=detail), where, "invalid_function_parameters")


#: Whether its parser's note names the unknown field first (``standin.rules.wire``).
NOTE_NAMES_KIND = False


def wire_answer(rule: str, text: str, values: dict[str, Any], body: dict[str, Any]) -> Any:
    """Its answer to a wire rule, ``text`` filled with ``values`` (``standin.rules.wire``): OpenAI
    names the parameter and the code of an empty tool_calls and an unknown part type."""
    from helpers.rules import Answer

    if rule == "empty-tool-calls":
        return Answer(text.format(**values), f"messages[{values['w']}].tool_calls", "empty_array")
    if rule == "unknown-block":
        param = f"messages[{values['w']}].content[{values['b']}].type"
        return Answer(text.format(**values), param, "invalid_value")
    return Answer(text.format(**values))


def unknown_fields(body: dict[str, Any], profile: str, betas: Any, version: str) -> list:
    """The fields of ``body`` it does not know, located and answered (``standin.rules.fields``)."""
    from standin.rules import fields

    return fields.chat(body, profile, betas, version)


#: Whether its settings answers name the parameter (``standin.rules.params``).
NAMES_PARAM = True


def settings(body: dict[str, Any], model: str) -> list:
    """The settings its ``model`` refuses in ``body`` (``standin.rules.params``)."""
    from standin.rules import params

    return params.chat(body, model)


#: Whether its reasoning items pair with what they produced by id on the wire, judged on the body
#: (``standin.verdict``).
PAIRS_ON_THE_WIRE = False
#: Whether it names the unknown fields of a body it cannot read before the value it cannot read.
UNKNOWN_FIELDS_FIRST = False


def tool_place(tool: dict[str, Any], i: int) -> tuple[Any, str] | None:
    """Tool ``i``'s name and where its parameters are (``standin.verdict``)."""
    function = tool.get("function")
    if not isinstance(function, dict):
        return None
    return function.get("name"), f"tools[{i}].function.parameters"


def output_place(body: dict[str, Any]) -> str:
    """Where the structured-output schema is in ``body`` (``standin.verdict``)."""
    return "response_format.json_schema.schema"


# What a count does not see (``standin.wire_count``).
#: Where it keeps its turns, and what a turn calls its parts.
TURNS = ("messages", "content")
#: Whether a part's kind is its key (Gemini's), not its ``type``.
PARTS_BY_KEY = False
#: Request fields the neutral request does not carry, so no count sees them.
UNCOUNTED_FIELDS = {
    "audio": "audio output settings: not counted",
    "prediction": "predicted output: not counted",
}
#: Content the count does not see (part types).
UNCOUNTED_PARTS = {"file", "input_audio", "input_file", "document", "audio"}


def uncounted_extras(body: dict[str, Any]) -> tuple[dict, dict, dict]:
    """(the body, what it adds that is bounded, the fields to look in): ``response_format``."""
    from standin.wire_count import openai_extras

    return body, openai_extras(body), body


def structured_output(body: dict[str, Any]) -> tuple[Any, str]:
    """Its structured-output setting and where it is: none of its own."""
    return None, "output_config.format"


def built_in_tool(tool: dict[str, Any]) -> str | None:
    """The kind of a tool it runs itself: none."""
    return None
