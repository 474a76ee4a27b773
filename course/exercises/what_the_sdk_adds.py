"""Used in lessons: 07.

Exercises of notebooks/07_what_the_sdk_adds.ipynb."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)

EX1 = Exercise(
    "07.1",
    look="the SDK's own code the lesson printed: which method decides whether to retry at all, "
    "which reads the server's hint (which header first, in which unit), which turns the hint or "
    "the retries made into a wait, and which constants bound them.",
    idea="the server knows more than the status code: when it says something about this answer, "
    "the SDK believes it over its own defaults, but not every hint it is given, nor a wait it "
    "thinks too long. Left to itself, the SDK asks whether a later try could go differently, "
    "and backs off more each time, up to a point.",
    example="a 502 with no headers on the first failure: wait about half a second (the SDK takes "
    "up to a quarter off at random). The same 502 after one retry: about a second. A 401: "
    "never. A 401 with x-should-retry: true: like the 502.",
)
EX2 = Exercise(
    "07.2",
    look="the cells under 'A 429, and the retry': what the provider received when the SDK "
    "retried, what a call raises once the SDK stops, and which of the SDK's client options "
    "sets how often it retries.",
    idea="a retry you want to decide yourself must first stop being the SDK's: once it gives "
    "up at once, the server's whole answer reaches your code with the error it raises. Handle "
    "only what this function promised to; anything else is the caller's.",
    example="a 429 whose retry-after-ms says 500 gives back 0.5, after exactly one request; a "
    "200 gives the completion; a 503 reaches the caller as the SDK's own error, after one "
    "request.",
)


# ---- exercise 1: the retry decision, judged by the installed SDK's own code --------------------

#: (what the case is, status, response headers in lower case, retries already made, the
#: client's max_retries)
RETRY_CASES: list[tuple[str, int, dict[str, str], int, int]] = [
    ("a 503 with no headers, first failure", 503, {}, 0, 2),
    ("a 429 whose retry-after-ms says 250, first failure", 429, {"retry-after-ms": "250"}, 0, 2),
    ("a 500 after one retry already", 500, {}, 1, 2),
    ("a 400 (a mistake in the request)", 400, {}, 0, 2),
    ("a 409 (a lock conflict), first failure", 409, {}, 0, 2),
    ("a 429 whose retry-after says 30 seconds", 429, {"retry-after": "30"}, 0, 2),
    ("a 429 whose retry-after says 300 seconds", 429, {"retry-after": "300"}, 0, 2),
    ("a 400 with x-should-retry: true", 400, {"x-should-retry": "true"}, 0, 2),
    ("a 503 with x-should-retry: false", 503, {"x-should-retry": "false"}, 0, 2),
    ("a 502 after two retries already", 502, {}, 2, 2),
    ("a 404 (no such model)", 404, {}, 0, 2),
    ("a 429 whose retry-after says 90 seconds", 429, {"retry-after": "90"}, 0, 2),
    (
        "a 429 with both hints: retry-after-ms 250 and retry-after 3",
        429,
        {"retry-after-ms": "250", "retry-after": "3"},
        0,
        2,
    ),
    (
        "a 429 whose retry-after says 300 seconds, with x-should-retry: true",
        429,
        {"retry-after": "300", "x-should-retry": "true"},
        0,
        2,
    ),
    ("a 429 whose retry-after-ms says 0, first failure", 429, {"retry-after-ms": "0"}, 0, 2),
    ("a 503 whose retry-after says -3 (a clock skew)", 503, {"retry-after": "-3"}, 1, 2),
    ("a 503 after two retries, on a client made with max_retries=5", 503, {}, 2, 5),
    ("a 500 after five retries, on a client made with max_retries=6", 500, {}, 5, 6),
    ("a 500 after five retries, on a client made with max_retries=5", 500, {}, 5, 5),
]


GIVE_UP = "give up"  # what the check reads a learner's None as, once the function answers


@functools.cache
def _sdk_client() -> Any:
    """An OpenAI client that never sends anything: only its retry decision is read."""
    import openai

    return openai.OpenAI(base_url="http://127.0.0.1:9/v1", api_key="unused")


def sdk_retry(
    status: int, headers: dict[str, str], retries_done: int, max_retries: int = 2
) -> tuple[float, float] | None:
    """What the installed OpenAI SDK does with this answer: None (give up), else the range of
    seconds it waits (its backoff takes up to a quarter off at random). Read from the SDK's own
    ``_should_retry`` and its retry constants, not restated here."""
    import httpx
    from openai import _constants as sdk

    client = _sdk_client()
    response = httpx.Response(status, headers=headers)
    if retries_done >= max_retries or not client._should_retry(response):
        return None
    hint = client._parse_retry_after_header(response.headers)
    if hint is not None and 0 < hint <= sdk.MAX_RETRY_AFTER_DELAY:
        return hint, hint
    backoff = min(sdk.INITIAL_RETRY_DELAY * 2.0**retries_done, sdk.MAX_RETRY_DELAY)
    return 0.75 * backoff, backoff


def sdk_source() -> str:
    """The installed OpenAI SDK's own retry decision, as it reads: the three methods of its
    ``_base_client.py`` that decide, and the constants they use (its debug logging left out).
    Printed by lesson 07 for exercise 1; not a restatement of the rules."""
    import inspect
    import re

    from openai import _base_client, _constants

    parts = [
        inspect.getsource(getattr(_base_client.SyncAPIClient, name))
        for name in ("_should_retry", "_parse_retry_after_header", "_calculate_retry_timeout")
    ]
    code = "\n".join(parts)
    code = re.sub(r"\n\s*log\.debug\((?:[^()]|\([^()]*\))*\)", "", code)  # the logging
    constants = [
        f"{name} = {getattr(_constants, name)!r}"
        for name in ("INITIAL_RETRY_DELAY", "MAX_RETRY_DELAY", "MAX_RETRY_AFTER_DELAY")
    ]
    head = "# openai/_constants.py\n" + "\n".join(constants)
    return f"{head}\n\n# openai/_base_client.py\n{code}"


def _retry_judge(
    status: int, headers: dict[str, str], done: int, max_retries: int
) -> Callable[[Any], str | None]:
    expected = sdk_retry(status, headers, done, max_retries)

    def judge(got: Any) -> str | None:
        if got is GIVE_UP or got is False:
            got = None
        if expected is None:
            if got is None:
                return None
            return f"your function waits {got!r} and tries again, and the SDK gives up here"
        if got is None and expected[0] == expected[1] > 60:
            return (
                f"your function gives up, and the installed SDK ({_sdk_version()}) waits the "
                f"{expected[0]:g} s the server asked for: its limit on a server's wait is not "
                "the one older versions had (check the number the lesson gives)"
            )
        if got is None or got is True:
            return f"your function gave {got!r}, and the SDK tries again here, after a wait"
        if isinstance(got, bool) or not isinstance(got, int | float):
            return f"your function gave {got!r}: give the seconds to wait, as a number"
        low, high = expected
        if low - 1e-9 <= got <= high + 1e-9:
            return None
        hint = _sdk_client()._parse_retry_after_header(_httpx_headers(headers))
        if hint is not None and hint <= 0 and abs(got - hint) < 1e-9:
            return (
                f"your function waits {got!r} s, the server's own hint, and the SDK waits "
                f"{_wait(low, high)} here: it does not take every hint a server sends (read when "
                "`_calculate_retry_timeout` honours one)"
            )
        return f"your function waits {got!r} s, and the SDK waits {_wait(low, high)}"

    return judge


def _httpx_headers(headers: dict[str, str]) -> Any:
    """The case's headers as the SDK reads them (an ``httpx.Headers``)."""
    import httpx

    return httpx.Headers(headers)


def _sdk_version() -> str:
    import openai

    return f"openai {openai.__version__}"


def _wait(low: float, high: float) -> str:
    return f"{high:g} s" if low == high else f"between {low:g} and {high:g} s"


def _never_answers(fn: Callable, cases: list[Case]) -> bool:
    """True when the function returns None (or ...) on every case: its body is not written."""
    for case in cases:
        try:
            if fn(*copy.deepcopy(case.args)) not in (None, ...):
                return False
        except Exception:  # check_cases reports it, with the case
            return False
    return True


def _none_is_give_up(fn: Callable) -> Callable:
    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(*args: Any) -> Any:
        got = fn(*args)
        return GIVE_UP if got is None else got

    return run


def check_retry(fn: Callable[[int, dict, int, int], float | None]) -> Result:
    """Run the learner's ``retry_delay(status, headers, retries_done, max_retries)`` on hidden
    answers and compare with what the installed OpenAI SDK, made with that ``max_retries``, does
    with each."""
    cases = [
        Case(name, (status, headers, done, most), _retry_judge(status, headers, done, most))
        for name, status, headers, done, most in RETRY_CASES
    ]
    if callable(fn) and not _never_answers(fn, cases):
        fn = _none_is_give_up(fn)  # None means "give up" once the function answers at all
    return check_cases(
        fn,
        cases,
        EX1,
        success=(
            "Right: your function retries what the SDK retries and waits as long. Now it is "
            "your code's decision, and you can change it: queue the ticket instead of waiting, "
            "or give up sooner for a user who is watching"
        ),
    )


# ---- exercise 3 (optional): one call, the SDK's retries off, the 429 answered by your code ----

#: (what the case is, the fault injected before the call, what the case expects: "completion",
#: seconds to wait, or the name of the SDK error the caller should get)
SEND_CASES: list[tuple[str, Any, Any]] = [
    ("an answer that comes back at once", None, "completion"),
    ("a 429 whose retry-after-ms says 250", ("rate", 1.0, 250), 0.25),
    ("a 429 with only retry-after, 2 seconds", ("rate", 2.0, None), 2.0),
    ("a 503 (the server is overloaded)", ("status", 503), "InternalServerError"),
    ("a 400 (a mistake in the request)", ("status", 400), "BadRequestError"),
]


def _fault(spec: Any) -> Any:
    from standin import RateLimited, ServerError

    if spec[0] == "rate":
        return RateLimited(retry_after=spec[1], retry_after_ms=spec[2])
    return ServerError(spec[1])


def _send_judge(expected: Any) -> Callable[[Any], str | None]:
    def judge(out: Any) -> str | None:
        kind, value, statuses = out
        sent = f"{len(statuses)} request(s) reached the provider ({', '.join(map(str, statuses))})"
        if len(statuses) != 1:
            return f"{sent}: the SDK retried on its own; your function makes exactly one request"
        if isinstance(expected, str) and expected != "completion":
            if kind == "returned":
                return (
                    f"your function returned {value!r}; an error other than a 429 is not this "
                    "function's to handle: the caller should get the SDK's own error"
                )
            if value != expected:
                return f"the caller got {value}, and the SDK raises {expected} here"
            return None
        if kind == "raised":
            return f"your function let the SDK's {value} reach the caller"
        if expected == "completion":
            if not hasattr(value, "choices"):
                return f"your function returned a {type(value).__name__}, not the completion"
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"your function returned {value!r}: return the seconds to wait, as a number"
        if abs(value - expected) > 1e-6:
            return f"your function waits {value!r} s, and the server asked for {expected:g} s"
        return None

    return judge


def check_send_once(fn: Callable[[Any, dict], Any]) -> Result:
    """Run the learner's ``send_once(client, body)`` against a fresh local provider, a fault
    injected before each hidden case; judge what it returned or let through, and how many
    requests the provider received."""
    import openai

    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.models import default_model
    from standin import LOCAL_KEY, LocalProvider

    cases = [Case(name, (fault,), _send_judge(want)) for name, fault, want in SEND_CASES]
    if not callable(fn):
        return check_cases(fn, [], EX2, success="")  # "not answered" / "not a function"
    body = render(sundry.opening(default_model("openai")), "openai-chat").body
    with LocalProvider("sundry") as p:
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY)

        @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
        def run(fault: Any) -> Any:
            p.recorder.clear()
            if fault is not None:
                p.inject(_fault(fault))
            try:
                got = fn(client, copy.deepcopy(body))
            except openai.APIStatusError as err:  # what the caller would get
                return "raised", type(err).__name__, [e.status for e in p.recorder]
            if got is None or got is ...:
                return got
            return "returned", got, [e.status for e in p.recorder]

        return check_cases(
            run,
            cases,
            EX2,
            success=(
                "Right: one request each time; a 429 becomes a wait your own code can decide "
                "about (queue the ticket, tell the user), and every other error reaches the "
                "caller as the SDK raised it"
            ),
        )


WIRE_CALL = {  # the call of the lesson's prediction on timeout=30
    "messages": [{"role": "user", "content": "Where is my order SO-50102?"}],
    "max_completion_tokens": 200,
    "temperature": 0,
}


def wire_effect() -> tuple[dict[str, Any], dict[str, str]]:
    """The prediction's call (lesson 07), made twice on a fresh local provider, with
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
