"""Used in lessons: 08, 10.

One decision per profile: would this provider accept this request body, and if not, what
does it answer?

``verdict(body, profile)`` reads a body the way the provider does, in the order a real server
checks it, and returns a :class:`Verdict`:

1. required fields (``max_tokens`` for Anthropic, ``contents`` for Gemini...): each provider's
   own "field required" text; then fields the API does not know, at every level
   (``standin.rules.fields``: the official SDKs' request types); then the settings it refuses
   (``standin.rules.params``: sampling ranges, a temperature a reasoning model refuses,
   Anthropic's thinking budget), some of them per model, and tool parameters that are no JSON
   Schema (``standin.rules.schemas``); a Gemini field given in both spellings
   (``standin.rules.spellings``: ``systemInstruction`` with ``system_instruction`` is refused);
2. the body itself, before anything is converted: a block or part type the format does not
   have, arguments that are not a JSON object, Anthropic text placed before the
   ``tool_result`` blocks of one user turn. The parsers (``helpers.formats``) name these as
   they read (a ``Note`` with a ``rule``; which types the API lacks: ``standin.rules.kinds``);
   here they become violations;
3. the rules of the list (``helpers.rules.check``) on the neutral reading, each located back
   in the body (``standin.rules.origins``): ``messages[3].tool_calls[0]``, ``input[4]``.

Errors are what the provider refuses (the first one is its answer), warnings what it accepts
but is worth a look. One warning is about the stand-in, not the provider: a tool or output
schema its general model cannot fill within its caps (rule ``stand-in-cannot-fill``,
``standin.provider.general.unfillable``); the real API may accept the request, and the
stand-in answers it with its own 422 (``STAND_IN_CANNOT_FILL``), the same decision.
The stand-in answers with ``Verdict.response()``, and ``python -m helpers check``
prints the same violations, so the two cannot disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from helpers.formats import FormatError, Note, detect
from helpers.messages import Request
from helpers.rules import Answer, Finding, Violation, Violations, judged
from standin.functions_era import parse
from standin.rules.errors import FORMATS, error_response
from standin.rules.fields import check_fields
from standin.rules.kinds import named_unknown
from standin.rules.origins import Origins, origins
from standin.rules.params import check_params
from standin.rules.required import REQUIRED
from standin.rules.schemas import check_schemas
from standin.rules.spellings import check_spellings
from standin.rules.strict import findings
from standin.rules.tool_choice import check_tool_choice
from standin.rules.wire import answer_wire, node_at, pairing_on_the_wire, wire_finding
from standin.rules.wire_notes import wire_notes

__all__ = ["REQUIRED", "STAND_IN_CANNOT_FILL", "Verdict", "verdict"]

#: The rule of the warning for a schema the stand-in cannot fill (and of its 422).
STAND_IN_CANNOT_FILL = "stand-in-cannot-fill"


@dataclass
class Verdict:
    """What ``profile`` makes of one body: its violations (errors first), read as ``format``."""

    profile: str
    format: str
    violations: Violations
    notes: list[Note] = field(default_factory=list)
    #: The neutral reading of the body (None when the body could not be read at all).
    request: Request | None = None

    @property
    def accepted(self) -> bool:
        """True when the provider takes the request: no errors (warnings may remain)."""
        return self.violations.accepted

    @property
    def first_error(self) -> Violation | None:
        return next(iter(self.violations.errors), None)

    @property
    def cannot_fill(self) -> Violation | None:
        """The first schema the stand-in cannot fill (a warning: the API may accept it)."""
        return next((v for v in self.violations if v.rule == STAND_IN_CANNOT_FILL), None)

    def response(self, request_id: str | None = None) -> tuple[int, dict] | None:
        """``(400, error body)`` as the provider answers, or None when it accepts the body."""
        first = self.first_error
        if first is None:
            return None
        provider = self.format if self.format in FORMATS else "openai-chat"
        return error_response(first, provider, request_id)

    def __str__(self) -> str:
        return str(self.violations)

    def _repr_html_(self) -> str:
        return self.violations._repr_html_()


def verdict(
    body: Any,
    profile: str = "portable",
    format: str | None = None,
    chain: list | None = None,
    betas: tuple[str, ...] | None = None,
    version: str = "v1beta",
) -> Verdict:
    """Check a request body (any format, or neutral JSON) under ``profile``.

    ``format`` names the body's format; by default ``helpers.formats.detect`` finds it. A body
    of no known shape raises ``FormatError`` (that is not a rule of the list: nothing could be
    read). Everything else the provider refuses is a violation with its place in the body.

    A Responses body that continues a stored response (``previous_response_id``,
    ``conversation``) is checked against ``chain`` (the stored input and output items) when
    given; without it, what depends on the stored part is a warning that says so. An Anthropic
    body that continues a message thread (``thread: {"type": "continue", ...}``, the
    ``message-threads`` beta) is read the same way: ``chain`` is the thread's stored messages
    (the stand-in joins them as ``standin.provider.state.thread_expand`` does); without
    it, a result, a tool choice or a first turn that may rest on the stored turns is a warning.

    ``betas`` is the ``anthropic-beta`` header's list (None: not known, as for a body read from
    a file); ``version`` is Gemini's API version (``v1`` lacks fields ``v1beta`` has).
    """
    if not isinstance(body, dict):
        raise FormatError(f"a request body must be a JSON object, got {type(body).__name__}")
    fmt = format or detect(body, prefer="anthropic" if profile == "anthropic-strict" else profile)
    stored = body.get("previous_response_id") or body.get("conversation")
    if fmt == "anthropic":
        stored = _thread_continued(body)
    place = _place_in(None)
    if fmt == "openai-responses" and chain is not None:
        new = body.get("input")
        new = [{"role": "user", "content": new}] if isinstance(new, str) else list(new or [])
        body = {**body, "input": list(chain) + new}
        place = _place_in(len(chain))
    if fmt == "anthropic" and stored and chain is not None:
        new = body.get("messages")
        new = list(new) if isinstance(new, list) else []
        rest = {k: v for k, v in body.items() if k != "thread"}  # as the stand-in joins them
        body = {**rest, "messages": list(chain) + new}
        place = _place_in(len(chain), "messages")
    threaded = fmt in ("openai-responses", "anthropic")
    unseen = stored if threaded and chain is None and stored else None
    result = _verdict(body, profile, fmt, place, unseen, (betas, version))
    if fmt == "anthropic" and stored and chain is not None and "tools" not in body:
        # the thread keeps its tools (and system) beside the messages a chain gives
        why = f"this body continues {stored!r}, whose thread keeps the tools, which the chain "
        why += "of messages does not carry"
        kept = [_as_unseen(v, stored, ("tool-choice-",), why) for v in result.violations]
        result.violations = Violations(kept)
    return result


def _thread_continued(body: dict) -> str | None:
    """The message an Anthropic thread continuation continues, else None."""
    thread = body.get("thread")
    if isinstance(thread, dict) and thread.get("type") == "continue":
        previous = thread.get("previous_message_id")
        return previous if isinstance(previous, str) and previous else None
    return None


def _place_in(chain: int | None, key: str = "input"):
    """How a path into the joined list reads: ``chain[k]`` for the stored part, else the
    body's own ``input[k]`` / ``messages[k]`` (unchanged when no chain was joined)."""
    if chain is None:
        return lambda path: path
    return lambda path: _in_chain(path, chain, key)


#: Rules whose decision may rest on the stored part of a continued conversation: what answers a
#: call, the conversation's start, and (Anthropic threads keep ``tools``) the tool choice.
_STORED_RULES = ("result-", "tool-choice-")
_STORED_EXACT = ("no-messages", "first-must-be-user", "results-not-first", "roles-must-alternate")


def _rests_on_stored(rule: str) -> bool:
    return rule.startswith(_STORED_RULES) or rule in _STORED_EXACT


def _unseen(found: Finding, answer: Answer | None, profile: str, stored: str | None) -> str | None:
    """Why ``found`` cannot be judged from this body alone: what answers a call, or the
    conversation itself, may be in the stored chain it continues."""
    if stored is None or not _rests_on_stored(found.rule):
        return None
    if judged(found, profile, answer).severity != "error":
        return None
    return (
        f"this body continues {stored!r}: what it answers may be in that stored chain, which "
        "check cannot see; pass the chain to check against it"
    )


def _in_chain(path: str | None, length: int, key: str = "input") -> str | None:
    """``input[k]`` of the joined list -> ``chain[k]`` or the body's own ``input[k - length]``
    (``messages[k]`` for an Anthropic thread)."""
    if not path or not path.startswith(f"{key}["):
        return path
    k = int(path[len(key) + 1 : path.index("]")])
    rest = path[path.index("]") + 1 :]
    return f"chain[{k}]{rest}" if k < length else f"{key}[{k - length}]{rest}"


def _verdict(body: dict, profile: str, fmt: str, place, stored: str | None, sent) -> Verdict:
    own = profile == fmt
    missing = [_missing(text, profile) for key, text in REQUIRED.get(fmt, []) if key not in body]
    if own and missing:
        return Verdict(profile, fmt, Violations(missing[:1]))
    notes: list[Note] = []
    try:
        request = parse(body, fmt, notes=notes)
    except (FormatError, KeyError, TypeError, ValueError) as err:
        notes = wire_notes(body, fmt, named_unknown(notes, fmt), str(err).partition(": ")[0])
        unknown = _unknown_first(body, fmt, profile, sent) if own else []
        return Verdict(profile, fmt, Violations(unknown or [_malformed(str(err), profile)]), notes)
    except RecursionError:  # JSON inside a string (a call's arguments) nested past Python's stack
        text = "a JSON string in the body (a tool call's arguments?) is nested too deep to read"
        return Verdict(profile, fmt, Violations([_malformed(text, profile)]), notes)
    notes = wire_notes(body, fmt, named_unknown(notes, fmt))
    found = [_from_note(n, profile, fmt, body, place) for n in notes if n.rule]
    if own:  # fields and settings first: a server validates them before it reads the list
        fields = check_fields(body, fmt, profile, *sent) + check_spellings(body, fmt, profile)
        said = {v.path for v in fields}  # Gemini's parser notes the same unknown part name
        found = [v for v in found if not (v.rule == "unknown-block" and v.path in said)]
        choice = check_tool_choice(body, fmt, profile)
        found = [*fields, *choice, *check_params(body, fmt), *check_schemas(body, fmt), *found]
    seen = {(v.rule, v.path) for v in found}
    read_from = origins(body, fmt)
    for finding, answer in findings(request, profile):
        raw = _path(finding, read_from)
        path = place(raw)
        if (finding.rule, path) in seen:  # the body-level finding already says it, in its words
            continue
        if fmt == "openai-chat" and finding.rule in _PAIRING and _functions_era(body, raw):
            continue  # that era paired by name, and the API took a result with no call
        empty = finding.rule == "empty-content" and finding.block_index is None
        if empty and _has_content(body, raw):
            continue  # empty only in the neutral reading: its blocks have no neutral form
        unseen = _unseen(finding, answer, profile, stored)
        found.append(judged(finding, profile, answer, path, unseen))
    if fmt == "openai-responses":
        found = _paired_on_the_wire(found, body, profile, place)
    if stored is not None:  # body-level findings (the tool choice) that rest on stored turns
        found = [_as_unseen(v, stored) for v in found]
    found += _cannot_fill(body, fmt, profile, request)
    return Verdict(profile, fmt, Violations(found), list(notes), request)


def _as_unseen(
    found: Violation, stored: str, rules: tuple[str, ...] | None = None, why: str = ""
) -> Violation:
    """``found`` as a warning that says ``why``, when it is an error that may rest on the
    stored part of the conversation ``stored`` names (only ``rules``' prefixes when given);
    else unchanged."""
    rests = found.rule.startswith(rules) if rules else _rests_on_stored(found.rule)
    if found.severity != "error" or not rests:
        return found
    why = why or (
        f"this body continues {stored!r}: what it rests on may be in that stored chain, which "
        "check cannot see; pass the chain to check against it"
    )
    return replace(found, severity="warning", message=f"{found.message} ({why})")


#: At most this many ``stand-in-cannot-fill`` warnings per body (the first one decides).
_MAX_CANNOT_FILL = 10


def _cannot_fill(body: dict, fmt: str, profile: str, request: Request) -> list[Violation]:
    """A warning for each schema of ``body`` the stand-in's general model cannot fill (the
    first ``_MAX_CANNOT_FILL``), at its place in the body
    (``tools[0].function.parameters.properties.x.minLength``)."""
    from standin.provider.general import unfillable
    from standin.provider.wire_options import read

    wire = fmt in ("openai-chat", "openai-responses", "anthropic", "gemini")
    output = read(body, fmt).output_schema if wire else None
    places = _tool_places(body, fmt)
    found = []
    for index, err in unfillable(request, output, limit=_MAX_CANNOT_FILL):
        if index is None:
            where, what = _output_place(body, fmt), "a structured output"
        else:
            name = request.tools[index].name
            where = places.get(name, f"tools[{index}]")
            what = f"arguments for tool {name!r}"
        path = ".".join(p for p in (where, err.path) if p)
        message = (
            f"the stand-in cannot make {what} for this schema: {err}. A limit of the stand-in, "
            "not of the API: the real API may accept this request (the stand-in answers "
            "it with a 422)"
        )
        found.append(
            Violation(STAND_IN_CANNOT_FILL, message, profile=profile, severity="warning", path=path)
        )
    return found


def _tool_places(body: dict, fmt: str) -> dict[Any, str]:
    """Tool name -> where its parameters are in ``body`` (the first tool of a name)."""
    places: dict[Any, str] = {}
    tools = body.get("tools") if isinstance(body.get("tools"), list) else []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue
        function = tool.get("function")
        if fmt == "openai-chat" and isinstance(function, dict):
            places.setdefault(function.get("name"), f"tools[{i}].function.parameters")
        elif fmt == "anthropic":
            places.setdefault(tool.get("name"), f"tools[{i}].input_schema")
        elif fmt == "openai-responses":
            places.setdefault(tool.get("name"), f"tools[{i}].parameters")
        for key in ("functionDeclarations", "function_declarations"):
            declared_list = tool.get(key) if isinstance(tool.get(key), list) else []
            for j, declared in enumerate(declared_list):
                if isinstance(declared, dict):
                    field = next(
                        (f for f in ("parametersJsonSchema", "parameters") if f in declared),
                        "parameters",
                    )
                    places.setdefault(declared.get("name"), f"tools[{i}].{key}[{j}].{field}")
    return places


def _output_place(body: dict, fmt: str) -> str:
    """Where the structured-output schema is in ``body``."""
    if fmt == "openai-chat":
        return "response_format.json_schema.schema"
    if fmt == "openai-responses":
        return "text.format.schema"
    if fmt == "anthropic":
        return "output_config.format.schema" if "output_config" in body else "output_format.schema"
    holder = next((k for k in ("generationConfig", "generation_config") if k in body), None)
    config = body.get(holder) if holder and isinstance(body.get(holder), dict) else {}
    spellings = ("responseJsonSchema", "response_json_schema", "responseSchema", "response_schema")
    field = next((f for f in spellings if config.get(f)), "responseSchema")
    return f"{holder or 'generationConfig'}.{field}"


#: The pairing rules, which the functions era (no ids) is not judged by: a ``role: "function"``
#: message without a call was accepted and billed (hmarr/openai-chat-tokens: 15 tokens).
_PAIRING = {
    "call-not-answered",
    "result-without-call",
    "result-wrong-turn",
    "result-before-call",
    "results-not-adjacent",
    "duplicate-result",
}


def _functions_era(body: dict, path: str | None) -> bool:
    found = re.match(r"messages\[(\d+)\]", path or "")
    messages = body.get("messages")
    if not found or not isinstance(messages, list) or int(found.group(1)) >= len(messages):
        return False
    message = messages[int(found.group(1))]
    return isinstance(message, dict) and (
        message.get("role") == "function" or message.get("function_call") is not None
    )


def _paired_on_the_wire(found: list[Violation], body: dict, profile: str, place) -> list[Violation]:
    """Reasoning items pair with the item they produced by id, on the wire: the neutral reading
    cannot hold every item type (a ``custom_tool_call``, a ``web_search_call``), so the
    ``reasoning-not-followed`` rule is judged on the body's own ``input``."""
    kept = [v for v in found if v.rule != "reasoning-not-followed"]
    if profile != "openai-responses":
        return kept
    items = body.get("input") if isinstance(body.get("input"), list) else []
    for k, rid, what in pairing_on_the_wire(items):
        finding, answer = wire_finding(k, rid, what)
        v = judged(finding, profile, answer, place(f"input[{k}]"))
        later = [n for n, w in enumerate(kept) if _input_index(w.path) > k]
        kept.insert(later[0] if later else len(kept), v)  # in the order of the input
    return kept


def _input_index(path: str | None) -> int:
    found = re.match(r"input\[(\d+)\]", path or "")
    return int(found.group(1)) if found else -1


def _has_content(body: dict, path: str | None) -> bool:
    """Whether the message at ``path`` (``messages[3]``, ``contents[2]``) is non-empty on the
    wire."""
    found = re.fullmatch(r"(messages|contents|input)\[(\d+)\]", path or "")
    items = body.get(found.group(1)) if found else None
    if not found or not isinstance(items, list) or int(found.group(2)) >= len(items):
        return False
    message = items[int(found.group(2))]
    return isinstance(message, dict) and bool(message.get("content") or message.get("parts"))


def _missing(text: str, profile: str) -> Violation:
    found = Finding("missing-field", f"a required field is missing ({text})")
    return judged(found, profile, Answer(text))


def _unknown_first(body: dict, fmt: str, profile: str, sent) -> list[Violation]:
    """Responses: the unknown fields of a body that does not parse, which the API names before
    the value it cannot read (a Chat-shaped ``tool_choice`` gets "Unknown parameter:
    'tool_choice.function'.", BerriAI/litellm#27611). Other formats: none (no report says)."""
    if fmt != "openai-responses":
        return []
    try:
        found = check_fields(body, fmt, profile, *sent)
    except (KeyError, TypeError, ValueError, AttributeError):  # a shape the field walk cannot read
        return []
    return [v for v in found if v.severity == "error"]


def _malformed(error: str, profile: str) -> Violation:
    """A body of a known format that does not hold together: the parser's error, located."""
    path, _, detail = error.partition(": ")
    where = path if detail and " " not in path else None
    return judged(Finding("malformed", f"Invalid request: {error}"), profile, None, where)


def _from_note(note: Note, profile: str, fmt: str, body: dict, place) -> Violation:
    path = note.where or ""
    answer = answer_wire(str(note.rule), note.message, path, fmt, body) if profile == fmt else None
    found = Finding(str(note.rule), note.message, call_id=_call_id_at(body, path))
    return judged(found, profile, answer, place(note.where))


_ID_KEYS = ("id", "call_id", "tool_call_id", "tool_use_id")
_CALL_TYPES = ("tool_use", "tool_result", "function", "function_call", "function_call_output")


def _call_id_at(body: dict, path: str) -> str | None:
    """The id of the tool call or result at ``path`` in ``body`` (a finding about a call names
    it as well as its place), or None when ``path`` is no call."""
    node = node_at(body, path)
    if not isinstance(node, dict):
        return None
    for key in ("functionCall", "functionResponse", "function_call", "function_response"):
        if isinstance(node.get(key), dict):  # a Gemini part
            node = node[key]
            break
    else:
        kind = node.get("type")
        if kind is not None and kind not in _CALL_TYPES and "tool_call_id" not in node:
            return None
    found = next((node[k] for k in _ID_KEYS if isinstance(node.get(k), str)), None)
    return found


def _path(f: Finding, read_from: Origins) -> str | None:
    """Where the neutral message or block ``f`` points at was read from in the body."""
    i, j = f.message_index, f.block_index
    if i is None or not 0 <= i < len(read_from):
        return None
    message, blocks = read_from[i]
    if j is not None and 0 <= j < len(blocks):
        return blocks[j] or message
    return message
