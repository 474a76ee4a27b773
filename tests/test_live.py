"""helpers.live: the decision only (tests never go live: keys deleted, network blocked)."""

from __future__ import annotations

import pytest

from helpers import live
from helpers.provider import LocalProvider

KEY = "sk-ant-api03-REALLOOKINGSECRET0123456789"


@pytest.fixture(scope="module")
def p():
    with LocalProvider() as provider:
        yield provider


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, False),
        ({"ANTHROPIC_API_KEY": KEY}, False),  # a key alone is not enough
        ({"ON_THE_WIRE_LIVE": "1"}, False),  # nor the switch alone
        ({"ON_THE_WIRE_LIVE": "1", "ANTHROPIC_API_KEY": ""}, False),
        ({"ON_THE_WIRE_LIVE": "true", "ANTHROPIC_API_KEY": KEY}, False),
        ({"ON_THE_WIRE_LIVE": "1", "ANTHROPIC_API_KEY": KEY}, True),
        ({"ON_THE_WIRE_LIVE": "1", "OPENAI_API_KEY": KEY}, False),  # someone else's key
    ],
)
def test_live_needs_both_switches(env, expected):
    assert live.is_live("anthropic", env) is expected


def test_endpoint_is_local_by_default(p):
    ep = live.endpoint("openai-chat", local=p, env={"OPENAI_API_KEY": KEY})
    assert (ep.base_url, ep.is_live) == (p.url, False)
    assert ep.sdk_base_url == p.url + "/v1"
    assert ep.api_key != KEY


def test_live_endpoint_never_prints_its_key(p):
    env = {"ON_THE_WIRE_LIVE": "1", "ANTHROPIC_API_KEY": KEY}
    ep = live.endpoint("anthropic", local=p, env=env)
    assert ep.is_live and ep.base_url == "https://api.anthropic.com" and ep.api_key == KEY
    assert KEY not in repr(ep) and KEY not in str(ep) and KEY not in f"{ep}"
    assert "<redacted>" in repr(ep) and "LIVE" in repr(ep)


def test_the_test_suite_itself_is_never_live():
    assert not any(live.is_live(p) for p in ("openai-chat", "anthropic", "gemini"))


def test_shared_local_provider_is_reused_and_stoppable():
    first = live.local_provider()
    try:
        assert live.local_provider() is first and first.running
        assert live.endpoint("gemini").base_url == first.url
    finally:
        first.stop()


def test_unknown_provider():
    with pytest.raises(ValueError, match="unknown provider 'mistral'"):
        live.endpoint("mistral")
