"""Prompt caching from the actual token prefix: hand-checkable prefixes and the two cache rules."""

from __future__ import annotations

import pytest

from helpers.cost.caching import (
    anthropic_turn,
    breakpoint_positions,
    cache_break,
    common_prefix,
    openai_cached_tokens,
)
from helpers.examples import sundry
from helpers.messages import Request, Tool, assistant, system, tool_call, user
from helpers.tokens import count, token_keys


def test_common_prefix():
    assert common_prefix([1, 2, 3], [1, 2, 4]) == 2
    assert common_prefix([1, 2], [1, 2, 3]) == 2
    assert common_prefix([], [1]) == 0


@pytest.mark.parametrize(
    ("shared", "cached"),
    [(0, 0), (1023, 0), (1024, 1024), (1151, 1024), (1152, 1152), (2000, 1920)],
)
def test_openai_hits_start_at_1024_and_grow_in_128_token_steps(shared, cached):
    assert openai_cached_tokens(shared) == cached


def test_a_changed_word_in_the_system_prompt_breaks_the_cache_there():
    before = Request("gpt-4o", [system("You are helpful."), user("Hi")])
    after = Request("gpt-4o", [system("You are kind."), user("Hi")])
    found = cache_break(before, after)
    # <|start|>system<|message|> + "You" + " are": 5 shared tokens
    assert found.shared == 5
    assert found.part == "messages[0].content[0]"
    assert (found.previous_token, found.current_token) == (" helpful", " kind")
    assert "breaks in messages[0].content[0]" in str(found)


def test_appending_the_reply_keeps_the_whole_previous_request_as_prefix():
    before = Request("gpt-4o", [system("Be brief."), user("Hi")])
    after = Request("gpt-4o", [system("Be brief."), user("Hi"), assistant("Hello!"), user("Bye")])
    found = cache_break(before, after)
    assert found.whole_previous_reused  # the reply priming is the start of the assistant message
    assert found.part == "messages[2].content[0]"


def test_changing_the_tool_list_breaks_the_cache_inside_the_tools():
    first = sundry.opening("gpt-4o-mini")
    second = sundry.opening("gpt-4o-mini")
    second.tools = [*second.tools[:3], *second.tools[4:]]  # drop check_refund_eligibility
    found = cache_break(first, second)
    assert found.part == "tools[3]"  # where get_tracking ended and the next tool now starts
    assert found.shared < count(first).total


def test_anthropic_reads_the_longest_written_prefix_and_writes_to_its_last_breakpoint():
    written: list[list[object]] = []
    first = anthropic_turn(list(range(3000)), [1200, 2500], written, min_tokens=1024)
    assert first == (0, 2500)  # 500 uncached
    second = anthropic_turn([*range(2800), 9, 9], [1200, 2800], written, min_tokens=1024)
    assert second == (2500, 300)  # 2 uncached
    short = anthropic_turn(list(range(900)), [900], [], min_tokens=1024)
    assert short == (0, 0)  # below the minimum nothing is cached


def test_breakpoints_by_part_and_the_limit_of_four():
    request = Request("claude-sonnet-4-5", [system("Be brief."), user("Hi")], [Tool("f", "F")])
    counted = count(request)
    positions = breakpoint_positions(counted, ["tools", "system", "last"])
    tools_end = counted.part("tools")
    assert positions == [tools_end, tools_end + counted.part("messages[0]"), counted.total]
    with pytest.raises(ValueError, match="A maximum of 4 blocks with cache_control"):
        breakpoint_positions(counted, ["tools", "system", "last", "messages[1]", "messages[0]"])
    with pytest.raises(ValueError, match="no part 'messages\\[7\\]'"):
        breakpoint_positions(counted, ["messages[7]"])


def test_token_keys_of_a_tool_call_request_hold_real_ids():
    request = Request("gpt-4o", [user("Hi"), assistant(tool_call("c1", "f", {"a": 1}))])
    keys, parts = token_keys(count(request))
    assert all(isinstance(k, int) for k in keys)
    assert parts[-1] == "priming"
