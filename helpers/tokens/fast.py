"""Used in lessons: 02, 04, 05, 06, 09, 12.

The fast path for totals: one encode per request, each message counted once per ticket.

The rule lives in ``helpers.tokens.openai_chat`` (what the model
sees) and ``helpers.tokens.seen`` (how those pieces become tokens). This module gives the same
totals faster; ``tests/test_tokens.py`` checks with hypothesis that both always agree.

- ``total(seen, encoding)``: the pieces joined into one string, with a sentinel special token
  wherever two texts are tokenized separately, and encoded in **one** call. tiktoken encodes
  the text between special tokens independently, so this is exactly ``tokenize`` minus the
  attribution of tokens to parts. Text that itself contains ``<|`` (it could look like a
  special token) takes the slow path.
- ``Counter``: a ticket resends the whole list every turn; the counter keeps each message's
  total and counts only what is new (n messages over a ticket, not n^2/2).
- ``count_total(request)``: just the total of one request (``count(...).total``, faster).

What it deliberately does not do: keep a breakdown (``helpers.tokens.count`` does), or speed up
the ``harmony`` rule (harmony drops earlier reasoning, so a message's tokens depend on what
follows it: each call there is a full count).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from helpers.messages import Message, Request
from helpers.models import ModelInfo
from helpers.tokens.breakdown import Piece
from helpers.tokens.seen import Seen, Sized, Special

__all__ = ["Counter", "count_total", "pieces", "total"]

SENTINEL = "<|endoftext|>"  # a special token both encodings have: ends a run, then subtracted
ALLOWED = frozenset({"<|start|>", "<|message|>", "<|end|>", "<|constrain|>", SENTINEL})


def total(seen: list[Seen], encoding: str) -> int:
    """Tokens of the pieces: ``sum(p.n for p in tokenize(seen, encoding))``, in one encode."""
    from helpers.tokens.encodings import encoding as load

    parts: list[str] = []
    sentinels = sized = 0
    for _, content in seen:
        if type(content) is str:  # ordinary text, the common case
            if "<|" in content:
                from helpers.tokens.seen import tokenize

                return sum(p.n for p in tokenize(seen, encoding))
            parts.append(content)
        elif isinstance(content, Special):
            parts.append(content or SENTINEL)
            sentinels += not content
        else:
            parts.append(SENTINEL)
            sentinels += 1
            sized += content.tokens
    enc = load(encoding)
    ids = enc.encode("".join(parts), allowed_special=ALLOWED, disallowed_special=())
    return len(ids) - sentinels + sized


def pieces(seen: list[Seen], encoding: str) -> list[Piece]:
    """``tokenize(seen, encoding)`` in one encode: the same tokens given to the same parts.

    The units (a framing token, a text, a run of texts tokenized as one string) are joined
    into one string, with a sentinel between two texts; one encode, then the ids are cut
    back at the framing tokens and sentinels. Only a run with several owners (system text +
    tools, a parallel call) needs offsets to share out its tokens. Consecutive pieces of one
    part are merged (fewer, longer pieces).
    """
    from helpers.tokens.encodings import encoding as load
    from helpers.tokens.encodings import split_at
    from helpers.tokens.seen import tokenize

    units: list[tuple] = []  # (part, text | Special | Sized, run of several owners or None)
    run: list[tuple[str, str]] = []
    for part, content in seen:
        if isinstance(content, str) and not isinstance(content, Special):
            if "<|" in content:
                return tokenize(seen, encoding)
            if content:
                run.append((part, content))
            continue
        if run:
            units.append(_unit(run))
            run = []
        if isinstance(content, Sized) or content:
            units.append((part, content, None))
    if run:
        units.append(_unit(run))
    enc = load(encoding)
    specials = enc._special_tokens
    strings: list[str] = []
    ends: dict[int, int] = {}  # text unit -> the id that ends its tokens (None: the end)
    last_text = None
    for k, (_, content, _) in enumerate(units):
        if isinstance(content, Sized):
            continue
        if isinstance(content, Special):
            if last_text is not None:
                ends[last_text] = specials[content]
            last_text = None
        else:
            if last_text is not None:
                strings.append(SENTINEL)
                ends[last_text] = specials[SENTINEL]
            last_text = k
        strings.append(content)
    ids = enc.encode("".join(strings), allowed_special=ALLOWED, disallowed_special=())
    out: list[Piece] = []
    part_now, ids_now = None, []
    position = 0
    for k, (part, content, several) in enumerate(units):
        if isinstance(content, Sized):
            if ids_now:
                out.append(Piece(part_now, tuple(ids_now), len(ids_now)))
            part_now, ids_now = None, []
            out.append(Piece(part, None, content.tokens, content.key))
            continue
        if isinstance(content, Special):
            groups = [(part, ids[position : position + 1])]
            position += 1
        else:
            stop = ends.get(k)
            end = ids.index(stop, position) if stop is not None else len(ids)
            groups = [(part, ids[position:end])]
            position = end + (stop == specials[SENTINEL])
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
    return out


def render(request: Request, info: ModelInfo) -> tuple[list[Piece], dict[str, str], list[str]]:
    """``openai_chat.render``, tokenized by ``pieces`` (one encode): what ``count`` uses."""
    from helpers.tokens.openai_chat import labels, render_seen

    notes: list[str] = []
    seen = render_seen(request, info, notes)
    return pieces(seen, info.encoding or "o200k_base"), labels(request), notes


def _unit(run: list[tuple[str, str]]) -> tuple:
    """One unit for a run of text: its text, and its pieces when they have several owners."""
    owner = run[0][0]
    text = run[0][1] if len(run) == 1 else "".join(t for _, t in run)
    return owner, text, None if all(part == owner for part, _ in run) else list(run)


def count_total(request: Request, model: str | ModelInfo | None = None) -> int:
    """Just the total of one request (``count(request).total``, without the breakdown)."""
    from helpers.models import info_for

    info = info_for(model, request)
    if info.counting != "openai-chat-2024":
        return Counter(info)(request)
    from helpers.tokens.openai_chat import render_seen

    return total(render_seen(request, info, []), info.encoding or "o200k_base")


@dataclass
class _State:
    info: ModelInfo
    tools: list
    tool_choice: object
    head: int  # tools, the system message carrying them, the reply priming
    system_at: int | None  # index of the message the head includes (OpenAI), or None
    messages: list[Message] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    running: int = 0  # sum(totals), kept up to date
    names: dict[str, str] = field(default_factory=dict)


class Counter:
    """Input tokens of each request of a growing conversation, reusing earlier counts.

    >>> counter = Counter("gpt-4o-mini")
    >>> [counter(r) for r in ticket]     # == [count(r).total for r in ticket]
    """

    def __init__(self, model: str | ModelInfo | None = None):
        self.model = model
        self._state: _State | None = None

    def __call__(self, request: Request) -> int:
        from helpers.models import info_for

        info = info_for(self.model, request)
        if info.counting == "harmony":
            from helpers.harmony import render_pieces

            return sum(p.n for p in render_pieces(request, info)[0])
        state = self._state
        if (
            state is None
            or state.info != info
            or state.tool_choice != request.tool_choice
            or state.tools != request.tools
        ):
            state = self._state = _start(request, info)
        old, new = state.messages, request.messages
        keep = len(old)
        if new[:keep] != old:  # a C loop that checks identity first: fast when appended to
            keep = 0
            limit = min(len(old), len(new))
            while keep < limit and (old[keep] is new[keep] or old[keep] == new[keep]):
                keep += 1
        carrier = _system_at(request, info)
        if carrier != state.system_at or (carrier is not None and carrier >= keep):
            state = self._state = _start(request, info)
            keep = 0
        if keep < len(old):
            state.running -= sum(state.totals[keep:])
            del state.messages[keep:], state.totals[keep:]
            state.names = {c.id: c.name for m in state.messages for c in m.tool_calls}
        for i in range(keep, len(new)):
            message = new[i]
            state.names.update((c.id, c.name) for c in message.tool_calls)
            state.messages.append(message)
            tokens = 0 if i == carrier else _message_total(info, i, message, state.names)
            state.totals.append(tokens)
            state.running += tokens
        return state.head + state.running


def _start(request: Request, info: ModelInfo) -> _State:
    carrier = _system_at(request, info)
    if info.counting == "openai-chat-2024":
        import helpers.tokens.openai_chat as openai_chat

        seen = openai_chat.priming_seen(request, [])
        if carrier is not None:  # the system message with the tools appended
            system = request.messages[carrier]
            seen = openai_chat.system_seen("system", system, request.tools) + seen
        elif request.tools:
            seen = openai_chat.tools_seen(request.tools) + seen
        head = total(seen, info.encoding or "o200k_base")
    else:
        from helpers.tokens.estimate import tool_pieces

        head = sum(p.n for p in tool_pieces(request, info, {}, []))
    return _State(info, list(request.tools), request.tool_choice, head, carrier)


def _system_at(request: Request, info: ModelInfo) -> int | None:
    if info.counting != "openai-chat-2024":
        return None
    from helpers.tokens.openai_chat import system_at

    return system_at(request)


def _message_total(info: ModelInfo, i: int, message: Message, names: dict[str, str]) -> int:
    if info.counting == "openai-chat-2024":
        from helpers.tokens.openai_chat import message_seen

        return total(message_seen(i, message, names, info, []), info.encoding or "o200k_base")
    from helpers.tokens.estimate import message_pieces

    return sum(p.n for p in message_pieces(0, message, info, {}))
