"""The general scripted model: what a cooperative model would do with this request, every time.

It reads the request's tools, its tool choice and the conversation, and follows one stated rule:

*Words.* A text's words are its runs of letters and digits, split at ``_``, ``-``, ``.`` and
camelCase, lower-cased, a plural cut (``orders`` -> ``order``), minus stop words (``_STOP``).
*Fit.* A tool scores ``2 * (user words in its name) + (user words in its description only)``
against the last user text; it fits at 2 or more. Ties go to the tool declared first.
*Phase.* After the last user text, tool results mean *answering*; none mean *asking*. A user
text starting with ``Observation:`` is a tool result too (smolagents sends results as text).
*Choice.* ``auto``: asking, call the fitting tools, else answer in text; answering, answer in
text quoting the results. ``required``: the best fitting tool (else the first); after results,
the *finishing* tool (name or description says final, finish, submit, answer...; else the
first). A named tool: that one. ``none``: text. Parallel calls (when allowed): every fitting
tool that matches through a name word no tool already taken matched. Arguments: valid for the
tool's schema (``standin.provider.schema_values``), filled from the conversation where a value
fits (a query takes a quoted phrase, else an identifier such as ``SO-48213``, else the text; an
``..._id`` property takes the identifier). Structured output: JSON valid for the schema.
Limits and stop sequences: ``routes``.

*Formats.* A text answer follows the format the request asks for: a structured-output schema
first (JSON valid for it); else a format the prompt states (``standin.provider.prompt_formats``:
DSPy field markers, a JSON schema or example in a text that says JSON, an XML tag), filled the
same way; JSON mode without a stated schema answers ``{"answer": <the text answer>}``, never an
empty object. DSPy fields (after markers, or the keys of one object for its JSONAdapter): a
``Literal[...]`` field takes the fitting name (after a tool's ``observation``, ``finish`` when
offered; else the best fit, else the first), a ``dict`` field the chosen tool's arguments from
its listed schema, other typed fields a value of the type, text fields the text answer.

*Cannot fill.* Values come from ``schema_values`` within its caps (string, array and object
sizes, nesting, work, pattern time): arguments are made with the conversation's hints, else
without them. A tool or output schema that cannot be filled either way is the stand-in's
limit, not the API's: :func:`unfillable` lists them, ``standin.verdict`` reports each as a
warning (rule ``stand-in-cannot-fill``) and the server answers that request with its own 422
(``routes``), the same decision for every request whichever tool the model would call.
"""

from __future__ import annotations

import ast
import json
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from typing import Any

from helpers.messages import Block, Message, Request, Text, Tool, ToolResult
from standin.provider import prompt_formats
from standin.provider.schema_values import Budget, Unsatisfiable, generate, object_value
from standin.provider.turn import Turn

__all__ = [
    "choose_tools",
    "finishing_tool",
    "general",
    "hints_from",
    "score",
    "unfillable",
    "words",
]

_STOP = frozenset(
    """a an the and or but of to in on at for from by with about into over as is are was were be
    been am do does did can could would should will shall may might must i me my we our you your
    it its this that these those there here what which who whom whose when where why how please
    thanks thank hi hello hey s t d ll m re ve not no yes just also some any all get gets set
    use using call tool tools function functions make give tell show let find out up now today
    current""".split()  # noqa: SIM905
)
_FINISH = frozenset(
    """final finish submit respond answer done complete reply conclude""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
FIT = 2


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """The words of ``text`` by the rule above, in order."""
    stemmed = (_stem(part.lower()) for part in _WORD.findall(text or ""))
    return [word for word in stemmed if word not in _STOP]


def score(tool: Tool, user_text: str) -> tuple[int, set[str]]:
    """``(score, the name words that matched)`` of ``tool`` against the user's text."""
    user, name = set(words(user_text)), set(words(tool.name))
    by_name = user & name
    return 2 * len(by_name) + len(user & (set(words(tool.description)) - name)), by_name


def choose_tools(tools: Sequence[Tool], user_text: str, parallel: bool) -> list[Tool]:
    """The fitting tools to call, in declaration order (empty when none fits)."""
    scored = [(score(tool, user_text), i, tool) for i, tool in enumerate(tools)]
    fitting = sorted((s for s in scored if s[0][0] >= FIT), key=lambda s: (-s[0][0], s[1]))
    if not fitting or not parallel:
        return [fitting[0][2]] if fitting else []
    chosen: list[tuple[int, Tool]] = []
    covered: set[str] = set()
    for (_, by_name), i, tool in fitting:
        if not chosen or by_name - covered:
            chosen.append((i, tool))
            covered |= by_name
    return [tool for _, tool in sorted(chosen, key=lambda c: c[0])]


def finishing_tool(tools: Sequence[Tool]) -> Tool | None:
    """The first tool whose name, else whose description, says it finishes or answers."""
    for where in ("name", "description"):
        for tool in tools:
            if _FINISH & set(words(getattr(tool, where))):
                return tool
    return None


# --- hints: values taken from the conversation ----------------------------------------------

_QUOTED = re.compile(r"\"([^\"\n]{1,200})\"|“([^”\n]{1,200})”|'([^'\n]{2,200})'(?![a-z])")
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")  # starts a run: linear
_URL = re.compile(r"https?://[^\s\"'<>]+")
# SO-48213, A123, INC-7; written so that each run of word characters is tried once, in linear
# time (``[A-Z0-9]*-?\d+`` backtracked quadratically on "A111...1A")
_IDENTIFIER = re.compile(r"(?<![\w-])[A-Z](?:[A-Z0-9]*-\d+|[A-Z0-9]*\d)(?![\w-])")
_ID_ENDINGS = ("_id", "_number", "_no", "_ref", "_code", "_key")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_PLACE_AFTER = re.compile(r"\b(?:in|at|for|to|near|from)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z][\w'-]*)")
_PLACE_KEYS = {"city", "location", "place", "town", "country", "destination", "region", "where"}
_QUERY_KEYS = set(
    """query q search search_query prompt question text input keywords keyword term terms topic
    message task instruction instructions""".split()  # noqa: SIM905
)
_ANSWER_KEYS = set(
    """answer final_answer result response output summary reply content text message final_result
    report conclusion""".split()  # noqa: SIM905
)


def _key(name: str) -> str:
    return "_".join(_WORD.findall(name)).lower()


def _result_values(results: Iterable[str]) -> dict[str, list[Any]]:
    """Every key of every JSON tool result, with its values (breadth first; a result that is
    not JSON, or nested too deep to parse, offers none)."""
    found: dict[str, list[Any]] = {}
    for text in results:
        try:
            queue = deque([json.loads(text)])
        except (TypeError, ValueError, RecursionError):
            continue
        while queue:
            item = queue.popleft()
            if isinstance(item, dict):
                for key, value in item.items():
                    found.setdefault(_key(str(key)), []).append(value)
                    queue.append(value)
            elif isinstance(item, list):
                queue.extend(item[:20])
    return found


#: At most this many candidates of each kind (numbers, identifiers, places...) per request.
_HINTS = 50


def _first(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """The first ``_HINTS`` matches of ``pattern`` in ``text``."""
    return list(islice(pattern.finditer(text), _HINTS))


def _found(pattern: re.Pattern[str], text: str) -> list[str]:
    """What ``findall`` gives, for the first ``_HINTS`` matches only."""
    return [m.group(1) if pattern.groups == 1 else m.group() for m in _first(pattern, text)]


def hints_from(
    user_text: str, results: Iterable[str] = (), answer: str | None = None
) -> Callable[[str], list[Any]]:
    """``hint(property_name) -> candidate values``, best first (each is checked before use).

    The text is scanned once; each kind of candidate keeps its first ``_HINTS`` (a request's
    text may hold millions of numbers: asking for a hint costs the same whatever its size).
    """
    quoted = [next(g for g in m.groups() if g) for m in _first(_QUOTED, user_text)]
    places = [m.group(1) for m in _first(_PLACE_AFTER, user_text)]
    last = deque(_CAPITALISED.finditer(user_text), maxlen=_HINTS)  # the last ones, nearest first
    places += [m.group(1) for m in reversed(last)]
    plain = " ".join(user_text.split())[:160]
    numbers = [float(n) if "." in n else int(n) for n in _found(_NUMBER, user_text)]
    ids = _found(_IDENTIFIER, user_text)
    found = _result_values(results)
    scanned: dict[str, list[str]] = {}  # emails and URLs, found on first use

    def scan(what: str, pattern: re.Pattern[str]) -> list[str]:
        if what not in scanned:
            scanned[what] = _found(pattern, user_text)
        return scanned[what]

    def hint(name: str) -> list[Any]:
        key = _key(name)
        out: list[Any] = list(found.get(key, [])[:_HINTS])
        if answer is not None and key in _ANSWER_KEYS:
            out.append(answer)
        if key in _PLACE_KEYS or key.endswith(("_city", "_location")):
            out += places
        if key in {"id", "number", "reference"} or key.endswith(_ID_ENDINGS):
            out += ids
        if key in _QUERY_KEYS or key.endswith("_query"):
            out += [*quoted, *ids, plain]
        if "email" in key:
            out += scan("email", _EMAIL)
        if key in {"url", "uri", "link", "href"} or key.endswith("_url"):
            out += scan("url", _URL)
        out += numbers  # a number property: the first number of the text that fits
        if quoted and key not in _PLACE_KEYS:
            out += quoted[:1]
        return out

    return hint


# --- the conversation, read ------------------------------------------------------------------

_CALLED = re.compile(r"['\"]name['\"]\s*:\s*['\"]([\w.-]+)['\"]")


def _observation(message: Message, before: Message | None) -> tuple[str, str] | None:
    """smolagents' text protocol: ``(tool name, result)`` of a user ``Observation:`` text."""
    text = message.text.lstrip() if message.role == "user" else ""
    if not text.startswith("Observation:"):
        return None
    said = before.text if before is not None and before.role == "assistant" else ""
    called = _CALLED.search(said)
    return (called.group(1) if called else "a tool"), text[len("Observation:") :].strip()


def _result_text(result: ToolResult) -> str:
    return "".join(b.text for b in result.content if isinstance(b, Text))


def _phase(messages: Sequence[Message]) -> tuple[str, list[tuple[str, str, bool]]]:
    """The last user text, and the tool results after it as ``(tool name, text, is_error)``."""
    names: dict[str, str] = {}
    user_at, user_text = -1, ""
    results: list[tuple[int, tuple[str, str, bool]]] = []
    for i, message in enumerate(messages):
        observed = _observation(message, messages[i - 1] if i else None)
        if observed is not None:
            results.append((i, (*observed, False)))
            continue
        blocks = message.content
        names.update({b.id: b.name for b in blocks if b.type == "tool_call"})
        answered = [b for b in blocks if isinstance(b, ToolResult)]
        for b in answered:
            results.append((i, (names.get(b.call_id, "a tool"), _result_text(b), b.is_error)))
        if message.role == "user" and message.text.strip() and not answered:
            user_at, user_text = i, message.text
    return user_text, [r for at, r in results if at > user_at]


def _quote(text: str, limit: int = 160) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _answer(user_text: str, results: list[tuple[str, str, bool]], have_tools: bool) -> str:
    if results:
        said = [f"{n} {'failed with' if e else 'returned'} {_quote(t)}" for n, t, e in results]
        return "Here is what I found: " + "; ".join(said) + "."
    if not have_tools:
        return f'You said: "{_quote(user_text)}".'
    return f'I can\'t look that up here, so here is a plain answer to "{_quote(user_text)}".'


# --- the model --------------------------------------------------------------------------------


def _tools_to_call(turn: Turn, tools: list[Tool], answering: bool, user_text: str) -> list[Tool]:
    choice, parallel = turn.options.tool_choice, turn.options.parallel_tool_calls
    if isinstance(choice, dict) and "allowed" in choice:
        tools = [t for t in tools if t.name in choice["allowed"]]
        choice = choice.get("mode", "auto")
    if isinstance(choice, dict):
        named = next((t for t in tools if t.name == choice.get("name")), None)
        return [named or Tool(str(choice.get("name")))]  # the verdict refuses unknown names
    if not tools or choice not in ("auto", "required", "any"):
        return []
    if choice == "auto":
        return [] if answering else choose_tools(tools, user_text, parallel)
    if answering:
        return [finishing_tool(tools) or tools[0]]
    return choose_tools(tools, user_text, parallel) or [tools[0]]


_ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
}


def _arguments(schema: Any, hint: Callable[[str], list[Any]], budget: Budget) -> dict:
    """A tool's arguments: with the conversation's hints, else without (the schema's own
    failure, an Unsatisfiable naming its place, when neither works)."""
    try:
        return object_value(schema, hint, budget)
    except Unsatisfiable:
        return object_value(schema, None, budget)


def _json_value(schema: dict[str, Any], hint: Callable[[str], list[Any]], budget: Budget) -> Any:
    schema = schema or _ANSWER_SCHEMA
    try:
        return generate(schema, hint, budget=budget)
    except Unsatisfiable:
        return generate(schema, budget=budget)  # without hints, or the schema's own failure


def _hints(request: Request) -> tuple[str, list, str, Callable, Callable]:
    """The last user text, the results after it, the text answer, and the hints for tool
    arguments and for structured output."""
    user_text, results = _phase(request.messages)
    answer = _answer(user_text, results, bool(request.tools))
    texts = [text for _, text, _ in results]
    for_tools = hints_from(user_text, texts, answer if results else None)
    return user_text, results, answer, for_tools, hints_from(user_text, texts, answer)


def unfillable(
    request: Request, output_schema: dict[str, Any] | None, limit: int | None = None
) -> list[tuple[int | None, Unsatisfiable]]:
    """Each schema of this request the general model cannot fill, hints or not, within
    ``schema_values``' caps: ``(index in request.tools, error)``, ``(None, error)`` for the
    structured-output schema. The error's ``path`` is inside that schema. All of them share
    one ``Budget``: once it is spent, the schema that spent it is the last one listed; at most
    ``limit`` are listed."""
    _, _, _, for_tools, for_output = _hints(request)
    budget = Budget()
    found: list[tuple[int | None, Unsatisfiable]] = []
    schemas: list[tuple[int | None, Callable[[], Any]]] = [
        (i, lambda t=tool: _arguments(t.parameters, for_tools, budget))
        for i, tool in enumerate(request.tools)
    ]
    if output_schema is not None:
        schemas.append((None, lambda: _json_value(output_schema, for_output, budget)))
    for index, fill in schemas:
        try:
            fill()
        except Unsatisfiable as err:
            found.append((index, err))
            if budget.spent or (limit is not None and len(found) >= limit):
                break
    return found


def general(turn: Turn) -> list[Block]:
    """The next assistant turn for this request, by the rule in the module docstring."""
    tools = list(turn.request.tools)
    user_text, results, answer, for_tools, for_output = _hints(turn.request)
    calls = _tools_to_call(turn, tools, bool(results), user_text)
    budget = Budget()
    if calls:
        return [turn.call(t.name, _arguments(t.parameters, for_tools, budget)) for t in calls]
    schema = turn.options.output_schema
    if schema:
        return [Text(_dumps(_json_value(schema, for_output, budget)))]
    stated = _stated_format(turn.request, tools, answer, for_output, budget, json_mode=schema == {})
    if stated is not None:
        return [Text(stated)]
    if schema == {}:  # JSON mode, no format stated: the answer, as an object
        return [Text(_dumps(_json_value(_ANSWER_SCHEMA, for_output, budget)))]
    return [Text(answer)]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _prompt_texts(request: Request) -> list[str]:
    """The system texts, then the last user text (where a prompt states a format)."""
    system = [m.text for m in request.messages if m.role == "system" and m.text]
    users = [m.text for m in request.messages if m.role == "user" and m.text.strip()]
    return system + users[-1:]


def _stated_format(
    request: Request,
    tools: list[Tool],
    answer: str,
    hint: Callable[[str], list[Any]],
    budget: Budget,
    json_mode: bool,
) -> str | None:
    """The answer in the format the prompt states (module docstring, *Formats*), else None."""
    texts = _prompt_texts(request)
    if not texts:
        return None
    fields = [] if json_mode else prompt_formats.dspy_fields(texts[-1])
    in_json = prompt_formats.dspy_fields(texts[-1], json=True)
    try:
        if fields:
            return _dspy_answer(fields, texts, answer, hint, budget)
        if in_json:  # DSPy's JSONAdapter: the same fields, as one JSON object
            return _dumps(_dspy_values(in_json, texts, answer, hint, budget))
        schema = prompt_formats.stated_schema(texts)
        if schema is not None:
            return _dumps(_json_value(schema, hint, budget))
    except Unsatisfiable:
        return None  # a format the stand-in cannot fill: the plain answer
    tag = None if json_mode else prompt_formats.stated_tag(texts)
    return f"<{tag}>{answer}</{tag}>" if tag else None


_LITERAL = re.compile(r"Literal\[(.*?)\]\)?\s*$")
_TYPED = re.compile(
    r"must (?:be formatted as a valid Python ([\w\[\], ]+)|adhere to the JSON schema: )"
)


#: Characters of the last user text DSPy's fields are read from (bounded work).
_SCAN = 200_000
_OBSERVED = re.compile(
    r"\[\[ ## observation_\d+ ## \]\]\n(.*?)(?=\n\n\[\[ ## |\n\nRespond |\Z)", re.S
)
_FIRST_FIELD = re.compile(r"\[\[ ## (\w+) ## \]\]\n(.*?)(?=\n\n\[\[ ## |\n\nRespond |\Z)", re.S)
_MARKER = re.compile(r"\[\[ ## \w+ ## \]\]")


def _dspy_answer(
    fields: list[tuple[str, str]],
    texts: list[str],
    answer: str,
    hint: Callable[[str], list[Any]],
    budget: Budget,
) -> str:
    """DSPy's ChatAdapter reply: each field after its marker, ending with ``completed``."""
    values = _dspy_values(fields, texts, answer, hint, budget)
    parts = [
        f"[[ ## {name} ## ]]\n{_MARKER.sub('', v if isinstance(v, str) else _dumps(v))}"
        for name, v in values.items()  # no marker inside a value
    ]
    return "\n\n".join([*parts, "[[ ## completed ## ]]"])


def _dspy_values(
    fields: list[tuple[str, str]],
    texts: list[str],
    answer: str,
    hint: Callable[[str], list[Any]],
    budget: Budget,
) -> dict[str, Any]:
    """Each DSPy output field's value, by the rule in the module docstring."""
    last = texts[-1]
    tools = prompt_formats.dspy_tools("\n".join(texts[:-1]) or last)
    observed = _OBSERVED.findall(last[:_SCAN])
    question = _FIRST_FIELD.search(last[:_SCAN])
    asked = question.group(2).strip() if question else answer
    said = f'You said: "{_quote(asked)}".'
    if observed:
        said = f"Here is what I found: {_quote(observed[-1])}."
    chosen: str | None = None
    values: dict[str, Any] = {}
    for name, note in fields:
        literal = _LITERAL.search(note)
        typed = _TYPED.search(note)
        value: Any = said
        if literal:
            names = [str(v) for v in _names(literal.group(1))]
            chosen = value = _dspy_choice(names, tools, asked, bool(observed))
        elif typed and "dict" in (typed.group(1) or "") and chosen is not None:
            properties = tools.get(chosen, ("", {}))[1]  # DSPy lists no required: fill all
            schema = {"type": "object", "properties": properties, "required": list(properties)}
            value = _arguments(schema, hint, budget) if chosen != "finish" else {}
        elif typed and typed.group(1) is None:
            schema = prompt_formats.stated_schema([f"json {note}"]) or {}
            value = _json_value(schema, hint, budget)
        elif typed:
            value = _json_value(_python_type(typed.group(1)), hint, budget)
        values[name] = value
    return values


def _names(listed: str) -> list[Any]:
    try:
        value = ast.literal_eval(f"[{listed}]")
    except (ValueError, SyntaxError):
        return [listed]
    return value if isinstance(value, list) and value else [listed]


def _dspy_choice(names: list[str], tools: dict, asked: str, observed: bool) -> str:
    """A ``Literal`` field's value: ``finish`` after an observation, else the best fit."""
    if observed and "finish" in names:
        return "finish"
    offered = [Tool(n, tools.get(n, ("", {}))[0]) for n in names if n != "finish"]
    fitting = choose_tools(offered, asked, parallel=False)
    return fitting[0].name if fitting else (offered[0].name if offered else names[0])


def _python_type(name: str) -> dict[str, Any]:
    """A JSON Schema for a Python annotation DSPy names (``int``, ``list[str]``, ``bool``)."""
    name = name.strip()
    if name.startswith("list"):
        inner = name[5:-1] if name.endswith("]") else "str"
        return {"type": "array", "items": _python_type(inner), "minItems": 1}
    kinds = {"int": "integer", "float": "number", "bool": "boolean", "str": "string"}
    if name in kinds:
        return {"type": kinds[name]}
    return {"type": "object"} if name.startswith("dict") else {}
