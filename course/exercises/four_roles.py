"""Used in lessons: 02.

Exercises of notebooks/02_four_roles.ipynb: find things in the rendered bodies."""

from __future__ import annotations

from typing import Any

from course.exercises import (
    Exercise,
    Result,
    as_number,
    check_function,
    check_number,
    check_value,
    not_answered,
    not_yet,
)
from helpers.messages import Request

EX1 = Exercise(
    "02.1",
    idea="the role is who wrote the text: the same words read as material inside a tool "
    "result, and as your own instruction inside the system prompt.",
    look="copy.deepcopy gives you a request of your own to change; its .messages is a plain "
    "list, and the system message's first block has a .text. The check names the message(s) "
    "the note is in.",
)
EX2 = Exercise(
    "02.2",
    idea="only OpenAI Chat keeps the system prompt in its list of messages; the other three "
    "formats give it a top-level field of their own, each with its own name and shape.",
    look="the cell under 'One conversation, four spellings' that prints the start of each "
    "system prompt reads it from all four bodies (the first part only, for Gemini); Gemini's is a "
    "Content object whose parts may be several: join their texts.",
)
EX3 = Exercise(
    "02.3",
    idea="the markers are special tokens, written between <| and |>; render the conversation "
    "and count only those among its pieces.",
    look="render_harmony(request) (used in 'What the model actually sees') returns a view "
    "whose .pieces is the list of token strings; test each one's start and end.",
)


def _role_of(view: Any, needle: str) -> tuple[str, int] | None:
    """(role, tokens) of the rendered message holding ``needle``, from the harmony view."""
    starts, at = [], 0
    for piece in view.pieces:
        starts.append(at)
        at += len(piece)
    found = "".join(view.pieces).find(needle)
    if found < 0:
        return None
    token = max(i for i, start in enumerate(starts) if start <= found)
    for role, _, start, end in view.segments:
        if start <= token < end:
            return role, end - start
    return None


def check_pasted_note(pasted: Any, note: str, injected: Request | None = None) -> Result:
    """``pasted``: the ticket with the seller's note pasted into the system prompt instead of
    arriving as a tool result. Shows the role the model reads the note in, as harmony renders it.
    The policy must stay whole (the note is added to it, not put in its place), the ticket's
    other messages unchanged, and ``injected`` (the lesson's request) untouched."""
    from helpers.examples import sundry
    from helpers.tokens.harmony import render_harmony

    info = {"kind": "value", "expected": "the note inside the system message"}
    if not_answered(pasted):
        return check_value(pasted, None, EX1, success="")
    if not isinstance(pasted, Request):
        return not_yet(EX1, f"{type(pasted).__name__} is not a Request", **info)
    before = sundry.ticket(pasted.model)  # the ticket as the lesson built it, before the note
    if injected is not None and (
        injected is pasted
        or len(injected.messages) != len(before.messages) + 2
        or injected.messages[0].text != before.messages[0].text
    ):
        return not_yet(
            EX1,
            "`injected` itself has changed: your code edited the lesson's request instead of a "
            "copy of it (a plain assignment or copy.copy shares the messages). Run the cell that "
            "builds `injected` again, then build `pasted` from a deep copy",
            **info,
        )
    texts = [
        (i, b.text if hasattr(b, "text") else "")
        for i, m in enumerate(pasted.messages)
        for b in m.content
    ]
    where = [i for i, text in texts if note in text]
    if where != [0] or pasted.messages[0].role != "system":
        return not_yet(
            EX1,
            (f"the note is in message(s) {where}" if where else "the note is in no message")
            + "; it should be in the system message only, with the tool call and result that "
            "carried it gone",
            **info,
        )
    policy = before.messages[0].text
    if policy not in pasted.messages[0].text:
        return not_yet(
            EX1,
            "the system message holds the note but no longer the whole policy: the exercise "
            "adds the note to the end of the system prompt, it does not put the note in its place",
            **info,
        )
    if pasted.messages[1:] != before.messages[1:]:
        return not_yet(
            EX1,
            f"after the system message your request has {len(pasted.messages) - 1} message(s) "
            f"that differ from the ticket's {len(before.messages) - 1}: keep the buyer's message "
            "and the first round trip, drop only the last two messages",
            **info,
        )
    role, tokens = _role_of(render_harmony(pasted), note[:40]) or ("?", 0)
    return Result(
        True,
        f"Right: the model now reads the note in the '{role}' message ({tokens} tokens), next "
        "to your policy: an instruction. As a tool result it was material. Same words, other "
        "role: never paste what others wrote into the system prompt.",
        EX1,
        **info,
    )


def check_system_text(fn: Any) -> Result:
    """The learner's ``system_text(body, format)`` on the crash-triage opening (a conversation the
    lesson never rendered) in all four formats, plus two spellings the providers also accept: a
    Chat ``developer`` message whose content is a list of text parts, an Anthropic ``system``
    given as a list of text blocks (as lesson 06 sends it, with ``cache_control``), and a Gemini
    ``systemInstruction`` of two text parts. Whitespace between joined parts does not matter."""
    import copy

    from helpers.examples import crash_triage
    from helpers.formats import render_for
    from helpers.models import default_model

    request = crash_triage.opening(default_model("openai"))
    expected = request.messages[0].text
    formats = ("openai-chat", "openai-responses", "anthropic", "gemini")
    cases = [((render_for(request, f).body, f), expected) for f in formats]
    developer = copy.deepcopy(cases[0][0][0])
    developer["messages"][0] = {
        "role": "developer",
        "content": [{"type": "text", "text": expected}],
    }
    blocks = copy.deepcopy(cases[2][0][0])
    blocks["system"] = [{"type": "text", "text": expected, "cache_control": {"type": "ephemeral"}}]
    parts = copy.deepcopy(cases[3][0][0])
    cut = expected.index("\n") + 1  # two parts that join back into the prompt
    parts["systemInstruction"]["parts"] = [{"text": expected[:cut]}, {"text": expected[cut:]}]
    cases += [((developer, "openai-chat"), expected), ((blocks, "anthropic"), expected)]
    cases += [((parts, "gemini"), expected)]
    shapes = {id(developer): "a developer message with a list of text parts"}
    shapes[id(blocks)] = "a system given as a list of text blocks"
    shapes[id(parts)] = "a systemInstruction of two text parts"

    def describe(argument: tuple) -> str:
        body, format = argument
        shape = shapes.get(id(body), "the usual shape")
        article = "an" if format[0] in "aeiou" else "a"
        return f"{article} {format} body of another conversation ({shape})"

    def spaced(text: Any) -> Any:
        return " ".join(text.split()) if isinstance(text, str) else text

    def learner(body: dict, format: str) -> Any:  # "".join and "\n".join are both right
        return spaced(fn(body, format))

    if callable(fn):
        try:
            first_only = spaced(fn(parts, "gemini")) == spaced(expected[:cut])
        except Exception:  # check_function reports it with the case it failed on
            first_only = False
        if first_only:
            what = (
                "for a gemini body whose systemInstruction has two text parts your function gave "
                "the first part only: the prompt is all the parts, joined"
            )
            return not_yet(EX2, what, kind="function", expected=cases)
    return check_function(
        learner if callable(fn) else fn,
        [(argument, spaced(text)) for argument, text in cases],
        EX2,
        describe=describe,
        success=(
            "Right: one system prompt, four places, and more than one spelling: messages[0] "
            "(system or developer, a string or text parts) in Chat, instructions in Responses, "
            "system (a string or text blocks) in Anthropic, systemInstruction's parts (all of "
            "them) in Gemini."
        ),
    )


def check_marker_tokens(answer: int, injected: Request) -> Result:
    from helpers.tokens.harmony import render_harmony

    def markers(request: Request) -> int:
        pieces = render_harmony(request).pieces
        return sum(1 for p in pieces if p.startswith("<|") and p.endswith("|>"))

    view = render_harmony(injected)
    expected = markers(injected)
    without = Request(injected.model, injected.messages[:-2], injected.tools)
    if as_number(answer) == markers(without) != expected:
        what = "that is the count for the lesson's ticket, before the seller's reply was added"
        return not_yet(EX3, what, kind="number", expected=expected)
    return check_number(
        answer,
        expected,
        EX3,
        success=(
            f"Right: {expected} of {view.count} tokens are markers of roles, channels and "
            "boundaries. You pay for them too."
        ),
    )
