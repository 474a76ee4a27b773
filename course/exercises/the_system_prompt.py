"""Used in lessons: 09.

Exercises of notebooks/09_the_system_prompt.ipynb."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    as_number,
    check_cases,
    check_function,
    check_number,
    is_stub,
    not_answered,
    not_yet,
)
from helpers.loop import Trace
from helpers.messages import ToolCall, ToolResult

EX1 = Exercise(
    "09.1",
    look="the cell under 'What it costs': what it counted, and how many requests the run sent.",
    idea="the system prompt is re-sent with every request, so a line you add is paid once per "
    "request of the run; what you add is the difference between the two whole prompts, the line "
    "break before your rule included.",
    example="a prompt 10 tokens longer, sent by a run of 3 requests, sends 30 tokens more.",
)
EX2 = Exercise(
    "09.2",
    look="the call the check names: its tool, its arguments, and what your function gave back "
    "for it.",
    idea="a rule the code enforces holds whatever the prompt says: the call is refused before "
    "it runs, with an error result the model can read (it says why), and every other call runs "
    "exactly as before.",
    example="a guard that allows at most 3 items answers an order of 5 with an error result "
    "saying the limit, and passes an order of 3 through untouched.",
)
EX3 = Exercise(
    "09.3",
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
                EX3,
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
        EX3,
        describe=describe,
        success=f"Right: the steps are {steps:.0%} of the crash-triage prompt and Sundry's refund "
        f"policy {refunds:.0%} of its own; the one rule is {one_rule:.0%}. Procedures and "
        "policies take the tokens, and they are paid for on every request.",
    )


def check_added_rule(answer: int, my_prompt: str, run: Trace, model: str) -> Result:
    """``my_prompt``: the crash-triage prompt with a line of the learner's own added."""
    from helpers.examples import crash_triage
    from helpers.tokens import count_text

    if not_answered(answer):
        return check_number(answer, 0, EX1, success="")
    if not isinstance(my_prompt, str):
        return not_yet(EX1, f"my_prompt is a {type(my_prompt).__name__}, not a text")
    if my_prompt.strip() == crash_triage.SYSTEM_PROMPT.strip():
        return not_yet(EX1, "my_prompt is still the prompt as it was: write your rule into it")
    if crash_triage.SYSTEM_PROMPT not in my_prompt:
        return not_yet(
            EX1,
            "my_prompt no longer holds the whole crash-triage prompt: add your rule to it, "
            "keep what is there",
        )
    extra = count_text(my_prompt, model) - count_text(crash_triage.SYSTEM_PROMPT, model)
    expected = extra * len(run.steps)
    added = my_prompt.replace(crash_triage.SYSTEM_PROMPT, "", 1).strip()
    rule_alone = count_text(added, model)
    if as_number(answer) == rule_alone * len(run.steps) != expected:
        return not_yet(
            EX1,
            "that counts your rule's own tokens; what the run sends more is the difference "
            "between the two whole prompts (the line break before your rule is sent too)",
            kind="number",
            expected=expected,
        )
    from helpers.cost import Usage, price

    repeated = already_said(added, crash_triage.SYSTEM_PROMPT)
    if repeated and as_number(answer) == expected:
        return not_yet(
            EX1,
            f"your count is right, but your rule says again what the prompt already says "
            f"({repeated!r}): a repeat is paid for and changes nothing. Write a rule the prompt "
            "does not have yet (if yours is new, word it so that it says what is new)",
            kind="number",
            expected=expected,
        )
    near = _content_words(added) & _content_words(_ONE_RULE)
    note = (  # only when the rule shares words with the prompt's one rule: it may repeat it
        " Your rule shares words with the prompt's one rule, which already says "
        f"{_ONE_RULE!r}: if it says the same in other words, it is paid for and changes nothing."
        if len(near) >= 2
        else ""
    )
    per_thousand = price(Usage(input_tokens=abs(expected) * 1000), model).total_usd
    return check_number(
        answer,
        expected,
        EX1,
        success=(
            f"Right: your prompt is {extra:+} tokens, so {len(run.steps)} requests send "
            f"{expected:+,} tokens (if the run is otherwise unchanged): ${per_thousand:.4f} per "
            f"1,000 runs on {model}, before caching. Small per line; every line still has to "
            "earn its place, by changing what the agent does." + note
        ),
    )


_ONE_RULE = "never change or delete an existing test"
_SAME = {  # words a learner uses for the same idea, folded to one
    "modify": "change",
    "edit": "change",
    "alter": "change",
    "rewrite": "change",
    "touch": "change",
    "leave": "change",  # "leave ... as they are": polarity is not compared, only the idea
    "old": "existing",
    "current": "existing",
    "remove": "delete",
    "drop": "delete",
    "never": "not",
    "don't": "not",
    "dont": "not",
    "must": "",
    "should": "",
    "always": "",
}
_STOP = {
    *("a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "as", "at"),
    *("is", "are", "be", "it", "its", "this", "that", "your", "you", "any", "each", "every"),
    *("all", "one", "once", "do", "does", "not", "they", "them", "exactly", "alone"),
}


def _content_words(text: str) -> set[str]:
    import re

    words = set()
    for word in re.findall(r"[a-z_']+", text.lower()):
        word = _SAME.get(word, word)
        for ending in ("ing", "ed", "s"):
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                word = word[: -len(ending)]
                break
        if word and word not in _STOP:
            words.add(word)
    return words


def already_said(rule: str, prompt: str) -> str:
    """The sentence of ``prompt`` that ``rule`` likely repeats ('' if none): all but at most a
    quarter of the rule's content words (rounded down) are in that one sentence."""
    import math
    import re

    mine = _content_words(rule)
    if len(mine) < 2:
        return ""
    sentences = [s.strip() for s in re.split(r"(?<=[.:])\s+|\n+", prompt) if s.strip()]
    best = max(sentences, key=lambda s: len(mine & _content_words(s)))
    shared = len(mine & _content_words(best))
    return best if shared >= max(2, math.ceil(0.75 * len(mine))) else ""


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
            EX2,
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


# ---- exercise 4 (optional): the system prompt's place on each wire ---------------------------

EX4 = Exercise(
    "09.4",
    look="lesson 02's four bodies of the same request: where each one keeps the system prompt, "
    "and what is left in its list of messages.",
    idea="each wire format keeps the system prompt in one place of its own, outside the "
    "conversation in three of them; a prompt written anywhere else is one more message the "
    "model reads as someone's words, and an old prompt left in its place is a second one.",
    example="in Anthropic's format, a body whose first message is a user message holding the "
    "policy has no system prompt at all: the policy reads as the user's words.",
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
    return cases


def _placement_judge(body: dict, wire: str, prompt: str):
    from helpers.formats import FormatError, parse

    before = parse(body, wire)
    talk = [m for m in before.messages if m.role != "system"]

    def judge(got: Any) -> str | None:
        if not isinstance(got, dict):
            return f"your function returned a {type(got).__name__}, not a request body (a dict)"
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
    wire format, with a system prompt and without; each result is read back as that format."""
    cases = [
        Case(name, (body, wire, prompt), _placement_judge(body, wire, prompt))
        for name, body, wire, prompt in _placement_cases()
    ]
    return check_cases(
        set_system_prompt,
        cases,
        EX4,
        success="Right: one system prompt, in each format's own place, and the conversation "
        "untouched. A helper that 'reminds' the model by pasting the prompt into a user message "
        "gets none of this",
    )
