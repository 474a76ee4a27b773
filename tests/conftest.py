"""Fixtures shared by the test modules."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from standin import LocalProvider

# Property tests in CI (CI=true) draw the same examples on every run and keep no example database,
# so a CI failure is reproducible: HYPOTHESIS_PROFILE=ci replays it locally. Loaded here, before
# the test modules build their own @settings (which inherit what they do not set).
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
)


@pytest.fixture(scope="module")
def p():
    """The stand-in playing the Sundry scenario on 127.0.0.1, one per test module.

    A module's tests share it (starting a server per test is slow); a module that injects
    faults or needs a fresh recorder per test defines its own ``p``, which wins.
    """
    with LocalProvider("sundry") as provider:
        yield provider


@pytest.fixture(scope="session")
def triage_trace():
    """The crash-triage run of lessons 04 and 06 on the default OpenAI model, over OpenAI Chat
    (one local run, ~2 s, shared by the test files that price or cut it; treat as read-only)."""
    from helpers.examples import crash_triage
    from helpers.loop import run
    from helpers.models import default_model

    with LocalProvider(scenario="crash-triage") as p:
        workspace = crash_triage.Workspace()
        return run(
            crash_triage.opening(default_model("openai")),
            lambda call: crash_triage.run_tool(call, workspace),
            format="openai-chat",
            base_url=p.url,
            finish=crash_triage.FINISH,
        )
