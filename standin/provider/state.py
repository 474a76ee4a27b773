"""Used in lessons: 11.

Server-side history: OpenAI Responses' stored responses and Anthropic's message threads.

By default (``store`` not ``false``) OpenAI keeps every response, and a later request may name
it in ``previous_response_id`` instead of resending the history: the server puts the stored
chain (every earlier input item and output item) in front of the new ``input``. The history
is still *read* every turn, so the usage counts the whole chain as input tokens. For a
``conversation``, OpenAI's reference says it the same way: "Items from this conversation are
prepended to input_items for this response request. Input items and output items from this
response are automatically added to this conversation after this response completes"
(https://developers.openai.com/api/reference/resources/responses/subresources/input_tokens/methods/count,
checked 2026-11-30). The ``instructions`` and ``tools`` of earlier responses are not carried
over (the SDK's docstring of ``instructions``): a continuation sends them again.

This module is that memory for the stand-in: bounded dicts, gone when the process ends.
Each store (``RESPONSES``, ``CONVERSATIONS``, ``THREADS``) forgets an entry ``ttl`` seconds after
it was stored (``STORED_TTL_SECONDS``, an hour; a thread's own five minutes) and keeps at most
``max_count`` entries and ``max_bytes`` bytes (their JSON size), oldest dropped first, so a
long-running ``serve`` cannot be made to grow without bound. A chain that was dropped is
answered as one never stored. A conversation is created first, as with OpenAI
(``POST /v1/conversations``, optionally with its first ``items``); naming one that was never
created is an error (the wording of that one is ours: no public report quotes OpenAI's).

Anthropic's message threads (beta ``message-threads-2026-08-12``, "Message threads",
https://platform.claude.com/docs/en/build-with-claude/message-threads, read 2026-12-01): the
first request carries everything and ``thread: {"type": "create"}``; the API keeps it, reply
included, under the reply's ``id``. A later request sends ``thread: {"type": "continue",
"previous_message_id": id}`` and only the new messages, without ``system`` and ``tools`` (the
thread keeps the create request's). The stored turns are read again, so billed as input. A
thread expires 5 minutes after its last request (then 404 ``thread_not_found``); each reply can
be continued once. Refusals carry ``error.details.error_code`` as the anthropic SDK reads it
(``anthropic/lib/threads/_thread_state.py``, 2.14.0); its tool runner answers
``thread_unsupported_request`` by resending the whole history without a thread.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from standin.redaction import redact_value
from standin.rules.sources import NOT_STORED

clock: Callable[[], float] = time.monotonic
#: How long a stored response or conversation is kept (OpenAI keeps them 30 days; a stand-in
#: that runs beside a notebook needs far less).
STORED_TTL_SECONDS = 60 * 60


def _json_size(value: Any) -> int:
    """About how many bytes ``value`` holds: the length of its JSON."""
    try:
        return len(json.dumps(value, default=repr, ensure_ascii=False))
    except (ValueError, RecursionError):  # a cycle or a value too deep: count it as large
        return 1 << 20


class Kept(OrderedDict):
    """A dict that forgets: an entry expires ``ttl`` seconds after it was stored, and past
    ``max_count`` entries or ``max_bytes`` bytes (``size(value)``) the oldest go first. Every
    write prunes; a reader calls :meth:`prune` first (``expand``, ``thread_expand`` do). Writes
    are thread-safe (the server answers on many threads)."""

    def __init__(
        self,
        ttl: float,
        max_count: int,
        max_bytes: int,
        size: Callable[[Any], int] = _json_size,
    ):
        super().__init__()
        self.ttl, self.max_count, self.max_bytes, self.size = ttl, max_count, max_bytes, size
        self.stored: dict[str, tuple[float, int]] = {}  # key -> (stored at, bytes)
        self.bytes = 0
        self.lock = threading.RLock()

    def __setitem__(self, key: str, value: Any) -> None:
        size = self.size(value)
        with self.lock:
            if key in self:
                self._drop(key)
            super().__setitem__(key, value)
            self.stored[key] = (clock(), size)
            self.bytes += size
            self.prune()

    def _drop(self, key: str) -> None:
        super().__delitem__(key)
        self.bytes -= self.stored.pop(key, (0.0, 0))[1]

    def __delitem__(self, key: str) -> None:
        with self.lock:
            self._drop(key)

    def pop(self, key: str, *default: Any) -> Any:
        with self.lock:
            if key not in self:
                if default:
                    return default[0]
                raise KeyError(key)
            value = super().__getitem__(key)
            self._drop(key)
            return value

    def clear(self) -> None:
        with self.lock:
            super().clear()
            self.stored.clear()
            self.bytes = 0

    def prune(self) -> None:
        """Drop what expired, then the oldest while over the count or the bytes."""
        with self.lock:
            now = clock()
            while self and (
                len(self) > self.max_count
                or self.bytes > self.max_bytes
                or now - self.stored[next(iter(self))][0] > self.ttl
            ):
                self._drop(next(iter(self)))


#: response id -> every input item and output item up to and including that response
RESPONSES: Kept = Kept(STORED_TTL_SECONDS, max_count=256, max_bytes=16 * 1024 * 1024)
#: conversation id -> its items so far
CONVERSATIONS: Kept = Kept(STORED_TTL_SECONDS, max_count=256, max_bytes=16 * 1024 * 1024)


def _items(value: Any) -> list[Any]:
    """``input`` as a list of items (a string is one user message)."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return list(value) if isinstance(value, list) else []


def _conversation_id(body: dict[str, Any]) -> str | None:
    conversation = body.get("conversation")
    if isinstance(conversation, dict):
        conversation = conversation.get("id")
    return conversation if isinstance(conversation, str) else None


#: What the stand-in answers for a conversation it never created (our wording).
NO_CONVERSATION = "Conversation with id '{id}' not found."
_OK = (200, None, None)


def create(body: dict[str, Any], digest: str, secrets: frozenset[str] = frozenset()) -> dict:
    """``POST /v1/conversations``: a new conversation holding the body's ``items``, if any
    (stored with every key redacted: ``secrets`` are the request's own, see ``remember``)."""
    conversation_id = "conv_" + digest[:48]
    CONVERSATIONS[conversation_id] = redact_value(_items(body.get("items")), secrets)
    return {"id": conversation_id, "object": "conversation", "created_at": 0, "metadata": {}}


def expand(body: dict[str, Any]) -> tuple[dict[str, Any], tuple[int, str | None, str | None]]:
    """The body with its stored chain in front of ``input``, and ``(status, error, param)``."""
    previous = body.get("previous_response_id")
    conversation = _conversation_id(body)
    if previous is None and conversation is None:
        return body, _OK
    RESPONSES.prune()
    CONVERSATIONS.prune()
    if previous is not None:
        if previous not in RESPONSES:
            return body, (400, NOT_STORED.format(id=previous), "previous_response_id")
        chain = RESPONSES[previous]
    elif conversation not in CONVERSATIONS:
        return body, (404, NO_CONVERSATION.format(id=conversation), "conversation")
    else:
        chain = CONVERSATIONS[str(conversation)]
    full = {k: v for k, v in body.items() if k not in ("previous_response_id", "conversation")}
    full["input"] = list(chain) + _items(body.get("input"))
    return full, _OK


def remember(
    response_id: str,
    body: dict[str, Any],
    full: dict[str, Any],
    output: list,
    secrets: frozenset[str] = frozenset(),
) -> None:
    """Keep the chain that ends with this response, unless the request said ``store: false``.

    The chain is stored redacted (a copy: the reply still goes out as it is), by shape and by
    value, the request's own keys (``secrets``, ``standin.redaction.secrets_of``) included, so a
    later turn read back (``capture()``'s card) never shows an earlier turn's key."""
    chain = redact_value(_items(full.get("input")) + list(output), secrets)
    conversation = _conversation_id(body)
    if conversation is not None:
        CONVERSATIONS[conversation] = chain
    if body.get("store") is not False:
        RESPONSES[response_id] = chain


# --- Anthropic message threads ----------------------------------------------------------------

MESSAGE_THREADS_BETA = "message-threads-2026-08-12"
#: Betas the stand-in models; a request naming any other gets a 400 saying so.
MODELLED_BETAS = frozenset({MESSAGE_THREADS_BETA})
THREAD_TTL_SECONDS = 5 * 60
#: Fields a continue takes from the thread (the SDK's ``CREATE_ONLY_FIELDS``).
CREATE_ONLY = ("system", "tools")
#: What a threaded request may not use (the SDK's list of ``unsupported`` values we can see).
NOT_THREADED = ("cache_control", "context_management", "thinking")


@dataclass
class Thread:
    model: Any
    kept: dict[str, Any]  # the create request's system and tools
    messages: list[Any]  # every message so far, the stored reply included
    stored_at: float = field(default_factory=lambda: clock())
    continued: bool = False


def _thread_size(thread: Thread) -> int:
    return _json_size([thread.kept, thread.messages])


#: reply id -> the thread as it stood after that reply
THREADS: Kept = Kept(
    THREAD_TTL_SECONDS, max_count=256, max_bytes=16 * 1024 * 1024, size=_thread_size
)


@dataclass
class ThreadError:
    status: int
    message: str
    code: str | None = None
    unsupported: list[str] = field(default_factory=list)

    def envelope(self) -> dict[str, Any]:
        from standin.provider import errors

        body = errors.envelope("anthropic", self.status, self.message)
        if self.code is not None:
            details: dict[str, Any] = {"error_code": self.code}
            if self.code == "thread_unsupported_request":
                details["unsupported"] = self.unsupported
            body["error"]["details"] = details
        return body


def betas(headers: dict[str, str]) -> list[str]:
    """The ``anthropic-beta`` header's betas, in order."""
    return [b.strip() for b in headers.get("anthropic-beta", "").split(",") if b.strip()]


def _uses(value: Any, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(_uses(v, key) for v in value.values())
    return isinstance(value, list) and any(_uses(v, key) for v in value)


def thread_expand(
    body: dict[str, Any], headers: dict[str, str]
) -> tuple[dict[str, Any], ThreadError | None]:
    """The body the model reads (the thread's stored turns in front, ``thread`` removed)."""
    if "thread" not in body:
        return body, None
    if MESSAGE_THREADS_BETA not in betas(headers):
        return body, ThreadError(400, "thread: Extra inputs are not permitted")
    thread = body["thread"]
    kind = thread.get("type") if isinstance(thread, dict) else None
    rest = {k: v for k, v in body.items() if k != "thread"}
    unsupported = [f for f in NOT_THREADED if _uses(rest, f)]
    if unsupported:
        text = f"This request cannot be threaded: {', '.join(unsupported)} is not supported."
        return body, ThreadError(400, text, "thread_unsupported_request", unsupported)
    if kind == "create":
        return rest, None
    if kind != "continue":
        text = f"thread.type: Input should be 'create' or 'continue' (got {kind!r})"
        return body, ThreadError(400, text)
    previous = thread.get("previous_message_id")
    if not isinstance(previous, str):
        return body, ThreadError(400, "thread.previous_message_id: Field required")
    THREADS.prune()
    stored = THREADS.get(previous)
    if stored is None or clock() - stored.stored_at > THREAD_TTL_SECONDS:
        THREADS.pop(previous, None)
        text = f"No thread can be continued from message {previous!r}: it expired or never existed."
        return body, ThreadError(404, text, "thread_not_found")
    if stored.continued:
        text = f"Message {previous!r} was continued already: each reply is continued once."
        return body, ThreadError(400, text, "thread_already_continued")
    repeated = [f for f in CREATE_ONLY if f in rest]
    if repeated:
        text = f"{repeated[0]}: a continue takes it from the thread; leave it out."
        return body, ThreadError(400, text)
    if rest.get("model") != stored.model:
        text = f"model: the thread was created with {stored.model!r}, not {rest.get('model')!r}."
        return body, ThreadError(400, text, "thread_fingerprint_mismatch")
    messages = rest.get("messages")
    new = messages if isinstance(messages, list) else []
    return {**rest, **stored.kept, "messages": [*stored.messages, *new]}, None


def thread_remember(
    sent: dict[str, Any],
    full: dict[str, Any],
    reply: dict[str, Any],
    secrets: frozenset[str] = frozenset(),
) -> None:
    """Store the thread as it stands after ``reply`` (only for a request that named one),
    redacted as :func:`remember` stores a chain."""
    thread = sent.get("thread")
    if not isinstance(thread, dict):
        return
    previous = THREADS.get(str(thread.get("previous_message_id")))
    if thread.get("type") == "continue" and previous is not None:
        previous.continued = True
    kept = redact_value({k: full[k] for k in CREATE_ONLY if k in full}, secrets)
    said = {"role": "assistant", "content": reply.get("content", [])}
    messages = redact_value([*full.get("messages", []), said], secrets)
    THREADS[reply["id"]] = Thread(full.get("model"), kept, messages)


def as_read(body: dict[str, Any], format: str) -> tuple[dict[str, Any], int]:
    """The body as the model reads it, and how many stored items or messages went in front.

    For a record read back after the fact (``standin.capturing``): a Responses request naming a
    stored response or conversation, or an Anthropic thread continued, gets its stored history
    in front; ``thread`` itself is dropped. A history that is not stored (expired, refused, never
    created) leaves the body as it was sent.
    """
    if format == "openai-responses":
        full, (status, _, _) = expand(body)
        if status != 200 or full is body:
            return body, 0
        return full, len(full["input"]) - len(_items(body.get("input")))
    thread = body.get("thread") if format == "anthropic" else None
    if not isinstance(thread, dict):
        return body, 0
    rest = {k: v for k, v in body.items() if k != "thread"}
    stored = THREADS.get(str(thread.get("previous_message_id")))
    if thread.get("type") != "continue" or stored is None:
        return rest, 0
    new = rest.get("messages") if isinstance(rest.get("messages"), list) else []
    return {**rest, **stored.kept, "messages": [*stored.messages, *new]}, len(stored.messages)
