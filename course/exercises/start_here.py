"""Used in lessons: 00.

Exercises of notebooks/00_start_here.ipynb: count what a chat body's messages cost, and the
explanation of the lesson's French prediction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import Case, Exercise, Result, check_cases

POLICY = "Refunds above $150 need a human."
POLICY_FR = "Les remboursements de plus de 150 $ nécessitent un humain."

EX1 = Exercise(
    "00.1",
    look="the note under the environment check (which encoding each model family reads, and what "
    "the series does for a model whose tokenizer is not public), the cell under 'Your first "
    "look at the wire', and the shapes a message's `content` takes in the exercise text.",
    idea="a count is only right in the model's own encoding: the model's name decides it, and a "
    "name can look like another family's. A model with no public tokenizer is estimated, the "
    "way the lesson says. The model reads each message's text on its own; a message with no "
    "text adds nothing, and a list of parts holds text parts beside parts that are not text.",
    example="for gpt-4o, 'Hi' (1 token in o200k_base), a message that only calls a tool (no "
    "text), and [{'type': 'text', 'text': 'Where is my order?'}, {'type': 'image_url', ...}] "
    "cost 1 + 0 + 5 = 6 tokens; for gpt-4, the same texts are counted in another vocabulary.",
)

_ESTIMATE = "o200k_base"  # what the series counts a model with no public tokenizer in (lesson 12)


def _encoding_of(model: str) -> str:
    """The tiktoken encoding ``model`` reads: tiktoken's own table, else the series' estimate."""
    import tiktoken

    try:
        return tiktoken.encoding_for_model(model).name
    except KeyError:
        return _ESTIMATE


def _count(text: str, encoding: str) -> int:
    import tiktoken

    return len(tiktoken.get_encoding(encoding).encode(text))


def french_why() -> str:
    """Why ``POLICY_FR`` costs more in ``cl100k_base`` than in ``o200k_base``, from the two
    tokenizers: the explanation of the lesson's prediction."""
    import tiktoken

    older, newer = (tiktoken.get_encoding(n) for n in ("cl100k_base", "o200k_base"))
    old, new = len(older.encode(POLICY_FR)), len(newer.encode(POLICY_FR))
    return (
        f"{old} tokens in cl100k_base, {new} in o200k_base. The newer vocabulary holds "
        f"{newer.n_vocab:,} tokens against {older.n_vocab:,} (special tokens included): more "
        "French words are one token."
    )


_PHOTO = "https://example.com/tickets/SO-48213/photo-1.jpg"


def _text(content: Any) -> str:
    """A message's text: the string, or its text parts' texts joined; "" when it has none."""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if p.get("type") == "text")
    return content or ""


def _hidden_bodies() -> list[tuple[str, list[dict], str]]:
    """(what the case is, the messages, the model): texts the lesson never counted, for models
    of both encodings and one whose tokenizer is not public."""
    from helpers.examples import crash_triage

    trace = crash_triage.CRASH_REPORT.splitlines()
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    return [
        (
            "a French conversation, for gpt-4o",
            [
                {"role": "system", "content": POLICY_FR},
                {
                    "role": "user",
                    "content": "Bonjour, mon casque est arrivé cassé. Commande SO-48213.",
                },
                {
                    "role": "assistant",
                    "content": "Désolé : je vérifie votre commande tout de suite.",
                },
            ],
            "gpt-4o",
        ),
        (
            "order numbers and prices, and an assistant message that only calls a tool, for gpt-4",
            [
                {"role": "user", "content": "Order SO-48213: $129.00, delivered 2026-11-27."},
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": '{"total_usd": 129.0}'},
                {"role": "assistant", "content": "Refund 3 of 4 items: $96.75?"},
            ],
            "gpt-4",
        ),
        (
            "a Go stack trace spread over three messages, for gpt-4.1-mini",
            [
                {"role": "user", "content": "\n".join(trace[:4])},
                {"role": "tool", "tool_call_id": "call_1", "content": trace[4]},
                {"role": "tool", "tool_call_id": "call_2", "content": "\n".join(trace[5:7])},
            ],
            "gpt-4.1-mini",
        ),
        (
            "Japanese, and an empty message, for gpt-6-luna (its tokenizer is not public)",
            [
                {"role": "user", "content": "返金は150ドルを超えると人間の確認が必要です。"},
                {"role": "user", "content": ""},
                {"role": "assistant", "content": "注文番号はSO-48213です。"},
            ],
            "gpt-6-luna",
        ),
        (
            "a photo sent with two text parts, for gpt-5.6",
            [
                {"role": "system", "content": POLICY},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "My headphones arrived cracked."},
                        {"type": "image_url", "image_url": {"url": _PHOTO}},
                        {"type": "text", "text": " Order SO-48213, can I get a refund?"},
                    ],
                },
            ],
            "gpt-5.6",
        ),
        ("no messages at all, for gpt-4.1", [], "gpt-4.1"),
    ]


def _judge_count(messages: list[dict], model: str) -> Callable[[Any], str | None]:
    import tiktoken

    encoding = _encoding_of(model)
    try:
        public = bool(tiktoken.encoding_for_model(model))
    except KeyError:  # gpt-6-luna: its count is the series' estimate
        public = False
    texts = [_text(m.get("content")) for m in messages]
    expected = sum(_count(t, encoding) for t in texts)
    parts = [p for m in messages if isinstance(m.get("content"), list) for p in m["content"]]
    in_parts = sum(_count(_text([p]), encoding) for p in parts)  # each text part on its own
    by_part = expected - sum(_count(_text(p), encoding) for p in [parts] if p) + in_parts
    other = "cl100k_base" if encoding == "o200k_base" else "o200k_base"
    joined = {_count(sep.join(texts), encoding) for sep in ("", "\n", " ")} - {expected}

    def judge(got: Any) -> str | None:
        if isinstance(got, bool) or not isinstance(got, int):
            return f"your function returned {type(got).__name__}, not a number of tokens (an int)"
        if got in (expected, by_part):  # the text parts joined, or each counted on its own
            return None
        if parts and got in (expected - _count(_text(parts), encoding), by_part - in_parts):
            return "it counts nothing for the message whose content is a list of parts"
        if parts and got > expected:
            return (
                "it counts more than the texts: a part that is not text (an image's address, "
                "the parts' keys) is not the message's text"
            )
        if got == sum(_count(t, other) for t in texts) and not public:
            return (
                f"that is the count in {other}: {model}'s tokenizer is not public, and the "
                "lesson says which encoding the series estimates it with"
            )
        if got == sum(_count(t, other) for t in texts):
            return f"that is the count in {other}, not in the encoding {model} reads"
        if got in joined:
            return (
                "that is the count of all the texts joined into one: the model reads each "
                "message on its own, and where two texts meet they can merge into other tokens"
            )
        if got == sum(len(t.split()) for t in texts):
            return "that is the number of words: a token is often less than a word"
        if got == sum(len(t) for t in texts):
            return "that is the number of characters, not of tokens"
        more = "more" if got > expected else "fewer"
        return f"your count, {got}, is {more} than the tokenizer finds in these messages' texts"

    return judge


def check_message_tokens(fn: Any) -> Result:
    """The learner's ``message_tokens(messages, model)`` on chat bodies it has not seen, each for
    a model: French, numbers, a stack trace, Japanese, a message with no text, a content of text
    and image parts, no messages at all; models of both encodings, one whose name starts like
    another family's (gpt-4o), and one with no public tokenizer (gpt-6-luna)."""
    cases = [
        Case(name, (messages, model), _judge_count(messages, model))
        for name, messages, model in _hidden_bodies()
    ]
    return check_cases(
        fn,
        cases,
        EX1,
        success=(
            "Right: every message's text, counted on its own, in the model's encoding (estimated "
            "where the tokenizer is not public). Give it your agent's model and history: that is "
            "most of a request's bill; lesson 05 adds what the texts leave out (each message's "
            "framing, and the tools)"
        ),
    )
