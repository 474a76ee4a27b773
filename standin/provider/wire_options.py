"""What a request asks of the model beyond its messages, read from the body of each wire format.

``read(body, provider)`` gives :class:`Options`: the tool choice in one spelling, whether
parallel calls are allowed, the structured-output schema, the output limit and the stop
sequences. ``cut(text, limit, stop, tokenize)`` ends a reply's text as a provider does: at the
first stop sequence (left out of the text), then after ``limit`` tokens.

The tool choice, in one spelling: ``"auto"``, ``"none"``, ``"required"`` (Anthropic ``any``,
Gemini ``ANY``), ``{"name": tool}``, or ``{"mode": "auto" | "required", "allowed": [names]}``
(OpenAI ``allowed_tools``, Gemini ``allowedFunctionNames``). What it does not read: sampling
settings (the stand-in does not sample) and anything the verdict already refuses.

Every spelling the API takes is read: Gemini's field names in camelCase and snake_case at every
level (``allowed_function_names``, ``response_mime_type``; of two spellings the later wins, as
protobuf's JSON parser keeps it); structured output as OpenAI Chat ``response_format``,
Responses ``text.format``, Anthropic ``output_config.format`` (GA) and ``output_format`` (the
``structured-outputs-2025-11-13`` beta), Gemini ``responseJsonSchema``/``responseSchema`` with
``responseMimeType: application/json`` (no schema: JSON mode).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from helpers.formats.gemini_render import camel
from helpers.formats.providers import PROVIDERS
from standin.providers import of

__all__ = ["Options", "cut", "read"]


@dataclass
class Options:
    tool_choice: str | dict[str, Any] = "auto"
    parallel_tool_calls: bool = True
    #: ``None``: plain text; ``{}``: JSON without a schema (JSON mode); else the schema
    output_schema: dict[str, Any] | None = None
    max_tokens: int | None = None
    stop: tuple[str, ...] = ()


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(s for s in value if isinstance(s, str)) if isinstance(value, list) else ()


def _limit(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _openai_choice(choice: Any) -> str | dict[str, Any]:
    if isinstance(choice, str):
        return choice
    choice = _dict(choice)
    if choice.get("type") == "function":  # Chat nests the name, Responses does not
        return {"name": choice.get("name") or _dict(choice.get("function")).get("name")}
    if choice.get("type") == "allowed_tools":
        spec = _dict(choice.get("allowed_tools")) or choice
        tools = [_dict(t) for t in spec.get("tools") or []]
        names = [t.get("name") or _dict(t.get("function")).get("name") for t in tools]
        return {"mode": spec.get("mode", "auto"), "allowed": names}
    return "auto"


def _schema_of(fmt: dict[str, Any], nested: bool) -> dict[str, Any] | None:
    if fmt.get("type") == "json_schema":
        holder = _dict(fmt.get("json_schema")) if nested else fmt
        return _dict(holder.get("schema"))
    return {} if fmt.get("type") == "json_object" else None


def _openai(body: dict[str, Any]) -> Options:
    options = Options(_openai_choice(body.get("tool_choice", "auto")))
    options.parallel_tool_calls = body.get("parallel_tool_calls") is not False
    return options


def chat(body: dict[str, Any]) -> Options:
    """A Chat Completions body's options."""
    options = _openai(body)
    options.max_tokens = _limit(body.get("max_completion_tokens", body.get("max_tokens")))
    options.stop = _strings(body.get("stop"))
    options.output_schema = _schema_of(_dict(body.get("response_format")), nested=True)
    return options


def responses(body: dict[str, Any]) -> Options:
    """A Responses body's options (Responses has no stop sequences)."""
    options = _openai(body)
    options.max_tokens = _limit(body.get("max_output_tokens"))
    options.output_schema = _schema_of(_dict(_dict(body.get("text")).get("format")), False)
    return options


def anthropic(body: dict[str, Any]) -> Options:
    """A Messages body's options."""
    choice = _dict(body.get("tool_choice")) or {"type": "auto"}
    kind = choice.get("type", "auto")
    spelled = {"any": "required", "tool": {"name": choice.get("name")}}.get(kind, kind)
    fmt = _dict(_dict(body.get("output_config")).get("format")) or _dict(body.get("output_format"))
    return Options(
        spelled,
        parallel_tool_calls=not choice.get("disable_parallel_tool_use", False),
        output_schema=_schema_of(fmt, nested=False) if fmt.get("type") == "json_schema" else None,
        max_tokens=_limit(body.get("max_tokens")),
        stop=_strings(body.get("stop_sequences")),
    )


def gemini(body: dict[str, Any]) -> Options:
    """A generateContent body's options, in either spelling."""
    body = camel(body)  # snake_case and camelCase alike, at every level
    config = _dict(_dict(body.get("toolConfig")).get("functionCallingConfig"))
    mode = str(config.get("mode", "AUTO")).upper()
    names = [n for n in config.get("allowedFunctionNames") or [] if isinstance(n, str)]
    choice: str | dict[str, Any] = {"NONE": "none", "ANY": "required"}.get(mode, "auto")
    if names and choice != "none":
        choice = {"name": names[0]} if len(names) == 1 else {"mode": choice, "allowed": names}
    generation = _dict(body.get("generationConfig"))
    schema = None
    if generation.get("responseMimeType") == "application/json":
        schema = _dict(generation.get("responseJsonSchema") or generation.get("responseSchema"))
    return Options(
        choice,
        output_schema=schema,
        max_tokens=_limit(generation.get("maxOutputTokens")),
        stop=_strings(generation.get("stopSequences")),
    )


def read(body: dict[str, Any], provider: str) -> Options:
    """The options of one request body (``provider``: the wire format it came in)."""
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}")
    return of(provider).read_options(body)


def cut(
    text: str, limit: int | None, stop: Sequence[str], tokenize: Callable[[str], list[str]]
) -> tuple[str, str | None, str | None]:
    """``(text, why it ended early: "stop_sequence" | "max_tokens" | None, the sequence)``.

    ``tokenize(text)`` gives pieces whose concatenation is ``text`` (the offline counter's).
    """
    reason = matched = None
    hits = [(text.find(s), i, s) for i, s in enumerate(stop) if s and s in text]
    if hits:
        at, _, matched = min(hits)
        text, reason = text[:at], "stop_sequence"
    if limit is not None:
        pieces = tokenize(text)
        if len(pieces) > limit:
            return "".join(pieces[: max(0, limit)]), "max_tokens", None
    return text, reason, matched
