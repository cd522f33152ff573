"""`SearchStream` and `AsyncSearchStream`: a search as it streams (ADR 0040), over either transport.

The server answers `text/event-stream`: `group` events as each query finishes, then exactly one
`done` (the WebSearchResponse) or `error` (an ErrorResponse). `_EventReader` turns bytes into those
typed events and decides what the final response is, with no I/O; the two classes only read.
"""

import json
from collections import deque
from types import TracebackType
from typing import Awaitable, Callable, Deque, Iterator, Mapping, Optional, Type, Union, cast

from . import _http_async, _http_sync
from ._base_client import RawResponse, parse_answer
from ._exceptions import APIConnectionError, OpenMatesError, make_status_error
from ._generated import (
    ERROR_STATUS,
    SEARCH_STREAM_EVENTS,
    ErrorCode,
    ErrorResponse,
    SearchStreamDoneEvent,
    SearchStreamEvent,
    WebSearchResponse,
)
from ._rate_limit import RateLimit, parse_rate_limit
from ._sse import SSEDecoder

__all__ = ["SearchStream", "AsyncSearchStream"]

SyncOpener = Callable[[], Union[RawResponse, _http_sync.StreamBody]]
"""Sends the request (retrying until a 2xx answer): an open event stream, or a 2xx JSON answer."""
AsyncOpener = Callable[[], Awaitable[Union[RawResponse, _http_async.StreamBody]]]


class _EventReader:
    """The typed events of a stream's bytes, and its outcome: the final response or the error
    `search` would raise for the same request."""

    def __init__(self) -> None:
        self._decoder = SSEDecoder()
        self._pending: Deque[SearchStreamEvent] = deque()
        self._headers: Mapping[str, str] = {}
        self.ended = False
        """True once the last event (`done` or `error`) was read, or the stream failed."""
        self.response: Optional[WebSearchResponse] = None
        self.error: Optional[OpenMatesError] = None
        self.rate_limit: Optional[RateLimit] = None
        """The answer's rate-limit state, once it arrived."""

    def opened(self, answer: Union[RawResponse, _http_sync.StreamBody, _http_async.StreamBody]) -> None:
        """Takes the 2xx answer's headers; a JSON answer (a server that does not stream) is `done`."""
        self._headers = answer.headers
        self.rate_limit = parse_rate_limit(answer.headers)
        if isinstance(answer, RawResponse):
            done: SearchStreamDoneEvent = {"event": "done", "data": cast(WebSearchResponse, parse_answer(answer))}
            self._pending.append(done)

    def feed(self, chunk: bytes) -> None:
        for sse in self._decoder.feed(chunk):
            # An event type this SDK does not know (a newer server's) is skipped, as browsers do.
            if sse.event not in SEARCH_STREAM_EVENTS:
                continue
            try:
                data: object = json.loads(sse.data)
            except ValueError:
                raise APIConnectionError(f"The server sent a {sse.event} event whose data is not JSON.") from None
            self._pending.append(cast(SearchStreamEvent, {"event": sse.event, "data": data}))

    def take(self) -> Optional[SearchStreamEvent]:
        """The next event read, if any; the last one settles the outcome."""
        if self.ended or not self._pending:
            return None
        event = self._pending.popleft()
        if event["event"] == "done":
            self._settle_done(event["data"])
        elif event["event"] == "error":
            self._settle_error(event["data"])
        return event

    def fail(self, error: OpenMatesError) -> OpenMatesError:
        self.ended = True
        if self.error is None and self.response is None:
            self.error = error
        return error

    def final(self) -> WebSearchResponse:
        if self.error is not None:
            raise self.error
        if self.response is None:
            raise OpenMatesError("The stream was closed before its last event: there is no final response.")
        return self.response

    def _settle_done(self, response: WebSearchResponse) -> None:
        self.ended = True
        groups = response.get("results", [])
        # The status the JSON answer would have had: 502 when every group failed.
        if groups and all("error" in group for group in groups):
            self.error = make_status_error(502, response, self._headers)
        else:
            self.response = response

    def _settle_error(self, body: ErrorResponse) -> None:
        self.ended = True
        given = cast(object, body)  # the server's JSON, not checked against the type
        code = cast(Mapping[str, object], given).get("code") if isinstance(given, dict) else None
        status = ERROR_STATUS.get(cast(ErrorCode, code), 500)
        self.error = make_status_error(status, body, self._headers)


_ENDED_EARLY = "The event stream ended before its last event."


class _ReadStream:
    """What the sync and async streams share: the reader of their events, and the state it read."""

    _reader: _EventReader

    @property
    def rate_limit(self) -> Optional[RateLimit]:
        """The caller's rate-limit state after this call, from the headers of the answer the stream
        came in: None until they arrived (before the first event) and when the server's limit is off.
        A refusal before the stream began carries its state on the error (``error.rate_limit``)."""
        return self._reader.rate_limit


class SearchStream(_ReadStream, Iterator[SearchStreamEvent]):
    """A search as it streams (``client.apps.web.search_stream(...)``): iterate it for typed events
    (``{"event": "group", "data": ResultGroup}`` as each query finishes, in completion order and
    provisional; then one ``done`` with the WebSearchResponse or one ``error`` with an
    ErrorResponse), and/or call `final_response()`.

    The request is sent when the stream is first read, and retried (429, 503, connection failures)
    only until the server answers 2xx: never once the stream began, since that would run paid
    searches again. Use it in a ``with`` block, or call `close()`, to close the connection early: the
    server then aborts the searches still running. Leaving a ``for`` loop over a stream nothing else
    refers to closes it too.
    """

    def __init__(self, open_stream: SyncOpener) -> None:
        self._open_stream: Optional[SyncOpener] = open_stream
        self._body: Optional[_http_sync.StreamBody] = None
        self._reader = _EventReader()
        self._closed = False

    def __iter__(self) -> "SearchStream":
        return self

    def __next__(self) -> SearchStreamEvent:
        reader = self._reader
        if self._closed or reader.ended:
            raise StopIteration
        try:
            if self._open_stream is not None:
                self._open()
            while True:
                event = reader.take()
                if event is not None:
                    if reader.ended:
                        self.close()
                    return event
                chunk = self._body.read_chunk() if self._body is not None else b""
                if not chunk:
                    raise APIConnectionError(_ENDED_EARLY)
                reader.feed(chunk)
        except OpenMatesError as error:
            self.close()
            raise reader.fail(error) from None
        except BaseException:
            # Interrupted (KeyboardInterrupt, a signal handler's exception): the stream is left
            # mid-event, so it is closed and the searches still running are aborted.
            self.close()
            raise

    def _open(self) -> None:
        open_stream, self._open_stream = self._open_stream, None
        assert open_stream is not None
        answer = open_stream()
        if isinstance(answer, _http_sync.StreamBody):
            self._body = answer
        self._reader.opened(answer)

    def final_response(self) -> WebSearchResponse:
        """The WebSearchResponse of the ``done`` event, reading the rest of the stream first.

        Raises what ``search`` raises for the same request: ``ProviderError`` (with the response)
        when every group failed, the class of the ``error`` event's code (``ServiceUnavailableError``
        for ``not_configured``, ``InternalServerError``), the refusal before the stream began
        (``BadRequestError``, ``AuthenticationError``, ``RateLimitError``, …) or a connection error.
        Raises ``OpenMatesError`` when the stream was closed before its last event.
        """
        for _ in self:
            pass
        return self._reader.final()

    def close(self) -> None:
        """Closes the connection; the server aborts the searches still running. Idempotent."""
        self._closed = True
        self._open_stream = None
        if self._body is not None:
            self._body.close()

    def __enter__(self) -> "SearchStream":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __del__(self) -> None:
        body = getattr(self, "_body", None)
        if body is not None:
            body.close()


class AsyncSearchStream(_ReadStream):
    """A search as it streams (``client.apps.web.search_stream(...)`` of `AsyncOpenMates`): ``async
    for`` its typed events and/or ``await final_response()``. The same events, errors and retries as
    `SearchStream`. Use it in an ``async with`` block, or ``await close()``, to close the connection
    early; cancelling a task that reads it closes it too.
    """

    def __init__(self, open_stream: AsyncOpener) -> None:
        self._open_stream: Optional[AsyncOpener] = open_stream
        self._body: Optional[_http_async.StreamBody] = None
        self._reader = _EventReader()
        self._closed = False

    def __aiter__(self) -> "AsyncSearchStream":
        return self

    async def __anext__(self) -> SearchStreamEvent:
        reader = self._reader
        if self._closed or reader.ended:
            raise StopAsyncIteration
        try:
            if self._open_stream is not None:
                await self._open()
            while True:
                event = reader.take()
                if event is not None:
                    if reader.ended:
                        self._abort()
                    return event
                chunk = await self._body.read_chunk() if self._body is not None else b""
                if not chunk:
                    raise APIConnectionError(_ENDED_EARLY)
                reader.feed(chunk)
        except OpenMatesError as error:
            self._abort()
            raise reader.fail(error) from None
        except BaseException:
            # Cancelled mid-read: the stream is left mid-event, so it is closed and the searches
            # still running are aborted.
            self._abort()
            raise

    async def _open(self) -> None:
        open_stream, self._open_stream = self._open_stream, None
        assert open_stream is not None
        answer = await open_stream()
        if isinstance(answer, _http_async.StreamBody):
            self._body = answer
        self._reader.opened(answer)

    async def final_response(self) -> WebSearchResponse:
        """The WebSearchResponse of the ``done`` event, reading the rest of the stream first. Raises
        what ``search`` raises for the same request (see `SearchStream.final_response`)."""
        async for _ in self:
            pass
        return self._reader.final()

    async def close(self) -> None:
        """Closes the connection; the server aborts the searches still running. Idempotent."""
        self._abort()

    def _abort(self) -> None:
        self._closed = True
        self._open_stream = None
        if self._body is not None:
            self._body.close()

    async def __aenter__(self) -> "AsyncSearchStream":
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self._abort()

    def __del__(self) -> None:
        body = getattr(self, "_body", None)
        if body is not None:
            try:
                body.close()
            except RuntimeError:
                pass  # the event loop is already closed, and the connection with it

