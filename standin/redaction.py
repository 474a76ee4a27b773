"""Redaction: the keys a request carries never reach a record, a dump, a log or a page.

Redaction works on *decoded* values, where a key is whole, not on the bytes as sent:

- headers by name: any header whose name has a part like ``key``, ``token``, ``secret``,
  ``auth...``, ``cookie``, ``password`` (``Authorization``, ``x-api-key``, ``X-Custom-Auth-Token``)
  is redacted whatever its value (a ``Bearer`` scheme stays visible);
- query parameters by name, case-insensitively (``?key=``, ``?api_key=``, ``?KEY=``), their
  values percent-decoded first;
- JSON bodies string by string, *after* decoding: ``"sk\\u002dproj-..."`` is the same key as
  ``"sk-proj-..."``;
- streams after joining their text: a key cut across two deltas (``"sk-pr"``, ``"oj-..."``) is
  found in the joined text and removed from every piece that carries part of it.

In free text only real key *shapes* are redacted: ``sk-`` then 20 or more letters, digits, ``-``
or ``_`` mixing letters and digits (OpenAI and Anthropic keys), and ``AIza`` then 20 or more
(Google's have 35). So ``sk-learn-extra`` (a package), ``sk-100200300`` (an SKU) and
``?key=price`` inside a pasted URL stay as they are.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, unquote_plus

__all__ = [
    "REDACTED",
    "is_secret_name",
    "redact",
    "redact_body",
    "redact_headers",
    "redact_path",
]

REDACTED = "<redacted>"
_KEY_SHAPE = re.compile(r"(?<![A-Za-z0-9_-])(?:sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{20,})")
# a part of a header or parameter name (split at - _ . and spaces) that names a credential;
# "token" singular only: x-ratelimit-remaining-tokens is a count, not a secret
_SECRET_PART = re.compile(
    r"(?:api)?key|[a-z]*token|secrets?|auth[a-z]*|cookie|passw(?:or)?d|credentials?|sig(?:nature)?",
    re.IGNORECASE,
)
_TEXT_KEYS = {"text", "content", "arguments", "partial_json", "thinking", "delta", "refusal"}


def _is_key(candidate: str) -> bool:
    body = candidate[3:] if candidate.startswith("sk-") else candidate[4:]
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


def redact(text: str) -> str:
    """Replace every real key shape in ``text`` (look-alikes such as ``sk-learn-extra`` stay)."""
    if "sk-" not in text and "AIza" not in text:
        return text
    return _KEY_SHAPE.sub(lambda m: REDACTED if _is_key(m.group()) else m.group(), text)


def is_secret_name(name: str) -> bool:
    """True for a header or parameter name that names a credential (``x-api-key``, ``KEY``)."""
    return any(_SECRET_PART.fullmatch(part) for part in re.split(r"[-_.\s]+", name.strip()))


def redact_headers(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Headers with every credential replaced; a ``Bearer``/``Basic`` scheme stays visible."""
    out = []
    for name, value in headers:
        if is_secret_name(name) and value:
            scheme, _, rest = value.partition(" ")
            shown = scheme + " " if rest and scheme.lower() in ("bearer", "basic", "token") else ""
            value = shown + REDACTED
        out.append((name, redact(value)))
    return out


def redact_path(path: str) -> str:
    """A request target with secret query parameters (by name, any case) and key shapes hidden."""
    base, sep, query = path.partition("?")
    if not sep:
        return redact(base)
    pairs = []
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        decoded = unquote_plus(value)
        if eq and is_secret_name(unquote_plus(name)) and decoded:
            value = REDACTED
        elif redact(decoded) != decoded:
            value = quote(redact(decoded), safe="<>")
        pairs.append(name + eq + value)
    return redact(base) + "?" + "&".join(pairs)


def _strings(value: Any, out: list[tuple[Any, Any, str]], text_only: bool) -> None:
    """Every string leaf, in document order, as (container, key, string): where to write a
    redacted version back. ``text_only``: only the fields that carry streamed text."""
    stack = [iter(value.items() if isinstance(value, dict) else enumerate(value))]
    nodes = [value]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            nodes.pop()
            continue
        key, item = step
        node = nodes[-1]
        if isinstance(item, str):
            if not text_only or (isinstance(node, dict) and key in _TEXT_KEYS):
                out.append((node, key, item))
        elif isinstance(item, dict | list):
            stack.append(iter(item.items() if isinstance(item, dict) else enumerate(item)))
            nodes.append(item)


def _redact_json(text: str) -> str | None:
    """A JSON text with every key-shaped string value or name redacted after decoding; None
    when nothing needed it (the bytes then stay exactly as they were)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict | list):
        return None
    leaves: list[tuple[Any, Any, str]] = []
    _strings(value, leaves, text_only=False)
    changed = False
    for node, key, string in leaves:
        if redact(string) != string:
            node[key] = redact(string)
            changed = True
    return json.dumps(value, ensure_ascii=False) if changed else None


def _redact_stream(text: str) -> str:
    """SSE text: each event's JSON redacted, then the streamed text joined across events and
    any key found in the joined text removed from every piece carrying part of it."""
    blocks = re.split(r"(\r?\n\r?\n)", text)
    events: list[tuple[int, str, str, Any]] = []  # (block index, head, data, parsed)
    for i, block in enumerate(blocks):
        head, sep, data = block.partition("data:")
        if not sep:
            continue
        data = data.strip()
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError):
            blocks[i] = head + "data: " + redact(data)
            continue
        if isinstance(parsed, dict | list):
            events.append((i, head, data, parsed))
    pieces: list[tuple[Any, Any, str]] = []
    for _, _, _, parsed in events:
        _strings(parsed, pieces, text_only=True)
    joined, starts, position = "", [], 0
    for _, _, string in pieces:
        starts.append(position)
        joined += string
        position += len(string)
    for match in reversed(list(_KEY_SHAPE.finditer(joined))):
        if not _is_key(match.group()):
            continue
        first = True
        for (node, key, string), start in zip(pieces, starts, strict=True):
            lo, hi = max(match.start(), start), min(match.end(), start + len(string))
            if lo >= hi:
                continue
            current = node[key]
            node[key] = current[: lo - start] + (REDACTED if first else "") + current[hi - start :]
            first = False
    for i, head, data, parsed in events:
        leaves: list[tuple[Any, Any, str]] = []
        _strings(parsed, leaves, text_only=False)
        for node, key, string in leaves:  # whole keys in any other field (ids, names...)
            node[key] = redact(string)
        redone = json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))
        if json.loads(data) != parsed:
            blocks[i] = head + "data: " + redone
    return "".join(blocks)


def redact_body(body: bytes, content_type: str = "") -> bytes:
    """A request or response body with its keys redacted, decoded first (see the docstring).

    Bytes with no key in them are returned unchanged, so the record stays byte-exact.
    """
    text = body.decode("utf-8", errors="replace")
    if "event-stream" in content_type or text.lstrip().startswith(("data:", "event:")):
        redone = _redact_stream(text)
    else:
        redone = _redact_json(text) if text.lstrip()[:1] in ("{", "[") else None
        redone = redact(redone if redone is not None else text)
    return body if redone == text else redone.encode("utf-8")
