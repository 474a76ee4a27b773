"""Used in lessons: none directly (imported by rules.table).

Rules only the body itself shows: what the provider answers when a parser meets them.

Some broken requests cannot be seen on the neutral model, because the neutral model cannot
hold them: a block type the format does not have (``unknown-block``), tool arguments that are
not a JSON object (``arguments-not-object``), a role the format does not have
(``unknown-role``), Anthropic text placed *before* the ``tool_result`` blocks of one user turn
(``results-not-first``). ``helpers.formats``' parsers and ``standin.rules.wire_notes`` name
them (the unknown types with ``standin.rules.kinds``); ``answer_wire`` fills in what the provider
answers, with the body's own positions, since a violation found here already points into the
body (``messages.3.content.1``).
``pairing_on_the_wire`` judges Responses' reasoning pairing on a body's own ``input`` items.

Every text is verbatim from the public report cited beside it, our positions filled in.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.rules import Answer, Finding, anthropic, openai_responses
from standin.providers import of
from standin.rules.sources import SOURCES

#: (format, rule) -> (text with {placeholders}, source, date checked)
TEXTS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("openai-chat", "unknown-block"): (
        "Invalid value: '{kind}'. Supported values are: 'text', 'image_url', 'input_audio', "
        "'refusal', 'audio', and 'file'.",
        "openai/openai-dotnet#396 (param messages[0].content[1].type, code invalid_value; "
        "'file' was added to the list later)",
        "2026-11-30",
    ),
    ("openai-chat", "image-not-user"): (
        "Invalid 'messages[{w}]'. Image URLs are only allowed for messages with role 'user', but "
        "this message with role '{role}' contains an image URL.",
        "openai/openai-node#1030 (2024-09-03, role 'assistant'), OpenHands/OpenHands#7700 "
        "(2025-04-22, role 'tool')",
        "2026-12-01",
    ),
    ("openai-chat", "empty-tool-calls"): (
        "Invalid 'messages[{w}].tool_calls': empty array. Expected an array with minimum length "
        "1, but got an empty array instead.",
        "openai/openai-python#2061 (param messages[1].tool_calls, code empty_array), "
        "home-assistant/core#118577, openai/openai-node#1341",
        "2026-12-07",
    ),
    ("anthropic", "unknown-block"): (
        "messages.{w}.content.{b}: Input tag '{kind}' found using 'type' does not match any of "
        "the expected tags",
        "code-yeongyu/senpi#1212 (the list of expected tags that follows is cut in the report)",
        "2026-11-30",
    ),
    ("anthropic", "arguments-not-object"): (
        "messages.{w}.content.{b}.tool_use.input: Input should be a valid dictionary",
        "anthropics/claude-code#6696, anthropics/anthropic-sdk-typescript#648, prism-php/prism#659",
        "2026-11-30",
    ),
    ("anthropic", "results-not-first"): (
        anthropic.MISSING,
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls "
        "(tool_result blocks must come first; text after them); the text is the one for "
        "results not immediately after: " + SOURCES[anthropic.MISSING],
        "2026-11-30",
    ),
    ("gemini", "unknown-block"): (
        "Invalid JSON payload received. Unknown name \"{kind}\" at '{path}': Cannot find field.",
        "flyun/chatAir#108, gera2ld/ai.nvim#13, 0x4m4/hexstrike-ai#70; a recorded exchange: "
        "pydantic/pydantic-ai tests/models/cassettes/test_google/"
        "test_google_model_image_url_detail.yaml @ c7cb28fd",
        "2026-11-30",
    ),
    ("gemini", "unknown-role"): (
        "Please use a valid role: user, model.",
        "langbot-app/LangBot#1486, the-open-agent/openagent#1666",
        "2026-11-30",
    ),
    ("gemini", "arguments-not-object"): (
        "Invalid value at '{path}.function_call.args' (type.googleapis.com/google.protobuf.Struct)",
        "public reports quote it as a field violation; the top-level message may be the "
        "generic 'Request contains an invalid argument.' (searched 2026-11-30)",
        "2026-11-30",
    ),
}

_INDEX = re.compile(r"\[(\d+)\]")


def answer_wire(rule: str, message: str, path: str, fmt: str, body: dict) -> Answer | None:
    """What ``fmt``'s provider answers when its parser meets ``rule`` at ``path``, if known."""
    found = TEXTS.get((fmt, rule))
    if found is None:
        return None
    text = found[0]
    numbers = [int(n) for n in _INDEX.findall(path)]
    values: dict[str, Any] = {
        "w": numbers[0] if numbers else 0,
        "b": numbers[1] if len(numbers) > 1 else 0,
        "path": path.split(".function")[0].removesuffix(".role"),
        "kind": _kind(body, path, message, fmt),
        "role": _role(body, numbers[0] if numbers else 0),
    }
    return of(fmt).wire_answer(rule, text, values, body)  # its quirks: standin/providers/


def _role(body: dict, w: int) -> str:
    messages = body.get("messages") if isinstance(body.get("messages"), list) else []
    message = messages[w] if 0 <= w < len(messages) else None
    return str(message.get("role")) if isinstance(message, dict) else "?"


def _kind(body: dict, path: str, message: str, fmt: str) -> str:
    """The block type at ``path`` in ``body`` (for Gemini: the unknown field, which the parser's
    message names first)."""
    if of(fmt).NOTE_NAMES_KIND:
        named = re.match(r"'([^']+)'", message)
        return named.group(1) if named else "?"
    node = node_at(body, path)
    return str(node.get("type")) if isinstance(node, dict) else "?"


def node_at(body: Any, path: str) -> Any:
    """What ``path`` (``messages[3].content[1]``) points at in ``body``, or None."""
    node = body
    for step in re.findall(r"[A-Za-z_]+|\[\d+\]", path):
        if step.startswith("["):
            index = int(step[1:-1])
            node = node[index] if isinstance(node, list) and index < len(node) else None
        else:
            node = node.get(step) if isinstance(node, dict) else None
    return node


def unanswered(body: dict, w: int) -> dict[str, Any]:
    """For Anthropic text before results in ``messages[w]``: the calls it leaves unanswered."""
    messages = body.get("messages") or []
    calls = [b.get("id") for b in _blocks(messages, w - 1) if b.get("type") == "tool_use"]
    leading = set()
    for block in _blocks(messages, w):
        if block.get("type") != "tool_result":
            break
        leading.add(block.get("tool_use_id"))
    ids = [str(c) for c in calls if c not in leading]
    return {"w": w - 1, "ids": ", ".join(ids)}


def _blocks(messages: list, w: int) -> list[dict]:
    message = messages[w] if 0 <= w < len(messages) else None
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


#: Input items that are never what a reasoning item produced: the caller's, not the model's.
_NOT_PRODUCED = ("function_call_output", "custom_tool_call_output", "computer_call_output")


def pairing_on_the_wire(items: list) -> list[tuple[int, str, str]]:
    """``(k, reasoning id, what follows)`` for each reasoning item ``input[k]`` with an ``id``
    that is not followed by the item it produced, matched by id as OpenAI matches it."""
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, dict) or item.get("type") != "reasoning":
            continue
        rid = item.get("id")
        if not isinstance(rid, str) or not rid:
            continue
        after = items[k + 1] if k + 1 < len(items) else None
        if not isinstance(after, dict):
            out.append((k, rid, "nothing follows it"))
            continue
        kind = after.get("type", "message")
        role = after.get("role")
        if kind == "item_reference" or kind == "reasoning":
            continue
        if kind in _NOT_PRODUCED or (kind == "message" and role != "assistant"):
            shown = f"a {role} message" if kind == "message" else f"a {kind} item"
            out.append((k, rid, f"input[{k + 1}] is {shown}, which the model did not produce"))
        elif not isinstance(after.get("id"), str) or not after.get("id"):
            shown = "an assistant message" if kind == "message" else f"a {kind} item"
            out.append((k, rid, f"input[{k + 1}] is {shown} without its id"))
    return out


def wire_finding(k: int, rid: str, what: str) -> tuple[Finding, Answer]:
    """The ``reasoning-not-followed`` finding for ``input[k]`` (``pairing_on_the_wire``), with
    OpenAI's answer; the caller places it at ``input[k]``."""
    f = Finding(
        "reasoning-not-followed",
        f"reasoning item {rid!r} is not followed by the item it produced ({what}); OpenAI "
        "pairs a replayed reasoning item with its following output item by id, so keep that "
        "item right after it, with its own id ('msg_...', 'fc_...')",
    )
    return f, Answer(openai_responses.REASONING_ALONE.format(id=rid), "input")
