"""Used in lessons: none directly (imported by verdict).

Which block, part and item types each API has, for the ``unknown-block`` rule.

``helpers.formats.parse`` drops every type it has no neutral block for, with a note. The
provider refuses only the types it does not have at all: ``named_unknown(notes, fmt)``
turns the notes on those into notes with the rule, in the provider's terms (``block type
'fallback' is not a Messages block``); the rest stay plain notes. The lists are the unions of
the pinned SDKs (sources: docs/evidence.md, "Formats").
"""

from __future__ import annotations

import ast
import re

from helpers.formats import Note

#: Chat Completions content part types (as its own error message lists them).
CHAT_PARTS = ("text", "image_url", "input_audio", "refusal", "audio", "file")
#: Responses content part types.
# fmt: off
RESPONSES_PARTS = (
    "input_text",
    "output_text",
    "refusal",
    "input_image",
    "input_file",
    "input_audio",
)
#: Responses input item types: the ``ResponseInputItemParam`` union (openai 3.57.0).
# fmt: off
RESPONSES_ITEMS = (
    "message", "function_call", "function_call_output", "reasoning",
    "item_reference", "compaction", "compaction_trigger", "configuration_update",
    "additional_tools", "file_search_call", "web_search_call", "computer_call",
    "computer_call_output", "tool_search_call", "tool_search_output", "code_interpreter_call",
    "image_generation_call", "local_shell_call", "local_shell_call_output", "shell_call",
    "shell_call_output", "apply_patch_call", "apply_patch_call_output", "mcp_list_tools",
    "mcp_approval_request", "mcp_approval_response", "mcp_call", "custom_tool_call",
    "custom_tool_call_output", "program", "program_output",
)
#: Messages block types: the block unions (anthropic 2.14.0), plus ``tool_reference`` and
#: ``mid_conv_system``.
ANTHROPIC_BLOCKS = (
    "text", "image", "tool_use", "tool_result", "thinking", "redacted_thinking",
    "document", "search_result", "server_tool_use", "web_search_tool_result",
    "web_fetch_tool_result", "advisor_tool_result", "code_execution_tool_result",
    "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
    "tool_search_tool_result", "mcp_tool_use", "mcp_tool_result", "mcp_tool_listing",
    "container_upload", "compaction", "tool_addition", "tool_removal", "tool_reference",
    "mid_conv_system",
)
# fmt: on

_DROPPED = re.compile(r"(block|part|item) type (.*) has no neutral (?:equivalent|block); dropped")

#: format -> what the parser calls the node -> (the API's types, how the API names the node)
_KNOWN = {
    "openai-chat": {"part": (CHAT_PARTS, "a Chat content part")},
    "openai-responses": {
        "part": (RESPONSES_PARTS, "a Responses content part"),
        "item": (RESPONSES_ITEMS, "a Responses item"),
    },
    "anthropic": {"block": (ANTHROPIC_BLOCKS, "a Messages block")},
}


def named_unknown(notes: list[Note], fmt: str) -> list[Note]:
    """``notes``, with each type the API does not have named by the rule ``unknown-block``."""
    out = []
    for note in notes:
        found = _DROPPED.fullmatch(note.message) if note.rule is None else None
        known = _KNOWN.get(fmt, {}).get(found.group(1)) if found else None
        if known and _literal(found.group(2)) not in known[0]:
            message = f"{found.group(1)} type {found.group(2)} is not {known[1]}"
            note = Note(note.where, message, "unknown-block")
        out.append(note)
    return out


def _literal(text: str) -> object:
    """The type as the note wrote it (``'document'``); None for what is no literal."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
