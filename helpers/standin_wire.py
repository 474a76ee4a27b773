"""Used in lessons: none directly (imported by loop, meter).

What the stand-in (``standin/``) puts on the wire that the learner's code reads: the key it
takes (any key works; the loop sends this one by default) and the response header in which it
says how it counted a reply's input tokens ("exact", or an estimate and its bound).
"""

__all__ = ["COUNT_HEADER", "LOCAL_KEY"]

#: The stand-in's API key: a placeholder, not a secret (``standin.LOCAL_KEY`` is this one).
LOCAL_KEY = "sk-local-on-the-wire"
#: The response header in which the stand-in says how it counted a reply's input tokens.
COUNT_HEADER = "x-on-the-wire-input-count"
