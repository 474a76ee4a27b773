"""Run by tests/repo/test_package.py inside a clean virtual environment that holds only the wheel
and its declared dependencies, from a folder outside any checkout. Prints one line per check.

Not a test module itself (pytest does not collect it: no ``test_`` prefix).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from pathlib import Path


def every_module_imports() -> str:
    import course
    import helpers
    import standin

    names = [
        m.name
        for package in (helpers, standin, course)
        for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        # the pytest plugin is loaded by pytest alone (an entry point), where pytest is there
        if not m.name.endswith("__main__") and m.name != "standin.pytest_plugin"
    ]
    for name in names:
        importlib.import_module(name)
    return f"imported {len(names)} modules"


def plain_tiktoken() -> str:
    import tiktoken

    tokens = tiktoken.get_encoding("o200k_base").encode("hello world")
    cl100k = tiktoken.get_encoding("cl100k_base").encode("hello world")
    return f"o200k_base {tokens} cl100k_base {cl100k}"


def data_from_the_package() -> str:
    from helpers.examples import DATA, crash_triage, sundry

    assert DATA.is_relative_to(Path(sundry.__file__).parents[1]), DATA
    triage = crash_triage.SYSTEM_PROMPT[:20]
    return f"data inside the package, {len(sundry.TOOLS)} Sundry tools, {triage!r}"


def local_provider() -> str:
    import httpx

    from helpers import sse
    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.messages import user
    from helpers.models import default_model
    from standin import LocalProvider

    model = default_model("openai")
    headers = {"authorization": "Bearer sk-local-test-0123456789"}
    with LocalProvider("sundry") as p:
        url = p.endpoint("openai-chat", model)
        body = render(sundry.opening(model), "openai-chat").body
        ok = httpx.post(url, json=body, headers=headers)
        streamed = httpx.post(url, json={**body, "stream": True}, headers=headers)
        reply = sse.assemble(streamed.content, "openai-chat")
        broken = sundry.ticket(model)
        del broken.messages[3]  # the answer to a tool call
        broken.messages.append(user("Hello?"))
        refused = httpx.post(url, json=render(broken, "openai-chat").body, headers=headers)
    calls = [block.name for block in reply.message.content if hasattr(block, "arguments")]
    return f"answers {ok.status_code}, streams {calls}, refuses {refused.status_code}"


CHECKS = {
    "modules": every_module_imports,
    "tiktoken": plain_tiktoken,
    "data": data_from_the_package,
    "provider": local_provider,
}

if __name__ == "__main__":
    results = {name: CHECKS[name]() for name in sys.argv[1:] or CHECKS}
    print(json.dumps(results))
