"""The build exercises of lessons 11-13 (issue 33): each check refuses plausible wrong
implementations, naming the hidden case and why, and accepts right ones written differently.

11.1 ``answer_calls`` (the dispatch step), 11.3 ``how_it_ended`` (answered, finished or out of
budget, on traces of real runs), 12.1 ``fit_budget`` (a design within a budget, a ValueError when
none fits), 13.1 ``audit`` (copies of the system prompt, tools without a description), 13.2's
logging (every tool call still logged). No network: the runs go to the local provider on
loopback, 12.1 prices with the series' cost model.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from course import exercises
from course.exercises import the_agent_loop as ex11
from course.exercises import token_arithmetic_lab as ex12
from course.exercises import your_code_on_the_wire as ex13
from course.lab import LabScenario, cost_scenario
from helpers.messages import Request, Text, ToolCall, ToolResult, system, tool, tool_result, user
from helpers.models import default_model


@pytest.fixture(autouse=True)
def _fresh():
    exercises.reset()


def _refused(result, case: str, why: str) -> None:
    assert not result, result.message
    assert case in result.message and why in result.message, result.message


# ---- 11.1: the dispatch step ------------------------------------------------------------------


def dispatch_reference(reply, tools):
    results = []
    for block in reply.content:
        match block:
            case ToolCall():
                function = tools.get(block.name)
                if function is None:
                    text = f"no tool named {block.name!r}"
                    results.append(tool_result(block.id, text, is_error=True))
                    continue
                try:
                    results.append(tool_result(block.id, function(**block.arguments)))
                except Exception as error:
                    text = f"{type(error).__name__}: {error}"
                    results.append(tool_result(block.id, text, is_error=True))
    return results


def dispatch_as_a_message(reply, tools):
    """Right, written otherwise: the calls property, ToolResult built by hand, a tool message."""

    def one(call):
        if call.name not in tools:
            return ToolResult(call.id, [Text(f"unknown tool {call.name}")], True)
        try:
            return ToolResult(call.id, [Text(tools[call.name](**call.arguments))])
        except Exception as error:  # noqa: BLE001
            return ToolResult(call.id, [Text(str(error))], is_error=True)

    return tool(*[one(call) for call in reply.tool_calls])


def only_value_errors(reply, tools):
    out = []
    for call in reply.tool_calls:
        try:
            out.append(tool_result(call.id, tools[call.name](**call.arguments)))
        except ValueError as error:
            out.append(tool_result(call.id, str(error), is_error=True))
    return out


def every_error_but_unknown_tools(reply, tools):
    out = []
    for call in reply.tool_calls:
        function = tools[call.name]
        try:
            out.append(tool_result(call.id, function(**call.arguments)))
        except Exception as error:  # noqa: BLE001
            out.append(tool_result(call.id, str(error), is_error=True))
    return out


def errors_as_plain_text(reply, tools):
    out = []
    for call in reply.tool_calls:
        try:
            out.append(tool_result(call.id, tools[call.name](**call.arguments)))
        except Exception as error:  # noqa: BLE001
            out.append(tool_result(call.id, f"error: {error}"))
    return out


def one_per_tool_name(reply, tools):
    by_name = {call.name: call for call in reply.tool_calls}
    return dispatch_reference(replace(reply, content=list(by_name.values())), tools)


def test_11_1_wrong_dispatch_steps_are_refused_at_the_case_that_shows_why():
    cases = [
        (only_value_errors, "(an order the tool cannot find", "raised KeyError"),
        (every_error_but_unknown_tools, "(a call to a tool the request declares", "KeyError"),
        (errors_as_plain_text, "(a tool that raises, beside one that works)", "not flagged"),
        (one_per_tool_name, "(reasoning, text, then the same tool twice", "1 result for 2 calls"),
    ]
    for wrong, case, why in cases:
        exercises.reset()
        _refused(ex11.check_dispatch(wrong), case, why)


def test_11_1_results_out_of_order_or_a_provider_refusal_are_told():
    def reversed_order(reply, tools):
        return dispatch_reference(reply, tools)[::-1]

    _refused(ex11.check_dispatch(reversed_order), "(two calls at once)", "in order")

    def images_for_errors(reply, tools):  # an empty content: no text to say what went wrong
        return [
            ToolResult(r.call_id, [], True) if r.is_error else r
            for r in dispatch_reference(reply, tools)
        ]

    _refused(ex11.check_dispatch(images_for_errors), "(a tool that raises", "what went wrong")


def test_11_1_right_dispatch_steps_written_differently_pass():
    assert ex11.check_dispatch(dispatch_reference)
    assert ex11.check_dispatch(dispatch_as_a_message)


# ---- 12.1: a design within a budget ------------------------------------------------------------


@pytest.fixture(scope="module")
def baseline() -> LabScenario:
    return LabScenario(model=default_model("openai"), requests=6, tools=9, result_tokens=150)


def fit_reference(scenario, budget):
    cached = replace(scenario, caching=True)
    trimmed = replace(cached, tools=min(scenario.tools, 9))
    for design in (scenario, cached, trimmed):
        if cost_scenario(design).per_ticket <= budget:
            return design
    for at in range(scenario.requests - 1, 0, -1):
        compacted = replace(trimmed, compact_at=at, keep_last=4)
        if cost_scenario(compacted).per_ticket <= budget:
            return compacted
    raise ValueError("no design fits")


def fit_from_a_list(scenario, budget):
    """Right, written otherwise: every candidate listed first, the first that fits taken."""
    keep = replace(scenario, caching=True, tools=min(9, scenario.tools))
    later_first = sorted(range(1, scenario.requests), reverse=True)
    candidates = [scenario, replace(scenario, caching=True), keep]
    candidates += [replace(keep, compact_at=at, keep_last=4) for at in later_first]
    found = next((d for d in candidates if cost_scenario(d).per_ticket <= budget), None)
    if found is None:  # the brief (fix round): no design fits -> a ValueError saying so
        raise ValueError(f"nothing fits ${budget}")
    return found


def test_12_1_wrong_designs_are_refused_with_what_they_lose(baseline):
    def everything_at_once(scenario, budget):
        return replace(scenario, caching=True, tools=min(scenario.tools, 9), compact_at=1)

    _refused(
        ex12.check_fit_budget(everything_at_once, baseline),
        "(a ticket that already fits",
        "already fits its budget",
    )

    def earliest_compaction(scenario, budget):
        trimmed = replace(scenario, caching=True, tools=min(scenario.tools, 9))
        if cost_scenario(trimmed).per_ticket <= budget:
            return fit_reference(scenario, budget)
        for at in range(1, scenario.requests):
            design = replace(trimmed, compact_at=at, keep_last=4)
            if cost_scenario(design).per_ticket <= budget:
                return design

    exercises.reset()
    _refused(
        ex12.check_fit_budget(earliest_compaction, baseline),
        "(a long ticket with every tool",
        "a later compaction fits too",
    )

    def nine_tools_always(scenario, budget):  # "only Sundry's nine", read as "nine"
        trimmed = replace(scenario, caching=True, tools=9)
        for design in (scenario, replace(scenario, caching=True), trimmed):
            if cost_scenario(design).per_ticket <= budget:
                return design
        for at in range(scenario.requests - 1, 0, -1):
            design = replace(trimmed, compact_at=at, keep_last=4)
            if cost_scenario(design).per_ticket <= budget:
                break
        return design

    exercises.reset()
    _refused(
        ex12.check_fit_budget(nine_tools_always, baseline),
        "(a long ticket with five tools",
        "sends 9 tools where the ticket sent 5",
    )

    def trims_with_the_cache(scenario, budget):  # steps 2 and 3 taken as one
        trimmed = replace(scenario, caching=True, tools=min(scenario.tools, 9))
        return (
            scenario
            if cost_scenario(scenario).per_ticket <= budget
            else (
                trimmed
                if cost_scenario(trimmed).per_ticket <= budget
                else fit_reference(scenario, budget)
            )
        )

    exercises.reset()
    _refused(
        ex12.check_fit_budget(trims_with_the_cache, baseline),
        "(fourteen tools, the cache off)",
        "drops tools, and with the cache on alone it fits",
    )

    def keeps_two(scenario, budget):
        design = fit_reference(scenario, budget)
        return replace(design, keep_last=2) if design.compact_at else design

    exercises.reset()
    _refused(ex12.check_fit_budget(keeps_two, baseline), "(a long ticket", "the brief says 4")


def test_12_1_right_designs_written_differently_pass(baseline):
    assert ex12.check_fit_budget(fit_reference, baseline)
    assert ex12.check_fit_budget(fit_from_a_list, baseline)


# ---- 13.1: an audit of the wire -----------------------------------------------------------------


def audit_reference(request, system_text):
    copies = sum(
        block.text.count(system_text)
        for message in request.messages
        if message.role == "system"
        for block in message.content
        if block.type == "text"
    )
    return copies, [t.name for t in request.tools if not (t.description or "").strip()]


def audit_joined(request, system_text):
    """Right, written otherwise: system texts joined by a separator no prompt holds, a tuple."""
    texts = [b.text for m in request.messages if m.role == "system" for b in m.content]
    names = tuple(
        t.name for t in request.tools if (t.description or "").isspace() or not t.description
    )
    return "\x00".join(texts).count(system_text), names


def test_13_1_wrong_audits_are_refused_at_the_case_that_shows_why():
    def whole_messages(request, system_text):
        copies = sum(system_text in m.text for m in request.messages if m.role == "system")
        return copies, audit_reference(request, system_text)[1]

    def every_message(request, system_text):
        texts = [b.text for m in request.messages for b in m.content if hasattr(b, "text")]
        return sum(t.count(system_text) for t in texts), audit_reference(request, system_text)[1]

    def empty_only(request, system_text):
        return audit_reference(request, system_text)[0], [
            t.name for t in request.tools if t.description == ""
        ]

    def sorted_names(request, system_text):
        copies, names = audit_reference(request, system_text)
        return copies, sorted(names)

    cases = [
        (whole_messages, "(two copies joined in one system text (anthropic))", "counts 1 copies"),
        (every_message, "a buyer who quotes the prompt", "counts 2 copies"),
        (empty_only, "(a blank description", "lists []"),
        (sorted_names, "(two undescribed tools, in the order declared", "in that order"),
    ]
    for wrong, case, why in cases:
        exercises.reset()
        _refused(ex13.check_audit(wrong, ex13.AUDIT_PROMPT, None), case, why)


def test_13_1_right_audits_written_differently_pass_and_report_the_broken_set_up():
    class Seen:  # what check_audit reads of the learner's capture: its first request
        request = Request(
            "gpt-4o-mini",
            [system(ex13.AUDIT_PROMPT), system(ex13.AUDIT_PROMPT), user("Hi")],
            [],
        )

    for right in (audit_reference, audit_joined):
        told = ex13.check_audit(right, ex13.AUDIT_PROMPT, [Seen()])
        assert told and "the prompt sent 2 times, and no tool without" in told.message


def test_13_2_a_reworded_prompt_is_told_as_reworded_not_missing():
    prompt = ex13.AUDIT_PROMPT
    reworded = Request("m", [system("You are Sundry's agent. Check orders first."), user("Hi")])
    told = ex13.system_problem(reworded, prompt)
    assert "not in it, word for word" in told and "not sent at all" not in told
    assert ex13.system_problem(Request("m", [user("Hi")]), prompt) == (
        "the system prompt is not sent at all"
    )


# ---- fix round (walk of lessons 11-13) ---------------------------------------------------------


def ended_reference(trace):
    if not trace.steps[-1].tool_calls:
        return "answered"
    return "finished" if trace.finish is not None else "out of budget"


def ended_by_stop_reason(trace):
    """Right, written otherwise: the last reply's stop reason and the finishing call."""
    if trace.finish:
        return "finished"
    return "out of budget" if trace.steps[-1].reply.stop_reason == "tool_calls" else "answered"


def test_11_3_wrong_endings_are_refused_at_the_trace_that_shows_why():
    def calls_mean_budget(trace):  # forgets the finishing tool
        return "out of budget" if trace.steps[-1].tool_names else "answered"

    def finish_or_answered(trace):  # forgets the budget
        return "finished" if trace.finish else "answered"

    def counts_requests(trace):  # "a budget is used up when the run is short"
        return "answered" if len(trace.steps) >= 4 else "out of budget"

    cases = [
        (calls_mean_budget, "(a crash report that ends on its finishing tool)", "'out of budget'"),
        (finish_or_answered, "(Jon's ticket with a budget of 2 requests)", "'answered'"),
        (counts_requests, "(a crash report that ends on its finishing tool)", "gave"),
    ]
    for wrong, case, why in cases:
        exercises.reset()
        _refused(ex11.check_how_it_ended(wrong), case, why)


def test_11_3_right_endings_written_differently_pass():
    assert ex11.check_how_it_ended(ended_reference)
    assert ex11.check_how_it_ended(ended_by_stop_reason)


def test_12_1_at_most_includes_the_budget_and_no_fit_raises(baseline):
    def strictly_under(scenario, budget):
        cached = replace(scenario, caching=True)
        trimmed = replace(cached, tools=min(scenario.tools, 9))
        for design in (scenario, cached, trimmed):
            if cost_scenario(design).per_ticket < budget:
                return design
        for at in range(scenario.requests - 1, 0, -1):
            compacted = replace(trimmed, compact_at=at, keep_last=4)
            if cost_scenario(compacted).per_ticket < budget:
                return compacted
        raise ValueError("no design fits")

    _refused(
        ex12.check_fit_budget(strictly_under, baseline),
        "(the cache off, a budget of exactly the cached ticket's cost)",
        "exactly the budget",
    )

    def none_when_nothing_fits(scenario, budget):
        try:
            return fit_reference(scenario, budget)
        except ValueError:
            return None

    exercises.reset()
    _refused(
        ex12.check_fit_budget(none_when_nothing_fits, baseline),
        "(a budget no design can meet)",
        "the brief asks for a ValueError",  # the second walk: said for this case (was: "every
        # path should end in a return", which sent the learner the wrong way)
    )

    def cheapest_when_nothing_fits(scenario, budget):
        try:
            return fit_reference(scenario, budget)
        except ValueError:
            return replace(scenario, caching=True, tools=min(scenario.tools, 9), compact_at=1)

    exercises.reset()
    _refused(
        ex12.check_fit_budget(cheapest_when_nothing_fits, baseline),
        "(a budget no design can meet)",
        "the brief says what to do when none fits",
    )

    def raises_too_soon(scenario, budget):
        if cost_scenario(replace(scenario, caching=True)).per_ticket > budget:
            raise ValueError("over budget")
        return fit_reference(scenario, budget)

    exercises.reset()
    _refused(
        ex12.check_fit_budget(raises_too_soon, baseline),
        "(fourteen tools, the cache on)",
        "a design within",
    )


# ---- 13.2: the fixed set-up keeps its logging -------------------------------------------------


def _agents():
    """Lesson 13's set-up pieces: the tools and the team's logger (prints each call)."""
    import functools
    import json

    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent

    orders = {"SO-48213": {"status": "delivered", "item": "Ceramic mug", "seller": "Kiln & Co"}}

    def search_orders(query: str) -> str:
        """Find a buyer's orders by order number or e-mail address."""
        return json.dumps(orders.get(query, {"error": "no order"}))

    def get_order(order_id: str) -> str:
        """Look up one order by its number: status, item and seller."""
        return json.dumps(orders.get(order_id, {"error": "no such order"}))

    def logged(tool):  # the team's utility, as the lesson has it
        def wrapper(*args, **kwargs):
            print("tool call:", tool.__name__, args, kwargs)
            return tool(*args, **kwargs)

        return wrapper

    def logged_well(tool):
        @functools.wraps(tool)
        def wrapper(*args, **kwargs):
            print("tool call:", tool.__name__, args, kwargs)
            return tool(*args, **kwargs)

        return wrapper

    return Agent, search_orders, get_order, logged, logged_well


def test_13_2_a_logger_that_never_runs_is_refused_when_logging_is_asked_for():
    Agent, search_orders, get_order, logged, logged_well = _agents()
    system_text = ex13.AUDIT_PROMPT

    class Broken:  # what check_fixed_agent reads of the broken capture: model and request
        model = default_model("openai")
        request = Request("m", [system(system_text)], [])

    broken = [Broken()]

    def logged_above(model):  # the decorator wraps what tool_plain returned: never called
        agent = Agent(model, instructions=system_text, tools=[search_orders])
        agent.tool_plain(get_order)
        logged_well(get_order)
        return agent

    def no_logger(model):
        return Agent(model, instructions=system_text, tools=[search_orders, get_order])

    for wrong in (logged_above, no_logger):
        exercises.reset()
        told = ex13.check_fixed_agent(wrong, system_text, broken, logged_tool="get_order")
        assert not told and "nothing was printed" in told.message, told.message
    assert ex13.check_fixed_agent(no_logger, system_text, broken)  # not asked: fine

    def wrapped(model):
        return Agent(model, instructions=system_text, tools=[search_orders, logged_well(get_order)])

    def logs_inside(model):
        agent = Agent(model, system_prompt=system_text, tools=[search_orders])

        @agent.tool_plain
        def get_order(order_id: str) -> str:
            """Look up one order by its number: status, item and seller."""
            print(f"[log] get_order({order_id!r})")
            return "{}"

        return agent

    for right in (wrapped, logs_inside):
        exercises.reset()
        told = ex13.check_fixed_agent(right, system_text, broken, logged_tool="get_order")
        assert told and "get_order's calls still logged" in told.message, told.message


# ---- the second walk (issue 33): mistakes a learner made that the checks now name ------------


def test_12_1_a_ticket_given_more_tools_is_told_it_keeps_its_own(baseline):
    def nine_tools_or_raise(scenario, budget):  # a five-tool ticket given nine, then no fit
        trimmed = replace(scenario, caching=True, tools=9)
        for design in (scenario, replace(scenario, caching=True), trimmed):
            if cost_scenario(design).per_ticket <= budget:
                return design
        for at in range(scenario.requests - 1, 0, -1):
            design = replace(trimmed, compact_at=at, keep_last=4)
            if cost_scenario(design).per_ticket <= budget:
                return design
        raise ValueError("no design fits")

    _refused(
        ex12.check_fit_budget(nine_tools_or_raise, baseline),
        "(a long ticket with five tools",
        "fewer than nine, and keeps its own 5",
    )


def test_11_3_an_answer_without_text_is_still_an_answer():
    def by_the_last_words(trace):  # the meter's view: no text, so the budget ran out
        if trace.finish:
            return "finished"
        return "answered" if trace.final_text else "out of budget"

    _refused(
        ex11.check_how_it_ended(by_the_last_words),
        "(Maya's ticket, its last reply an empty end of turn",
        "gave 'out of budget'",
    )


def test_13_2_a_wrapper_named_and_described_by_hand_still_sends_its_own_parameters():
    Agent, search_orders, get_order, logged, logged_well = _agents()
    system_text = ex13.AUDIT_PROMPT

    class Broken:
        model = default_model("openai")
        request = Request("m", [system(system_text)], [])

    def named_by_hand(model):  # name and description given, the signature still the wrapper's
        agent = Agent(model, instructions=system_text, tools=[search_orders])
        description = "Look up one order by its number: status, item and seller."
        agent.tool_plain(name="get_order", description=description)(logged(get_order))
        return agent

    told = ex13.check_fixed_agent(named_by_hand, system_text, [Broken()], logged_tool="get_order")
    assert not told and "takes a wrapper's parameters (args)" in told.message, told.message


# ---- the third walk (issue 33): the same mistakes told the same way, whatever the code's shape --


def test_12_1_returning_none_gets_the_same_diagnosis_as_raising(baseline):
    def nine_tools_or_none(scenario, budget):  # the walk's code: a five-tool ticket given nine
        tries = [
            scenario,
            replace(scenario, caching=True),
            replace(scenario, caching=True, tools=9),
        ]
        tries += [
            replace(tries[-1], compact_at=k, keep_last=4)
            for k in range(scenario.requests - 1, 0, -1)
        ]
        for design in tries:
            if cost_scenario(design).per_ticket <= budget:
                return design
        return None

    result = ex12.check_fit_budget(nine_tools_or_none, baseline)
    _refused(result, "(a long ticket with five tools", "returned None, and a design within")
    assert "fewer than nine, and keeps its own 5" in result.message, result.message


def test_11_1_the_third_hint_is_an_example_of_the_failing_case():
    for wrong, example in (
        (every_error_but_unknown_tools, "the table has no function for needs two results"),
        (one_per_tool_name, "exactly one result"),
    ):
        exercises.reset()
        for _ in range(3):
            result = ex11.check_dispatch(wrong)
        assert "A smaller example:" in result.message and example in result.message, result.message
        assert "if lookup('B') raises" not in result.message, result.message
    exercises.reset()
    for _ in range(3):
        result = ex11.check_dispatch(errors_as_plain_text)  # a raising tool: the exercise's own
    assert "if lookup('B') raises" in result.message, result.message


def test_11_2_returning_the_groups_themselves_is_told_a_list_of_statuses_is_expected():
    from helpers.examples import crash_triage
    from helpers.loop import run
    from standin import LocalProvider

    model = default_model("openai")
    with LocalProvider(scenario="crash-triage") as provider:

        def diagnose(report):
            workspace = crash_triage.Workspace()
            trace = run(
                crash_triage.opening(model, report),
                lambda call: crash_triage.run_tool(call, workspace),
                format="openai-chat",
                base_url=provider.url,
                finish=crash_triage.FINISH,
            )
            return trace.finish.arguments["groups"]

        told = ex11.check_structured_finish(diagnose, provider)
    _refused(told, "diagnose returned [{", "a list of strings is expected")


def test_13_2_every_logger_line_is_captured_by_the_check(capsys):
    Agent, search_orders, get_order, logged, logged_well = _agents()
    system_text = ex13.AUDIT_PROMPT

    class Broken:
        model = default_model("openai")
        request = Request("m", [system(system_text)], [])

    def both_logged(model):  # the first run calls search_orders: its line is the check's too
        tools = [logged_well(search_orders), logged_well(get_order)]
        return Agent(model, instructions=system_text, tools=tools)

    capsys.readouterr()
    told = ex13.check_fixed_agent(both_logged, system_text, [Broken()], logged_tool="get_order")
    assert told, told.message
    assert "tool call:" not in capsys.readouterr().out
