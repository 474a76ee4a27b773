"""Used in lessons: 03, 04, 05, 06, 07, 09, 10, 11.

A minimal agent loop: send the whole list, append the reply, run every tool,
repeat. Three habits keep the rules of the list (lesson 10), each one line of ``run``, marked
(a), (b), (c). Plain HTTP with ``httpx`` in any of the four formats, or the official SDK
(``via="sdk"``). It returns a ``Trace`` (``meter.py``): one ``Step`` per model call. It does not
retry, stream or truncate history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from helpers.formats import provider
from helpers.messages import Reasoning, Reply, Request, Text, ToolCall, ToolResult, tool
from helpers.meter import Step, Trace
from helpers.moved import moved
from helpers.standin_wire import LOCAL_KEY

__all__ = ["ProviderError", "ToolRunner", "auth_headers", "run", "send"]

ToolRunner = Callable[[ToolCall], ToolResult]


def auth_headers(format: str, api_key: str) -> dict[str, str]:
    """How each provider wants its key (and Anthropic its API version): its row's ``auth``."""
    return provider(format).auth(api_key)


class ProviderError(RuntimeError):
    """The provider answered with an error: its status and its own error body, unchanged."""

    def __init__(self, format: str, url: str, status: int, body: str):
        super().__init__(f"{format} answered {status}: {body}")
        self.url, self.status, self.body = url, status, body


def send(client: Any, format: str, body: dict, path: str) -> tuple[dict, dict[str, str]]:
    """POST one request body: the reply's JSON and its response headers (request id, rate
    limits...). Raise with the provider's error text on a non-2xx answer."""
    response = client.post(path, json=body)
    if response.status_code >= 400:
        raise ProviderError(format, str(response.url), response.status_code, response.text)
    return response.json(), dict(response.headers)


def _send_sdk(client: Any, format: str, body: dict) -> tuple[dict, dict[str, str]]:
    """The same body through the official SDK: its typed reply dumped back to JSON, and the
    response headers (``with_raw_response`` keeps them)."""
    if format == "openai-chat":
        raw = client.chat.completions.with_raw_response.create(**body)
    elif format == "openai-responses":
        raw = client.responses.with_raw_response.create(**body)
    elif format == "anthropic":
        raw = client.messages.with_raw_response.create(**body)
    else:
        raise ValueError(f"no official SDK installed for {format!r}; use via='httpx'")
    return raw.parse().model_dump(mode="json"), dict(raw.headers)


def _client(format: str, base_url: str, api_key: str, via: str) -> Any:
    if via == "httpx":
        import httpx

        return httpx.Client(base_url=base_url, headers=auth_headers(format, api_key), timeout=60)
    if provider(format).family == "openai":
        import openai

        return openai.OpenAI(base_url=base_url + provider(format).sdk_suffix, api_key=api_key)
    import anthropic

    return anthropic.Anthropic(base_url=base_url, api_key=api_key)


def run(
    request: Request,
    run_tool: ToolRunner,
    *,
    format: str = "anthropic",
    base_url: str,
    api_key: str = LOCAL_KEY,
    via: str = "httpx",
    max_turns: int = 12,
    finish: str | None = None,
) -> Trace:
    """Run ``request`` to a final answer (or ``max_turns``), calling ``run_tool`` for each call.

    ``finish`` names a tool whose call, once answered, ends the run (``trace.finish`` holds it).
    """
    from helpers.cost import price
    from helpers.formats import parse_response, render

    messages = list(request.messages)
    trace = Trace(format, request.model, messages=messages)
    with _client(format, base_url, api_key, via) as client:
        for number in range(1, max_turns + 1):
            rendered = render(replace(request, messages=messages), format)  # the whole list, again
            if via == "sdk":
                raw, headers = _send_sdk(client, format, rendered.body)
            else:
                raw, headers = send(client, format, rendered.body, rendered.path)
            reply: Reply = parse_response(raw, format)
            messages.append(reply.message)  # (a) the reply goes into the history first
            cost = _cost(price, reply, request.model)
            sent = len(messages) - 1
            trace.steps.append(Step(number, rendered.body, raw, reply, headers, cost, sent))

            results: list[ToolResult] = []
            for block in reply.message.content:  # (c) dispatch on the block type
                match block:
                    case ToolCall():
                        results.append(run_tool(block))
                        if block.name == finish and not results[-1].is_error:
                            trace.finish = block
                    case Text() | Reasoning():
                        pass  # already in the history; shown by the trace
            if not results:
                return trace
            messages.append(tool(*results))  # (b) every call answered, in one message
            if trace.finish is not None:
                return trace  # the agent said it is done, in a form the program can read
    return trace


def _cost(price: Callable, reply: Reply, model: str) -> Any:
    """The turn's price, or None when the price list does not know the model."""
    try:
        return price(reply.usage, model).total_usd
    except LookupError:
        return None


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
__getattr__ = moved(__name__, {"COUNT_HEADER": "helpers.standin_wire", "STOPPED": "helpers.meter"})
