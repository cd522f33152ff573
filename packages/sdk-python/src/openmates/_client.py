"""`OpenMates` and `AsyncOpenMates`: the same surface over a blocking and an asyncio transport.

Each builds a call once (`ClientCore._call`: settings, headers, body) and only runs the attempts and
the waits between them (`Call.next_retry` decides) over its own transport."""

import asyncio
import ssl
import time
from types import TracebackType
from typing import Awaitable, Callable, Mapping, Optional, Type, TypeVar, Union, cast

from . import _http_async, _http_sync
from ._base_client import (
    DEFAULT_TIMEOUT,
    EVENT_STREAM_OR_JSON,
    Call,
    ClientCore,
    RawResponse,
    OnRetry,
    check_answer,
    check_on_retry,
    parse_answer,
)
from ._exceptions import OpenMatesError
from ._generated import ROUTES, Usage
from ._generated_policy import DEFAULT_MAX_RETRIES
from ._streaming import AsyncSearchStream, SearchStream
from .resources.web import Apps, AsyncApps

T = TypeVar("T")

__all__ = ["OpenMates", "AsyncOpenMates"]


class OpenMates(ClientCore):
    """The OpenMates API client: ``OpenMates().apps.web.search(requests=[{"query": "..."}])``.

    Args:
        api_key: Sent as ``Authorization: Bearer <api_key>``. Default: ``OPENMATES_API_KEY``, else
            none (a server started without ``OPENMATES_API_KEYS`` needs none); ``""`` sends none.
        base_url: The server's origin. Default: ``OPENMATES_API_URL``, else ``http://127.0.0.1:8787``.
        timeout: Seconds one attempt may take in total, reading the whole body included (not per
            read). Default 60, longer than any server deadline.
        max_retries: Further attempts after a 429, a 503, a 502 that carries ``Retry-After`` or a
            connection failure, honouring ``retry-after-ms`` / ``Retry-After``. Default 2.
        ssl_context: Verifies ``https`` servers (and carries client certificates). Default: the
            system's trust store.
        on_retry: Called before each wait between attempts with a ``RetryInfo``: the attempt that
            failed, its status (None for a connection failure), the wait in ms and the error. An
            exception it raises ends the call with that exception.

    ``HTTP_PROXY``, ``HTTPS_PROXY`` and ``NO_PROXY`` are honoured as urllib reads them.
    """

    apps: Apps
    """The skills, by app: ``client.apps.web.search(...)``, ``client.apps.web.info()``."""

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        ssl_context: Optional[ssl.SSLContext] = None,
        on_retry: Optional[OnRetry] = None,
        _sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._ssl_context = ssl_context
        self._on_retry = check_on_retry(on_retry)
        # Tests pass a recorder to see the waits between attempts without waiting.
        self._sleep = _sleep or time.sleep
        self.apps = Apps(self)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> object:
        """Sends one API call, retrying 429, 503, a 502 with ``Retry-After`` and connection failures,
        and returns the parsed JSON of a 2xx answer. Raises an ``OpenMatesError`` subclass otherwise."""
        raw = self.request_raw(
            method, path, body=body, timeout=timeout, max_retries=max_retries, extra_headers=extra_headers
        )
        return parse_answer(raw)

    def usage(self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None) -> Usage:
        """The calling key's usage today and this month, and what is left of its quotas (``GET /v1/usage``)."""
        route = ROUTES["usage"]
        return cast(Usage, self.request(route.method, route.path, timeout=timeout, max_retries=max_retries))

    def request_raw(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> RawResponse:
        """`request`, returning the 2xx answer unparsed (``with_raw_response`` reads its headers)."""
        call = self._call(
            method, path, body=body, timeout=timeout, max_retries=max_retries, extra_headers=extra_headers
        )
        return self._retrying(
            call, lambda: check_answer(_http_sync.send(call.request, call.timeout, self._ssl_context))
        )

    def request_stream(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> SearchStream:
        """The same call asking for an event stream, sent when the stream is first read. Retried as
        `request` is, but only until the server answers 2xx: never once the stream began."""
        call = self._call(
            method,
            path,
            body=body,
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
            accept=EVENT_STREAM_OR_JSON,
        )

        def attempt() -> Union[RawResponse, _http_sync.StreamBody]:
            answer = _http_sync.open_stream(call.request, call.timeout, self._ssl_context)
            return answer if isinstance(answer, _http_sync.StreamBody) else check_answer(answer)

        return SearchStream(lambda: self._retrying(call, attempt))

    def _retrying(self, call: Call, attempt: Callable[[], T]) -> T:
        """Runs `attempt` until it succeeds, waiting between attempts while `call` allows another."""
        retry = 0
        while True:
            try:
                return attempt()
            except OpenMatesError as failure:
                next_retry = call.next_retry(failure, retry)
            if self._on_retry is not None:
                self._on_retry(next_retry)
            self._sleep(next_retry.delay_ms / 1000)
            retry += 1

    def close(self) -> None:
        """Refuses further calls. Each call opens and closes its own connection, so nothing else is held."""
        self._closed = True

    def __enter__(self) -> "OpenMates":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()


class AsyncOpenMates(ClientCore):
    """The asyncio OpenMates API client: ``await AsyncOpenMates().apps.web.search(requests=[...])``.

    The same options as `OpenMates`. Cancelling a call (``task.cancel()``, ``asyncio.wait_for``)
    closes its connection at once.
    """

    apps: AsyncApps
    """The skills, by app: ``await client.apps.web.search(...)``, ``await client.apps.web.info()``."""

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        ssl_context: Optional[ssl.SSLContext] = None,
        on_retry: Optional[OnRetry] = None,
        _sleep: Optional[Callable[[float], Awaitable[None]]] = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._ssl_context = ssl_context
        self._on_retry = check_on_retry(on_retry)
        self._sleep = _sleep or asyncio.sleep
        self.apps = AsyncApps(self)

    async def request(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> object:
        """Sends one API call, retrying 429, 503, a 502 with ``Retry-After`` and connection failures,
        and returns the parsed JSON of a 2xx answer. Raises an ``OpenMatesError`` subclass otherwise."""
        raw = await self.request_raw(
            method, path, body=body, timeout=timeout, max_retries=max_retries, extra_headers=extra_headers
        )
        return parse_answer(raw)

    async def usage(self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None) -> Usage:
        """The calling key's usage today and this month, and what is left of its quotas (``GET /v1/usage``)."""
        route = ROUTES["usage"]
        return cast(Usage, await self.request(route.method, route.path, timeout=timeout, max_retries=max_retries))

    async def request_raw(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> RawResponse:
        """`request`, returning the 2xx answer unparsed (``with_raw_response`` reads its headers)."""
        call = self._call(
            method, path, body=body, timeout=timeout, max_retries=max_retries, extra_headers=extra_headers
        )

        async def attempt() -> RawResponse:
            return check_answer(await _http_async.send(call.request, call.timeout, self._ssl_context))

        return await self._retrying(call, attempt)

    def request_stream(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> AsyncSearchStream:
        """The same call asking for an event stream, sent when the stream is first read. Retried as
        `request` is, but only until the server answers 2xx: never once the stream began."""
        call = self._call(
            method,
            path,
            body=body,
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
            accept=EVENT_STREAM_OR_JSON,
        )

        async def attempt() -> Union[RawResponse, _http_async.StreamBody]:
            answer = await _http_async.open_stream(call.request, call.timeout, self._ssl_context)
            return answer if isinstance(answer, _http_async.StreamBody) else check_answer(answer)

        return AsyncSearchStream(lambda: self._retrying(call, attempt))

    async def _retrying(self, call: Call, attempt: Callable[[], Awaitable[T]]) -> T:
        """Awaits `attempt` until it succeeds, waiting between attempts while `call` allows another."""
        retry = 0
        while True:
            try:
                return await attempt()
            except OpenMatesError as failure:
                next_retry = call.next_retry(failure, retry)
            if self._on_retry is not None:
                self._on_retry(next_retry)
            await self._sleep(next_retry.delay_ms / 1000)
            retry += 1

    async def close(self) -> None:
        """Refuses further calls. Each call opens and closes its own connection, so nothing else is held."""
        self._closed = True

    async def __aenter__(self) -> "AsyncOpenMates":
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        await self.close()
