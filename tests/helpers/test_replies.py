from __future__ import annotations

from helpers.messages import Reply, Usage, assistant


def test_uncached_input_is_what_is_left_after_cache_reads_and_writes():
    usage = Usage(input_tokens=1000, cache_read_tokens=600, cache_write_tokens=100, output_tokens=5)
    assert usage.uncached_input_tokens == 300


def test_raw_usage_is_kept_but_not_compared():
    a = Usage(10, 2, raw={"prompt_tokens": 10})
    b = Usage(10, 2, raw={"input_tokens": 10})
    assert a == b
    reply = Reply(assistant("hi"), a, "end_turn", model="m", id="r1")
    assert reply.message.text == "hi"
