"""Used in lessons: none directly (imported by verdict).

Where each neutral message and block came from in the body: ``messages[3].tool_calls[0]``.

``helpers.formats.parse`` reads a body as the mapping it is and keeps no provenance; a finding
on the neutral request (message 4, block 1) is located back in the user's file here. Each
function named after a format (its provider's module, ``standin/providers/NAME.py``, names it)
walks the body as that format's parser does, grouping what it groups and skipping what it
drops, and returns one ``(path of the message, [path of each block])`` per neutral message.
Only bodies the parser read without an error are walked.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.gemini_render import camel
from standin.providers import FORMATS, of

Origins = list[tuple[str | None, list[str | None]]]


def origins(body: dict, fmt: str) -> Origins:
    """The paths of each neutral message and its blocks, as ``parse(body, fmt)`` read them."""
    return of(fmt).origins(body) if fmt in FORMATS else []  # its walk, below


def _each(items: Any, where: str, keeps) -> list[tuple[str, Any]]:
    """``(path, item)`` of the items of a list the parser turns into blocks."""
    items = items if isinstance(items, list) else []
    return [(f"{where}[{k}]", item) for k, item in enumerate(items) if keeps(item)]


def _any(item: Any) -> bool:
    return True


def _kind(item: Any) -> Any:
    return item.get("type") if isinstance(item, dict) else None


def openai_chat(body: dict) -> Origins:
    out: list[tuple[str, list[str | None], Any]] = []
    for i, m in enumerate(body["messages"]):
        where = f"messages[{i}]"
        if m.get("role") in ("tool", "function"):
            if out and out[-1][2] == "tool":
                out[-1][1].append(where)
            else:
                out.append((where, [where], "tool"))
            continue
        content, blocks = m.get("content"), []
        if isinstance(content, str) and content:
            blocks.append(f"{where}.content")
        elif isinstance(content, list):
            parts = _each(content, f"{where}.content", lambda p: _kind(p) in _CHAT_PARTS)
            blocks += [path for path, _ in parts]
        if m.get("role") == "assistant":
            blocks += [p for p, _ in _each(m.get("tool_calls"), f"{where}.tool_calls", _any)]
            if m.get("function_call") is not None:
                blocks.append(f"{where}.function_call")
        out.append((where, blocks, m.get("role")))
    return [(where, blocks) for where, blocks, _ in out]


_CHAT_PARTS = ("text", "refusal", "image_url")
_ANTHROPIC_BLOCKS = ("text", "image", "tool_use", "tool_result", "thinking", "redacted_thinking")


def _anthropic_blocks(content: Any, where: str) -> list[tuple[str, Any]]:
    if isinstance(content, str):
        return [(f"{where}.content", "text")]
    found = _each(content, f"{where}.content", lambda b: _kind(b) in _ANTHROPIC_BLOCKS)
    return [(path, _kind(block)) for path, block in found]


def anthropic(body: dict) -> Origins:
    out: Origins = []
    system = body.get("system", "")
    if isinstance(system, list):
        texts = [path for path, kind in _anthropic_blocks(system, "system") if kind == "text"]
        if texts:
            out.append(("system", texts))
    elif system:
        out.append(("system", [None]))
    for i, m in enumerate(body["messages"]):
        where = f"messages[{i}]"
        blocks = _anthropic_blocks(m.get("content"), where)
        results = [path for path, kind in blocks if kind == "tool_result"]
        rest = [path for path, kind in blocks if kind != "tool_result"]
        if m.get("role") != "user" or not results:
            out.append((where, [path for path, _ in blocks]))
            continue
        out.append((where, results))
        if rest:
            out.append((where, rest))
    return out


def _responses_part(part: Any) -> bool:
    kind = _kind(part)
    if kind == "input_image":
        return bool(part.get("image_url"))
    return kind in ("input_text", "output_text", "refusal")


def openai_responses(body: dict) -> Origins:
    items = body["input"]
    items = (
        [{"type": "message", "role": "user", "content": items}] if isinstance(items, str) else items
    )
    out: list[tuple[str | None, list[str | None], str]] = []
    if body.get("instructions"):
        out.append((None, [None], "system"))

    def append(role: str, path: str) -> None:
        if out and out[-1][2] == role:
            out[-1][1].append(path)
        else:
            out.append((path, [path], role))

    for k, item in enumerate(items):
        at = f"input[{k}]"
        kind = item.get("type", "message" if "role" in item else None)
        if kind == "function_call_output":
            append("tool", at)
        elif kind in ("function_call", "reasoning"):
            append("assistant", at)
        elif kind == "message":
            content = item.get("content")
            if isinstance(content, str):
                blocks = [f"{at}.content"] if content else []
            else:
                blocks = [p for p, _ in _each(content, f"{at}.content", _responses_part)]
            if item.get("role") == "assistant":
                for path in blocks:
                    append("assistant", path)
            else:
                out.append((at, blocks, "user"))
    return [(where, blocks) for where, blocks, _ in out]


def _gemini_part(part: Any) -> bool:
    keys = ("text", "functionCall", "functionResponse", "inlineData", "fileData")
    return isinstance(part, dict) and (bool(part.get("thought")) or any(k in part for k in keys))


def gemini(body: dict) -> Origins:
    body = camel(body)
    out: Origins = []
    system = body.get("systemInstruction")
    if system:
        parts = _each(system.get("parts"), "systemInstruction.parts", _gemini_part)
        texts = [path for path, part in parts if _gemini_kind(part) == "text"]
        out.append(("systemInstruction", texts))
    for i, content in enumerate(body["contents"]):
        where = f"contents[{i}]"
        parts = _each(content.get("parts"), f"{where}.parts", _gemini_part)
        if content.get("role", "user") == "model":
            out.append((where, [path for path, _ in parts]))
            continue
        results = [path for path, part in parts if _gemini_kind(part) == "result"]
        rest = [path for path, part in parts if _gemini_kind(part) != "result"]
        if results:
            out.append((where, results))
        if rest or not results:
            out.append((where, rest))
    return out


def _gemini_kind(part: dict) -> str:
    """The kind of block a Gemini part becomes, in the order the parser asks."""
    if part.get("thought"):
        return "reasoning"
    if "text" in part:
        return "text"
    return "result" if "functionResponse" in part and "functionCall" not in part else "other"
