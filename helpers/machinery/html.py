"""HTML for notebook output: keep JupyterLab's LaTeX renderer away from dollar amounts.

JupyterLab runs MathJax over markdown *and* over HTML outputs, and MathJax reads any pair of
``$`` signs as the edges of a formula: "refunds of $150 or less ..., above that $289" comes
out as italic run-together letters. Escaping with ``&#36;`` does not help (the browser turns it
back into ``$`` before MathJax reads the text). MathJax skips any element with the class
``mathjax_ignore`` (version 3, JupyterLab) or ``tex2jax_ignore`` (version 2, nbconvert and the
classic notebook), so every ``_repr_html_`` in the package wraps its HTML in :func:`no_math`.
Without MathJax (a static viewer, a screen reader) the wrapper changes nothing.
"""

from __future__ import annotations

__all__ = ["no_math"]


def no_math(html: str) -> str:
    """``html`` in a block that MathJax leaves alone, so ``$`` stays a dollar sign."""
    return f'<div class="tex2jax_ignore mathjax_ignore">{html}</div>'
