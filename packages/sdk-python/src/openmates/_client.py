"""`OpenMates` and `AsyncOpenMates`: the same surface over a blocking and an asyncio transport."""

import asyncio
import ssl
import time
from types import TracebackType
from typing import Awaitable, Callable, Mapping, Optional, Type

from . import _http_async, _http_sync
from ._base_client import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    ClientCore,
    is_retryable,
    parse_answer,
    retry_delay,
)
from ._exceptions import APIConnectionError, APIError, APITimeoutError, OpenMatesError
from .resources.web import Apps, AsyncApps

__all__ = ["OpenMates", "AsyncOpenMates"]


class OpenMates(ClientCore):
    """The OpenMates API client: ``OpenMates().apps.web.search(requests=[{"query": "..."}])``.

    Args:
        api_key: Sent as ``Authorization: Bearer <api_key>``. Default: ``OPENMATES_API_KEY``, else
            none (a server started without ``OPENMATES_API_KEYS`` needs none); ``""`` sends none.
        base_url: The server's origin. Default: ``OPENMATES_API_URL``, else ``http://127.0.0.1:8787``.
        timeout: Seconds one attempt may take in total, reading the whole body included (not per
            read). Default 60, longer than any server deadline.
        max_retries: Further attempts after a 429, a 503 or a connection failure, honouring
            ``Retry-After``. Default 2.
        ssl_context: Verifies ``https`` servers (and carries client certificates). Default: the
            system's trust store.

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
        _sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._ssl_context = ssl_context
        # Tests pass a recorder to see the waits between attempts without waiting.
        self._sleep = _sleep or time.sleep
        self._closed = False
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
        """Sends one API call, retrying 429, 503 and connection failures, and returns the parsed JSON
        of a 2xx answer. Raises an ``OpenMatesError`` subclass otherwise."""
        if self._closed:
            raise OpenMatesError("This client is closed.")
        attempt_timeout, retries = self._per_call(timeout, max_retries)
        prepared = self._prepare(method, path, body, extra_headers)
        retry = 0
        while True:
            headers: Optional[Mapping[str, str]] = None
            try:
                return parse_answer(_http_sync.send(prepared, attempt_timeout, self._ssl_context))
            except APITimeoutError:
                raise
            except APIConnectionError as error:
                failure: OpenMatesError = error
            except APIError as error:
                if not is_retryable(error):
                    raise
                failure, headers = error, error.headers
            if retry >= retries:
                raise failure
            self._sleep(retry_delay(headers, retry))
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
        _sleep: Optional[Callable[[float], Awaitable[None]]] = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._ssl_context = ssl_context
        self._sleep = _sleep or asyncio.sleep
        self._closed = False
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
        """Sends one API call, retrying 429, 503 and connection failures, and returns the parsed JSON
        of a 2xx answer. Raises an ``OpenMatesError`` subclass otherwise."""
        if self._closed:
            raise OpenMatesError("This client is closed.")
        attempt_timeout, retries = self._per_call(timeout, max_retries)
        prepared = self._prepare(method, path, body, extra_headers)
        retry = 0
        while True:
            headers: Optional[Mapping[str, str]] = None
            try:
                return parse_answer(await _http_async.send(prepared, attempt_timeout, self._ssl_context))
            except APITimeoutError:
                raise
            except APIConnectionError as error:
                failure: OpenMatesError = error
            except APIError as error:
                if not is_retryable(error):
                    raise
                failure, headers = error, error.headers
            if retry >= retries:
                raise failure
            await self._sleep(retry_delay(headers, retry))
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
