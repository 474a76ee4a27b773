"""Used in lessons: none directly (imported by rules, rules.anthropic, rules.core, ...).

What a broken rule looks like: one ``Violation`` per problem, and a readable report of them.

A violation names the rule (a short stable id such as ``call-not-answered``), says in plain
English what is wrong and where (message index, block index, call id: whichever apply), and,
when a provider profile was checked, carries what that provider answers for it: its exact error
text where one is known, with the indices and ids filled in *in the provider's own numbering*.

Its ``severity`` is the decision: an ``"error"`` is what the provider refuses (``check`` exits
1, the local provider answers 400); a ``"warning"`` is legal there but suspicious, or only a
portability concern (printed, exit 0, never a 400). When the request was read from a file,
``path`` points into that file (``messages[3].tool_calls[0]``, ``contents[2].parts[1]``).

This module only describes violations; finding them is the job of ``core`` and the provider
modules next to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from helpers.html import no_math


@dataclass
class Violation:
    """One broken rule of the list.

    ``message_index`` and ``block_index`` count in the *neutral* request (``messages[i]``,
    ``content[j]``); ``provider_error`` counts the way the provider does (its own message list,
    after its renderer moved, merged or split messages).
    """

    rule: str
    message: str
    message_index: int | None = None
    block_index: int | None = None
    call_id: str | None = None
    #: What the provider answers, its exact text where known (see ``provider_source``), else None.
    provider_error: str | None = None
    #: The profile that found this violation (``"portable"``, ``"anthropic"``, ...).
    profile: str = "portable"
    #: OpenAI's ``param`` field for this error (``"messages.[4].role"``, ``"input"``), if known.
    provider_param: str | None = None
    #: OpenAI's ``code`` field (``"empty_array"``), if the provider sends one; usually None.
    provider_code: str | None = None
    #: Where ``provider_error``'s wording comes from (the public report that quotes it).
    provider_source: str | None = None
    #: ``"error"``: the provider refuses it; ``"warning"``: accepted there, but worth a look.
    severity: str = "error"
    #: A path into the file the request was read from, e.g. ``contents[2].parts[1]``.
    path: str | None = None

    @property
    def where(self) -> str:
        """The path into the user's file if known, else ``messages[3].content[1]``, ``messages[3]``
        or ``request``."""
        if self.path is not None:
            return self.path
        if self.message_index is None:
            return "request"
        out = f"messages[{self.message_index}]"
        if self.block_index is not None:
            out += f".content[{self.block_index}]"
        return out

    def __str__(self) -> str:
        call = f" (call {self.call_id})" if self.call_id is not None else ""
        warning = "warning: " if self.severity == "warning" else ""
        return f"{warning}{self.where}{call}: {self.message} [{self.rule}]"

    def _repr_html_(self) -> str:
        return no_math(f"<ul style='margin:2px 0'>{_item_html(self)}</ul>")


def set_provider_error(
    v: Violation, text: str, source: str, param: str | None = None, code: str | None = None
) -> Violation:
    """Attach what the provider answers (``text``) and where that wording comes from."""
    v.provider_error = text
    v.provider_source = source
    v.provider_param = param
    v.provider_code = code
    return v


class Violations(list):
    """The list ``check()`` returns: a plain list of ``Violation`` that also prints well.

    ``str()`` gives ``explain()``'s report; in a notebook it shows as a short HTML list.
    ``errors`` are what the provider refuses, ``warnings`` the rest; ``accepted`` says whether
    the provider would take the request (no errors).
    """

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self if v.severity != "error"]

    @property
    def accepted(self) -> bool:
        return not self.errors

    def __str__(self) -> str:
        return explain(self)

    def _repr_html_(self) -> str:
        if not self:
            return no_math("<div>✅ no violations</div>")
        items = "".join(_item_html(v) for v in self)
        head = _count(len(self.errors)) + _warning_count(len(self.warnings))
        return no_math(f"<div><b>{head}</b><ul style='margin:2px 0'>{items}</ul></div>")


def _count(n: int) -> str:
    return f"{n} violation{'s' if n != 1 else ''}" if n else "no violations"


def _warning_count(n: int) -> str:
    return f", {n} warning{'s' if n != 1 else ''}" if n else ""


def _item_html(v: Violation) -> str:
    call = f" (call <code>{escape(v.call_id)}</code>)" if v.call_id is not None else ""
    warning = "warning: " if v.severity == "warning" else ""
    head = (
        f"{warning}<code>{escape(v.where)}</code>{call} <b>{escape(v.rule)}</b>: "
        f"{escape(v.message)}"
    )
    if v.provider_error:
        head += (
            f"<div style='font-family:var(--jp-code-font-family,monospace);font-size:12px'>"
            f"{escape(v.profile)} answers: {escape(v.provider_error)}</div>"
        )
    return f"<li>{head}</li>"


def explain(violations: list[Violation]) -> str:
    """A readable multi-line report: one numbered line per violation, plus the provider's answer.

    Errors (what the provider refuses) are counted; warnings follow them, marked ``warning:``.

    >>> print(explain([]))
    no violations
    """
    if not violations:
        return "no violations"
    profiles = sorted({v.profile for v in violations})
    errors = [v for v in violations if v.severity == "error"]
    warnings = [v for v in violations if v.severity != "error"]
    head = _count(len(errors)) + _warning_count(len(warnings))
    lines = [f"{head} of the rules of the list (profile {', '.join(profiles)}):"]
    for n, v in enumerate(errors + warnings, 1):
        lines.append(f"{n}. {v}")
        if v.provider_error:
            lines.append(f"   {v.profile} answers: {v.provider_error}")
    return "\n".join(lines)
