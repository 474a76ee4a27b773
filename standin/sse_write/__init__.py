"""The write side of streaming: a whole response body as the SSE events a provider sends.

The stand-in (``standin.provider``) streams with :func:`encode`; the tests use it to make
streams that ``helpers.sse`` reads back. One module per format, named after it, each with
``encode(body)``; what the events mean is explained with the read side,
``helpers/sse/accumulators.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any

from helpers.formats.providers import PROVIDERS
from standin.sse_write.framing import frame, pieces

if TYPE_CHECKING:
    from helpers.messages import Reply

__all__ = ["ENCODERS", "encode", "encode_reply", "frame", "pieces"]

#: format -> the function that cuts its whole body into events (``standin/sse_write/NAME.py``)
ENCODERS: dict[str, Callable[..., Iterator[str]]] = {
    format: import_module(f"{__name__}.{format.replace('-', '_')}").encode for format in PROVIDERS
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
