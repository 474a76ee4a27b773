"""Used in lessons: none directly (imported by rules.table).

The rows of the shared rules (``helpers.rules.core``, ``pairing``, the verdict's own
``malformed``) that the provider modules do not answer, one per provider.

Each says what the verdict decides and why: *refused* (the provider's text where one is wired,
else ours, said so), *accepted* (a warning: no public 400 known, or the evidence), or *not on
the wire*: the format cannot carry the mistake as this rule (the field's type is named, from
the pinned SDK), so only a neutral request breaks it; the same mistake in a body is another
rule, named in the source. The decisions are the verdict's; a row never changes one.
"""

from __future__ import annotations

from helpers.rules import anthropic, openai_chat
from standin.rules.sources import SOURCES

SHARED_CHECKED = "2026-12-01"
#: The pinned SDKs whose request types the "not on the wire" rows cite.
_OPENAI = "openai-python 3.57.0 types/"
_ANTHROPIC = "anthropic-sdk-python 2.14.0 types/"
_GENAI = "python-genai 3.6.1 types.py"
_NONE_KNOWN = "no public report of a 400 for it is known to us"
_OURS = "the text is ours (the message check prints): no public report quotes the provider's answer"


def _theirs(rule: str, text: str) -> tuple[str, str, str, str]:
    """Refused with the provider module's text (it answers this finding so)."""
    return (rule, "refused", text, SOURCES[text])


def _wire(rule: str, typed: str, instead: str) -> tuple[str, str, str, str]:
    return (rule, "not on the wire", "", f"{typed}; {instead}")


_MALFORMED = "Invalid request: {where}: {what}"
_MALFORMED_SOURCE = (
    "the text is ours: the parser's error, naming the place (standin/verdict.py); the "
    "provider's own wording for a value of the wrong type is not modelled"
)
_GEMINI_PAIRS = (
    "the stand-in warns under this rule: Gemini pairs calls and responses by turn, and "
    "call-turn-position, response-turn-position and response-count (below) refuse what public "
    "reports show refused; FunctionCall.id is optional (" + _GENAI + "), and " + _NONE_KNOWN
)
_RESPONSES_PAIRS = (
    "Responses pairs an output with its call by call_id; whether it must come after the call "
    "is not documented (helpers/rules/openai_responses.py), and " + _NONE_KNOWN
)

#: profile -> (rule, verdict, error text, source)
SHARED: dict[str, list[tuple[str, str, str, str]]] = {
    "openai-chat": [
        _theirs("result-before-call", openai_chat.ORPHAN),
        _theirs("result-before-call", openai_chat.NOT_FOUND),
        ("duplicate-id", "accepted", "", "tool messages pair by tool_call_id; " + _NONE_KNOWN),
        ("duplicate-tool", "accepted", "", _NONE_KNOWN),
        ("empty-content", "accepted", "", _NONE_KNOWN),
        (
            "block-not-allowed",
            "refused",
            "a {role} message holds {allowed} blocks, not {kind}",
            _OURS
            + " (an image in a system message is also an unknown-field; in an assistant or tool "
            "message, image-not-user)",
        ),
        _wire(
            "unknown-role",
            "role is one of the SDK's message types (" + _OPENAI + "chat/chat_completion_message_"
            "param.py)",
            "a body with another role is malformed (refused, naming messages[N].role)",
        ),
        _wire(
            "content-not-list",
            "content is a string or a list of parts (" + _OPENAI + "chat/chat_completion_user_"
            "message_param.py)",
            "the parser reads a string as one text block; another type is malformed",
        ),
        _wire(
            "call-outside-assistant",
            "tool_calls is a field of the assistant message only (" + _OPENAI + "chat/chat_"
            "completion_assistant_message_param.py)",
            "on another message it is an unknown-field",
        ),
        _wire(
            "result-outside-tool-message",
            "tool_call_id is a field of the tool message only (" + _OPENAI + "chat/chat_"
            "completion_tool_message_param.py)",
            "on another message it is an unknown-field",
        ),
        _wire(
            "tool-message-content",
            "a tool message's content is a string or text parts, all of it the result ("
            + _OPENAI
            + "chat/chat_completion_tool_message_param.py)",
            "another part there is an unknown-field",
        ),
    ],
    "openai-responses": [
        ("no-messages", "accepted", "", "an empty input list: " + _NONE_KNOWN),
        (
            "duplicate-id",
            "accepted",
            "",
            _NONE_KNOWN + " (the same item id twice is another rule of the API's: 'Duplicate "
            "item found with id ...', openai/openai-agents-python#1789)",
        ),
        ("duplicate-tool", "accepted", "", _NONE_KNOWN),
        ("empty-content", "accepted", "", _NONE_KNOWN),
        ("result-before-call", "accepted", "", _RESPONSES_PAIRS),
        ("result-wrong-turn", "accepted", "", _RESPONSES_PAIRS),
        (
            "arguments-not-object",
            "accepted",
            "",
            "arguments is 'A JSON string of the arguments' the API passes on ("
            + _OPENAI
            + "responses/response_function_tool_call_param.py); "
            + _NONE_KNOWN,
        ),
        (
            "unknown-block",
            "refused",
            "part type {kind!r} is not a Responses content part (or: item type {kind!r} is not "
            "a Responses item)",
            _OURS,
        ),
        (
            "block-not-allowed",
            "refused",
            "a {role} message holds {allowed} blocks, not {kind}",
            _OURS + " (an input_image in a system message)",
        ),
        _wire(
            "unknown-role",
            "an input message's role is user, assistant, system or developer ("
            + _OPENAI
            + "responses/easy_input_message_param.py)",
            "a body with another role is malformed (refused, naming input[N].role)",
        ),
        _wire(
            "content-not-list",
            "content is a string or a list of parts (" + _OPENAI + "responses/easy_input_"
            "message_param.py)",
            "the parser reads a string as one text block; another type is malformed",
        ),
        _wire(
            "call-outside-assistant",
            "a function_call is an input item of its own, with no role ("
            + _OPENAI
            + "responses/response_function_tool_call_param.py)",
            "the parser reads it as the model's",
        ),
        _wire(
            "result-outside-tool-message",
            "a function_call_output is an input item of its own, with no role ("
            + _OPENAI
            + "responses/response_input_item_param.py)",
            "the parser reads it as a tool message",
        ),
        _wire(
            "tool-message-content",
            "a function_call_output's output is all of the result ("
            + _OPENAI
            + "responses/response_input_item_param.py)",
            "nothing else can sit beside it",
        ),
    ],
    "anthropic": [
        _theirs("no-messages", anthropic.NO_MESSAGES),
        _theirs("result-before-call", anthropic.UNEXPECTED),
        _theirs("result-wrong-turn", anthropic.UNEXPECTED),
        (
            "call-outside-assistant",
            "refused",
            "only the model makes tool calls: a tool_call belongs in an assistant message, not "
            "in a {role} message",
            _OURS + " (a tool_use block in a user message; searched 2026-12-01)",
        ),
        (
            "result-outside-tool-message",
            "refused",
            "a tool_result belongs in a tool message, not in a {role} message",
            _OURS + " (a tool_result block in an assistant message; searched 2026-12-01)",
        ),
        (
            "block-not-allowed",
            "refused",
            "a {role} message holds {allowed} blocks, not {kind}",
            _OURS + " (a thinking block in a user message)",
        ),
        _wire(
            "unknown-role",
            "a message is a user, assistant or system message (" + _ANTHROPIC + "message_param.py)",
            "a body with another role is malformed (refused, naming messages[N])",
        ),
        _wire(
            "content-not-list",
            "content is a string or a list of blocks (" + _ANTHROPIC + "message_param.py and "
            "the message types it joins)",
            "the parser reads a string as one text block; another type is malformed",
        ),
        _wire(
            "tool-message-content",
            "tool_result blocks sit in a user message, beside any other blocks",
            "the parser splits them into a tool message and a user message, so a tool message "
            "read from a body holds results only",
        ),
    ],
    "gemini": [
        (
            "no-messages",
            "accepted",
            "",
            "an empty contents list: no public report quotes "
            "Gemini's answer (an absent one is missing-field, above)",
        ),
        ("duplicate-tool", "accepted", "", _NONE_KNOWN),
        ("duplicate-id", "accepted", "", _GEMINI_PAIRS),
        ("call-not-answered", "accepted", "", _GEMINI_PAIRS),
        ("result-without-call", "accepted", "", _GEMINI_PAIRS),
        ("result-before-call", "accepted", "", _GEMINI_PAIRS),
        ("result-wrong-turn", "accepted", "", _GEMINI_PAIRS),
        (
            "call-outside-assistant",
            "refused",
            "only the model makes tool calls: a tool_call belongs in an assistant message, not "
            "in a {role} message",
            _OURS + " (a functionCall part in a user turn)",
        ),
        (
            "result-outside-tool-message",
            "refused",
            "a tool_result belongs in a tool message, not in a {role} message",
            _OURS + " (a functionResponse part in a model turn)",
        ),
        (
            "block-not-allowed",
            "refused",
            "a {role} message holds {allowed} blocks, not {kind}",
            _OURS + " (a thought part in a user turn)",
        ),
        _wire(
            "content-not-list",
            "Content.parts is a list of Part (" + _GENAI + ")",
            "another type is malformed",
        ),
        _wire(
            "tool-message-content",
            "a functionResponse part sits in a user turn, beside any other parts (" + _GENAI + ")",
            "the parser splits them into a tool message and a user message, so a tool message "
            "read from a body holds results only",
        ),
    ],
}


def shared_rows(row: type, checked: str) -> list:
    """The rows above as ``row`` (``table.RuleRow``), plus ``malformed`` for every provider."""
    out = [
        row(profile, rule, verdict, text, source, checked)
        for profile, rows in SHARED.items()
        for rule, verdict, text, source in rows
    ]
    for profile in SHARED:
        out.append(row(profile, "malformed", "refused", _MALFORMED, _MALFORMED_SOURCE, checked))
    return out
