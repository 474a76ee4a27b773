"""Machinery: the plumbing the lessons stand on, kept out of their way.

Nothing in here is an idea a lesson teaches, and no lesson imports it. A learner following a
cell into the code should meet the rule (``helpers.formats``, ``helpers.tokens``, ``helpers.loop``
...), not this. What lives here:

- ``cli/``: the command line, ``python -m helpers COMMAND`` (a thin layer over the lessons'
  functions; nothing is computed only here).
- ``provider_server``: the HTTP server under ``helpers.provider.LocalProvider`` (sockets,
  threads, chunked bodies); what the local provider *answers* lives in ``helpers.provider``.
- ``sse_write/``: the write side of streaming, a whole body cut into the events a provider sends
  (the local provider uses it); reading a stream is ``helpers.sse``.
- ``live_switch``: the live-mode variables, real base URLs and one-line failure messages
  (``helpers.live`` is the door lesson 11 uses).
- ``netguard``: blocks the network in tests and offline notebook runs.
- ``offline_tokenizers``: the tiktoken encodings installed from a package, sha256-checked.
- ``paths``: where the repository's ``data/`` folder is.
- ``redaction``: keys hidden in every record the local provider keeps (decoded values, real
  key shapes only); ``input_checks``: the limits on input from outside (depth, integer length,
  lone surrogates, tool schema types), shared by the command line and the local provider.

Arrows point down only: learner-facing modules may import from here, never the reverse,
except that the command line and the server call the learner-facing functions they wrap.
"""
