"""Used in lessons: 02, 04, 05, 06, 08, 09, 12.

Counting input tokens: text, one message, or a whole request with a breakdown by part.

>>> c = count(request)          # the request's model, or pass model=...
>>> c.total, c.label, c.top()   # 1342, "exact", {"tools": 612, ...}; print(c.table()): the parts

The model's counting rule comes from ``data/models.json``: ``openai-chat-2024`` (the real
tokenizer over our tested model of the chat rendering, ``openai_chat``), ``anthropic-estimate``
and ``gemini-estimate`` (a proxy tokenizer, always an estimate: ``estimate``), ``harmony`` (the
published gpt-oss format, exact). What it deliberately does not do: load a tokenizer at import
time (the first count loads one, about half a second), or touch the network.
"""

from __future__ import annotations

from dataclasses import dataclass

from helpers.harmony import render_harmony
from helpers.messages import Message, Request, Tool
from helpers.models import ModelInfo, info_for
from helpers.tokens.breakdown import Count, Piece, Row, rows_from_pieces
from helpers.tokens.tool_namespace import render_namespace, tool_parts

__all__ = [
    "Count",
    "Piece",
    "Row",
    "Section",
    "assess",
    "count",
    "count_message",
    "count_output",
    "count_sections",
    "count_text",
    "count_tools",
    "render_harmony",
    "render_namespace",
    "token_keys",
    "tool_parts",
]


def count(request: Request, model: str | ModelInfo | None = None) -> Count:
    """Input tokens of a whole request on ``model`` (default: the request's own model).

    It renders the request as pieces with the model's counting rule, tokenizes them, and says
    how sure the number is (``assess``). It never touches the network.
    """
    info = info_for(model, request)
    if info.counting == "openai-chat-2024":
        from helpers.tokens.openai_chat import pieces
    elif info.counting in ("anthropic-estimate", "gemini-estimate"):
        from helpers.tokens.estimate import pieces
    elif info.counting == "harmony":
        from helpers.harmony import pieces
    else:
        raise ValueError(f"data/models.json: unknown counting rule {info.counting!r}")
    found, labels, notes = pieces(request, info)
    return assess(request, info, found, rows_from_pieces(found, labels), notes)


def assess(
    request: Request, info: ModelInfo, pieces: list[Piece], rows: list[Row], notes: list[str]
) -> Count:
    """The ``Count`` of a request's pieces: the total, and how sure it is (which parts are an
    estimate, by how much, and how the number was obtained)."""
    from helpers.tokens.exactness import images_of_unknown_size, uncertain

    spread, estimated = "", {}
    if info.counting == "openai-chat-2024":
        how = f"tiktoken {info.encoding} over the openai-chat-2024 rendering model"
        if info.counting_verified:
            how += " (checked against published API prompt_tokens)"
        else:
            how += f" (verified on gpt-4o/gpt-4o-mini, assumed for {info.id})"
        estimated = uncertain(request, info)
        estimate = bool(estimated)
    elif info.counting == "harmony":
        how = "openai-harmony render_conversation_for_completion, o200k_harmony (exact)"
        estimate = False
    else:
        from helpers.tokens.estimate import method, sentence

        how, estimate = method(info), True
        estimated = images_of_unknown_size(request, info)
        spread = sentence(info.counting, info.id)
    return Count(
        model=info.id,
        total=sum(p.n for p in pieces),
        rows=rows,
        estimate=estimate,
        method=how,
        notes=[info.note, *notes] if info.note else notes,
        pieces=pieces,
        uncertain=estimated,
        spread=spread,
    )


def count_text(text: str, model: str | ModelInfo | None = None) -> int:
    """Tokens of plain text, no framing (a proxy tokenizer's count for Claude and Gemini)."""
    from helpers.tokens.encodings import encode, encoding_name

    return len(encode(encoding_name(info_for(model)), text))


def count_message(message: Message, model: str | ModelInfo | None = None) -> int:
    """Tokens one message adds to a request (its framing and blocks, not the reply priming)."""
    info = info_for(model)
    counted = count(Request(info.id, [message]), info)
    return counted.total - counted.part("priming")


def count_output(message: Message, model: str | ModelInfo | None = None) -> int:
    """Output tokens of a reply, as the local provider bills it and the cost model prices it.

    Text and reasoning: their tokens; a tool call: its name followed by its arguments as JSON.
    This is *our* rule: real providers add a few tokens of framing per tool call that none of
    them publishes, so against a real bill the output count is an estimate.
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


@dataclass
class Section:
    text: str
    tokens: int
    estimate: bool = False

    @property
    def title(self) -> str:
        """The section's first line, shortened: a label for tables and plots."""
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return first if len(first) <= 48 else first[:45] + "..."


def count_sections(text: str, model: str | ModelInfo, separator: str = "\n\n") -> list[Section]:
    """Split ``text`` at ``separator`` and count each piece's tokens inside the whole text.

    The text is encoded once and each token given to the section it starts in, so the sections
    add up to ``count_text(text)`` (counted apart, a token straddling a break would count twice).
    """
    from helpers.tokens.encodings import encoding_name, split_at

    info = info_for(model)
    sections = text.split(separator)
    cuts, position = [], 0
    for section in sections[:-1]:
        position += len(section) + len(separator)
        cuts.append(position)
    groups = split_at(encoding_name(info), text, cuts)
    return [
        Section(s, len(g), info.encoding is None) for s, g in zip(sections, groups, strict=True)
    ]


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
