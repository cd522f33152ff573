"""The `web` app's skills: `client.apps.web.search(...)`, `search_stream(...)` and `info()`."""

from typing import TYPE_CHECKING, Dict, Mapping, Optional, Sequence, cast

from .._generated import ROUTES, SkillInfo, WebSearchRequestItem, WebSearchResponse
from .._response import APIResponse
from .._streaming import AsyncSearchStream, SearchStream

if TYPE_CHECKING:
    from .._client import AsyncOpenMates, OpenMates

__all__ = ["Apps", "AsyncApps", "Web", "AsyncWeb", "WebWithRawResponse", "AsyncWebWithRawResponse"]

# The contract's routes these skills call (the route table, generated into _generated.py).
_SEARCH = ROUTES["search"]
_SEARCH_STREAM = ROUTES["searchStream"]
_SKILL_INFO = ROUTES["skillInfo"]


def _search_body(requests: Sequence[WebSearchRequestItem], extra_body: Optional[Mapping[str, object]]) -> object:
    # Anything but a list or tuple goes as it is: the server names what is wrong with it (a 400).
    given = cast(object, requests)
    body: Dict[str, object] = {"requests": list(requests) if isinstance(given, (list, tuple)) else given}
    body.update(extra_body or {})
    return body


class WebWithRawResponse:
    """`Web`'s calls returning the answer itself (`APIResponse`): its status, headers and
    ``rate_limit``, with ``parse()`` for the body the plain call returns::

        response = client.apps.web.with_raw_response.search([{"query": "a"}])
        print(response.rate_limit)  # RateLimit(limit=60, remaining=59, reset_seconds=60, policy='per-key')
        results = response.parse()
    """

    def __init__(self, client: "OpenMates") -> None:
        self._client = client

    def search(
        self,
        requests: Sequence[WebSearchRequestItem],
        *,
        extra_body: Optional[Mapping[str, object]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> APIResponse[WebSearchResponse]:
        """`Web.search`, with its answer. The same arguments and errors."""
        raw = self._client.request_raw(
            _SEARCH.method,
            _SEARCH.path,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return APIResponse[WebSearchResponse](raw)

    def info(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> APIResponse[SkillInfo]:
        """`Web.info`, with its answer (not counted: the body's ``rate_limit`` is the current state)."""
        raw = self._client.request_raw(
            _SKILL_INFO.method,
            _SKILL_INFO.path,
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return APIResponse[SkillInfo](raw)


class AsyncWebWithRawResponse:
    """`AsyncWeb`'s calls returning the answer itself (`APIResponse`), as `WebWithRawResponse`'s."""

    def __init__(self, client: "AsyncOpenMates") -> None:
        self._client = client

    async def search(
        self,
        requests: Sequence[WebSearchRequestItem],
        *,
        extra_body: Optional[Mapping[str, object]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> APIResponse[WebSearchResponse]:
        """`AsyncWeb.search`, with its answer. The same arguments and errors."""
        raw = await self._client.request_raw(
            _SEARCH.method,
            _SEARCH.path,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return APIResponse[WebSearchResponse](raw)

    async def info(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> APIResponse[SkillInfo]:
        """`AsyncWeb.info`, with its answer."""
        raw = await self._client.request_raw(
            _SKILL_INFO.method,
            _SKILL_INFO.path,
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return APIResponse[SkillInfo](raw)


class Web:
    """The `web` app's skills."""

    with_raw_response: WebWithRawResponse
    """The same calls returning the answer (status, headers, ``rate_limit``) with ``parse()``."""

    def __init__(self, client: "OpenMates") -> None:
        self._client = client
        self.with_raw_response = WebWithRawResponse(client)

    def search(
        self,
        requests: Sequence[WebSearchRequestItem],
        *,
        extra_body: Optional[Mapping[str, object]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> WebSearchResponse:
        """Runs a batch of 1 to 5 searches; returns one result group per request item, in order.

        A group that failed at the provider carries ``error``; when every group fails, a
        ``ProviderError`` is raised with the same response. A refused request raises
        ``BadRequestError`` whose ``issues`` name each problem by path.

        Args:
            requests: The searches, each a ``WebSearchRequestItem`` (``openmates.types``:
                ``query`` and the options the contract declares).
            extra_body: More top-level fields to send (the server refuses unknown ones, by name).
            timeout: Overrides the client's ``timeout`` (seconds per attempt) for this call.
            max_retries: Overrides the client's ``max_retries`` for this call.
            extra_headers: More request headers for this call.
        """
        answer = self._client.request(
            _SEARCH.method,
            _SEARCH.path,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return cast(WebSearchResponse, answer)

    def search_stream(
        self,
        requests: Sequence[WebSearchRequestItem],
        *,
        extra_body: Optional[Mapping[str, object]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> SearchStream:
        """The same batch as a stream of typed events: a ``group`` event as each query
        finishes (completion order, provisional), then one ``done`` (the WebSearchResponse) or one
        ``error`` (an ErrorResponse)::

            with client.apps.web.search_stream([{"query": "a"}, {"query": "b"}]) as stream:
                for event in stream:
                    if event["event"] == "group":
                        print(event["data"]["id"], len(event["data"]["results"]))
                response = stream.final_response()  # what search() returns, or raises

        ``final_response()`` returns or raises exactly as `search` does. The request is sent when the
        stream is first read; it is retried only before the stream began. ``timeout`` bounds the wait
        for the answer's head, then each wait for more of the stream (the server's keep-alive
        comments count). Closing the stream (``with``, ``close()``, leaving the loop) aborts the
        searches still running. The arguments are `search`'s.
        """
        return self._client.request_stream(
            _SEARCH_STREAM.method,
            _SEARCH_STREAM.path,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )

    def info(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> SkillInfo:
        """The skill info: limits, the provider, the options it honours, the contract fingerprint."""
        answer = self._client.request(
            _SKILL_INFO.method,
            _SKILL_INFO.path,
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return cast(SkillInfo, answer)


class AsyncWeb:
    """The `web` app's skills, awaitable."""

    with_raw_response: AsyncWebWithRawResponse
    """The same calls returning the answer (status, headers, ``rate_limit``) with ``parse()``."""

    def __init__(self, client: "AsyncOpenMates") -> None:
        self._client = client
        self.with_raw_response = AsyncWebWithRawResponse(client)

    async def search(
        self,
        requests: Sequence[WebSearchRequestItem],
        *,
        extra_body: Optional[Mapping[str, object]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> WebSearchResponse:
        """Runs a batch of 1 to 5 searches; returns one result group per request item, in order.

        The same arguments, answers and errors as `Web.search`.
        """
        answer = await self._client.request(
            _SEARCH.method,
            _SEARCH.path,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return cast(WebSearchResponse, answer)

    def search_stream(
        self,
        requests: Sequence[WebSearchRequestItem],
        *,
        extra_body: Optional[Mapping[str, object]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> AsyncSearchStream:
        """The same batch as a stream of typed events; not a coroutine::

            async with client.apps.web.search_stream([{"query": "a"}]) as stream:
                async for event in stream:
                    ...
                response = await stream.final_response()

        The same events, answers, errors and retries as `Web.search_stream`.
        """
        return self._client.request_stream(
            _SEARCH_STREAM.method,
            _SEARCH_STREAM.path,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )

    async def info(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> SkillInfo:
        """The skill info: limits, the provider, the options it honours, the contract fingerprint."""
        answer = await self._client.request(
            _SKILL_INFO.method,
            _SKILL_INFO.path,
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return cast(SkillInfo, answer)


class Apps:
    """The apps of the API; today only ``web``."""

    web: Web
    """Web search: ``search(requests=[...])``, ``search_stream(requests=[...])`` and ``info()``."""

    def __init__(self, client: "OpenMates") -> None:
        self.web = Web(client)


class AsyncApps:
    """The apps of the API; today only ``web``."""

    web: AsyncWeb
    """Web search: ``await search(requests=[...])``, ``search_stream(requests=[...])``, ``await info()``."""

    def __init__(self, client: "AsyncOpenMates") -> None:
        self.web = AsyncWeb(client)
