"""What the stand-in does differently for OpenAI Responses (``openai-responses``).

Read through ``standin.providers.of(format)`` by the concern modules named at each
name; its row (host, key, format modules) is in ``helpers/formats/providers.py``.
"""

from __future__ import annotations

from standin.rules.shared import NONE_KNOWN, OPENAI_SDK, OURS, not_on_the_wire

#: Fields it requires, with the text it answers when one is missing (``missing-field``,
#: ``standin.rules.required`` has the sources).
REQUIRED: list[tuple[str, str]] = [("model", "Missing required parameter: 'model'.")]

#: Its content part types.
# fmt: off
PARTS = (
    "input_text",
    "output_text",
    "refusal",
    "input_image",
    "input_file",
    "input_audio",
)
#: Its input item types: the ``ResponseInputItemParam`` union (openai 3.57.0).
ITEMS = (
    "message", "function_call", "function_call_output", "reasoning",
    "item_reference", "compaction", "compaction_trigger", "configuration_update",
    "additional_tools", "file_search_call", "web_search_call", "computer_call",
    "computer_call_output", "tool_search_call", "tool_search_output", "code_interpreter_call",
    "image_generation_call", "local_shell_call", "local_shell_call_output", "shell_call",
    "shell_call_output", "apply_patch_call", "apply_patch_call_output", "mcp_list_tools",
    "mcp_approval_request", "mcp_approval_response", "mcp_call", "custom_tool_call",
    "custom_tool_call_output", "program", "program_output",
)
# fmt: on
#: What the parser calls a node -> (the API's types, how the API names the node): unknown-block.
KINDS = {
    "part": (PARTS, "a Responses content part"),
    "item": (ITEMS, "a Responses item"),
}

_PAIRS = (
    "Responses pairs an output with its call by call_id; whether it must come after the call "
    "is not documented (helpers/rules/openai_responses.py), and " + NONE_KNOWN
)
#: The shared rules it answers its own way: (rule, verdict, error text, source), read by
#: ``standin.rules.shared``.
SHARED: list[tuple[str, str, str, str]] = [
    ("no-messages", "accepted", "", "an empty input list: " + NONE_KNOWN),
    (
        "duplicate-id",
        "accepted",
        "",
        NONE_KNOWN + " (the same item id twice is another rule of the API's: 'Duplicate "
        "item found with id ...', openai/openai-agents-python#1789)",
    ),
    ("duplicate-tool", "accepted", "", NONE_KNOWN),
    ("empty-content", "accepted", "", NONE_KNOWN),
    ("result-before-call", "accepted", "", _PAIRS),
    ("result-wrong-turn", "accepted", "", _PAIRS),
    (
        "arguments-not-object",
        "accepted",
        "",
        "arguments is 'A JSON string of the arguments' the API passes on ("
        + OPENAI_SDK
        + "responses/response_function_tool_call_param.py); "
        + NONE_KNOWN,
    ),
    (
        "unknown-block",
        "refused",
        "part type {kind!r} is not a Responses content part (or: item type {kind!r} is not "
        "a Responses item)",
        OURS,
    ),
    (
        "block-not-allowed",
        "refused",
        "a {role} message holds {allowed} blocks, not {kind}",
        OURS + " (an input_image in a system message)",
    ),
    not_on_the_wire(
        "unknown-role",
        "an input message's role is user, assistant, system or developer ("
        + OPENAI_SDK
        + "responses/easy_input_message_param.py)",
        "a body with another role is malformed (refused, naming input[N].role)",
    ),
    not_on_the_wire(
        "content-not-list",
        "content is a string or a list of parts (" + OPENAI_SDK + "responses/easy_input_"
        "message_param.py)",
        "the parser reads a string as one text block; another type is malformed",
    ),
    not_on_the_wire(
        "call-outside-assistant",
        "a function_call is an input item of its own, with no role ("
        + OPENAI_SDK
        + "responses/response_function_tool_call_param.py)",
        "the parser reads it as the model's",
    ),
    not_on_the_wire(
        "result-outside-tool-message",
        "a function_call_output is an input item of its own, with no role ("
        + OPENAI_SDK
        + "responses/response_input_item_param.py)",
        "the parser reads it as a tool message",
    ),
    not_on_the_wire(
        "tool-message-content",
        "a function_call_output's output is all of the result ("
        + OPENAI_SDK
        + "responses/response_input_item_param.py)",
        "nothing else can sit beside it",
    ),
]
