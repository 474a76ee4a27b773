"""Used in lessons: 04, 08, 10.

What a broken rule looks like: one ``Violation`` per problem, and a readable report of them.

A violation names the rule (a short stable id such as ``call-not-answered``), says in plain
English what is wrong and where (message index, block index, call id: whichever apply), and,
when a provider profile was checked, carries what that provider answers for it: its exact error
text where one is known, with the indices and ids filled in *in the provider's own numbering*.

This module only describes violations; finding them is the job of ``core`` and the provider
modules next to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


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
    #: The profile that found this violation (``"neutral"``, ``"anthropic"``, ...).
    profile: str = "neutral"
    #: OpenAI's ``param`` field for this error (``"messages.[4].role"``, ``"input"``), if known.
    provider_param: str | None = None
    #: OpenAI's ``code`` field (``"empty_array"``), if the provider sends one; usually None.
    provider_code: str | None = None
    #: Where ``provider_error``'s wording comes from (the public report that quotes it).
    provider_source: str | None = None

    @property
    def where(self) -> str:
        """``messages[3].content[1]``, ``messages[3]`` or ``request``."""
        if self.message_index is None:
            return "request"
        out = f"messages[{self.message_index}]"
        if self.block_index is not None:
            out += f".content[{self.block_index}]"
        return out

    def __str__(self) -> str:
        call = f" (call {self.call_id})" if self.call_id is not None else ""
        return f"{self.where}{call}: {self.message} [{self.rule}]"

    def _repr_html_(self) -> str:
        return f"<ul style='margin:2px 0'>{_item_html(self)}</ul>"


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
    """

    def __str__(self) -> str:
        return explain(self)

    def _repr_html_(self) -> str:
        if not self:
            return "<div>✅ no violations</div>"
        items = "".join(_item_html(v) for v in self)
        return f"<div><b>{_count(len(self))}</b><ul style='margin:2px 0'>{items}</ul></div>"


def _count(n: int) -> str:
    return f"{n} violation{'s' if n != 1 else ''}"


def _item_html(v: Violation) -> str:
    call = f" (call <code>{escape(v.call_id)}</code>)" if v.call_id is not None else ""
    head = f"<code>{escape(v.where)}</code>{call} <b>{escape(v.rule)}</b>: {escape(v.message)}"
    if v.provider_error:
        head += (
            f"<div style='font-family:var(--jp-code-font-family,monospace);font-size:12px'>"
            f"{escape(v.profile)} answers: {escape(v.provider_error)}</div>"
        )
    return f"<li>{head}</li>"


def explain(violations: list[Violation]) -> str:
    """A readable multi-line report: one numbered line per violation, plus the provider's answer.

    >>> print(explain([]))
    no violations
    """
    if not violations:
        return "no violations"
    profiles = sorted({v.profile for v in violations})
    lines = [f"{_count(len(violations))} of the rules of the list (profile {', '.join(profiles)}):"]
    for n, v in enumerate(violations, 1):
        lines.append(f"{n}. {v}")
        if v.provider_error:
            lines.append(f"   {v.profile} answers: {v.provider_error}")
    return "\n".join(lines)
