"""Used in lessons: 00, 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11.

The two running examples: the Sundry support agent and the crash-triage agent.

Each module loads its example's data from ``data/`` (system prompt, tool definitions, the
conversation the lessons start from) and implements its tools over small fake worlds, so the
agent loop and the local provider can run them end to end, offline and deterministically.
"""
