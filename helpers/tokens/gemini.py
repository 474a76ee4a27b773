"""Used in lessons: none directly (imported by tokens).

Counting rule ``gemini-gemma3``: the Gemini models Google's SDK counts with Gemma 3's tokenizer
(``gemma3_models`` in ``data/models.json``). Each text part is tokenized on its own with it, as
google-genai's ``LocalTokenizer`` does; bills add one token per content and one for
``systemInstruction`` (none on 2.0). Function declarations, calls and responses are written as
Gemma 4's chat template writes them (``<|tool>declaration:f{...}<tool|>``, ``<|tool_call>...``)
but for the departures the bills show (``QUIRKS``); 2.0 is billed only the texts inside.

What it deliberately does not do: call that structure exact (Google does not publish it), or
see what a thought signature stands for (the previous reply's thinking, billed when streamed):
both are named in ``uncertain``, as are media and ``helpers.gemma.DIFFERENT``'s strings.
"""

from __future__ import annotations

import json
import math
from typing import Any

from helpers.gemma import differs
from helpers.messages import Image, Reasoning, Request, Text, Tool, ToolCall, ToolResult
from helpers.models import ModelInfo
from helpers.tokens.estimate import block_text, images_seen, message_labels
from helpers.tokens.seen import CUT, Seen, Sized, call_names

Q = '<|"|>'  # the template's string quote: one token
#: Where recorded bills depart from the template: (an empty description, a string's type) left
#: out. Gemini 3's and 2.5's, from pydantic-ai's and Mirascope's cassettes (docs/evidence.md).
QUIRKS = {"3": (True, False), "2.5": (False, True)}
DUMMY = "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I="  # Google's stand-in signature: no thinking
THINKING = "the previous reply's thinking"
PER_SIGNATURE_CHARACTER = 0.2  # the most recorded bills added (0.12-0.20 tokens a character)


def framing(info: ModelInfo) -> int:
    """Tokens each content (and the system instruction) adds to the bill: 1, none on 2.0."""
    return 0 if info.id.startswith("gemini-2.0") else 1


def value(v: Any) -> str:
    """An argument or response value as the template writes it: strings between ``<|"|>``."""
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{value(x)}" for k, x in sorted(v.items())) + "}"
    if isinstance(v, list):
        return "[" + ",".join(value(x) for x in v) + "]"
    return Q + v + Q if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)


def schema(s: dict, typed: bool = True) -> str:
    """A JSON Schema as the template writes a parameter; a string's type only if ``typed``."""
    kind = s["type"].upper() if isinstance(s.get("type"), str) else ""
    out = [f"description:{Q}{s['description']}{Q}"] if s.get("description") else []
    out += [f"enum:{value(s['enum'])}"] if kind == "STRING" and s.get("enum") else []
    out += [f"items:{schema(s['items'], typed)}"] if isinstance(s.get("items"), dict) else []
    out += ["nullable:true"] if s.get("nullable") else []
    if isinstance(s.get("properties"), dict):
        props = sorted((k, v) for k, v in s["properties"].items() if isinstance(v, dict))
        inner = ",".join(f"{k}:{schema(v, typed)}" for k, v in props)
        out.append(f"properties:{{{inner}}}")
    out += [f"required:{value(s['required'])}"] if s.get("required") else []
    return "{" + ",".join(out + ([f"type:{Q}{kind}{Q}"] if typed or kind != "STRING" else [])) + "}"


def declaration(tool: Tool, info: ModelInfo) -> list[str]:
    """A function declaration as the template writes it, but for ``QUIRKS``; 2.0: its texts."""
    if not framing(info):
        return [tool.name, tool.description, *texts(tool.parameters, True)]
    no_empty, untyped = QUIRKS["3" if info.id.startswith("gemini-3") else "2.5"]
    head = f"description:{Q}{tool.description}{Q}," if tool.description or not no_empty else ""
    parameters = {k: v for k, v in tool.parameters.items() if k != "description" and v != {}}
    body = f"{head}parameters:{schema(parameters, not untyped)}"
    return [f"<|tool>declaration:{tool.name}{{{body}}}<tool|>"]


def turn(kind: str, name: str, sent: dict, info: ModelInfo) -> list[str]:
    """A function ``call`` or ``response`` as the template writes it; 2.0: its texts."""
    if not framing(info):
        return [name, *texts(sent)]
    return [f"<|tool_{kind}>{kind}:{name}{value(sent)}<tool_{kind}|>"]


def _object(text: str) -> dict:
    try:
        whole = json.loads(text)
    except ValueError:
        return {}
    return whole if isinstance(whole, dict) else {}


def texts(v: Any, schema: bool = False) -> list[str]:
    """What ``LocalTokenizer`` counts in a value (keys and strings) or a schema (names,
    descriptions, formats, enums, required)."""
    if isinstance(v, str | list):
        return [v] if isinstance(v, str) else [t for x in v for t in texts(x, schema)]
    if not isinstance(v, dict):
        return []
    if not schema:
        return [*v, *texts(list(v.values()))]
    out = [v[k] for k in ("format", "description") if isinstance(v.get(k), str)]
    out += texts([v.get("enum") or [], v.get("required") or [], v.get("items")], True)
    properties = v["properties"] if isinstance(v.get("properties"), dict) else {}
    return out + [t for k, x in properties.items() for t in (k, *texts(x, True))]


def seen(request: Request, info: ModelInfo) -> tuple[list[Seen], list[str]]:
    """What the model is shown: function declarations, then each content's framing and parts."""
    out = [
        (f"tools[{k}]", t) for k, x in enumerate(request.tools) for t in _cut(declaration(x, info))
    ]
    names = call_names(request)
    for i, message in enumerate(request.messages):
        size = framing(info)
        out += [(f"messages[{i}]", Sized(size, ("framing", message.role)))] if size else []
        for j, block in enumerate(message.content):
            part = f"messages[{i}].content[{j}]"
            out += images_seen(part, block, info)
            if isinstance(block, ToolCall):
                out += [(part, t) for t in _cut(turn("call", block.name, block.arguments, info))]
            elif isinstance(block, ToolResult) and block.text:  # the object sent, else the text
                sent = _object(block.text) or {"error" if block.is_error else "output": block.text}
                name = names.get(block.call_id, "")
                out += [(part, t) for t in _cut(turn("response", name, sent, info))]
            elif text := block_text(block):
                out += [(part, text), (part, CUT)]
    return out, []


def _cut(texts: list[str]) -> list[str]:
    return [t for text in texts if text for t in (text, CUT)]


def labels(request: Request, info: ModelInfo) -> dict[str, str]:
    """Each function declaration by name, each content by role, each part by type."""
    out = {f"tools[{k}]": tool.name for k, tool in enumerate(request.tools)}
    if request.tools:
        out["tools"] = f"{len(request.tools)} function declarations"
    return out | message_labels(request)


def uncertain(request: Request, info: ModelInfo) -> dict[str, tuple[int | None, str]]:
    """The parts recorded bills have not shown exact: part -> (bound or None, why)."""
    out: dict[str, tuple[int | None, str]] = {}
    if not framing(info):
        out["model"] = (3, "gemini-2.0: 2 of 7 recorded text bills were 1 and 3 below the count")
    for k, tool in enumerate(request.tools):
        why = "function declarations: Google's rendering is not published"
        if any(f'"{w}"' in json.dumps(tool.parameters) for w in ("$ref", "anyOf", "oneOf")):
            why = "$ref or anyOf in its parameters: not written here, so not seen"
        out[f"tools[{k}]"] = (None, why)
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            if why := _why(block):
                out[f"messages[{i}].content[{j}]"] = why
    return out


def _why(block: object) -> tuple[int | None, str] | None:
    signature = getattr(block, "signature", None)
    if signature and signature != DUMMY:
        bound = math.ceil(PER_SIGNATURE_CHARACTER * len(signature))
        return bound, (
            f"{THINKING}, which its thought signature stands for: billed when streamed, and on "
            f"Gemini 3 within the turn; not seen here (at most {PER_SIGNATURE_CHARACTER} tokens "
            "a signature character on recorded bills)"
        )
    if isinstance(block, ToolCall | ToolResult):
        return None, "function call or response: Google's rendering is not published"
    if isinstance(block, Image):
        return None, "media: Google's per-item size, not checked against bills here"
    if isinstance(block, Text | Reasoning):
        gemma = "a Gemma control string: Gemma 4's tokenizer splits it unlike Gemma 3's"
        return (None, gemma) if differs(block.text) else None
    return None, f"{block.type}: not checked against bills"
