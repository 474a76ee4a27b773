"""The response bodies the stand-in sends: a neutral ``Reply`` in each wire format.

``render_response(reply, "anthropic")`` is the ``message`` body an Anthropic server would send
for ``reply`` (ids from ``reply.id``, ``created`` the Unix timestamp where the format has one).
This is the server's side of the wire, so it lives in the stand-in; the learner's package
renders requests and parses responses (``helpers.formats``). Lossy conversions add a ``Note``.
Each format's writer is its provider's ``response_body`` (``standin/providers/NAME.py``).
"""

from __future__ import annotations

from helpers.formats.common import Note, Notes
from helpers.formats.providers import PROVIDERS
from helpers.messages import Reply
from standin.providers import of

__all__ = ["render_response"]


def render_response(
    reply: Reply, format: str, *, created: int = 0, notes: list[Note] | None = None
) -> dict:
    """The response body a provider speaking ``format`` would send for ``reply``."""
    from helpers.formats import FormatError

    if format not in PROVIDERS:
        raise FormatError(f"unknown format {format!r} (known: {', '.join(PROVIDERS)})")
    found = Notes()
    body = of(format).response_body(reply, found, created=created)
    if notes is not None:
        notes.extend(found)
    return body
