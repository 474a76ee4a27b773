"""Unknown fields refused, each provider in its own words (``standin.known_fields`` finds them).

``check_fields(body, fmt, profile, betas, version)`` returns one violation per unknown field
(Gemini: one for all, since it answers them in one message, a line each), located in the body.
On OpenAI Chat, a field on a message itself that no message type has
(``messages[1].provider_specific_fields``) is accepted and ignored: a warning
(``extra-message-field``), never a 400; inside a message's content parts or tool calls, and a
field another role has, it is refused like any other. ``betas`` is the ``anthropic-beta``
header's list: a beta the pinned SDK lists makes the beta types the reference; one it does not
list is refused (``beta-not-modelled``; that text is ours:
it is the stand-in's limit, not the API's). ``betas=None`` means the header is not known (a body
read from a file): a field the beta types know is then a warning that says which header it needs.
"""

from __future__ import annotations

from helpers.rules import Answer, Finding, Violation, judged
from standin import known_fields
from standin.known_fields import Unknown, anthropic_path, gemini_path, openai_path

CHECKED = "2026-12-01"
OPENAI_TOP = "Unrecognized request argument supplied: {name}"
OPENAI_NESTED = "Unknown parameter: '{path}'."
ANTHROPIC = "{path}: Extra inputs are not permitted"
GEMINI_TOP = 'Invalid JSON payload received. Unknown name "{name}": Cannot find field.'
GEMINI_NESTED = (
    "Invalid JSON payload received. Unknown name \"{name}\" at '{path}': Cannot find field."
)
EXTRA_MESSAGE_FIELD = "extra-message-field"
#: When the Chat message-level evidence below was last searched for
MESSAGE_LEVEL_CHECKED = "2026-12-07"
#: Why OpenAI Chat takes an unknown field on a message itself (and where it does not)
MESSAGE_LEVEL_SOURCE = (
    "accepted and ignored on a message itself, by the newest evidence: "
    "https://github.com/microsoft/agent-framework/issues/2203 (2025-11-13: extra keys 'client' "
    "and 'nested' on a user message, accepted by Azure "
    "OpenAI Chat, refused by Responses as \"Unknown parameter: 'input[1].metadata'.\") and "
    "https://github.com/microsoft/agent-framework/pull/2344 "
    "(2025-11-20: 'the Chat Completion API did not complain while Responses did'); a replayed "
    "assistant message with 'annotations' answered 200 by gpt-4o (recorded: Mirascope/mirascope "
    "python/tests/e2e/output/cassettes/test_call_with_tools/openai_gpt_4o/sync.yaml @ 974841d4); "
    "LiteLLM sends its Message object back to OpenAI with 'provider_specific_fields' unchanged "
    "and strips it for servers that refuse it (Fireworks: BerriAI/litellm#20334, 2026-02-03; "
    "Databricks, Moonshot), while users ask the same for Groq (#25595, 2026-04-12) and Mistral "
    "(#30912, 2026-06-21); no report of OpenAI refusing a field on a message since "
    "\"Additional properties are not allowed ('id' was unexpected) - 'messages.0'\" "
    "(adamrushy/OpenAISwift#99, 2023-07-14) was found (searched 2026-12-07). Not accepted: "
    'a field another role has (tool_calls on a system message: "Unknown parameter: '
    "'messages[0].tool_calls'.\", the body the ANL Argo gateway returned on 2026-08-05, "
    "quoted in a public test), and any unknown field inside a content part or a tool call "
    "(rule unknown-field); stricter OpenAI-compatible servers (Groq, Mistral, Fireworks) "
    "refuse it, so check warns"
)
BETA = (
    "anthropic-beta: the stand-in does not model the beta '{name}' (the anthropic SDK it "
    "follows, {sdk}, does not list it); remove it from the header to check this request here"
)
SOURCES = {
    OPENAI_TOP: (
        "coroot/coroot#698 (2025-09-24, reasoning_effort, full body: param and code null), "
        "nashsu/llm_wiki#336 (2026-06-04, thinking), CherryHQ/cherry-studio#6155 (2025-05-19); "
        "OpenAI also answers \"Unknown parameter: '<name>'.\" for some top-level names "
        "(teabranch/open-responses-server#41, 2025-06-29): which wording when is not published"
    ),
    OPENAI_NESTED: (
        "inside a tool call: songquanpeng/one-api#1319 (2024-04-15: "
        "'messages[1].tool_calls[0].index', code unknown_parameter), labring/FastGPT#1253 "
        "('messages[2].tool_calls[0].index'); inside a content part: pydantic/pydantic-ai "
        "(models/openai.py, a comment quoting gpt-4o's body for 'messages[1].content[1].file.data',"
        " param the path, code unknown_parameter), a live gpt-5.5 run on 2026-09-01 quoted in a "
        "public LangGraph project's plan ('messages[0].content[0].cache_control' in a developer "
        "message; the same notes say a system message's block passed on gpt-4o, role and model "
        "not told apart, so not modelled); on a message itself only a field another role has "
        "(see extra-message-field); param is the path, as in Responses"
    ),
    "responses": (
        "pydantic/pydantic-ai#3653 ('input[4].action.query', param the path, code "
        "unknown_parameter), openai/codex#10834 (2026-02-06, 'input[52].phase', full body), "
        "bestruirui/octopus#31 (2025-12-23, 'reasoning.max_tokens'); top level by the same "
        "pattern (no report quotes a top-level one on /v1/responses); an unknown field is "
        "answered before a value that does not parse: BerriAI/litellm#27611 (2026-05-10, a "
        "Chat-shaped tool_choice: 'tool_choice.function', not the missing name)"
    ),
    ANTHROPIC: (
        "microsoft/autogen#3034 (2024-06-28, messages.0.name), amrit110/oli#7 (2025-03-17, "
        "response_format), anthropics/claude-code#4378 (2025-07-25, "
        "messages.65.content.1.tool_use.text), #31033 (2026-03-05, tools.0.custom.defer_loading)"
    ),
    GEMINI_TOP: (
        "fishjar/kiss-translator#256 (2025-08-09, system_instruction on /v1), "
        "Alishahryar1/free-claude-code#542 (2026-05-24; fieldViolations without 'field')"
    ),
    GEMINI_NESTED: (
        "google-gemini/gemini-cli#13972 (2025-11-27, 'contents[7].parts[0].function_response'), "
        "zed-industries/zed#44875 and danny-avila/LibreChat#11761 (JSON Schema keywords outside "
        "the parameters subset), openswarm-ai/openswarm#24 (2026-05-06: several names, one line "
        "each, one fieldViolation each)"
    ),
    BETA: "ours: the stand-in's own limit (the beta fields it checks are the SDK's)",
}


def check_fields(
    body: dict,
    fmt: str,
    profile: str,
    betas: tuple[str, ...] | None = None,
    version: str = "v1beta",
) -> list[Violation]:
    """The fields of ``body`` that ``fmt``'s API does not know, each located and answered."""
    if fmt == "anthropic":
        return _anthropic(body, profile, betas)
    unknown = known_fields.unknown_fields(body, fmt, version)
    if fmt == "openai-chat":  # an image part outside a user message is image-not-user instead
        unknown = [u for u in unknown if not _in_an_image_part(body, u)]
    if fmt == "gemini":
        return [_gemini(unknown, profile, version)] if unknown else []
    return [
        _ignored(u, profile)
        if fmt == "openai-chat" and known_fields.ignored_on_a_chat_message(u)
        else _openai(u, fmt, profile)
        for u in unknown
    ]


def _ignored(u: Unknown, profile: str) -> Violation:
    """A field on a Chat message that no message type has: accepted, never read (a warning)."""
    found = Finding(
        EXTRA_MESSAGE_FIELD,
        f"OpenAI Chat accepts and ignores the field {u.name!r} on a message (no message type "
        "has it); stricter OpenAI-compatible servers refuse it",
    )
    return judged(found, profile, None, u.path())


def _in_an_image_part(body: dict, u: Unknown) -> bool:
    """``u`` sits in ``messages[i].content[k]``, an ``image_url`` part (OpenAI names the image)."""
    indices = [s[1] for s in u.steps if s[0] == "index"]
    keys = [s[1] for s in u.steps if s[0] == "key"]
    if keys[:2] != ["messages", "content"] or len(indices) < 2:
        return False
    messages = body.get("messages")
    try:
        part = messages[indices[0]]["content"][indices[1]]
    except (TypeError, IndexError, KeyError):
        return False
    return isinstance(part, dict) and part.get("type") == "image_url"


def _openai(u: Unknown, fmt: str, profile: str) -> Violation:
    path = openai_path(u)
    found = Finding("unknown-field", f"{fmt} does not know the field {u.name!r} here")
    if fmt == "openai-chat" and not u.steps:
        answer = Answer(OPENAI_TOP.format(name=u.name))
    else:
        answer = Answer(OPENAI_NESTED.format(path=path), path, "unknown_parameter")
    return judged(found, profile, answer, u.path())


def _anthropic(body: dict, profile: str, betas: tuple[str, ...] | None) -> list[Violation]:
    modelled = known_fields.known_betas()
    out = []
    for name in betas or ():
        if name not in modelled:
            text = BETA.format(name=name, sdk=known_fields.sdk_of("anthropic-beta"))
            found = Finding("beta-not-modelled", text)
            out.append(judged(found, profile, Answer(text), "anthropic-beta"))
    if out:
        return out
    endpoint = "anthropic-beta" if betas else "anthropic"
    beta_fields = {u.path() for u in known_fields.unknown_fields(body, "anthropic-beta")}
    for u in known_fields.unknown_fields(body, endpoint):
        path = anthropic_path(u)
        unseen = None
        if betas is None and u.path() not in beta_fields:
            unseen = (
                "a field of Anthropic's beta types: accepted only with the anthropic-beta header "
                "that opts into its beta, which a body alone does not show (check --beta NAME)"
            )
        found = Finding("unknown-field", f"Anthropic does not know the field {u.name!r} here")
        answer = Answer(ANTHROPIC.format(path=path))
        out.append(judged(found, profile, answer, u.path(), unseen))
    return out


def _gemini(unknown: list[Unknown], profile: str, version: str) -> Violation:
    lines = [
        GEMINI_NESTED.format(name=u.name, path=gemini_path(u))
        if u.steps
        else GEMINI_TOP.format(name=u.name)
        for u in unknown
    ]
    names = ", ".join(repr(u.name) for u in unknown)
    on = f" on /{version}" if version == "v1" else ""
    found = Finding("unknown-field", f"Gemini{on} does not know the field(s) {names}")
    where = unknown[0].holder() if unknown[0].steps else unknown[0].name
    return judged(found, profile, Answer("\n".join(lines)), where)
