"""Used in lessons: none directly (imported by tokens).

Counting rule ``gemini-gemma3``: the Gemini models Google's SDK counts offline with Gemma 3's
tokenizer (``data/models.json``, ``gemma3_models``). Each text part is tokenized on its own with
that tokenizer (``helpers.gemma``), as google-genai's ``LocalTokenizer`` does, and recorded
bills add one token per content and one for ``systemInstruction`` (none on gemini-2.0).

What it deliberately does not do: claim exactness for what bills have not shown exact. Function
declarations, calls and responses (Google renders them in an unpublished form), thought
signatures (a streamed request is billed the previous reply's thinking) and media are counted
the proxy's way and named in ``uncertain``; so is a text holding one of the control strings the
shipped tokenizer (Gemma 4's) splits unlike Gemma 3's (``helpers.gemma.DIFFERENT``).
"""

from __future__ import annotations

from helpers.gemma import differs
from helpers.messages import Image, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.models import ModelInfo
from helpers.tokens.estimate import message_labels, message_seen, tool_seen
from helpers.tokens.seen import Seen, Sized


def framing(info: ModelInfo) -> int:
    """Tokens each content (and the system instruction) adds to the bill: 1, none on 2.0."""
    return 0 if info.id.startswith("gemini-2.0") else 1


def seen(request: Request, info: ModelInfo) -> tuple[list[Seen], list[str]]:
    """What the model is shown: function declarations as JSON, then each content's parts."""
    notes: list[str] = []
    out = tool_seen(request, info, notes)
    for i, message in enumerate(request.messages):
        body = message_seen(i, message, info)[1:]  # without the proxy's 3 framing tokens
        size = framing(info)
        out += [(f"messages[{i}]", Sized(size, ("framing", message.role)))] if size else []
        out += body
    return out, notes


def labels(request: Request, info: ModelInfo) -> dict[str, str]:
    """Each function declaration by name, each content by role, each part by type."""
    out = {f"tools[{k}]": tool.name for k, tool in enumerate(request.tools)}
    if request.tools:
        out["tools"] = f"{len(request.tools)} function declarations"
    return out | message_labels(request)


def uncertain(request: Request, info: ModelInfo) -> dict[str, tuple[int | None, str]]:
    """The parts recorded bills have not shown exact: part -> (None, why)."""
    out: dict[str, tuple[int | None, str]] = {}
    if not framing(info):
        out["model"] = (3, "gemini-2.0: 2 of 7 recorded text bills were 1 and 3 below the count")
    for k, _ in enumerate(request.tools):
        out[f"tools[{k}]"] = (None, "function declarations: Google's rendering is not published")
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            why = _why(block)
            if why:
                out[f"messages[{i}].content[{j}]"] = (None, why)
    return out


def _why(block: object) -> str:
    if isinstance(block, ToolCall | ToolResult):
        return "function call or response: Google's rendering is not published"
    if isinstance(block, Reasoning) and block.signature:
        return "thought signature: a streamed request is billed the previous reply's thinking"
    if isinstance(block, Image):
        return "media: Google's per-item size, not checked against bills here"
    if isinstance(block, Text | Reasoning) and differs(block.text):
        return "a Gemma control string: Gemma 4's tokenizer splits it unlike Gemma 3's"
    return "" if isinstance(block, Text | Reasoning) else f"{block.type}: not checked against bills"
