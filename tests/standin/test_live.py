"""standin.live: the decision, the switch line, the live cell, and its failures as one line.

Nothing here reaches a real API: the network is blocked (conftest) and the live path is pointed
at stand-ins on 127.0.0.1 (``tests/support/live_support.py``) through the base-URL overrides.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from helpers.examples import sundry
from helpers.messages import Request, user
from standin import LocalProvider, live
from tests.support.live_support import FAKE_KEYS, RejectingAPI, live_env

ROOT = Path(__file__).resolve().parents[2]
KEY = FAKE_KEYS["ANTHROPIC_API_KEY"]


def _no_key_in(text: str) -> None:
    for key in FAKE_KEYS.values():
        assert key not in text


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


def test_base_url_overrides_follow_the_sdks_conventions():
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1/", "ANTHROPIC_BASE_URL": "http://127.0.0.1:8"}
    assert live.live_url("openai-responses", env) == "http://127.0.0.1:9"
    assert live.live_url("anthropic", env) == "http://127.0.0.1:8"
    assert live.live_url("gemini", env) == "https://generativelanguage.googleapis.com"
    assert (
        live.live_url("gemini", {"GEMINI_BASE_URL": "http://127.0.0.1:7"}) == "http://127.0.0.1:7"
    )


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


# --- the switch: one line, saying where each provider's LIVE cells send ------------------------


def test_switch_line_offline_names_the_two_variables():
    line = live.switch_line("anthropic", env={})
    assert line == (
        "live mode off: anthropic → stand-in on 127.0.0.1 (to go live, set "
        "ANTHROPIC_API_KEY and ON_THE_WIRE_LIVE=1 before starting JupyterLab)"
    )


def test_switch_line_live_shows_the_url_and_redacts_the_key():
    env = live_env("http://127.0.0.1:9")
    line = live.switch_line("anthropic", "openai-chat", env=env)
    assert line.startswith("live mode ON: anthropic → LIVE http://127.0.0.1:9 (")
    assert "ANTHROPIC_API_KEY=<redacted>" in line and "OPENAI_API_KEY=<redacted>" in line
    assert "\n" not in line
    _no_key_in(line)
    real = live.switch_line("anthropic", env={**FAKE_KEYS, "ON_THE_WIRE_LIVE": "1"})
    assert "LIVE https://api.anthropic.com" in real
    some = live.switch_line(
        "anthropic", "gemini", env={"ON_THE_WIRE_LIVE": "1", **{"ANTHROPIC_API_KEY": KEY}}
    )
    assert "anthropic → LIVE" in some and "gemini → local (GEMINI_API_KEY not set)" in some


def test_live_requested_without_a_key_is_one_warning_naming_the_variable():
    line = live.switch_line("anthropic", env={"ON_THE_WIRE_LIVE": "1"})
    assert line == (
        "warning: ON_THE_WIRE_LIVE=1 but ANTHROPIC_API_KEY is not set: anthropic stays on "
        "the stand-in"
    )
    typo = live.switch_line("gemini", env={"ON_THE_WIRE_LIVE": "yes", "GEMINI_API_KEY": KEY})
    assert typo.startswith("warning: ON_THE_WIRE_LIVE='yes' is not '1'")


def test_show_switch_prints_exactly_one_line(capsys, monkeypatch):
    for name, value in live_env("http://127.0.0.1:9").items():
        monkeypatch.setenv(name, value)
    live.show_switch("anthropic")
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "LIVE" in out
    _no_key_in(out)


# --- the live cell: run_live ----------------------------------------------------------------------


def _run(capsys, env, model="claude-sonnet-4-6", wire_format="anthropic"):
    trace = live.run_live(sundry.opening(model), sundry.run_tool, format=wire_format, env=env)
    out = capsys.readouterr().out
    _no_key_in(out)
    return trace, out


def test_run_live_off_sends_nothing_and_says_so_in_one_line(capsys, p):
    before = len(p.exchanges)
    trace, out = _run(capsys, {})
    assert trace is None and out.count("\n") == 1 and out.startswith("live mode off: anthropic")
    trace, out = _run(capsys, {"ON_THE_WIRE_LIVE": "1"})
    assert trace is None and out == (
        "warning: ON_THE_WIRE_LIVE=1 but ANTHROPIC_API_KEY is not set: anthropic stays on the "
        "stand-in\n"
    )
    assert len(p.exchanges) == before


def test_run_live_sends_to_the_remote_with_the_key_in_a_header_only(capsys):
    with LocalProvider() as remote:  # a second loopback server, playing the real API
        trace, out = _run(capsys, live_env(remote.url))
        assert trace is not None and out == f"LIVE anthropic: 4 requests to {remote.url}\n"
        assert [e.path for e in remote.exchanges] == ["/v1/messages"] * 4
        for exchange in remote.exchanges:
            headers = dict((k.lower(), v) for k, v in exchange.request_headers)
            assert headers["x-api-key"] == "<redacted>"  # sent, and redacted in the record
            assert headers["anthropic-version"] == "2023-06-01"
            _no_key_in(str(exchange))
        _no_key_in(repr(trace) + str(trace) + trace._repr_html_())


@pytest.mark.parametrize(
    "wire_format, model, path, body_part",
    [
        ("anthropic", "claude-sonnet-4-6", "/v1/messages", '"authentication_error"'),
        ("openai-chat", "gpt-4o-mini", "/v1/chat/completions", '"code": "invalid_api_key"'),
        ("openai-responses", "gpt-4o-mini", "/v1/responses", '"code": "invalid_api_key"'),
        ("gemini", "gemini-2.5-flash", ":generateContent", '"status": "INVALID_ARGUMENT"'),
    ],
)
def test_a_rejected_key_is_one_line_with_the_providers_own_body(
    capsys, wire_format, model, path, body_part
):
    with RejectingAPI() as remote:
        trace, out = _run(capsys, live_env(remote.url), model, wire_format)
    assert trace is None and out.count("\n") == 1
    assert out.startswith(f"LIVE {live.family(wire_format)} {remote.url}/")
    assert path in out.split(" failed: ")[0] and body_part in out
    assert len(remote.records) == 1 and remote.records[0]["path"].endswith(path)
    _no_key_in(repr(remote.records))


def test_no_network_is_one_line_naming_the_real_endpoint_and_the_cause(capsys):
    env = {**FAKE_KEYS, "ON_THE_WIRE_LIVE": "1"}  # the real host: blocked here, never reached
    trace, out = _run(capsys, env)
    assert trace is None and out.count("\n") == 1
    assert out.startswith("LIVE anthropic https://api.anthropic.com/v1/messages failed: ")
    assert "ConnectError" in out and "network blocked" in out


# --- nothing else goes live, whatever the environment says ---------------------------------------


def test_the_local_provider_never_asks_the_remote_whatever_the_environment(monkeypatch, p):
    with RejectingAPI() as remote:
        for name, value in live_env(remote.url).items():
            monkeypatch.setenv(name, value)
        from helpers.loop import run
        from helpers.tokens import count

        trace = run(sundry.opening("claude-sonnet-4-6"), sundry.run_tool, base_url=p.url)
        assert trace.total("input_tokens") > 0  # counted offline, by the stand-in
        assert count(Request("claude-sonnet-4-6", [user("Hi")])).estimate  # offline by default
        assert remote.records == []


def test_count_live_true_goes_to_the_override_and_fails_in_one_line(monkeypatch):
    from standin.count_live import LiveCountError, count_live

    with RejectingAPI() as remote:
        for name, value in live_env(remote.url).items():
            monkeypatch.setenv(name, value)
        with pytest.raises(LiveCountError) as err:
            count_live(Request("claude-sonnet-4-6", [user("Hi")]))
        message = str(err.value)
        assert message.startswith(
            f"LIVE anthropic {remote.url}/v1/messages/count_tokens failed: HTTP 401 "
        )
        assert "authentication_error" in message and "\n" not in message
        _no_key_in(message)
        assert [r["path"] for r in remote.records] == ["/v1/messages/count_tokens"]
        assert remote.records[0]["headers"]["x-api-key"] == "<redacted>"


# --- the live-mode page's costs (docs/live.md) are computed, not typed ---------------------------


def test_the_live_page_costs_are_the_computed_ones():
    sys.path.insert(0, str(ROOT / "scripts"))
    import live_costs

    page = (ROOT / "docs" / "live.md").read_text(encoding="utf-8")
    stored = page.split(live_costs.START)[1].split(live_costs.END)[0]
    assert stored == live_costs.table(), "run: python scripts/live_costs.py --write"


def test_the_live_costs_say_when_a_default_model_shuts_down_or_its_price_changes():
    """Issue 36, item 9: a dated note, with its source, under the table for such a model."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import live_costs

    from helpers.models import default_model

    page = (ROOT / "docs" / "live.md").read_text(encoding="utf-8")
    stored = page.split(live_costs.START)[1].split(live_costs.END)[0]
    dated = {"gpt-4o-mini": "shuts down on 2027-01-14", "gemini-3.8-flash": "until 2026-12-31"}
    for provider in ("openai", "gemini"):
        model = default_model(provider)
        if model in dated:
            assert dated[model] in " ".join(stored.split()), model
            assert "https://" in live_costs.MODEL_NOTES[model]  # a public source, dated
