"""Lesson 13's checks on a pydantic-ai set-up: each refuses a plausible wrong answer with a
reason, and accepts a right one written another way (the probe in tests/lessons/test_student.py
tries the reference answers in the lesson's own kernel)."""

from __future__ import annotations

import functools
import json

import pytest

from course import exercises
from course.exercises import your_code_on_the_wire as ex13
from helpers.models import default_model
from standin.capturing import capture

pytest.importorskip("pydantic_ai")
from pydantic_ai import Agent  # noqa: E402

MODEL = f"openai-chat:{default_model('openai')}"
SYSTEM = "You are Sundry's support agent. Look the order up before you answer."
ORDERS = {"SO-48213": {"status": "delivered", "item": "Ceramic mug"}}


def search_orders(query: str) -> str:
    """Find a buyer's orders by order number or e-mail address."""
    return json.dumps(ORDERS.get(query, {"error": "no order"}))


def get_order(order_id: str) -> str:
    """Look up one order by its number: status, item and seller."""
    return json.dumps(ORDERS.get(order_id, {"error": "no such order"}))


def logged(tool):  # the lesson's decorator: no functools.wraps
    def wrapper(*args, **kwargs):
        return tool(*args, **kwargs)

    return wrapper


def logged_well(tool):
    @functools.wraps(tool)
    def wrapper(*args, **kwargs):
        return tool(*args, **kwargs)

    return wrapper


def twice(model):
    agent = Agent(model, instructions=SYSTEM, tools=[search_orders, logged(get_order)])

    @agent.system_prompt
    def house_rules() -> str:
        return SYSTEM

    return agent


def once(model, *, instructions=SYSTEM, described=get_order):
    return Agent(model, instructions=instructions, tools=[search_orders, described])


@pytest.fixture(autouse=True)
def _fresh():
    exercises.reset()


@pytest.fixture(scope="module")
def runs():
    with capture() as seen:
        Agent(MODEL, instructions="Be brief.", tools=[search_orders]).run_sync(ex13.QUESTION)
    with capture() as broken:
        twice(MODEL).run_sync(ex13.QUESTION)
    return seen, broken


def test_13_3_one_requests_tools_or_every_token_is_refused_the_sum_accepted(runs):
    seen, _ = runs
    one = seen[0].count.part("tools")
    assert len(seen) == 2 and one > 0
    right = ex13.check_tool_tokens(f" {2 * one:,} ", seen)
    assert right and "each of the 2 requests" in right.message
    assert ex13.check_tool_tokens(float(sum(s.count.part("tools") for s in seen)), seen)
    told = ex13.check_tool_tokens(one, seen)
    assert not told and "one request's tool definitions" in told.message
    every = ex13.check_tool_tokens(sum(s.count.total for s in seen), seen)
    assert not every and "every input token" in every.message
    assert not ex13.check_tool_tokens("about a hundred", seen)


def test_13_1_the_described_tool_or_the_code_s_name_is_refused(runs):
    _, broken = runs
    assert ex13.tools_without_description(broken[0].request) == ["wrapper"]
    assert ex13.check_lost_description(" 'wrapper' ", broken)
    described = ex13.check_lost_description("search_orders", broken)
    assert not described and "arrived with a description" in described.message
    as_coded = ex13.check_lost_description("get_order", broken)
    assert not as_coded and "no tool on the wire is named 'get_order'" in as_coded.message
    assert not ex13.check_lost_description(2, broken)


def test_13_blank_answers_give_no_method_away(runs):
    seen, broken = runs
    assert "sum" not in ex13.check_tool_tokens(..., seen).message
    blank = ex13.check_logged(..., default_model("openai")).message
    assert "not answered yet" in blank and "wraps" not in blank and "await" not in blank
