"""Stand-ins for the real APIs on 127.0.0.1, for the live-mode tests.

The live path is tested by pointing the base-URL overrides (``ANTHROPIC_BASE_URL``,
``OPENAI_BASE_URL``, ``GEMINI_BASE_URL``) at a second loopback server that plays the real API:

- a second ``LocalProvider`` answers like a working API (its recorder redacts keys);
- :class:`RejectingAPI` answers every request like the real API answers a fake key: 401 in the
  provider's own error envelope. It records method, path, headers (keys redacted as they are
  recorded) and body, so a test can say exactly what was sent and by whom.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standin.provider.errors import envelope, provider_for_path
from standin.provider.recorder import redact, redact_headers

# Fake keys: key-shaped, so every redaction rule applies to them as it would to a real one.
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-proj-FAKEKEYforOnTheWireTests0123456789",
    "ANTHROPIC_API_KEY": "sk-ant-api03-FAKEKEYforOnTheWireTests0123456789",
    "GEMINI_API_KEY": "AIzaFAKEKEYforOnTheWireTests012345678",
}
# What the real APIs say to a key they do not know (401; Gemini says 400 INVALID_ARGUMENT).
REJECTIONS = {
    "anthropic": (401, "invalid x-api-key"),
    "openai-chat": (
        401,
        "Incorrect API key provided. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
    ),
    "gemini": (400, "API key not valid. Please pass a valid API key."),
}


def live_env(base_url: str | None) -> dict[str, str]:
    """Fake keys, the live switch on, and (unless None) every provider's base URL overridden."""
    env = {**FAKE_KEYS, "ON_THE_WIRE_LIVE": "1"}
    if base_url is not None:
        env |= {
            "OPENAI_BASE_URL": base_url + "/v1",  # the SDK's convention: OpenAI's ends in /v1
            "ANTHROPIC_BASE_URL": base_url,
            "GEMINI_BASE_URL": base_url,
        }
    return env


class RejectingAPI:
    """A loopback stand-in for the real APIs that rejects every key (and records the calls)."""

    def __init__(self) -> None:
        self.records: list[dict] = []
        records = self.records

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = redact_headers(list(self.headers.items()))
                records.append(
                    {
                        "method": "POST",
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in headers},
                        "body": redact(raw.decode("utf-8", errors="replace")),
                    }
                )
                style = provider_for_path(self.path, {k.lower(): v for k, v in headers})
                status, message = REJECTIONS[style]
                data = json.dumps(envelope(style, status, message)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> RejectingAPI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
