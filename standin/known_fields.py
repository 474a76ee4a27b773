"""Unknown fields: what a body carries that its API does not know, at every level, located.

The known fields come from the official SDKs' own request types (``data/known_fields.json``,
written by ``scripts/known_fields.py`` at the pinned SDK versions: never typed by hand). Each
provider refuses an unknown field in its own words, naming the place in its own spelling:

- OpenAI Chat Completions: ``Unrecognized request argument supplied: <name>`` at the top level,
  ``Unknown parameter: '<path>'.`` below it (``messages[1].tool_calls[0].index``,
  ``messages[0].content[0].cache_control``), except on a message itself: a name no message type
  has (``messages[1].provider_specific_fields``) is accepted and ignored
  (``ignored_on_a_chat_message``);
- OpenAI Responses: ``Unknown parameter: '<path>'.`` at every level (code ``unknown_parameter``);
- Anthropic: ``<path>: Extra inputs are not permitted``, the path dotted and naming the union
  member (``messages.65.content.1.tool_use.text``, ``tools.0.custom.defer_loading``);
- Gemini: ``Invalid JSON payload received. Unknown name "<name>" at '<path>': Cannot find
  field.`` (no `` at`` part at the top level), snake_case proto names, one line per unknown name.

The SDK types are an upper bound: a field they list may still need a beta header at the API
(public reports: ``defer_loading``, ``context_management``). Anthropic betas: a body sent with
an ``anthropic-beta`` header that the SDK's beta types know is read with the beta types; a beta
the SDK does not list is refused (``beta-not-modelled``). Gemini's ``/v1`` does not take
``system_instruction`` (``/v1beta`` does); a function's ``parameters`` take the ``Schema``
subset, its ``parametersJsonSchema`` any JSON Schema. Sources: ``docs/rules.md``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from helpers.examples import DATA
from standin.providers import FORMATS, of

__all__ = ["Unknown", "known_betas", "unknown_fields"]

FILE = DATA / "known_fields.json"
#: Gemini ``/v1`` lacks these top-level fields that ``/v1beta`` has (fishjar/kiss-translator#256,
#: yym68686/uni-api#47, vercel/ai#2256).
GEMINI_V1_LACKS = ("system_instruction",)


#: Fields the recorded real API accepted that the pinned SDK's types do not list (the SDK types
#: are not always a full list): (endpoint, path pattern, indices as ``[]``) -> the evidence.
ACCEPTED_BEYOND_THE_SDK: dict[tuple[str, str], str] = {
    **{
        (endpoint, name): (
            "anthropic 2.14.0's request types have no temperature, top_p or top_k; the API "
            "accepted all three from claude-sonnet-4-0 (recorded 200: Mirascope/mirascope "
            "python/tests/e2e/input/cassettes/test_call_with_params/anthropic_claude_sonnet_4_0."
            "yaml @ a6fafeee); the temperature range is refused (docs/rules.md)"
        )
        for endpoint in ("anthropic", "anthropic-beta")
        for name in ("temperature", "top_p", "top_k")
    },
    ("anthropic-beta", "output_format"): (
        "the structured-outputs-2025-11-13 beta's field (anthropic-beta header; the 2.14.0 types "
        "list only its successor output_config.format): sent by clients built on the beta, "
        "e.g. spring-projects/spring-ai commit 195c4fde (2025-11, 'output_format parameter and "
        "structured-outputs-2025-11-13 beta'), hackage claude-1.0.1 (output_format on "
        "CreateMessage); read as output_config.format (standin.provider.wire_options)"
    ),
    ("gemini", "model"): (
        "a field of the GenerateContentRequest proto itself (google.ai.generativelanguage "
        "GenerateContentRequest.model, 'models/{model}'), so the JSON parser knows the name; "
        "the SDK sends it in the URL instead"
    ),
    ("openai-chat", "messages[].annotations"): (
        "an assistant message replayed with the annotations of the response it came from "
        "(recorded 200: Mirascope/mirascope python/tests/e2e/output/cassettes/test_call_with_"
        "tools/openai_gpt_4o/sync.yaml @ 974841d4, gpt-4o)"
    ),
}


@dataclass(frozen=True)
class Unknown:
    """One field the API does not know: ``steps`` lead to the object holding ``name``."""

    #: ("key", name) | ("index", i) | ("tag", key, member) | ("map", key, position)
    steps: tuple[tuple, ...]
    name: str

    def holder(self) -> str:
        """Our spelling of the object that holds the field (``request`` at the top level)."""
        path = self.path()
        return path[: -len(self.name) - 1] if self.steps else "request"

    def path(self) -> str:
        """Our spelling, the body's own keys: ``messages[1].tool_calls[0].index``."""
        out = ""
        for step in self.steps:
            if step[0] == "key":
                out += f".{step[1]}" if out else step[1]
            elif step[0] == "index":
                out += f"[{step[1]}]"
            elif step[0] == "map":
                out += f".{step[1]}"
        return f"{out}.{self.name}" if out else self.name


@cache
def _data() -> dict:
    return json.loads(FILE.read_text(encoding="utf-8"))


def known_betas() -> frozenset[str]:
    """The beta names the pinned anthropic SDK lists (``AnthropicBetaParam``)."""
    return frozenset(_data()["anthropic_betas"]["names"])


def sdk_of(endpoint: str) -> str:
    """Which SDK version the list for ``endpoint`` was read from (``openai==3.57.0``)."""
    return _data()["endpoints"][endpoint]["sdk"]


def unknown_fields(body: dict, endpoint: str, version: str = "v1beta") -> list[Unknown]:
    """Every field of ``body`` that ``endpoint`` (``openai-chat``, ``openai-responses``,
    ``anthropic``, ``anthropic-beta``, ``gemini``) does not know, in body order."""
    section = _data()["endpoints"][endpoint]
    found: list[Unknown] = []
    gemini = endpoint in FORMATS and of(endpoint).TWO_SPELLINGS  # Gemini: snake or camel
    root = section["nodes"][section["root"]]
    lacks = GEMINI_V1_LACKS if gemini and version == "v1" else ()
    for key, value in body.items():
        name = _snake(key) if gemini else key
        if name not in root["fields"] or name in lacks:
            found.append(Unknown((), key))
        else:
            _walk(value, root["fields"][name], (("key", key),), section["nodes"], gemini, found)
    return [u for u in found if (endpoint, _pattern(u.path())) not in ACCEPTED_BEYOND_THE_SDK]


def chat_message_fields() -> frozenset[str]:
    """Every field some OpenAI Chat message type knows (the union of the role members' fields:
    ``content``, ``name``, ``tool_calls``, ``tool_call_id``, ``refusal``, ``audio`` ...)."""
    section = _data()["endpoints"]["openai-chat"]
    nodes = section["nodes"]
    messages = nodes[nodes[section["root"]]["fields"]["messages"]]
    union = nodes[messages["array"]]
    return frozenset(
        name for member in union["members"].values() for name in nodes[member]["fields"]
    )


def ignored_on_a_chat_message(unknown: Unknown) -> bool:
    """``unknown`` (found on ``openai-chat``) sits on a message itself (``messages[1].x``, not in
    its content parts or tool calls) and no message type has a field of that name: OpenAI Chat
    accepts it and reads nothing from it (``docs/rules.md``, ``extra-message-field``). A field
    another role has (``tool_calls`` on a system message) is still refused."""
    steps = unknown.steps
    return (
        len(steps) == 3
        and steps[0] == ("key", "messages")
        and steps[1][0] == "index"
        and steps[2][0] == "tag"
        and unknown.name not in chat_message_fields()
    )


def _pattern(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


def _walk(
    value: Any, ref: str | None, steps: tuple, nodes: dict, gemini: bool, found: list
) -> None:
    if ref is None:
        return
    node = nodes[ref]
    if "fields" in node:
        if isinstance(value, dict):
            for key, item in value.items():
                name = _snake(key) if gemini else key
                if name not in node["fields"]:
                    found.append(Unknown(steps, key))
                else:
                    _walk(item, node["fields"][name], (*steps, ("key", key)), nodes, gemini, found)
    elif "key" in node:
        if isinstance(value, dict):
            tag = value.get(node["key"], node["default"])
            member = node["members"].get(tag) if isinstance(tag, str) else None
            if member is not None:  # an unknown tag is another rule's (an invalid value)
                _walk(value, member, (*steps, ("tag", node["key"], tag)), nodes, gemini, found)
    else:
        if isinstance(value, dict) and node.get("object"):
            _walk(value, node["object"], steps, nodes, gemini, found)
        elif isinstance(value, list) and node.get("array"):
            for i, item in enumerate(value):
                _walk(item, node["array"], (*steps, ("index", i)), nodes, gemini, found)
        elif isinstance(value, dict) and node.get("map"):
            for j, (key, item) in enumerate(value.items()):
                _walk(item, node["map"], (*steps, ("map", key, j)), nodes, gemini, found)


def _snake(name: str) -> str:
    """A proto field name as Gemini reads it: ``functionDeclarations`` -> ``function_declarations``
    (the proto JSON parser takes both spellings)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() if isinstance(name, str) else name


# --- each provider's words ----------------------------------------------------------------------


def openai_path(unknown: Unknown) -> str:
    """``messages[1].tool_calls[0].index``: brackets for indices, dots for fields."""
    return unknown.path()


def anthropic_path(unknown: Unknown) -> str:
    """``messages.65.content.1.tool_use.text``: dots throughout, each ``type`` union's member
    named (pydantic's tagged unions; a message's role is no such tag)."""
    parts = []
    for step in unknown.steps:
        if step[0] == "tag" and step[1] == "type":
            parts.append(str(step[2]))
        elif step[0] != "tag":
            parts.append(str(step[1]))
    return ".".join([*parts, unknown.name])


def gemini_path(unknown: Unknown) -> str:
    """``tools[0].function_declarations[0].parameters.properties[3].value``: snake_case."""
    out = ""
    for step in unknown.steps:
        if step[0] == "key":
            out += f".{_snake(step[1])}" if out else _snake(step[1])
        elif step[0] == "index":
            out += f"[{step[1]}]"
        elif step[0] == "map":  # a map's entry is addressed by its position: properties[3].value
            out += f"[{step[2]}].value"
    return out
