"""Counting a wire body as sent: what it carries that the neutral request drops, named.

``helpers.tokens.count`` counts a neutral ``Request``; a body on the wire can carry more: a
``response_format`` or ``text.format`` schema, files, provider-run tools, extended thinking,
stored state, items the neutral request has no block for. Each one makes the count an estimate,
named here with how far it can be off (``None``: unknown): ``with_unmodelled`` applies it to a
count (the stand-in's usage does), ``count_body`` parses a body, counts it with the
readable rule (``helpers.tokens.count``) and applies it (the CLI, the
estimate-spread benchmark). The recorded bills behind each entry: ``docs/evidence.md``.

What it deliberately does not do: guess a size it cannot know (those bounds are ``None``).
"""

from __future__ import annotations

import json
from typing import Any

from helpers.models import ModelInfo
from helpers.tokens import Count, count

__all__ = ["count_body", "unmodelled", "with_unmodelled"]

#: A named legacy ``function_call`` was 3 tokens fewer than a forced tool (hmarr's 2023 figures).
LEGACY_FORCED = 3


def count_body(body: dict, format: str, model: str | ModelInfo | None = None) -> Count:
    """Count a wire body as sent: parse it, count it, and label as estimated whatever the body
    carries that the neutral request drops (a ``response_format`` schema, file parts...).
    The legacy ``functions`` / ``function_call`` fields are counted as ``tools`` /
    ``tool_choice`` (as hmarr's 2023 figures were measured; an estimate).

    A body is counted the way its own provider counts it: the model is ``model``, else the
    body's ``model``, else that provider's default (a Gemini body names none); a model of
    another provider is refused (``ValueError``), never used silently."""
    from helpers.models import default_model, info_for
    from standin.functions_era import parse

    wire = body
    if format == "openai-chat" and body.get("functions") and not body.get("tools"):
        body = _functions_as_tools(body)
    request = parse(body, format)
    provider = None if format == "neutral" else format.split("-")[0]
    info = info_for(model or body.get("model") or (default_model(provider) if provider else None))
    if provider is not None and info.provider != provider:
        raise ValueError(
            f"a {format} body is counted the way {provider} counts it, not for {info.id} "
            f"({info.provider}'s model): name a {provider} model, or render the request in "
            f"{info.provider}'s format first"
        )
    return with_unmodelled(count(request, info), wire, format)


def with_unmodelled(counted: Count, body: dict, format: str) -> Count:
    """``counted`` (of ``body`` parsed) marked as an estimate wherever the wire body carries
    what the neutral request drops (``unmodelled``). Only for a model of the body's own
    provider: counted for another provider's model, the body would be sent in that format."""
    from helpers.models import model_info
    from helpers.tokens.gemini import framing as gemini_framing

    if format.split("-")[0] != model_info(counted.model).provider:
        return counted
    dropped = unmodelled(body, format)
    if counted.info and counted.info.counting == "gemini-gemma3" and gemini_framing(counted.info):
        dropped = {p: v for p, v in dropped.items() if not v[1].startswith(GEMMA3_AS_COUNTED)}
    merged = dict(counted.uncertain)
    for part, (bound, why) in dropped.items():  # a part estimated twice: both bounds, both whys
        if part in merged:
            before, reason = merged[part]
            bound = None if bound is None or before is None else bound + before
            why = f"{reason}; {why}"
        merged[part] = (bound, why)
    if dropped:
        counted.uncertain = merged
        counted.estimate = True
    return counted


def _functions_as_tools(body: dict) -> dict:
    """The legacy ``functions`` / ``function_call`` fields as ``tools`` / ``tool_choice``."""
    legacy = {k: v for k, v in body.items() if k not in ("functions", "function_call")}
    legacy["tools"] = [{"type": "function", "function": f} for f in body["functions"]]
    call = body.get("function_call")
    if isinstance(call, dict) and call.get("name"):
        legacy["tool_choice"] = {"type": "function", "function": {"name": call["name"]}}
    elif call in ("none", "auto"):
        legacy["tool_choice"] = call
    return legacy


#: Request fields and content parts the neutral request does not carry, so no count sees them.
UNMODELLED_FIELDS = {
    "openai-chat": {
        "audio": "audio output settings: not counted",
        "prediction": "predicted output: not counted",
    },
    "anthropic": {
        "thinking": "extended thinking: the bill adds tokens no offline count sees",
        "mcp_servers": "MCP servers: their tool definitions are added by the API, not counted",
        "container": "a code-execution container: its files are not counted",
        "output_format": "structured output: the schema is given to the model, not counted",
        "context_management": "context management: the API may clear earlier content before "
        "billing (a recorded bill was 0.002x the count), not counted",
    },
    "gemini": {
        "responseSchema": "responseSchema: the schema is given to the model, size unknown",
        "responseJsonSchema": "responseJsonSchema: the schema is given to the model, size unknown",
        "response_schema": "response_schema: the schema is given to the model, size unknown",
        "response_json_schema": "response_json_schema: the schema is given to the model, size "
        "unknown",
        "cachedContent": "cachedContent: the cached content is billed in the prompt, not seen here",
        "cached_content": "cached_content: the cached content is billed in the prompt, not seen "
        "here",
    },
}
#: What the ``gemini-gemma3`` rule counts as billed: on Gemini 2.5 and 3, recorded bills equal
#: the count without it (a response schema adds nothing; a thought part's text is counted).
GEMMA3_AS_COUNTED = ("responseSchema", "responseJsonSchema", "response_schema", "thought part")
GEMMA3_AS_COUNTED += ("response_json_schema",)
#: Anthropic blocks inside a ``tool_result`` that the count does not see (recorded bills 2-5.6x).
UNMODELLED_IN_RESULTS = {"document", "search_result", "container_upload"}
#: Gemini inline media the count takes for an image (258 tokens): audio and video are billed by
#: duration (Google documents 32 tokens a second of audio, 263 of video), unknown offline.
GEMINI_TIMED_MEDIA = ("audio/", "video/")
#: Content the count does not see (types of OpenAI parts, Anthropic blocks, Gemini part keys).
UNMODELLED_PARTS = {
    "openai-chat": {"file", "input_audio", "input_file", "document", "audio"},
    "anthropic": {"document", "search_result", "container_upload", "compaction", "thinking"}
    | {"redacted_thinking", "server_tool_use", "mcp_tool_use", "mcp_tool_result"},
    "gemini": {"fileData", "file_data", "executableCode", "executable_code", "videoMetadata"}
    | {"codeExecutionResult", "code_execution_result", "thought"},
    "openai-responses": {"input_file", "input_audio"},
}
#: Where each format keeps its turns, and what a turn calls its parts.
TURNS = {"gemini": ("contents", "parts"), "openai-responses": ("input", "content")}


def unmodelled(body: dict[str, Any], format: str) -> dict[str, tuple[int | None, str]]:
    """What a wire body carries that the count does not see: each makes a count an estimate of
    unknown error. Seen in recorded traffic (pydantic-ai's and Mirascope's public cassettes): a
    ``file`` part or a ``response_format`` added 48 to 219 billed tokens; Anthropic server
    tools (web search, code execution...), MCP servers and extended thinking, and Gemini's
    built-in tools and video files, billed 2 to 400 times the offline count."""
    from standin.functions_era import gemini_accepted

    body = gemini_accepted(body) if format == "gemini" else body  # parts given as one object
    out: dict[str, tuple[int | None, str]] = _openai_extras(body) if format == "openai-chat" else {}
    if format == "openai-responses":
        out.update(_responses_extras(body))
    config = body.get("generationConfig") or body.get("generation_config") or {}
    fields = {**body, **config} if format == "gemini" and isinstance(config, dict) else body
    for key, why in UNMODELLED_FIELDS.get(format, {}).items():
        if fields.get(key) not in (None, [], {}) and fields.get(key) != {"type": "disabled"}:
            out[key] = (None, why)
    output = body.get("output_config") if format == "anthropic" else None
    where = "output_config.format"
    if format == "anthropic" and isinstance(body.get("output_format"), dict):
        output, where = {"format": body["output_format"]}, "output_format"  # the beta's spelling
    if isinstance(output, dict) and output.get("format") not in (None, {}):
        why = "structured output: the schema is given to the model, not counted"
        out[where] = (None, why + " (recorded bills 2.6-33x the count)")
    for k, tool in enumerate(body.get("tools") or []):
        built_in = _built_in_tool(tool, format)
        if built_in:
            out[f"tools[{k}]"] = (None, f"{built_in}: a provider's built-in tool, not counted")
    key, inner = TURNS.get(format, ("messages", "content"))
    turns = body.get(key)
    for i, message in enumerate(turns if isinstance(turns, list) else []):
        for j, kind in _part_kinds(message, format):
            if kind in UNMODELLED_PARTS.get(format, set()):
                out[f"{key}[{i}].{inner}[{j}]"] = (None, f"{kind} part: not counted")
            elif kind.startswith(GEMINI_TIMED_MEDIA):
                why = f"inline {kind}: billed by its length, counted as one image (258)"
                out[f"{key}[{i}].{inner}[{j}]"] = (None, why)
            elif kind == "signed text":  # the parser drops it: the rule cannot name it
                why = "thoughtSignature on a text part: the previous reply's thinking, not seen"
                out[f"{key}[{i}].{inner}[{j}]"] = (None, why)
            elif kind.startswith("tool_result:"):
                why = f"{kind.partition(':')[2]} inside a tool result: not counted"
                out[f"{key}[{i}].{inner}[{j}]"] = (None, why)
    return out


def _openai_extras(body: dict[str, Any]) -> dict[str, tuple[int | None, str]]:
    """``response_format`` with a JSON schema and a named legacy ``function_call``: bounded."""
    from helpers.tokens.tokenizers import PROXY, encode

    out: dict[str, tuple[int | None, str]] = {}
    form = body.get("response_format")
    if isinstance(form, dict) and form.get("type") == "json_schema":
        spec = form.get("json_schema") if isinstance(form.get("json_schema"), dict) else {}
        header = f"# Response Formats\n\n## {spec.get('name', '')}\n\n"
        if spec.get("description"):
            header += f"// {spec['description']}\n"
        text = header + json.dumps(spec.get("schema"), separators=(",", ":"))
        why = "response_format json_schema: added in a form no figure pins down, not counted"
        out["response_format"] = (len(encode(PROXY, text)) + 4, why)
    elif isinstance(form, dict) and form.get("type") not in (None, "text", "json_object"):
        out["response_format"] = (None, f"response_format {form.get('type')!r}: not counted")
    if body.get("functions") and not body.get("tools"):
        call = body.get("function_call")
        named = isinstance(call, dict) and call.get("name")
        why = "legacy functions, counted as tools (2023 figures)"
        out["functions"] = (LEGACY_FORCED, why + (": a named function_call" if named else ""))
    messages = body.get("messages") if isinstance(body.get("messages"), list) else []
    for i, m in enumerate(messages):
        era = _functions_era_name(m)
        if era is not None:  # hmarr/openai-chat-tokens' figures: up to the name's tokens + 3 off
            bound = len(encode("cl100k_base", era)) + 3
            out[f"messages[{i}]"] = (bound, "functions-era message, counted as a tool message")
    return out


def _functions_era_name(message: Any) -> str | None:
    """The function name of a ``role: "function"`` message or an assistant ``function_call``."""
    if not isinstance(message, dict):
        return None
    if message.get("role") == "function" and isinstance(message.get("name"), str):
        return message["name"]
    call = message.get("function_call")
    return (
        call.get("name") if isinstance(call, dict) and isinstance(call.get("name"), str) else None
    )


#: Responses input items the count does not read (their content is not in the neutral request).
RESPONSES_UNREAD_ITEMS = {
    "compaction",
    "item_reference",
    "web_search_call",
    "file_search_call",
    "image_generation_call",
    "code_interpreter_call",
    "mcp_call",
    "mcp_list_tools",
    "computer_call",
    "computer_call_output",
    "local_shell_call",
}


def _responses_extras(body: dict[str, Any]) -> dict[str, tuple[int | None, str]]:
    """What a Responses body carries that Chat's rendering does not pin down (recorded bills:
    ``docs/evidence.md``, "Counting")."""
    out: dict[str, tuple[int | None, str]] = {}
    for k, tool in enumerate(body.get("tools") or []):
        kind = tool.get("type") if isinstance(tool, dict) else None
        if kind == "function":
            why = (
                "Responses bills tool definitions unlike the Chat rendering counted here: "
                "one recorded tool, 39 tokens fewer"
            )
            out[f"tools[{k}]"] = (None, why)
        else:
            out[f"tools[{k}]"] = (None, f"{kind}: a provider's built-in tool, not counted")
    form = (body.get("text") or {}).get("format") if isinstance(body.get("text"), dict) else None
    if isinstance(form, dict) and form.get("type") not in (None, "text", "json_object"):
        out["text.format"] = (None, f"text.format {form.get('type')!r}: not counted")
    if _older_model(body.get("model")):
        out["model"] = (1, "Responses on a cl100k model: a recorded gpt-4 bill was 1 token fewer")
    if body.get("instructions") == "":
        out["instructions"] = (None, "empty instructions: a recorded bill was 18 tokens more")
    for key, why in (
        ("previous_response_id", "the stored chain it continues is billed too, not seen here"),
        ("conversation", "the stored conversation is billed too, not seen here"),
    ):
        if body.get(key):
            out[key] = (None, why)
    items = body.get("input") if isinstance(body.get("input"), list) else []
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("type") in RESPONSES_UNREAD_ITEMS:
            out[f"input[{i}]"] = (None, f"{item['type']} item: not counted")
    return out


def _older_model(model: Any) -> bool:
    """A model of the cl100k_base generation (gpt-4, gpt-3.5): its Responses figures differ."""
    from helpers.models import UnknownModelError, model_info

    try:
        return isinstance(model, str) and model_info(model).encoding == "cl100k_base"
    except UnknownModelError:
        return False


def _built_in_tool(tool: Any, format: str) -> str | None:
    """The kind of a provider-run tool (Anthropic ``web_search_...``, Gemini ``googleSearch``)."""
    if not isinstance(tool, dict):
        return None
    if format == "anthropic" and tool.get("type") not in (None, "custom"):
        return str(tool["type"])
    if format == "gemini":
        other = [k for k in tool if k not in ("functionDeclarations", "function_declarations")]
        return other[0] if other else None
    return None


def _part_kinds(message: Any, format: str) -> list[tuple[int, str]]:
    """(index, kind) of each part of one message: a block's ``type``, a Gemini part's keys."""
    if not isinstance(message, dict):
        return []
    parts = message.get("parts") if format == "gemini" else message.get("content")
    out = []
    for j, part in enumerate(parts if isinstance(parts, list) else []):
        if not isinstance(part, dict):
            continue
        if format == "gemini":
            kinds = [k for k in part if k in UNMODELLED_PARTS["gemini"] and part[k]]
            kinds += [_inline_kind(part)] if not kinds and _inline_kind(part) else []
            kinds += ["signed text"] if not kinds and _signed_text(part) else []
            out += [(j, k) for k in kinds[:1]]
        elif isinstance(part.get("type"), str):
            out.append((j, part["type"]))
            inner = part.get("content") if part["type"] == "tool_result" else None
            for block in inner if isinstance(inner, list) else []:
                if isinstance(block, dict) and block.get("type") in UNMODELLED_IN_RESULTS:
                    out.append((j, f"tool_result:{block['type']}"))
                    break
    return out


def _signed_text(part: dict) -> bool:
    """A Gemini text part carrying a real thought signature (not Google's stand-in)."""
    from helpers.tokens.gemini import DUMMY

    signature = part.get("thoughtSignature") or part.get("thought_signature")
    return "text" in part and not part.get("thought") and signature not in (None, DUMMY)


def _inline_kind(part: dict) -> str:
    """The MIME type of a Gemini inline part when it is audio or video, else ""."""
    data = part.get("inlineData") or part.get("inline_data")
    kind = data.get("mimeType") or data.get("mime_type") if isinstance(data, dict) else ""
    return kind if isinstance(kind, str) and kind.startswith(GEMINI_TIMED_MEDIA) else ""
