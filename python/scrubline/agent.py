"""The built-in runtime (``--model-url``): a model behind an OpenAI-compatible server and
a small tool loop, written as canonical trace events into the run's boundary like any
other runtime source. Model calls and tool results alternate until the model answers
without a tool call, a limit is reached, the server fails, or a signal stops the run.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from scrubline import tools
from scrubline.errors import ConfigError
from scrubline.model import (
    CONNECT_TIMEOUT,
    DEFAULT_READ_TIMEOUT,
    ChatStream,
    Completion,
    Endpoint,
    ModelFailed,
)
from scrubline.runtime import Batch, RuntimeFailed, RuntimeLimit
from scrubline.scrubber import MIN_LITERAL_LEN, Scrubber

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
#: Characters per token when the server reports no usage (a rough, stated estimate).
CHARS_PER_TOKEN = 4
SYSTEM_PROMPT = (
    "You are a coding agent working in the directory {cwd}. Use the tools to inspect and "
    "change files and to run commands; when the task is done, answer briefly."
)


class ModelRuntime:
    """A runtime source: ``batches(stop)`` yields the trace as it happens. Tool approvals
    arrive by ``submit`` (from ``Permissions``) between two batches; a call that needs
    one and got none is denied."""

    def __init__(
        self,
        endpoint: Endpoint,
        prompt: str,
        *,
        literals: list[str] = (),  # type: ignore[assignment]
        max_turns: int | None = None,
        timeout: float | None = None,
        cwd: Path | None = None,
        request: dict[str, Any] | None = None,
        tool_timeout: float = tools.BASH_TIMEOUT,
    ) -> None:
        self.endpoint = endpoint
        self.prompt = prompt
        self.max_turns = max_turns
        self.timeout = timeout
        self.cwd = (cwd or Path.cwd()).resolve()
        self.request = request or {}
        self.tool_timeout = tool_timeout
        self.label = endpoint.url
        self._scrubber = Scrubber(literals=literals)
        self._decisions: dict[str, str] = {}
        self._stream: ChatStream | None = None
        self._lines = 0
        self._deadline: float | None = None
        self._usage_warned = False  # the usage_estimated notice is said once per run

    # -- the runtime protocol ------------------------------------------------------------

    def submit(self, line: bytes) -> None:
        """A decision from the run: ``{"type":"approval","call_id","decision",…}``."""
        sub = orjson.loads(line)
        if sub.get("type") == "approval" and isinstance(sub.get("call_id"), str):
            self._decisions[sub["call_id"]] = str(sub.get("decision"))

    def stop(self) -> None:
        if self._stream is not None:
            self._stream.close()

    def batches(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        self._deadline = time.monotonic() + self.timeout if self.timeout else None
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT.format(cwd=self.cwd)},
            {"role": "user", "content": self.prompt},
        ]
        yield self._batch(
            [
                {
                    "type": "run_start",
                    "agent": "scrubline",
                    "model": self.endpoint.model,
                    "prompt": self.prompt,
                }
            ]
        )
        calls = 0
        import httpx  # here, not with the module: see scrubline.model

        with httpx.Client(
            timeout=httpx.Timeout(
                self.endpoint.read_timeout, connect=CONNECT_TIMEOUT, pool=CONNECT_TIMEOUT
            )
        ) as client:
            turn = 0
            while True:
                turn += 1
                completion: Completion | None = None
                text: list[str] = []
                body = {
                    "model": self.endpoint.model,
                    "messages": messages,
                    "stream": True,
                    "stream_options": {"include_usage": True},
                    "tools": tools.SPECS,
                    **self.request,
                }
                self._stream = ChatStream(self.endpoint, body, self._scrubber.scrub, client)
                try:
                    for batch in self._pieces(self._stream, stop):
                        if isinstance(batch, Completion):
                            completion = batch
                        else:
                            text.extend(batch[2])
                            yield batch[:2]
                except ModelFailed as e:
                    raise RuntimeFailed(e.code, _retry_note(e)) from None
                if completion is None:  # stopped by a signal
                    return
                events, limit = self._turn_end(turn, messages, text, completion)
                yield self._batch(events)
                if limit is not None:
                    raise RuntimeLimit(limit)
                if completion.finish_reason == "content_filter":
                    raise RuntimeFailed(
                        "model_content_filter",
                        "the model server withheld the answer (finish_reason content_filter)"
                        " (not retryable)",
                    )
                pending = completion.tool_calls
                if not pending:
                    yield self._batch([{"type": "run_end", "outcome": "done", "reason": None}])
                    return
                messages.append(_assistant_message(text, pending))
                for call in pending:
                    calls += 1
                    result = yield from self._tool(call, f"call_{calls}", stop)
                    if result is None:
                        return
                    messages.append(result)

    def _turn_end(
        self,
        turn: int,
        messages: list[dict[str, Any]],
        text: list[str],
        completion: Completion,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The events that close a turn (notices, then ``turn_end``) and the limit it
        reached, if any: a stop is said in the turn that reached it."""
        usage, estimated = self._usage(messages, text, completion)
        events: list[dict[str, Any]] = []
        if estimated and not self._usage_warned:
            self._usage_warned = True
            events.append(
                _notice(
                    "usage_estimated",
                    "The model server reported no token usage; the counts are "
                    f"estimated at {CHARS_PER_TOKEN} characters per token.",
                )
            )
        limit = None
        pending = completion.tool_calls
        reason = completion.finish_reason
        if reason not in _KNOWN_FINISH and not pending:
            events.append(
                _notice(
                    "finish_unknown",
                    f"The model server ended the response with finish_reason {reason!r}"
                    " (not stop, length, tool_calls or content_filter); the answer may be"
                    " incomplete.",
                )
            )
        if reason == "length":
            limit = "the model's output token limit (finish_reason length)"
            events.append(_notice("limit", _LENGTH))
        elif pending and self.max_turns is not None and turn >= self.max_turns:
            limit = f"--max-turns {self.max_turns}"
            events.append(
                _notice(
                    "limit",
                    f"Stopped at --max-turns ({self.max_turns}): the model asked for"
                    f" {len(pending)} more tool call(s). Raise it or split the work.",
                )
            )
        events.append(_turn_end(usage, estimated))
        return events, limit

    # -- one model response ----------------------------------------------------------------

    def _pieces(self, stream: ChatStream, stop: Callable[[], bool]):
        """Batches of text and thinking deltas (everything that arrived by now), then
        the Completion."""
        pending: list[dict[str, Any]] = []
        texts: list[str] = []
        pieces = stream.pieces(stop, self._check_deadline)
        while True:
            try:
                kind, value = next(pieces)
            except StopIteration:  # a signal: what arrived before it is still published
                if pending:
                    yield (*self._batch(pending), texts)
                return
            except ModelFailed:
                if pending:  # what arrived before the failure is published, then it fails
                    yield (*self._batch(pending), texts)
                raise
            if kind == "end":
                if pending:
                    yield (*self._batch(pending), texts)
                yield value
                return
            if kind == "text":
                texts.append(value)
            pending.append(
                {"type": "assistant_delta" if kind == "text" else "thinking_delta", "text": value}
            )
            if stream.idle():  # nothing more waiting: publish now
                yield (*self._batch(pending), texts)
                pending, texts = [], []

    def _past_deadline(self) -> bool:
        return self._deadline is not None and time.monotonic() > self._deadline

    def _check_deadline(self) -> None:
        if self._past_deadline():
            raise ModelFailed("runtime_timeout", _timeout_reason(self.timeout), retryable=True)

    def _usage(
        self, messages: list[dict[str, Any]], text: list[str], completion: Completion
    ) -> tuple[dict[str, int], bool]:
        usage = completion.usage or {}
        if "prompt_tokens" in usage and "completion_tokens" in usage:
            return {"input": usage["prompt_tokens"], "output": usage["completion_tokens"]}, False
        sent = len(orjson.dumps(messages)) + len(orjson.dumps(tools.SPECS))
        got = sum(len(t) for t in text) + sum(
            len(c.arguments) + len(c.name or "") for c in completion.tool_calls
        )
        return {"input": -(-sent // CHARS_PER_TOKEN), "output": -(-got // CHARS_PER_TOKEN)}, True

    # -- one tool call ---------------------------------------------------------------------

    def _tool(self, call, call_id: str, stop: Callable[[], bool]):
        """Trace one tool call (start, approval, output, end); returns the tool message
        for the model, or None when a signal stopped the run."""
        try:
            args = orjson.loads(call.arguments or "{}")
        except orjson.JSONDecodeError:
            args = None
        checked = tools.check(call.name or "", args)
        if args is None:
            checked.input = {"arguments": call.arguments}
            checked.error = "the arguments are not valid JSON"
        needs = checked.error is None and checked.needs_approval(self.cwd)
        yield self._batch(
            [
                {"type": "tool_start", "call_id": call_id, "tool": checked.tool,
                 "title": checked.title, "input": checked.input, "needs_approval": needs},
            ]
            + ([{"type": "approval_request", "request_id": f"approval_{call_id}",
                 "call_id": call_id}] if needs else [])
        )  # fmt: skip
        if stop():
            return None
        events: list[dict[str, Any]] = []
        if needs:
            decision = self._decisions.pop(call_id, "denied")
            events.append(
                {"type": "approval_resolved", "request_id": f"approval_{call_id}",
                 "submission_id": f"policy_{call_id}", "decision": decision}
            )  # fmt: skip
            if decision != "approved":
                events.append({"type": "tool_end", "call_id": call_id, "status": "denied"})
                yield self._batch(events)
                return _tool_message(call, call_id, _DENIED)
        if events:
            yield self._batch(events)
        out = tools.run(
            checked, self.cwd, lambda: stop() or self._past_deadline(), self.tool_timeout
        )
        if stop():
            return None
        if self._past_deadline():
            raise RuntimeFailed("runtime_timeout", _timeout_reason(self.timeout))
        # What goes back to the model is scrubbed too: a secret a tool printed never
        # leaves the machine, not even to the model server.
        text = self._scrubber.scrub(out.text)
        yield self._batch(
            [
                {"type": "tool_output_delta", "call_id": call_id, "text": out.text},
                {"type": "tool_end", "call_id": call_id,
                 "status": "completed" if checked.error is None else "failed",
                 "outcome": "ok" if out.ok else "failed"},
            ]
        )  # fmt: skip
        return _tool_message(call, call_id, text)

    # -- trace lines -----------------------------------------------------------------------

    def _batch(self, events: list[dict[str, Any]]) -> Batch:
        first = self._lines + 1
        self._lines += len(events)
        return first, b"".join(_line(e) for e in events)


_KNOWN_FINISH = frozenset({"stop", "length", "tool_calls", "content_filter", "function_call"})
_LENGTH = "Stopped at the model's output token limit (finish_reason length)."
_DENIED = (
    "Denied: this call needs approval and no client is connected to give it "
    "(the user may pass --auto or add it to permission.allowlist). Do something else."
)


def _line(event: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(event) + b"\n"
    except TypeError:  # a lone surrogate from the server: never a line the boundary refuses
        return orjson.dumps(_clean(event)) + b"\n"


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _notice(code: str, text: str) -> dict[str, Any]:
    return {"type": "notice", "code": code, "text": text}


def _turn_end(usage: dict[str, int], estimated: bool) -> dict[str, Any]:
    total = usage["input"] + usage["output"]
    return {
        "type": "turn_end",
        "usage": usage,
        "usage_source": "estimated" if estimated else "reported",
        "context": {"estimated_tokens": total},
    }


def _assistant_message(text: list[str], calls) -> dict[str, Any]:
    return {
        "role": "assistant",
        # "" rather than null: llama-cpp-python refuses a null content here.
        "content": "".join(text),
        "tool_calls": [
            {
                "id": c.id or f"call_{c.index}",
                "type": "function",
                "function": {"name": c.name or "", "arguments": c.arguments},
            }
            for c in calls
        ],
    }


def _tool_message(call, call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call.id or f"call_{call.index}", "content": text}


def _timeout_reason(timeout: float | None) -> str:
    return f"the run did not finish within --timeout {timeout or 0:g} s"


def _retry_note(e: ModelFailed) -> str:
    return f"{e.reason} ({'retryable' if e.retryable else 'not retryable'})"


def from_options(
    *,
    url: str,
    model: str | None,
    prompt: str,
    api_key_env: str | None,
    read_timeout: float | None,
    max_turns: int | None,
    timeout: float | None,
    config: dict[str, Any],
) -> tuple[ModelRuntime, list[str]]:
    """The runtime the command line and config name, and the literal secrets it adds to
    the run (the key's value). ``ConfigError`` (exit 64) for anything wrong."""
    if not model:
        raise ConfigError("--model-url needs --model NAME (or ITERON_MODEL)")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"--model-url must be an http:// or https:// URL, not {url!r}")
    if max_turns is not None and max_turns < 1:
        raise ConfigError("--max-turns must be a positive integer")
    if read_timeout is not None and read_timeout <= 0:
        raise ConfigError("--model-read-timeout must be a positive number of seconds")
    key = None
    if api_key_env:
        if not _ENV_NAME.fullmatch(api_key_env):
            # Never echoed: a key passed here by mistake must not reach stderr.
            raise ConfigError("--api-key-env takes the NAME of an environment variable")
        key = os.environ.get(api_key_env)
        if key is None:
            raise ConfigError(f"--api-key-env {api_key_env}: the variable is not set")
        if len(key.encode("utf-8", "surrogatepass")) < MIN_LITERAL_LEN:
            raise ConfigError(
                f"--api-key-env {api_key_env}: the key is shorter than {MIN_LITERAL_LEN}"
                " bytes and could not be redacted reliably"
            )
    request = config.get("model", {}).get("request", {})
    if not isinstance(request, dict):
        raise ConfigError("model.request must be a table of request fields")
    endpoint = Endpoint(url, model, key, read_timeout or DEFAULT_READ_TIMEOUT)
    literals = [key] if key else []
    runtime = ModelRuntime(
        endpoint, prompt, literals=literals, max_turns=max_turns, timeout=timeout,
        request=request,
    )  # fmt: skip
    return runtime, literals
