"""A value valid for a JSON Schema, made deterministically: the general model's tool arguments.

``generate(schema, hint)`` walks the schema and returns the first value it can make that the
schema accepts (``SUPPORTED`` lists the keywords it honours). ``hint(property_name)`` offers
values taken from the conversation (a city, a quoted query, a key of a tool result); each is
used only when :func:`fits` says the property's schema accepts it, so a hint can make a value
more useful, never invalid. A schema nothing satisfies (or that needs a keyword outside
``SUPPORTED``) raises :class:`Unsatisfiable` instead of returning a wrong value; its ``path``
names the keyword inside the schema (``properties.x.minLength``).

Bounded work (a schema comes from whoever sends the request): the generator makes strings of
at most ``MAX_STRING`` characters (a larger ``minLength`` is unsatisfiable here), arrays of at
most ``MAX_ITEMS`` items (``minItems``; ``uniqueItems`` is checked in linear time), objects of at
most ``MAX_PROPERTIES`` properties (``required``, ``minProperties``), nested at most
``MAX_DEPTH`` levels, at most ``MAX_CHARS`` characters of string in one value, and does at most
``MAX_STEPS`` steps of work (schemas visited, values checked), and every schema of one request
together at most what its :class:`Budget` holds (``MAX_REQUEST_STEPS``, ``REQUEST_PATTERN_BUDGET``:
a thousand tools cannot add up to minutes); past a cap it raises
:class:`Unsatisfiable` (:class:`OverBudget` for the work and time budgets, which no ``anyOf``
branch can get round). A ``pattern`` (or a ``patternProperties`` key) runs in the ``regex``
package with a time limit (``PATTERN_TIMEOUT`` a match, ``PATTERN_BUDGET`` in all), never in
the backtracking ``re`` without one; a pattern longer than ``MAX_PATTERN`` characters, one whose
counted repeats expand past ``MAX_PATTERN_SIZE``, one that does not compile or one whose match
times out matches nothing, so a value it must match cannot be made. The real APIs may accept
such a schema: the caps are the stand-in's, not theirs.

What it does not do: sample, vary between runs, or read remote ``$ref``s. ``fits`` is
conservative: it answers False when unsure, which only means a hint goes unused.
tests/standin/test_general_model.py checks every generated value with ``jsonschema``.
"""

from __future__ import annotations

import functools
import json
import math
import re
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import regex

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_ITEMS",
    "MAX_PROPERTIES",
    "MAX_STEPS",
    "MAX_STRING",
    "SUPPORTED",
    "Budget",
    "OverBudget",
    "Unsatisfiable",
    "fits",
    "generate",
    "object_value",
]

Hint = Callable[[str], list[Any]]


#: The caps (see the module docstring): the longest string, the most items, the most
#: properties, the deepest nesting the generator makes; the characters of string in one value,
#: the steps of work, a pattern's length and expansion, and its time (seconds).
MAX_STRING = 10_000
MAX_ITEMS = 256
MAX_PROPERTIES = 256
MAX_DEPTH = 12
MAX_CHARS = 1_000_000
MAX_STEPS = 20_000
MAX_PATTERN = 1_000
MAX_PATTERN_SIZE = 10_000
PATTERN_TIMEOUT = 0.02
PATTERN_BUDGET = 0.2
MAX_REQUEST_STEPS = 50_000
REQUEST_PATTERN_BUDGET = 0.5


class Unsatisfiable(ValueError):
    """The schema asks for something the generator cannot make (or nothing can).

    ``path`` is where, inside the schema given to :func:`generate` (``properties.x.minLength``;
    ``""`` for the schema itself); set as the error leaves the generator.
    """

    def __init__(self, message: str, keyword: str | None = None, path: str | None = None):
        super().__init__(message)
        self.keyword = keyword
        self.path = path


class OverBudget(Unsatisfiable):
    """The work or time budget is spent: no other branch is tried."""


SUPPORTED = (
    "type (one or a list; lower or upper case, as Gemini writes it), const, enum (first member), "
    "default and examples (when valid), $ref to '#...' JSON pointers ($defs, definitions, "
    "recursion bounded), allOf (merged), anyOf (first branch that works), oneOf (first branch "
    "that matches no other), object: properties, required, additionalProperties, "
    "patternProperties (for required names), minProperties, dependentRequired; array: items, "
    "prefixItems, minItems, maxItems, uniqueItems; string: minLength, maxLength, format (date, "
    "date-time, time, email, uri, uuid, hostname, ipv4, ipv6), pattern only through a hint, "
    "default or example that matches it; number/integer: minimum, maximum, exclusiveMinimum, "
    "exclusiveMaximum (number or draft-4 boolean), multipleOf; boolean; null. Not: not, "
    "if/then/else, contains, propertyNames, dependentSchemas, unevaluated*."
)

_FORMATS = {
    "date": "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    "time": "00:00:00Z",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com/",
    "iri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "url": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "duration": "P1D",
}
_FORMAT_CHECK = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "date-time": re.compile(
        r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
    ),
    "time": re.compile(r"\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"),
    "email": re.compile(r"[^@\s]+@[^@\s]+"),
    "uri": re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*"),
    "uuid": re.compile(
        r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    ),
}
_TYPE_ORDER = ("object", "string", "integer", "number", "boolean", "array", "null")
_MAX_DEPTH = MAX_DEPTH


def _types(schema: dict) -> list[str]:
    t = schema.get("type")
    if t is None:
        return []
    listed = t if isinstance(t, list) else [t]
    return [str(x).lower() for x in listed]


def _infer_types(schema: dict) -> list[str]:
    types = _types(schema)
    if types:
        return types
    keys = set(schema)
    if keys & {
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
        "minProperties",
        "maxProperties",
        "dependentRequired",
    }:
        return ["object"]
    if keys & {"items", "prefixItems", "minItems", "maxItems", "uniqueItems"}:
        return ["array"]
    if keys & {"minLength", "maxLength", "pattern", "format"}:
        return ["string"]
    if keys & {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}:
        return ["number"]
    return ["string"]  # anything goes: a string is the least surprising value


def _join(at: str, keyword: str | None) -> str:
    return ".".join(part for part in (at, keyword) if part)


def _count(schema: dict, key: str, default: int = 0) -> int:
    """A non-negative integer keyword (``minLength``...), else Unsatisfiable naming it."""
    value = schema.get(key, default)
    if value is None:
        return default
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value != int(value)
        or value < 0
    ):
        raise Unsatisfiable(f"{key} must be a non-negative integer, not {value!r}", key)
    return int(value)


def _over(key: str, value: int, cap: int, what: str) -> Unsatisfiable:
    return Unsatisfiable(
        f"{key} {value} is over the stand-in's cap of {cap:,} {what}",
        key,
    )


class Budget:
    """The work left for one request, shared by every schema in it (each :func:`generate`
    given the same budget spends from it): steps and seconds of pattern matching."""

    def __init__(
        self, steps: int = MAX_REQUEST_STEPS, pattern_seconds: float = REQUEST_PATTERN_BUDGET
    ):
        self.steps = steps
        self.pattern_seconds = pattern_seconds

    @property
    def spent(self) -> bool:
        return self.steps < 0 or self.pattern_seconds <= 0


class _Gen:
    def __init__(self, root: Any, hint: Callable[[str], list[Any]], budget: Budget | None = None):
        self.root = root
        self.hint = hint
        self.budget = budget if budget is not None else Budget()
        self.at = ""  # where in the schema the value being made is asked for
        self.steps = 0
        self.chars = 0
        self.regex_left = PATTERN_BUDGET
        self.members: dict[int, tuple[dict, list[Any]]] = {}

    def charge(self, steps: int = 1) -> None:
        """Count work; :class:`OverBudget` once more than ``MAX_STEPS`` is spent on this
        value, or the request's budget is."""
        self.steps += steps
        self.budget.steps -= steps
        if self.steps > MAX_STEPS:
            raise OverBudget(
                f"the schema needs more than {MAX_STEPS:,} steps of work to fill (the "
                "stand-in's cap)"
            )
        if self.budget.steps < 0:
            raise OverBudget(
                f"the request's schemas need more than {MAX_REQUEST_STEPS:,} steps of work to "
                "fill (the stand-in's cap)"
            )

    def merge(self, schemas: list[Any]) -> dict:
        """``_merge``, its work charged: one step per keyword and per property merged."""
        self.charge(
            sum(len(s) + len(s.get("properties") or {}) for s in schemas if isinstance(s, dict))
        )
        return _merge(schemas)

    # -- references and combinators ----------------------------------------------------------

    def resolve(self, schema: Any, depth: int) -> Any:
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            if not ref.startswith("#"):
                raise Unsatisfiable(f"only local $ref is supported, not {ref!r}")
            target: Any = self.root
            for part in ref[1:].lstrip("/").split("/") if ref not in ("#", "#/") else []:
                part = part.replace("~1", "/").replace("~0", "~")
                if isinstance(target, list) and part.isdigit() and int(part) < len(target):
                    target = target[int(part)]
                elif isinstance(target, dict) and part in target:
                    target = target[part]
                else:
                    raise Unsatisfiable(f"$ref {ref!r} points nowhere")
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            # 2019-09+: siblings of $ref apply too
            schema = self.merge([target, rest]) if _meaningful(rest) else target
            seen += 1
            self.charge()
            if seen > 50:
                raise Unsatisfiable("more than 50 $ref hops in a row (a $ref loop?)", "$ref")
        return schema

    def value(self, schema: Any, name: str = "", depth: int = 0, k: int = 0, at: str = "") -> Any:
        """A value valid for ``schema`` (found at ``at`` in the root); ``k`` asks for the k-th
        variant (uniqueItems). Any failure is an Unsatisfiable that names its place."""
        self.charge()
        outer, self.at = self.at, at
        try:
            return self._value(schema, name, depth, k)
        except Unsatisfiable as err:
            if err.path is None:
                err.path = _join(at, err.keyword)
            raise
        except (
            TypeError,
            ValueError,
            LookupError,
            ArithmeticError,
            AttributeError,
            RecursionError,
        ) as err:
            text = f"the stand-in cannot read this schema ({type(err).__name__}: {err})"
            raise Unsatisfiable(text, path=at) from None
        finally:
            self.at = outer

    def _value(self, schema: Any, name: str, depth: int, k: int) -> Any:
        at = self.at
        if depth > _MAX_DEPTH:
            raise Unsatisfiable(
                f"nested deeper than the stand-in's cap of {MAX_DEPTH} levels (a recursive schema?)"
            )
        if schema is True or schema == {}:
            schema = {}
        if schema is False:
            raise Unsatisfiable("false schema")
        schema = self.resolve(schema, depth)
        if not isinstance(schema, dict):
            raise Unsatisfiable(f"not a schema: {schema!r}")
        if "allOf" in schema:
            parts = [self.resolve(s, depth) for s in schema["allOf"]]
            self.charge(len(parts))
            rest = {k2: v for k2, v in schema.items() if k2 != "allOf"}
            return self.value(self.merge([rest, *parts]), name, depth + 1, k, at)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            members = self._members(schema)
            if not members:
                raise Unsatisfiable("empty enum")
            if k == 0:
                extra = [schema["default"]] if "default" in schema else []
                for candidate in (*self.hint(name), *extra):
                    if candidate in members and _fits(schema, candidate, self):
                        return candidate
            return members[k % len(members)] if k < len(members) else _bump(members[0], k)
        if k == 0:  # a value from the conversation, the schema's default, its first example
            candidates = [*self.hint(name)] if name else []
            if "default" in schema:
                candidates.append(schema["default"])
            candidates += list(schema.get("examples") or [])[:1]
            for candidate in candidates:
                if _fits(schema, candidate, self):
                    return candidate
        for key in ("anyOf", "oneOf"):
            if key in schema:
                rest = {k2: v for k2, v in schema.items() if k2 not in ("anyOf", "oneOf")}
                branches = schema[key]
                last: Exception | None = None
                for i, branch in enumerate(branches):
                    merged = (
                        self.merge([rest, self.resolve(branch, depth)])
                        if _meaningful(rest)
                        else branch
                    )
                    try:
                        v = self.value(merged, name, depth + 1, k, _join(at, f"{key}[{i}]"))
                    except OverBudget:
                        raise
                    except Unsatisfiable as err:
                        last = err
                        continue
                    if key == "oneOf":
                        others = [b for j, b in enumerate(branches) if j != i]
                        if any(
                            _fits(self.merge([rest, self.resolve(b, depth)]), v, self)
                            for b in others
                        ):
                            last = Unsatisfiable("value matches more than one oneOf branch")
                            continue
                    if "anyOf" in schema and "oneOf" in schema and not _fits(schema, v, self):
                        last = Unsatisfiable("value does not satisfy both anyOf and oneOf")
                        continue
                    return v
                raise last or Unsatisfiable(f"no {key} branch")
        types = _infer_types(schema)
        ordered = [t for t in _TYPE_ORDER if t in types] if len(types) > 1 else types
        last = None
        for t in ordered:
            maker = getattr(self, "_" + t, None)
            if maker is None:
                last = Unsatisfiable(f"unknown type {t!r}", "type")
                continue
            try:
                return maker(schema, name, depth, k)
            except OverBudget:
                raise
            except Unsatisfiable as err:
                last = err
        raise last or Unsatisfiable(f"no type in {types}", "type")

    def _members(self, schema: dict) -> list[Any]:
        """The enum members the rest of ``schema`` accepts (all of them if none), worked out
        once per schema object (uniqueItems asks again for every item and variant)."""
        kept = self.members.get(id(schema))
        if kept is None or kept[0] is not schema:
            plain = self._plain(schema)
            members = [m for m in schema["enum"] if _fits(plain, m, self)]
            kept = (schema, members or list(schema["enum"]))  # the schema kept: its id stays
            self.members[id(schema)] = kept
        return kept[1]

    def _plain(self, schema: dict) -> dict:
        return {k: v for k, v in schema.items() if k not in ("enum", "default", "examples")}

    # -- one type each ------------------------------------------------------------------------

    def _null(self, schema, name, depth, k):
        if k:
            raise Unsatisfiable("only one null")
        return None

    def _boolean(self, schema, name, depth, k):
        if k > 1:
            raise Unsatisfiable("only two booleans")
        return k == 0

    def _string(self, schema, name, depth, k):
        lo = _count(schema, "minLength")
        hi = _count(schema, "maxLength") if schema.get("maxLength") is not None else None
        if lo > MAX_STRING:
            raise _over("minLength", lo, MAX_STRING, "characters")
        text = self._plain_string(schema, lo, hi, k)
        self.chars += len(text)
        if self.chars > MAX_CHARS:
            raise OverBudget(
                f"the value would hold more than {MAX_CHARS:,} characters of string (the "
                "stand-in's cap)",
                "minLength",
            )
        return text

    def _plain_string(self, schema: dict, lo: int, hi: int | None, k: int) -> str:
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            base = _vary_format(fmt, k) if k else _FORMATS[fmt]
            if len(base) < lo and fmt in ("email", "idn-email"):
                base = "u" * (lo - len(base)) + base
            elif len(base) < lo and fmt in ("uri", "iri", "uri-reference", "url"):
                base = base + "x" * (lo - len(base))
            if len(base) < lo or (hi is not None and len(base) > hi):
                raise Unsatisfiable(f"format {fmt} and the length bounds disagree")
        else:
            base = f"example-{k}" if k else "example"
            if hi is not None and len(base) > hi:
                base = _short_variant(k, int(hi)) if k else base[: int(hi)]
            base = base + "_" * max(0, lo - len(base))
            if hi is not None and len(base) > hi:
                raise Unsatisfiable("minLength > maxLength")
        if "pattern" in schema and _pattern_ok(schema["pattern"], base, self) is not True:
            for candidate in ("", "a", "A", "0", "example", "a1", "abc", "ABC", "123"):
                if _fits(schema, candidate, self):
                    return candidate
            why = _pattern_problem(schema["pattern"]) or "no hint, default or example matches it"
            raise Unsatisfiable(f"pattern: {why}", "pattern")
        return base

    def _integer(self, schema, name, depth, k):
        return self._number(schema, name, depth, k, integer=True)

    def _number(self, schema, name, depth, k, integer=False):
        lo, lo_open, hi, hi_open = _bounds(schema)
        raw_step = schema.get("multipleOf")
        step = None
        if raw_step is not None:
            step = Fraction(str(raw_step)) if isinstance(raw_step, float) else Fraction(raw_step)
            if integer:
                step = Fraction(step.numerator)  # integer multiples of p/q are multiples of p
        elif integer:
            step = Fraction(1)

        def ok(c: Fraction) -> int | float | None:
            if not _in_bounds(c, lo, lo_open, hi, hi_open):
                return None
            out = int(c) if integer or c.denominator == 1 else float(c)
            if not _in_bounds(Fraction(out), lo, lo_open, hi, hi_open):
                return None  # the float rounded out of a tiny range
            return out if _multiple_ok(out, raw_step) else None

        if step is None:  # any number: 1 (+k), else the first integer inside, else the middle
            candidates = [Fraction(1 + k)]
            if lo is not None:
                candidates.append(Fraction(math.floor(lo) + 1 + k))
            if hi is not None:
                candidates.append(Fraction(math.ceil(hi) - 1 - k))
            if lo is not None and hi is not None:
                mid = (lo + hi) / 2
                candidates += [mid + (hi - mid) * Fraction(k, k + 1), mid]
            for c in candidates:
                out = ok(c)
                if out is not None:
                    return out
            raise Unsatisfiable("no number within the bounds")
        # multiples of step: the first one >= lo, else the one nearest 1 below hi; then the k-th
        if lo is not None:
            n, direction = math.ceil(lo / step) + k, 1
        elif hi is not None:
            n, direction = min(math.floor(hi / step), max(1, math.ceil(1 / step))) - k, -1
        else:
            n, direction = max(1, math.ceil(1 / step)) + k, 1
        for _ in range(64):
            value = n * step
            if (direction > 0 and hi is not None and value > hi) or (
                direction < 0 and lo is not None and value < lo
            ):
                break
            out = ok(value)
            if out is not None:
                return out
            n += direction
        if raw_step is None:
            raise Unsatisfiable(
                "no integer within the bounds", "maximum" if "maximum" in schema else None
            )
        raise Unsatisfiable("no multiple of multipleOf within the bounds", "multipleOf")

    def _array(self, schema, name, depth, k):
        lo = _count(schema, "minItems")
        hi = _count(schema, "maxItems") if schema.get("maxItems") is not None else None
        if lo > MAX_ITEMS:
            raise _over("minItems", lo, MAX_ITEMS, "items")
        at = self.at
        prefix = schema.get("prefixItems")
        items = schema.get("items", {})
        if isinstance(items, list):  # draft 4-7 tuple form
            prefix, items = items, schema.get("additionalItems", {})
        prefix = prefix or []
        want = max(lo, 1)  # a cooperative model fills a list with one item at least
        if items is False:
            want = max(lo, min(want, len(prefix)))
        if hi is not None:
            want = min(want, int(hi))
        if want < lo:
            raise Unsatisfiable("minItems > maxItems")
        unique = schema.get("uniqueItems") is True
        out: list[Any] = []
        seen: set[str] = set()  # uniqueItems in linear time: each item's canonical JSON
        for i in range(want):
            sub, where = (prefix[i], f"prefixItems[{i}]") if i < len(prefix) else (items, "items")
            first = (i if unique else 0) + (k if i == 0 else 0)
            made = None
            for variant in range(first, first + (16 if unique else 1)):
                try:
                    candidate = self.value(
                        sub, name if i == 0 else "", depth + 1, variant, _join(at, where)
                    )
                except OverBudget:
                    raise
                except Unsatisfiable:
                    break
                if not unique or _canonical(candidate) not in seen:
                    made = (candidate,)
                    break
            if made is None:
                if len(out) >= lo:
                    break
                raise Unsatisfiable("not enough (distinct) item values for minItems", "minItems")
            out.append(made[0])
            if unique:
                seen.add(_canonical(made[0]))
        return out

    def _object(self, schema, name, depth, k):
        properties = schema.get("properties") or {}
        required = list(dict.fromkeys(schema.get("required") or []))
        dependent = schema.get("dependentRequired") or {}
        # draft 4-7 dependencies with a list value mean the same
        for key, value in (schema.get("dependencies") or {}).items():
            if isinstance(value, list):
                dependent = {**dependent, key: value}
        min_props = _count(schema, "minProperties")
        if min_props > MAX_PROPERTIES:
            raise _over("minProperties", min_props, MAX_PROPERTIES, "properties")
        if len(required) > MAX_PROPERTIES:
            raise _over("required", len(required), MAX_PROPERTIES, "properties")
        wanted, chosen = list(required), set(required)  # the set: membership in linear time
        for p in properties:
            if len(wanted) >= min_props:
                break
            if p not in chosen and properties[p] is not False:
                wanted.append(p)
                chosen.add(p)
        i = 0
        while i < len(wanted):  # dependentRequired may pull more in
            for extra in dependent.get(wanted[i], []):
                if extra not in chosen:
                    wanted.append(extra)
                    chosen.add(extra)
                    if len(wanted) > MAX_PROPERTIES:
                        raise _over("dependentRequired", len(wanted), MAX_PROPERTIES, "properties")
            i += 1
        extra_n = 0
        while len(wanted) < min_props:
            extra_n += 1
            wanted.append(f"extra_{extra_n}")
        at = self.at
        out: dict[str, Any] = {}
        for prop in wanted:
            sub, where = self._property_schema(schema, prop)
            out[prop] = self.value(sub, prop, depth + 1, 0, _join(at, where))
        if k:  # a variant: change the first property, or add one
            if wanted:
                first = wanted[0]
                sub, where = self._property_schema(schema, first)
                out[first] = self.value(sub, "", depth + 1, k, _join(at, where))
            elif schema.get("additionalProperties", True) is not False:
                out[f"k{k}"] = k
        if "maxProperties" in schema and len(out) > schema["maxProperties"]:
            raise Unsatisfiable(
                "more properties are required than maxProperties allows", "maxProperties"
            )
        return out

    def _property_schema(self, schema: dict, prop: str) -> tuple[Any, str]:
        """The schema a property's value must meet, and where it is (``properties.x``)."""
        properties = schema.get("properties") or {}
        patterns = schema.get("patternProperties") or {}
        self.charge(len(patterns))
        matched = []
        for pattern, extra in patterns.items():
            found = _pattern_ok(pattern, prop, self)
            if found is None:  # does not compile, too large, or timed out: cannot tell
                why = _pattern_problem(pattern) or "its match timed out"
                raise Unsatisfiable(
                    f"patternProperties {pattern!r}: {why}", f"patternProperties.{pattern}"
                )
            if found:
                matched.append((pattern, extra))
        if prop in properties:
            sub = properties[prop]
            for _, extra in matched:
                sub = {"allOf": [sub, extra]}
            return sub, f"properties.{prop}"
        if matched:
            if len(matched) > 1:
                return {"allOf": [m for _, m in matched]}, "patternProperties"
            return matched[0][1], f"patternProperties.{matched[0][0]}"
        additional = schema.get("additionalProperties", True)
        if additional is False:
            raise Unsatisfiable(
                f"required {prop!r} is not allowed by additionalProperties", "additionalProperties"
            )
        return (additional if isinstance(additional, dict) else {}), "additionalProperties"


def generate(
    schema: Any,
    hint: Callable[[str], list[Any]] | None = None,
    *,
    root: Any = None,
    budget: Budget | None = None,
) -> Any:
    """A value valid for ``schema`` (see ``SUPPORTED``), deterministic; raises Unsatisfiable.

    ``hint(property_name)`` offers candidate values from the conversation; each is used only
    if it is valid for that property's schema. ``budget``: the request's, shared with its other
    schemas (a fresh one if None).
    """
    gen = _Gen(schema if root is None else root, hint or _no_hints, budget)
    return gen.value(schema)


def object_value(
    schema: dict | None, hint: Hint | None = None, budget: Budget | None = None
) -> dict:
    """An object valid for ``schema`` (a tool's ``parameters``: the top level is an object)."""
    schema = schema or {"type": "object"}
    if not isinstance(schema, dict):
        raise Unsatisfiable(f"a tool's parameters must be a schema object, not {schema!r:.40}")
    if not _types(schema) and "properties" not in schema and "$ref" not in schema:
        schema = {**schema, "type": "object"}
    value = generate(schema, hint, budget=budget)
    if not isinstance(value, dict):
        raise Unsatisfiable("a tool's arguments must be an object")
    return value


# --- schema helpers ------------------------------------------------------------------------


def _meaningful(schema: dict) -> bool:
    ignore = {
        "title",
        "description",
        "$schema",
        "$id",
        "$comment",
        "examples",
        "$defs",
        "definitions",
        "default",
        "nullable",
        "propertyOrdering",
    }
    return any(k not in ignore for k in schema)


def _merge(schemas: list[Any]) -> dict:
    """allOf, flattened: the tightest bounds, the union of required and properties, etc."""
    out: dict[str, Any] = {}
    for s in schemas:
        if s is True:
            continue
        if s is False:
            return {"not": {}}  # nothing is valid; the generator will fail on it
        if not isinstance(s, dict):
            continue
        if "allOf" in s:
            s = _merge([{k: v for k, v in s.items() if k != "allOf"}, *s["allOf"]])
        for key, value in s.items():
            if key not in out:
                out[key] = value
                continue
            have = out[key]
            if key in ("minimum", "minLength", "minItems", "minProperties"):
                out[key] = max(have, value)
            elif key in ("maximum", "maxLength", "maxItems", "maxProperties"):
                out[key] = min(have, value)
            elif key in ("exclusiveMinimum",) and not isinstance(value, bool):
                out[key] = max(have, value) if not isinstance(have, bool) else value
            elif key in ("exclusiveMaximum",) and not isinstance(value, bool):
                out[key] = min(have, value) if not isinstance(have, bool) else value
            elif key == "required":
                out[key] = list(dict.fromkeys([*have, *value]))
            elif key == "properties":
                merged = dict(have)
                for p, sub in value.items():
                    merged[p] = {"allOf": [merged[p], sub]} if p in merged else sub
                out[key] = merged
            elif key == "type":
                a = set(have if isinstance(have, list) else [have])
                b = set(value if isinstance(value, list) else [value])
                both = a & b
                if "number" in a and "integer" in b or "number" in b and "integer" in a:
                    both.add("integer")
                out[key] = [t for t in _TYPE_ORDER if t in both] or ["__none__"]
            elif key == "enum":
                out[key] = [m for m in have if m in value]
            elif key == "multipleOf":
                a, b = Fraction(str(have)), Fraction(str(value))
                lcm = Fraction(
                    math.lcm(a.numerator, b.numerator), math.gcd(a.denominator, b.denominator)
                )
                out[key] = int(lcm) if lcm.denominator == 1 else float(lcm)
            elif key in ("anyOf", "oneOf"):
                out.setdefault("allOf", []).append({key: value})
            elif key == "uniqueItems":
                out[key] = bool(have or value)
            elif (
                key == "additionalProperties" and isinstance(have, dict) and isinstance(value, dict)
            ):
                out[key] = {"allOf": [have, value]}
            elif key == "additionalProperties" and value is False:
                out[key] = False
    return out


def _bounds(schema: dict) -> tuple[Fraction | None, bool, Fraction | None, bool]:
    def frac(x):
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)

    lo = hi = None
    lo_open = hi_open = False
    if isinstance(schema.get("minimum"), (int, float)) and not isinstance(schema["minimum"], bool):
        lo = frac(schema["minimum"])
        lo_open = schema.get("exclusiveMinimum") is True
    if isinstance(schema.get("maximum"), (int, float)) and not isinstance(schema["maximum"], bool):
        hi = frac(schema["maximum"])
        hi_open = schema.get("exclusiveMaximum") is True
    em, eM = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if _is_number(em) and (lo is None or frac(em) >= lo):
        lo, lo_open = frac(em), True
    if _is_number(eM) and (hi is None or frac(eM) <= hi):
        hi, hi_open = frac(eM), True
    return lo, lo_open, hi, hi_open


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _in_bounds(v: Fraction, lo, lo_open, hi, hi_open) -> bool:
    if lo is not None and (v < lo or (lo_open and v == lo)):
        return False
    return not (hi is not None and (v > hi or (hi_open and v == hi)))


def _multiple_ok(value: int | float, step: Any) -> bool:
    """multipleOf as jsonschema 4 checks it (float division for float steps)."""
    if step is None:
        return True
    if isinstance(step, float):
        try:
            quotient = value / step
            return int(quotient) == quotient
        except (OverflowError, ZeroDivisionError):
            return False
    if isinstance(value, float):
        quotient = value / step
        return quotient == int(quotient)
    return value % step == 0


_REPEAT = re.compile(r"\{(\d{0,9})(?:,(\d{0,9}))?\}")


def _pattern_size(pattern: str) -> int:
    """About how many nodes ``regex`` builds for ``pattern``: counted repeats (``{n,m}``)
    multiplied through the groups they repeat. Compiling takes time in proportion (a pattern
    of 20 characters can take minutes), and the compile has no timeout: this is checked
    first. An over-estimate for odd syntax, never an under-estimate of nested repeats."""
    stack, last, i = [0], 1, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            last, i = 1, i + 2
        elif ch == "[":
            j = i + 1 + (pattern[i + 1 : i + 2] == "^")
            j += pattern[j : j + 1] == "]"
            while j < len(pattern) and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            last, i = 1, j + 1
        elif ch == "(":
            stack.append(0)
            i += 1
            continue
        elif ch == ")":
            last = max(stack.pop() if len(stack) > 1 else 0, 1)
            stack[-1] += last - 1  # counted once below
            i += 1
        elif ch == "{" and (m := _REPEAT.match(pattern, i)) and (m.group(1) or m.group(2)):
            count = max(int(m.group(1) or 0), int(m.group(2) or 0))
            stack[-1] += last * max(count - 1, 0)
            last *= max(count, 1)
            i = m.end()
            continue
        else:
            last, i = 1, i + 1
        stack[-1] += 1
    return sum(stack)


def _pattern_problem(pattern: Any) -> str | None:
    """Why ``pattern`` is not run at all (too long, too large, does not compile), or None."""
    if not isinstance(pattern, str):
        return f"not a string ({type(pattern).__name__})"
    if len(pattern) > MAX_PATTERN:
        return f"longer than the stand-in's cap of {MAX_PATTERN:,} characters"
    if _pattern_size(pattern) > MAX_PATTERN_SIZE:
        return f"its counted repeats expand past the stand-in's cap of {MAX_PATTERN_SIZE:,}"
    if _compiled(pattern) is None:
        return "does not compile"
    return None


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> Any:
    try:
        return regex.compile(pattern)
    except (regex.error, ValueError, OverflowError, RecursionError):
        return None


def _pattern_ok(pattern: Any, text: str, gen: _Gen | None = None) -> bool | None:
    """Whether ``pattern`` matches somewhere in ``text`` (JSON Schema's ``pattern``): True,
    False, or None when it cannot tell (the pattern is not run, or its match timed out).

    ``regex`` with a timeout (``PATTERN_TIMEOUT``, and what is left of ``gen``'s
    ``PATTERN_BUDGET``); it releases the GIL while it matches, so other requests go on.
    """
    if _pattern_problem(pattern) is not None:
        return None
    timeout = PATTERN_TIMEOUT
    if gen is not None:
        timeout = min(timeout, gen.regex_left, gen.budget.pattern_seconds)
    if timeout <= 0:
        raise OverBudget(
            f"the schema's patterns took more than {PATTERN_BUDGET} s to match, or the request's "
            f"more than {REQUEST_PATTERN_BUDGET} s (the stand-in's caps)"
        )
    start = time.perf_counter()
    try:
        return _compiled(pattern).search(text, timeout=timeout, concurrent=True) is not None
    except TimeoutError:
        return None
    finally:
        if gen is not None:
            took = time.perf_counter() - start
            gen.regex_left -= took
            gen.budget.pattern_seconds -= took


def _vary_format(fmt: str, k: int) -> str:
    n = k % 28 + 1
    return {
        "date": f"2026-01-{n:02d}",
        "date-time": f"2026-01-{n:02d}T00:00:00Z",
        "time": f"00:00:{n % 60:02d}Z",
        "email": f"user{k}@example.com",
        "idn-email": f"user{k}@example.com",
        "uri": f"https://example.com/{k}",
        "iri": f"https://example.com/{k}",
        "uri-reference": f"https://example.com/{k}",
        "url": f"https://example.com/{k}",
        "uuid": f"00000000-0000-4000-8000-{k:012d}",
        "hostname": f"h{k}.example.com",
        "idn-hostname": f"h{k}.example.com",
        "ipv4": f"192.0.2.{k % 255}",
        "ipv6": f"2001:db8::{k % 65535:x}",
        "duration": f"P{k}D",
    }[fmt]


def _short_variant(k: int, hi: int) -> str:
    if hi <= 0:
        raise Unsatisfiable("maxLength 0 has one value")
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    out = ""
    while True:
        k, r = divmod(k, len(alphabet))
        out += alphabet[r]
        if not k:
            break
    if len(out) > hi:
        raise Unsatisfiable("not enough short strings")
    return out


def _bump(value: Any, k: int) -> Any:
    raise Unsatisfiable("enum has too few members for uniqueItems")


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, True != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[x], b[x]) for x in a)
    return type(a) is type(b) and a == b


def _canonical(value: Any) -> str:
    """One text per JSON value as ``_json_equal`` sees it (1 == 1.0, True != 1, key order
    ignored): uniqueItems checked with a set, in linear time."""

    def plain(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in v.items()}
        return v

    return json.dumps(plain(value), sort_keys=True, ensure_ascii=False, default=repr)


def _fits(schema: Any, value: Any, gen: _Gen, depth: int = 0) -> bool:
    """A conservative check for the keywords the generator supports (to accept hints/defaults).

    False whenever it is unsure (an unsupported keyword it cannot judge, a schema it cannot
    read), so a hint is never used where it might be invalid; the generator's own values do not
    depend on it except for oneOf. Each call is a step of ``gen``'s work budget.
    """
    gen.charge()
    try:
        return _fits_here(schema, value, gen, depth)
    except Unsatisfiable:
        raise
    except (TypeError, ValueError, LookupError, ArithmeticError, RecursionError):
        return False


def _fits_here(schema: Any, value: Any, gen: _Gen, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if schema is True:
        return True
    if schema is False:
        return False
    try:
        schema = gen.resolve(schema, depth)
    except OverBudget:
        raise
    except Unsatisfiable:
        return False
    if not isinstance(schema, dict):
        return False
    unsure = {
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "dependentSchemas",
        "unevaluatedProperties",
        "unevaluatedItems",
        "$dynamicRef",
        "$recursiveRef",
    }
    if unsure & set(schema):
        return False
    if "const" in schema and not _json_equal(schema["const"], value):
        return False
    if "enum" in schema and not any(_json_equal(m, value) for m in schema["enum"]):
        return False
    for sub in schema.get("allOf", []):
        if not _fits(sub, value, gen, depth + 1):
            return False
    if "anyOf" in schema and not any(_fits(s, value, gen, depth + 1) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(_fits(s, value, gen, depth + 1) for s in schema["oneOf"]) != 1:
        return False
    types = _types(schema)
    if types and not any(_is_type(value, t) for t in types):
        return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return False
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return False
        if "pattern" in schema and _pattern_ok(schema["pattern"], value, gen) is not True:
            return False
        fmt = schema.get("format")
        if fmt in _FORMAT_CHECK and not _FORMAT_CHECK[fmt].fullmatch(value):
            return False
        if fmt in _FORMATS and fmt not in _FORMAT_CHECK and value != _FORMATS[fmt]:
            return False  # a format we cannot check: only our own value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            return False
        lo, lo_open, hi, hi_open = _bounds(schema)
        if not _in_bounds(Fraction(value), lo, lo_open, hi, hi_open):
            return False
        if "multipleOf" in schema and not _multiple_ok(value, schema["multipleOf"]):
            return False
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return False
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return False
        if schema.get("uniqueItems") is True and len({_canonical(v) for v in value}) < len(value):
            return False
        prefix = schema.get("prefixItems") or []
        items = schema.get("items", True)
        if isinstance(items, list):
            prefix, items = items, schema.get("additionalItems", True)
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            if not _fits(sub, item, gen, depth + 1):
                return False
    if isinstance(value, dict):
        if any(p not in value for p in schema.get("required", [])):
            return False
        if len(value) < schema.get("minProperties", 0):
            return False
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            return False
        for key, names in (schema.get("dependentRequired") or {}).items():
            if key in value and any(n not in value for n in names):
                return False
        properties = schema.get("properties") or {}
        patterns = schema.get("patternProperties") or {}
        additional = schema.get("additionalProperties", True)
        for key, item in value.items():
            matched = False
            if key in properties:
                matched = True
                if not _fits(properties[key], item, gen, depth + 1):
                    return False
            gen.charge(len(patterns))
            for pattern, sub in patterns.items():
                found = _pattern_ok(pattern, key, gen)
                if found is None:
                    return False  # cannot tell: unsure
                if found:
                    matched = True
                    if not _fits(sub, item, gen, depth + 1):
                        return False
            if not matched and not _fits(additional, item, gen, depth + 1):
                return False
    return True


def _is_type(value: Any, t: str) -> bool:
    if t == "null":
        return value is None
    if t == "boolean":
        return isinstance(value, bool)
    if t == "integer":
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            or (isinstance(value, float) and value.is_integer())
        )
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "string":
        return isinstance(value, str)
    if t == "array":
        return isinstance(value, list)
    if t == "object":
        return isinstance(value, dict)
    return False


def fits(schema: Any, value: Any, root: Any = None) -> bool:
    """Whether ``schema`` (inside ``root``, for ``$ref``) surely accepts ``value`` (False when
    the check would need more than the work budget)."""
    try:
        return _fits(schema, value, _Gen(schema if root is None else root, _no_hints))
    except OverBudget:
        return False


def _no_hints(name: str) -> list[Any]:
    return []
