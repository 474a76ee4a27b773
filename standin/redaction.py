"""Redaction: the keys a request carries never reach a record, a dump, a log or a page.

Two rules, both applied to every output (records, cards, logs, terminal lines):

**By value.** Every secret the process knows is removed wherever it appears: the keys of the
forwarder and of the environment (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``,
``GOOGLE_API_KEY``, and what :func:`add_secret` registered), plus, per exchange, the values of
the request's secret-named headers (``Authorization`` after its scheme, ``x-api-key``, a
``Basic`` pair decoded, each cookie) and secret-named query parameters (:func:`secrets_of`).
A value is found in every encoding it can take: raw, JSON-escaped (``\\u002d``, ``\\/``, even
escaped twice), percent-encoded (also twice), Python's ``\\x..``, HTML entities, base64 (any
alignment), UTF-16; and in streams, cut across events, across two ``data:`` lines of one event,
across the interleaved deltas of ``n=2`` choices, or across the elements of a Gemini stream sent
as one JSON array. A value shorter than :data:`MIN_SECRET` (8) characters, or only whitespace, is
**not** redacted by value (it would wipe ordinary words, or every indented line); its header is
still redacted by name. A credential is taken both as sent after its scheme and trimmed
(``Bearer  00000Aa`` carries `` 00000Aa``, 8 characters: redacted; ``00000Aa`` alone, 7, is
not). The public local placeholder ``sk-local-on-the-wire`` is not a secret. A secret whose
spellings overlap (a backslash, ``%``, ``&``) is found by a one-pass scan (linear in the text),
not by a backtracking pattern (a client's key of backslashes must not hang the server).

**By name and shape.** Headers whose name has a part like ``key``, ``token``, ``secret``,
``auth...``, ``cookie``, ``password`` are redacted whatever their value (a ``Bearer`` scheme stays
visible); query parameters by name, case-insensitively (``?key=``, ``?api_key=``). In free text
only strong key *shapes* are redacted: ``sk-`` then 20 or more letters, digits, ``-`` or ``_``
with a random-looking run (12 or more characters mixing letters and digits, or 24 or more mixing
cases) between its hyphens, and ``AIza`` then 20 or more mixing letters and digits; and a URL's
password (``https://user:<redacted>@host``). So ``sk-2024-black-headphones-xl`` (a product code:
words joined by hyphens), ``sk-learn-extra`` and ``sk-100200300`` stay as they are.

Everything is replaced *in place* in the text as it was (the first piece of a key with
:data:`REDACTED`, the other pieces of a cut key with nothing), so a record stays byte-exact
except where a key was, and JSON stays JSON. What it does not do: find a key it neither knows
nor recognises by shape, or a known key encrypted, compressed or spelled out.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import functools
import heapq
import json
import os
import re
import threading
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote, unquote_plus

__all__ = [
    "MIN_SECRET",
    "REDACTED",
    "add_secret",
    "is_secret_name",
    "known_secrets",
    "redact",
    "redact_body",
    "redact_headers",
    "redact_path",
    "redact_value",
    "secrets_of",
]

REDACTED = "<redacted>"
#: Shorter values are not redacted by value (``Bearer local`` must not wipe "local" everywhere).
MIN_SECRET = 8
#: Public placeholders, shown in the lessons and the banner: never secrets.
PLACEHOLDERS = frozenset({"sk-local-on-the-wire"})
#: Environment variables whose values are secrets wherever they show.
ENV_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")

_KEY_SHAPE = re.compile(r"(?<![A-Za-z0-9_-])(?:sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{20,})")
# a part of a header or parameter name (split at - _ . and spaces) that names a credential;
# "token" singular only: x-ratelimit-remaining-tokens is a count, not a secret
_SECRET_PART = re.compile(
    r"(?:api)?key|[a-z]*token|secrets?|auth[a-z]*|cookie|passw(?:or)?d|credentials?|sig(?:nature)?",
    re.IGNORECASE,
)
_USERINFO = re.compile(r"(?<=://)([^/\s@:\"'<>\\]*):([^/\s@\"'<>\\]+)(?=@)")
# the fields that carry streamed text: their pieces are joined before searching
_TEXT_KEYS = {"text", "content", "arguments", "partial_json", "thinking", "delta", "refusal"}
_INDEX_NAMES = {"index", "output_index", "content_index", "summary_index"}
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([\"\\/bfnrt]))")
_SHORT = {'"': '"', "\\": "\\", "/": "/", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t"}
_UNSHORT = {v: k for k, v in _SHORT.items()}
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)
_EVENT_END = re.compile(r"\r\n\r\n|\n\n|\r\r")
_DATA_LINE = re.compile(r"^data:[ ]?([^\r\n]*)", re.M)

_registered: set[str] = set()
_registered_lock = threading.Lock()


# --- which values are secret -------------------------------------------------------------------


def _forms(value: str) -> set[str]:
    """The value and its trimmed form (a key ending in ``\\r``), the short ones left out, and
    those only of whitespace (``Bearer`` then 8 spaces would wipe every indented line)."""
    forms = {value, value.strip()}
    public = PLACEHOLDERS  # "Bearer sk-local-on-the-wire" is no secret either
    return {
        f for f in forms if len(f) >= MIN_SECRET and f.strip() and not any(p in f for p in public)
    }


def add_secret(*values: str) -> None:
    """Register values as secrets of this process (the forwarder's keys): redacted everywhere."""
    with _registered_lock:
        for value in values:
            if isinstance(value, str):
                _registered.update(_forms(value))


def known_secrets(extra: Iterable[str] = ()) -> frozenset[str]:
    """The process's secrets (registered, and the key variables now set) plus ``extra``."""
    with _registered_lock:
        found = set(_registered)
    for name in ENV_KEYS:
        found |= _forms(os.environ.get(name, ""))
    for value in extra:
        found |= _forms(value)
    return frozenset(found)


def is_secret_name(name: str) -> bool:
    """True for a header or parameter name that names a credential (``x-api-key``, ``KEY``)."""
    return any(_SECRET_PART.fullmatch(part) for part in re.split(r"[-_.\s]+", name.strip()))


def secrets_of(headers: Iterable[tuple[str, str]], path: str = "") -> frozenset[str]:
    """The secret values one request carries: its secret-named headers' values (after a
    scheme; a ``Basic`` pair decoded; each cookie) and secret-named query parameters'."""
    found: set[str] = set()
    for name, value in headers:
        if not is_secret_name(name) or not isinstance(value, str):
            continue
        found.add(value)
        # the credential exactly as sent after the scheme's one space, and trimmed: a key with a
        # leading or trailing space ("Bearer  00000Aa" carries " 00000Aa", 8 characters) was
        # lost when only its trimmed form ("00000Aa", 7: too short) was kept
        for sent in (value, value.strip()):
            found |= {sent.partition(" ")[2], sent.partition(" ")[2].strip()}
        scheme, _, rest = value.strip().partition(" ")
        if scheme.lower() == "basic":
            try:
                pair = base64.b64decode(rest.strip(), validate=True).decode("utf-8")
            except (binascii.Error, ValueError):
                pair = ""
            found |= {pair, *pair.split(":", 1)}
        for cookie in value.split(";"):
            found.add(cookie.partition("=")[2].strip())
    for pair in path.partition("?")[2].split("&"):
        name, eq, value = pair.partition("=")
        if eq and is_secret_name(unquote_plus(name)):
            found |= {unquote_plus(value), unquote(value)}
    return frozenset(f for v in found for f in _forms(v))


# --- how a value can be spelled -----------------------------------------------------------------


def _ci(hex_digits: str) -> str:
    return f"(?i:{hex_digits})"


def _char(c: str) -> str:
    """Every spelling of one character: itself, JSON and Python escapes (backslashes doubled
    up to four), percent-encoded (up to four times), an HTML entity, ``+`` for a space."""
    return "(?:" + "|".join(_spellings(c)) + ")"


def _spellings(c: str) -> list[str]:
    """:func:`_char`'s alternatives, one pattern each."""
    o = ord(c)
    alts = [re.escape(c)]
    if o < 0x10000:
        alts.append(r"\\{1,4}u" + _ci(f"{o:04x}"))
    else:
        wide = c.encode("utf-16-be").hex()
        high, low = wide[:4], wide[4:]
        alts.append(r"\\{1,4}u" + _ci(high) + r"\\{1,4}u" + _ci(low))
    if c in _SHORT:
        alts.append(r"\\{1,4}" + re.escape(_SHORT[c]))
    if o < 0x100:
        alts.append(r"\\{1,4}x" + _ci(f"{o:02x}"))
    utf8 = c.encode("utf-8", "surrogatepass")
    alts.append("".join("%(?:25){0,3}" + _ci(f"{b:02x}") for b in utf8))
    alts.append(f"&#(?:0{{0,6}}{o}|[xX]0{{0,6}}{_ci(f'{o:x}')});")
    named = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}
    if c in named:
        alts.append(re.escape(named[c]))
    if c == " ":
        alts.append(r"\+")
    return alts


def _base64_cores(secret: str) -> set[str]:
    """The part of the value's base64 that does not depend on its neighbours, at each of the
    three alignments, standard and URL-safe alphabets."""
    raw, cores = secret.encode("utf-8", "surrogatepass"), set()
    for pad in range(3):
        encoded = base64.b64encode(b"\0" * pad + raw).decode()
        core = encoded[(8 * pad + 5) // 6 : (8 * (pad + len(raw))) // 6]
        if len(core) >= MIN_SECRET:
            cores |= {core, core.replace("+", "-").replace("/", "_")}
    return cores


def _spelled_shape() -> re.Pattern[str]:
    """The key shapes with each character in any spelling (the tail: key characters only)."""
    hexes = "(?i:3[0-9]|4[1-9a-f]|5[0-9af]|6[1-9a-f]|7[0-9a]|2d)"  # 0-9 A-Z _ a-z -
    tail = rf"(?:[A-Za-z0-9_-]|\\{{1,4}}+u00{hexes}|\\{{1,4}}+x{hexes}|%(?:25){{0,3}}{hexes})"
    starts = ["".join(_char(c) for c in start) for start in ("sk-", "AIza")]
    return re.compile(rf"(?<![A-Za-z0-9_-])(?:{'|'.join(starts)}){tail}{{20,}}")


#: Characters whose spellings overlap (``\\`` is 1 to 5 backslashes, ``%`` also ``%25``...,
#: ``&`` also ``&amp;``): a secret holding one is matched by :class:`_Spelled`, not by ``re``.
_AMBIGUOUS = frozenset("\\%&")


@functools.lru_cache(maxsize=128)
def _value_pattern(secrets: frozenset[str]) -> re.Pattern[str] | None:
    """One pattern that finds any of ``secrets`` (those without an :data:`_AMBIGUOUS`
    character) in any spelling (longest first), and every secret's base64."""
    plain = [s for s in secrets if not _AMBIGUOUS.intersection(s)]
    alts = ["".join(_char(c) for c in s) for s in sorted(plain, key=len, reverse=True)]
    cores = {core for s in secrets for core in _base64_cores(s)}
    alts += [re.escape(core) for core in sorted(cores, key=len, reverse=True)]
    return re.compile("|".join(alts)) if alts else None


class _Spelled:
    """Finds one secret in any spelling in one pass over the text, however its spellings overlap.

    Python's ``re`` backtracks: for a secret of backslashes each of which may be spelled as 1 to
    5 backslashes, a run of backslashes in a body that fails to match at its end makes it try
    every split (exponential: 40 backslashes in a client's key and a body of 200 hang the
    server). Here each character's spellings are patterns with one possible end each, and the
    text is read once, keeping for each position the set of secret prefixes that end there
    (a Thompson-style simulation): at most ``len(secret)`` states per position, so the time
    grows with the text's length times the secret's, never exponentially. It does not decode
    base64 (:func:`_value_pattern` finds that for every secret).
    """

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.steps = {c: [re.compile(a) for a in self._alternatives(c)] for c in set(secret)}
        self.masks = {c: sum(1 << k for k, x in enumerate(secret) if x == c) for c in set(secret)}
        self.first = re.compile("(?=" + _char(secret[0]) + ")")

    @staticmethod
    def _alternatives(c: str) -> list[str]:
        """The spellings of ``c``, each with one end at a given start (overlaps expanded)."""
        out = []
        for alt in _spellings(c):
            if c == "\\" and alt == r"\\{1,4}\\":
                out += [r"\\" * (n + 1) for n in range(1, 5)]
            elif c == "%" and alt.startswith("%(?:25){0,3}"):
                out += ["%" + "(?:25)" * n + alt[len("%(?:25){0,3}") :] for n in range(4)]
            else:
                out.append(alt)
        return out

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The stretches of ``text`` that are part of some spelling of the secret, merged.

        Bit ``k`` of a position's state says "the secret's first ``k`` characters end here";
        every state waiting for one character moves at once (a shift of the bits), so a run of
        backslashes costs the same for a key of 8 backslashes as for one of 8,000. A forward
        pass finds where a whole spelling ends, a backward pass keeps only the steps on the way
        to one; the steps kept are the characters to cut.
        """
        full = 1 << len(self.secret)
        alive: dict[int, int] = {}  # position: bits of the secret's prefixes ending there
        moves: list[tuple[int, int, int]] = []  # (from, to, mask): a spelling of one character
        heap = [m.start() for m in self.first.finditer(text)]  # ascending: already a heap
        for at in heap:
            alive[at] = 1
        while heap:
            at = heapq.heappop(heap)
            bits = alive[at]
            for c, mask in self.masks.items():
                if not bits & mask:
                    continue
                for end in {m.end() for step in self.steps[c] if (m := step.match(text, at))}:
                    moves.append((at, end, mask))
                    if end not in alive:
                        alive[end] = 0
                        heapq.heappush(heap, end)
                    alive[end] |= (bits & mask) << 1
        done = {at: full for at, bits in alive.items() if bits & full}  # a whole spelling ends
        if not done:
            return []
        kept = []
        for at, end, mask in reversed(moves):  # moves are in ascending order of ``at``
            ahead = (done.get(end, 0) >> 1) & mask & alive[at]
            if ahead:
                done[at] = done.get(at, 0) | ahead
                kept.append((at, end))
        kept.sort()
        spans: list[tuple[int, int]] = []
        for a, b in kept:
            if spans and a <= spans[-1][1]:  # one spelling: its characters touch
                spans[-1] = (spans[-1][0], max(spans[-1][1], b))
            else:
                spans.append((a, b))
        return spans


@functools.lru_cache(maxsize=128)
def _spelled_finders(secrets: frozenset[str]) -> tuple[_Spelled, ...]:
    """A :class:`_Spelled` for each secret holding an :data:`_AMBIGUOUS` character."""
    return tuple(_Spelled(s) for s in sorted(secrets) if _AMBIGUOUS.intersection(s))


_SPELLED_SHAPE = _spelled_shape()


def _is_key(candidate: str) -> bool:
    """A real key's tail has a random-looking run; words joined by hyphens do not."""
    if candidate.startswith("AIza"):
        body = candidate[4:]
        return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
    for run in re.split(r"[-_]", candidate[3:]):
        digits, letters = any(c.isdigit() for c in run), any(c.isalpha() for c in run)
        if len(run) >= 12 and digits and letters:
            return True
        if len(run) >= 24 and any(c.isupper() for c in run) and any(c.islower() for c in run):
            return True
    return False


# --- views: a stream's events and pieces joined, each character traced back to where it was


class _View:
    """A text derived from another (``None``: the original), with where each piece came from.

    ``pieces`` are ``(start, end, parent, lo, hi, same)``: characters ``start:end`` of this text
    come from ``parent``'s ``lo:hi``, one for one when ``same``, else one character from an
    escape sequence.
    """

    def __init__(self, text: str = "") -> None:
        self._parts = [text] if text else []
        self._text: str | None = text
        self.length = len(text)
        self.pieces: list[tuple[int, int, _View | None, int, int, bool]] = []
        self.starts: list[int] = []

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "".join(self._parts)
        return self._text

    def add(self, text: str, parent: _View | None, lo: int, hi: int, same: bool) -> None:
        start = self.length
        self._parts.append(text)
        self._text = None
        self.length += len(text)
        self.pieces.append((start, self.length, parent, lo, hi, same))
        self.starts.append(start)

    def origin(self, a: int, b: int) -> list[tuple[int, int]]:
        """Where characters ``a:b`` came from in the original text, as contiguous spans."""
        if not self.pieces:
            return [(a, b)]
        out: list[tuple[int, int]] = []
        i = max(bisect.bisect_right(self.starts, a) - 1, 0)
        while i < len(self.pieces) and self.pieces[i][0] < b:
            start, end, parent, lo, hi, same = self.pieces[i]
            x, y = max(a, start), min(b, end)
            i += 1
            if x >= y:
                continue
            span = (lo + x - start, lo + y - start) if same else (lo, hi)
            for seg in parent.origin(*span) if parent is not None else [span]:
                if out and out[-1][1] == seg[0]:
                    out[-1] = (out[-1][0], seg[1])
                else:
                    out.append(seg)
        return out


def _unescaped(parent: _View, lo: int, hi: int, into: _View | None = None) -> _View:
    """``parent.text[lo:hi]`` with JSON and Python escapes decoded, appended to ``into``."""
    view = into if into is not None else _View()
    text, at = parent.text, lo
    for m in _ESCAPE.finditer(text, lo, hi):
        if m.start() > at:
            view.add(text[at : m.start()], parent, at, m.start(), True)
        code = m.group(1) or m.group(2)
        char = chr(int(code, 16)) if code else _UNSHORT[m.group(3)]
        view.add(char, parent, m.start(), m.end(), False)
        at = m.end()
    if at < hi:
        view.add(text[at:hi], parent, at, hi, True)
    return view


class _Pairs(list):
    """A JSON object as its (name, value) pairs, in order, duplicates kept."""


def _leaves(node: Any, path: tuple, index: tuple, out: list, name: Any = None) -> None:
    """One entry per string literal in document order: its channel when it carries streamed
    text, else None. A channel is the field path (list positions dropped) and every index
    field (``index``, ``output_index``...) of the objects around it."""
    if isinstance(node, _Pairs):
        own = tuple((k, v) for k, v in node if k in _INDEX_NAMES and type(v) is int)
        for k, v in node:
            out.append(None)
            _leaves(v, (*path, k), index + own, out, k)
    elif isinstance(node, list):
        for item in node:
            _leaves(item, path, index, out, name)
    elif isinstance(node, str):
        out.append((path, index) if name in _TEXT_KEYS else None)


def _documents(root: _View) -> list[_View]:
    """Each SSE event's data lines joined (no separator): the JSON documents of a stream."""
    text = root.text
    docs, at = [], 0
    for end in [*(m for m in _EVENT_END.finditer(text)), None]:
        stop = end.start() if end is not None else len(text)
        view = _View()
        for m in _DATA_LINE.finditer(text, at, stop):
            view.add(m.group(1), root, m.start(1), min(m.end(1), stop), True)
        if view.text:
            docs.append(view)
        at = end.end() if end is not None else len(text)
    return docs


def _joined(docs: list[_View]) -> list[_View]:
    """The streamed text joined, over the whole stream and per channel (a choice, a block)."""
    every, channels = _View(), {}
    for doc in docs:
        try:
            tree = json.loads(doc.text, strict=False, object_pairs_hook=_Pairs)
            leaves: list = []
            _leaves(tree, (), (), leaves)
        except (ValueError, RecursionError):
            continue
        literals = list(_LITERAL.finditer(doc.text))
        if len(literals) != len(leaves):
            continue
        for m, channel in zip(literals, leaves, strict=True):
            if channel is None:
                continue
            _unescaped(doc, m.start(1), m.end(1), every)
            _unescaped(doc, m.start(1), m.end(1), channels.setdefault(channel, _View()))
    return [every, *channels.values()] if every.text else []


def _views(text: str, stream: bool) -> list[_View]:
    """The views to search: the text, a stream's events whose data lines had to be joined, and
    its streamed pieces joined (the patterns read escapes and percent-encoding themselves)."""
    root = _View(text)
    views = [root]
    if stream:
        docs = _documents(root)
        views += [d for d in docs if len(d.pieces) > 1]  # data lines joined: new text
        views += _joined(docs or [root])
    return views


def _decoded(text: str) -> str:
    """A spelled match read back: percent-encoding and escapes undone (nested up to 4)."""
    for _ in range(4):
        text = unquote(text)
        if "\\" in text:
            text = text.encode("latin-1", "backslashreplace").decode("unicode_escape", "ignore")
    return text


def _shapes(text: str) -> list[tuple[int, int]]:
    """Where a real key shape is, in any spelling (``sk\\u002dproj-...``, ``sk%2D...``)."""
    found = []
    for m in _SPELLED_SHAPE.finditer(text):
        plain = _decoded(m.group())
        if _KEY_SHAPE.fullmatch(plain) and _is_key(plain):
            found.append(m.span())
    return found


_JSON_PUNCTUATION = frozenset(" \t\r\n:,[]{}")


def _inside_quotes(text: str, lo: int, hi: int, first: bool) -> list[tuple[int, int, bool]]:
    """A cut as cuts that take no bare ``"``: a key holding a quote, found in the raw text, can
    take a JSON string's own quote (``"00000Aa`` or `` "0000Aa`` in ``: "0000Aa ok"`` when the
    key's first characters came in the event before); removing it would break the JSON. So the
    cut is split at its bare quotes, which stay, and so do stretches of only JSON punctuation
    and whitespace between them; every other character of the key still goes."""
    if '"' not in text[lo:hi]:
        return [(lo, hi, first)]
    stretches, at, run = [], lo, 0
    while run < lo and text[lo - run - 1] == "\\":  # a backslash run reaching into the cut
        run += 1
    for i in range(lo, hi):
        if text[i] == '"' and run % 2 == 0:  # not escaped: after an even run of backslashes
            stretches.append((at, i))
            at = i + 1
        run = run + 1 if text[i] == "\\" else 0
    stretches.append((at, hi))
    kept = [(a, b) for a, b in stretches if not _JSON_PUNCTUATION.issuperset(text[a:b])]
    return [(a, b, first and n == 0) for n, (a, b) in enumerate(kept)]


def _redact_text(text: str, secrets: frozenset[str], stream: bool = False) -> str:
    """``text`` with every known secret (any spelling) and key shape replaced in place."""
    quiet = "\\" not in text and "%" not in text and "://" not in text
    if quiet and not secrets and not stream and "sk-" not in text and "AIza" not in text:
        return text
    pattern, finders = _value_pattern(secrets), _spelled_finders(secrets)
    cuts: list[tuple[int, int, bool]] = []
    for view in _views(text, stream):
        found = [m.span() for m in pattern.finditer(view.text)] if pattern is not None else []
        for finder in finders:
            found += finder.spans(view.text)
        found += _shapes(view.text)
        for a, b in found:
            spans = view.origin(a, b)
            for i, (lo, hi) in enumerate(spans):
                cuts += _inside_quotes(text, lo, hi, i == 0)
    cuts = [cut for cut in cuts if cut[0] < cut[1]]
    for m in _USERINFO.finditer(text):
        cuts.append((m.start(2), m.end(2), True))
    if not cuts:
        return text
    cuts.sort()
    merged: list[list[Any]] = []
    for lo, hi, first in cuts:
        if merged and lo < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
            merged[-1][2] = merged[-1][2] or first
        else:
            merged.append([lo, hi, first])
    out, at = [], 0
    for lo, hi, first in merged:
        out += [text[at:lo], REDACTED if first else ""]
        at = hi
    return "".join(out) + text[at:]


# --- the public functions -----------------------------------------------------------------------


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` without the process's secrets, ``secrets``, and key shapes (look-alikes stay)."""
    return _redact_text(text, known_secrets(secrets))


def redact_headers(
    headers: list[tuple[str, str]], secrets: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """Headers with every credential replaced; a ``Bearer``/``Basic`` scheme stays visible.
    Names and other values lose any known secret or key shape too."""
    known, out = known_secrets(secrets), []
    for name, value in headers:
        if is_secret_name(name) and value:
            scheme, _, rest = value.partition(" ")
            shown = scheme + " " if rest and scheme.lower() in ("bearer", "basic", "token") else ""
            value = shown + REDACTED
        out.append((_redact_text(name, known), _redact_text(value, known)))
    return out


def redact_path(path: str, secrets: Iterable[str] = ()) -> str:
    """A request target with secret query parameters (by name, any case), known secrets (also
    percent-encoded, in the path or a bare parameter) and key shapes hidden."""
    base, sep, query = path.partition("?")
    if sep:
        pairs = []
        for pair in query.split("&"):
            name, eq, value = pair.partition("=")
            if eq and is_secret_name(unquote_plus(name)) and unquote_plus(value):
                value = REDACTED
            pairs.append(name + eq + value)
        path = base + "?" + "&".join(pairs)
    return _redact_text(path, known_secrets(secrets))


def _is_stream(content_type: str, text: str) -> bool:
    start = text.lstrip("\ufeff \t\r\n")[:6]
    return "event-stream" in content_type or start.startswith(("data:", "event:", "["))


def redact_body(body: bytes, content_type: str = "", secrets: Iterable[str] = ()) -> bytes:
    """A request or response body with its keys redacted (see the module docstring).

    Read as UTF-8 (bytes that are not stay as they were) and, when it holds NUL bytes or a
    UTF-16 byte-order mark, as UTF-16 too. Bytes with no key in them are returned unchanged.
    """
    known = known_secrets(secrets)
    text = body.decode("utf-8", "surrogateescape")
    redone = _redact_text(text, known, _is_stream(content_type, text))
    out = body if redone == text else redone.encode("utf-8", "surrogateescape")
    if b"\x00" in out or out[:2] in (b"\xff\xfe", b"\xfe\xff"):
        for encoding in ("utf-16-le", "utf-16-be"):
            for offset in (0, 1):
                size = (len(out) - offset) // 2 * 2
                try:
                    wide = out[offset : offset + size].decode(encoding, "surrogatepass")
                except UnicodeDecodeError:
                    continue
                fixed = _redact_text(wide, known, _is_stream(content_type, wide))
                if fixed != wide:
                    new = fixed.encode(encoding, "surrogatepass")
                    out = out[:offset] + new + out[offset + size :]
    return out


def redact_value(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of a JSON value (dicts, lists, strings...) with every string redacted, member
    names included; the original is left as it is (it may still be on its way out)."""
    known = known_secrets(secrets)
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    while stack:  # no recursion: a deep body cannot overflow the stack
        node, parent, slot = stack.pop()
        if isinstance(node, str):
            parent[slot] = _redact_text(node, known)
        elif isinstance(node, dict):
            parent[slot] = copy = {}
            for k, v in node.items():
                key = _redact_text(k, known) if isinstance(k, str) else k
                copy[key] = None
                stack.append((v, copy, key))
        elif isinstance(node, list | tuple):
            parent[slot] = items = [None] * len(node)
            stack += [(v, items, i) for i, v in enumerate(node)]
        else:
            parent[slot] = node
    return holder[0]
