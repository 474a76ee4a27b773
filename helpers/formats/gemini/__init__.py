"""Used in lessons: none directly.

Gemini ``generateContent`` (``POST /v1beta/models/{model}:generateContent``): both directions.

The shape: ``contents`` is a list of ``{role: "user" | "model", parts: [...]}``; each part holds
exactly one thing (``text``, ``inlineData``, ``fileData``, ``functionCall``,
``functionResponse``), plus the flags ``thought`` and ``thoughtSignature`` that ride on a part.
The system prompt is the top-level ``systemInstruction``; the model name is in the URL, not the
body. A tool result is a ``functionResponse`` part in a ``user`` content, carrying the function
``name`` (looked up from the matching call) and ``response: {"output": text}`` or, for an
error, ``{"error": text}``. Images in a tool result go in ``functionResponse.parts`` (Gemini 3
multimodal function responses).

Tools are declared with ``parametersJsonSchema`` (full JSON Schema) rather than ``parameters``
(Gemini's OpenAPI-3.0 subset, which rejects some JSON Schema keywords); the parser reads both.

Ids: older Gemini models send calls without an ``id`` and pair responses by name and order. The
parser then gives each call a deterministic id starting with ``gemini_noid_`` (with a Note) and
the renderer leaves such ids out again, so Gemini -> neutral -> Gemini is faithful; real neutral
ids are sent as ``id`` and round trip.

One file per direction: ``render.py`` (neutral -> Gemini, request and response
bodies) and ``parse.py`` (Gemini -> neutral).
"""

from helpers.formats.gemini.parse import (
    evidence,
    parse_request,
    parse_response,
    parse_usage,
    read_parts,
)
from helpers.formats.gemini.render import (
    NAME,
    NO_ID,
    PATH,
    PROVIDER,
    render_request,
    render_response,
)

__all__ = [
    "NAME",
    "NO_ID",
    "PATH",
    "PROVIDER",
    "evidence",
    "parse_request",
    "parse_response",
    "parse_usage",
    "read_parts",
    "render_request",
    "render_response",
]
