"""Used in lessons: 14.

The capstone's agent file (notebooks/sundry_agent.py) loaded and run: ``load_agent(path)`` reads
an agent file from disk afresh (your latest edits, no kernel restart; a file that does not load
says why and where); ``SHIPPED`` is where the agent as Sundry's team shipped it lives, and
``shipped()`` loads that version even after the file was edited in place (on Colab the lesson's
folder is the one you work in); ``scenario`` is the scripted model of Sundry's story and
``limit_at`` has a stand-in answer one request with a 429.

What it does not do: change the file, or reach any network but loopback.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from helpers.examples import ROOT  # the checkout, found as the lessons find their data

SHIPPED = ROOT / "notebooks" / "sundry_agent.py"  # what learners get, bugs and all
#: The shipped file's fingerprint (``fingerprint``): a test holds it to the file, so a change to
#: the agent's bugs updates it on purpose.
SHIPPED_SHA256 = "5e9d77e4c422c54f67a7049a6af75509d7f0fc4eb9ef4e9b0df5322f633c38a1"


def fingerprint(source: str) -> str:
    """SHA-256 of an agent file's text (newlines as Python reads them, so CRLF counts as LF)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def is_shipped(source: str) -> bool:
    """Whether ``source`` is the agent exactly as shipped (whatever file it was read from)."""
    return fingerprint(source) == SHIPPED_SHA256


def shipped() -> ModuleType | BrokenAgent:
    """The agent as shipped, loaded: ``SHIPPED`` while it is unchanged; once edited in place,
    git's copy at HEAD when that is the shipped one (read into a temporary file); failing both,
    the file as it is now."""
    import subprocess
    import tempfile

    text = SHIPPED.read_text(encoding="utf-8") if SHIPPED.is_file() else ""
    if is_shipped(text):
        return load_agent(SHIPPED)
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "show", "HEAD:notebooks/sundry_agent.py"],
            capture_output=True,
            timeout=10,
            check=False,
        )
        pristine = done.stdout.decode("utf-8").replace("\r\n", "\n")
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        pristine = ""
    if not is_shipped(pristine):  # no git, or HEAD holds another version
        return load_agent(SHIPPED)
    copy = Path(tempfile.mkdtemp(prefix="sundry-shipped-")) / "sundry_agent_as_shipped.py"
    copy.write_text(pristine, encoding="utf-8")
    return load_agent(copy)


@dataclass(frozen=True)
class BrokenAgent:
    """An agent file that did not load: which file, and why (its error and line)."""

    path: Path
    error: str

    def run_ticket(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(repr(self))

    def __repr__(self) -> str:
        return f"{self.path.name} does not load: {self.error}"


def load_agent(path: str | Path = "sundry_agent.py") -> ModuleType | BrokenAgent:
    """The agent file read afresh from disk (your latest edits, no restart needed). A file that
    does not load (a typo, an import error) gives a ``BrokenAgent`` that says why and where."""
    import traceback

    path = Path(path).resolve()
    if not path.is_file():
        return BrokenAgent(path, f"there is no file {path} (run make student to get it back)")
    name = f"_agent_{hashlib.sha256(str(path).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as err:  # the learner's file: say what and where, no traceback
        frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == str(path)]
        line = getattr(err, "lineno", None) or (frames[-1].lineno if frames else None)
        where = f" (line {line})" if line and not isinstance(err, SyntaxError) else ""
        return BrokenAgent(path, f"{type(err).__name__}: {err}{where}")
    sys.modules[name] = module
    return module


def scenario(narrated: bool = True, parallel: bool = False):
    """The sundry story as the scripted model: ``narrated=False`` calls tools without a word
    beside them; ``parallel`` asks for the order's details in the same reply as the
    eligibility check (two calls, one reply)."""
    from helpers.messages import Text, ToolCall
    from standin.provider.scenarios import sundry

    if narrated and not parallel:
        return sundry

    def sundry_variant(turn):
        blocks = sundry(turn)
        calls = [b for b in blocks if isinstance(b, ToolCall)]
        if not narrated and calls:
            blocks = [b for b in blocks if not isinstance(b, Text)]
        if parallel and calls and calls[-1].name == "check_refund_eligibility":
            order = {"order_id": calls[-1].arguments.get("order_id", "")}
            at = blocks.index(calls[-1])  # the story reads the last call: it stays last
            blocks = [*blocks[:at], turn.call("get_order", order), *blocks[at:]]
        return blocks

    return sundry_variant


def limit_at(provider: Any, number: int) -> None:
    """Have ``provider`` answer request ``number`` (1, 2, ...) with a 429, once; 0: never. The
    fault is queued when the request before it is recorded (before its answer is sent), so it
    is the next request's and no other fault shows on the cards."""
    from standin.provider.faults import RateLimited

    if number < 1:
        return
    if number == 1:
        provider.inject(RateLimited(retry_after=0))
        return

    def queue(exchange: Any) -> None:
        if len(provider.recorder) == number - 1:
            provider.inject(RateLimited(retry_after=0))

    provider.on_exchange = queue
