"""Used in lessons: 02, 04, 05, 06, 09, 12.

The fast path for totals: one encode per request, each message counted once per ticket.

The rule lives in ``helpers.tokens.openai_chat`` (what the model sees) and
``helpers.tokens.tokenize`` (how those pieces become tokens). This module gives the
same totals faster; ``tests/test_tokens.py`` checks with hypothesis that both always agree.

- ``total(seen, encoding)``: the pieces joined into one string, with a sentinel special token
  wherever two texts are tokenized separately, and encoded in **one** call. tiktoken encodes
  the text between special tokens independently, so this is exactly ``tokenize`` minus the
  attribution of tokens to parts. Text that itself contains ``<|`` (it could look like a
  special token) takes the slow path.
- ``plain``: why the fast path is fast on a long conversation. Most messages are one block of
  text with no name, and the rule renders every such message the same way:
  ``<|start|>{role}<|message|>{text}<|end|>``. Building that as five pieces and then joining
  them again is most of the Python work per message; ``plain`` writes it as one ``Framed``
  string instead (the same text, so the same tokens), and every other message goes through
  the rule's pieces. Both framing tokens fence it off, so its text never runs into a
  neighbour's.
- ``Counter``: a ticket resends the whole list every turn; the counter keeps each message's
  total and counts only what is new (n messages over a ticket, not n^2/2).
- ``count_total(request)``: just the total of one request (``count(...).total``, faster).

The breakdown in one encode is ``standin.fast_breakdown``. What this module deliberately
does not do: keep a breakdown, or speed up the ``harmony`` rule (harmony drops earlier
reasoning, so a message's tokens depend on what follows it: each call there is a full count).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from helpers.messages import Message, Request, Text
from helpers.models import ModelInfo, encoding_name
from helpers.tokens.seen import Seen, Special

__all__ = ["Counter", "Framed", "count_total", "fast_seen", "is_plain", "plain", "total"]

SENTINEL = "<|endoftext|>"  # a special token both encodings have: ends a run, then subtracted
ALLOWED = frozenset({"<|start|>", "<|message|>", "<|end|>", "<|constrain|>", SENTINEL})
PLAIN_ROLES = frozenset({"system", "user", "assistant"})


class Framed(str):
    """A whole message already written with its framing tokens (``plain``): its text is
    ``<|start|>{role}<|message|>{text}<|end|>``, and those three names are framing tokens."""


def plain(
    i: int, message: Message, names: dict[str, str], info: ModelInfo, notes: list[str]
) -> list[Seen]:
    """``openai_chat.message_seen``, with a plain text message (``is_plain``) written as one
    ``Framed`` string. Anything else is left to the rule."""
    if is_plain(message):
        text = f"<|start|>{message.role}<|message|>{message.content[0].text}<|end|>"
        return [(f"messages[{i}]", Framed(text))]
    from helpers.tokens.openai_chat import message_seen

    return message_seen(i, message, names, info, notes)


def is_plain(message: Message) -> bool:
    """A system, user or assistant message with no name and one text block that cannot look
    like a framing token: the rule renders it ``<|start|>{role}<|message|>{text}<|end|>``."""
    content = message.content
    return (
        len(content) == 1
        and type(content[0]) is Text
        and not message.name
        and message.role in PLAIN_ROLES
        and "<|" not in content[0].text
    )


def fast_seen(request: Request, info: ModelInfo, notes: list[str]) -> list[Seen]:
    """``openai_chat.request_seen`` with plain messages written as ``Framed`` strings."""
    from helpers.tokens import openai_chat as rule

    names, carrier = rule.call_names(request), rule.system_at(request)
    seen = rule.tools_seen(request.tools) if request.tools and carrier is None else []
    for i, message in enumerate(request.messages):
        if i == carrier:
            seen += rule.system_seen(f"messages[{i}]", message, request.tools)
            continue
        found: list[str] = []
        seen += plain(i, message, names, info, found)
        notes += [f"messages[{i}]: {n}" for n in found]
    return seen + rule.priming_seen(request, notes)


def total(seen: list[Seen], encoding: str) -> int:
    """Tokens of the pieces: ``sum(p.n for p in tokenize(seen, encoding))``, in one encode.

    ``seen`` may hold ``Framed`` messages (``fast_seen``) or only the rule's pieces.
    """
    from helpers.models import encoding as load

    parts: list[str] = []
    sentinels = sized = 0
    for _, content in seen:
        kind = type(content)
        if kind is str:  # ordinary text, the common case
            if "<|" in content:
                return _slow_total(seen, encoding)
            parts.append(content)
        elif kind is Framed:
            parts.append(content)
        elif kind is Special:
            parts.append(content or SENTINEL)
            sentinels += not content
        else:
            parts.append(SENTINEL)
            sentinels += 1
            sized += content.tokens
    enc = load(encoding)
    ids = enc.encode("".join(parts), allowed_special=ALLOWED, disallowed_special=())
    return len(ids) - sentinels + sized


def _slow_total(seen: list[Seen], encoding: str) -> int:
    """The rule's own tokenizer, one run at a time (text that looks like a framing token)."""
    from helpers.tokens import tokenize

    return sum(p.n for p in tokenize(unframe(seen), encoding))


def unframe(seen: list[Seen]) -> list[Seen]:
    """``Framed`` messages back into the rule's pieces (for the slow path)."""
    out: list[Seen] = []
    for part, content in seen:
        if type(content) is not Framed:
            out.append((part, content))
            continue
        head, _, rest = content.partition("<|message|>")
        text = rest.removesuffix("<|end|>")
        start, message, end = (Special(n) for n in ("<|start|>", "<|message|>", "<|end|>"))
        role = head.removeprefix("<|start|>")
        out += [(part, start), (part, role), (part, message), (f"{part}.content[0]", text)]
        out.append((part, end))
    return out


def count_total(request: Request, model: str | ModelInfo | None = None) -> int:
    """Just the total of one request (``count(request).total``, without the breakdown)."""
    from helpers.models import info_for

    info = info_for(model, request)
    if info.counting != "openai-chat-2024":
        return Counter(info)(request)
    return total(fast_seen(request, info, []), encoding_name(info))


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
            from helpers.tokens import count

            return count(request, info).total
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
        head = total(seen, encoding_name(info))
    else:
        from helpers.tokens import tokenize
        from helpers.tokens.estimate import tool_seen

        head = sum(p.n for p in tokenize(tool_seen(request, info, []), encoding_name(info)))
    return _State(info, list(request.tools), request.tool_choice, head, carrier)


def _system_at(request: Request, info: ModelInfo) -> int | None:
    if info.counting != "openai-chat-2024":
        return None
    from helpers.tokens.openai_chat import system_at

    return system_at(request)


def _message_total(info: ModelInfo, i: int, message: Message, names: dict[str, str]) -> int:
    if info.counting == "openai-chat-2024":
        return total(plain(i, message, names, info, []), encoding_name(info))
    from helpers.tokens import tokenize
    from helpers.tokens.estimate import message_seen

    return sum(p.n for p in tokenize(message_seen(0, message, info), encoding_name(info)))
