"""Used in lessons: 02, 04, 05, 06, 09, 12.

The breakdown in one encode: the same tokens given to the same parts as the readable rule.

``helpers.tokens.tokenize`` encodes the rule's pieces one run of text at a time: easy to
follow, but a long conversation is thousands of short calls. ``pieces`` joins all the units (a
framing token, a run of text, a whole plain message written by ``standin.fast_count.plain``)
into one string, with a sentinel between two texts that are tokenized separately, encodes it
**once**, and cuts the ids back at the framing tokens and sentinels. tiktoken encodes the text
between special tokens independently, so the cut-back tokens are exactly the rule's.
``tests/test_tokens.py`` checks with hypothesis that both give the same tokens, in the same
order, to the same parts.

What it deliberately does not do: decide what the model sees (``openai_chat`` does), or give
a different cut of the same tokens a meaning: consecutive tokens of one part are merged into
one piece, the only difference from ``tokenize``.
"""

from __future__ import annotations

from typing import Any

from helpers.messages import Request
from helpers.models import ModelInfo, encoding_name, info_for
from helpers.tokens import Count, Piece, Row, count, counted, rows_from_pieces
from helpers.tokens.seen import Seen, Special
from standin.fast_count import ALLOWED, SENTINEL, Framed, fast_seen, is_plain, unframe

__all__ = ["breakdown", "count_fast", "pieces"]


def count_fast(request: Request, model: str | ModelInfo | None = None) -> Count:
    """``helpers.tokens.count(request, model)``, the OpenAI breakdown cut from one encode."""
    info = info_for(model, request)
    if info.counting != "openai-chat-2024":
        return count(request, info)
    found, rows, notes = breakdown(request, info)
    fast = counted(request, info, found, notes)
    fast.rows = rows  # written as the pieces were cut: what Count.rows would group them into
    return fast


def breakdown(request: Request, info: ModelInfo) -> tuple[list[Piece], list[Row], list[str]]:
    """Pieces, breakdown rows and notes of one request: what ``count`` shows, in one encode.

    The rows are ``rows_from_pieces(pieces, labels(request, info))``; a plain message's three rows
    (its total, its framing, its text) are written as its pieces are cut, and only the other
    parts are grouped by ``rows_from_pieces``. A part's pieces never straddle a plain message
    (each message is contiguous, the tools sit before or inside the first system message).
    """
    from helpers.tokens.openai_chat import labels, system_at

    notes: list[str] = []
    seen = fast_seen(request, info, notes)
    encoding = encoding_name(info)
    units = _units(seen)
    if units is None:  # some text looks like a framing token: the rule's own way
        from helpers.tokens import tokenize

        done = tokenize(unframe(seen), encoding)
        return done, rows_from_pieces(done, labels(request, info)), notes
    carrier = system_at(request)  # rendered by the rule (it carries the tools), so labelled
    carrier = request.messages[carrier] if carrier is not None else None
    named = _labels(request, skip=lambda message: message is not carrier and is_plain(message))
    rows: list[Row] = []
    return _cut(units, encoding, rows, named), rows, notes


def pieces(seen: list[Seen], encoding: str) -> list[Piece]:
    """``tokenize(seen, encoding)`` in one encode: the same tokens given to the same parts.

    Only a run of text with several owners (system text + tools, a parallel call) needs
    offsets to share out its tokens; a ``Framed`` message is cut at its own framing tokens.
    """
    from helpers.tokens import tokenize

    units = _units(seen)
    if units is None:  # some text looks like a framing token: the rule's own way
        return tokenize(unframe(seen), encoding)
    return _cut(units, encoding, None, {})


def _labels(request: Request, skip: Any) -> dict[str, str]:
    """``openai_chat.labels(request)`` without the messages ``skip(message)`` is true of (the
    breakdown labels plain messages itself, as it cuts them)."""
    from helpers.tokens.openai_chat import block_label, call_names

    names = call_names(request)
    out = {"priming": "reply priming"}
    if request.tools:
        out["tools"] = f"{len(request.tools)} tool definitions"
        out.update({f"tools[{k}]": t.name for k, t in enumerate(request.tools)})
    for i, message in enumerate(request.messages):
        if skip(message):
            continue
        out[f"messages[{i}]"] = message.role + (f" ({message.name})" if message.name else "")
        for j, block in enumerate(message.content):
            out[f"messages[{i}].content[{j}]"] = block_label(block, names)
    return out


def _units(seen: list[Seen]) -> list[tuple] | None:
    """(part, text | Special | Sized | Framed, owners of a shared run or None); None: slow path."""
    units: list[tuple] = []
    run: list[tuple[str, str]] = []
    for part, content in seen:
        kind = type(content)
        if kind is str:
            if "<|" in content:
                return None
            if content:
                run.append((part, content))
            continue
        if run:
            units.append(_unit(run))
            run = []
        if kind is not Special or content:  # a framing token, an image, a plain message
            units.append((part, content, None))
    if run:
        units.append(_unit(run))
    return units


def _unit(run: list[tuple[str, str]]) -> tuple:
    """One unit for a run of text: its text, and its pieces when they have several owners."""
    owner = run[0][0]
    if len(run) == 1:
        return owner, run[0][1], None
    text = "".join(t for _, t in run)
    return owner, text, None if all(part == owner for part, _ in run) else list(run)


def _joined(units: list[tuple], specials: dict[str, int]) -> tuple[list[str], dict[int, int]]:
    """The strings to encode, and for each text unit the id that ends its tokens."""
    strings: list[str] = []
    ends: dict[int, int] = {}  # text unit -> the id that ends its tokens (absent: the end)
    last_text = None
    for k, (_, content, _) in enumerate(units):
        kind = type(content)
        if kind is str:
            if last_text is not None:  # two texts tokenized separately: a sentinel between
                strings.append(SENTINEL)
                ends[last_text] = specials[SENTINEL]
            last_text = k
        elif kind is Special or kind is Framed:
            if last_text is not None:
                ends[last_text] = specials["<|start|>" if kind is Framed else content]
            last_text = None
        else:  # an image: no text, no boundary of its own in the string
            continue
        strings.append(content)
    return strings, ends


def _cut(units: list[tuple], encoding: str, rows: list[Row] | None, labels: dict) -> list[Piece]:
    """Encode the units once and cut the ids back into pieces (consecutive tokens of one part
    merged); append the breakdown rows to ``rows`` (None: no rows)."""
    from helpers.models import encoding as load
    from helpers.models import split_at

    enc = load(encoding)
    specials = enc._special_tokens
    strings, ends = _joined(units, specials)
    ids = tuple(enc.encode("".join(strings), allowed_special=ALLOWED, disallowed_special=()))
    sentinel, message, end_id = specials[SENTINEL], specials["<|message|>"], specials["<|end|>"]
    new = tuple.__new__  # Piece(...), Row(...) minus the named tuple's own __new__: 1/4 faster here
    out: list[Piece] = []
    part_now, ids_now = None, []
    position = grouped = 0  # grouped: pieces out[:grouped] have their rows
    for k, (part, content, several) in enumerate(units):
        kind = type(content)
        if kind is not str and kind is not Special:  # an image or a plain message
            if ids_now:
                out.append(Piece(part_now, tuple(ids_now), len(ids_now)))
                part_now, ids_now = None, []
            if kind is Framed:  # <|start|>role<|message|>text<|end|>: cut at its own tokens
                if rows is not None and grouped < len(out):
                    rows += rows_from_pieces(out[grouped:], labels)
                body = ids.index(message, position) + 1
                stop = ids.index(end_id, body) + 1
                text = stop - 1 - body
                if text:
                    inner = f"{part}.content[0]"
                    out += [
                        new(Piece, (part, ids[position:body], body - position, None)),
                        new(Piece, (inner, ids[body : stop - 1], text, None)),
                        new(Piece, (part, ids[stop - 1 : stop], 1, None)),
                    ]
                else:
                    out.append(new(Piece, (part, ids[position:stop], stop - position, None)))
                if rows is not None:
                    role = content[9 : content.index("<|message|>")]  # after "<|start|>"
                    rows.append(new(Row, (part, role, stop - position, 0)))
                    if text:
                        rows.append(new(Row, (part, "framing", stop - position - text, 1)))
                        rows.append(new(Row, (inner, "text", text, 1)))
                position, grouped = stop, len(out)
            else:
                out.append(Piece(part, None, content.tokens, content.key))
            continue
        if kind is Special:
            groups = [(part, ids[position : position + 1])]
            position += 1
        else:
            stop = ends.get(k)
            end = ids.index(stop, position) if stop is not None else len(ids)
            groups = [(part, ids[position:end])]
            position = end + (stop == sentinel)
            if several is not None:  # several owners: share the run's tokens out by offset
                cuts, at = [], 0
                for _, piece_text in several[:-1]:
                    at += len(piece_text)
                    cuts.append(at)
                owners = [owner for owner, _ in several]
                groups = list(zip(owners, split_at(encoding, content, cuts), strict=True))
        for owner, owned in groups:
            if owner != part_now:
                if ids_now:
                    out.append(Piece(part_now, tuple(ids_now), len(ids_now)))
                part_now, ids_now = owner, []
            ids_now.extend(owned)
    if ids_now:
        out.append(Piece(part_now, tuple(ids_now), len(ids_now)))
    if rows is not None:
        rows += rows_from_pieces(out[grouped:], labels)
    return out
