"""What the stand-in does differently for OpenAI Responses (``openai-responses``).

The stand-in's concern modules read these through ``standin.providers.of(format)``; each
name says which. What the provider *is* (host, key, format modules) is its row in
``helpers/formats/providers.py``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from typing import Any

from helpers.formats.common import Notes
from helpers.formats.openai_responses_render import _assistant_items
from helpers.messages import Message, Reasoning, Reply
from standin.provider import signatures
from standin.rules.shared import NONE_KNOWN, OPENAI_SDK, OURS, not_on_the_wire

#: Fields it requires, with the text it answers when one is missing (``missing-field``,
#: ``standin.rules.required`` has the sources).
REQUIRED: list[tuple[str, str]] = [("model", "Missing required parameter: 'model'.")]

#: What its reasoning signatures start with (``standin.provider.signatures``): OpenAI's encrypted
#: content starts ``gAAAAA`` like the real one.
SIGNATURE_PREFIX = "gAAAAA"
#: Whether it still takes the functions era's ``functions``/``function_call`` messages
#: (``standin.functions_era``).
FUNCTIONS_ERA = False
#: Its tool-call ids: (prefix, length of the random-looking part) (``standin.provider.turn``).
TOOL_CALL_ID = ("call_", 24)
#: Whether its field names come in two spellings, snake_case and camelCase
#: (``standin.rules.spellings``, ``standin.known_fields``, ``standin.rules.wire_notes``).
TWO_SPELLINGS = False


#: Its content part types.
# fmt: off
PARTS = (
    "input_text",
    "output_text",
    "refusal",
    "input_image",
    "input_file",
    "input_audio",
)
#: Its input item types: the ``ResponseInputItemParam`` union (openai 3.57.0).
ITEMS = (
    "message", "function_call", "function_call_output", "reasoning",
    "item_reference", "compaction", "compaction_trigger", "configuration_update",
    "additional_tools", "file_search_call", "web_search_call", "computer_call",
    "computer_call_output", "tool_search_call", "tool_search_output", "code_interpreter_call",
    "image_generation_call", "local_shell_call", "local_shell_call_output", "shell_call",
    "shell_call_output", "apply_patch_call", "apply_patch_call_output", "mcp_list_tools",
    "mcp_approval_request", "mcp_approval_response", "mcp_call", "custom_tool_call",
    "custom_tool_call_output", "program", "program_output",
)
# fmt: on
#: What the parser calls a node -> (the API's types, how the API names the node): unknown-block.
KINDS = {
    "part": (PARTS, "a Responses content part"),
    "item": (ITEMS, "a Responses item"),
}

_PAIRS = (
    "Responses pairs an output with its call by call_id; whether it must come after the call "
    "is not documented (helpers/rules/openai_responses.py), and " + NONE_KNOWN
)
#: The shared rules it answers its own way: (rule, verdict, error text, source), read by
#: ``standin.rules.shared``.
SHARED: list[tuple[str, str, str, str]] = [
    ("no-messages", "accepted", "", "an empty input list: " + NONE_KNOWN),
    (
        "duplicate-id",
        "accepted",
        "",
        NONE_KNOWN + " (the same item id twice is another rule of the API's: 'Duplicate "
        "item found with id ...', openai/openai-agents-python#1789)",
    ),
    ("duplicate-tool", "accepted", "", NONE_KNOWN),
    ("empty-content", "accepted", "", NONE_KNOWN),
    ("result-before-call", "accepted", "", _PAIRS),
    ("result-wrong-turn", "accepted", "", _PAIRS),
    (
        "arguments-not-object",
        "accepted",
        "",
        "arguments is 'A JSON string of the arguments' the API passes on ("
        + OPENAI_SDK
        + "responses/response_function_tool_call_param.py); "
        + NONE_KNOWN,
    ),
    (
        "unknown-block",
        "refused",
        "part type {kind!r} is not a Responses content part (or: item type {kind!r} is not "
        "a Responses item)",
        OURS,
    ),
    (
        "block-not-allowed",
        "refused",
        "a {role} message holds {allowed} blocks, not {kind}",
        OURS + " (an input_image in a system message)",
    ),
    not_on_the_wire(
        "unknown-role",
        "an input message's role is user, assistant, system or developer ("
        + OPENAI_SDK
        + "responses/easy_input_message_param.py)",
        "a body with another role is malformed (refused, naming input[N].role)",
    ),
    not_on_the_wire(
        "content-not-list",
        "content is a string or a list of parts (" + OPENAI_SDK + "responses/easy_input_"
        "message_param.py)",
        "the parser reads a string as one text block; another type is malformed",
    ),
    not_on_the_wire(
        "call-outside-assistant",
        "a function_call is an input item of its own, with no role ("
        + OPENAI_SDK
        + "responses/response_function_tool_call_param.py)",
        "the parser reads it as the model's",
    ),
    not_on_the_wire(
        "result-outside-tool-message",
        "a function_call_output is an input item of its own, with no role ("
        + OPENAI_SDK
        + "responses/response_input_item_param.py)",
        "the parser reads it as a tool message",
    ),
    not_on_the_wire(
        "tool-message-content",
        "a function_call_output's output is all of the result ("
        + OPENAI_SDK
        + "responses/response_input_item_param.py)",
        "nothing else can sit beside it",
    ),
]


# The response body it sends, for ``standin.render_response``.

_RESPONSES_STATUS = {
    "end_turn": ("completed", None),
    "tool_calls": ("completed", None),
    "max_tokens": ("incomplete", "max_output_tokens"),
    "refusal": ("incomplete", "content_filter"),
    "other": ("incomplete", None),
}


def response_body(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``response`` body a server would send; item ids are derived from ``reply.id``."""
    rid = reply.id or "resp_local"
    suffix = rid.removeprefix("resp_")
    # A server gives every output item an id; reasoning keeps its own when it has one.
    blocks = [
        replace(b, id=f"rs_{suffix}_{n}") if isinstance(b, Reasoning) and b.id is None else b
        for n, b in enumerate(reply.message.content)
    ]
    items: list[dict] = []
    for item in _assistant_items(Message("assistant", blocks), "message", notes):
        if item["type"] == "message" and isinstance(item["content"], str):
            part = {"type": "output_text", "text": item["content"], "annotations": []}
            if items and items[-1]["type"] == "message":  # output messages hold output_text parts
                items[-1]["content"].append(part)
                continue
            item = {**item, "content": [part]}
        items.append(item)
    prefixes = {"message": "msg", "function_call": "fc", "reasoning": "rs"}
    items = [
        {"id": f"{prefixes[item['type']]}_{suffix}_{n}", **item, "status": "completed"}
        for n, item in enumerate(items)
    ]
    status, reason = _RESPONSES_STATUS[reply.stop_reason]
    if reply.stop_reason == "other":
        notes.add("stop_reason", "'other' sent as status 'incomplete' with no reason")
    u = reply.usage
    details_in = {"cached_tokens": u.cache_read_tokens, "cache_write_tokens": u.cache_write_tokens}
    return {
        "id": rid,
        "object": "response",
        "created_at": created,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": reason} if reason else None,
        "model": reply.model,
        "output": items,
        "usage": {
            "input_tokens": u.input_tokens,
            "input_tokens_details": details_in,
            "output_tokens": u.output_tokens,
            "output_tokens_details": {"reasoning_tokens": u.reasoning_tokens},
            "total_tokens": u.input_tokens + u.output_tokens,
        },
    }


def reasoning(text: str, seed: str) -> Reasoning:
    """A reasoning item with its ``rs_`` id and encrypted content (``standin.provider.turn``)."""
    rid = "rs_" + hashlib.sha256(seed.encode()).hexdigest()[:40]
    signature = signatures.sign("openai-responses", text)
    return Reasoning(text, signature, "openai", id=rid)  # formats labels it "openai"


# Serving it (``standin.provider.routes``, ``standin.provider.state``).
#: The response header that carries the request's id.
#: Its endpoints on the stand-in: (path pattern, kind, streamed, HTTP method).
ROUTES = [
    (r"/v1/responses", "generate", False, "POST"),
    (r"/v1/conversations", "conversations", False, "POST"),
]


def claims(path: str, headers: dict[str, str]) -> bool:
    """Whether an unroutable request looks like this provider's: never (OpenAI Chat's style)."""
    return False


REQUEST_ID_HEADER = "x-request-id"
#: Its response ids: (prefix, length of the digest part).
REPLY_ID = ("resp_", 48)
#: What it stores between requests: ``"responses"`` (chains and conversations), ``"threads"``
#: (message threads), or None.
STORES = "responses"
#: Whether a thought's signature rides on the first function call (not on the thought).
SIGNS_FIRST_CALL = False
#: Whether its body names the stop sequence that ended the reply.
NAMES_STOP_SEQUENCE = False
#: Whether its stream carries usage only when ``stream_options.include_usage`` asks.
USAGE_ON_ASK = False
#: Its stream without ``?alt=sse`` as one JSON array (a function), or None: always SSE.
json_array = None


def wants_reasoning(body: dict[str, Any]) -> bool:
    """``reasoning`` set asks for it."""
    return bool(body.get("reasoning"))


def bad_signature(body: dict[str, Any]) -> str | None:
    """A reasoning item whose encrypted content is not ours for its summary."""
    for item in body.get("input") if isinstance(body.get("input"), list) else []:
        if isinstance(item, dict) and item.get("type") == "reasoning":
            text = "".join(s.get("text", "") for s in item.get("summary") or [])
            if not signatures.verify("openai-responses", text, item.get("encrypted_content") or ""):
                item_id = item.get("id")
                return f"The encrypted content for item {item_id} could not be verified."
    return None


def key_refusal(headers: dict[str, str], key_in_query: bool) -> tuple | None:
    """No usable key: OpenAI's 401 (``standin.provider.keys``)."""
    from standin.provider.keys import openai_refusal

    return openai_refusal(headers)


def read_options(body: dict[str, Any]) -> Any:
    """Its request's wishes for the scenarios (``standin.provider.wire_options``)."""
    from standin.provider import wire_options

    return wire_options.responses(body)


# Checking it (``standin.rules``).
#: The endpoint forwarded to it (``standin.forward``: generation and counting).
FORWARDED = re.compile(r"/v1/responses")
#: Whether its checks add Anthropic's id pattern (``standin.rules.strict``).
ID_PATTERNS = False


def origins(body: dict[str, Any]) -> Any:
    """Where each neutral message and block came from in ``body`` (``standin.rules.origins``)."""
    from standin.rules import origins

    return origins.openai_responses(body)


def wire_notes() -> tuple[Any, Any] | None:
    """No wire rules' notes to put in (``standin.rules.wire_notes``)."""
    return None


def curl(stand_in: Any, key: str) -> list[str]:
    """The serve banner's curl example for this API: none (OpenAI Chat's shows the family)."""
    return []


def tool_choice_rows() -> list[tuple[str, str, str, str, str | None]]:
    """``docs/rules.md``'s tool_choice rows: (rule, verdict, its text, source, checked)."""
    from standin.rules import tool_choice as t

    return [
        (rule, "refused", text, t.SOURCES[text], t.CHECKED)
        for rule, text in (
            ("tool-choice-without-tools", t.RESPONSES_REQUIRED),
            ("tool-choice-undeclared", t.RESPONSES_UNDECLARED),
        )
    ]


def tool_choice(body: dict[str, Any], tools: list | None, profile: str) -> list:
    """What it refuses in the body's ``tool_choice`` (``standin.rules.tool_choice``)."""
    from standin.rules import tool_choice

    return tool_choice.judged_choice(body, tools, profile, tool_choice.responses)


def tool_schema(tool: dict[str, Any], i: int) -> tuple[Any, str, Any] | None:
    """Tool ``i``'s (name, path of its schema, schema) (``standin.rules.schemas``)."""
    if tool.get("type") != "function":
        return None
    return tool.get("name"), f"tools[{i}].parameters", tool.get("parameters")


def schema_answer(i: int, name: Any, detail: str, where: str) -> Any:
    """Its answer to tool ``i``'s invalid JSON Schema (``standin.rules.schemas``)."""
    from helpers.rules import Answer
    from standin.rules.schemas import OPENAI

    return Answer(OPENAI.format(name=name, detail=detail), where, "invalid_function_parameters")


#: Whether its parser's note names the unknown field first (``standin.rules.wire``).
NOTE_NAMES_KIND = False


def wire_answer(rule: str, text: str, values: dict[str, Any], body: dict[str, Any]) -> Any:
    """Its answer to a wire rule, ``text`` filled with ``values`` (``standin.rules.wire``)."""
    from helpers.rules import Answer

    return Answer(text.format(**values))


def unknown_fields(body: dict[str, Any], profile: str, betas: Any, version: str) -> list:
    """The fields of ``body`` it does not know, located and answered (``standin.rules.fields``)."""
    from standin.rules import fields

    return fields.responses(body, profile, betas, version)


#: Whether its settings answers name the parameter (``standin.rules.params``).
NAMES_PARAM = True


def settings(body: dict[str, Any], model: str) -> list:
    """The settings its ``model`` refuses in ``body`` (``standin.rules.params``)."""
    from standin.rules import params

    return params.responses(body, model)


#: Whether its reasoning items pair with what they produced by id on the wire, judged on the body
#: (``standin.verdict``).
PAIRS_ON_THE_WIRE = True
#: Whether it names the unknown fields of a body it cannot read before the value it cannot read.
UNKNOWN_FIELDS_FIRST = True


def tool_place(tool: dict[str, Any], i: int) -> tuple[Any, str] | None:
    """Tool ``i``'s name and where its parameters are (``standin.verdict``)."""
    return tool.get("name"), f"tools[{i}].parameters"


def output_place(body: dict[str, Any]) -> str:
    """Where the structured-output schema is in ``body`` (``standin.verdict``)."""
    return "text.format.schema"


# What a count does not see (``standin.wire_count``).
#: Where it keeps its turns, and what a turn calls its parts.
TURNS = ("input", "content")
#: Whether a part's kind is its key (Gemini's), not its ``type``.
PARTS_BY_KEY = False
#: Request fields the neutral request does not carry, so no count sees them.
UNCOUNTED_FIELDS: dict[str, str] = {}
#: Content the count does not see (part types).
UNCOUNTED_PARTS = {"input_file", "input_audio"}


def uncounted_extras(body: dict[str, Any]) -> tuple[dict, dict, dict]:
    """(the body, what it adds that is bounded, the fields to look in)."""
    from standin.wire_count import responses_extras

    out: dict = {}
    out.update(responses_extras(body))
    return body, out, body


def structured_output(body: dict[str, Any]) -> tuple[Any, str]:
    """Its structured-output setting and where it is: none of its own."""
    return None, "output_config.format"


def built_in_tool(tool: dict[str, Any]) -> str | None:
    """The kind of a tool it runs itself: none."""
    return None
