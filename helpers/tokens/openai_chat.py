"""Used in lessons: none directly (imported by tokens).

Counting rule ``openai-chat-2024``: what an OpenAI chat model is shown, piece by piece.

Each message ``<|start|>{role}<|message|>{content}<|end|>``, the tools as a TypeScript-like
``namespace functions {...}`` in the first system message, a tool call ``to=functions.{name}``,
then the reply priming. Checked against published ``prompt_tokens`` and recorded bills
(``docs/evidence.md``, "Counting").
The namespace itself is ``namespace.py``. What it deliberately does not do: claim to be
OpenAI's renderer (it is a tested model of it).
"""

from __future__ import annotations

from typing import Any

from helpers.messages import Image, Message, Reasoning, Request, Text, Tool, ToolCall, ToolResult
from helpers.messages.blocks import dump_arguments
from helpers.models import ModelInfo
from helpers.moved import moved
from helpers.tokens.exactness import image_tokens
from helpers.tokens.namespace import render_namespace
from helpers.tokens.seen import CUT, Seen, Sized, Special, call_names

START, MESSAGE, END, CONSTRAIN = map(
    Special, ("<|start|>", "<|message|>", "<|end|>", "<|constrain|>")
)
#: Text put before the namespace inside the system message.
HEADER = "# Tools\n\n## functions\n\n"


def arguments_text(call: ToolCall) -> str:
    """A call's arguments as sent: the provider's own text if kept, else compact JSON."""
    return call.raw_arguments if call.raw_arguments is not None else dump_arguments(call.arguments)


def system_at(request: Request) -> int | None:
    """The message the tool definitions are appended to: the first system message, if any."""
    systems = [i for i, m in enumerate(request.messages) if m.role == "system"]
    return systems[0] if systems and request.tools else None


def _all(part: str, *contents: str) -> list[Seen]:
    """Several pieces of one part, in order."""
    return [(part, content) for content in contents]


def _header(part: str, role: str, name: str | None = None) -> list[Seen]:
    named = (CUT, ":", CUT, name) if name else ()  # a name is tokenized on its own
    return _all(part, START, role, *named, MESSAGE)


def _namespace(tools: list[Tool], lead: list[Seen]) -> list[Seen]:
    """Text run: ``lead`` (the system text, if any), the tools header, one piece per tool."""
    text, starts = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    close = text.rindex("} // ")  # the namespace's closing line is framing, like its opening
    bounds = zip(starts, [*starts[1:], close], strict=True)
    each = [(f"tools[{k}]", text[a:b]) for k, (a, b) in enumerate(bounds)]
    head = ("tools", HEADER + text[: starts[0] if starts else close])
    return [*lead, head, *each, ("tools", text[close:])]


def tools_seen(tools: list[Tool]) -> list[Seen]:
    """The tools in a system message of their own (the request has no system message)."""
    return _header("tools", "system") + _namespace(tools, []) + [("tools", END)]


def system_seen(part: str, message: Message, tools: list[Tool]) -> list[Seen]:
    """The system message with the tool definitions appended to its last text."""
    texts = [(j, b.text) for j, b in enumerate(message.content) if isinstance(b, Text)]
    seen = _header(part, "system", message.name)
    for j, text in texts[:-1]:
        seen += [(f"{part}.content[{j}]", text), (part, CUT)]
    lead = [(f"{part}.content[{texts[-1][0]}]", texts[-1][1] + "\n\n")] if texts else []
    return seen + _namespace(tools, lead) + [(part, END)]


def _tool_results(part: str, message: Message, names: dict[str, str], notes: list[str]) -> list:
    seen: list[Seen] = []
    for j, result in enumerate(message.content):
        if not isinstance(result, ToolResult):
            notes.append(f"content[{j}] ({result.type}) cannot be sent in a tool message")
            continue
        name = names.get(result.call_id, "")
        seen += _header(part, name or "tool")
        seen += [(f"{part}.content[{j}]", result.text), (part, END)]
        if not name:
            notes.append("a tool result answers no call in this request: rendered as 'tool'")
        if any(isinstance(b, Image) for b in result.content):
            notes.append("Chat Completions tool messages carry text only: image not counted")
        if result.is_error:
            notes.append("Chat Completions has no is_error flag: only the text is counted")
    return seen


def _content(part: str, message: Message, info: ModelInfo, notes: list[str]) -> list[Seen]:
    seen = _header(part, message.role, message.name)
    for j, block in enumerate(message.content):
        inner = f"{part}.content[{j}]"
        if isinstance(block, Text):  # each block tokenized on its own
            seen += [(part, CUT), (inner, block.text)] if j else [(inner, block.text)]
        elif isinstance(block, Image):
            cost = image_tokens(block, info.image)
            seen.append((inner, Sized(cost.tokens, ("image", block.data or block.url))))
            if not cost.exact:
                notes.append(f"image content[{j}]: {cost.how}")
        elif isinstance(block, Reasoning):
            notes.append("reasoning blocks are not sent to Chat Completions: 0 tokens")
        elif not isinstance(block, ToolCall):
            notes.append(f"content[{j}] ({block.type}) cannot be sent in a {message.role} message")
    seen.append((part, END))
    return seen


def _calls(part: str, message: Message, constrained: bool) -> list[Seen]:
    found = enumerate(message.content)
    calls = [(f"{part}.content[{j}]", b) for j, b in found if isinstance(b, ToolCall)]
    if len(calls) == 1:
        inner, call = calls[0]
        seen = _all(part, START, "assistant", CUT)  # the recipient is tokenized on its own
        seen += _all(inner, f" to=functions.{call.name}")
        if constrained:  # o200k-era models: the arguments are constrained JSON, as when forced
            seen += _all(inner, " ", CONSTRAIN, "json")
        return seen + _all(inner, MESSAGE, arguments_text(call)) + [(part, END)]
    seen = _all(part, START, "assistant", " to=multi_tool_use.parallel", MESSAGE, '{"tool_uses":[')
    for k, (inner, call) in enumerate(calls):
        entry = f'{{"recipient_name":"functions.{call.name}","parameters":{arguments_text(call)}}}'
        seen.append((inner, (", " if k else "") + entry + ("]}" if k == len(calls) - 1 else "")))
    return seen + [(part, END)]


def message_seen(
    i: int, message: Message, names: dict[str, str], info: ModelInfo, notes: list[str]
) -> list[Seen]:
    """One message that does not carry the tools: its text, then one message per tool call."""
    part = f"messages[{i}]"
    if message.role == "tool":
        return _tool_results(part, message, names, notes)
    calls = sum(isinstance(b, ToolCall) for b in message.content)
    if not calls:
        return _content(part, message, info, notes)
    seen = _content(part, message, info, notes) if calls < len(message.content) else []
    return seen + _calls(part, message, constrained=info.encoding != "cl100k_base")


def priming_seen(request: Request, notes: list[str]) -> list[Seen]:
    """How the reply starts: the tokens the model continues from."""
    seen = _all("priming", START, "assistant")
    choice = request.tool_choice
    forced = _forced_name(choice)
    if not request.tools or choice == "none":
        return seen + _all("priming", MESSAGE)
    if forced:
        return seen + _all("priming", f" to=functions.{forced} ", CONSTRAIN, "json", MESSAGE)
    return seen  # "required" too: recorded gpt-4o bills (pydantic-ai's test_tool_output)


def _forced_name(choice: Any) -> str | None:
    if isinstance(choice, dict):
        inner = choice.get("function") if isinstance(choice.get("function"), dict) else choice
        return inner.get("name")
    return None


def seen(request: Request, info: ModelInfo) -> tuple[list[Seen], list[str]]:
    """The whole request as the model reads it (tools, messages, the reply priming), and notes."""
    names, carrier = call_names(request), system_at(request)
    notes: list[str] = []
    out = tools_seen(request.tools) if request.tools and carrier is None else []
    for i, message in enumerate(request.messages):
        if i == carrier:
            out += system_seen(f"messages[{i}]", message, request.tools)
            continue
        found: list[str] = []
        out += message_seen(i, message, names, info, found)
        notes += [f"messages[{i}]: {n}" for n in found]
    return out + priming_seen(request, notes), notes


def labels(request: Request, info: ModelInfo | None = None) -> dict[str, str]:
    """A readable label for every part of the request (the breakdown's second column)."""
    names = call_names(request)
    out = {"priming": "reply priming"}
    if request.tools:
        out["tools"] = f"{len(request.tools)} tool definitions"
        out.update({f"tools[{k}]": t.name for k, t in enumerate(request.tools)})
    for i, message in enumerate(request.messages):
        out[f"messages[{i}]"] = message.role + (f" ({message.name})" if message.name else "")
        for j, block in enumerate(message.content):
            out[f"messages[{i}].content[{j}]"] = block_label(block, names)
    return out


def block_label(block: Any, names: dict[str, str]) -> str:
    if isinstance(block, ToolCall):
        return f"tool_call {block.name}"
    if isinstance(block, ToolResult):
        return f"tool_result {names.get(block.call_id, '?')}{' (error)' if block.is_error else ''}"
    if isinstance(block, Reasoning):
        return "reasoning (not sent)"
    return block.type


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
_NAMESPACE = ("SCALARS", "render_tool")
__getattr__ = moved(__name__, dict.fromkeys(_NAMESPACE, "helpers.tokens.namespace"))
