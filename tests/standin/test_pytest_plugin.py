"""The pytest plugin: a learner's own agent test runs offline against the stand-in, checked."""

from __future__ import annotations

import tomllib
from pathlib import Path

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[2]

AGENT_TESTS = """
import anthropic, openai, pytest

HELLO = [{"role": "user", "content": "Hi, my order SO-48213 arrived cracked."}]

def test_openai_agent(on_the_wire):
    reply = openai.OpenAI().chat.completions.create(model="gpt-4o-mini", messages=HELLO)
    assert reply.choices[0].message
    on_the_wire.assert_all_accepted()
    assert on_the_wire[0].format == "openai-chat" and on_the_wire[0].count.total > 0

def test_anthropic_agent_with_a_broken_history(on_the_wire):
    client = anthropic.Anthropic(max_retries=0)
    broken = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9"}]}]
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(model="claude-sonnet-4-6", max_tokens=16, messages=broken)
    on_the_wire.assert_all_accepted()   # fails, naming the refused request
"""


def test_the_entry_point_names_the_plugin_module():
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert entry["pytest11"] == {"on_the_wire": "standin.pytest_plugin"}


def test_a_learners_tests_use_the_fixture_offline(pytester):
    pytester.makepyfile(test_agent=AGENT_TESTS)
    # the plugin by its module (an installed package also finds it through its entry point)
    result = pytester.runpytest_inprocess("-p", "no:on_the_wire", "-p", "standin.pytest_plugin")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*1 request(s) the provider would refuse*", "*refused: *"])
