"""What the stand-in answers, route by route (the HTTP server is ``standin.server``).

- ``routes``: what each endpoint checks and answers; ``errors``: provider-style error bodies;
- ``scenarios`` and ``crash_story``: the scripted "model"; ``turn``: one reply in any format;
- ``signatures``: fake reasoning state; ``state``: stored responses (``previous_response_id``);
- ``faults``: 429s, 500s, slow answers and cut streams; ``recorder``: every exchange, redacted;
- ``keys``: refusing a request without a usable key, as each API does.
"""
