"""Hypothesis strategies: generated *valid* neutral conversations.

"Valid" means they keep the rules of the list that every provider shares: an optional system
message first; the history starts with a user message; every tool call is answered by exactly
one result carrying its id, in the ``tool`` message right after the assistant message that made
the calls; ids are unique; no content is empty; arguments are JSON objects.

Tests that corrupt a conversation start from these and break exactly one rule.
"""

from __future__ import annotations

import base64

from hypothesis import strategies as st

from helpers.messages import (
    Image,
    Message,
    Reasoning,
    Reply,
    Request,
    Text,
    Tool,
    ToolCall,
    ToolResult,
    Usage,
)

# Printable text without surrogates; never empty (empty text blocks break Anthropic's rules).
words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() != "")

# [a-z][a-z_]{0,15}, built from two plain draws: the same strings as ``st.from_regex`` gives,
# without its per-draw regex machinery (the slowest part of generating a conversation).
_LOWER = "abcdefghijklmnopqrstuvwxyz"
names = st.builds(str.__add__, st.sampled_from(_LOWER), st.text(alphabet=_LOWER + "_", max_size=15))

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    words,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
    max_leaves=6,
)
arguments = st.dictionaries(names, json_values, max_size=4)


@st.composite
def tools(draw, min_size: int = 0, max_size: int = 4) -> list[Tool]:
    tool_names = draw(st.lists(names, min_size=min_size, max_size=max_size, unique=True))
    return [
        Tool(
            n,
            draw(words),
            {
                "type": "object",
                "properties": {
                    p: {"type": "string"} for p in draw(st.lists(names, max_size=3, unique=True))
                },
            },
        )
        for n in tool_names
    ]


@st.composite
def conversations(
    draw,
    *,
    max_turns: int = 4,
    reasoning: bool = True,
    with_system: bool | None = None,
) -> Request:
    """A valid request; ``reasoning=False`` leaves out reasoning blocks."""
    tool_list = draw(tools(min_size=1))
    counter = iter(range(1, 10_000))
    messages: list[Message] = []
    if with_system if with_system is not None else draw(st.booleans()):
        messages.append(Message("system", [Text(draw(words))]))
    for _ in range(draw(st.integers(min_value=1, max_value=max_turns))):
        messages.append(
            Message("user", [Text(t) for t in draw(st.lists(words, min_size=1, max_size=2))])
        )
        blocks: list = []
        if reasoning and draw(st.booleans()):
            blocks.append(Reasoning(draw(words), signature=draw(st.none() | words)))
        if draw(st.booleans()):
            blocks.append(Text(draw(words)))
        calls = [
            ToolCall(
                f"call_{next(counter)}", draw(st.sampled_from(tool_list)).name, draw(arguments)
            )
            for _ in range(draw(st.integers(min_value=0, max_value=3)))
        ]
        blocks += calls
        if not blocks:
            blocks.append(Text(draw(words)))
        messages.append(Message("assistant", blocks))
        if calls:
            results = [
                ToolResult(c.id, [Text(draw(words))], is_error=draw(st.booleans())) for c in calls
            ]
            messages.append(Message("tool", results))
    # Most conversations end with a user turn (what a request needs); some end after tool results.
    if messages[-1].role == "assistant" or draw(st.booleans()):
        messages.append(Message("user", [Text(draw(words))]))
    return Request(model="test-model", messages=messages, tools=tool_list)


# --- per wire format: what each one can hold (used by the helpers.formats tests) ---------------

#: Who issues the reasoning each wire format can replay (Chat replays none).
REASONING_PROVIDER = {
    "openai-chat": None,
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "gemini": "gemini",
}

images = st.builds(
    Image,
    st.sampled_from(["image/png", "image/jpeg", "image/webp"]),
    data=st.binary(min_size=1, max_size=9).map(lambda b: base64.b64encode(b).decode()),
)


@st.composite
def held_by(draw, fmt: str):
    """A valid conversation holding only what wire format ``fmt`` can carry both ways.

    Images in user messages, a ``tool_choice`` and ``max_tokens`` everywhere; reasoning from the
    format's own provider (with the ``rs_`` id OpenAI needs, the signature Anthropic needs, plain
    or redacted); images in tool results except in Chat (text only); ``is_error`` only outside
    OpenAI (no flag there); Gemini call signatures.
    """
    request = draw(conversations(reasoning=fmt != "openai-chat"))
    provider = REASONING_PROVIDER[fmt]
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            where = f"{i}_{j}"
            if isinstance(block, Reasoning):
                block.provider = provider
                if fmt == "openai-responses":
                    block.id = f"rs_{where}"
                if fmt == "anthropic":
                    block.signature = block.signature or f"sig_{where}"
                    if draw(st.booleans()):
                        block.text, block.redacted = "", True
            if isinstance(block, ToolResult):
                if fmt.startswith("openai"):
                    block.is_error = False
                if fmt != "openai-chat" and draw(st.booleans()):
                    block.content.append(draw(images))
            if isinstance(block, ToolCall) and fmt == "gemini" and draw(st.booleans()):
                block.signature = draw(words)
        if message.role == "user" and draw(st.booleans()):
            message.content.append(draw(images))
    tool_names = [t.name for t in request.tools]
    request.tool_choice = draw(
        st.none()
        | st.sampled_from(["auto", "none", "required"])
        | st.sampled_from(tool_names).map(lambda n: {"name": n})
    )
    request.max_tokens = draw(st.none() | st.integers(min_value=1, max_value=200_000))
    return request


@st.composite
def replies(draw, fmt: str) -> Reply:
    """A reply that wire format ``fmt`` can express: Chat holds one text and no reasoning; Gemini
    reports no cache writes; ``tool_calls`` exactly when there are calls; "other" only where the
    format has a value for it."""
    blocks: list = []
    provider = REASONING_PROVIDER[fmt]
    if fmt != "openai-chat" and draw(st.booleans()):
        rid = "rs_1" if fmt == "openai-responses" else None
        blocks.append(Reasoning(draw(words), draw(words), provider=provider, id=rid))
    max_texts = 1 if fmt == "openai-chat" else 2
    blocks += [Text(t) for t in draw(st.lists(words, max_size=max_texts))]
    calls = [
        ToolCall(f"call_{n}", draw(names), draw(st.dictionaries(names, words, max_size=2)))
        for n in range(draw(st.integers(min_value=0, max_value=3)))
    ]
    if fmt == "gemini":
        for call in calls:
            call.signature = draw(st.none() | words)
    blocks += calls
    others = ["end_turn", "max_tokens", "refusal"]
    if fmt in ("anthropic", "gemini", "openai-responses"):
        others.append("other")
    stop = draw(st.sampled_from(["tool_calls", "max_tokens"] if calls else others))
    reasoning = draw(st.integers(min_value=0, max_value=500))
    read = draw(st.integers(min_value=0, max_value=5000))
    write = 0 if fmt == "gemini" else draw(st.integers(min_value=0, max_value=5000))
    usage = Usage(
        input_tokens=read + write + draw(st.integers(min_value=0, max_value=9000)),
        output_tokens=reasoning + draw(st.integers(min_value=0, max_value=900)),
        cache_read_tokens=read,
        cache_write_tokens=write,
        reasoning_tokens=reasoning,
    )
    return Reply(Message("assistant", blocks), usage, stop, draw(names), "id_" + draw(names))
