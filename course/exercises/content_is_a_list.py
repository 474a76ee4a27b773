"""Used in lessons: 03.

Exercises of notebooks/03_content_is_a_list.ipynb."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from course.exercises import Case, Exercise, Result, check_cases
from helpers.messages import Reasoning, Request

EX1 = Exercise(
    "03.2",
    look="where each format keeps the calls of a reply: the Chat reply the string agent printed "
    "(`chat_reply`), and the Anthropic `content` printed at the top of the lesson. Which field "
    "holds a call, which one only says why the model stopped, and in which form does each "
    "format send a call's arguments (lesson 02, difference 3)?",
    idea="the model waits for you when its reply holds calls to your tools, and only the calls "
    "say so: the stop reason is a summary that can disagree with them, text can stand beside a "
    "call (or be missing with no call at all), and a tool the provider ran itself is not one of "
    "yours. Your code runs a tool with a dict, whatever form the wire gave the arguments in.",
    example="a Chat message with some text and one entry among its calls, under finish_reason "
    "'stop', still waits for a result; an Anthropic content of [server_tool_use, "
    "web_search_tool_result, text] waits for nothing, and neither does a reply whose stop "
    "reason names tools but which holds no call.",
)
EX2 = Exercise(
    "03.1",
    look="the dispatch cell under 'The fix: dispatch on the block type': what it does with each "
    "kind of block it meets, and with a kind it has no branch for. Your blocks are the raw JSON "
    "dicts, like `raw['content']`.",
    idea="every block says what it is in its own 'type', and each type has its own reader: the "
    "buyer, your tools, or nobody (what the model keeps for itself, what the provider already "
    "ran, and a type your code does not know).",
    example="a reply [thinking, tool_use] shows nothing and runs one call; [text, text] shows two "
    "texts, in order, and runs nothing.",
)

_CALL = {"id": "call_1", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}
_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_order", "input": {}}
_SAY = {"type": "text", "text": "Done."}
_ARGS = [("get_order", {"order_id": "SO-48213"}), ("search_orders", {"buyer": "Maya", "limit": 3})]
# two parallel calls with arguments: as Chat sends them (a JSON string) and as Anthropic does
_TWO_CALLS = [
    {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
    for i, (n, a) in enumerate(_ARGS, 2)
]
_TWO_USES = [
    {"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a}
    for i, (n, a) in enumerate(_ARGS, 2)
]
# a server tool: Anthropic runs it and puts its result in the same reply; nothing to answer
_SERVER = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
_SEARCHED = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}


def _chat(
    finish: str, calls: list | None, content: str | None = "", refusal: str | None = None
) -> dict:
    """A Chat reply; ``content`` "" means the usual: None beside calls, a text without them."""
    text = (None if calls else "Done.") if content == "" else content
    message = {"role": "assistant", "content": text, "refusal": refusal, "tool_calls": calls}
    return {"choices": [{"index": 0, "finish_reason": finish, "message": message}]}


# Replies as the providers send them. The fourth is a Chat reply that holds a tool call under
# finish_reason "stop": reported from OpenAI's API with a named tool_choice (vllm#25054, 2025) and
# for gpt-4o-mini (GoModel#124, 2026), while OpenAI's reference says "tool_calls" (see the
# lesson's Sources): only the calls tell the truth. A call can come with narration (as the
# lesson's stand-in sends it), and a reply can have no text and no call (a refusal: content null,
# the reason in ``refusal``). An Anthropic-compatible gateway has answered end_turn beside a
# tool_use block (bifrost#4900, oh-my-pi#12224, 2026). The server tool's reply holds a call
# Anthropic already ran: a type that merely ends in "tool_use" is not a call.
_REFUSAL = "I'm sorry, I can't help with that."
_STOPS = [
    ((_chat("tool_calls", [_CALL]), "openai-chat"), True),
    ((_chat("stop", []), "openai-chat"), False),
    ((_chat("tool_calls", [_CALL], "Let me look that order up."), "openai-chat"), True),
    ((_chat("length", []), "openai-chat"), False),
    ((_chat("stop", [_CALL]), "openai-chat"), True),
    ((_chat("stop", [], None, _REFUSAL), "openai-chat"), False),
    (({"stop_reason": "tool_use", "content": [_SAY, _USE]}, "anthropic"), True),
    (({"stop_reason": "end_turn", "content": [_SAY]}, "anthropic"), False),
    (({"stop_reason": "max_tokens", "content": [_SAY]}, "anthropic"), False),
    (({"stop_reason": "end_turn", "content": [_SERVER, _SEARCHED, _SAY]}, "anthropic"), False),
    (({"stop_reason": "end_turn", "content": [_SAY, _USE]}, "anthropic"), True),
    # a stop reason that names tools over a reply with no call (tool_calls null): nothing to run
    ((_chat("tool_calls", None), "openai-chat"), False),
    (({"stop_reason": "tool_use", "content": [_SAY]}, "anthropic"), False),
    # two calls with arguments, in the reply's order
    ((_chat("tool_calls", _TWO_CALLS, "Let me check both."), "openai-chat"), True),
    (({"stop_reason": "tool_use", "content": [_SAY, *_TWO_USES]}, "anthropic"), True),
]


def _calls_in(body: dict) -> list[tuple[str, dict]]:
    """The (name, arguments) of the calls a reply asks your code to run, in its order."""
    if "choices" in body:
        calls = body["choices"][0]["message"].get("tool_calls") or []
        return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls]
    return [(b["name"], b["input"]) for b in body["content"] if b["type"] == "tool_use"]


def _describe(body: dict, format: str) -> str:
    if "choices" in body:
        choice = body["choices"][0]
        message = choice["message"]
        text = (
            "a refusal" if message.get("refusal") else "text" if message["content"] else "no text"
        )
        return (
            f"an {format} reply with finish_reason {choice['finish_reason']!r}, {text} and "
            f"{len(message['tool_calls'] or [])} tool call(s)"
        )
    kinds = ", ".join(b["type"] for b in body["content"])
    gateway = (
        " (from an Anthropic-compatible gateway)"
        if _USE in body["content"] and (body["stop_reason"] != "tool_use")
        else ""
    )
    return f"an {format} reply with stop_reason {body['stop_reason']!r} and blocks {kinds}{gateway}"


def _judge_calls(body: dict) -> Callable[[Any], str | None]:
    """Why ``calls_to_run``'s answer for ``body`` is wrong, or None when it is right."""
    expected = _calls_in(body)

    def judge(got: Any) -> str | None:
        pairs = isinstance(got, (list, tuple)) and all(
            isinstance(c, (list, tuple)) and len(c) == 2 for c in got
        )
        if not pairs:
            return (
                f"your function gave {str(got)[:60]!r}: the answer is a list of (name, "
                "arguments) pairs, [] when nothing waits"
            )
        got = [tuple(c) for c in got]
        if got == expected:
            return None
        if expected and not got:
            return "your function gave no call, but this reply holds a call: the model waits for it"
        if not expected:
            if "choices" in body and body["choices"][0]["message"].get("refusal"):
                return (
                    "your function gave a call to run for a reply with no text and no call: the "
                    "model refused, and waits for nothing"
                )
            if any(b.get("type") == "server_tool_use" for b in body.get("content", [])):
                return (
                    "your function gave a call to run, but its only tool block is a "
                    "server_tool_use, a call Anthropic already ran: nothing waits for your code"
                )
            return (
                "your function gave a call to run for a reply that holds no call (whatever its "
                "stop reason says: the calls decide)"
            )
        if any(isinstance(args, str) for _, args in got):
            return (
                "your function gave the arguments as the wire's JSON string: your tool is run "
                "with a dict, so read the string into one"
            )
        if sorted(map(repr, got)) == sorted(map(repr, expected)):
            return "your function gave the right calls in another order: keep the reply's order"
        return (
            f"your function gave {len(got)} call(s), {str(got)[:60]!r}, not the {len(expected)} "
            "this reply holds, each as (name, arguments)"
        )

    return judge


def check_calls_to_run(fn: Callable[[dict, str], list]) -> Result:
    """The learner's ``calls_to_run(body, format)`` on Chat and Anthropic replies of each kind:
    calls under every stop reason, stop reasons that name tools over no call, a refusal, a
    server tool, and parallel calls whose Chat arguments come as a JSON string."""
    cases = [Case(_describe(*args), args, _judge_calls(args[0])) for args, _ in _STOPS]
    return check_cases(
        fn,
        cases,
        EX1,
        success="Right: the calls decide, not the text beside them nor the stop reason: Chat's "
        "tool_calls (arguments read from their JSON string), Anthropic's tool_use blocks (a "
        "server_tool_use block is a call Anthropic already ran). Your agent's loop can run what "
        "this returns for either provider. The stop reason usually agrees ('tool_calls', "
        "'tool_use'), but replies holding a call under 'stop' have been reported from OpenAI's "
        "API, and under 'end_turn' from Anthropic-compatible gateways (see the lesson's Sources)",
    )


# ---- 03.1: a reply handler ----------------------------------------------------------------------

_THINK = {
    "type": "thinking",
    "thinking": "Two things to check: the code, then the tests.",
    "signature": "c2ln",
}


def _use(id: str, name: str, **input: Any) -> dict:
    return {"type": "tool_use", "id": id, "name": name, "input": input}


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


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

#: (what the case is, the content, the texts to show, the ids of the calls to run)
_HANDLED = [
    (
        "reasoning, narration and two parallel calls",
        [_THINK, _text("Checking both."), _SEARCH, _TESTS],
        ["Checking both."],
        ["toolu_01Xq7", "toolu_01Bd2"],
    ),
    ("two calls and no narration", [_TESTS, _SEARCH], [], ["toolu_01Bd2", "toolu_01Xq7"]),
    ("a final answer", [_text("Your refund is on its way.")], ["Your refund is on its way."], []),
    (
        "a block of a type your code has never seen",
        [_text("Reading the file you sent."), _NEWER, _ORDER],
        ["Reading the file you sent."],
        ["toolu_01E"],
    ),
    (
        "a server tool Anthropic already ran, then a call of yours",
        [_WEB, _WEB_RESULT, _text("There is a carrier strike; now the order."), _ORDER],
        ["There is a carrier strike; now the order."],
        ["toolu_01E"],
    ),
    (
        "narration on both sides of a call",
        [_text("Let me look."), _ORDER, _text("One moment.")],
        ["Let me look.", "One moment."],
        ["toolu_01E"],
    ),
]


def _judge_reply(
    content: list[dict], show: list[str], run: list[str]
) -> Callable[[Any], str | None]:
    """Why a handler's ``(to_show, to_run)`` for ``content`` is wrong, or None when it is right."""
    blocks = {b.get("id"): b for b in content if b.get("id")}
    thoughts = [b["thinking"] for b in content if b["type"] == "thinking"]

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
            return f"to_show holds {str(to_show)[:80]!r}, more than the reply's text blocks"
        ids = []
        for item in to_run:
            if not isinstance(item, dict):
                return (
                    f"to_run holds {str(item)[:40]!r}; to run a call your code needs its name and "
                    "input as well as its id: keep the whole block"
                )
            ids.append(item.get("id"))
        server = [i for i in ids if i in blocks and blocks[i]["type"] != "tool_use"]
        if server:
            block = blocks[server[0]]
            return (
                f"it would run {block['name']} ({block['type']}): Anthropic already ran that "
                "one, and its result is in the same reply"
            )
        if ids != run:
            if sorted(map(str, ids)) == sorted(run):
                return "the right calls, in another order than the reply's"
            if len(ids) < len(run):
                return (
                    f"it runs {len(ids)} of the reply's {len(run)} call(s): every tool_use block "
                    "needs its result before the model can go on"
                )
            return f"it runs {len(ids)} call(s) where the reply holds {len(run)}"
        for i, item in zip(ids, to_run, strict=True):
            block = blocks[i]
            if item == block:
                continue
            missing = [k for k in block if k not in item]
            if missing:
                return (
                    f"the call {i} is not the block as the reply sent it: its {missing[0]!r} "
                    "key is gone (keep the whole block, as it came)"
                )
            added = [k for k in item if k not in block]
            if added:
                return f"the call {i} carries a {added[0]!r} key the reply's block does not have"
            key = next(k for k in block if item[k] != block[k])
            return f"the call {i} is not the block as the reply sent it: its {key!r} differs"
        return None

    return judge


def check_reply_handler(fn: Callable[[list[dict]], tuple[list[str], list[dict]]]) -> Result:
    """The learner's ``handle_reply(content)`` on six Anthropic replies it has not seen: the
    texts to show, and the tool_use blocks to run, each in the reply's order."""
    cases = [
        Case(name, (content,), _judge_reply(content, show, run))
        for name, content, show, run in _HANDLED
    ]
    return check_cases(
        fn,
        cases,
        EX2,
        success="Right: one pass over the blocks, a decision per type: the texts to the buyer, "
        "every tool_use to run, in order, reasoning kept unseen, and a server tool or a type you "
        "do not know left alone. That is the heart of every agent loop",
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
