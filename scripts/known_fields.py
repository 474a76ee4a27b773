"""Write data/known_fields.json: the request fields each API knows, read from the official SDKs.

The stand-in refuses a field its provider does not know (``standin/known_fields.py``), at every
level of a body, in the provider's own words. Which fields are known is not typed by hand: it is
read here from the SDKs' own request types, at the versions the project pins.

- OpenAI (``openai``) and Anthropic (``anthropic``): the request params are TypedDicts. From the
  request TypedDict (Chat Completions, Responses, Messages and the beta Messages) this walks the
  type hints, unwrapping Required/Optional/Annotated/Union/Iterable/Dict, into every TypedDict
  reached. A union of TypedDicts that share a ``Literal`` key (``type``) is a tagged union.
- Gemini (``google-genai``): its types are pydantic models in the SDK's shape, not the wire's.
  The request's top-level wire names come from the SDK's own converter (``google.genai.models``
  ``_GenerateContentParameters_to_mldev`` and ``_GenerateContentConfig_to_mldev``, read with
  ``ast``: each ``setv(..., ['wireName'], ...)`` is a field sent); below that, each model's
  fields, minus those its converter refuses for the Gemini API (``raise ValueError``), with
  ``parameters`` taking the ``Schema`` subset and ``parametersJsonSchema`` any JSON Schema.

Run: ``python scripts/known_fields.py`` (``--check``: exit 1 if the file differs from what the
installed SDKs give). A section whose SDK is not installed is kept as it is in the file, and
its version is printed, so the file always says which SDK version each list came from.
``tests/standin/test_known_fields.py`` regenerates and compares whenever the SDKs are installed.
"""

from __future__ import annotations

import argparse
import ast
import collections.abc
import hashlib
import importlib
import inspect
import json
import re
import sys
import typing
from pathlib import Path
from typing import Any

import typing_extensions as te

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "data" / "known_fields.json"

#: endpoint -> (SDK package, module, request TypedDict prefix): its ``...NonStreaming`` and
#: ``...Streaming`` TypedDicts (the same fields, and ``stream``) are read together.
TYPED_DICTS = {
    "openai-chat": (
        "openai",
        "openai.types.chat.completion_create_params",
        "CompletionCreateParams",
    ),
    "openai-responses": (
        "openai",
        "openai.types.responses.response_create_params",
        "ResponseCreateParams",
    ),
    "anthropic": ("anthropic", "anthropic.types.message_create_params", "MessageCreateParams"),
    "anthropic-beta": (
        "anthropic",
        "anthropic.types.beta.message_create_params",
        "MessageCreateParams",
    ),
}
#: Keys of the SDK's request TypedDicts that are request options, not body fields.
NOT_BODY = {"anthropic-beta": {"betas"}}


# --- TypedDicts (OpenAI, Anthropic) ------------------------------------------------------------


class Nodes:
    """The node table: a node is ``{"fields": {name: ref}}``, ``{"key", "members", "default"}``
    (a tagged union of objects), or ``{"object": ref, "array": ref, "map": ref}`` (the JSON kinds
    a value may take); a ref is a node id, or None where the value is free-form or a scalar."""

    def __init__(self) -> None:
        self.table: dict[str, dict] = {}
        self.hints: dict[type, dict[str, Any]] = {}

    def add(self, node: dict) -> str:
        key = "n" + hashlib.sha256(json.dumps(node, sort_keys=True).encode()).hexdigest()[:10]
        self.table.setdefault(key, node)
        return key


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and (te.is_typeddict(tp) or typing.is_typeddict(tp))


def _alternatives(tp: Any) -> list[Any]:
    """The leaves of a type: TypedDicts, ("array", leaves), ("map", leaves), scalars."""
    origin, args = te.get_origin(tp), te.get_args(tp)
    if origin in (te.Required, te.NotRequired, te.ReadOnly, te.Annotated) or hasattr(
        tp, "__metadata__"
    ):
        return _alternatives(args[0] if args else tp.__origin__)
    if origin is typing.Union or type(tp).__name__ == "UnionType":
        return [leaf for a in args for leaf in _alternatives(a)]
    if origin in (list, tuple, set, collections.abc.Iterable, collections.abc.Sequence):
        return [("array", _alternatives(args[0]) if args else [])]
    if origin in (dict, collections.abc.Mapping):
        return [("map", _alternatives(args[1]) if len(args) > 1 else [])]
    return [tp]


def _hints(nodes: Nodes, td: type) -> dict[str, Any]:
    if td not in nodes.hints:
        nodes.hints[td] = typing.get_type_hints(td, include_extras=True)
    return nodes.hints[td]


def _literals(nodes: Nodes, td: type, key: str) -> list[str]:
    hint = _hints(nodes, td).get(key)
    return [
        str(v)
        for x in _alternatives(hint)
        if te.get_origin(x) is te.Literal
        for v in te.get_args(x)
    ]


def _ref(nodes: Nodes, leaves: list[Any], seen: dict[type, str]) -> str | None:
    """The node for a value of these alternatives, or None when no object is among them."""
    free = any(
        isinstance(leaf, tuple) and leaf[0] == "map" and not any(map(_is_typeddict, leaf[1]))
        for leaf in leaves
    )  # a Dict[str, object] alternative: any object goes (a JSON Schema, say)
    objects = [] if free else [leaf for leaf in leaves if _is_typeddict(leaf)]
    arrays = [
        x for leaf in leaves if isinstance(leaf, tuple) and leaf[0] == "array" for x in leaf[1]
    ]
    maps = [x for leaf in leaves if isinstance(leaf, tuple) and leaf[0] == "map" for x in leaf[1]]
    maps = [] if free else maps
    kinds = {
        "object": _objects(nodes, objects, seen) if objects else None,
        "array": _ref(nodes, arrays, seen) if arrays else None,
        "map": _ref(nodes, maps, seen) if maps else None,
    }
    kinds = {k: v for k, v in kinds.items() if v is not None}
    if not kinds:
        return None
    if list(kinds) == ["object"]:
        return kinds["object"]
    return nodes.add(kinds)


def _objects(nodes: Nodes, tds: list[type], seen: dict[type, str]) -> str:
    if len(tds) == 1:
        return _typeddict(nodes, tds[0], seen)
    tag = next((k for k in ("type", "role") if all(_literals(nodes, td, k) for td in tds)), None)
    if tag is None:  # no tag: a field is known if any member knows it
        return _merged(nodes, [_typeddict(nodes, td, seen) for td in tds])
    by_value: dict[str, list[str]] = {}
    default = None  # the tag of a member whose tag may be left out (a custom tool)
    for td in tds:
        ref = _typeddict(nodes, td, seen)
        values = _literals(nodes, td, tag)
        for value in values:
            by_value.setdefault(value, []).append(ref)
        if not _required(nodes, td, tag):
            default = default or values[0]
    members = {
        v: refs[0] if len(refs) == 1 else _merged(nodes, refs) for v, refs in by_value.items()
    }
    return nodes.add({"key": tag, "members": dict(sorted(members.items())), "default": default})


def _merged(nodes: Nodes, refs: list[str]) -> str:
    """One node that knows every field any of ``refs`` knows (members sharing one tag)."""
    fields: dict[str, str | None] = {}
    for ref in refs:
        for name, child in nodes.table[ref]["fields"].items():
            fields[name] = fields.get(name) or child
    return nodes.add({"fields": dict(sorted(fields.items()))})


def _required(nodes: Nodes, td: type, key: str) -> bool:
    hint = _hints(nodes, td).get(key)
    if te.get_origin(hint) is te.Required:
        return True
    return bool(getattr(td, "__total__", True)) and te.get_origin(hint) is not te.NotRequired


def _typeddict(nodes: Nodes, td: type, seen: dict[type, str]) -> str:
    if td in seen:
        return seen[td]
    name = f"{td.__module__.split('.', 2)[-1]}.{td.__qualname__}"
    seen[td] = name
    nodes.table[name] = {"fields": {}}
    fields = {
        key: _ref(nodes, _alternatives(hint), seen) for key, hint in _hints(nodes, td).items()
    }
    nodes.table[name] = {"fields": dict(sorted(fields.items()))}
    return name


def typed_dict_tree(module: str, prefix: str, drop: set[str]) -> tuple[str, dict[str, dict]]:
    nodes = Nodes()
    found = importlib.import_module(module)
    seen: dict[type, str] = {}
    kinds = [
        _typeddict(nodes, getattr(found, prefix + k), seen) for k in ("NonStreaming", "Streaming")
    ]
    fields = {}
    for kind in kinds:
        fields.update(nodes.table.pop(kind)["fields"])
    root = nodes.add({"fields": {k: v for k, v in sorted(fields.items()) if k not in drop}})
    return root, nodes.table


def anthropic_betas() -> list[str]:
    """Every beta name the SDK's ``AnthropicBetaParam`` lists."""
    from anthropic.types import anthropic_beta_param

    leaves = _alternatives(anthropic_beta_param.AnthropicBetaParam)
    return sorted(
        {str(v) for x in leaves if te.get_origin(x) is te.Literal for v in te.get_args(x)}
    )


# --- Gemini (google-genai pydantic models and converters) ---------------------------------------


def _converters() -> dict[str, dict[str, list[str]]]:
    """``_X_to_mldev`` in google.genai.models: the wire names each sends, hoists or refuses."""
    tree = ast.parse(inspect.getsource(importlib.import_module("google.genai.models")))
    out = {}
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name.endswith("_to_mldev")):
            continue
        sent, hoisted, refused, calls = set(), set(), set(), {}
        for node in ast.walk(fn):
            if isinstance(node, ast.If) and node.body and isinstance(node.body[0], ast.Raise):
                test = ast.unparse(node.test)
                found = re.search(r"getv\(from_object, \['(\w+)'\]\)", test)
                if found:
                    refused.add(found.group(1))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setv":
                try:
                    key = ast.literal_eval(node.args[1])
                except (ValueError, IndexError):
                    continue
                target = hoisted if ast.unparse(node.args[0]) == "parent_object" else sent
                if key and not str(key[0]).startswith("_"):
                    target.add(str(key[0]))
                    value = ast.unparse(node.args[2])
                    called = re.search(r"\b_(\w+)_to_mldev\(", value)
                    if called:  # the field's value is converted as that model (a list: each item)
                        calls[str(key[0])] = [called.group(1), " for " in value]
        out[fn.name[1 : -len("_to_mldev")]] = {
            "sent": sorted(sent),
            "hoisted": sorted(hoisted),
            "refused": sorted(refused),
            "calls": dict(sorted(calls.items())),
        }
    return out


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


#: Fields of the SDK's ``Schema`` that the Gemini API refuses in a function's ``parameters``
#: (the SDK itself refuses a truthy one: ``_transformers._raise_for_unsupported_mldev_properties``;
#: the API refuses ``false`` too: zed-industries/zed#44875, openswarm-ai/openswarm#24).
GEMINI_API_REFUSES_IN_SCHEMA = ("additional_properties",)


def gemini_tree() -> tuple[str, dict[str, dict]]:
    """Nodes keyed by the pydantic model's name; fields by their proto (snake_case) name."""
    import pydantic
    from google.genai import types

    converters = _converters()
    nodes = Nodes()

    def model(cls: type) -> str:
        name = f"genai.{cls.__name__}"
        if name in nodes.table:
            return name
        nodes.table[name] = {"fields": {}}
        refused = set(converters.get(cls.__name__, {}).get("refused", []))
        fields = {}
        for field, info in cls.model_fields.items():
            if field in refused:
                continue
            fields[field] = ref(info.annotation)
        nodes.table[name] = {"fields": dict(sorted(fields.items()))}
        return name

    def ref(tp: Any) -> str | None:
        origin, args = te.get_origin(tp), te.get_args(tp)
        if origin is te.Annotated:
            return ref(args[0])
        if origin is typing.Union or type(tp).__name__ == "UnionType":
            refs = [r for r in (ref(a) for a in args) if r]
            return refs[0] if refs else None
        if origin in (list, collections.abc.Sequence):
            inner = ref(args[0]) if args else None
            return nodes.add({"array": inner}) if inner else None
        if origin in (dict, collections.abc.Mapping):
            inner = ref(args[1]) if len(args) > 1 else None
            return nodes.add({"map": inner}) if inner else None
        if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
            return model(tp)
        return None

    request = converters["GenerateContentParameters"]["sent"]
    request += converters["GenerateContentConfig"]["hoisted"]
    config = model(types.GenerateContentConfig)
    calls = {
        **converters["GenerateContentParameters"]["calls"],
        **converters["GenerateContentConfig"]["calls"],
    }
    top: dict[str, str | None] = {}
    for wire in sorted(set(request)):
        snake = _snake(wire)
        if snake == "contents":
            top[snake] = nodes.add({"array": model(types.Content)})
        elif snake == "generation_config":
            gen = model(types.GenerationConfig)
            sent = {_snake(w) for w in converters["GenerateContentConfig"]["sent"]}
            fields = dict(nodes.table[gen]["fields"])
            for field in sent - set(fields):  # sent by the converter under generationConfig
                fields[field] = nodes.table[config]["fields"].get(field)
            top[snake] = nodes.add({"fields": dict(sorted(fields.items()))})
        elif wire in calls:  # converted item by item as a model the SDK names
            name, many = calls[wire]
            inner = model(getattr(types, name))
            top[snake] = nodes.add({"array": inner}) if many else inner
        else:
            top[snake] = nodes.table[config]["fields"].get(snake)
    schema = nodes.table["genai.Schema"]["fields"]
    for field in GEMINI_API_REFUSES_IN_SCHEMA:
        schema.pop(field, None)
    root = nodes.add({"fields": dict(sorted(top.items()))})
    return root, nodes.table


# --- the file ------------------------------------------------------------------------------------


def _version(package: str) -> str | None:
    try:
        return importlib.import_module(package).__version__
    except ImportError:
        return None


def generate(old: dict | None = None) -> dict:
    """The file's content from the installed SDKs (a section whose SDK is not installed: from
    ``old``)."""
    old = old or {}
    out: dict[str, Any] = {
        "about": (
            "Request fields each API knows, per endpoint and level, read from the official "
            "SDKs' own request types by scripts/known_fields.py (do not edit by hand)."
        ),
        "endpoints": {},
    }
    for endpoint, (package, module, name) in TYPED_DICTS.items():
        version = _version(package)
        if version is None:
            out["endpoints"][endpoint] = old["endpoints"][endpoint]
            continue
        root, table = typed_dict_tree(module, name, NOT_BODY.get(endpoint, set()))
        out["endpoints"][endpoint] = {"sdk": f"{package}=={version}", "root": root, "nodes": table}
    if _version("anthropic"):
        out["anthropic_betas"] = {
            "sdk": f"anthropic=={_version('anthropic')}",
            "names": anthropic_betas(),
        }
    else:
        out["anthropic_betas"] = old["anthropic_betas"]
    genai = _genai_version()
    if genai is None:
        out["endpoints"]["gemini"] = old["endpoints"]["gemini"]
    else:
        root, table = gemini_tree()
        out["endpoints"]["gemini"] = {"sdk": f"google-genai=={genai}", "root": root, "nodes": table}
    return out


def _genai_version() -> str | None:
    try:
        from google import genai
    except ImportError:
        return None
    return genai.__version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args(argv)
    old = json.loads(TARGET.read_text(encoding="utf-8")) if TARGET.is_file() else None
    new = generate(old)
    text = json.dumps(new, indent=None, separators=(",", ":"), sort_keys=True) + "\n"
    for endpoint, section in new["endpoints"].items():
        print(f"{endpoint}: {section['sdk']}, {len(section['nodes'])} nodes")
    if args.check:
        same = TARGET.is_file() and TARGET.read_text(encoding="utf-8") == text
        print("current" if same else f"{TARGET} is out of date: python scripts/known_fields.py")
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
