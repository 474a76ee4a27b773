"""Used in lessons: 03.

Exercises of notebooks/03_content_is_a_list.ipynb."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    as_number,
    check_function,
    check_number,
    not_answered,
    not_yet,
)
from helpers.messages import Reasoning, Request

EX1 = Exercise(
    "03.1",
    idea="the model is waiting for you when its reply holds a call to one of your tools; the "
    "two formats keep calls in different places, and the stop reason is only a hint.",
    look="Chat keeps calls in choices[0]['message']['tool_calls'] (the string agent's cell "
    "prints them); Anthropic keeps tool_use blocks in 'content', as under 'One message, three "
    "kinds of block'.",
)
EX2 = Exercise(
    "03.2",
    idea="content is a list of typed blocks; keep the id of each block whose type marks a "
    "tool call, in the order they come.",
    look="the dispatch cell under 'The fix: dispatch on the block type' branches on each "
    "block's type; in raw Anthropic JSON that is block['type'], and the id is block['id'].",
)
EX3 = Exercise(
    "03.3",
    idea="in the Responses API the list holds items, not messages: a text, a tool call and a "
    "tool result can each be an item of their own, and the system prompt is not in the list.",
    look="render_for(request, format).body, as in the cell under 'Two results in one "
    "message'; the Responses body keeps its list under 'input'.",
)


_CALL = {"id": "call_1", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}
_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_order", "input": {}}
_SAY = {"type": "text", "text": "Done."}
# a server tool: Anthropic runs it and puts its result in the same reply; nothing to answer
_SERVER = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
_SEARCHED = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}


def _chat(finish: str, calls: list) -> dict:
    message = {"role": "assistant", "content": None if calls else "Done.", "tool_calls": calls}
    return {"choices": [{"index": 0, "finish_reason": finish, "message": message}]}


# Replies as the providers send them. The fourth is Chat Completions with a named tool_choice:
# OpenAI reports finish_reason "stop" although the message holds a tool call (see the lesson's
# Sources), so only the blocks tell the truth there. The last is a reply whose only tool call is
# a server tool's, already run by Anthropic: a type that merely ends in "tool_use" is not a call.
_STOPS = [
    ((_chat("tool_calls", [_CALL]), "openai-chat"), True),
    ((_chat("stop", []), "openai-chat"), False),
    ((_chat("length", []), "openai-chat"), False),
    ((_chat("stop", [_CALL]), "openai-chat"), True),
    (({"stop_reason": "tool_use", "content": [_SAY, _USE]}, "anthropic"), True),
    (({"stop_reason": "end_turn", "content": [_SAY]}, "anthropic"), False),
    (({"stop_reason": "max_tokens", "content": [_SAY]}, "anthropic"), False),
    (({"stop_reason": "end_turn", "content": [_SERVER, _SEARCHED, _SAY]}, "anthropic"), False),
]


def check_wants_tools(fn: Callable[[dict, str], bool]) -> Result:
    """The learner's ``wants_tools(body, format)`` on Chat and Anthropic replies of each kind."""

    def describe(argument: tuple) -> str:
        body, format = argument
        if "choices" in body:
            choice = body["choices"][0]
            calls = len(choice["message"]["tool_calls"])
            return (
                f"an {format} reply with finish_reason {choice['finish_reason']!r} and "
                f"{calls} tool call(s)"
            )
        kinds = ", ".join(b["type"] for b in body["content"])
        return f"an {format} reply with stop_reason {body['stop_reason']!r} and blocks {kinds}"

    return check_function(
        fn,
        _STOPS,
        EX1,
        describe=describe,
        success="Right: the blocks decide: Chat's tool_calls, Anthropic's tool_use blocks (a "
        "server_tool_use block is a call Anthropic already ran). The stop reason usually agrees "
        "('tool_calls', 'tool_use'), but not when Chat was made to call a named tool: then it "
        "says 'stop'.",
    )


_REPLIES = [
    ([{"type": "text", "text": "Done."}], []),
    (
        [
            {"type": "thinking", "thinking": "...", "signature": "x"},
            {"type": "text", "text": "Let me look that order up."},
            {"type": "tool_use", "id": "toolu_01A", "name": "search_orders", "input": {}},
        ],
        ["toolu_01A"],
    ),
    (
        [
            {"type": "text", "text": "Checking both."},
            {"type": "tool_use", "id": "toolu_01Xq7", "name": "search_code", "input": {}},
            {"type": "tool_use", "id": "toolu_01Bd2", "name": "run_tests", "input": {}},
        ],
        ["toolu_01Xq7", "toolu_01Bd2"],  # the order they come in, not sorted: ids are random
    ),
    (  # a server tool (run by Anthropic, not by you) has an id too, and is not yours to answer
        [
            {"type": "server_tool_use", "id": "srvtoolu_01D", "name": "web_search", "input": {}},
            {"type": "text", "text": "Found it; now the order."},
            {"type": "tool_use", "id": "toolu_01E", "name": "get_order", "input": {}},
        ],
        ["toolu_01E"],
    ),
]


def check_tool_ids(fn: Callable[[list[dict]], list[str]]) -> Result:
    """Call the learner's function on four replies (parallel calls, a server tool) and compare."""

    def kinds(content: list[dict]) -> str:
        return "a reply with blocks " + ", ".join(b["type"] for b in content)

    def as_list(fn: Callable) -> Callable:
        def call(content: list[dict]) -> Any:
            got = fn(content)
            return list(got) if isinstance(got, (tuple, list)) else got

        return call

    if callable(fn):
        for content, expected in _REPLIES:
            try:
                got = as_list(fn)(content)
            except Exception:  # check_function reports it with the reply it failed on
                break
            if isinstance(got, list) and got != expected and sorted(got) == sorted(expected):
                what = (
                    f"for {kinds(content)} your function gave {got}: the right ids, in another "
                    "order than the blocks'. Keep the order of the reply"
                )
                return not_yet(EX2, what, kind="function", expected=_REPLIES)
    return check_function(
        as_list(fn) if callable(fn) else fn,
        _REPLIES,
        EX2,
        describe=kinds,
        success="Right: every tool_use block found, the parallel ones too, in order, and the "
        "server tool left alone.",
    )


def check_responses_items(answer: int, crash: Request) -> Result:
    from helpers.formats import render_for, to_flat

    expected = len(render_for(crash, "openai-responses").body["input"])
    anthropic = len(render_for(crash, "anthropic").body["messages"])
    flat, _ = to_flat(crash.messages)
    claude = sum(  # reasoning of another provider: an OpenAI body has no place for it
        isinstance(b, Reasoning) and b.provider not in (None, "openai")
        for m in crash.messages
        for b in m.content
    )
    given = None if not_answered(answer) else as_number(answer)
    if claude and given == expected + claude:
        return not_yet(
            EX3,
            f"you gave {answer}: that counts the reasoning block, which came from Claude "
            "(provider='anthropic'); it has no place in an OpenAI body, so the renderer leaves "
            "it out. Count what the body carries",
            kind="number",
            expected=expected,
        )
    return check_number(
        answer,
        expected,
        EX3,
        success=(
            f"Right: {expected} input items for {len(crash.messages)} neutral messages: every "
            f"tool call and every result is an item of its own (the reasoning block came from "
            f"Claude: the renderer leaves it out of an OpenAI body). Anthropic needs {anthropic} "
            f"messages (system apart, both results in one), the flat struct {len(flat)}."
        ),
    )
