"""A tiny HTTP server in a thread that answers canned responses and records requests.

The CI client's error paths (refusals, redirects, gateways that are down) and the webhook's
retries are easiest to reach against a server that says exactly what a test wants it to say.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Canned:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, status: int, data: dict, **headers: str) -> Canned:
        return cls(
            status, json.dumps(data).encode(), {"Content-Type": "application/json"} | headers
        )


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class StubServer:
    url: str
    answers: list[Canned]
    seen: list[Seen]


@contextmanager
def stub_server(answers: list[Canned]) -> Iterator[StubServer]:
    """Serve `answers` in order (the last one repeats) on 127.0.0.1 at a free port."""
    seen: list[Seen] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen.append(Seen(self.command, self.path, dict(self.headers), body))
            canned = answers[min(len(seen), len(answers)) - 1]
            self.send_response(canned.status)
            for name, value in canned.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(canned.body)))
            self.end_headers()
            self.wfile.write(canned.body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:  # keep test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield StubServer(f"http://127.0.0.1:{server.server_port}", answers, seen)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
