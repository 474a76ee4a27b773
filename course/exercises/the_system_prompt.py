"""Used in lessons: 09.

Exercises of notebooks/09_the_system_prompt.ipynb."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    as_number,
    check_cases,
    check_function,
    is_stub,
    not_yet,
)
from helpers.messages import ToolCall, ToolResult

EX1 = Exercise(
    "09.1",
    look="the call the check names: its tool, its arguments, and what your function gave back "
    "for it.",
    idea="a rule the code enforces holds whatever the prompt says: the call is refused before "
    "it runs, with an error result the model can read (it says why), and every other call runs "
    "exactly as before.",
    example="a guard that allows at most 3 items answers an order of 5 with an error result "
    "saying the limit, and passes an order of 3 through untouched.",
)
EX2 = Exercise(
    "09.2",
    look="the cell under 'What it costs': what the paragraphs' tokens add up to.",
    idea="a share is a part divided by the whole: the paragraph's tokens over the prompt's.",
    example="a paragraph of 30 tokens in a prompt of 120 is a share of 0.25.",
)


def check_paragraph_share(fn: Callable[[str, str], float], model: str) -> Result:
    """``fn(prompt, start)``: the share of ``prompt``'s tokens in the paragraph that begins
    with ``start``. Tried on the crash-triage prompt and on paragraphs of Sundry's prompt the
    lesson never counted; compared to 2 decimals. The first paragraph of the crash-triage prompt
    (paths and names: many tokens per word) tells a share of tokens from a share of words."""
    from helpers.examples import crash_triage, sundry
    from helpers.tokens import count_sections, count_text

    def share(prompt: str, start: str) -> float:
        part = next(s.tokens for s in count_sections(prompt, model) if s.text.startswith(start))
        return part / count_text(prompt, model)

    asked = [
        (crash_triage.SYSTEM_PROMPT, "For each problem:"),
        (sundry.SYSTEM_PROMPT, "Refund policy:"),
        (sundry.SYSTEM_PROMPT, "Style:"),
        (crash_triage.SYSTEM_PROMPT, "You triage"),
    ]
    cases = [(question, round(share(*question), 2)) for question in asked]

    def describe(question: tuple[str, str]) -> str:
        prompt, start = question
        name = "crash-triage" if prompt == crash_triage.SYSTEM_PROMPT else "Sundry's"
        return f"the paragraph of {name} prompt that starts {start!r}"

    def rounded(prompt: str, start: str) -> object:
        got = fn(prompt, start)
        value = as_number(got)
        return got if value is None else round(float(value), 2)

    if callable(fn):
        try:
            first = as_number(fn(*asked[0]))
        except Exception:  # check_function reports it, with the case it failed on
            first = None
        if first is not None and first > 1:
            return not_yet(
                EX2,
                f"your function gave {first} for {describe(asked[0])}, which looks like a "
                "percentage: return a fraction between 0 and 1 (0.5, not 50)",
                expected=cases,
                kind="function",
            )
    steps, refunds = share(*asked[0]), share(sundry.SYSTEM_PROMPT, "Refund policy:")
    one_rule = share(crash_triage.SYSTEM_PROMPT, "One rule:")
    return check_function(
        rounded if callable(fn) and not is_stub(fn) else fn,  # a blank is told it is blank
        cases,
        EX2,
        describe=describe,
        success=f"Right: the steps are {steps:.0%} of the crash-triage prompt and Sundry's refund "
        f"policy {refunds:.0%} of its own; the one rule is {one_rule:.0%}. Procedures and "
        "policies take the tokens, and they are paid for on every request.",
    )


def check_refund_guard(guarded_run_tool: Callable[[ToolCall], ToolResult]) -> Result:
    """Run the learner's guard on hidden calls: refunds above, at and just above $100, one in
    whole dollars, and other tools. An error result must answer the call by its id and say why
    (name the limit); every other result must be the one ``sundry.run_tool`` gives (a guard that
    fakes a success is refused). While the check runs, ``sundry.run_tool`` is watched (the
    module's name, and any name in the learner's globals bound to it): a refund above the limit
    that reaches it has run, even if the guard then answers with an error."""
    from helpers.examples import sundry
    from helpers.messages import tool_call

    real = sundry.run_tool
    ran: list[str] = []  # the ids of the calls that reached sundry.run_tool

    def watched(call: ToolCall, *args: Any, **kwargs: Any) -> ToolResult:
        ran.append(getattr(call, "id", None))
        return real(call, *args, **kwargs)

    order = {"order_id": "SO-48213", "reason": "damaged"}

    def refund(id: str, amount: float) -> ToolCall:
        return tool_call(id, "issue_refund", {**order, "amount_usd": amount})

    def judge(call: ToolCall, refused: bool):
        def verdict(result: Any) -> str | None:
            if refused and call.id in ran and getattr(result, "is_error", False):
                return (
                    "the refund ran: your function handed this call to sundry.run_tool, and "
                    "only then refused it. A refund that ran cannot be taken back by an error "
                    "message: refuse before the action"
                )
            if refused and call.id in ran:
                return (
                    "the refund ran, and came back as a normal result (is_error is False): "
                    "this refund is above the $100 limit"
                )
            if not isinstance(result, ToolResult):
                return f"your function gave a {type(result).__name__}, not a tool result"
            if result.call_id != call.id:
                return f"a result for {result.call_id!r}: the result's call_id must be call.id"
            if refused and (not result.is_error or result == real(call)):
                return (
                    "it came back as a normal result (is_error is False), as if the refund "
                    "were allowed: this refund is above the $100 limit"
                )
            if refused and "100" not in result.text:
                return "an error result that does not say why (name the $100 limit)"
            if not refused and result.is_error and result != real(call):
                return "an error result for a call the limit allows"
            if not refused and result != real(call):
                return "a different result than sundry.run_tool gives: hand the call to it"
            return None

        return verdict

    calls = [
        ("issue_refund(120.0), above the limit", refund("call_r8Kd", 120.0), True),
        ("issue_refund(80.0), below it", refund("call_Tq3e", 80.0), False),
        ("issue_refund(100.0), at the limit, not above it", refund("call_Bn7w", 100.0), False),
        ("issue_refund(100.5), just above it", refund("call_Pz1s", 100.5), True),
        ("issue_refund(125), in whole dollars", refund("call_Wc5m", 125), True),
        (
            "search_orders('SO-48213'), another tool",
            tool_call("call_Yh2v", "search_orders", {"query": "SO-48213"}),
            False,
        ),
        (
            "get_order('SO-48213'), another tool on the same order",
            tool_call("call_Ju9f", "get_order", {"order_id": "SO-48213"}),
            False,
        ),
    ]
    names = getattr(guarded_run_tool, "__globals__", {})
    bound = [name for name, value in names.items() if value is real]
    sundry.run_tool = watched
    for name in bound:
        names[name] = watched
    try:
        return check_cases(
            guarded_run_tool,
            [Case(name, (call,), judge(call, refused)) for name, call, refused in calls],
            EX1,
            success=(
                "Right: above $100 the call is refused before it runs, and the model reads why; "
                "at the limit, below it, and for every other tool, nothing changes. No prompt "
                "can promise that"
            ),
        )
    finally:
        sundry.run_tool = real
        for name in bound:
            names[name] = real


# ---- exercise 3 (optional): the system prompt's place on each wire ---------------------------

EX3 = Exercise(
    "09.3",
    look="lesson 02's four bodies of the same request: where each one keeps the system prompt, "
    "and what is left in its list of messages.",
    idea="each wire format keeps the system prompt in one place of its own, outside the "
    "conversation in three of them; a prompt written anywhere else is one more message the "
    "model reads as someone's words, and an old prompt left in its place, under either of its "
    "names, is a second one. The body you are given is the caller's: it stays as it was.",
    example="in Anthropic's format, a body whose first message is a user message holding the "
    "policy has no system prompt at all: the policy reads as the user's words; in Gemini's, a "
    "body that already has system_instruction and gets systemInstruction too sets one field "
    "twice.",
)
WIRE_FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def _placement_cases() -> list[tuple[str, dict, str, str]]:
    """(what the case is, a body, its wire format, the prompt to set): each format, with a
    system prompt already in its place and without one."""
    from helpers.examples import crash_triage, sundry
    from helpers.formats import render_for
    from helpers.messages import Request, user

    task = "Find why ./internal/orders panics on pickup orders, and fix it."
    with_system = sundry.ticket()
    without = Request("", [user(task)], list(crash_triage.TOOLS))
    prompts = (crash_triage.SYSTEM_PROMPT, sundry.SYSTEM_PROMPT)
    cases = []
    for wire in WIRE_FORMATS:
        body = render_for(with_system, wire).body
        cases.append((f"{wire}, replacing the prompt it has", body, wire, prompts[0]))
        body = render_for(without, wire).body
        cases.append((f"{wire}, with no system prompt yet", body, wire, prompts[1]))
    snake = render_for(with_system, "gemini").body  # Gemini reads the field in either spelling
    snake = {"system_instruction" if k == "systemInstruction" else k: v for k, v in snake.items()}
    cases.append(("gemini, its prompt spelled system_instruction", snake, "gemini", prompts[0]))
    return cases


def _placement_judge(body: dict, wire: str, prompt: str):
    from helpers.formats import FormatError, parse
    from standin.rules.spellings import TEXT

    before = parse(body, wire)
    talk = [m for m in before.messages if m.role != "system"]

    def judge(got: Any) -> str | None:
        if not isinstance(got, dict):
            return f"your function returned a {type(got).__name__}, not a request body (a dict)"
        if wire == "gemini" and {"systemInstruction", "system_instruction"} <= set(got):
            return (
                "the body sets both systemInstruction and system_instruction: one field under "
                "two spellings, and Gemini refuses it (400: "
                + TEXT.format(name="system_instruction")
                + ")"
            )
        try:
            after = parse(got, wire)
        except (FormatError, KeyError, TypeError, ValueError) as problem:
            return f"it is no longer a {wire} body: {problem}"
        systems = [m for m in after.messages if m.role == "system"]
        pasted = [m for m in after.messages if m.role != "system" and prompt in m.text]
        if pasted:
            return f"the prompt sits in a {pasted[0].role} message, not where {wire} keeps it"
        if not systems:
            return f"the body has no system prompt where {wire} keeps one"
        if len(systems) > 1:
            return f"the body holds {len(systems)} system prompts: the old one is still there"
        if systems[0].text in [m.text for m in before.messages if m.role == "system"]:
            return "the body still holds the system prompt it had, not the one given"
        if systems[0].text != prompt or after.messages[0] is not systems[0]:
            return "its system prompt is not the one given"
        if [m for m in after.messages if m.role != "system"] != talk:
            return "the conversation's messages changed: only the system prompt should"
        if (after.model, after.tools, after.tool_choice) != (
            before.model,
            before.tools,
            before.tool_choice,
        ):
            return "the model, the tools or the tool choice changed: only the system prompt should"
        return None

    return judge


def check_system_placement(set_system_prompt: Callable[[dict, str, str], dict]) -> Result:
    """Run the learner's ``set_system_prompt(body, wire_format, prompt)`` on a body of each
    wire format, with a system prompt and without (and Gemini's snake_case spelling); each
    result is read back as that format. A function that edits the body it is given is refused,
    as exercise 08.2 refuses it: the caller's body stays as it was."""
    import functools

    touched: list[bool] = []  # per case: did the learner's function change the body it got

    @functools.wraps(set_system_prompt)
    def watched(body: dict, wire: str, prompt: str) -> dict:
        given = copy.deepcopy(body)
        got = set_system_prompt(body, wire, prompt)
        touched.append(body != given)
        return got

    def unchanged(judge: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
        def judged(got: Any) -> str | None:
            if touched and touched[-1]:
                return (
                    "your function changed the body it was given: the caller may still use it "
                    "(to send it elsewhere, to log it), so return a new body and leave that one "
                    "as it was"
                )
            return judge(got)

        return judged

    cases = [
        Case(name, (body, wire, prompt), unchanged(_placement_judge(body, wire, prompt)))
        for name, body, wire, prompt in _placement_cases()
    ]
    return check_cases(
        watched if callable(set_system_prompt) else set_system_prompt,
        cases,
        EX3,
        success="Right: one system prompt, in each format's own place, and the conversation "
        "untouched. A helper that 'reminds' the model by pasting the prompt into a user message "
        "gets none of this",
    )
