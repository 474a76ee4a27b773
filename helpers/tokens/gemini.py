"""Used in lessons: none directly (imported by tokens).

Counting rule ``gemini-gemma3``: the Gemini models Google's SDK counts with Gemma 3's tokenizer
(``data/models.json``, ``gemma3_models``). Each text part is tokenized on its own with it
(``helpers.gemma``), as google-genai's ``LocalTokenizer`` does; bills add one token per content
and one for ``systemInstruction`` (none on 2.0). Function declarations, calls and responses are
written as Gemma 4's published chat template writes them (``<|tool>declaration:f{...}<tool|>``,
``<|tool_call>call:f{...}``, ``<|tool_response>response:f{...}``) but for two departures the
bills show (``quirks``); 2.0 is billed only the texts ``LocalTokenizer`` counts (``sdk_texts``).

What it deliberately does not do: call that structure exact (Google does not publish it, and
``$ref``/``anyOf`` are not written), or see the previous reply's thinking a thought signature
stands for (billed when streamed): both named in ``uncertain``, as are media and the control
strings the shipped tokenizer (Gemma 4's) splits unlike Gemma 3's (``helpers.gemma.DIFFERENT``).
"""

from __future__ import annotations

import json
import math
from typing import Any

from helpers.gemma import differs
from helpers.messages import Image, Reasoning, Request, Text, Tool, ToolCall, ToolResult
from helpers.models import ModelInfo
from helpers.tokens.estimate import message_labels
from helpers.tokens.exactness import image_tokens
from helpers.tokens.seen import CUT, Seen, Sized

Q = '<|"|>'  # Gemma 4's string quote, one token
DUMMY = "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I="  # Google's documented stand-in: no thinking
THINKING = "the previous reply's thinking"
PER_SIGNATURE_CHARACTER = 0.2  # the most recorded bills added for it (0.12-0.20 tokens a character)
UNWRITTEN = ("$ref", "anyOf", "oneOf", "allOf")  # in parameters: not written here, so not seen


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
    """A JSON Schema as the template writes a parameter (description, enum, items, nullable,
    properties, required, type in capitals); a string's type only if ``typed``."""
    kind = s["type"].upper() if isinstance(s.get("type"), str) else ""
    out = [f"description:{Q}{s['description']}{Q}"] if s.get("description") else []
    out += [f"enum:{value(s['enum'])}"] if kind == "STRING" and s.get("enum") else []
    out += [f"items:{schema(s['items'], typed)}"] if isinstance(s.get("items"), dict) else []
    out += ["nullable:true"] if s.get("nullable") else []
    if isinstance(s.get("properties"), dict):
        inner = [f"{k}:{schema(v, typed)}" for k, v in sorted(s["properties"].items())]
        out.append("properties:{" + ",".join(inner) + "}")
    out += [f"required:{value(s['required'])}"] if s.get("required") else []
    out += [f"type:{Q}{kind}{Q}"] if typed or kind != "STRING" else []
    return "{" + ",".join(out) + "}"


def quirks(info: ModelInfo) -> tuple[bool, bool]:
    """Where recorded bills differ from the template: (an empty description left out, a string
    parameter's type left out). Gemini 3 does the first, Gemini 2.5 the second."""
    gemini3 = info.id.startswith("gemini-3")
    return gemini3, not gemini3


def declaration(tool: Tool, info: ModelInfo) -> list[str]:
    """One function declaration as the model is shown it, in the texts tokenized apart."""
    if not framing(info):  # gemini-2.0
        return [tool.name, tool.description, *sdk_texts(tool.parameters, schema=True)]
    no_empty, untyped = quirks(info)
    described = f"description:{Q}{tool.description}{Q}," if tool.description or not no_empty else ""
    parameters = {k: v for k, v in tool.parameters.items() if k != "description" and v != {}}
    body = f"{described}parameters:{schema(parameters, not untyped)}"
    return [f"<|tool>declaration:{tool.name}{{{body}}}<tool|>"]


def call(kind: str, name: str, sent: dict, info: ModelInfo) -> list[str]:
    """A function call or response (``kind``: ``call``, ``response``) as the model is shown it."""
    if not framing(info):
        return [name, *sdk_texts(sent)]
    return [f"<|tool_{kind}>{kind}:{name}{value(sent)}<tool_{kind}|>"]


def sent(result: ToolResult) -> dict:
    """The object a function response sent: read back from the result's text, else the text as
    its ``output`` (or ``error``)."""
    try:
        whole = json.loads(result.text)
    except ValueError:
        whole = None
    return (
        whole
        if isinstance(whole, dict)
        else {"error" if result.is_error else "output": result.text}
    )


def sdk_texts(v: Any, schema: bool = False) -> list[str]:
    """The texts google-genai's ``LocalTokenizer`` counts in a value: keys and strings; in a
    schema, property names, descriptions, formats, enums and required names."""
    if isinstance(v, str):
        return [v]
    if isinstance(v, list):
        return [t for x in v for t in sdk_texts(x, schema)]
    if not isinstance(v, dict):
        return []
    if not schema:
        return [*v, *sdk_texts(list(v.values()))]
    out = [v[k] for k in ("format", "description") if isinstance(v.get(k), str)]
    out += sdk_texts([v.get("enum") or [], v.get("required") or [], v.get("items")], True)
    for key, inner in (v.get("properties") or {}).items():
        out += [key, *sdk_texts(inner, True)]
    return out


def seen(request: Request, info: ModelInfo) -> tuple[list[Seen], list[str]]:
    """What the model is shown: function declarations, then each content's framing and parts."""
    out: list[Seen] = []
    for k, tool in enumerate(request.tools):
        out += [(f"tools[{k}]", t) for text in declaration(tool, info) for t in (text, CUT)]
    names = {b.id: b.name for m in request.messages for b in m.content if isinstance(b, ToolCall)}
    for i, message in enumerate(request.messages):
        size = framing(info)
        out += [(f"messages[{i}]", Sized(size, ("framing", message.role)))] if size else []
        for j, block in enumerate(message.content):
            out += _block_seen(f"messages[{i}].content[{j}]", block, names, info)
    return out, []


def _block_seen(part: str, block: Any, names: dict[str, str], info: ModelInfo) -> list[Seen]:
    """One part: its images by size, then its texts, each tokenized on its own."""
    inner = block.content if isinstance(block, ToolResult) else [block]
    images = [b for b in inner if isinstance(b, Image)]
    out: list[Seen] = [
        (part, Sized(image_tokens(x, info.image).tokens, ("image", x.data or x.url)))
        for x in images
    ]
    texts = [block.text] if isinstance(block, Text | Reasoning) else []
    if isinstance(block, ToolCall):
        texts = call("call", block.name, block.arguments, info)
    if isinstance(block, ToolResult):
        texts = call("response", names.get(block.call_id, ""), sent(block), info)
    return out + [(part, t) for text in texts if text for t in (text, CUT)]


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
        unwritten = [w for w in UNWRITTEN if f'"{w}"' in json.dumps(tool.parameters)]
        why = f"{', '.join(unwritten)} in its parameters: not written here, so not seen"
        out[f"tools[{k}]"] = (None, why if unwritten else "function declarations: " + UNPUBLISHED)
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            if why := _why(block):
                out[f"messages[{i}].content[{j}]"] = why
    return out


UNPUBLISHED = "Google's rendering is not published"


def _why(block: object) -> tuple[int | None, str] | None:
    signature = getattr(block, "signature", None)
    if signature and signature != DUMMY:
        bound = math.ceil(PER_SIGNATURE_CHARACTER * len(signature))
        return bound, (
            f"{THINKING} (its thought signature): billed when streamed, and on Gemini 3 "
            f"within the turn; not seen here, up to {PER_SIGNATURE_CHARACTER} tokens a "
            "signature character on recorded bills"
        )
    if isinstance(block, ToolCall | ToolResult):
        return None, "function call or response: " + UNPUBLISHED
    if isinstance(block, Image):
        return None, "media: Google's per-item size, not checked against bills here"
    if isinstance(block, Text | Reasoning):
        gemma = "a Gemma control string: Gemma 4's tokenizer splits it unlike Gemma 3's"
        return (None, gemma) if differs(block.text) else None
    return None, f"{block.type}: not checked against bills"
