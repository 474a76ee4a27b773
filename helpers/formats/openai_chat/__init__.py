"""Used in lessons: none directly.

OpenAI Chat Completions (``POST /v1/chat/completions``): render and parse, both directions.

The shape: one flat ``messages`` list. The system prompt is a ``role:"system"`` message (or
``"developer"``: a per-call option, since models disagree on which they accept); tool calls sit
in the assistant message's ``tool_calls`` with ``arguments`` as a JSON *string*; every tool
result is its own ``role:"tool"`` message with a ``tool_call_id``.

What Chat cannot hold, and what the renderer does (each adds a ``Note``):

- reasoning: there is no field for it; dropped;
- ``is_error``: there is no flag; the text gets the prefix ``"ERROR: "``. Parsing cannot tell
  that prefix from a result that really starts with it, so it stays text and ``is_error`` comes
  back ``False``: a round trip holds only for results with ``is_error=False``;
- images outside user messages (tool results are text only); Gemini call signatures;
- text after a tool call moves before the calls (content and ``tool_calls`` are two fields).

Parsing reads consecutive ``tool`` messages into one neutral tool message (the neutral model
groups the results of one assistant turn).

One file per direction: ``render.py`` (neutral -> Chat, request and response
bodies) and ``parse.py`` (Chat -> neutral).
"""

from helpers.formats.openai_chat.parse import evidence, parse_request, parse_response, parse_usage
from helpers.formats.openai_chat.render import NAME, PATH, render_request, render_response

__all__ = [
    "NAME",
    "PATH",
    "evidence",
    "parse_request",
    "parse_response",
    "parse_usage",
    "render_request",
    "render_response",
]
