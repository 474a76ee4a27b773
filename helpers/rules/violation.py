"""Used in lessons: none directly (imported by rules, rules.anthropic, rules.core, ...).

What a broken rule looks like: a ``Finding`` on the neutral list, the provider's ``Answer``,
and the ``Violation`` that joins them under a profile, made whole by ``judged``. Its
``severity`` is the decision: ``"error"`` if the provider refuses it, else ``"warning"``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One broken rule seen on the neutral list (``messages[i].content[j]``), before any
    provider judges it: ``check`` makes each one a ``Violation`` under a profile."""

    rule: str
    message: str
    message_index: int | None = None
    block_index: int | None = None
    call_id: str | None = None


@dataclass(frozen=True)
class Answer:
    """What a provider answers for a finding: its text, verbatim from a public report.
    The text counts messages as the provider does (its own list, after its renderer moved, merged
    or split them). ``param`` and ``code`` are OpenAI's fields of the same names. Which report
    quotes it is the stand-in's table (``docs/rules.md``)."""

    text: str
    param: str | None = None
    code: str | None = None


#: Rules whose breach no wire format can carry: the request cannot be sent as it is.
SHAPE_RULES = frozenset(
    {
        "unknown-role",
        "content-not-list",
        "unknown-block",
        "block-not-allowed",
        "call-outside-assistant",
        "result-outside-tool-message",
        "tool-message-content",
        "missing-field",
        "malformed",
    }
)
#: Legal everywhere, but probably a mistake: always a warning.
SUSPICIOUS_RULES = frozenset({"unknown-tool"})


def severity(rule: str, profile: str, answer: Answer | None) -> str:
    """``"error"`` if ``profile`` refuses a breach of ``rule`` (answered so), else ``"warning"``."""
    if rule in SUSPICIOUS_RULES:
        return "warning"
    if profile == "portable" or rule in SHAPE_RULES or answer is not None:
        return "error"
    return "warning"


@dataclass(frozen=True, kw_only=True)
class Violation(Finding):
    """A finding judged under a profile: made whole, never changed after."""

    #: The profile that judged it (``"portable"``, ``"anthropic"``, ...).
    profile: str
    #: ``"error"``: the provider refuses it; ``"warning"``: accepted there, but worth a look.
    severity: str
    #: What the provider answers, its exact text where known (``docs/rules.md``), else None.
    provider_error: str | None = None
    #: OpenAI's ``param`` field for this error (``"messages.[4].role"``, ``"input"``), if known.
    provider_param: str | None = None
    #: OpenAI's ``code`` field (``"empty_array"``), if the provider sends one; usually None.
    provider_code: str | None = None
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


def judged(
    found: Finding,
    profile: str,
    answer: Answer | None = None,
    path: str | None = None,
    unseen: str | None = None,
) -> Violation:
    """``found`` judged under ``profile``: its severity decided, the provider's answer attached.
    ``unseen`` (why the decision cannot be made from what is at hand, such as a stored chain the
    check cannot see) makes it a warning that says so."""
    message = found.message if unseen is None else f"{found.message} ({unseen})"
    return Violation(
        found.rule,
        message,
        found.message_index,
        found.block_index,
        found.call_id,
        profile=profile,
        severity="warning" if unseen else severity(found.rule, profile, answer),
        provider_error=answer.text if answer else None,
        provider_param=answer.param if answer else None,
        provider_code=answer.code if answer else None,
        path=path,
    )


class Violations(list):
    """The list ``check()`` returns: ``Violation``s that print as ``explain()``'s report (in a
    notebook too). ``accepted``: the provider takes the request (no errors)."""

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

    __repr__ = __str__


def _head(violations: Violations) -> str:
    """``2 violations, 1 warning``: errors counted first, then warnings (if any)."""
    n, w = len(violations.errors), len(violations.warnings)
    head = f"{n} violation{'s' if n != 1 else ''}" if n else "no violations"
    return head + (f", {w} warning{'s' if w != 1 else ''}" if w else "")


def explain(violations: list[Violation]) -> str:
    """A readable report: one numbered line per violation (errors first, then warnings, marked
    ``warning:``), each followed by the provider's answer if known; ``no violations`` if none."""
    if not violations:
        return "no violations"
    found = Violations(violations)
    profiles = ", ".join(sorted({v.profile for v in found}))
    lines = [f"{_head(found)} of the rules of the list (profile {profiles}):"]
    for n, v in enumerate(found.errors + found.warnings, 1):
        lines.append(f"{n}. {v}")
        if v.provider_error:
            lines.append(f"   {v.profile} answers: {v.provider_error}")
    return "\n".join(lines)
