"""Hostile requests to the stand-in: what each one costs, in time and peak memory.

Each request is one a process on the same machine could send to a stand-in left running
(issue 32): a tool schema whose ``pattern`` backtracks without end in Python's ``re``, a
``minLength`` of fifty million, ``minItems`` with ``uniqueItems``, a body nested 100,000 deep,
a schema nothing satisfies, a long user text the email hint's regex once took quadratic time
on. ``HOSTILE`` holds them (the liveness tests send the same bytes);
:func:`measure` sends each to an in-process ``LocalProvider`` on 127.0.0.1 and reports its
status, wall time and the peak of Python's traced memory while it was answered
(``tracemalloc``: the stand-in's own allocations, not the process's RSS); :func:`connections`
times 200 clients connecting at once (the listen backlog). Before the caps,
``minLength: 50000000`` took 166 s and 2.5 GB and ``^(a+)+$`` never finished. Run:
``python -m benchmarks.hostile`` (or ``make bench``, which prints these rows with the rest).
"""

from __future__ import annotations

import json
import time
import tracemalloc
from typing import Any

from standin.server import LOCAL_KEY

PATH = "/v1/chat/completions"
HEADERS = {"authorization": f"Bearer {LOCAL_KEY}", "content-type": "application/json"}
#: a user text a backtracking pattern chokes on: its ``query`` hint is this whole text
CHOKE = "a" * 40 + "!"


def _chat(parameters: dict[str, Any], text: str = "look up the order please") -> bytes:
    """A Chat Completions body whose one tool (forced) has ``parameters``."""
    tool = {"name": "lookup", "description": "Look up an order.", "parameters": parameters}
    body = {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": text}],
        "tools": [{"type": "function", "function": tool}],
        "tool_choice": "required",
    }
    return json.dumps(body).encode()


def _one(schema: dict[str, Any], text: str = "look up the order please") -> bytes:
    return _chat({"type": "object", "properties": {"query": schema}, "required": ["query"]}, text)


def _many_tools(count: int) -> bytes:
    """``count`` tools, each a schema that spends most of a value's work budget."""
    spend = {"type": "array", "minItems": 256, "uniqueItems": True}
    spend["items"] = {"enum": list(range(255))}  # 255 distinct values for 256 items
    tools = [
        {
            "type": "function",
            "function": {
                "name": f"tool_{i}",
                "parameters": {"type": "object", "properties": {"x": spend}, "required": ["x"]},
            },
        }
        for i in range(count)
    ]
    body = json.loads(_one({"type": "string"}))
    return json.dumps({**body, "tools": tools, "tool_choice": "auto"}).encode()


def _history(arguments: str, result: str) -> bytes:
    """A Chat Completions body with one call (its ``arguments`` string) and its ``result``."""
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": arguments}}
    body = json.loads(_one({"type": "string"}))
    body["messages"] += [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": result},
    ]
    return json.dumps({**body, "tool_choice": "auto"}).encode()


def _prompt(system: str, user: str = "Answer please.", json_mode: bool = False) -> bytes:
    """A Chat Completions body without tools whose prompt states a format (the general model
    reads it: ``standin.provider.prompt_formats``)."""
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    body: dict[str, Any] = {"model": "gpt-4o-mini", "messages": messages}
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    return json.dumps(body).encode()


_DSPY_ASK = "Respond with the corresponding output fields, starting with the field "


#: name -> request body (POST ``PATH`` with ``HEADERS``)
HOSTILE: dict[str, bytes] = {
    "pattern ^(a|aa)+$, hint aaa...!": _one({"type": "string", "pattern": "^(a|aa)+$"}, CHOKE),
    "pattern ^(a+)+$, hint aaa...!": _one({"type": "string", "pattern": "^(a+)+$"}, CHOKE),
    "an email hint from 40,000 characters of A1A1...": _chat(
        {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]},
        "A1" * 20_000,  # before: 75 s in the email hint's quadratic regex
    ),
    "an identifier hint from A + 20,000 digits + A": _one(
        {"type": "string"}, "A" + "1" * 20_000 + "A"
    ),
    "pattern ((a{100}){100}){100}": _one({"type": "string", "pattern": "((a{100}){100}){100}"}),
    "minLength 50,000,000": _one({"type": "string", "minLength": 50_000_000}),
    "minItems 100,000 + uniqueItems": _one(
        {"type": "array", "minItems": 100_000, "uniqueItems": True}
    ),
    "minItems 256 + uniqueItems, 255 values": _one(
        {"type": "array", "minItems": 256, "uniqueItems": True, "items": {"enum": list(range(255))}}
    ),
    "200 x 200 x 9,000-character strings": _one(
        {
            "type": "array",
            "minItems": 200,
            "items": {
                "type": "array",
                "minItems": 200,
                "items": {"type": "string", "minLength": 9000},
            },
        }
    ),
    "2,000 tools, each a costly schema": _many_tools(2000),
    "unsatisfiable: minimum 3, maximum 2": _one({"type": "integer", "minimum": 3, "maximum": 2}),
    "a call's arguments string nested 100,000 deep": _history("[" * 100_000 + "]" * 100_000, "{}"),
    "a tool result nested 100,000 deep": _history("{}", "[" * 100_000 + "]" * 100_000),
    "a prompt of 200,000 '{' in JSON mode": _prompt("JSON " + "{" * 200_000, json_mode=True),
    "a prompt schema of minLength 50,000,000": _prompt(
        'Reply in JSON for this schema: {"properties": {"a": {"type": "string", '
        '"minLength": 50000000}}, "required": ["a"]}'
    ),
    "a DSPy prompt of 6,000 unclosed tool descriptions": _prompt(
        "(1) t, whose description is <desc>" * 6_000,
        _DSPY_ASK + "`[[ ## a ## ]]` (must be formatted as a valid Python dict[str, Any])" * 500,
    ),
    "body nested 100,000 deep": (
        b'{"model":"gpt-4o-mini","messages":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    ),
}


def measure() -> list[dict[str, Any]]:
    """Send each hostile request once: ``[{name, status, seconds, peak_mb}]``."""
    import httpx

    from standin import LocalProvider

    rows = []
    quiet = LocalProvider("general", log=lambda line: None)
    with quiet as provider, httpx.Client(timeout=600) as client:
        warm = _one({"type": "string", "pattern": "^a"})  # imports (jsonschema...) done first
        client.post(provider.url + PATH, content=warm, headers=HEADERS)
        for name, body in HOSTILE.items():
            tracemalloc.start()
            started = time.perf_counter()
            answer = client.post(provider.url + PATH, content=body, headers=HEADERS)
            seconds = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            row = {"name": name, "status": answer.status_code, "seconds": seconds}
            rows.append({**row, "peak_mb": peak / 1e6})
    return rows


def connections(count: int = 200) -> float:
    """Seconds until ``count`` clients are all connected at once (none answered yet)."""
    import socket

    from standin import LocalProvider

    with LocalProvider() as provider:
        started = time.perf_counter()
        opened = []
        try:
            for _ in range(count):
                opened.append(socket.create_connection(("127.0.0.1", provider.port), timeout=60))
            return time.perf_counter() - started
        finally:
            for s in opened:
                s.close()


if __name__ == "__main__":
    print(f"200 simultaneous connections: all connected in {connections():.2f} s")
    for row in measure():
        print(
            f"{row['name']:<45} {row['status']}  {1000 * row['seconds']:8.1f} ms"
            f"  {row['peak_mb']:8.2f} MB"
        )
