"""Used in lessons: 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12.

Counting input tokens: text, one message, or a whole request with a breakdown by part.

>>> from helpers.tokens import count
>>> c = count(request)                # the request's model, or pass model=...
>>> c.total, c.estimate, c.method     # 1342, False, "tiktoken o200k_base, ..."
>>> c.top()                           # {"tools": 612, "messages[0]": 301, ...}
>>> print(c.table())                  # where the tokens go (Jupyter shows an HTML table)

How a model is counted comes from ``data/models.json`` (``helpers.models``):

- ``openai-chat-2024``: exact tokenizer, our tested model of the chat rendering
  (``openai_chat``); ``estimate`` is False only where published API figures verify it;
- ``anthropic-estimate`` / ``gemini-estimate``: a proxy tokenizer, always ``estimate=True``
  (``estimate``); the provider's own count endpoint is ``standin.count_live``;
- ``harmony``: the published gpt-oss format, rendered by ``openai-harmony`` (exact).

What it deliberately does not do: load a tokenizer at import time (``import helpers.tokens``
stays instant; the first count loads one, about half a second), or touch the network.
"""

from __future__ import annotations

from helpers.harmony import render_harmony
from helpers.messages import Message, Request, Tool
from helpers.models import ModelInfo, info_for
from helpers.tokens.breakdown import Count, Piece, Row, rows_from_pieces
from helpers.tokens.sections import count_sections
from helpers.tokens.tool_namespace import render_namespace
from helpers.tokens.tool_parts import tool_parts

__all__ = [
    "Count",
    "Piece",
    "Row",
    "count",
    "count_body",
    "count_message",
    "count_output",
    "count_sections",
    "count_text",
    "count_tools",
    "render_harmony",
    "render_namespace",
    "token_keys",
    "tool_parts",
    "with_unmodelled",
]


def _exactness(info: ModelInfo) -> tuple[bool, str]:
    if info.counting == "openai-chat-2024":
        how = f"tiktoken {info.encoding} over the openai-chat-2024 rendering model"
        if info.counting_verified:
            return False, how + " (checked against published API prompt_tokens)"
        return True, how + f" (verified on gpt-4o/gpt-4o-mini, assumed for {info.id})"
    if info.counting == "harmony":
        return False, "openai-harmony render_conversation_for_completion, o200k_harmony (exact)"
    from helpers.tokens.estimate import method

    return True, method(info)


def count(request: Request, model: str | ModelInfo | None = None) -> Count:
    """Input tokens of a whole request on ``model`` (default: the request's own model).

    It renders the request with the model's counting rule and tokenizes the pieces. It never
    touches the network (the provider's own count endpoint is ``standin.count_live``).
    """
    info = info_for(model, request)
    if info.counting == "openai-chat-2024":
        from helpers.tokens.openai_chat import render
    elif info.counting in ("anthropic-estimate", "gemini-estimate"):
        from helpers.tokens.estimate import render
    elif info.counting == "harmony":
        from helpers.harmony import render_pieces as render
    else:
        raise ValueError(f"data/models.json: unknown counting rule {info.counting!r}")
    pieces, labels, notes = render(request, info)
    rows = rows_from_pieces(pieces, labels)
    estimate, method = _exactness(info)
    uncertain = {}
    if info.counting == "openai-chat-2024":
        from helpers.tokens.exactness import uncertain as find_uncertain

        uncertain = find_uncertain(request, info)
        estimate = bool(uncertain)
    spread = ""
    if info.counting in ("anthropic-estimate", "gemini-estimate"):
        from helpers.tokens.exactness import images_of_unknown_size
        from helpers.tokens.spread import sentence

        uncertain = images_of_unknown_size(request, info)
        spread = sentence(info.counting, info.id)
    if info.note:
        notes = [info.note, *notes]
    return Count(
        model=info.id,
        total=sum(p.n for p in pieces),
        rows=rows,
        estimate=estimate,
        method=method,
        notes=notes,
        pieces=pieces,
        uncertain=uncertain,
        spread=spread,
    )


def count_body(body: dict, format: str, model: str | ModelInfo | None = None) -> Count:
    """Count a wire body as sent: parse it, count it, and label as estimated whatever the body
    carries that the neutral request drops (a ``response_format`` schema, file parts...).
    The legacy ``functions`` / ``function_call`` fields are counted as ``tools`` /
    ``tool_choice`` (``helpers.tokens.exactness`` says why and how far that can be off).

    A body is counted the way its own provider counts it: the model is ``model``, else the
    body's ``model``, else that provider's default (a Gemini body names none); a model of
    another provider is refused (``ValueError``), never used silently."""
    from helpers.formats import parse
    from helpers.models import default_model

    wire = body
    if format == "openai-chat" and body.get("functions") and not body.get("tools"):
        body = _functions_as_tools(body)
    request = parse(body, format)
    provider = None if format == "neutral" else format.split("-")[0]
    info = info_for(model or body.get("model") or (default_model(provider) if provider else None))
    if provider is not None and info.provider != provider:
        raise ValueError(
            f"a {format} body is counted the way {provider} counts it, not for {info.id} "
            f"({info.provider}'s model): name a {provider} model, or render the request in "
            f"{info.provider}'s format first"
        )
    return with_unmodelled(count(request, info), wire, format)


def with_unmodelled(counted: Count, body: dict, format: str) -> Count:
    """``counted`` (of ``body`` parsed) marked as an estimate wherever the wire body carries
    what the neutral request drops (``unseen.unmodelled``): the local provider labels its
    usage with this, ``count_body`` its counts. Only for a model of the body's own provider:
    counted for another provider's model, the body would be sent in that provider's format."""
    from helpers.models import model_info
    from helpers.tokens.unseen import unmodelled

    if format.split("-")[0] != model_info(counted.model).provider:
        return counted
    dropped = unmodelled(body, format)
    merged = dict(counted.uncertain)
    for part, (bound, why) in dropped.items():  # a part estimated twice: both bounds, both whys
        if part in merged:
            before, reason = merged[part]
            bound = None if bound is None or before is None else bound + before
            why = f"{reason}; {why}"
        merged[part] = (bound, why)
    if dropped:
        counted.uncertain = merged
        counted.estimate = True
    return counted


def _functions_as_tools(body: dict) -> dict:
    """The legacy ``functions`` / ``function_call`` fields as ``tools`` / ``tool_choice``."""
    legacy = {k: v for k, v in body.items() if k not in ("functions", "function_call")}
    legacy["tools"] = [{"type": "function", "function": f} for f in body["functions"]]
    call = body.get("function_call")
    if isinstance(call, dict) and call.get("name"):
        legacy["tool_choice"] = {"type": "function", "function": {"name": call["name"]}}
    elif call in ("none", "auto"):
        legacy["tool_choice"] = call
    return legacy


def count_text(text: str, model: str | ModelInfo | None = None) -> int:
    """Tokens of plain text, no framing (a proxy tokenizer's count for Claude and Gemini)."""
    from helpers.tokens.encodings import encode
    from helpers.tokens.estimate import PROXY

    info = info_for(model)
    return len(encode(info.encoding or PROXY, text))


def count_message(message: Message, model: str | ModelInfo | None = None) -> int:
    """Tokens one message adds to a request (its framing and blocks, not the reply priming)."""
    info = info_for(model)
    counted = count(Request(info.id, [message]), info)
    return counted.total - counted.part("priming")


def count_output(message: Message, model: str | ModelInfo | None = None) -> int:
    """Output tokens of a reply: what the model generated, as the local provider bills it.

    Text and reasoning: their tokens. A tool call: the tokens of its name followed by its
    arguments as JSON. This is *our* rule, shared by the local provider's ``usage`` and the
    cost model (``helpers.cost.project_ticket``), so a ticket has one price however it is
    computed. Real providers add a few tokens of framing per tool call that none of them
    publishes: against a real bill, treat the output count as an estimate.
    """
    import json

    from helpers.messages import Reasoning, Text, ToolCall

    total = 0
    for block in message.content:
        if isinstance(block, Text | Reasoning):
            total += count_text(block.text, model) if block.text else 0
        elif isinstance(block, ToolCall):
            total += count_text(block.name + json.dumps(block.arguments), model)
    return total


def count_tools(tools: list[Tool], model: str | ModelInfo | None = None) -> int:
    """What adding these tool definitions to a request costs, alone (no system prompt)."""
    info = info_for(model)
    probe = [Message("user", [])]
    return count(Request(info.id, probe, tools=list(tools)), info).part("tools")


def token_keys(counted: Count) -> tuple[list[object], list[str]]:
    """The request as a flat token sequence, with the part each token belongs to.

    Real token ids where we have them; where only a count exists (images, a documented
    overhead) one key per token built from what identifies that content. Two requests share a
    cache prefix exactly as far as these sequences agree (``helpers.caching``).
    """
    keys: list[object] = []
    parts: list[str] = []
    for piece in counted.pieces:
        if piece.ids is not None:
            keys.extend(piece.ids)
        else:
            keys.extend((piece.key, k) for k in range(piece.n))
        parts.extend([piece.part] * piece.n)
    return keys, parts
