"""Used in lessons: 01.

Exercises of notebooks/01_one_request.ipynb: build the next request, and (optional) compare two
requests' headers in a form fit for a log."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)

EX2 = Exercise(
    "01.1",
    look="the cell under 'The answer is one more message' that answered the first call: what it "
    "took from the reply, what it appended to the list, and in what shape; and the two rules "
    "above it that hold for every call, whatever its tool did.",
    idea="the provider keeps nothing: the next request must carry everything the model has to "
    "see, in the order it happened, and every call the reply made needs its answer, tied to "
    "it. A tool works on data, not on the text the wire carries. A tool that fails still owes "
    "its call an answer, and the model reads only the text of a tool message.",
    example="a body of 2 messages and a reply with two calls give a body of 5 messages: the 2, "
    "the reply's message, then one tool message per call, each carrying its call's id (in any "
    "order); the 2-message body itself stays as it was. If run('lookup', ...) raises "
    "TimeoutError('no answer after 30 s'), the agent goes on, and lookup's call still gets a "
    "tool message, whose text says that.",
)
EX1 = Exercise(
    "01.2",
    look="the head of the request under 'What went over the wire': each header is a name and a "
    "value (`first_exchange.request_headers` holds them as (name, value) pairs), and what the "
    "dump shows on the line that carries the key.",
    idea="HTTP reads a header's name in any letter case and ignores the headers' order, and a "
    "header only one request carries changed too. A log is read later by others: it shows "
    "every change, but never what would let a reader spend your money; the key's header is "
    "known by its name, not by the word 'key'.",
    example="[('Accept', 'a'), ('X-Try', '0')] then [('x-try', '1'), ('accept', 'a')] differ in "
    "one header: x-try, '0' then '1'. [('X-API-Key', 'sk-1')] then [] differ in x-api-key: "
    "'<redacted>' then None.",
)


# ---- 01.1: the next request, as a function ------------------------------------------------------


def _call(id: str, name: str, arguments: dict) -> dict:
    text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    return {"id": id, "type": "function", "function": {"name": name, "arguments": text}}


def _reply(content: str | None, *calls: dict) -> dict:
    """A Chat Completions reply as the provider sends it (the fields a real one carries)."""
    message = {"role": "assistant", "content": content, "refusal": None, "annotations": []}
    message["tool_calls"] = list(calls)
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls"}
    return {"id": "chatcmpl-hidden", "object": "chat.completion", "choices": [choice]}


def _output(name: str, arguments: Any) -> str:
    """What the check's tools return: a short text naming the tool and what it was given."""
    given = (
        ", ".join(sorted(arguments)) if isinstance(arguments, dict) else type(arguments).__name__
    )
    return f"{name} ran with {given}: ok"


#: what the check's failing tool raises (case 4): the agent must go on, and say it to the model
_FAILURE = TimeoutError("run_tests: no answer after 120 s (the test runner hung)")


def _hidden_cases() -> list[tuple[str, dict, dict, str | None]]:
    """(what the case is, the body just sent, the reply to it, the tool that fails or None): a
    conversation the lesson never sent (the crash-triage agent's), at its first turn and at a
    later one."""
    from helpers.examples import crash_triage
    from helpers.formats import render_for
    from helpers.models import default_model

    body = render_for(crash_triage.opening(default_model("openai")), "openai-chat").body
    search = _call("call_k2V9", "search_code", {"query": "o.Address.Country"})
    tests = _call("call_Hq41", "run_tests", {"packages": "./internal/orders/..."})
    issue = _call(
        "call_x7Lm",
        "file_issue",
        {"title": "ShippingQuote panics — nil Address", "labels": ["bug", "p1"], "body": "{}"},
    )
    first = _reply("The panic is in ShippingQuote; let me find the line.", search)
    later = copy.deepcopy(body)
    later["messages"] += [
        first["choices"][0]["message"],
        {"role": "tool", "tool_call_id": "call_k2V9", "content": "orders/shipping.go:57"},
    ]
    return [
        ("one call, with narration", body, first, None),
        ("two calls at once and content null", body, _reply(None, search, tests), None),
        (
            "a later turn, with arguments holding a list and non-ASCII text",
            later,
            _reply(None, issue),
            None,
        ),
        (
            "two calls at once, and the test runner fails (run raises TimeoutError)",
            body,
            _reply(None, search, tests),
            "run_tests",
        ),
    ]


def _same_calls(got: Any, sent: list[dict]) -> bool:
    """Whether ``got`` holds the calls of ``sent``: same ids, names and arguments (the arguments
    as the same JSON, however spaced)."""

    def key(call: Any) -> tuple:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments"))
        except (TypeError, ValueError):
            arguments = function.get("arguments")
        return call.get("id"), function.get("name"), json.dumps(arguments, sort_keys=True)

    if not isinstance(got, list) or not all(isinstance(c, dict) for c in got):
        return False
    return [key(c) for c in got] == [key(c) for c in sent]


def _assistant_differs(got: Any, message: dict) -> str | None:
    """Why ``got`` is not the reply's ``message`` sent back, or None. What matters is what the
    model reads: the role, the text (None and "" alike) and the calls with their ids; the fields
    only a response carries (``refusal``, ``annotations``) may stay or go."""
    if not isinstance(got, dict) or got.get("role") != "assistant":
        return "the message right after the others is not the reply's assistant message"
    if (got.get("content") or None) != (message.get("content") or None):
        return (
            "the reply's message is back, but not its text as it came: the model would not "
            "read what it said"
        )
    if not _same_calls(got.get("tool_calls"), message["tool_calls"]):
        return (
            "the reply's message is back, but not its tool_calls as they came (each call's id, "
            "name and arguments)"
        )
    return None


@dataclass
class _Attempt:
    """What the learner's ``next_body`` did on one case: its result, and what it did on the way."""

    body: Any
    changed_its_input: bool
    ran: list[tuple[str, Any]]
    escaped: BaseException | None = None


def _judge_next_body(body: dict, reply: dict, failing: str | None, post: Callable[[Any], Any]):
    message = reply["choices"][0]["message"]
    calls = message["tool_calls"]

    def judge(got: _Attempt) -> str | None:
        if got.escaped is not None:
            return (
                f"the tool {failing} failed ({type(got.escaped).__name__}: {got.escaped}) and "
                "your function let the error out: your agent would stop mid-task, with a call "
                "left unanswered; a failure is an answer too, one the model can read and work "
                "around"
            )
        if got.changed_its_input:
            return (
                "your function changed the body it was given, which its caller still holds: "
                "return a new body and leave that one as it was"
            )
        if not isinstance(got.body, dict):
            return f"your function returned {type(got.body).__name__}, not a request body (a dict)"
        strings = [name for name, arguments in got.ran if isinstance(arguments, str)]
        if strings:
            return (
                f"the tool {strings[0]} received its arguments as a str, as the wire carries "
                "them: a tool needs the data they spell"
            )
        if len(got.ran) != len(calls):
            return f"it ran {len(got.ran)} tool(s) for a reply that asks for {len(calls)}"
        try:
            response = post(got.body)
        except (TypeError, ValueError) as err:
            return f"the body could not be sent as JSON ({err})"
        if response.status_code != 200:
            try:
                said = response.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                said = response.text[:200]
            return f"the provider refused it ({response.status_code}): {said}"
        sent = got.body.get("messages", [])
        before = body["messages"]
        if sent[: len(before)] != before:
            return (
                f"the new body does not start with the {len(before)} messages sent before: the "
                "provider keeps nothing, so the model would not see them"
            )
        why = _assistant_differs(sent[len(before)] if len(sent) > len(before) else None, message)
        if why:
            return why
        answers = sent[len(before) + 1 :]
        outputs = {  # OpenAI pairs a result with its call by id: any order is right
            c["id"]: _output(c["function"]["name"], json.loads(c["function"]["arguments"]))
            for c in calls
        }
        given = {a.get("tool_call_id"): a.get("content") for a in answers if isinstance(a, dict)}
        for c in calls:
            if c["function"]["name"] != failing or len(answers) != len(calls):
                continue
            said = given.get(c["id"])
            if not isinstance(said, str) or str(_FAILURE) not in said:
                return (
                    f"the tool message answering {c['id']} ({failing}, which failed) does not "
                    f"say what went wrong: the model reads only its text, and the error said "
                    f"{str(_FAILURE)!r}"
                )
            outputs[c["id"]] = said
        if len(answers) != len(calls) or given != outputs:
            return (
                "the tool messages do not carry what the tools returned: one per call, each "
                "with its call's id and that tool's output"
            )
        if {k: v for k, v in got.body.items() if k != "messages"} != {
            k: v for k, v in body.items() if k != "messages"
        }:
            return "the model or the tools differ from the body sent before: keep them as they were"
        return None

    return judge


def check_next_body(fn: Any, provider: Any = None) -> Result:
    """The learner's ``next_body(body, reply, run)`` on replies it has not seen, one of whose
    tools fails (``run`` raises): each result is posted to a stand-in (which refuses what
    OpenAI refuses, in OpenAI's words), then read. ``provider`` if it is running; else (say after
    "Run All" stopped the lesson's) the check runs its own for the time it takes."""
    import httpx

    from standin import LOCAL_KEY, LocalProvider

    def attempt(body: dict, reply: dict, failing: str | None) -> _Attempt | None:
        before, ran = copy.deepcopy(body), []

        def run(name: str, arguments: Any) -> str:
            ran.append((name, arguments))
            if name == failing:
                raise _FAILURE
            return _output(name, arguments)

        try:
            got = fn(body, reply, run)
        except TimeoutError as err:
            if err is not _FAILURE:
                raise
            return _Attempt(..., body != before, ran, escaped=err)
        return None if got is None or got is ... else _Attempt(got, body != before, ran)

    if callable(fn):
        attempt.__wrapped__ = fn  # a blank `next_body` is seen as blank, not as a slip

    own = None if getattr(provider, "running", False) else LocalProvider(scenario="sundry")
    with own or contextlib.nullcontext(provider) as running:

        def post(body: Any):
            return httpx.post(
                f"{running.url}/v1/chat/completions",
                headers={"authorization": f"Bearer {LOCAL_KEY}"},
                json=body,
            )

        cases = [
            Case(name, (body, reply, failing), _judge_next_body(body, reply, failing, post))
            for name, body, reply, failing in _hidden_cases()
        ]
        return check_cases(
            attempt if callable(fn) else fn,
            cases,
            EX2,
            success="Right: the whole list again, the reply as it came, one answer per call tied "
            "by its id, a failed tool answered in words the model can read, and the provider "
            "took each one. That is the protocol under every stateless chat API, in one "
            "function you can reuse",
        )


CHAT_PATH = "/v1/chat/completions"

# ---- the optional prediction: two faults, one answer ---------------------------------------------


def two_faults_why(answer: Any, provider: Any) -> str:
    """What ``answer`` (the response to a body sent without its key and without its last
    message) says, and what the same body gets with the key: the explanation of the lesson's
    prediction, from the two real responses."""
    import httpx

    from standin import LOCAL_KEY

    def said(response: Any, limit: int) -> str:
        try:
            text = str(response.json()["error"]["message"])
        except (ValueError, KeyError, TypeError):
            text = response.text
        return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."

    sent = json.loads(answer.request.content)
    keyed = httpx.post(
        f"{provider.url}{CHAT_PATH}", headers={"authorization": f"Bearer {LOCAL_KEY}"}, json=sent
    )
    return (
        f"Without the key: {answer.status_code}, {said(answer, 90)!r}, not a word about the "
        f"body. With the key, the same body gets {keyed.status_code}: {said(keyed, 240)!r}. The "
        "stand-in checks the key before it reads the body, so one fault hid the other: fix "
        "them one by one, in the order the server reports them."
    )


# ---- 01.2 (optional): which headers changed, fit for a log -------------------------------------

#: the headers that carry a key: OpenAI's (and most compatible APIs'), Anthropic's, Gemini's
CREDENTIALS = ("authorization", "x-api-key", "x-goog-api-key")
# made-up keys: each check looks for them, and for any 8 characters of them, in what is logged
_KEYS = {
    "openai": "sk-proj-NOT-A-REAL-KEY-7f3a9c21e4",
    "anthropic": "sk-ant-api03-NOT-A-REAL-KEY-b81d",
    "gemini": "AIzaNOT-A-REAL-KEY-0c9e5f7a2d41",
}


def _shows_key(value: str, key: str) -> bool:
    """Whether ``value`` shows ``key``, or any 8 characters of it in a row."""
    return any(key[i : i + 8] in value for i in range(len(key) - 7))


# what openai-python 3.57.0 sent the stand-in (tests/support/fixtures/sdk), a made-up key
_SDK_HEADERS = [
    ("Host", "127.0.0.1:8080"),
    ("Accept-Encoding", "gzip, deflate"),
    ("Connection", "keep-alive"),
    ("authorization", f"Bearer {_KEYS['openai']}"),
    ("accept", "application/json"),
    ("content-type", "application/json"),
    ("user-agent", "OpenAI/Python 3.57.0"),
    ("x-stainless-lang", "python"),
    ("x-stainless-package-version", "3.57.0"),
    ("x-stainless-retry-count", "0"),
    ("x-stainless-read-timeout", "600"),
    ("Content-Length", "5373"),
]


def _with(headers: list, changes: dict[str, str | None]) -> list[tuple[str, str]]:
    """``headers`` with the values of ``changes`` (names in lower case; None drops the header);
    a name ``headers`` lacks goes last."""
    out = [(k, changes.get(k.lower(), v)) for k, v in headers]
    have = {k.lower() for k, _ in headers}
    new = [(k, v) for k, v in changes.items() if k not in have]
    return [(k, v) for k, v in out + new if v is not None]


def _header_changes(first: list, second: list) -> dict[str, tuple[str | None, str | None]]:
    before = {k.lower(): v for k, v in first}
    after = {k.lower(): v for k, v in second}
    return {
        k: (before.get(k), after.get(k))
        for k in {**before, **after}
        if before.get(k) != after.get(k)
    }


def _hidden(value: Any, raw: str | None) -> bool:
    """Whether ``value`` stands for the key-carrying ``raw`` in a log: None where the request has
    no such header, else a string that shows no 8 characters of any made-up key."""
    if raw is None:
        return value is None
    return isinstance(value, str) and not any(_shows_key(value, k) for k in _KEYS.values())


def _judge_changes(first: list, second: list) -> Callable[[Any], str | None]:
    expected = _header_changes(first, second)
    one_sided = {k for k, (a, b) in expected.items() if a is None or b is None}

    def judge(got: Any) -> str | None:
        if not isinstance(got, dict):
            kind = type(got).__name__
            return f"your function returned {kind}, not a dict of name -> (before, after)"
        lower = {str(k).lower(): v for k, v in got.items()}
        if len(lower) < len(got) or (lower == expected and got != expected):
            return "give each name in lower case, once: HTTP does not tell Host from host"
        if any(str(k) != str(k).lower() for k in got):
            return "give each name in lower case, once: HTTP does not tell Host from host"
        extra = sorted(set(lower) - set(expected))
        if extra:
            return (
                f"it reports {extra[0]!r}, which both requests send with the same value (its "
                "name may be spelled in another letter case, or stand elsewhere in the list)"
            )
        missing = sorted(set(expected) - set(lower))
        if missing:
            if missing[0] in one_sided:
                return (
                    f"it misses {missing[0]!r}, which only one of the two requests carries: a "
                    "header that appears or disappears has changed too"
                )
            return f"it misses {missing[0]!r}, whose value is not the same in the two requests"
        for name, (a, b) in expected.items():
            pair = lower[name]
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                return f"for {name!r} it gives {str(pair)[:40]!r}, not a (before, after) pair"
            if name in CREDENTIALS:
                for side, raw, value in (("first", a, pair[0]), ("second", b, pair[1])):
                    if raw is None and value is not None:
                        return (
                            f"for {name!r} it gives a value for the {side} request, which has no "
                            "such header: None stays None, so a reader sees the header come or go"
                        )
                    if not _hidden(value, raw):
                        return (
                            f"for {name!r} your diff shows the key (or part of it) of the {side} "
                            "request: this header carries the key, and a log must not show it"
                        )
            elif tuple(pair) != (a, b):
                trap = (
                    ": its name holds 'key', but it is a retry's id, no secret, and a reader "
                    "needs it to tie the tries together"
                    if "key" in name
                    else ""
                )
                return (
                    f"for {name!r} it gives {tuple(pair)!r}: give the value in the first request, "
                    f"then in the second (None where that request has no such header){trap}"
                )
        return None

    return judge


def check_header_changes(fn: Any, first: Any = None, second: Any = None) -> Result:
    """The learner's ``header_changes(first, second)`` (two lists of (name, value) pairs) on
    hidden pairs of requests: an SDK's retry, a resend, another order and letter case, a key
    moved and a key rotated (their values hidden), an ``Idempotency-Key`` (shown: no secret);
    then on ``first`` and ``second``, the lesson's two recorded requests."""
    sdk = _SDK_HEADERS
    httpx_like = [
        ("Host", "127.0.0.1:8080"),
        ("Accept", "*/*"),
        ("User-Agent", "python-httpx/0.28.1"),
        ("authorization", f"Bearer {_KEYS['openai']}"),
        ("Content-Length", "913"),
        ("Content-Type", "application/json"),
    ]
    shuffled = [(k.lower(), v) for k, v in reversed(_with(httpx_like, {"content-length": "1388"}))]
    gemini = [
        ("content-type", "application/json"),
        ("X-Goog-Api-Key", _KEYS["gemini"]),
        ("user-agent", "google-genai-sdk/3.6.1 gl-python/3.11"),
    ]
    pairs = [
        (
            "the OpenAI SDK sending the same body again after a failure",
            sdk,
            _with(sdk, {"x-stainless-retry-count": "1"}),
        ),
        ("the same request sent twice", sdk, list(sdk)),
        ("a longer body, the headers in another order and letter case", httpx_like, shuffled),
        (
            "the key moved from OpenAI's header to Anthropic's",
            httpx_like,
            _with(httpx_like, {"authorization": None, "x-api-key": _KEYS["anthropic"]}),
        ),
        (
            "a retry with a rotated key (the old key, then a new one) and an Idempotency-Key",
            [("Authorization", f"Bearer {_KEYS['openai']}"), ("x-stainless-retry-count", "0")],
            [
                ("Authorization", f"Bearer {_KEYS['anthropic']}"),
                ("Idempotency-Key", "stainless-python-retry-6f1c0d2e"),
                ("x-stainless-retry-count", "1"),
            ],
        ),
        ("Gemini's headers, the key's name in capitals, then dropped", gemini, gemini[::2]),
    ]
    lesson = None
    if first is not None and second is not None:
        lesson = (first.request_headers, second.request_headers)
        pairs.append(("this lesson's two recorded requests", *lesson))
    cases = [Case(name, (a, b), _judge_changes(a, b)) for name, a, b in pairs]
    found = ""
    if lesson is not None:
        changed = _header_changes(*lesson)
        found = (
            ""
            if not changed
            else " On this lesson's two requests: "
            + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in sorted(changed.items()))
            + (
                ", the one header computed from the body (its size in bytes): same path, same "
                "client, same key, a longer body"
                if set(changed) == {"content-length"}
                else ""
            )
        )
    return check_cases(
        fn,
        cases,
        EX1,
        success="Right: names compared in any letter case and any order, a header that appears "
        "or disappears counted as a change, and the key hidden wherever it travels, while an "
        "Idempotency-Key stays readable. Put it in your agent's debug log: a pasted diff leaks "
        "nothing." + found,
    )
