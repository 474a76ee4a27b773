"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

What the stand-in answers: one request in, one response out (no sockets here).

The endpoints are the real ones:

=================================================================  ==============================
``POST /v1/chat/completions``                                      OpenAI Chat Completions
``POST /v1/responses``, ``POST /v1/conversations``                 OpenAI Responses (and state)
``GET /v1/models``, ``GET /v1/models/{model}``                     OpenAI (Anthropic's shape when
                                                                   ``anthropic-version`` is sent)
``POST /v1/messages``                                              Anthropic Messages
``POST /v1/messages/count_tokens``                                 Anthropic token count
``POST /{v1,v1beta}/models/{model}:generateContent``               Gemini
``POST /{v1,v1beta}/models/{model}:streamGenerateContent``         Gemini, streamed (``?alt=sse``)
``POST /{v1,v1beta}/models/{model}:countTokens``                   Gemini token count
=================================================================  ==============================

:func:`answer` checks a request the way the provider does, in the order a real server does:
a key is present, the body is JSON of the right content type, then ``standin.verdict``: the
required fields are there and the body reads as a request; the model exists, reasoning
signatures are intact, and the conversation keeps the provider's rules of the list (the same
``verdict``, so ``python -m helpers check`` and this server never disagree).
The first failure is answered with the provider's own status and error envelope. A good request
goes to the scenario (or to the general model, when the named story does not script it:
``scenarios.for_turn``); its text ends at the request's stop sequences and output limit
(``wire_options.cut``, counted with the same tokenizer as the usage, stop reason as the provider
spells it); the reply is priced with the real token counter (``helpers.tokens``) and rendered
with ``standin.render_response``; a streamed request gets the same body cut into SSE
events by ``standin.sse_write``. Anthropic's message threads and OpenAI's stored responses are
expanded first (``state``); an ``anthropic-beta`` the stand-in does not model is refused.

Not modelled: sampling parameters (ignored), prompt caching (usage reports no cached tokens),
and per-model limits.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from helpers.formats.providers import PROVIDERS
from helpers.standin_wire import COUNT_HEADER
from standin.provider import errors
from standin.provider.scenarios import Scenario, Turn
from standin.providers import of

__all__ = ["Response", "Route", "answer", "error", "find_route"]

#: (path, provider, kind, streamed, HTTP method): each provider's endpoints, from its module in
#: ``standin/providers``, tried in order, the last row's provider first: Gemini's model paths
#: before OpenAI's models list, which would also match ``/v1/models/M:generateContent``.
_ROUTES: list[tuple[re.Pattern[str], str, str, bool, str]] = [
    (re.compile(path), provider, kind, stream, method)
    for provider in reversed(PROVIDERS)
    for path, kind, stream, method in of(provider).ROUTES
]


@dataclass
class Route:
    provider: str
    stream: bool = False
    model: str | None = None  # Gemini names the model in the path
    #: Gemini streams SSE only with ``?alt=sse``; without it, one JSON array of records.
    sse: bool = True
    #: "generate", "count" (token counting), "models" (the model list), "conversations"
    kind: str = "generate"
    #: the HTTP method the endpoint takes
    method: str = "POST"
    #: Gemini takes its key as ``?key=...`` too
    key_in_query: bool = False
    #: Gemini's API version (``v1`` lacks some fields of ``v1beta``)
    version: str = "v1beta"

    @property
    def conversations(self) -> bool:
        """``POST /v1/conversations``: create a conversation (OpenAI Responses state)."""
        return self.kind == "conversations"


@dataclass
class Response:
    """What goes back: a status, headers, and a body *or* a list of SSE events."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    events: list[str] | None = None
    provider: str = ""
    note: str = ""


def find_route(path: str, query: str = "") -> Route | None:
    """The endpoint for ``path`` (without the query string), or None."""
    for pattern, provider, kind, stream, method in _ROUTES:
        match = pattern.fullmatch(path)
        if match:
            model = match.groupdict().get("model")
            route = Route(provider, stream, model, sse="alt=sse" in query.split("&"))
            route.kind, route.method = kind, method
            route.key_in_query = any(p.startswith("key=") and p[4:] for p in query.split("&"))
            route.version = match.groupdict().get("version") or "v1beta"
            return route
    return None


def _json_response(status: int, body: Any, provider: str, note: str = "") -> Response:
    data = json.dumps(body, ensure_ascii=False, indent=None).encode("utf-8")
    headers = [("content-type", "application/json")]
    return Response(status, headers, data, provider=provider, note=note)


def error(provider: str, status: int, message: str, headers: list | None = None) -> Response:
    """An error in ``provider``'s envelope, with optional extra headers (``retry-after``...)."""
    response = _json_response(status, errors.envelope(provider, status, message), provider)
    response.headers += headers or []
    response.note = f"error {status}"
    return response


def _digest(*parts: Any) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


#: The response header in which the stand-in says how it counted the input tokens of
#: its usage: "exact", or an estimate and how far off it can be. Real APIs send no such header
#: (their usage is the bill); ``helpers.loop`` shows it under the meter.


def _usage(request: Any, message: Any, model: str, body: dict, provider: str) -> tuple[Any, str]:
    """Usage counted with the real tokenizer for ``model``, and how exact the count is.

    That (``standin.explained``: "exact", "estimate ±8 tokens: tools[4] ±4 (...)...", or a
    Claude/Gemini proxy estimate with its measured spread) goes back in the ``COUNT_HEADER``
    response header. Output by ``tokens.count_output``, the same rule the cost model uses.
    """
    from helpers import tokens
    from helpers.messages import Reasoning, Usage
    from standin.wire_count import with_unmodelled

    counted = with_unmodelled(tokens.count(request, model), body, provider)
    reasoning = sum(
        tokens.count_text(b.text, model) for b in message.content if isinstance(b, Reasoning)
    )
    usage = Usage(input_tokens=counted.total, output_tokens=tokens.count_output(message, model))
    usage.reasoning_tokens = reasoning
    from standin.explained import explained as explain

    explained = explain(counted).replace("±", "+/-")
    return usage, explained.encode("ascii", "replace").decode("ascii")  # header values are ASCII


def _read_body(provider: str, headers: dict[str, str], raw: bytes) -> dict | Response:
    """The body as a JSON object, or the provider's 400 for anything else."""
    from standin.input_checks import InputError, loads

    content_type = headers.get("content-type", "")
    if "application/json" not in content_type:
        text = f"Unsupported content type {content_type!r}: send 'application/json'."
        return error(provider, 400, text)
    try:
        body = loads(raw, "the request body")  # strict JSON, depth and size of numbers bounded
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        detail = str(err)
        return error(provider, 400, errors.texts(provider).BAD_JSON.format(detail=detail))
    except InputError as err:
        return error(provider, 400, f"Invalid request: {err}")
    if not isinstance(body, dict):
        kind = type(body).__name__
        return error(provider, 400, f"The request body must be a JSON object, not {kind}.")
    return body


#: Refused as the body is read, before the model is looked up: its shape, not its content.
_EARLY = ("invalid-schema", "unknown-field", "beta-not-modelled")


def _checked(route: Route, body: dict, headers: dict[str, str]) -> tuple[Any, str] | Response:
    """``(the neutral request, its model)`` once the verdict and the model table accept it."""
    from helpers.models import UnknownModelError, model_info
    from standin.input_checks import tool_problem
    from standin.rules import error_response
    from standin.verdict import verdict

    provider = route.provider
    # One decision (standin.verdict), the one `python -m helpers check` prints.
    betas = tuple(b.strip() for b in headers.get("anthropic-beta", "").split(",") if b.strip())
    result = verdict(body, provider, format=provider, betas=betas, version=route.version)
    first = result.first_error
    if first is not None and first.rule in ("missing-field", "malformed"):
        return error(provider, 400, first.provider_error or first.message)
    request = result.request
    if first is not None and first.rule in _EARLY:  # the provider's own words, before the model
        status, envelope = error_response(first, provider)
        return _json_response(status, envelope, provider, f"rule: {first.rule}")
    for i, tool in enumerate(request.tools):
        problem = tool_problem(tool)
        if problem:
            return error(provider, 400, f"Invalid schema for tools[{i}]: {problem}")
    model = route.model or body.get("model") or request.model
    if not isinstance(model, str):
        return error(provider, 400, f"model: expected a string, got {type(model).__name__}")
    request.model = model
    try:  # a model the table lacks is counted with its provider's rule (helpers.models.unlisted)
        info = model_info(model)
    except UnknownModelError:
        info = None  # no provider uses the name
    if info is None or (info.matched_by_prefix and info.provider != errors.family(provider)):
        return error(provider, 404, errors.texts(provider).UNKNOWN_MODEL.format(model=model))
    complaint = of(provider).bad_signature(body)  # an edited or foreign reasoning signature
    if complaint:
        return error(provider, 400, complaint)
    if first is not None:
        status, envelope = error_response(first, provider)
        return _json_response(status, envelope, provider, f"rule: {first.rule}")
    if route.kind == "generate" and result.cannot_fill is not None:
        return _cannot_fill(provider, result.cannot_fill)
    return request, model


def _cannot_fill(provider: str, warned: Any) -> Response:
    """The stand-in's own 422 for the schema the verdict warns it cannot fill (same text)."""
    text = f"stand-in: {warned.where}: {warned.message}"
    status = errors.STAND_IN_STATUS
    envelope = errors.envelope(provider, status, text, param=warned.where)
    return _json_response(status, envelope, provider, f"stand-in cannot fill {warned.where}")


def answer(route: Route, headers: dict[str, str], raw: bytes, scenario: Scenario) -> Response:
    """Check one request like the provider does, then reply with the scenario's next turn."""
    from standin.provider import side_routes, state
    from standin.provider.keys import refusal
    from standin.redaction import secrets_of

    if route.kind == "models" and "anthropic-version" in headers:
        route.provider = "anthropic"  # the anthropic SDK lists models on the same path
    provider = route.provider
    no_key = refusal(provider, headers, route.key_in_query)
    if no_key is not None:
        status, envelope = no_key
        return _json_response(status, envelope, provider, f"error {status}")
    if route.kind == "models":
        status, listed = side_routes.models(route)
        if isinstance(listed, str):
            return error(provider, status, listed)
        return _json_response(status, listed, provider)
    sent = _read_body(provider, headers, raw)
    if isinstance(sent, Response):
        return sent
    body = sent
    stores = of(provider).STORES
    if stores == "responses":  # a stored chain goes in front of the new input
        if route.conversations:
            made = state.create(sent, _digest("conversation", raw), secrets_of(headers.items()))
            return _json_response(200, made, provider)
        body, (status, not_found, param) = state.expand(sent)
        if not_found:
            envelope = errors.envelope(provider, status, not_found, param=param)
            if param == "previous_response_id":
                envelope["error"]["code"] = "previous_response_not_found"
            return _json_response(status, envelope, provider, f"error {status}")
    if stores == "threads":  # message threads: the stored turns go in front
        # (any other beta is the verdict's to judge: standin.rules.fields, one decision)
        body, refused = state.thread_expand(sent, headers)
        if refused is not None:
            note = f"error {refused.status}" + (f": {refused.code}" if refused.code else "")
            return _json_response(refused.status, refused.envelope(), provider, note)
    if route.kind == "count":
        probe = side_routes.count_probe(provider, body)
        if isinstance(probe, str):
            return error(provider, 400, probe)
        checked = _checked(route, probe, headers)
        if isinstance(checked, Response):
            return checked
        counted, label = side_routes.count_answer(provider, *checked, probe)
        response = _json_response(200, counted, provider)
        response.headers.append((COUNT_HEADER, label))
        return response
    checked = _checked(route, body, headers)
    if isinstance(checked, Response):
        return checked
    request, model = checked
    return _generate(route, request, model, sent, body, raw, scenario, secrets_of(headers.items()))


def _gemma_pieces(text: str) -> list[str]:
    """One piece of text per Gemma token, joining back to ``text``: a character spelled in
    byte tokens is given by its last one, the ones before it give ``""``."""
    from helpers.gemma import encode, tokenizer

    out, pending = [], b""
    for token in encode(text):
        piece = tokenizer().id_to_piece(token)
        if not tokenizer().is_byte(token):
            out.append(piece.replace("\u2581", " "))
            continue
        pending += bytes([int(piece[3:5], 16)])
        try:
            out.append(pending.decode("utf-8"))
            pending = b""
        except UnicodeDecodeError:
            out.append("")
    return out


def _tokenizer(model: str):
    """``tokenize(text) -> pieces``: the usage counter's own tokens, as text."""
    from helpers.models import info_for
    from helpers.tokens.tokenizers import PROXY, encoding

    if info_for(model).encoding == "gemma3":  # Gemini on Gemma 3's tokenizer: its own pieces
        return _gemma_pieces
    codec = encoding(info_for(model).encoding or PROXY)

    def tokenize(text: str) -> list[str]:
        tokens = codec.encode(text, disallowed_special=())
        _, starts = codec.decode_with_offsets(tokens)
        ends = [*starts[1:], len(text)]
        return [text[a:b] for a, b in zip(starts, ends, strict=True)]

    return tokenize


def _limited(blocks: list, options: Any, model: str) -> tuple[list, str | None, str | None]:
    """The blocks up to where the reply ends: a stop sequence in a text, or ``max_tokens``.

    Text counts against the limit (tool calls are emitted whole); what follows the end is cut.
    """
    from helpers.messages import Text
    from standin.provider.wire_options import cut

    if options.max_tokens is None and not options.stop:
        return blocks, None, None
    tokenize, left = _tokenizer(model), options.max_tokens
    out: list = []
    for block in blocks:
        if not isinstance(block, Text):
            out.append(block)
            continue
        text, why, matched = cut(block.text, left, options.stop, tokenize)
        out.append(Text(text))
        if why is not None:
            return out, why, matched
        left = None if left is None else left - len(tokenize(text))
    return out, None, None


def _generate(
    route: Route,
    request: Any,
    model: str,
    sent: dict,
    body: dict,
    raw: bytes,
    scenario: Scenario,
    secrets: frozenset[str] = frozenset(),
) -> Response:
    """The scenario's reply; ``secrets`` (the request's keys) are redacted from what is stored."""
    from helpers.formats import parse_response
    from helpers.messages import Message, Reply, ToolCall
    from standin.provider import scenarios, state, wire_options
    from standin.render_response import render_response

    provider = route.provider
    own = of(provider)
    turn = Turn(request, provider, own.wants_reasoning(body))
    turn.options = wire_options.read(body, provider)
    blocks, why, matched = _limited(
        list(scenarios.for_turn(scenario, turn)(turn)), turn.options, model
    )
    calls = [b for b in blocks if isinstance(b, ToolCall)]
    if own.SIGNS_FIRST_CALL and turn.think and calls:
        from standin.provider.signatures import sign

        calls[0].signature = sign(provider, calls[0].name)
    message = Message("assistant", blocks)
    prefix, length = own.REPLY_ID
    reply_id = prefix + _digest(provider, raw)[:length]
    stop = "max_tokens" if why == "max_tokens" else "tool_calls" if calls else "end_turn"
    usage, count_label = _usage(request, message, model, body, provider)
    reply = Reply(message, usage, stop, model, reply_id)
    whole = render_response(reply, provider)
    if own.NAMES_STOP_SEQUENCE and why == "stop_sequence":
        whole["stop_reason"], whole["stop_sequence"] = "stop_sequence", matched
    parse_response(whole, provider)  # our own output must parse: fail here, not in the client
    if own.STORES == "responses":
        state.remember(reply_id, sent, body, whole["output"], secrets)
    if own.STORES == "threads":  # both stored redacted, the request's own keys included
        state.thread_remember(sent, body, whole, secrets)

    request_id = "req_" + _digest("request", raw)[:24]
    extra = [(own.REQUEST_ID_HEADER, request_id)]
    extra.append((COUNT_HEADER, count_label))
    stream = route.stream or body.get("stream") is True
    if not stream:
        response = _json_response(200, whole, provider)
        response.headers += extra
        return response
    return _stream(route, body, whole, extra)


def _stream(route: Route, body: dict, whole: dict, extra: list) -> Response:
    from standin import sse_write

    provider = route.provider
    own = of(provider)
    if own.json_array is not None and not route.sse:
        response = _json_response(
            200, own.json_array(whole), provider, "streamed as one JSON array"
        )
        response.headers += extra
        return response
    options = {}
    if own.USAGE_ON_ASK:
        options["include_usage"] = bool((body.get("stream_options") or {}).get("include_usage"))
    events = list(sse_write.encode(whole, provider, **options))
    headers = [("content-type", "text/event-stream; charset=utf-8"), ("cache-control", "no-cache")]
    return Response(200, headers + extra, events=events, provider=provider, note="streamed")
