"""What the stand-in does differently for Gemini generateContent (``gemini``).

Read through ``standin.providers.of(format)`` by the concern modules named at each
name; its row (host, key, format modules) is in ``helpers/formats/providers.py``.
"""

from __future__ import annotations

from standin.rules.shared import GENAI_SDK, NONE_KNOWN, OURS, not_on_the_wire

#: Fields it requires, with the text it answers when one is missing (``missing-field``,
#: ``standin.rules.required`` has the sources).
REQUIRED: list[tuple[str, str]] = [
    ("contents", "* GenerateContentRequest.contents: contents is not specified")
]

#: What the parser calls a node -> (the API's types, ...): none refused as unknown-block.
KINDS: dict[str, tuple[tuple[str, ...], str]] = {}

_PAIRS = (
    "the stand-in warns under this rule: Gemini pairs calls and responses by turn, and "
    "call-turn-position, response-turn-position and response-count (below) refuse what public "
    "reports show refused; FunctionCall.id is optional (" + GENAI_SDK + "), and " + NONE_KNOWN
)
#: The shared rules it answers its own way: (rule, verdict, error text, source), read by
#: ``standin.rules.shared``.
SHARED: list[tuple[str, str, str, str]] = [
    (
        "no-messages",
        "accepted",
        "",
        "an empty contents list: no public report quotes "
        "Gemini's answer (an absent one is missing-field, above)",
    ),
    ("duplicate-tool", "accepted", "", NONE_KNOWN),
    ("duplicate-id", "accepted", "", _PAIRS),
    ("call-not-answered", "accepted", "", _PAIRS),
    ("result-without-call", "accepted", "", _PAIRS),
    ("result-before-call", "accepted", "", _PAIRS),
    ("result-wrong-turn", "accepted", "", _PAIRS),
    (
        "call-outside-assistant",
        "refused",
        "only the model makes tool calls: a tool_call belongs in an assistant message, not "
        "in a {role} message",
        OURS + " (a functionCall part in a user turn)",
    ),
    (
        "result-outside-tool-message",
        "refused",
        "a tool_result belongs in a tool message, not in a {role} message",
        OURS + " (a functionResponse part in a model turn)",
    ),
    (
        "block-not-allowed",
        "refused",
        "a {role} message holds {allowed} blocks, not {kind}",
        OURS + " (a thought part in a user turn)",
    ),
    not_on_the_wire(
        "content-not-list",
        "Content.parts is a list of Part (" + GENAI_SDK + ")",
        "another type is malformed",
    ),
    not_on_the_wire(
        "tool-message-content",
        "a functionResponse part sits in a user turn, beside any other parts (" + GENAI_SDK + ")",
        "the parser splits them into a tool message and a user message, so a tool message "
        "read from a body holds results only",
    ),
]
