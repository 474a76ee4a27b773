"""Used in lessons: 01, 02, 03, 04, 05, 06, 09, 10, 11, 12.

The neutral message model: one conversation, written once, before any provider's spelling.

A request is ``{"model", "tools": [...], "messages": [...]}``; each message has a ``role``
(system, user, assistant, tool) and ``content``, always a list of typed blocks (text,
tool_call, tool_result, reasoning, image; their JSON is in ``blocks.py``). Three files, in the
order the lessons meet them: ``conversation.py`` (roles, messages, the request, builders),
``blocks.py`` (the typed blocks), ``files.py`` (``load`` and ``dump``, with errors that name
the place). This package knows no provider: ``helpers/formats/`` does.
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
