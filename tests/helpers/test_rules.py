"""Tests for helpers.rules: valid conversations pass, each corruption is caught by the right rule,
and each provider's error text names the right message, block and call in its own numbering."""

from __future__ import annotations

import copy
import importlib.util
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.examples import sundry
from helpers.messages import (
    Message,
    Reasoning,
    Request,
    Text,
    Tool,
    ToolCall,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)
from helpers.rules import Violation, explain
from helpers.rules.anthropic import anthropic_numbering
from helpers.rules.gemini import gemini_turns
from helpers.rules.openai_chat import chat_numbering
from standin.rules import error_response, first_violation_error
from standin.rules.strict import PROFILES, check
from tests.helpers.corruptions import CORRUPTIONS, user_between_call_and_result
from tests.support.strategies import conversations

FEW = settings(max_examples=100, deadline=None)


def found(violations: list[Violation]) -> set[tuple[str, int | None, str | None]]:
    return {(v.rule, v.message_index, v.call_id) for v in violations}


def only(violations: list[Violation], rule: str) -> Violation:
    matching = [v for v in violations if v.rule == rule]
    assert len(matching) == 1, explain(violations)
    return matching[0]


# --- generated conversations --------------------------------------------------------------------


@FEW
@given(conversations())
def test_valid_conversations_break_no_rule_under_any_profile(request):
    # The generator's conversations suit every profile: after the renderer turns tool messages
    # into user messages and merges the user message after them, turns alternate user/assistant
    # (anthropic-strict), every call turn follows a user turn (gemini), and reasoning blocks
    # carry no Responses item id (openai-responses checks only those). One exception below.
    for profile in PROFILES:
        if profile == "anthropic-strict" and _reasoning_only_assistant(request):
            continue
        assert check(request, profile) == [], f"{profile}: {explain(check(request, profile))}"


def _reasoning_only_assistant(request: Request) -> bool:
    """An assistant message holding only reasoning Anthropic cannot take (no signature)."""
    return any(
        m.role == "assistant"
        and all(isinstance(b, Reasoning) and b.signature is None for b in m.content)
        for m in request.messages
    )


@FEW
@given(conversations(reasoning=True))
def test_a_reasoning_only_turn_breaks_alternation_on_the_strict_anthropic_wire(request):
    # Anthropic rejects reasoning without a signature, so the renderer leaves such a block out;
    # an assistant message holding nothing else disappears and two user turns meet. The
    # first-party API merges them; Bedrock (anthropic-strict) does not.
    if not _reasoning_only_assistant(request):
        return
    assert check(request, "anthropic") == []
    assert {v.rule for v in check(request, "anthropic-strict")} == {"roles-must-alternate"}


@FEW
@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__)
@given(request=conversations(), data=st.data())
def test_each_corruption_is_caught_by_its_rule(corrupt, request, data):
    broken = corrupt(request, lambda options: data.draw(st.sampled_from(options)))
    if broken is None:
        return
    broken_request, expected = broken
    assert found(check(broken_request)) == expected
    for profile in PROFILES:  # every profile reports at least the shared rules' findings
        assert expected <= found(check(broken_request, profile)), profile


@FEW
@given(request=conversations(reasoning=False), data=st.data())
def test_a_user_message_between_calls_and_results_breaks_provider_rules(request, data):
    broken = user_between_call_and_result(request, lambda xs: data.draw(st.sampled_from(xs)))
    if broken is None:
        return
    r, _ = broken
    i = next(k for k, m in enumerate(r.messages) if m.text == "Are you still there?")
    calls = {c.id for c in r.messages[i - 1].tool_calls}
    first_result = r.messages[i + 1].content[0].call_id
    assert check(r) == [] and check(r, "openai-responses") == []
    assert found(check(r, "openai-chat")) == {("results-not-adjacent", i, c) for c in calls}
    assert found(check(r, "anthropic")) == {("results-not-first", i, c) for c in calls}
    assert found(check(r, "anthropic-strict")) == {("results-not-first", i, c) for c in calls} | {
        ("roles-must-alternate", i + 1, None)
    }
    first_call = r.messages[i - 1].tool_calls[0].id  # Gemini: the user turn answers no call
    assert found(check(r, "gemini")) == {
        ("response-count", i, first_call),
        ("response-turn-position", i + 1, first_result),
    }


# --- the numbering matches the renderers (when helpers.formats is there) -----------------------


@FEW
@given(conversations())
def test_anthropic_numbering_matches_the_renderer(request):
    if importlib.util.find_spec("helpers.formats.anthropic_render") is None:
        pytest.skip("helpers.formats.anthropic_render not available")
    from helpers.formats.anthropic_render import render_request
    from helpers.formats.common import Notes

    body = render_request(request, Notes())
    wire = anthropic_numbering(request.messages)
    assert [m.role for m in wire] == [m["role"] for m in body["messages"]]
    assert [len(m.parts) for m in wire] == [len(m["content"]) for m in body["messages"]]


@FEW
@given(conversations())
def test_chat_numbering_matches_the_renderer(request):
    if importlib.util.find_spec("helpers.formats.openai_chat_render") is None:
        pytest.skip("helpers.formats.openai_chat_render not available")
    from helpers.formats.common import Notes
    from helpers.formats.openai_chat_render import render_request

    body = render_request(request, Notes())
    chat = chat_numbering(request.messages)
    assert [m.role for m in chat] == [m["role"] for m in body["messages"]]
    assert [m.tool_call_id for m in chat] == [m.get("tool_call_id") for m in body["messages"]]


@FEW
@given(conversations())
def test_gemini_turns_match_the_renderer(request):
    if importlib.util.find_spec("helpers.formats.gemini_render") is None:
        pytest.skip("helpers.formats.gemini_render not available")
    from helpers.formats.common import Notes
    from helpers.formats.gemini_render import render_request

    body = render_request(request, Notes())
    turns = gemini_turns(request.messages)
    assert [t.kind != "model" for t in turns] == [c["role"] == "user" for c in body["contents"]]
    assert [len(t.calls) for t in turns] == [
        sum("functionCall" in p for p in c["parts"]) for c in body["contents"]
    ]


# --- the shared rules, one at a time -------------------------------------------------------------


def test_sundry_ticket_is_valid_everywhere():
    for profile in PROFILES:
        assert check(sundry.ticket(), profile) == []


def test_content_must_be_a_list_of_known_blocks():
    bad = [Message("user", "hi"), Message("assistant", [{"type": "text", "text": "hi"}])]
    vs = check(bad)
    assert found(vs) == {("content-not-list", 0, None), ("unknown-block", 1, None)}
    assert "list of blocks" in only(vs, "content-not-list").message
    assert "block_from_json" in only(vs, "unknown-block").message
    assert only(vs, "unknown-block").block_index == 0


def test_unknown_role_and_no_conversation():
    assert found(check([system("Be kind.")])) == {("no-messages", None, None)}
    assert found(check([Message("model", [Text("hi")])])) == {("unknown-role", 0, None)}


def test_empty_and_blank_text_blocks():
    vs = check([user("hi", ""), assistant("   ")])
    assert {(v.rule, v.message_index, v.block_index) for v in vs} == {
        ("empty-content", 0, 1),
        ("empty-content", 1, 0),
    }


def test_blocks_must_sit_in_the_right_role():
    messages = [
        user("hi", tool_call("c1", "search_orders")),
        assistant("ok", tool_result("c1", "done")),
        tool(tool_result("c1", "x"), Text("note")),
        user(Reasoning("hmm")),
        system("first"),
    ]
    rules = {v.rule for v in check(messages)}
    assert {
        "call-outside-assistant",
        "result-outside-tool-message",
        "tool-message-content",
        "block-not-allowed",
        "system-not-first",
    } <= rules


def test_a_later_system_message_is_a_warning_that_says_it_is_accepted():
    (found_one,) = [
        v for v in check([user("hi"), system("be brief")]) if v.rule == "system-not-first"
    ]
    assert "message 1" in found_one.message and "accepted" in found_one.message
    assert "may only come first" not in found_one.message  # no provider has that rule


def test_arguments_object_and_known_tools():
    req = sundry.ticket()
    req.messages[2].content[1] = ToolCall("c1", "search_order", '{"query": "SO-48213"}')
    req.tools.append(Tool("get_order"))
    vs = check(req)
    assert found(vs) == {
        ("arguments-not-object", 2, "c1"),
        ("unknown-tool", 2, "c1"),
        ("duplicate-tool", None, None),
    }
    assert "search_order" in only(vs, "unknown-tool").message


def test_tool_names_are_only_checked_when_the_request_defines_tools():
    assert (
        check([user("hi"), assistant(tool_call("c1", "anything")), tool(tool_result("c1", "x"))])
        == []
    )


def test_check_reads_neutral_json_and_refuses_other_things():
    assert check([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]) == []
    with pytest.raises(TypeError, match="messages\\[0\\]"):
        check(["hi"])
    with pytest.raises(ValueError, match="unknown profile"):
        check(sundry.ticket(), "openai")


def test_violation_prints_where_what_and_rule():
    req = sundry.ticket()
    del req.messages[3]
    v = check(req)[0]
    assert str(v).startswith("messages[2].content[1] (call c1): no tool_result answers this call")
    assert str(v).endswith("[call-not-answered]")
    report = explain(check(req, "anthropic"))
    assert report.splitlines()[0] == "1 violation of the rules of the list (profile anthropic):"
    assert "anthropic answers: messages.1: `tool_use` ids" in report
    assert explain([]) == "no violations" and str(check(sundry.ticket())) == "no violations"
    assert repr(check(req)) == str(check(req))  # in a notebook too, the report


# --- OpenAI Chat ---------------------------------------------------------------------------------


def test_openai_chat_unanswered_call_names_the_next_message_role():
    req = sundry.ticket()
    req.messages[3] = user("Hello? Anyone there?")
    v = only(check(req, "openai-chat"), "call-not-answered")
    assert v.provider_error == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to "
        "each 'tool_call_id'. The following tool_call_ids did not have response messages: c1"
    )
    assert v.provider_param == "messages.[3].role"
    status, body = error_response(v, "openai-chat")
    assert status == 400
    assert body == {
        "error": {
            "message": v.provider_error,
            "type": "invalid_request_error",
            "param": "messages.[3].role",
            "code": None,
        }
    }


def test_openai_chat_counts_one_message_per_tool_result():
    req = sundry.ticket()
    req.messages[2] = assistant(tool_call("c1", "get_order"), tool_call("c2", "get_tracking"))
    req.messages[3] = tool(tool_result("c1", "{}"), tool_result("c2", "[]"))
    req.messages += [user("And the refund?"), assistant(tool_call("c3", "issue_refund"))]
    req.messages += [user("Well?")]
    v = only(check(req, "openai-chat"), "call-not-answered")
    assert (v.message_index, v.block_index, v.call_id) == (5, 0, "c3")
    # chat list: system, user, assistant, tool c1, tool c2, user, assistant, user
    assert v.provider_param == "messages.[7].role"


def test_openai_chat_orphan_and_unknown_id():
    req = sundry.ticket()
    del req.messages[2]  # the assistant message with the call
    v = only(check(req, "openai-chat"), "result-without-call")
    assert (v.message_index, v.block_index, v.call_id) == (2, 0, "c1")
    assert v.provider_error == (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
        "message with 'tool_calls'."
    )
    assert v.provider_param == "messages.[2].role"

    req = sundry.ticket()
    req.messages[3].content.append(tool_result("c9", "stray"))
    v = only(check(req, "openai-chat"), "result-without-call")
    assert (v.message_index, v.block_index, v.call_id) == (3, 1, "c9")
    assert v.provider_error == (
        "Invalid parameter: 'tool_call_id' of 'c9' not found in 'tool_calls' of previous message."
    )


def test_openai_chat_results_must_be_adjacent():
    req = sundry.ticket()
    req.messages.insert(3, user("Are you still there?"))
    v = only(check(req, "openai-chat"), "results-not-adjacent")
    assert (v.message_index, v.call_id) == (3, "c1")
    assert v.provider_error.endswith("did not have response messages: c1")
    assert v.provider_param == "messages.[3].role"


def test_openai_chat_leaves_out_reasoning_only_messages_when_numbering():
    req = sundry.ticket()
    req.messages.insert(2, assistant(Reasoning("thinking...")))
    req.messages.insert(3, user("Hm?"))
    req.messages[5] = user("Hello?")  # the result is gone
    v = only(check(req, "openai-chat"), "call-not-answered")
    # chat list: system, user, (reasoning-only assistant left out), user, assistant, user
    assert v.provider_param == "messages.[4].role"


def test_openai_chat_empty_list():
    v = only(check([], "openai-chat"), "no-messages")
    assert v.provider_error.startswith("Invalid 'messages': empty array.")
    assert error_response(v, "openai-chat")[1]["error"]["code"] == "empty_array"


# --- OpenAI Responses ---------------------------------------------------------------------------


def test_openai_responses_texts():
    req = sundry.ticket()
    del req.messages[3]
    v = only(check(req, "openai-responses"), "call-not-answered")
    assert v.provider_error == "No tool output found for function call c1."
    assert v.provider_param == "input"

    req = sundry.ticket()
    del req.messages[2]
    v = only(check(req, "openai-responses"), "result-without-call")
    assert v.provider_error == "No tool call found for function call output with call_id c1."


def test_openai_responses_reasoning_must_be_followed():
    req = sundry.opening()
    req.messages += [assistant(Reasoning("...", signature="enc", id="rs_42")), user("Hello?")]
    v = only(check(req, "openai-responses"), "reasoning-not-followed")
    assert (v.message_index, v.block_index) == (2, 0)
    assert v.provider_error == (
        "Item 'rs_42' of type 'reasoning' was provided without its required following item."
    )
    assert check(req) == []  # not a shared rule
    req.messages[2].content.append(Text("Let me look."))  # a text without its msg_ id
    v = only(check(req, "openai-responses"), "reasoning-not-followed")
    assert "has no Responses item id" in v.message
    req.messages[2].content[1].item_id = "msg_42"  # the item it produced, paired by id
    assert check(req, "openai-responses") == []


def test_openai_responses_accepts_a_late_result_as_far_as_known():
    req = sundry.ticket()
    req.messages.insert(3, assistant("One moment."))
    v = only(check(req, "openai-responses"), "call-not-answered")
    assert v.provider_error is None  # the output exists, only late: no known error
    assert first_violation_error(req, "openai-responses") is None


# --- Anthropic ----------------------------------------------------------------------------------

MISSING_C1 = (
    "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: c1. "
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
)


def test_anthropic_numbering_drops_system_and_merges_user_after_tool():
    req = sundry.ticket()
    req.messages += [user("Thanks!"), assistant(tool_call("c2", "issue_refund")), user("Done?")]
    wire = anthropic_numbering(req.messages)
    assert [(m.role, m.neutral_indices) for m in wire] == [
        ("user", [1]),
        ("assistant", [2]),
        ("user", [3, 4]),
        ("assistant", [5]),
        ("user", [6]),
    ]
    v = only(check(req, "anthropic"), "call-not-answered")
    assert v.provider_error.startswith("messages.3: `tool_use` ids were found without")


def test_anthropic_missing_and_unexpected_results():
    req = sundry.ticket()
    req.messages[3] = user("Hello?")
    v = only(check(req, "anthropic"), "call-not-answered")
    assert v.provider_error == MISSING_C1

    req = sundry.ticket()
    req.messages[3].content.append(tool_result("c9", "stray"))
    v = only(check(req, "anthropic"), "result-without-call")
    assert v.provider_error == (
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: c9. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous "
        "message."
    )


def test_anthropic_lists_every_missing_id():
    req = sundry.opening()
    req.messages += [
        assistant(tool_call("toolu_a", "get_order"), tool_call("toolu_b", "get_tracking")),
        user("?"),
    ]
    vs = check(req, "anthropic")
    assert found(vs) == {("call-not-answered", 2, "toolu_a"), ("call-not-answered", 2, "toolu_b")}
    assert vs[0].provider_error.startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_a, toolu_b."
    )


def test_anthropic_results_first():
    req = sundry.ticket()
    req.messages.insert(3, user("Are you still there?"))
    v = only(check(req, "anthropic"), "results-not-first")
    assert (v.message_index, v.call_id) == (3, "c1")
    assert v.provider_error == MISSING_C1


def test_anthropic_duplicate_ids_and_id_pattern():
    req = sundry.ticket()
    req.messages[2].content.append(tool_call("c1", "get_order"))
    req.messages[3].content.append(tool_result("c1", "{}"))
    v = only(check(req, "anthropic"), "duplicate-id")
    assert (v.message_index, v.block_index) == (2, 2)
    assert v.provider_error == "messages.1.content.2: `tool_use` ids must be unique"

    req = sundry.ticket()
    req.messages[2].content[1].id = "call 1"
    req.messages[3].content[0].call_id = "call 1"
    v = only(check(req, "anthropic"), "call-id-pattern")
    assert v.provider_error == (
        "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
    )
    assert check(req) == []  # a neutral id may hold a space


def test_anthropic_empty_content():
    req = sundry.ticket()
    req.messages[1].content = [Text("")]
    assert only(check(req, "anthropic"), "empty-content").provider_error == (
        "messages: text content blocks must be non-empty"
    )
    req.messages[1].content = [Text(" \n")]
    assert only(check(req, "anthropic"), "empty-content").provider_error == (
        "messages: text content blocks must contain non-whitespace text"
    )
    req.messages[1].content = []
    assert only(check(req, "anthropic"), "empty-content").provider_error == (
        "messages.0: all messages must have non-empty content except for the optional final "
        "assistant message"
    )


def test_anthropic_allows_an_empty_final_assistant_message():
    req = sundry.opening()
    req.messages.append(Message("assistant", []))
    assert found(check(req)) == {("empty-content", 2, None)}
    assert check(req, "anthropic") == []


def test_anthropic_strict_alternation_and_user_first():
    req = sundry.ticket()
    req.messages.insert(1, assistant("Hi! I'm Sundry's assistant."))
    assert check(req, "anthropic") == []
    v = only(check(req, "anthropic-strict"), "first-must-be-user")
    assert v.provider_error == 'messages: first message must use the "user" role'
    assert "A conversation must start with a user message." in v.message

    req = sundry.opening()
    req.messages.append(user("Also, hello?"))
    assert check(req, "anthropic") == []
    v = only(check(req, "anthropic-strict"), "roles-must-alternate")
    assert v.message_index == 2
    assert v.provider_error == (
        'messages: roles must alternate between "user" and "assistant", but found multiple '
        '"user" roles in a row'
    )
    assert "A conversation must alternate between user and assistant roles." in v.message


def test_anthropic_error_envelope():
    req = sundry.ticket()
    req.messages[3] = user("Hello?")
    status, body = first_violation_error(req, "anthropic-strict")
    assert status == 400
    assert body["type"] == "error"
    assert body["error"] == {"type": "invalid_request_error", "message": MISSING_C1}
    assert body["request_id"].startswith("req_")
    assert first_violation_error(req, "anthropic")[1] == body  # deterministic
    v = check(req, "anthropic")[0]
    assert error_response(v, "anthropic", request_id="req_1")[1]["request_id"] == "req_1"


# --- Gemini -------------------------------------------------------------------------------------

COUNT = (
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn."
)


def test_gemini_response_count():
    req = sundry.ticket()
    req.messages[3].content.append(copy.deepcopy(req.messages[3].content[0]))
    v = only(check(req, "gemini"), "response-count")
    assert (v.message_index, v.block_index, v.call_id) == (3, 1, "c1")
    assert v.provider_error == COUNT
    status, body = first_violation_error(req, "gemini")
    assert (status, body) == (
        400,
        {"error": {"code": 400, "message": COUNT, "status": "INVALID_ARGUMENT"}},
    )


def test_gemini_call_turn_position():
    req = Request("", [system("Be kind."), assistant(tool_call("c1", "get_order"))])
    req.messages += [tool(tool_result("c1", "{}")), user("So?")]
    v = only(check(req, "gemini"), "call-turn-position")
    assert (v.message_index, v.block_index, v.call_id) == (1, 0, "c1")
    assert "history starts with it" in v.message
    assert v.provider_error == (
        "Please ensure that function call turn comes immediately after a user turn or after a "
        "function response turn."
    )


def test_gemini_response_turn_position():
    req = sundry.ticket()
    req.messages.insert(3, user("Are you still there?"))
    v = only(check(req, "gemini"), "response-turn-position")
    assert (v.message_index, v.block_index, v.call_id) == (4, 0, "c1")
    assert v.provider_error == (
        "Please ensure that function response turn comes immediately after a function call turn."
    )


# --- error_response ------------------------------------------------------------------------------


def test_error_response_for_a_violation_without_the_providers_text():
    req = sundry.ticket()
    req.tools = req.tools[1:]  # search_orders is no longer defined
    v = only(check(req, "openai-chat"), "unknown-tool")
    assert v.provider_error is None
    assert first_violation_error(req, "openai-chat") is None  # OpenAI would not reject it
    status, body = error_response(v, "openai-chat")
    assert body["error"]["message"] == v.message and body["error"]["param"] is None
    with pytest.raises(ValueError):
        error_response(v, "openai")
    with pytest.raises(ValueError):
        first_violation_error(req, "portable")


def test_error_response_uses_our_message_for_another_providers_violation():
    req = sundry.ticket()
    del req.messages[3]
    v = check(req, "anthropic")[0]
    body = error_response(v, "gemini")[1]
    assert body["error"]["message"] == v.message


def test_gemini_two_tool_messages_in_a_row_are_two_response_turns():
    req = sundry.ticket()
    req.messages[2].content.append(tool_call("c2", "get_tracking", {"order_id": "SO-48213"}))
    req.messages.append(tool(tool_result("c2", "[]")))
    assert check(req) == [] and check(req, "anthropic") == []
    assert found(check(req, "gemini")) == {
        ("response-count", 3, "c2"),
        ("response-turn-position", 4, "c2"),
    }
    assert {v.rule for v in check(req, "anthropic-strict")} == {"roles-must-alternate"}


def test_rules_stay_below_formats_and_import_light():
    code = (
        "import sys, helpers.rules; "
        "heavy = {'helpers.formats', 'tiktoken', 'httpx', 'openai', 'anthropic'}; "
        "print(sorted(heavy & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_violation_is_made_whole_and_never_changed():
    req = sundry.ticket()
    del req.messages[3]
    v = only(check(req, "anthropic"), "call-not-answered")
    assert (v.profile, v.severity) == ("anthropic", "error") and v.provider_error
    with pytest.raises(AttributeError):  # frozen: no profile or severity rewritten later
        v.severity = "warning"  # type: ignore[misc]
