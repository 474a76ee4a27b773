"""Used in lessons: 00, 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 14.

The two running examples, the Sundry support agent and the crash-triage agent, and ``DATA``:
the folder of their data files (prompts, tool definitions, fake worlds) and the model table,
found by ``find_data``. Each example runs the tools it reads (``tools_in``) over a small fake
world, offline and deterministically, arguments checked against the schema the model saw
(``argument_error``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from helpers.messages import Tool, ToolCall

__all__ = ["DATA", "ROOT", "find_data", "schema_error"]

_PACKAGE = Path(__file__).resolve().parent.parent  # the helpers/ folder


def _checkout_data(path: Path) -> Path | None:
    """``path/data`` if ``path`` looks like a checkout of the repository."""
    if (path / "data" / "sundry").is_dir() and (path / "notebooks").is_dir():
        return path / "data"
    return None


def find_data() -> Path:
    """The folder holding ``sundry/``, ``crash_triage/`` and ``models.json``."""
    if os.environ.get("ON_THE_WIRE_ROOT"):
        root = Path(os.environ["ON_THE_WIRE_ROOT"]).expanduser()
        chosen = _checkout_data(root)
        if chosen is None:
            raise FileNotFoundError(
                f"ON_THE_WIRE_ROOT={root} is not a checkout of On the Wire (no data/sundry/ "
                "and notebooks/ there): point it at the repository, or unset it"
            )
        return chosen
    own_checkout = _checkout_data(_PACKAGE.parent)
    if own_checkout:
        return own_checkout
    if (_PACKAGE / "data" / "sundry").is_dir():
        return _PACKAGE / "data"
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        found = _checkout_data(candidate)
        if found:
            return found
    raise FileNotFoundError(
        "cannot find On the Wire's data files: reinstall the package (pip install on-the-wire "
        "ships them), run from inside the repository, or set ON_THE_WIRE_ROOT to its path"
    )


DATA = find_data()
#: The checkout the data came from, or the installed package folder (wheel installs).
ROOT = DATA.parent


def schema_error(parameters: dict[str, Any], arguments: dict[str, Any]) -> tuple[str, str] | None:
    """Where and how ``arguments`` first break a tool's JSON Schema (``jsonschema``), or None:
    a missing field, a string for a number, a value outside an enum, which the model can fix."""
    from jsonschema import Draft202012Validator

    error = next(iter(Draft202012Validator(parameters).iter_errors(arguments)), None)
    if error is None:
        return None
    return "/".join(str(p) for p in error.absolute_path) or "arguments", error.message


def tools_in(path: Path) -> list[Tool]:
    """The tool definitions of a JSON file (a list of name, description, parameters)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [Tool(t["name"], t["description"], t["parameters"]) for t in raw]


def argument_error(tools: list[Tool], call: ToolCall) -> tuple[str, str] | None:
    """``schema_error`` of ``call``'s arguments against its tool in ``tools``.
    None when the arguments fit, or when no tool in ``tools`` has the call's name."""
    tool = next((t for t in tools if t.name == call.name), None)
    return schema_error(tool.parameters, call.arguments) if tool else None
