"""Used in lessons: 06, 12.

Prompt caching from the actual tokens: what consecutive requests share, and what it saves. A
cache serves only an exact *prefix* of the tokens the model is shown, so requests are counted
and the longest common prefix decides: OpenAI (before GPT-5.6) caches nothing below 1,024
tokens, then 128-token steps; Anthropic reads the longest prefix written before and writes up
to its last breakpoint; OpenAI from GPT-5.6 on reads only a prefix written before that ends at
a breakpoint (one implicit at each request's latest message, earlier ones staying eligible).

What it deliberately does not do: model eviction or routing misses, Anthropic's 20-block
lookback or automatic ``cache_control``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from helpers import gemma
from helpers.messages import Request
from helpers.models import ModelInfo, info_for, rates
from helpers.tokens import Count, count, token_keys
from helpers.tokens.tokenizers import encoding, encoding_name

MAX_BREAKPOINTS = 4  # Anthropic: "A maximum of 4 blocks with cache_control may be provided."


def common_prefix(a: list[object], b: list[object]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


@dataclass
class CacheBreak:
    """Where two consecutive requests stop sharing tokens."""

    shared: int  # tokens in the common prefix
    previous_total: int
    current_total: int
    part: str | None  # the part of the current request holding the first differing token
    previous_token: str | None  # that token in each request, decoded (None past the end)
    current_token: str | None

    @property
    def whole_previous_reused(self) -> bool:
        return self.shared == self.previous_total

    def __str__(self) -> str:
        if self.whole_previous_reused:
            return (
                f"the whole previous request ({self.previous_total} tokens) is a prefix of this "
                f"one; new tokens start in {self.part}"
            )
        return (
            f"shared prefix {self.shared} of {self.previous_total} tokens; breaks in {self.part}: "
            f"{self.previous_token!r} became {self.current_token!r}"
        )


def _decode(counted: Count, keys: list[object], i: int) -> str | None:
    if i >= len(keys):
        return None
    key = keys[i]
    if not isinstance(key, int):
        return f"<{key[0][0]}>" if isinstance(key, tuple) and isinstance(key[0], tuple) else "<?>"
    name = encoding_name(counted.info)
    return gemma.decode([key]) if name == "gemma3" else encoding(name).decode([key])


def cache_break(
    previous: Request, current: Request, model: str | ModelInfo | None = None
) -> CacheBreak:
    """Compare two consecutive requests token by token (``model``: default ``current.model``)."""
    info = info_for(model, current)
    before, after = count(previous, info), count(current, info)
    (a, _), (b, parts) = token_keys(before), token_keys(after)
    shared = common_prefix(a, b)
    return CacheBreak(
        shared=shared,
        previous_total=len(a),
        current_total=len(b),
        part=parts[shared] if shared < len(parts) else None,
        previous_token=_decode(before, a, shared),
        current_token=_decode(after, b, shared),
    )


def openai_cached_tokens(shared: int, min_tokens: int = 1024, step: int = 128) -> int:
    """Tokens OpenAI serves from cache for a shared prefix: 0 below the minimum, then in steps."""
    return 0 if shared < min_tokens else min_tokens + step * ((shared - min_tokens) // step)


def _dollars(usd: Decimal) -> str:
    """At least cents, and every digit the price has: 3.00, 0.30, 0.075."""
    whole, _, cents = f"{usd.normalize():f}".partition(".")
    return f"{whole}.{cents:0<2}"


def cache_terms(model: str | ModelInfo) -> list[str]:
    """The cache's terms for ``model`` in words: price of a cached token, lifetime, best effort,
    any contested figure with both sources, and any figure known only secondhand (from
    ``data/models.json`` and genai-prices)."""
    info = info_for(model)
    rule = info.cache
    if rule.get("kind", "none") == "none":
        why = rule.get("not_modelled")
        return [f"{info.id}: no prompt cache modelled" + (f": {why}" if why else "")]
    r = rates(info)
    write = f", cache write ${_dollars(r['cache_write'])}" if "cache_write" in r else ""
    contested = (rule.get("contested") or {}).items()
    secondhand = (rule.get("secondhand") or {}).items()
    return [
        f"cached input ${_dollars(r['cached_input'])} per million tokens"
        f" (uncached ${_dollars(r['input'])}"
        f"{write}); cached from {rule['min_tokens']:,} tokens",
        f"cache lifetime: {rule.get('lifetime', 'not documented')}",
        f"best effort: {rule.get('best_effort', 'no provider guarantees a hit')}",
        *(f"contested ({key} = {rule.get(key)}): {why}" for key, why in contested),
        *(f"secondhand ({key} = {rule.get(key)}): {why}" for key, why in secondhand),
    ]


def breakpoint_positions(counted: Count, marks: list[str]) -> list[int]:
    """Token positions (prefix lengths) at the end of each marked part.

    A mark is a part path (``tools``, ``messages[0]``, ``messages[3].content[1]``) or
    ``last`` (the end of the last message), ``system`` (the end of the first system message).
    """
    if len(marks) > MAX_BREAKPOINTS:
        raise ValueError(
            f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. "
            f"Found {len(marks)}."
        )
    ends: dict[str, int] = {}
    position = 0
    messages: list[str] = []
    for piece in counted.pieces:
        position += piece.n
        path = piece.part
        head = path.split(".", 1)[0]
        for name in {path, head, "tools" if head.startswith("tools") else head}:
            ends[name] = position
        if head.startswith("messages[") and head not in messages:
            messages.append(head)
    systems = counted.systems()
    aliases = {"last": messages[-1] if messages else "", "system": systems[0] if systems else ""}
    positions = []
    for mark in marks:
        target = aliases.get(mark, mark)
        if target not in ends:
            raise ValueError(f"no part {mark!r} in this request to put a cache breakpoint on")
        positions.append(ends[target])
    return sorted(set(positions))


def anthropic_turn(
    keys: list[object], breakpoints: list[int], written: list[list[object]], min_tokens: int
) -> tuple[int, int]:
    """Tokens read and written: read the longest earlier-written prefix of ``keys``, write up to
    the last breakpoint. ``written`` holds the prefixes earlier requests wrote; this turn's
    writes are appended."""
    read = 0
    for prefix in written:
        if len(prefix) > read and keys[: len(prefix)] == prefix:
            read = len(prefix)
    write = 0
    for position in breakpoints:
        if position >= min_tokens and position > read:
            written.append(keys[:position])
            write = position - read
    return read, write


def shared_prefix(counted: Count) -> int:
    """Tokens at the start of a request that every ticket shares: tools and system prompt.
    The prefix ends where the last tool definition or system message before the first other
    message ends (0 when a request has neither)."""
    position, end = 0, 0
    systems = set(counted.systems())
    for piece in counted.pieces:
        head = piece.part.split(".", 1)[0]
        if head.startswith("messages[") and head not in systems:
            break
        position += piece.n
        if head == "tools" or head.startswith("tools[") or head in systems:
            end = position
    return end


def cache_reads(
    requests: list[Request],
    counts: list[Count],
    rule: dict,
    breakpoints: list[str] | None,
    between_tickets: float | None,
    notes: list[str],
) -> list[tuple[int, int]]:
    """Per request of a ticket, the tokens read from the cache and written to it under ``rule``
    (the model's ``cache`` entry in ``data/models.json``). ``breakpoints``: Anthropic's (default
    tools, system, last), or the ones marked beside OpenAI's implicit ones (GPT-5.6 on; default
    none)."""
    kind = rule.get("kind", "none")
    if kind == "none":
        return [(0, 0)] * len(counts)
    keys = [token_keys(counted)[0] for counted in counts]
    warm: list[object] = []
    if between_tickets is None:
        notes.append("cache modelled within this ticket only: it starts cold")
    else:
        warm = _warm_prefix(counts[0], keys[0], rule, between_tickets, notes)
    if kind == "anthropic-breakpoints":
        return _anthropic_reads(requests, counts, keys, warm, rule, breakpoints)
    if kind == "openai-breakpoints":
        marks = breakpoints or []
        warm = warm if {"system", "tools"} & set(marks) else []
        return _openai_reads(counts, keys, warm, rule["min_tokens"], marks)
    # a prefix cache: each request reads what it shares with the one before it
    pairs = zip([warm, *keys[:-1]], keys, strict=True)
    shared = [common_prefix(before, now) for before, now in pairs]
    step = rule.get("step_tokens", 1)
    return [(openai_cached_tokens(n, rule["min_tokens"], step), 0) for n in shared]


def _anthropic_reads(requests, counts, keys, warm, rule, breakpoints) -> list[tuple[int, int]]:
    marked = breakpoints is None or {"tools", "system"} & set(breakpoints)
    written = [warm] if warm and marked and len(warm) >= rule["min_tokens"] else []
    out, asked = [], breakpoints if breakpoints is not None else ["tools", "system", "last"]
    for request, counted, now in zip(requests, counts, keys, strict=True):
        has_system = any(m.role == "system" for m in request.messages)
        there = {"tools": bool(request.tools), "system": has_system}
        positions = breakpoint_positions(counted, [m for m in asked if there.get(m, True)])
        out.append(anthropic_turn(now, positions, written, rule["min_tokens"]))
    return out


def _openai_reads(counts, keys, warm, minimum: int, marks: list[str]) -> list[tuple[int, int]]:
    """Reads and writes from GPT-5.6 on, as OpenAI's guide says.
    Each request has an implicit breakpoint at its latest message, plus those it marks; earlier
    requests' breakpoints stay eligible. A request reads the longest prefix written before that
    ends at one of them (no fallback to a shorter one) and writes up to its latest message."""
    written: set[tuple] = {tuple(warm)} if warm else set()
    earlier: set[int] = set()  # breakpoints of earlier requests, as positions
    out = []
    for counted, now in zip(counts, keys, strict=True):
        there = {"system": bool(counted.systems()), "tools": counted.part("tools")}
        paths = [m for m in marks if there.get(m, True)] + ["last"]
        own = {p for mark in paths for p in breakpoint_positions(counted, [mark])}
        places = sorted(p for p in own | earlier if minimum <= p <= len(now))
        read = max((p for p in places if tuple(now[:p]) in written), default=0)
        new = [p for p in sorted(own) if minimum <= p and p > read]
        written |= {tuple(now[:p]) for p in new}
        out.append((read, new[-1] - read if new else 0))
        earlier |= own
    return out


def _warm_prefix(counted, keys, rule, between_tickets: float, notes) -> list[object]:
    """The tools + system prompt the previous ticket left in the cache, if still there."""
    lifetime = rule.get("lifetime_s")
    if lifetime is None:
        notes.append("cache lifetime not documented: a prefix warm across tickets not modelled")
        return []
    if between_tickets > lifetime:
        notes.append(
            f"{between_tickets:,.0f} s between tickets > {lifetime} s cache lifetime: "
            "each ticket starts cold"
        )
        return []
    size = shared_prefix(counted)
    held = "still cached" if size >= rule["min_tokens"] else "below the cache minimum, not cached"
    notes.append(
        f"{between_tickets:,.0f} s between tickets <= {lifetime} s cache lifetime: tools and "
        f"system prompt ({size:,} tokens) {held} from the previous ticket"
    )
    return keys[:size]
