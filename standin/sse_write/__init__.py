"""The write side of streaming: a whole response body as the SSE events a provider sends.

The local provider (``standin.provider``) streams with :func:`encode`; the tests use it to make
streams that ``helpers.sse`` reads back. One module per provider, each with ``encode(body)``;
what the events mean is explained in the read side, ``helpers/sse/<provider>.py``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from standin.sse_write.framing import frame, pieces

if TYPE_CHECKING:
    from helpers.replies import Reply

__all__ = ["FORMATS", "encode", "encode_reply", "frame", "pieces"]

#: format name -> module under standin.sse_write (one file per provider)
FORMATS: dict[str, str] = {
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
}


def _module(format: str):
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    return importlib.import_module(f"standin.sse_write.{FORMATS[format]}")


def encode(body: dict[str, Any], format: str, **options: Any) -> Iterator[str]:
    """Cut a whole response body into the SSE events sent in ``format`` (one string each)."""
    return _module(format).encode(body, **options)


def encode_reply(reply: Reply, format: str, **options: Any) -> bytes:
    """A neutral reply as the complete SSE byte stream in ``format``."""
    from helpers.formats import render_response

    body = render_response(reply, format)
    return "".join(encode(body, format, **options)).encode("utf-8")
