"""Used in lessons: 03.

Exercises of notebooks/03_content_is_a_list.ipynb."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from course.exercises import Case, Exercise, Result, check_cases
from helpers.messages import Reasoning, Request

EX1 = Exercise(
    "03.1",
    look="the Chat reply the string agent printed (`chat_reply`: its `content`, its `tool_calls`, "
    "its `finish_reason`) beside the Anthropic `content` printed at the top of the lesson: where "
    "each format keeps the text, where it keeps a call, and in which form each sends a call's "
    "arguments (lesson 02, difference 3). Then the dispatch cell: what it does with a kind of "
    "block it has no branch for.",
    idea="only the calls say the model waits for you: the stop reason is a summary that can "
    "disagree with them, a call can come with text or with none (Chat's content is then null), "
    "reasoning stays unseen, a tool the provider ran itself is not yours, and a block type you "
    "do not know is left alone. Your tool runs with a dict, and its result goes back under the "
    "call's id, whatever form the wire gave them in.",
    example="an Anthropic content [thinking, tool_use] under stop_reason 'end_turn' shows nothing "
    "and runs one call; a Chat message with content null and one call whose arguments are "
    "'{\"a\": 1}' shows nothing and runs ('f', {'a': 1}, 'call_1'); [server_tool_use, "
    "web_search_tool_result, text] shows the text and runs nothing.",
)

_THINK = {
    "type": "thinking",
    "thinking": "Two things to check: the code, then the tests.",
    "signature": "c2ln",
}


def _use(id: str, name: str, **input: Any) -> dict:
    return {"type": "tool_use", "id": id, "name": name, "input": input}


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def _call(id: str, name: str, **arguments: Any) -> dict:
    """A Chat tool call: its arguments come as a JSON string."""
    return {
        "id": id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def _chat(finish: str, content: str | None, calls: list | None) -> dict:
    message = {"role": "assistant", "content": content, "refusal": None, "tool_calls": calls}
    return {"choices": [{"index": 0, "finish_reason": finish, "message": message}]}


def _anthropic(stop: str, *blocks: dict) -> dict:
    return {"type": "message", "role": "assistant", "stop_reason": stop, "content": list(blocks)}


_SEARCH = _use("toolu_01Xq7", "search_code", query="Address.Country")
_TESTS = _use("toolu_01Bd2", "run_tests", packages="./internal/orders/...")
_ORDER = _use("toolu_01E", "get_order", order_id="SO-51877")
_WEB = {
    "type": "server_tool_use",
    "id": "srvtoolu_01D",
    "name": "web_search",
    "input": {"query": "carrier strike"},
}
_WEB_RESULT = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01D", "content": []}
# a block of a type newer than the learner's code (and this lesson): it has no "text", no "id"
_NEWER = {"type": "container_upload", "file_id": "file_011CNha8"}
_LOOKUP = _call("call_Vq2", "get_order", order_id="SO-48213")
_ELIGIBLE = _call("call_Hk7", "check_refund_eligibility", order_id="SO-48213", amount=129)

# Replies as the providers send them. A Chat reply can hold a call under finish_reason "stop"
# (reported from OpenAI's API with a named tool_choice, vllm#25054, 2025, and for gpt-4o-mini,
# GoModel#124, 2026), an Anthropic-compatible gateway has answered end_turn beside a tool_use block
# (bifrost#4900, oh-my-pi#12224, 2026): only the calls tell the truth (see the lesson's Sources).
# A server tool's block holds a call Anthropic already ran: a type that merely ends in "tool_use"
# is not a call.
#: (what the case is, the body, its format, the texts to show, the calls to run)
_HANDLED: list[tuple[str, dict, str, list[str], list[tuple[str, dict, str]]]] = [
    (
        "reasoning, narration and two parallel calls",
        _anthropic("tool_use", _THINK, _text("Checking both."), _SEARCH, _TESTS),
        "anthropic",
        ["Checking both."],
        [
            ("search_code", {"query": "Address.Country"}, "toolu_01Xq7"),
            ("run_tests", {"packages": "./internal/orders/..."}, "toolu_01Bd2"),
        ],
    ),
    (
        "narration and two parallel calls, finish_reason 'tool_calls'",
        _chat("tool_calls", "Let me check both.", [_LOOKUP, _ELIGIBLE]),
        "openai-chat",
        ["Let me check both."],
        [
            ("get_order", {"order_id": "SO-48213"}, "call_Vq2"),
            ("check_refund_eligibility", {"order_id": "SO-48213", "amount": 129}, "call_Hk7"),
        ],
    ),
    (
        "one call and content null, finish_reason 'tool_calls'",
        _chat("tool_calls", None, [_LOOKUP]),
        "openai-chat",
        [],
        [("get_order", {"order_id": "SO-48213"}, "call_Vq2")],
    ),
    (
        "a final answer, finish_reason 'stop'",
        _chat("stop", "Your refund of $129 is on its way.", None),
        "openai-chat",
        ["Your refund of $129 is on its way."],
        [],
    ),
    (
        "a server tool Anthropic already ran, then a call of yours",
        _anthropic(
            "tool_use",
            _WEB,
            _WEB_RESULT,
            _text("There is a carrier strike; now the order."),
            _ORDER,
        ),
        "anthropic",
        ["There is a carrier strike; now the order."],
        [("get_order", {"order_id": "SO-51877"}, "toolu_01E")],
    ),
    (
        "a call under finish_reason 'stop' (as OpenAI has sent with a named tool_choice)",
        _chat("stop", None, [_ELIGIBLE]),
        "openai-chat",
        [],
        [("check_refund_eligibility", {"order_id": "SO-48213", "amount": 129}, "call_Hk7")],
    ),
    (
        "a block of a type your code has never seen",
        _anthropic("tool_use", _text("Reading the file you sent."), _NEWER, _ORDER),
        "anthropic",
        ["Reading the file you sent."],
        [("get_order", {"order_id": "SO-51877"}, "toolu_01E")],
    ),
    (
        "stop_reason 'end_turn' beside a call (from an Anthropic-compatible gateway)",
        _anthropic("end_turn", _THINK, _ORDER),
        "anthropic",
        [],
        [("get_order", {"order_id": "SO-51877"}, "toolu_01E")],
    ),
    (
        "finish_reason 'tool_calls' but tool_calls null",
        _chat("tool_calls", "I have what I need.", None),
        "openai-chat",
        ["I have what I need."],
        [],
    ),
    (
        "stop_reason 'tool_use' but no tool_use block",
        _anthropic("tool_use", _text("Let me look."), _text("One moment.")),
        "anthropic",
        ["Let me look.", "One moment."],
        [],
    ),
]


def _stop_of(body: dict) -> str:
    if "choices" in body:
        return f"finish_reason {body['choices'][0]['finish_reason']!r}"
    return f"stop_reason {body['stop_reason']!r}"


def _judge_reply(
    body: dict, show: list[str], run: list[tuple[str, dict, str]]
) -> Callable[[Any], str | None]:
    """Why a handler's ``(to_show, to_run)`` for ``body`` is wrong, or None when it is right."""
    blocks = {b.get("id"): b for b in body.get("content", []) if b.get("id")}
    thoughts = [b["thinking"] for b in body.get("content", []) if b["type"] == "thinking"]

    def judge(got: Any) -> str | None:
        if not isinstance(got, (tuple, list)) or len(got) != 2:
            return (
                f"your function returned {type(got).__name__} {str(got)[:60]!r}; it should "
                "return two things: (what to show, what to run)"
            )
        to_show, to_run = got
        if not isinstance(to_show, (list, tuple)) or not isinstance(to_run, (list, tuple)):
            return "both parts of the result should be lists: the texts, and the calls"
        to_show = list(to_show)
        if any(t in thoughts for t in to_show):
            return (
                "the buyer would read the model's reasoning: a thinking block stays in the "
                "history, unseen"
            )
        if None in to_show:
            return (
                "to_show holds None: a Chat reply with content null has no text, and shows "
                "nothing ([])"
            )
        if "" in to_show and "" not in show:
            return "to_show holds an empty string: a reply with no text shows nothing ([])"
        odd = [t for t in to_show if not isinstance(t, str)]
        if odd:
            return f"to_show holds {str(odd[0])[:60]!r}, which is not a text for the buyer to read"
        if to_show != show:
            if sorted(to_show) == sorted(show):
                return "the right texts, in another order than the reply's"
            missed = [t for t in show if t not in to_show]
            if missed:
                return (
                    f"the buyer never reads {missed[0]!r}: {len(missed)} of the reply's "
                    f"{len(show)} text(s) left out"
                )
            return f"to_show holds {str(to_show)[:80]!r}, more than the reply's texts"
        calls = []
        for item in to_run:
            if not isinstance(item, (tuple, list)) or len(item) != 3:
                return (
                    f"to_run holds {str(item)[:50]!r}; each call should be (name, arguments, "
                    "id), one shape whichever format answered: the name and arguments to run it, "
                    "the id its result goes back under"
                )
            calls.append(tuple(item))
        server = [  # a call carrying a server tool's id, wherever in the tuple
            blocks[x]
            for call in calls
            for x in call
            if isinstance(x, str) and x in blocks and blocks[x]["type"] != "tool_use"
        ]
        if server:
            block = server[0]
            return (
                f"it would run {block['name']} ({block['type']}): Anthropic already ran that "
                "one, and its result is in the same reply"
            )
        if calls == run:
            return None
        if run and not calls:
            return (
                f"it runs nothing, but this reply holds {len(run)} call(s) under "
                f"{_stop_of(body)}: the calls decide, not the stop reason"
            )
        if not run:
            return (
                f"it runs {len(calls)} call(s), but this reply holds none (whatever its "
                f"{_stop_of(body).split()[0]} says: the calls decide)"
            )
        if len(calls) < len(run):
            return (
                f"it runs {len(calls)} of the reply's {len(run)} call(s): every call needs its "
                "result before the model can go on"
            )
        if len(calls) > len(run):
            return f"it runs {len(calls)} calls; this reply holds {len(run)}"
        if sorted(map(repr, calls)) == sorted(map(repr, run)):
            return "the right calls, in another order than the reply's"
        for call, want in zip(calls, run, strict=True):
            if call != want and sorted(map(repr, call)) == sorted(map(repr, want)):
                return (
                    f"the call {want[2]} holds the right name, arguments and id in another "
                    "order: each call is (name, arguments, id)"
                )
        for (name, args, id), (want_name, want_args, want_id) in zip(calls, run, strict=True):
            if isinstance(args, str):
                return (
                    f"the call {want_id} carries its arguments as the wire's JSON string "
                    f"{args[:40]!r}: your tool runs with a dict, so read the string into one"
                )
            if id != want_id:
                return (
                    f"the call {want_name} carries the id {str(id)[:30]!r}, not the reply's "
                    f"{want_id!r}: its result must go back under the id the model gave it"
                )
            if name != want_name:
                return f"the call {want_id} carries the name {str(name)[:30]!r}, not {want_name!r}"
            if args != want_args:
                return (
                    f"the call {want_id} carries the arguments {str(args)[:50]!r}, not the "
                    f"reply's {want_args!r}"
                )
        return "to_run is not the reply's calls"

    return judge


def check_reply_handler(fn: Callable[[dict, str], tuple[list[str], list[tuple]]]) -> Result:
    """The learner's ``handle_reply(body, format)`` on ten Chat and Anthropic replies it has not
    seen: narration with parallel calls, calls with content null, a final answer, a server tool,
    calls under a stop reason that does not name tools, a stop reason that names tools over no
    call, reasoning, and a block type the lesson never showed. The texts to show, and each call
    to run as (name, arguments as a dict, id), each in the reply's order."""
    cases = [
        Case(f"an {format} reply: {name}", (body, format), _judge_reply(body, show, run))
        for name, body, format, show, run in _HANDLED
    ]
    return check_cases(
        fn,
        cases,
        EX1,
        success="Right: one reader for two formats: the texts to the buyer, every call to run as "
        "(name, arguments, id) in the reply's order, Chat's arguments read from their JSON "
        "string, reasoning unseen, a server tool or a type you do not know left alone, and the "
        "calls, not the stop reason, deciding. Your agent's loop can run what this returns "
        "whichever of the two providers answered, and send each result back under its id",
    )


# ---- the optional prediction: Responses items ---------------------------------------------------


def responses_items_why(crash: Request) -> str:
    """Why the Responses body of ``crash`` holds as many input items as it does (from the data)."""
    from helpers.formats import render_for, to_flat

    body = render_for(crash, "openai-responses").body
    kinds = [item.get("type", "message") for item in body["input"]]
    calls, results = kinds.count("function_call"), kinds.count("function_call_output")
    anthropic = len(render_for(crash, "anthropic").body["messages"])
    flat, _ = to_flat(crash.messages)
    claude = sum(  # reasoning of another provider: an OpenAI body has no place for it
        isinstance(b, Reasoning) and b.provider not in (None, "openai")
        for m in crash.messages
        for b in m.content
    )
    reasoning = (
        f" The {claude} reasoning block(s) came from Claude: an OpenAI body has no place for them."
        if claude
        else ""
    )
    texts = kinds.count("message")
    return (
        f"The {len(crash.messages)} neutral messages (the system prompt one of them) become "
        f"{texts} message items (the user's and "
        f"the narrations), {calls} function_call items and {results} function_call_output items: "
        f"every call and every result is an item of its own, and the system prompt goes to "
        f"`instructions`, not into the list.{reasoning} Anthropic needs {anthropic} messages "
        f"(the system prompt apart, both results in one), the flat struct {len(flat)} (the "
        "system prompt among them, each result its own)."
    )
