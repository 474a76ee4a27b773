"""Used in lessons: none directly (imported by rules.table).

Rules about a request's settings rather than its list: sampling ranges, settings a reasoning
model refuses, a role an early reasoning model refuses, Anthropic's thinking budget, tool use a
newer model takes only in some settings.

Some depend on the model, so each rule names the models it holds for (``PARAM_RULES``, also a
section of ``docs/rules.md``). Every text is the provider's own, quoted from the public report
or recorded exchange in ``source``, except where ``source`` says the text is ours (the limit
is sourced, no public report quotes the words). A model a rule does not name is not checked:
nothing is refused on a guess. ``check_params(body, format)`` reads a provider's body (plain
JSON) and returns violations located in it (``temperature``, ``messages[0].role``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from helpers.rules import Answer, Finding, Violation, judged
from standin.live_switch import family
from standin.providers import FORMATS, of, of_family


@dataclass(frozen=True)
class ParamRule:
    format: str
    rule: str
    #: Which models it holds for, in words (the patterns are in ``_MODELS``).
    models: str
    #: The provider's text with {placeholders}; ``code`` is OpenAI's error code.
    text: str
    source: str
    checked: str
    code: str | None = None


CHECKED = "2026-11-30"
_O1_ROLE = "o1-mini, o1-preview"
_DEFAULT_ONLY = "o1-mini, o1-preview, o3, o4-mini, gpt-5, gpt-5-mini, gpt-5-nano"
_NOT_AT_ALL = "o1, o3-mini"
_GPT5 = "gpt-5, gpt-5-mini, gpt-5-nano"
_OPUS_47 = "claude-opus-4-7, claude-opus-4-8"
#: Claude 4.7 and later: manual extended thinking (budget_tokens) is refused.
_ADAPTIVE_ONLY = (
    "claude-opus-4-7, claude-opus-4-8, claude-sonnet-5, claude-opus-5, claude-sonnet-5-5, "
    "claude-opus-5-5, claude-haiku-5-5"
)
#: GPT-6 on Chat Completions: function tools only with reasoning_effort "none".
_GPT6_CHAT_TOOLS = "gpt-6-luna, gpt-6-sol"
#: Sonnet 5.5: forced tool use (tool_choice any or tool) returns an error.
_NO_FORCED_TOOL = "claude-sonnet-5-5"

#: rule key -> the rule; the keys are what ``check_params`` reports.
PARAM_RULES: dict[str, ParamRule] = {
    "openai-temperature-below": ParamRule(
        "openai",
        "temperature-range",
        "every model",
        "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got "
        "{value} instead.",
        "recorded: pydantic/pydantic-ai tests/models/cassettes/test_openai_responses/"
        "test_openai_responses_model_http_error.yaml @ f077d56c (gpt-4o, temperature -1)",
        CHECKED,
        "decimal_below_min_value",
    ),
    "openai-temperature-above": ParamRule(
        "openai",
        "temperature-range",
        "every model",
        "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got "
        "{value} instead.",
        "the range: openai/openai-python v3.57.0 types/chat/completion_create_params.py and "
        "types/responses/response_create_params.py ('between 0 and 2'); the text: the "
        "recorded below-minimum answer's counterpart, as public test fixtures quote it "
        "(code decimal_above_max_value; no issue found to cite by name)",
        CHECKED,
        "decimal_above_max_value",
    ),
    "chat-temperature-default-only": ParamRule(
        "openai-chat",
        "temperature-unsupported",
        _DEFAULT_ONLY,
        "Unsupported value: 'temperature' does not support {value} with this model. Only the "
        "default (1) value is supported.",
        "leafo/lua-openai#12 (o1-mini), cline/cline#2961 (o3, o4-mini), "
        "BeehiveInnovations/pal-mcp-server#78 (o3), owndev/Open-WebUI-Functions#98 (gpt-5), "
        "altic-dev/FluidVoice#55 (gpt-5-mini)",
        CHECKED,
        "unsupported_value",
    ),
    "chat-temperature-not-at-all": ParamRule(
        "openai-chat",
        "temperature-unsupported",
        _NOT_AT_ALL,
        "Unsupported parameter: 'temperature' is not supported with this model.",
        "sigoden/aichat#1144 (o1), BeehiveInnovations/pal-mcp-server#78 and "
        "RooCodeInc/Roo-Code#793 (o3-mini)",
        CHECKED,
        "unsupported_parameter",
    ),
    "responses-temperature": ParamRule(
        "openai-responses",
        "temperature-unsupported",
        f"{_DEFAULT_ONLY}, {_NOT_AT_ALL}",
        "Unsupported parameter: 'temperature' is not supported with this model.",
        "recorded: Mirascope/mirascope python/tests/e2e/input/cassettes/test_call_with_params/"
        "openai_gpt_5_mini.yaml @ a6823120 (gpt-5-mini, temperature 0.7)",
        CHECKED,
    ),
    "chat-stop": ParamRule(
        "openai-chat",
        "stop-unsupported",
        _GPT5,
        "Unsupported parameter: 'stop' is not supported with this model.",
        "recorded: Mirascope/mirascope python/tests/e2e/input/cassettes/test_call_with_params/"
        "openai_gpt_5_mini_completions.yaml @ 687f54de (gpt-5-mini); "
        "huggingface/smolagents#1662 (gpt-5, -mini, -nano)",
        CHECKED,
        "unsupported_parameter",
    ),
    "chat-system-role": ParamRule(
        "openai-chat",
        "system-role-unsupported",
        _O1_ROLE,
        "Unsupported value: 'messages[{i}].role' does not support '{role}' with this model.",
        "recorded: pydantic/pydantic-ai tests/models/cassettes/test_openai/"
        "test_openai_o1_mini_system_role[system|developer].yaml @ b18b0329 (o1-mini); "
        "BerriAI/litellm#5671 (o1-preview)",
        CHECKED,
        "unsupported_value",
    ),
    "anthropic-temperature": ParamRule(
        "anthropic",
        "temperature-range",
        "every model",
        "temperature: Input should be {bound}",
        "the range 0-1: anthropics/anthropic-sdk-python#893 (a maintainer, 2026-08-05: -1 is "
        "refused with a 400, the range is 0.0-1.0); the text is ours, in the style of "
        "Anthropic's field errors (no public report quotes it)",
        CHECKED,
    ),
    "anthropic-temperature-deprecated": ParamRule(
        "anthropic",
        "temperature-unsupported",
        _OPUS_47,
        "`temperature` is deprecated for this model.",
        "https://conselara.dev/notes/opus-4-8-temperature-deprecated/ (the text, Opus 4.8); "
        "https://benchr.org/errors/anthropic-invalid-request-error (Opus 4.7 and later, "
        "non-default values)",
        CHECKED,
    ),
    "thinking-enabled-unsupported": ParamRule(
        "anthropic",
        "thinking-enabled-unsupported",
        _ADAPTIVE_ONLY,
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" '
        'and "output_config.effort" to control thinking behavior.',
        "Anthropic's extended-thinking page (stored copy, seen 2026-12-02): 'Claude 4.7 and "
        "later models do not support it and reject requests that use it, returning a 400 "
        "error'; the text as answered for claude-opus-4-7: NousResearch/hermes-agent#11137",
        CHECKED,
    ),
    "chat-tools-need-effort-none": ParamRule(
        "openai",
        "tools-need-effort-none",
        _GPT6_CHAT_TOOLS,
        "Function tools are supported in Chat Completions for this model only with "
        "reasoning_effort 'none' (got '{effort}'). Use the Responses API for tools with "
        "reasoning.",
        "the gpt-6-luna model page (stored copy, seen 2026-12-02): 'Chat Completions supports "
        "function calling only with reasoning_effort none' (the default effort is medium); the "
        "text is ours (no public report quotes the error)",
        "2026-12-02",
        "unsupported_value",
    ),
    "forced-tool-unsupported": ParamRule(
        "anthropic",
        "forced-tool-unsupported",
        _NO_FORCED_TOOL,
        "tool_choice: forced tool use (type '{kind}') is not supported for this model; use "
        "'auto' or 'none'",
        "Anthropic's Sonnet 5.5 overview (stored copy, seen 2026-12-02): among the breaking "
        "changes from Sonnet 5, 'forced tool use returns an error'; the text is ours (no public "
        "report quotes it)",
        "2026-12-02",
    ),
    "thinking-budget-missing": ParamRule(
        "anthropic",
        "thinking-budget",
        "every model",
        "thinking.enabled.budget_tokens: Field required",
        "budget_tokens is required (anthropics/anthropic-sdk-python "
        "types/thinking_config_enabled_param.py, v2.14.0); the text is ours, in the style of "
        "'max_tokens: Field required'",
        CHECKED,
    ),
    "thinking-budget-small": ParamRule(
        "anthropic",
        "thinking-budget",
        "every model",
        "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
        "themaximalist/llm.js#30 (claude-sonnet-4-6); 'Must be ≥1024 and less than max_tokens' "
        "(anthropics/anthropic-sdk-python types/thinking_config_enabled_param.py, v2.14.0)",
        CHECKED,
    ),
    "thinking-budget-large": ParamRule(
        "anthropic",
        "thinking-budget",
        "every model",
        "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
        "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
        "#max-tokens-and-context-window-size",
        "anthropics/claude-code#8756, liuw1535/antigravity2api-nodejs#149 (Anthropic's text "
        "passed through Bedrock and Vertex)",
        CHECKED,
    ),
}


def _family(names: str) -> re.Pattern[str]:
    """A model name or one of its dated snapshots (``gpt-5-mini-2025-08-07``)."""
    alternatives = "|".join(re.escape(n.strip()) for n in names.split(","))
    return re.compile(rf"(?:{alternatives})(?:-\d{{4}}-\d{{2}}-\d{{2}}|-\d{{8}})?")


_MODELS = {
    name: _family(name)
    for name in (
        _O1_ROLE,
        _DEFAULT_ONLY,
        _NOT_AT_ALL,
        _GPT5,
        _OPUS_47,
        _ADAPTIVE_ONLY,
        _GPT6_CHAT_TOOLS,
        _NO_FORCED_TOOL,
    )
}


def _is(model: str, names: str) -> bool:
    return bool(_MODELS[names].fullmatch(model))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _shown(value: int | float) -> str:
    """A number as OpenAI echoes it (``-1``, ``2.5``, ``99.0``)."""
    return repr(value)


def check_params(body: dict, fmt: str) -> list[Violation]:
    """The settings of ``body`` (in format ``fmt``) its provider refuses, each located and
    judged under ``fmt``'s own profile."""
    model = body.get("model") if isinstance(body.get("model"), str) else ""
    found = of(fmt).settings(body, model) if fmt in FORMATS else []  # its check, below
    return [judged(f, fmt, answer, path) for f, answer, path in found]


_Found = tuple[Finding, Answer, str]


def _temperature(body: dict, model: str, responses: bool) -> list[_Found]:
    """OpenAI's temperature rules (Responses' own for the models that take the default only)."""
    out = []
    t = body.get("temperature")
    if _number(t) and t < 0:
        out.append(_found("openai-temperature-below", "temperature", value=_shown(t)))
    elif _number(t) and t > 2:
        out.append(_found("openai-temperature-above", "temperature", value=_shown(t)))
    elif _number(t) and t != 1 and responses:
        if _is(model, _DEFAULT_ONLY) or _is(model, _NOT_AT_ALL):
            out.append(_found("responses-temperature", "temperature"))
    elif _number(t) and t != 1 and _is(model, _DEFAULT_ONLY):
        out.append(_found("chat-temperature-default-only", "temperature", value=_shown(t)))
    elif _number(t) and t != 1 and _is(model, _NOT_AT_ALL):
        out.append(_found("chat-temperature-not-at-all", "temperature"))
    return out


def responses(body: dict, model: str) -> list[_Found]:
    """The settings a Responses body's model refuses."""
    return _temperature(body, model, responses=True)


def chat(body: dict, model: str) -> list[_Found]:
    """The settings a Chat Completions body's model refuses."""
    out = _temperature(body, model, responses=False)
    effort = body.get("reasoning_effort", "medium")
    if body.get("tools") and effort != "none" and _is(model, _GPT6_CHAT_TOOLS):
        out.append(_found("chat-tools-need-effort-none", "reasoning_effort", effort=effort))
    if body.get("stop") is not None and _is(model, _GPT5):
        out.append(_found("chat-stop", "stop"))
    messages = body.get("messages") if isinstance(body.get("messages"), list) else []
    if _is(model, _O1_ROLE):
        for i, m in enumerate(messages):
            role = m.get("role") if isinstance(m, dict) else None
            if role in ("system", "developer"):
                out.append(_found("chat-system-role", f"messages[{i}].role", i=i, role=role))
                break
    return out


def anthropic(body: dict, model: str) -> list[_Found]:
    out = []
    t = body.get("temperature")
    if _number(t) and not 0 <= t <= 1:
        bound = "less than or equal to 1" if t > 1 else "greater than or equal to 0"
        out.append(_found("anthropic-temperature", "temperature", bound=bound))
    elif _number(t) and t != 1 and _is(model, _OPUS_47):
        out.append(_found("anthropic-temperature-deprecated", "temperature"))
    choice = body.get("tool_choice")
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind in ("any", "tool") and _is(model, _NO_FORCED_TOOL):
        out.append(_found("forced-tool-unsupported", "tool_choice.type", kind=kind))
    thinking = body.get("thinking")
    if (
        isinstance(thinking, dict)
        and thinking.get("type") == "enabled"
        and _is(model, _ADAPTIVE_ONLY)
    ):
        out.append(_found("thinking-enabled-unsupported", "thinking.type"))
    elif isinstance(thinking, dict) and thinking.get("type") == "enabled":
        budget, most = thinking.get("budget_tokens"), body.get("max_tokens")
        where = "thinking.budget_tokens"
        if budget is None:
            out.append(_found("thinking-budget-missing", "thinking"))
        elif _number(budget) and budget < 1024:
            out.append(_found("thinking-budget-small", where))
        elif _number(budget) and _number(most) and budget >= most:
            out.append(_found("thinking-budget-large", where))
    return out


_WHAT = {
    "temperature-range": "temperature is outside the range this API takes",
    "temperature-unsupported": "this model takes no temperature but its default",
    "stop-unsupported": "this model takes no stop sequences",
    "system-role-unsupported": "this model takes no system or developer message",
    "thinking-budget": "thinking.budget_tokens must be at least 1024 and less than max_tokens",
    "thinking-enabled-unsupported": "this model takes adaptive thinking only, not budget_tokens",
    "tools-need-effort-none": "this model takes function tools here only with effort 'none'",
    "forced-tool-unsupported": "this model takes no forced tool use",
}


def _found(key: str, path: str, **values: Any) -> _Found:
    rule = PARAM_RULES[key]
    text = rule.text.format(**values)
    param = path if of_family(family(rule.format)).NAMES_PARAM else None  # a format or family
    found = Finding(rule.rule, f"{_WHAT[rule.rule]} ({text})")
    return found, Answer(text, param, rule.code), path
