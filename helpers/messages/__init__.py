"""Used in lessons: 01, 02, 03, 04, 05, 06, 09, 10, 11, 12.

The neutral message model: one conversation, written once, before any provider's spelling.

A request is ``{"model", "tools": [...], "messages": [...]}``. Each message has a ``role``
(``system``, ``user``, ``assistant`` or ``tool``) and ``content``, which is always a **list of
typed blocks**, never a bare string:

=============  ==========================================================================
block          JSON
=============  ==========================================================================
text           ``{"type": "text", "text": "..."}``
tool_call      ``{"type": "tool_call", "id": "c1", "name": "search_orders", "arguments": {...}}``
tool_result    ``{"type": "tool_result", "call_id": "c1", "text": "...", "is_error": false}``
               (or ``"content": [blocks]`` instead of ``"text"`` for rich results)
reasoning      ``{"type": "reasoning", "text": "...", "signature": "...", "provider": "..."}``
image          ``{"type": "image", "media_type": "image/png", "data": "<base64>"}`` or ``"url"``
=============  ==========================================================================

This module knows nothing about providers: ``helpers/formats/`` turns these types into each
provider's request body and back. What you *build* here are plain dataclasses; ``dump()`` gives
the exact JSON above and ``load()`` reads it back, naming the message and block of any mistake.

Three files, in the order the lessons meet them: ``conversation.py`` (roles, messages, the
request, builders; lesson 02), ``blocks.py`` (the typed blocks; lesson 03), ``files.py`` (load
and dump the JSON, with errors that name the place; lessons 03 and 08).
"""

from __future__ import annotations

from helpers.messages.blocks import (
    BLOCK_TYPES,
    Block,
    Image,
    Reasoning,
    Text,
    ToolCall,
    ToolResult,
)
from helpers.messages.conversation import (
    ROLES,
    Message,
    Request,
    Tool,
    assistant,
    system,
    text,
    tool,
    tool_call,
    tool_result,
    user,
)
from helpers.messages.files import (
    FormatError,
    block_from_json,
    dump,
    load,
    load_file,
    message_from_json,
)

__all__ = [
    "BLOCK_TYPES",
    "Block",
    "FormatError",
    "Image",
    "Message",
    "ROLES",
    "Reasoning",
    "Request",
    "Text",
    "Tool",
    "ToolCall",
    "ToolResult",
    "assistant",
    "block_from_json",
    "dump",
    "load",
    "load_file",
    "message_from_json",
    "system",
    "text",
    "tool",
    "tool_call",
    "tool_result",
    "user",
]
