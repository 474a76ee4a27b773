"""The write side of streaming: a whole response body as the SSE events a provider sends.

The stand-in (``standin.provider``) streams with :func:`encode`; the tests use it to make
streams that ``helpers.sse`` reads back. One module per provider, each with ``encode(body)``;
what the events mean is explained with the read side, ``helpers/sse/accumulators.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from standin.sse_write import anthropic, gemini, openai_chat, openai_responses
from standin.sse_write.framing import frame, pieces

if TYPE_CHECKING:
    from helpers.messages import Reply

__all__ = ["ENCODERS", "encode", "encode_reply", "frame", "pieces"]

#: format -> the function that cuts its whole body into events
ENCODERS: dict[str, Callable[..., Iterator[str]]] = {
    "openai-chat": openai_chat.encode,
    "openai-responses": openai_responses.encode,
    "anthropic": anthropic.encode,
    "gemini": gemini.encode,
}


def encode(body: dict[str, Any], format: str, **options: Any) -> Iterator[str]:
    """Cut a whole response body into the SSE events sent in ``format`` (one string each)."""
    if format not in ENCODERS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(ENCODERS)})")
    return ENCODERS[format](body, **options)


def encode_reply(reply: Reply, format: str, **options: Any) -> bytes:
    """A neutral reply as the complete SSE byte stream in ``format``."""
    from standin.render_response import render_response

    body = render_response(reply, format)
    return "".join(encode(body, format, **options)).encode("utf-8")
