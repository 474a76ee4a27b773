"""What the stand-in does differently for Anthropic Messages (``anthropic``).

The stand-in's concern modules read these through ``standin.providers.of(format)``; each
name says which. What the provider *is* (host, key, format modules) is its row in
``helpers/formats/providers.py``.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.formats.anthropic_render import _blocks
from helpers.formats.common import Notes
from helpers.messages import Reasoning, Reply
from helpers.rules import anthropic as rules
from standin.provider import signatures
from standin.rules.shared import ANTHROPIC_SDK, OURS, not_on_the_wire, theirs

#: Fields it requires, with the text it answers when one is missing (``missing-field``,
#: ``standin.rules.required`` has the sources).
REQUIRED: list[tuple[str, str]] = [
    ("model", "model: Field required"),
    ("max_tokens", "max_tokens: Field required"),
    ("messages", "messages: Field required"),
]

#: What its reasoning signatures start with (``standin.provider.signatures``): OpenAI's encrypted
#: content starts ``gAAAAA`` like the real one.
SIGNATURE_PREFIX = ""
#: Whether it still takes the functions era's ``functions``/``function_call`` messages
#: (``standin.functions_era``).
FUNCTIONS_ERA = False
#: Its tool-call ids: (prefix, length of the random-looking part) (``standin.provider.turn``).
TOOL_CALL_ID = ("toolu_01", 22)
#: Whether its field names come in two spellings, snake_case and camelCase
#: (``standin.rules.spellings``, ``standin.known_fields``, ``standin.rules.wire_notes``).
TWO_SPELLINGS = False


#: Its block types: the block unions (anthropic 2.14.0), plus ``tool_reference`` and
#: ``mid_conv_system``.
# fmt: off
BLOCKS = (
    "text", "image", "tool_use", "tool_result", "thinking", "redacted_thinking",
    "document", "search_result", "server_tool_use", "web_search_tool_result",
    "web_fetch_tool_result", "advisor_tool_result", "code_execution_tool_result",
    "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
    "tool_search_tool_result", "mcp_tool_use", "mcp_tool_result", "mcp_tool_listing",
    "container_upload", "compaction", "tool_addition", "tool_removal", "tool_reference",
    "mid_conv_system",
)
# fmt: on
#: What the parser calls a node -> (the API's types, how the API names the node): unknown-block.
KINDS = {"block": (BLOCKS, "a Messages block")}

#: The shared rules it answers its own way: (rule, verdict, error text, source), read by
#: ``standin.rules.shared``.
SHARED: list[tuple[str, str, str, str]] = [
    theirs("no-messages", rules.NO_MESSAGES),
    theirs("result-before-call", rules.UNEXPECTED),
    theirs("result-wrong-turn", rules.UNEXPECTED),
    (
        "call-outside-assistant",
        "refused",
        "only the model makes tool calls: a tool_call belongs in an assistant message, not "
        "in a {role} message",
        OURS + " (a tool_use block in a user message; searched 2026-12-01)",
    ),
    (
        "result-outside-tool-message",
        "refused",
        "a tool_result belongs in a tool message, not in a {role} message",
        OURS + " (a tool_result block in an assistant message; searched 2026-12-01)",
    ),
    (
        "block-not-allowed",
        "refused",
        "a {role} message holds {allowed} blocks, not {kind}",
        OURS + " (a thinking block in a user message)",
    ),
    not_on_the_wire(
        "unknown-role",
        "a message is a user, assistant or system message (" + ANTHROPIC_SDK + "message_param.py)",
        "a body with another role is malformed (refused, naming messages[N])",
    ),
    not_on_the_wire(
        "content-not-list",
        "content is a string or a list of blocks (" + ANTHROPIC_SDK + "message_param.py and "
        "the message types it joins)",
        "the parser reads a string as one text block; another type is malformed",
    ),
    not_on_the_wire(
        "tool-message-content",
        "tool_result blocks sit in a user message, beside any other blocks",
        "the parser splits them into a tool message and a user message, so a tool message "
        "read from a body holds results only",
    ),
]


# The response body it sends, for ``standin.render_response``.

_ANTHROPIC_STOP_BACK = {
    "end_turn": "end_turn",
    "tool_calls": "tool_use",
    "max_tokens": "max_tokens",
    "refusal": "refusal",
    "other": "pause_turn",
}


def response_body(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``message`` body a server would send (Anthropic bodies carry no timestamp)."""
    u = reply.usage
    usage: dict[str, Any] = {
        "input_tokens": u.uncached_input_tokens,
        "cache_creation_input_tokens": u.cache_write_tokens,
        "cache_read_input_tokens": u.cache_read_tokens,
        "output_tokens": u.output_tokens,
    }
    if u.reasoning_tokens:
        usage["output_tokens_details"] = {"thinking_tokens": u.reasoning_tokens}
    if reply.stop_reason == "other":
        notes.add("stop_reason", "'other' sent as 'pause_turn'")
    return {
        "id": reply.id or "msg_local",
        "type": "message",
        "role": "assistant",
        "model": reply.model,
        "content": _blocks(reply.message, "message", notes),
        "stop_reason": _ANTHROPIC_STOP_BACK[reply.stop_reason],
        "stop_sequence": None,
        "usage": usage,
    }


# Its errors (``standin.provider.errors``).
#: The real text for a body that is not JSON.
BAD_JSON = "There was an error parsing the body: {detail}"
#: The text for a path no endpoint serves (404).
NOT_FOUND = "Not found: {method} {path}"
#: The real text for a model id it does not know (status 404).
UNKNOWN_MODEL = "model: {model}"
#: HTTP status -> its error type.
ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    411: "invalid_request_error",
    413: "request_too_large",
    422: "stand_in_error",
    429: "rate_limit_error",
    500: "api_error",
    502: "api_error",
    503: "api_error",
    529: "overloaded_error",
}


def error_body(
    status: int,
    message: str,
    param: str | None,
    code: str | None,
    request_id: str | None,
    details: list[dict] | None,
) -> dict[str, Any]:
    """``{"type": "error", "error": {"type", "message"}, "request_id"}``."""
    return {
        "type": "error",
        "error": {"type": ERROR_TYPES.get(status, ERROR_TYPES[500]), "message": message},
        "request_id": "req_local_error" if request_id is None else request_id,
    }


def reasoning(text: str, seed: str) -> Reasoning:
    """A thinking block with its synthetic signature (``standin.provider.turn``)."""
    return Reasoning(text, signatures.sign("anthropic", text), "anthropic")


# Serving it (``standin.provider.routes``, ``standin.provider.state``).
#: The response header that carries the request's id.
#: Its endpoints on the stand-in: (path pattern, kind, streamed, HTTP method).
ROUTES = [
    (r"/v1/messages", "generate", False, "POST"),
    (r"/v1/messages/count_tokens", "count", False, "POST"),
]


def claims(path: str, headers: dict[str, str]) -> bool:
    """Whether an unroutable request (a 404, a 405) looks like Anthropic's: its path or headers."""
    return (
        path.startswith("/v1/messages") or "anthropic-version" in headers or "x-api-key" in headers
    )


REQUEST_ID_HEADER = "request-id"
#: Its response ids: (prefix, length of the digest part).
REPLY_ID = ("msg_01", 22)
#: What it stores between requests: ``"responses"`` (chains and conversations), ``"threads"``
#: (message threads), or None.
STORES = "threads"
#: Whether a thought's signature rides on the first function call (not on the thought).
SIGNS_FIRST_CALL = False
#: Whether its body names the stop sequence that ended the reply.
NAMES_STOP_SEQUENCE = True
#: Whether its stream carries usage only when ``stream_options.include_usage`` asks.
USAGE_ON_ASK = False
#: Its stream without ``?alt=sse`` as one JSON array (a function), or None: always SSE.
json_array = None


def wants_reasoning(body: dict[str, Any]) -> bool:
    """``thinking`` enabled or adaptive asks for it."""
    return (body.get("thinking") or {}).get("type") in ("enabled", "adaptive")


def bad_signature(body: dict[str, Any]) -> str | None:
    """A thinking block whose signature is not ours for its text."""
    for i, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        for j, block in enumerate(content if isinstance(content, list) else []):
            thinking = isinstance(block, dict) and block.get("type") == "thinking"
            if thinking and not signatures.verify(
                "anthropic", block.get("thinking", ""), block.get("signature")
            ):
                return f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block"
    return None


def key_refusal(headers: dict[str, str], key_in_query: bool) -> tuple | None:
    """No usable key, or no ``anthropic-version`` (``standin.provider.keys``)."""
    from standin.provider.keys import anthropic_refusal

    return anthropic_refusal(headers)


def read_options(body: dict[str, Any]) -> Any:
    """Its request's wishes for the scenarios (``standin.provider.wire_options``)."""
    from standin.provider import wire_options

    return wire_options.anthropic(body)


def models_answer(ids: list[str], one: bool) -> dict[str, Any]:
    """``GET /v1/models[/{model}]`` (``standin.provider.side_routes``): its list or model."""
    rows = [
        {"type": "model", "id": i, "display_name": i, "created_at": "1970-01-01T00:00:00Z"}
        for i in ids
    ]
    if one:
        return rows[0]
    return {"data": rows, "has_more": False, "first_id": ids[0], "last_id": ids[-1]}


def count_probe(body: dict[str, Any]) -> dict[str, Any] | str:
    """The Messages body a count-tokens body stands for (without the required ``max_tokens``
    it does not take) (``standin.provider.side_routes``)."""
    return {"max_tokens": 1, **body}


def count_answer(n: int) -> dict[str, Any]:
    """Its count-tokens answer for ``n`` input tokens."""
    return {"input_tokens": n}


# Its live count (``standin.count_live``).
#: The key of the total in the answer.
LIVE_COUNT_TOTAL = "input_tokens"
#: What the answer means, said with it.
LIVE_COUNT_NOTES = [
    "Anthropic documents count_tokens as an estimate that may include tokens it adds "
    "for system optimizations and does not bill"
]


def live_count(info: Any, request: Any) -> tuple[str, dict[str, Any]]:
    """Path and JSON body of the count request: ``POST /v1/messages/count_tokens``."""
    from helpers.formats import render

    body = render(request, "anthropic").body
    body.pop("max_tokens", None)  # count_tokens takes no max_tokens
    body["model"] = info.id
    return "/v1/messages/count_tokens", body


# Checking it (``standin.rules``).
#: The endpoint forwarded to it (``standin.forward``: generation and counting).
FORWARDED = re.compile(r"/v1/messages(?:/count_tokens)?")
#: Whether its checks add Anthropic's id pattern (``standin.rules.strict``).
ID_PATTERNS = True


def origins(body: dict[str, Any]) -> Any:
    """Where each neutral message and block came from in ``body`` (``standin.rules.origins``)."""
    from standin.rules import origins

    return origins.anthropic(body)


def wire_notes() -> tuple[Any, Any] | None:
    """Its wire rules' note finder and locator (``standin.rules.wire_notes``)."""
    from standin.rules import wire_notes

    return wire_notes.anthropic_results, wire_notes.anthropic_key


def curl(stand_in: Any, key: str) -> list[str]:
    """The serve banner's curl example, with every header the API requires (Anthropic refuses a
    request without ``anthropic-version``)."""
    hello = '"messages":[{"role":"user","content":"Hi, my order SO-48213 arrived cracked."}]'
    headers = f"-H 'x-api-key: {key}' -H 'anthropic-version: 2023-06-01'"
    return [
        f"  curl {stand_in.endpoint('anthropic')} \\",
        f"    {headers} -H 'content-type: application/json' \\",
        f'    -d \'{{"model":"claude-sonnet-4-5","max_tokens":512,{hello}}}\'',
        "",
    ]


def tool_choice_rows() -> list[tuple[str, str, str, str, str | None]]:
    """``docs/rules.md``'s tool_choice rows: (rule, verdict, its text, source, checked)."""
    from standin.rules import tool_choice as t

    return [
        (rule, "refused", text, t.SOURCES[text], t.CHECKED)
        for rule, text in (
            ("tool-choice-without-tools", t.ANTHROPIC_ANY),
            ("tool-choice-undeclared", t.ANTHROPIC_UNDECLARED),
        )
    ]


def tool_choice(body: dict[str, Any], tools: list | None, profile: str) -> list:
    """What it refuses in the body's ``tool_choice`` (``standin.rules.tool_choice``)."""
    from standin.rules import tool_choice

    return tool_choice.judged_choice(body, tools, profile, tool_choice.anthropic)


def tool_schema(tool: dict[str, Any], i: int) -> tuple[Any, str, Any] | None:
    """Tool ``i``'s (name, path of its schema, schema) (``standin.rules.schemas``)."""
    if "input_schema" not in tool:
        return None
    return tool.get("name"), f"tools[{i}].input_schema", tool["input_schema"]


def schema_answer(i: int, name: Any, detail: str, where: str) -> Any:
    """Its answer to tool ``i``'s invalid JSON Schema (``standin.rules.schemas``)."""
    from helpers.rules import Answer
    from standin.rules.schemas import ANTHROPIC

    return Answer(ANTHROPIC.format(i=i))


#: Whether its parser's note names the unknown field first (``standin.rules.wire``).
NOTE_NAMES_KIND = False


def wire_answer(rule: str, text: str, values: dict[str, Any], body: dict[str, Any]) -> Any:
    """Its answer to a wire rule, ``text`` filled with ``values`` (``standin.rules.wire``): the
    calls left unanswered named when the results do not come first (None if there are none)."""
    from helpers.rules import Answer
    from standin.rules.wire import unanswered

    if rule == "results-not-first":
        values.update(unanswered(body, values["w"]))
        if not values.get("ids"):
            return None
    return Answer(text.format(**values))


def unknown_fields(body: dict[str, Any], profile: str, betas: Any, version: str) -> list:
    """The fields of ``body`` it does not know, located and answered (``standin.rules.fields``)."""
    from standin.rules import fields

    return fields.anthropic(body, profile, betas)


#: Whether its settings answers name the parameter (``standin.rules.params``).
NAMES_PARAM = False


def settings(body: dict[str, Any], model: str) -> list:
    """The settings its ``model`` refuses in ``body`` (``standin.rules.params``)."""
    from standin.rules import params

    return params.anthropic(body, model)


#: Whether its reasoning items pair with what they produced by id on the wire, judged on the body
#: (``standin.verdict``).
PAIRS_ON_THE_WIRE = False
#: Whether it names the unknown fields of a body it cannot read before the value it cannot read.
UNKNOWN_FIELDS_FIRST = False


def tool_place(tool: dict[str, Any], i: int) -> tuple[Any, str] | None:
    """Tool ``i``'s name and where its parameters are (``standin.verdict``)."""
    return tool.get("name"), f"tools[{i}].input_schema"


def output_place(body: dict[str, Any]) -> str:
    """Where the structured-output schema is in ``body`` (``standin.verdict``)."""
    return "output_config.format.schema" if "output_config" in body else "output_format.schema"


# What a count does not see (``standin.wire_count``).
#: Where it keeps its turns, and what a turn calls its parts.
TURNS = ("messages", "content")
#: Whether a part's kind is its key (Gemini's), not its ``type``.
PARTS_BY_KEY = False
#: Request fields the neutral request does not carry, so no count sees them.
UNCOUNTED_FIELDS = {
    "thinking": "extended thinking: the bill adds tokens no offline count sees",
    "mcp_servers": "MCP servers: their tool definitions are added by the API, not counted",
    "container": "a code-execution container: its files are not counted",
    "output_format": "structured output: the schema is given to the model, not counted",
    "context_management": "context management: the API may clear earlier content before "
    "billing (a recorded bill was 0.002x the count), not counted",
}
#: Content the count does not see (block types).
UNCOUNTED_PARTS = {"document", "search_result", "container_upload", "compaction", "thinking"}
UNCOUNTED_PARTS |= {"redacted_thinking", "server_tool_use", "mcp_tool_use", "mcp_tool_result"}


def uncounted_extras(body: dict[str, Any]) -> tuple[dict, dict, dict]:
    """(the body, what it adds that is bounded, the fields to look in)."""
    return body, {}, body


def structured_output(body: dict[str, Any]) -> tuple[Any, str]:
    """Its structured-output setting and where it is (``output_format``: the beta's spelling)."""
    if isinstance(body.get("output_format"), dict):
        return {"format": body["output_format"]}, "output_format"
    return body.get("output_config"), "output_config.format"


def built_in_tool(tool: dict[str, Any]) -> str | None:
    """The kind of a tool it runs itself (``web_search_...``), else None."""
    return str(tool["type"]) if tool.get("type") not in (None, "custom") else None
