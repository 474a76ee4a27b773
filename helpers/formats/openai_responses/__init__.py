"""Used in lessons: none directly.

OpenAI Responses (``POST /v1/responses``): render and parse, both directions.

The shape: a list of typed **items** in ``input``, not a list of role messages. Text turns are
``message`` items (user parts ``input_text``/``input_image``; each assistant text block its own
item with string content, the form the SDK types allow without the ``id`` and ``status`` of a
model's output message); a tool call is a ``function_call`` item and its result a
``function_call_output`` item, linked by ``call_id`` (not by the ``fc_...`` item ``id``);
reasoning is a ``reasoning`` item with a summary and ``encrypted_content``. The leading system
message becomes ``instructions``; a system message further down stays an input message with
role ``system`` (the parser reads both back). Tools are flat: ``{type, name, parameters}``.

What the renderer changes (each adds a ``Note``):

- ``is_error`` has no field: the output text gets the prefix ``"ERROR: "``; parsing leaves it as
  text, so a round trip holds only for results with ``is_error=False``;
- reasoning is replayed only when it came from OpenAI (or says nothing about its provider) and
  has its ``rs_...`` id; otherwise it is dropped;
- images in system and assistant messages, Gemini call signatures: dropped.

Parsing reads consecutive assistant-side items (reasoning, message, function_call) into one
assistant message, and consecutive ``function_call_output`` items into one tool message.

One file per direction: ``render.py`` (neutral -> Responses, request and response
bodies) and ``parse.py`` (Responses -> neutral).
"""

from helpers.formats.openai_responses.parse import (
    evidence,
    parse_request,
    parse_response,
    parse_usage,
    read_items,
)
from helpers.formats.openai_responses.render import (
    NAME,
    PATH,
    PROVIDER,
    render_request,
    render_response,
)

__all__ = [
    "NAME",
    "PATH",
    "PROVIDER",
    "evidence",
    "parse_request",
    "parse_response",
    "parse_usage",
    "read_items",
    "render_request",
    "render_response",
]
