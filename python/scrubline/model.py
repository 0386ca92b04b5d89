"""The OpenAI-compatible chat-completions client (``POST /v1/chat/completions``,
``stream: true``): one streamed model response as typed pieces, and every way a server
can fail, classified (retryable or not). HTTP is httpx, SSE framing is httpx-sse.

The client knows nothing of traces or tools; ``scrubline.agent`` turns its pieces into
trace events. A response is read on a thread so the run can poll its stop flag and
deadline while the server is silent, and close the connection on SIGINT/SIGTERM.

httpx and httpx-sse are imported when a response is first read, not with this module:
every command imports it (through ``scrubline.agent``), and most never talk to a model;
httpx's import alone was ~45 ms of a ~0.2 s ``scrubline project``.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

import orjson

from scrubline.errors import ScrublineError

if TYPE_CHECKING:
    import httpx

#: One SSE event (its data) may not grow past this without ending; a server that sends
#: an endless line fails the run instead of filling memory.
MAX_EVENT_BYTES = 8 << 20
#: Of an HTTP error body, this much is read for its message.
MAX_ERROR_BODY = 4096
#: An error message the server sent is cut to this many characters (after scrubbing).
MAX_MESSAGE = 300
#: Seconds without a byte from the server before a stream counts as stalled.
DEFAULT_READ_TIMEOUT = 120.0
#: Seconds to establish the TCP connection.
CONNECT_TIMEOUT = 10.0


class ModelFailed(ScrublineError):
    """The model server failed this response. ``code`` names the failure for the result's
    ``error.code``; ``retryable`` says whether the same request may succeed later."""

    def __init__(self, code: str, reason: str, *, retryable: bool) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.retryable = retryable


@dataclass
class ToolCall:
    """One tool call assembled from its fragments (keyed by ``index``)."""

    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""


@dataclass
class Completion:
    """How a streamed response ended: its tool calls, ``finish_reason`` and usage."""

    finish_reason: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    #: ``{"prompt_tokens", "completion_tokens"}`` when the server reported them.
    usage: dict[str, int] | None = None


#: What ``ChatStream`` yields: ``("text", str)``, ``("thinking", str)``, then one
#: ``("end", Completion)``.
Piece = tuple[str, Any]


@dataclass
class Endpoint:
    """Where and how to ask: the base URL (``…/v1``; ``/chat/completions`` is appended
    unless the URL already ends with it), the model name, the key and the read timeout."""

    url: str
    model: str
    api_key: str | None = None
    read_timeout: float = DEFAULT_READ_TIMEOUT

    @property
    def completions_url(self) -> str:
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"


class ChatStream:
    """One streamed response. ``pieces(stop, deadline)`` yields as the server sends;
    ``close()`` (any thread) shuts the connection so a blocked read ends now."""

    def __init__(
        self,
        endpoint: Endpoint,
        body: dict[str, Any],
        scrub: Callable[[str], str],
        client: httpx.Client,
    ) -> None:
        self.endpoint = endpoint
        self.body = body
        self.scrub = scrub
        self.client = client
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._response: httpx.Response | None = None
        self._closed = threading.Event()

    def pieces(self, stop: Callable[[], bool], deadline: Callable[[], None]) -> Iterator[Piece]:
        """The response as it arrives. ``stop()`` true: the stream is closed and the
        iteration ends; ``deadline()`` raises when the run's time is up."""
        reader = threading.Thread(target=self._read, name="model-stream", daemon=True)
        reader.start()
        try:
            while True:
                if stop():
                    return
                deadline()
                try:
                    kind, value = self._queue.get(timeout=0.05)
                except queue.Empty:
                    continue
                if kind == "failed":
                    raise value
                yield kind, value
                if kind == "end":
                    return
        finally:
            self.close()

    def idle(self) -> bool:
        """Nothing more has arrived yet (what has is worth publishing now)."""
        return self._queue.empty()

    def close(self) -> None:
        """Shut the connection: the server sees it closed, a blocked read returns."""
        self._closed.set()
        response = self._response
        if response is None:
            return
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    # -- the reader thread ------------------------------------------------------------

    def _read(self) -> None:
        try:
            self._stream()
        except ModelFailed as e:
            self._queue.put(("failed", e))
        except Exception as e:  # anything else the transport raised: never a hang
            if not self._closed.is_set():
                self._queue.put(("failed", self._transport_failure(e)))
            else:
                self._queue.put(("end", Completion()))

    def _stream(self) -> None:
        import httpx_sse

        headers = {"Accept": "text/event-stream", "Cache-Control": "no-store"}
        if self.endpoint.api_key:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key}"
        url = self.endpoint.completions_url
        with self.client.stream("POST", url, json=self.body, headers=headers) as response:
            self._response = response
            if self._closed.is_set():
                self.close()
            if response.status_code >= 400:
                raise self._http_failure(response)
            counted = _counted_stream()(response.stream)
            response.stream = counted
            source = httpx_sse.EventSource(response)
            try:
                events = source.iter_sse()
                done = _Assembler(self._queue.put, self.scrub)
                for event in events:
                    counted.since_event = 0
                    if done.feed(event.event, event.data):
                        self._queue.put(("end", done.completion))
                        return
            except httpx_sse.SSEError as e:
                raise ModelFailed(
                    "model_bad_response",
                    f"the model server did not answer with an event stream: {e}",
                    retryable=False,
                ) from None
            if self._closed.is_set():
                self._queue.put(("end", done.completion))
                return
            raise ModelFailed(
                "model_stream_truncated",
                "the model stream ended without [DONE] (connection dropped mid-response)",
                retryable=True,
            )

    def _http_failure(self, response: httpx.Response) -> ModelFailed:
        import httpx

        body = b""
        with contextlib.suppress(httpx.HTTPError):
            for chunk in response.iter_raw():
                body += chunk
                if len(body) >= MAX_ERROR_BODY:
                    break
        message = _error_message(body[:MAX_ERROR_BODY]) or response.reason_phrase or ""
        message = self.scrub(message)[:MAX_MESSAGE]
        status = response.status_code
        retryable = status == 429 or status >= 500
        code = (
            "model_rate_limited"
            if status == 429
            else "model_server_error"
            if status >= 500
            else "model_rejected"
        )
        return ModelFailed(
            code, f"the model server answered HTTP {status}: {message}", retryable=retryable
        )

    def _transport_failure(self, e: Exception) -> ModelFailed:
        import httpx

        if isinstance(e, httpx.ConnectTimeout | httpx.ConnectError):
            url = self.scrub(self.endpoint.completions_url)
            return ModelFailed(
                "model_connect_failed",
                f"cannot connect to the model server at {url}: {self.scrub(str(e))}",
                retryable=True,
            )
        if isinstance(e, httpx.ReadTimeout):
            return ModelFailed(
                "model_stream_stalled",
                f"the model server sent nothing for {self.endpoint.read_timeout:g} s",
                retryable=True,
            )
        if isinstance(e, httpx.RemoteProtocolError | httpx.ReadError):
            return ModelFailed(
                "model_stream_truncated",
                f"the model stream broke mid-response: {self.scrub(str(e))}",
                retryable=True,
            )
        if isinstance(e, _EventTooLarge):
            return ModelFailed("model_bad_response", str(e), retryable=False)
        return ModelFailed(
            "model_failed", f"the model request failed: {self.scrub(repr(e))}", retryable=True
        )


class _EventTooLarge(Exception):
    pass


@cache
def _counted_stream() -> type:
    """The class of a response's byte stream that counts the bytes since the last complete
    event: bounded memory whatever the server sends. Made on first use (it subclasses
    httpx's ``SyncByteStream``, which httpx asks of a stream before reading it)."""
    import httpx

    class CountedStream(httpx.SyncByteStream):
        def __init__(self, inner: Any) -> None:
            self.inner = inner
            self.since_event = 0

        def __iter__(self) -> Iterator[bytes]:
            for chunk in self.inner:
                self.since_event += len(chunk)
                if self.since_event > MAX_EVENT_BYTES:
                    raise _EventTooLarge(
                        f"the model server sent an event over {MAX_EVENT_BYTES} bytes"
                    )
                yield chunk

        def close(self) -> None:
            self.inner.close()

    return CountedStream


class _Assembler:
    """Chunk by chunk: text and thinking out at once, tool calls gathered by index, the
    finish reason and usage kept for the end."""

    def __init__(self, put: Callable[[tuple[str, Any]], None], scrub: Callable[[str], str]):
        self.put = put
        self.scrub = scrub
        self.completion = Completion()
        self.calls: dict[int, ToolCall] = {}

    def feed(self, event: str, data: str) -> bool:
        """One SSE event; True at ``[DONE]``. An error event or payload raises."""
        if event == "error":
            raise _in_band(data, self.scrub)
        if data.strip() == "[DONE]":
            self.completion.tool_calls = [self.calls[i] for i in sorted(self.calls)]
            return True
        if not data.strip():
            return False  # an event with no data (a keep-alive of some servers)
        try:
            chunk = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise ModelFailed(
                "model_bad_response",
                "the model server sent an event that is not JSON",
                retryable=False,
            ) from None
        if not isinstance(chunk, dict):
            return False
        if chunk.get("error") is not None:
            raise _in_band(data, self.scrub)
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self.completion.usage = {
                k: v
                for k in ("prompt_tokens", "completion_tokens")
                if isinstance(v := usage.get(k), int) and not isinstance(v, bool) and v >= 0
            }
        for choice in chunk.get("choices") or ():
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                self._choice(choice)
        return False

    def _choice(self, choice: dict[str, Any]) -> None:
        delta = choice.get("delta")
        if isinstance(delta, dict):
            for key in ("reasoning_content", "reasoning"):
                if isinstance(text := delta.get(key), str) and text:
                    self.put(("thinking", text))
            if isinstance(text := delta.get("content"), str) and text:
                self.put(("text", text))
            for frag in delta.get("tool_calls") or ():
                if isinstance(frag, dict):
                    self._fragment(frag)
        reason = choice.get("finish_reason")
        if isinstance(reason, str):
            self.completion.finish_reason = reason

    def _fragment(self, frag: dict[str, Any]) -> None:
        index = frag.get("index", 0)
        if not isinstance(index, int) or isinstance(index, bool):
            return
        call = self.calls.setdefault(index, ToolCall(index))
        # llama-cpp-python repeats id and name on every fragment: the first one wins.
        if call.id is None and isinstance(frag.get("id"), str) and frag["id"]:
            call.id = frag["id"]
        fn = frag.get("function")
        if isinstance(fn, dict):
            if call.name is None and isinstance(fn.get("name"), str) and fn["name"]:
                call.name = fn["name"]
            if isinstance(fn.get("arguments"), str):
                call.arguments += fn["arguments"]


def _error_message(body: bytes) -> str | None:
    """The message of an OpenAI-style error body (``{"error": {"message": …}}`` or
    ``{"error": "…"}``, ``{"message": …}``), else the body as text."""
    try:
        obj = orjson.loads(body)
    except orjson.JSONDecodeError:
        text = body.decode("utf-8", "replace").strip()
        return text or None
    if isinstance(obj, dict):
        err = obj.get("error", obj)
        if isinstance(err, dict) and isinstance(err.get("message"), str):
            return err["message"]
        if isinstance(err, str):
            return err
    return orjson.dumps(obj).decode()


def _in_band(data: str, scrub: Callable[[str], str]) -> ModelFailed:
    message = _error_message(data.encode("utf-8", "replace")) or "an error event"
    message = scrub(message)[:MAX_MESSAGE]  # scrubbed whole, then cut
    return ModelFailed(
        "model_stream_error",
        f"the model server reported an error mid-stream: {message}",
        retryable=True,
    )
