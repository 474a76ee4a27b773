"""Used in lessons: none directly.

Anthropic Messages (``POST /v1/messages``): render and parse, both directions.

The shape: the system prompt is the top-level ``system`` (a string, or a list of text blocks);
``messages`` alternate ``user`` and ``assistant``, each with a list of typed blocks. A tool call
is an assistant ``tool_use`` block whose ``input`` is an object; its result is a
``tool_result`` block inside the **next user message**, results first, any user text after
them. ``is_error`` is a native field. Reasoning is a ``thinking`` block with its ``signature``
(or ``redacted_thinking`` with opaque ``data``), replayed unchanged. ``max_tokens`` is required.

So the renderer merges a neutral tool message and the user message after it into one user
turn, and the parser splits such a turn again (results -> tool message, the rest -> user
message): neutral round trips hold. What it changes (each adds a ``Note``): system messages
further down move to the top-level ``system``; reasoning from another provider, or without a
signature, is dropped; a missing ``max_tokens`` becomes 1024; participant names are dropped.

One file per direction: ``render.py`` (neutral -> Anthropic, request and response bodies) and
``parse.py`` (Anthropic -> neutral).
"""

from helpers.formats.anthropic.parse import evidence, parse_request, parse_response, parse_usage
from helpers.formats.anthropic.render import NAME, PATH, PROVIDER, render_request, render_response

__all__ = [
    "NAME",
    "PATH",
    "PROVIDER",
    "evidence",
    "parse_request",
    "parse_response",
    "parse_usage",
    "render_request",
    "render_response",
]
