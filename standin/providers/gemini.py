"""What the stand-in does differently for Gemini generateContent (``gemini``).

The stand-in's concern modules read these through ``standin.providers.of(format)``; each
name says which. What the provider *is* (host, key, format modules) is its row in
``helpers/formats/providers.py``.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.formats.common import Notes
from helpers.formats.gemini_render import _model_parts
from helpers.messages import Reasoning, Reply
from standin.rules.shared import GENAI_SDK, NONE_KNOWN, OURS, not_on_the_wire

#: Fields it requires, with the text it answers when one is missing (``missing-field``,
#: ``standin.rules.required`` has the sources).
REQUIRED: list[tuple[str, str]] = [
    ("contents", "* GenerateContentRequest.contents: contents is not specified")
]

#: What its reasoning signatures start with (``standin.provider.signatures``): OpenAI's encrypted
#: content starts ``gAAAAA`` like the real one.
SIGNATURE_PREFIX = ""
#: Whether it still takes the functions era's ``functions``/``function_call`` messages
#: (``standin.functions_era``).
FUNCTIONS_ERA = False
#: Its tool-call ids: (prefix, length of the random-looking part) (``standin.provider.turn``).
TOOL_CALL_ID = ("", 8)
#: Whether its field names come in two spellings, snake_case and camelCase
#: (``standin.rules.spellings``, ``standin.known_fields``, ``standin.rules.wire_notes``).
TWO_SPELLINGS = True


#: What the parser calls a node -> (the API's types, ...): none refused as unknown-block.
KINDS: dict[str, tuple[tuple[str, ...], str]] = {}

_PAIRS = (
    "the stand-in warns under this rule: Gemini pairs calls and responses by turn, and "
    "call-turn-position, response-turn-position and response-count (below) refuse what public "
    "reports show refused; FunctionCall.id is optional (" + GENAI_SDK + "), and " + NONE_KNOWN
)
#: The shared rules it answers its own way: (rule, verdict, error text, source), read by
#: ``standin.rules.shared``.
SHARED: list[tuple[str, str, str, str]] = [
    (
        "no-messages",
        "accepted",
        "",
        "an empty contents list: no public report quotes "
        "Gemini's answer (an absent one is missing-field, above)",
    ),
    ("duplicate-tool", "accepted", "", NONE_KNOWN),
    ("duplicate-id", "accepted", "", _PAIRS),
    ("call-not-answered", "accepted", "", _PAIRS),
    ("result-without-call", "accepted", "", _PAIRS),
    ("result-before-call", "accepted", "", _PAIRS),
    ("result-wrong-turn", "accepted", "", _PAIRS),
    (
        "call-outside-assistant",
        "refused",
        "only the model makes tool calls: a tool_call belongs in an assistant message, not "
        "in a {role} message",
        OURS + " (a functionCall part in a user turn)",
    ),
    (
        "result-outside-tool-message",
        "refused",
        "a tool_result belongs in a tool message, not in a {role} message",
        OURS + " (a functionResponse part in a model turn)",
    ),
    (
        "block-not-allowed",
        "refused",
        "a {role} message holds {allowed} blocks, not {kind}",
        OURS + " (a thought part in a user turn)",
    ),
    not_on_the_wire(
        "content-not-list",
        "Content.parts is a list of Part (" + GENAI_SDK + ")",
        "another type is malformed",
    ),
    not_on_the_wire(
        "tool-message-content",
        "a functionResponse part sits in a user turn, beside any other parts (" + GENAI_SDK + ")",
        "the parser splits them into a tool message and a user message, so a tool message "
        "read from a body holds results only",
    ),
]


# The response body it sends, for ``standin.render_response``.

_GEMINI_FINISH = {
    "end_turn": "STOP",
    "tool_calls": "STOP",
    "max_tokens": "MAX_TOKENS",
    "refusal": "SAFETY",
    "other": "OTHER",
}


def response_body(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``GenerateContentResponse`` a server would send (no timestamp in Gemini bodies)."""
    u = reply.usage
    usage = {
        "promptTokenCount": u.input_tokens,
        "candidatesTokenCount": u.output_tokens - u.reasoning_tokens,
    }
    if u.cache_read_tokens:
        usage["cachedContentTokenCount"] = u.cache_read_tokens
    if u.reasoning_tokens:
        usage["thoughtsTokenCount"] = u.reasoning_tokens
    usage["totalTokenCount"] = u.input_tokens + u.output_tokens
    if u.cache_write_tokens:
        notes.add("usage", "gemini reports no cache writes; cache_write_tokens left out")
    content = {"role": "model", "parts": _model_parts(reply.message, "message", notes)}
    return {
        "candidates": [
            {"content": content, "finishReason": _GEMINI_FINISH[reply.stop_reason], "index": 0}
        ],
        "usageMetadata": usage,
        "modelVersion": reply.model,
        "responseId": reply.id or "gemini-local",
    }


# Its errors (``standin.provider.errors``).
#: The real text for a body that is not JSON.
BAD_JSON = "Invalid JSON payload received. {detail}"
#: The text for a path no endpoint serves (404).
NOT_FOUND = "Not found: {method} {path}"
#: The real text for a model id it does not know (status 404).
UNKNOWN_MODEL = (
    "models/{model} is not found for API version v1beta, or is not supported for generateContent."
)
#: HTTP status -> its error status.
ERROR_TYPES: dict[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "INVALID_ARGUMENT",
    411: "INVALID_ARGUMENT",
    413: "INVALID_ARGUMENT",
    422: "FAILED_PRECONDITION",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    529: "UNAVAILABLE",
}


def error_body(
    status: int,
    message: str,
    param: str | None,
    code: str | None,
    request_id: str | None,
    details: list[dict] | None,
) -> dict[str, Any]:
    """``{"error": {"code", "message", "status"}}``, with ``details`` when given."""
    error = {
        "code": status,
        "message": message,
        "status": ERROR_TYPES.get(status, ERROR_TYPES[500]),
    }
    return {"error": {**error, "details": details} if details else error}


def reasoning(text: str, seed: str) -> Reasoning:
    """A thought, unsigned: Gemini's signature rides on the first function call
    (``standin.provider.turn``, ``standin.provider.routes``)."""
    return Reasoning(text, None, "gemini")


# Serving it (``standin.provider.routes``, ``standin.provider.state``).
#: The response header that carries the request's id.
#: The Gemini API's model path (``/v1`` or ``/v1beta``, then ``/models/M``), or Vertex AI's
#: (``/v1`` or ``/v1beta1``, then ``/projects/P/locations/L/publishers/google`` or, in its
#: express mode with an API key, ``/publishers/google``, then ``/models/M``; google-genai's
#: Vertex client calls ``/v1beta1``): the same body and answer. ``/v1beta`` is the Gemini API's
#: only, ``/v1beta1`` Vertex AI's only.
_VERTEX = r"(?:(?:/projects/[^/]+/locations/[^/]+)?/publishers/google)?"
_VERSION = (
    r"(?P<version>v1|v1beta(?=/models/)"
    r"|v1beta1(?=(?:/projects/[^/]+/locations/[^/]+)?/publishers/google/))"
)
_MODEL = "/" + _VERSION + _VERTEX + r"/models/(?P<model>[^/:]+)"

#: Its endpoints on the stand-in: (path pattern, kind, streamed, HTTP method).
ROUTES = [
    (_MODEL + ":generateContent", "generate", False, "POST"),
    (_MODEL + ":streamGenerateContent", "generate", True, "POST"),
    (_MODEL + ":countTokens", "count", False, "POST"),
]


def claims(path: str, headers: dict[str, str]) -> bool:
    """Whether an unroutable request (a 404, a 405) looks like Gemini's: its path or key header."""
    return path.startswith("/v1beta") or "x-goog-api-key" in headers


REQUEST_ID_HEADER = "x-request-id"
#: Its response ids: (prefix, length of the digest part).
REPLY_ID = ("", 22)
#: What it stores between requests: ``"responses"`` (chains and conversations), ``"threads"``
#: (message threads), or None.
STORES = None
#: Whether a thought's signature rides on the first function call (not on the thought).
SIGNS_FIRST_CALL = True
#: Whether its body names the stop sequence that ended the reply.
NAMES_STOP_SEQUENCE = False
#: Whether its stream carries usage only when ``stream_options.include_usage`` asks.
USAGE_ON_ASK = False


def wants_reasoning(body: dict[str, Any]) -> bool:
    """``thinkingConfig.includeThoughts``, in either spelling, at every level."""
    from helpers.formats.gemini_render import camel

    config = (camel(body).get("generationConfig") or {}).get("thinkingConfig") or {}
    return bool(config.get("includeThoughts"))


def bad_signature(body: dict[str, Any]) -> str | None:
    """Gemini's thought signatures are not checked by the stand-in."""
    return None


def json_array(whole: dict[str, Any]) -> list[dict[str, Any]]:
    """Its stream without ``?alt=sse``: one JSON array of records (``standin.sse_write.gemini``)."""
    from standin.sse_write.gemini import records

    return records(whole)


def key_refusal(headers: dict[str, str], key_in_query: bool) -> tuple | None:
    """No usable key, in a header or the query (``standin.provider.keys``)."""
    from standin.provider.keys import gemini_refusal

    return gemini_refusal(headers, key_in_query)


def read_options(body: dict[str, Any]) -> Any:
    """Its request's wishes for the scenarios (``standin.provider.wire_options``)."""
    from standin.provider import wire_options

    return wire_options.gemini(body)


def count_probe(body: dict[str, Any]) -> dict[str, Any] | str:
    """The generation body a countTokens body stands for, or what is wrong with it
    (``standin.provider.side_routes``)."""
    inner = body.get("generateContentRequest", body.get("generate_content_request"))
    if inner is not None and "contents" in body:
        return "contents and generateContentRequest: set one of them, not both."
    if inner is None:
        return {"contents": body.get("contents")} if "contents" in body else body
    if not isinstance(inner, dict):
        return "generateContentRequest: expected an object"
    return {k: v for k, v in inner.items() if k != "model"}


def count_answer(n: int) -> dict[str, Any]:
    """Its countTokens answer for ``n`` input tokens."""
    return {"totalTokens": n, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": n}]}


# Its live count (``standin.count_live``).
#: The key of the total in the answer.
LIVE_COUNT_TOTAL = "totalTokens"
#: What the answer means, said with it.
LIVE_COUNT_NOTES: list[str] = []


def live_count(info: Any, request: Any) -> tuple[str, dict[str, Any]]:
    """Path and JSON body of the count request: ``POST /v1beta/models/{model}:countTokens``."""
    from helpers.formats import render

    body = render(request, "gemini").body
    body["model"] = f"models/{info.id}"
    return f"/v1beta/models/{info.id}:countTokens", {"generateContentRequest": body}


# Checking it (``standin.rules``).
#: The endpoint forwarded to it (``standin.forward``: generation and counting).
FORWARDED = re.compile(
    r"/(?:v1|v1beta)/models/[A-Za-z0-9][A-Za-z0-9._-]{0,127}"
    r":(?:generateContent|streamGenerateContent|countTokens)"
)
#: Whether its checks add Anthropic's id pattern (``standin.rules.strict``).
ID_PATTERNS = False


def origins(body: dict[str, Any]) -> Any:
    """Where each neutral message and block came from in ``body`` (``standin.rules.origins``)."""
    from standin.rules import origins

    return origins.gemini(body)


def wire_notes() -> tuple[Any, Any] | None:
    """Its wire rules' note finder and locator (``standin.rules.wire_notes``)."""
    from standin.rules import wire_notes

    return wire_notes.gemini_fields, wire_notes.gemini_key


def curl(stand_in: Any, key: str) -> list[str]:
    """The serve banner's curl example for this API: a streamed answer (``-N``)."""
    body = '{"contents":[{"role":"user","parts":[{"text":"Hi, my order SO-48213 arrived."}]}]}'
    return [
        f"  curl -N '{stand_in.endpoint('gemini', 'gemini-3.8-flash', stream=True)}' \\",
        f"    -H 'x-goog-api-key: {key}' -H 'content-type: application/json' \\",
        f"    -d '{body}'",
        "",
    ]


def tool_choice_rows() -> list[tuple[str, str, str, str, str | None]]:
    """``docs/rules.md``'s tool_choice rows: (rule, verdict, its text, source, checked)."""
    from standin.rules import tool_choice as t

    undeclared = (
        "allowedFunctionNames naming an undeclared function: no public report of a 400 "
        "(searched 2026-12-01), so a warning"
    )
    return [
        ("tool-choice-without-tools", "accepted", "", t.GEMINI_CONFLICT, None),
        ("tool-choice-undeclared", "accepted", "", undeclared, t.CHECKED),
    ]


def tool_choice(body: dict[str, Any], tools: list | None, profile: str) -> list:
    """What it refuses in the body's ``toolConfig`` (``standin.rules.tool_choice``)."""
    from standin.rules import tool_choice

    return tool_choice.gemini(body, tools, profile)


def tool_schema(tool: dict, i: int) -> None:
    """Its tools' schemas are not checked here (``standin.rules.schemas``)."""
    return None


#: Whether its parser's note names the unknown field first (``standin.rules.wire``).
NOTE_NAMES_KIND = True


def wire_answer(rule: str, text: str, values: dict[str, Any], body: dict[str, Any]) -> Any:
    """Its answer to a wire rule, ``text`` filled with ``values`` (``standin.rules.wire``)."""
    from helpers.rules import Answer

    return Answer(text.format(**values))


def unknown_fields(body: dict[str, Any], profile: str, betas: Any, version: str) -> list:
    """The fields of ``body`` it does not know, located and answered (``standin.rules.fields``)."""
    from standin.rules import fields

    return fields.gemini(body, profile, betas, version)


#: Whether its settings answers name the parameter (``standin.rules.params``).
NAMES_PARAM = False


def settings(body: dict, model: str) -> list:
    """No settings rules of its own (``standin.rules.params``)."""
    return []


#: Whether its reasoning items pair with what they produced by id on the wire, judged on the body
#: (``standin.verdict``).
PAIRS_ON_THE_WIRE = False
#: Whether it names the unknown fields of a body it cannot read before the value it cannot read.
UNKNOWN_FIELDS_FIRST = False


def tool_place(tool: dict[str, Any], i: int) -> tuple[Any, str] | None:
    """Its declarations' places are found by the verdict itself (``standin.verdict``)."""
    return None


def output_place(body: dict[str, Any]) -> str:
    """Where the structured-output schema is in ``body``, either spelling (``standin.verdict``)."""
    holder = next((k for k in ("generationConfig", "generation_config") if k in body), None)
    config = body.get(holder) if holder and isinstance(body.get(holder), dict) else {}
    spellings = ("responseJsonSchema", "response_json_schema", "responseSchema", "response_schema")
    field = next((f for f in spellings if config.get(f)), "responseSchema")
    return f"{holder or 'generationConfig'}.{field}"


# What a count does not see (``standin.wire_count``).
#: Where it keeps its turns, and what a turn calls its parts.
TURNS = ("contents", "parts")
#: Whether a part's kind is its key (Gemini's), not its ``type``.
PARTS_BY_KEY = True
#: Request fields the neutral request does not carry, so no count sees them.
UNCOUNTED_FIELDS = {
    "responseSchema": "responseSchema: the schema is given to the model, size unknown",
    "responseJsonSchema": "responseJsonSchema: the schema is given to the model, size unknown",
    "response_schema": "response_schema: the schema is given to the model, size unknown",
    "response_json_schema": "response_json_schema: the schema is given to the model, size unknown",
    "cachedContent": "cachedContent: the cached content is billed in the prompt, not seen here",
    "cached_content": "cached_content: the cached content is billed in the prompt, not seen here",
}
#: Content the count does not see (part keys).
UNCOUNTED_PARTS = {
    "fileData",
    "file_data",
    "executableCode",
    "executable_code",
    "videoMetadata",
} | {
    "codeExecutionResult",
    "code_execution_result",
    "thought",
}


def uncounted_extras(body: dict[str, Any]) -> tuple[dict, dict, dict]:
    """(the body with parts given as one object accepted, nothing bounded, the fields to look
    in: the body's and its generation config's)."""
    from standin.functions_era import gemini_accepted

    body = gemini_accepted(body)
    config = body.get("generationConfig") or body.get("generation_config") or {}
    return body, {}, {**body, **config} if isinstance(config, dict) else body


def structured_output(body: dict[str, Any]) -> tuple[Any, str]:
    """Its structured-output setting and where it is: none of its own."""
    return None, "output_config.format"


def built_in_tool(tool: dict[str, Any]) -> str | None:
    """The kind of a tool it runs itself (``googleSearch``), else None."""
    other = [k for k in tool if k not in ("functionDeclarations", "function_declarations")]
    return other[0] if other else None
