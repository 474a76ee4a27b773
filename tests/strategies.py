"""Hypothesis strategies: generated *valid* neutral conversations.

"Valid" means they keep the rules of the list that every provider shares: an optional system
message first; the history starts with a user message; every tool call is answered by exactly
one result carrying its id, in the ``tool`` message right after the assistant message that made
the calls; ids are unique; no content is empty; arguments are JSON objects.

Tests that corrupt a conversation start from these and break exactly one rule.
"""

from __future__ import annotations

from hypothesis import strategies as st

from helpers.messages import (
    Message,
    Reasoning,
    Request,
    Text,
    Tool,
    ToolCall,
    ToolResult,
)

# Printable text without surrogates; never empty (empty text blocks break Anthropic's rules).
words = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() != "")

names = st.from_regex(r"[a-z][a-z_]{0,15}", fullmatch=True)

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
