"""standin.rules.params: the settings a provider refuses (some per model), as one decision:
``verdict`` (what ``python -m helpers check`` prints) and the stand-in's answer."""

from __future__ import annotations

import pytest

from standin.cli import main
from standin.rules.params import PARAM_RULES
from standin.rules.table import ROWS
from standin.verdict import verdict
from tests.support.provider_support import body, post

_HI = {"role": "user", "content": "Hi"}
_SCHEMA = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
_TOOL = {"type": "function", "function": {"name": "find", "parameters": _SCHEMA}}
_CLAUDE_TOOL = {"name": "find", "input_schema": _SCHEMA}


def _chat(model: str, **settings) -> dict:
    return {"model": model, "messages": [_HI], **settings}


def _responses(model: str, **settings) -> dict:
    return {"model": model, "input": "Hi", **settings}


def _anthropic(model: str = "claude-sonnet-4-6", **settings) -> dict:
    messages = [{"role": "user", "content": "Hi"}]
    return {"model": model, "max_tokens": 2048, "messages": messages, **settings}


REFUSED = [
    (
        "openai-responses",
        _responses("gpt-4o", temperature=-1),
        "temperature",
        "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 "
        "instead.",
        "decimal_below_min_value",
    ),
    (
        "openai-chat",
        _chat("gpt-4o-mini", temperature=2.5),
        "temperature",
        "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 "
        "instead.",
        "decimal_above_max_value",
    ),
    (
        "openai-responses",
        _responses("gpt-5-mini", temperature=0.7, top_p=0.3),
        "temperature",
        "Unsupported parameter: 'temperature' is not supported with this model.",
        None,
    ),
    (
        "openai-chat",
        _chat("gpt-5-2025-08-07", temperature=0),
        "temperature",
        "Unsupported value: 'temperature' does not support 0 with this model. Only the default "
        "(1) value is supported.",
        "unsupported_value",
    ),
    (
        "openai-chat",
        _chat("o3-mini", temperature=0.2),
        "temperature",
        "Unsupported parameter: 'temperature' is not supported with this model.",
        "unsupported_parameter",
    ),
    (
        "openai-chat",
        _chat("gpt-5-mini", stop=["4242"]),
        "stop",
        "Unsupported parameter: 'stop' is not supported with this model.",
        "unsupported_parameter",
    ),
    (
        "openai-chat",
        _chat("o1-mini", messages=[{"role": "developer", "content": "Be brief."}, _HI]),
        "messages[0].role",
        "Unsupported value: 'messages[0].role' does not support 'developer' with this model.",
        "unsupported_value",
    ),
    (
        "anthropic",
        _anthropic(temperature=1.5),
        "temperature",
        "temperature: Input should be less than or equal to 1",
        None,
    ),
    (
        "anthropic",
        _anthropic("claude-opus-4-8", temperature=0.2),
        "temperature",
        "`temperature` is deprecated for this model.",
        None,
    ),
    (
        "anthropic",
        _anthropic(thinking={"type": "enabled", "budget_tokens": 512}),
        "thinking.budget_tokens",
        "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
        None,
    ),
    (
        "anthropic",
        _anthropic(thinking={"type": "enabled", "budget_tokens": 2048}),
        "thinking.budget_tokens",
        "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
        "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
        "#max-tokens-and-context-window-size",
        None,
    ),
    (
        "anthropic",
        _anthropic(thinking={"type": "enabled"}),
        "thinking",
        "thinking.enabled.budget_tokens: Field required",
        None,
    ),
    (
        "anthropic",
        _anthropic("claude-sonnet-5-5", thinking={"type": "enabled", "budget_tokens": 1024}),
        "thinking.type",
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" '
        'and "output_config.effort" to control thinking behavior.',
        None,
    ),
    (
        "anthropic",
        _anthropic("claude-opus-4-7-20260416", thinking={"type": "enabled", "budget_tokens": 1024}),
        "thinking.type",
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" '
        'and "output_config.effort" to control thinking behavior.',
        None,
    ),
    (
        "openai-chat",
        _chat("gpt-6-luna", tools=[_TOOL]),  # the default effort is medium
        "reasoning_effort",
        "Function tools are supported in Chat Completions for this model only with "
        "reasoning_effort 'none' (got 'medium'). Use the Responses API for tools with reasoning.",
        "unsupported_value",
    ),
    (
        "openai-chat",
        _chat("gpt-6-sol", tools=[_TOOL], reasoning_effort="low"),
        "reasoning_effort",
        "Function tools are supported in Chat Completions for this model only with "
        "reasoning_effort 'none' (got 'low'). Use the Responses API for tools with reasoning.",
        "unsupported_value",
    ),
    (
        "anthropic",
        _anthropic("claude-sonnet-5-5", tools=[_CLAUDE_TOOL], tool_choice={"type": "any"}),
        "tool_choice.type",
        "tool_choice: forced tool use (type 'any') is not supported for this model; use 'auto' "
        "or 'none'",
        None,
    ),
]

ACCEPTED = [
    ("openai-chat", _chat("gpt-4o", temperature=0.7, top_p=0.3, stop=["4242"])),
    ("openai-chat", _chat("gpt-5-mini", temperature=1)),  # the default is taken
    ("openai-chat", _chat("o3-mini", messages=[{"role": "system", "content": "Be brief."}, _HI])),
    ("openai-chat", {"model": "o1-mini", "messages": [{"role": "user", "content": "Hi"}]}),
    ("openai-responses", _responses("gpt-4o", temperature=2)),
    ("openai-responses", _responses("gpt-5.6-sol", temperature=0.5)),  # not a model we check
    ("anthropic", _anthropic(temperature=0.7, top_p=0.3)),
    ("anthropic", _anthropic(thinking={"type": "enabled", "budget_tokens": 1024})),
    ("anthropic", _anthropic(thinking={"type": "disabled"})),
    ("anthropic", _anthropic("claude-sonnet-5-5", thinking={"type": "adaptive"})),
    ("openai-chat", _chat("gpt-6-luna", tools=[_TOOL], reasoning_effort="none")),
    ("openai-chat", _chat("gpt-6-luna", reasoning_effort="high")),  # no tools: any effort
    ("openai-chat", _chat("gpt-4o-mini", tools=[_TOOL])),
    (
        "anthropic",
        _anthropic("claude-sonnet-5-5", tools=[_CLAUDE_TOOL], tool_choice={"type": "auto"}),
    ),
    ("anthropic", _anthropic("claude-sonnet-5", tools=[_CLAUDE_TOOL], tool_choice={"type": "any"})),
]


@pytest.mark.parametrize(("fmt", "payload", "path", "text", "code"), REFUSED)
def test_check_refuses_with_the_providers_text_and_place(fmt, payload, path, text, code):
    result = verdict(payload, fmt)
    first = result.first_error
    assert (first.path, first.provider_error) == (path, text)
    status, envelope = result.response()
    assert status == 400
    if fmt.startswith("openai"):
        assert envelope["error"]["param"] == path and envelope["error"]["code"] == code
    else:
        assert envelope["error"]["message"] == text
    assert verdict(payload, "portable").accepted  # settings are the provider's own rules


@pytest.mark.parametrize(("fmt", "payload"), ACCEPTED)
def test_check_accepts_what_the_provider_takes(fmt, payload):
    assert verdict(payload, fmt).accepted, verdict(payload, fmt)


@pytest.mark.parametrize(
    ("fmt", "settings", "text"),
    [
        (
            "openai-chat",
            {"model": "gpt-5-mini", "stop": ["4242"]},
            "Unsupported parameter: 'stop' is not supported with this model.",
        ),
        (
            "openai-responses",
            {"temperature": 3},
            "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 "
            "instead.",
        ),
        (
            "anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 100}},
            "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
        ),
    ],
)
def test_the_local_provider_gives_the_same_answer(p, fmt, settings, text):
    payload = {**body(fmt), **settings}
    refused = post(p, fmt, payload)
    assert refused.status_code == 400 and refused.json()["error"]["message"] == text
    assert verdict(payload, fmt).first_error.provider_error == text
    taken = {k: v for k, v in payload.items() if k == "model" or k not in settings}
    assert post(p, fmt, taken).status_code == 200


def test_the_cli_exits_1_and_names_the_setting(tmp_path, capsys):
    import json

    path = tmp_path / "body.json"
    path.write_text(
        json.dumps(_chat("o1-mini", messages=[{"role": "system", "content": "x"}, _HI]))
    )
    assert main(["check", str(path), "--profile", "openai-chat"]) == 1
    out = capsys.readouterr().out
    assert "messages[0].role: this model takes no system or developer message" in out
    assert "does not support 'system' with this model." in out


def test_every_settings_rule_is_in_the_table_with_its_models():
    for rule in PARAM_RULES.values():
        rows = [r for r in ROWS if (r.error, r.source) == (rule.text, rule.source)]
        assert rows and all(r.models == rule.models and r.rule == rule.rule for r in rows)
