"""Used in lessons: 07.

Exercises of notebooks/07_what_the_sdk_adds.ipynb."""

from __future__ import annotations

import copy
import json
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)

EX1 = Exercise(
    "07.1",
    look="the chunks the lesson printed: which chunk has no choices at all, which fields a "
    "tool call's first fragment has that its later ones do not, and what names the call a "
    "fragment belongs to.",
    idea="a stream is one message cut into deltas: every delta adds to the message, none "
    "replaces it. Text deltas join in order; a tool call is known by its index, is opened by its "
    "first fragment (id, type, name) and grown by the arguments its later fragments carry; a "
    "chunk may carry no choice at all (the usage comes last, alone).",
    example="chunks with deltas {role: assistant, content: ''}, {content: 'Hi'}, {tool_calls: "
    "[{index: 0, id: c1, type: function, function: {name: f, arguments: ''}}]}, {tool_calls: "
    "[{index: 0, function: {arguments: '{}'}}]}, then a chunk with choices [] give "
    "{role: assistant, content: 'Hi', tool_calls: [{id: c1, type: function, function: {name: f, "
    "arguments: '{}'}}]}.",
)


# ---- exercise 1: a Chat Completions stream, assembled -----------------------------------------

_ID = "chatcmpl-7d1c0e5a9b"


def _chunk(delta: dict[str, Any] | None, finish: str | None = None) -> dict[str, Any]:
    """One chunk as Chat Completions streams it (a usage chunk when ``delta`` is None)."""
    chunk: dict[str, Any] = {
        "id": _ID,
        "object": "chat.completion.chunk",
        "created": 1765100000,
        "model": "gpt-4o-mini",
        "system_fingerprint": None,
        "usage": None,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    if delta is None:
        usage = {"prompt_tokens": 969, "completion_tokens": 31, "total_tokens": 1000}
        chunk.update(choices=[], usage=usage)
    return chunk


def _opens(index: int, call_id: str, name: str) -> dict[str, Any]:
    fragment = {"index": index, "id": call_id, "type": "function"}
    return {"tool_calls": [{**fragment, "function": {"name": name, "arguments": ""}}]}


def _grows(index: int, piece: str) -> dict[str, Any]:
    return {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}


def _stream(deltas: list[dict[str, Any]], finish: str) -> list[dict[str, Any]]:
    """Recorded-shaped: a role-only first chunk, the deltas, an empty delta carrying the
    finish_reason, then the usage chunk with no choices."""
    return [
        _chunk({"role": "assistant", "content": ""}),
        *(_chunk(d) for d in deltas),
        _chunk({}, finish),
        _chunk(None),
    ]


def assemble_cases() -> list[Case]:
    """The hidden streams of exercise 1, each with the message the non-streamed reply would
    hold: text alone (with an empty content delta), one call split mid-string, text then a
    call, two calls interleaved by index, a call fragment with an empty arguments piece, and
    two calls whose second index is opened first in the chunk."""
    search = '{"query": "SO-48213", "status": "delivered"}'
    refund = '{"order_id": "SO-48213", "reason": "damaged — box crushed"}'
    tracking = '{"order_id": "SO-48213"}'
    text = [{"content": "Your order "}, {"content": ""}, {"content": "shipped on 2 December."}]
    one_call = [
        {"content": None, **_opens(0, "call_Q1", "search_orders")},
        _grows(0, search[:11]),
        _grows(0, search[11:29]),
        _grows(0, search[29:]),
    ]
    said_then_called = [
        {"content": "Let me check "},
        {"content": "the refund."},
        _opens(0, "call_R7", "check_refund_eligibility"),
        _grows(0, refund[:20]),
        _grows(0, refund[20:]),
    ]
    interleaved = [
        _opens(0, "call_A1", "get_tracking"),
        _opens(1, "call_B2", "search_orders"),
        _grows(0, tracking[:9]),
        _grows(1, search[:17]),
        _grows(0, tracking[9:]),
        _grows(1, search[17:]),
    ]
    empty_piece = [
        _opens(0, "call_E5", "get_tracking"),
        _grows(0, ""),
        _grows(0, tracking),
    ]
    second_first = [
        {
            "tool_calls": [
                _opens(1, "call_D4", "search_orders")["tool_calls"][0],
                _opens(0, "call_C3", "get_tracking")["tool_calls"][0],
            ]
        },
        {"tool_calls": [_grows(1, search)["tool_calls"][0], _grows(0, tracking)["tool_calls"][0]]},
    ]

    def calls(*spec: tuple[str, str, str]) -> list[dict[str, Any]]:
        return [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in spec
        ]

    return [
        _assemble_case(
            "text alone: an empty content delta, the usage last in a chunk with no choices",
            _stream(text, "stop"),
            "Your order shipped on 2 December.",
            [],
        ),
        _assemble_case(
            "one tool call, its arguments split in the middle of a string",
            _stream(one_call, "tool_calls"),
            None,
            calls(("call_Q1", "search_orders", search)),
        ),
        _assemble_case(
            "text, then a tool call",
            _stream(said_then_called, "tool_calls"),
            "Let me check the refund.",
            calls(("call_R7", "check_refund_eligibility", refund)),
        ),
        _assemble_case(
            "two parallel calls, their fragments interleaved by index",
            _stream(interleaved, "tool_calls"),
            None,
            calls(("call_A1", "get_tracking", tracking), ("call_B2", "search_orders", search)),
        ),
        _assemble_case(
            "one call with an empty arguments fragment",
            _stream(empty_piece, "tool_calls"),
            None,
            calls(("call_E5", "get_tracking", tracking)),
        ),
        _assemble_case(
            "two calls in the same chunks, index 1 listed before index 0",
            _stream(second_first, "tool_calls"),
            None,
            calls(("call_C3", "get_tracking", tracking), ("call_D4", "search_orders", search)),
        ),
    ]


def _assemble_case(
    name: str, chunks: list[dict[str, Any]], content: str | None, calls: list[dict[str, Any]]
) -> Case:
    return Case(name, (chunks,), _assemble_judge(chunks, content, calls))


def _assemble_judge(
    chunks: list[dict[str, Any]], content: str | None, calls: list[dict[str, Any]]
) -> Any:
    def judge(got: Any) -> str | None:
        if not isinstance(got, dict):
            return f"your function returned a {type(got).__name__}: return the message, a dict"
        if got.get("role") != "assistant":
            return f"the message's role is {got.get('role')!r}: the first chunk said who speaks"
        said = got.get("content")
        if content is None and said is not None:
            return (
                f"the content is {said!r}, and this stream sent no text: the non-streamed "
                "reply holds None there (an empty role delta is no text)"
            )
        if content is not None and said != content:
            if not isinstance(said, str):
                return f"the content is {said!r}, and this stream sent text"
            return (
                f"the content is {len(said)} characters long ({said[:40]!r}...), and the "
                f"stream's text deltas make {len(content)}: they add to the message, in order"
            )
        mine = got.get("tool_calls") or []
        if not isinstance(mine, list):
            return f"tool_calls is a {type(mine).__name__}: a list, in the order of the indices"
        if len(mine) != len(calls):
            return (
                f"the message has {len(mine)} tool call(s), and the stream opened {len(calls)} "
                f"(indices {list(range(len(calls)))})"
            )
        for k, (have, want) in enumerate(zip(mine, calls, strict=True)):
            if not isinstance(have, dict):
                return f"tool call {k} is a {type(have).__name__}, not a dict"
            for key in ("id", "type"):
                if have.get(key) != want[key]:
                    return (
                        f"tool call {k}'s {key} is {have.get(key)!r}: the next request sends "
                        "this message back, and its calls need the id and type of index "
                        f"{k}'s first fragment (later fragments carry none)"
                    )
            fn = have.get("function") if isinstance(have.get("function"), dict) else {}
            if fn.get("name") != want["function"]["name"]:
                return (
                    f"tool call {k}'s name is {fn.get('name')!r}: the call at index {k} was "
                    "opened with another"
                )
            args = fn.get("arguments")
            if args != want["function"]["arguments"]:
                if not isinstance(args, str):
                    return (
                        f"tool call {k}'s arguments are a {type(args).__name__}: on the wire, "
                        "as in the non-streamed reply, they stay one JSON string"
                    )
                try:
                    json.loads(args)
                    why = "valid JSON, but not the fragments of this index joined in order"
                except ValueError:
                    why = "not valid JSON: fragments of this index are missing, or another's"
                return f"tool call {k}'s arguments are {args[:60]!r}: {why}"
        return _sent_back(got)

    return judge


def _sent_back(message: dict[str, Any]) -> str | None:
    """The assembled message sent back as the next request's history (its calls answered), as
    the stand-in judges it: OpenAI's refusal, if it would refuse it."""
    from standin.verdict import verdict

    answers = [
        {"role": "tool", "tool_call_id": call["id"], "content": "done"}
        for call in message.get("tool_calls") or []
    ]
    ask = {"role": "user", "content": "Where is my order SO-48213?"}
    body = {"model": "gpt-4o-mini", "messages": [ask, message, *answers]}
    errors = [v for v in verdict(body, "openai-chat").violations if v.severity == "error"]
    if not errors:
        return None
    said = errors[0].provider_error or errors[0].message
    return f"sent back in the next request, this message is refused by OpenAI: 400 {said!r}"


def check_assemble(fn: Any) -> Result:
    """Run the learner's ``assemble(chunks)`` on hidden Chat Completions streams (lists of
    parsed chunks), each judged against the message the non-streamed reply holds, then sent
    back as the next request's history to the stand-in's verdict (``_sent_back``)."""
    return check_cases(
        fn,
        assemble_cases(),
        EX1,
        success=(
            "Right: text deltas joined, calls opened by their first fragment and grown by index, "
            "the usage chunk read past: the message the non-streamed reply would give, ready to "
            "go back in the next request. Drop the SDK, and this is what you keep"
        ),
    )


WIRE_CALL = {  # the call of the lesson's prediction on timeout=30
    "messages": [{"role": "user", "content": "Where is my order SO-50102?"}],
    "max_completion_tokens": 200,
    "temperature": 0,
}


def wire_effect() -> tuple[dict[str, Any], dict[str, str]]:
    """The prediction's call (lesson 07), made twice on a fresh stand-in, with
    timeout=30 and without: (the body it sent, the x-stainless-* headers whose values differ
    between the two)."""
    import openai

    from helpers.models import default_model
    from standin import LOCAL_KEY, LocalProvider

    with LocalProvider("echo") as p:
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY)
        call = {"model": default_model("openai"), **copy.deepcopy(WIRE_CALL)}
        client.chat.completions.create(**call)
        plain = dict(p.recorder.last.request_headers)
        client.chat.completions.create(**call, timeout=30)
        sent = p.recorder.last
    differ = {
        name.lower(): value
        for name, value in sent.request_headers
        if name.lower().startswith("x-stainless-") and plain.get(name) != value
    }
    return sent.request_json, differ
