"""``tool_choice`` must have tools to choose from, and a forced tool must be one of them.

Read on the body, per format, in each provider's words where one is published:

- OpenAI Chat: any ``tool_choice`` without ``tools`` is refused; a named function that ``tools``
  does not declare is refused.
- OpenAI Responses: ``"required"`` or a named tool without ``tools`` (or not among them) is
  refused; ``"auto"`` and ``"none"`` without tools are accepted (vllm-project/vllm#40399 probed
  the real API). No public report quotes OpenAI's words: the texts are ours, vLLM's wording.
- Anthropic: ``{"type": "any"}`` without tools is refused, and so is a ``{"type": "tool"}`` whose
  name is not a tool of the request; ``auto`` and ``none`` without tools are accepted.
- Gemini: a ``toolConfig.functionCallingConfig`` without any function declaration was refused
  in one public report and accepted in a recorded exchange (``GEMINI_CONFLICT``): what decides is
  not published, so it is a warning that quotes the refusal; ``allowedFunctionNames`` naming an
  undeclared function: no public report of a refusal, a warning too.
"""

from __future__ import annotations

from typing import Any

from helpers.rules import Answer, Finding, Violation, judged
from standin.providers import FORMATS, of

CHECKED = "2026-12-01"
CHAT_NO_TOOLS = (
    "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified."
)
CHAT_UNDECLARED = (
    "Invalid value for 'tool_choice': no function named '{name}' was specified in the 'tools' "
    "parameter"
)
RESPONSES_REQUIRED = "Tool choice 'required' must be specified with 'tools' parameter."
RESPONSES_UNDECLARED = "Tool choice '{name}' not found in 'tools' parameter."
ANTHROPIC_ANY = "tool_choice.any may only be specified while providing tools"
ANTHROPIC_UNDECLARED = "Tool '{name}' not found in provided tools"
GEMINI_NO_DECLARATIONS = "Function calling config is set without function_declarations."
_PROBE = (
    "aakshintala/fiber research notes for issue #132 (a live probe of api.anthropic.com, "
    "2026-09-29: any without tools 400, tool 'get_weather' without tools 400, auto and none 200)"
)
SOURCES = {
    CHAT_NO_TOOLS: (
        "karthink/gptel-quick#13 (2025-06-02), writer/writer-framework#1013 (2025-07-15); "
        "vllm-project/vllm#40311 (2026-04-20): the real API refuses every tool_choice without "
        "tools"
    ),
    CHAT_UNDECLARED: (
        "quoted as the upstream's answer in public client code and notes (a Go provider test, "
        "'SearchKnowledge'); MeetKai/functionary mirrors it; no api.openai.com report with the "
        "full body was found (searched 2026-12-01)"
    ),
    RESPONSES_REQUIRED: (
        "the text is ours (vLLM's: vllm-project/vllm#40399, 2026-04-20, whose author checked "
        "the real OpenAI API refuses it); no public report quotes OpenAI's own words"
    ),
    RESPONSES_UNDECLARED: (
        "the text is ours (vLLM's: vllm-project/vllm#40399, 2026-04-20, checked against the "
        "real OpenAI API: a named tool_choice without it in tools is refused)"
    ),
    ANTHROPIC_ANY: _PROBE,
    ANTHROPIC_UNDECLARED: "anomalyco/opencode#14710 (2026-02-22, 'json'); " + _PROBE,
    GEMINI_NO_DECLARATIONS: (
        "musistudio/claude-code-router#1207 (2026-02-12: a toolConfig with only a googleSearch "
        "tool), AstrBotDevs/AstrBot#7407 (2026-04-07)"
    ),
}
#: Why Gemini's refusal is not applied: the same shape answered 200 in a recorded exchange.
GEMINI_CONFLICT = (
    "refused with 'Function calling config is set without function_declarations.' in "
    "musistudio/claude-code-router#1207 (2026-02-12) and AstrBotDevs/AstrBot#7407, but accepted "
    "in a recorded exchange (pydantic/pydantic-ai tests/models/cassettes/test_google/"
    "test_google_image_generation_with_web_search.yaml @ f077d56c: mode ANY, "
    "allowedFunctionNames [], a googleSearch tool, gemini-3-pro-image-preview, 200); what "
    "decides is not published, so a warning"
)


def check_tool_choice(body: dict, fmt: str, profile: str) -> list[Violation]:
    """What ``fmt``'s provider refuses in the body's tool choice, located: its ``tool_choice``
    (``standin/providers/NAME.py``) names its reader below."""
    tools = body.get("tools") if isinstance(body.get("tools"), list) else None
    return of(fmt).tool_choice(body, tools, profile) if fmt in FORMATS else []


def judged_choice(body: dict, tools: list | None, profile: str, reader: Any) -> list[Violation]:
    """``reader(choice, tools)``'s findings on the body's ``tool_choice``, judged."""
    choice = body.get("tool_choice")
    if choice is None:
        return []
    return [judged(f, profile, a, path) for f, a, path in reader(choice, tools)]


def _names(tools: list | None, nested: bool) -> set[str]:
    """The declared tools' names (Chat's inside ``function``: ``nested``)."""
    out = set()
    for tool in tools or []:
        if not isinstance(tool, dict):
            continue
        inner = tool.get("function") if nested else tool
        name = inner.get("name") if isinstance(inner, dict) else None
        if isinstance(name, str):
            out.add(name)
    return out


def chat(choice: Any, tools: list | None) -> list:
    if tools == []:  # "tools: []" is refused on its own, in other words (not modelled)
        return []
    if tools is None:
        found = Finding(
            "tool-choice-without-tools", "tool_choice is set, but the request declares no tools"
        )
        return [(found, Answer(CHAT_NO_TOOLS, "tool_choice"), "tool_choice")]
    forced = None
    if isinstance(choice, dict) and choice.get("type") == "function":
        function = choice.get("function")
        forced = function.get("name") if isinstance(function, dict) else None
    names = _names(tools, nested=True)
    return _undeclared(forced, names, CHAT_UNDECLARED, "tool_choice.function.name", "tool_choice")


def responses(choice: Any, tools: list | None) -> list:
    if choice == "required" and not tools:
        found = Finding(
            "tool-choice-without-tools", "tool_choice 'required' has no tools to choose from"
        )
        answer = Answer(RESPONSES_REQUIRED, "tool_choice")
        return [(found, answer, "tool_choice")]
    by_name = isinstance(choice, dict) and choice.get("type") in ("function", "custom")
    forced = choice.get("name") if by_name else None
    names = _names(tools, nested=False)
    return _undeclared(forced, names, RESPONSES_UNDECLARED, "tool_choice.name", "tool_choice")


def anthropic(choice: Any, tools: list | None) -> list:
    if isinstance(choice, dict) and choice.get("type") == "any" and not tools:
        found = Finding(
            "tool-choice-without-tools", "tool_choice 'any' has no tools to choose from"
        )
        return [(found, Answer(ANTHROPIC_ANY), "tool_choice")]
    by_name = isinstance(choice, dict) and choice.get("type") == "tool"
    forced = choice.get("name") if by_name else None
    names = _names(tools, nested=False)
    return _undeclared(forced, names, ANTHROPIC_UNDECLARED, "tool_choice.name", None)


def _undeclared(name: Any, names: set[str], text: str, path: str, param: str | None) -> list:
    """The finding when the choice forces a tool (``name``) the request does not declare."""
    if not isinstance(name, str) or name in names:
        return []
    declared = ", ".join(sorted(names)) or "none"
    found = Finding(
        "tool-choice-undeclared",
        f"tool_choice forces the tool {name!r}, which the request does not declare "
        f"(declared: {declared})",
    )
    return [(found, Answer(text.format(name=name), param), path)]


def gemini(body: dict, tools: list | None, profile: str) -> list[Violation]:
    config = body.get("toolConfig", body.get("tool_config"))
    calling = None
    if isinstance(config, dict):
        calling = config.get("functionCallingConfig", config.get("function_calling_config"))
    if calling is None:
        return []
    declared = []
    for tool in tools or []:
        if isinstance(tool, dict):
            found = tool.get("functionDeclarations", tool.get("function_declarations"))
            declared += [d.get("name") for d in found or [] if isinstance(d, dict)]
    where = "toolConfig.functionCallingConfig"
    if not declared:
        found = Finding(
            "tool-choice-without-tools",
            "toolConfig.functionCallingConfig is set, but no tool declares a function; Gemini "
            f"has answered it with {GEMINI_NO_DECLARATIONS!r} (and accepted it elsewhere)",
        )
        return [judged(found, profile, None, where)]
    allowed = calling.get("allowedFunctionNames", calling.get("allowed_function_names"))
    missing = [n for n in allowed or [] if n not in declared]
    if not missing:
        return []
    found = Finding(
        "tool-choice-undeclared",
        f"allowedFunctionNames names {', '.join(map(repr, missing))}, which no function "
        "declaration of the request has (no public report shows Gemini refusing it)",
    )
    return [judged(found, profile, None, f"{where}.allowedFunctionNames")]
