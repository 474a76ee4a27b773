"""Used in lessons: 08, 10.

Every rule, per provider: refused (with the provider's words) or accepted, and the evidence.

``ROWS`` is the table ``docs/rules.md`` is generated from (``scripts/rules_table.py``; a test
keeps the page current). Each row says what one provider does with one rule of the list: it
*refuses* the request (HTTP 400, with the error text quoted verbatim from a public report), or
it *accepts* it (then ``check`` prints a warning at most, and the stand-in answers 200).
The texts are the ones the checks use (imported from the provider modules, never retyped), so
the table cannot drift from what ``check`` and the stand-in answer.

A rule a provider is not known to refuse, and that no row lists as accepted, is a warning too:
nobody has published a 400 for it, so the stand-in lets it through.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from helpers.formats.providers import PROVIDERS
from helpers.rules import anthropic, gemini, openai_chat, openai_responses
from standin.rules import fields, schemas, strict
from standin.rules.params import PARAM_RULES
from standin.rules.shared import SHARED_CHECKED, shared_rows
from standin.rules.sources import NOT_STORED, SOURCES
from standin.rules.wire import TEXTS

#: When the sources were read: the provider modules' texts were gathered from public reports
#: read in August 2026; rows added later (and the texts in ``rules.wire``) carry their own date.
GATHERED = "2026-08"
CHECKED = "2026-11-30"


@dataclass(frozen=True)
class RuleRow:
    profile: str
    rule: str
    #: "refused" (400), "accepted" (a warning at most) or "not on the wire" (a shape rule the
    #: format cannot carry: only a neutral request can break it, and it is refused, our text)
    verdict: str
    #: The provider's text, verbatim with {placeholders} for positions and ids ("" if accepted).
    error: str
    source: str
    checked: str = CHECKED
    #: The models it holds for (settings rules can be per model; the list rules hold for all).
    models: str = "every model"


def _refused(profile: str, rule: str, text: str, checked: str = GATHERED) -> RuleRow:
    """A refusal with a provider module's text; its source is in ``rules.sources``."""
    return RuleRow(profile, rule, "refused", text, SOURCES[text], checked)


def _refused_on_the_wire(profile: str, rule: str) -> RuleRow:
    """A refusal whose text and source are in ``rules.wire.TEXTS`` (they carry their date)."""
    return RuleRow(profile, rule, "refused", *TEXTS[profile, rule])


def _accepted(profile: str, rule: str, source: str, models: str = "every model") -> RuleRow:
    """Accepted: ``check`` warns at most, the stand-in answers 200; ``source`` says why."""
    return RuleRow(profile, rule, "accepted", "", source, CHECKED, models)


OPENAI_SYSTEM = (
    "the SDK's message union takes system and developer messages at any position "
    "(openai/openai-python chat_completion_message_param.py); a system or developer message "
    "further down is accepted (https://community.openai.com/t/three-flavors-of-system-"
    "messages-is-a-bit-too-much-can-the-api-normalize/1128108)"
)
EVERY_API = tuple(PROVIDERS)
ROWS: list[RuleRow] = [
    # --- OpenAI Chat Completions
    _refused("openai-chat", "call-not-answered", openai_chat.MISSING),
    _refused("openai-chat", "results-not-adjacent", openai_chat.MISSING),
    _refused("openai-chat", "result-without-call", openai_chat.ORPHAN),
    _refused("openai-chat", "result-wrong-turn", openai_chat.NOT_FOUND),
    _refused("openai-chat", "no-messages", openai_chat.EMPTY_LIST),
    _refused("openai-chat", "duplicate-result", openai_chat.DUPLICATE, CHECKED),
    _refused_on_the_wire("openai-chat", "unknown-block"),
    _refused_on_the_wire("openai-chat", "image-not-user"),
    _refused_on_the_wire("openai-chat", "empty-tool-calls"),
    _accepted("openai-chat", "system-not-first", OPENAI_SYSTEM),
    _accepted(
        "openai-chat",
        "arguments-not-object",
        "arguments is a JSON string the API passes on (openai/openai-python "
        "chat_completion_message_function_tool_call_param.py: 'the model does not always "
        "generate valid JSON'); no public report of a 400 for it",
    ),
    # --- OpenAI Responses
    _refused("openai-responses", "call-not-answered", openai_responses.NO_OUTPUT),
    _refused("openai-responses", "result-without-call", openai_responses.NO_CALL),
    _refused(
        "openai-responses",
        "duplicate-result",
        openai_responses.DUPLICATE,
        CHECKED,
    ),
    _refused(  # paired by id since 2026-11-30: its evidence was read that day
        "openai-responses",
        "reasoning-not-followed",
        openai_responses.REASONING_ALONE,
        CHECKED,
    ),
    _refused(
        "openai-responses",
        "previous-response-not-found",
        NOT_STORED,
        CHECKED,
    ),
    _accepted(
        "openai-responses",
        "system-not-first",
        "input messages take role system or developer anywhere (openai/openai-python "
        "responses/easy_input_message_param.py)",
    ),
    # --- Anthropic Messages (first-party API)
    _refused("anthropic", "call-not-answered", anthropic.MISSING),
    _refused("anthropic", "results-not-first", anthropic.MISSING),
    _refused("anthropic", "result-without-call", anthropic.UNEXPECTED),
    _refused("anthropic", "duplicate-id", anthropic.DUPLICATE),
    _refused("anthropic", "duplicate-result", anthropic.DUPLICATE_RESULT, CHECKED),
    _refused("anthropic", "call-id-pattern", strict.ID_PATTERN),
    _refused("anthropic", "empty-content", anthropic.EMPTY_MESSAGE),
    _refused("anthropic", "empty-content", anthropic.EMPTY_TEXT),
    _refused("anthropic", "empty-content", anthropic.BLANK_TEXT),
    _refused("anthropic", "duplicate-tool", anthropic.TOOL_NAMES),
    _refused_on_the_wire("anthropic", "unknown-block"),
    _refused_on_the_wire("anthropic", "arguments-not-object"),
    _accepted(
        "anthropic",
        "roles-must-alternate",
        "'Consecutive user or assistant turns in your request will be combined into a single "
        "turn' (anthropics/anthropic-sdk-python message_create_params.py since commit "
        "5c0421e2; anthropics/anthropic-sdk-typescript#565)",
    ),
    _accepted(
        "anthropic",
        "system-not-first",
        "the renderer sends it in the top-level system field; role 'system' messages after a "
        "user turn are accepted on recent models "
        "(https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages)",
    ),
    # --- Anthropic, strict (Amazon Bedrock, older API versions)
    _refused("anthropic-strict", "roles-must-alternate", strict.ALTERNATE),
    _refused("anthropic-strict", "first-must-be-user", strict.FIRST_USER),
    # --- Gemini generateContent
    _refused("gemini", "empty-content", gemini.EMPTY_PARTS, CHECKED),
    _refused("gemini", "call-turn-position", gemini.CALL_TURN),
    _refused("gemini", "response-turn-position", gemini.RESPONSE_TURN),
    # re-read 2026-11-30: a call turn whose results were dropped is refused too
    _refused("gemini", "response-count", gemini.COUNT, CHECKED),
    _refused("gemini", "duplicate-result", gemini.COUNT, CHECKED),
    _refused_on_the_wire("gemini", "unknown-block"),
    _refused_on_the_wire("gemini", "unknown-role"),
    _refused_on_the_wire("gemini", "arguments-not-object"),
    _accepted(
        "gemini",
        "call-without-id",
        "FunctionCall.id is optional ('If populated, the client to execute the function_call "
        "and return the response with the matching id'; googleapis/python-genai types.py); "
        "calls without ids pair with responses by name and order",
    ),
    _accepted(
        "gemini",
        "system-not-first",
        "the renderer sends it in systemInstruction (its place in the conversation is lost, "
        "with a note)",
    ),
    # --- everywhere
    *[
        _accepted(
            profile,
            "unknown-tool",
            "a call to a tool the request does not define is history, not a request to run it; "
            "no public report of a 400 for it",
        )
        for profile in EVERY_API
    ],
]


def _settings_rows() -> list[RuleRow]:
    """One row per settings rule (``rules.params``), per API it holds for."""
    rows = []
    for rule in PARAM_RULES.values():
        # a family's rule holds for each of its formats (OpenAI's for Chat and Responses)
        profiles = tuple(f for f, row in PROVIDERS.items() if row.family == rule.format)
        profiles = profiles or (rule.format,)
        for profile in profiles:
            rows.append(
                RuleRow(
                    profile, rule.rule, "refused", rule.text, rule.source, rule.checked, rule.models
                )
            )
    return rows


ROWS += _settings_rows()
_SCHEMAS = schemas.SOURCES[schemas.OPENAI]
ROWS += [
    RuleRow(profile, "invalid-schema", "refused", schemas.OPENAI, _SCHEMAS, CHECKED)
    for profile in ("openai-chat", "openai-responses")
]
ROWS.append(
    RuleRow(
        "anthropic",
        "invalid-schema",
        "refused",
        schemas.ANTHROPIC,
        schemas.SOURCES[schemas.ANTHROPIC],
        CHECKED,
    )
)
ROWS.append(
    _accepted(
        "openai-responses",
        "temperature-unsupported",
        "recorded: pydantic/pydantic-ai tests/models/cassettes/test_openai_responses/"
        "test_openai_responses_gpt_5_6_reasoning_off_keeps_sampling_params.yaml @ ac234893 "
        "(gpt-5.6-sol, reasoning effort none, temperature 0.5: 200); later gpt-5.x models "
        "are not checked",
        "gpt-5.1 and later (not checked)",
    )
)


def _fields_rows() -> list[RuleRow]:
    """Unknown fields, per API (``rules.fields``; the lists of known fields are the SDKs')."""
    f = fields
    rows = [
        RuleRow("openai-chat", "unknown-field", "refused", f.OPENAI_TOP, f.SOURCES[f.OPENAI_TOP]),
        RuleRow(
            "openai-chat", "unknown-field", "refused", f.OPENAI_NESTED, f.SOURCES[f.OPENAI_NESTED]
        ),
        RuleRow(
            "openai-responses", "unknown-field", "refused", f.OPENAI_NESTED, f.SOURCES["responses"]
        ),
        RuleRow("anthropic", "unknown-field", "refused", f.ANTHROPIC, f.SOURCES[f.ANTHROPIC]),
        RuleRow("anthropic", "beta-not-modelled", "refused", f.BETA, f.SOURCES[f.BETA]),
        RuleRow("gemini", "unknown-field", "refused", f.GEMINI_TOP, f.SOURCES[f.GEMINI_TOP]),
        RuleRow("gemini", "unknown-field", "refused", f.GEMINI_NESTED, f.SOURCES[f.GEMINI_NESTED]),
    ]
    rows = [replace(r, checked=f.CHECKED, source=r.source + _beyond(r.profile)) for r in rows]
    # OpenAI Chat below the top level: refused, except a name no message type has on a message
    nested = replace(rows[1], checked=f.MESSAGE_LEVEL_CHECKED)
    on_a_message = RuleRow(
        "openai-chat",
        f.EXTRA_MESSAGE_FIELD,
        "accepted",
        "",
        f.MESSAGE_LEVEL_SOURCE,
        f.MESSAGE_LEVEL_CHECKED,
    )
    return [rows[0], nested, on_a_message, *rows[2:]]


def _beyond(profile: str) -> str:
    """The fields the API accepted beyond the SDK's list, with evidence (``known_fields``)."""
    from standin.known_fields import ACCEPTED_BEYOND_THE_SDK

    names = [path for (endpoint, path) in ACCEPTED_BEYOND_THE_SDK if endpoint == profile]
    names += [  # Anthropic's beta endpoint: fields accepted only with an anthropic-beta header
        f"{path} (with its anthropic-beta header; from client source, not a recording)"
        for (endpoint, path) in ACCEPTED_BEYOND_THE_SDK
        if endpoint == f"{profile}-beta" and path not in names
    ]
    if not names:
        return ""
    return (
        "; known fields: the pinned SDK's request types (data/known_fields.json), and beyond "
        f"them, on recorded evidence (standin/known_fields.py): {', '.join(names)}"
    )


ROWS += _fields_rows()


def _tool_choice_rows() -> list[RuleRow]:
    """Each provider's tool_choice rows, from its module in ``standin/providers``."""
    from standin.providers import of

    rows = []
    for provider in PROVIDERS:
        for rule, verdict, text, source, checked in of(provider).tool_choice_rows():
            row = RuleRow(provider, rule, verdict, text, source)
            rows.append(replace(row, checked=checked) if checked else row)
    return rows


ROWS += _tool_choice_rows()


def _required_rows() -> list[RuleRow]:
    """A required field missing (``standin.rules.required``)."""
    from standin.providers import of
    from standin.rules.required import REQUIRED_SOURCES

    return [
        RuleRow(fmt, "missing-field", "refused", text, REQUIRED_SOURCES[text], "2026-12-01")
        for fmt in PROVIDERS
        for _, text in of(fmt).REQUIRED
    ]


ROWS += _required_rows()


def _spellings_rows() -> list[RuleRow]:
    """A Gemini field given in both spellings at one level (``standin.rules.spellings``)."""
    from standin.rules.spellings import CHECKED, SOURCE, TEXT, UNKNOWN_ANSWER

    twice = RuleRow("gemini", "system-instruction-twice", "refused", TEXT, SOURCE, CHECKED)
    both = RuleRow("gemini", "field-in-both-spellings", "accepted", "", UNKNOWN_ANSWER, CHECKED)
    return [twice, both]


ROWS += _spellings_rows()


def _header_rows() -> list[RuleRow]:
    """A header the API requires (``standin.provider.keys``; the stand-in checks it)."""
    from standin.provider import keys

    text, source = keys.ANTHROPIC_NO_VERSION, keys.ANTHROPIC_NO_VERSION_SOURCE
    checked = keys.ANTHROPIC_NO_VERSION_CHECKED
    return [RuleRow("anthropic", "version-header-missing", "refused", text, source, checked)]


ROWS += _header_rows()
ROWS += shared_rows(RuleRow, SHARED_CHECKED)


def markdown() -> str:
    """The table as Markdown, one section per provider (what ``docs/rules.md`` holds)."""
    lines = [
        "# The rules of the list, provider by provider",
        "",
        "Generated by `scripts/rules_table.py` from `standin/rules/table.py`; "
        "`tests/standin/test_rules_table.py` fails when this page is out of date. "
        "`check` and the stand-in "
        "use the same texts: a *refused* rule is an error (exit 1, HTTP 400 with the "
        "text below), an *accepted* one a warning at most (exit 0, HTTP 200). The `portable` "
        "profile refuses every rule: it is what code should keep to work with every provider. "
        "A rule *not on the wire* is one the format cannot carry: only a neutral request "
        "breaks it, and `check` refuses it in our words, since it cannot be sent as it is.",
        "",
        "Positions and ids in `{braces}` are filled in from the request. Most rules are about "
        "the list and hold for every model; the settings rules (`standin/rules/params.py`) "
        "name the models they hold for, and a model they do not name is not checked.",
    ]
    for profile in ("openai-chat", "openai-responses", "anthropic", "anthropic-strict", "gemini"):
        lines += ["", f"## {profile}", ""]
        lines.append("| rule | models | verdict | error text | source | checked |")
        lines.append("|---|---|---|---|---|---|")
        for r in ROWS:
            if r.profile == profile:
                error = f"`{_cell(r.error)}`" if r.error else f"({r.verdict})"
                lines.append(
                    f"| `{r.rule}` | {r.models} | {r.verdict} | {error} | {_cell(r.source)} "
                    f"| {r.checked} |"
                )
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'").replace("\n", " ")
