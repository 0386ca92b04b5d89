"""A fake OpenAI-compatible chat-completions server for tests and benches: a real HTTP
server on 127.0.0.1 (a free port) that plays scripted responses in order, one per
request, and keeps every request body it received."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Script:
    """One response: ``status`` and ``headers``, then ``writes`` sent in order (bytes, or
    a float = sleep that many seconds). ``drop`` closes the connection after the writes
    without ending the chunked body properly."""

    writes: list[bytes | float] = field(default_factory=list)
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/event-stream"})
    drop: bool = False


def event(obj: Any, name: str | None = None) -> bytes:
    head = f"event: {name}\n" if name else ""
    data = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)
    return (head + "".join(f"data: {line}\n" for line in data.split("\n")) + "\n").encode()


DONE = b"data: [DONE]\n\n"


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra) -> bytes:
    choice = {"index": 0, "delta": delta or {}, "finish_reason": finish}
    return event({"object": "chat.completion.chunk", "id": "c1", "choices": [choice], **extra})


def text_response(*pieces: str, finish: str = "stop", usage: dict | None = None) -> Script:
    writes: list[bytes | float] = [chunk({"role": "assistant"})]
    writes += [chunk({"content": p}) for p in pieces]
    writes.append(chunk(finish=finish))
    if usage is not None:
        writes.append(event({"object": "chat.completion.chunk", "choices": [], "usage": usage}))
    writes.append(DONE)
    return Script(writes)


def tool_response(name: str, arguments: str, call_id: str = "call_x", pieces: int = 1) -> Script:
    """A tool call whose arguments arrive in ``pieces`` fragments (id and name repeated on
    every fragment, as llama-cpp-python does)."""
    n = max(1, min(pieces, len(arguments) or 1))
    cuts = [round(i * len(arguments) / n) for i in range(n + 1)]
    writes: list[bytes | float] = []
    for a, b in itertools.pairwise(cuts):
        frag = {"index": 0, "id": call_id, "type": "function",
                "function": {"name": name, "arguments": arguments[a:b]}}  # fmt: skip
        writes.append(chunk({"tool_calls": [frag]}))
    writes += [chunk(finish="tool_calls"), DONE]
    return Script(writes)


class FakeServer:
    def __init__(self, scripts: list[Script] | None = None, repeat: Script | None = None) -> None:
        self.scripts = list(scripts or [])
        self.repeat = repeat
        self.requests: list[dict[str, Any]] = []
        self.closed = threading.Event()
        #: Called with each write just after it went out (benches time them).
        self.on_write: Callable[[bytes], None] | None = None
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.requests.append(
                    {"path": self.path, "body": json.loads(body), "headers": dict(self.headers)}
                )
                script = server.scripts.pop(0) if server.scripts else server.repeat
                if script is None:
                    script = Script(status=500, writes=[b'{"error":{"message":"no script"}}'])
                self.send_response(script.status)
                for k, v in script.headers.items():
                    self.send_header(k, v)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                try:
                    for w in script.writes:
                        if isinstance(w, float):
                            time.sleep(w)
                            continue
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(w), w))
                        self.wfile.flush()
                        if server.on_write is not None:
                            server.on_write(w)
                    if script.drop:
                        self.close_connection = True
                        return
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except OSError:
                    server.closed.set()
                    self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
