"""The `web` app's skills: `client.apps.web.search(...)` and `client.apps.web.info()`."""

from typing import TYPE_CHECKING, Dict, Mapping, Optional, Sequence, cast

from .._generated import SEARCH_PATH, SkillInfo, WebSearchRequestItem, WebSearchResponse

if TYPE_CHECKING:
    from .._client import AsyncOpenMates, OpenMates

__all__ = ["Apps", "AsyncApps", "Web", "AsyncWeb"]


def _search_body(requests: Sequence[WebSearchRequestItem], extra_body: Optional[Mapping[str, object]]) -> object:
    # Anything but a list or tuple goes as it is: the server names what is wrong with it (a 400).
    given = cast(object, requests)
    body: Dict[str, object] = {"requests": list(requests) if isinstance(given, (list, tuple)) else given}
    body.update(extra_body or {})
    return body


class Web:
    """The `web` app's skills."""

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
    ) -> WebSearchResponse:
        """Runs a batch of 1 to 5 searches; returns one result group per request item, in order.

        A group that failed at the provider carries ``error``; when every group fails, a
        ``ProviderError`` is raised with the same response. A refused request raises
        ``BadRequestError`` whose ``issues`` name each problem by path.

        Args:
            requests: The searches, each ``{"query": ..., "count"?, "country"?, "search_lang"?,
                "safesearch"?, "filter_tabloids"?, "id"?}``.
            extra_body: More top-level fields to send (the server refuses unknown ones, by name).
            timeout: Overrides the client's ``timeout`` (seconds per attempt) for this call.
            max_retries: Overrides the client's ``max_retries`` for this call.
            extra_headers: More request headers for this call.
        """
        answer = self._client.request(
            "POST",
            SEARCH_PATH,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return cast(WebSearchResponse, answer)

    def info(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> SkillInfo:
        """The skill info: limits, the provider, the options it honours, the contract fingerprint."""
        answer = self._client.request(
            "GET", SEARCH_PATH, timeout=timeout, max_retries=max_retries, extra_headers=extra_headers
        )
        return cast(SkillInfo, answer)


class AsyncWeb:
    """The `web` app's skills, awaitable."""

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
    ) -> WebSearchResponse:
        """Runs a batch of 1 to 5 searches; returns one result group per request item, in order.

        The same arguments, answers and errors as `Web.search`.
        """
        answer = await self._client.request(
            "POST",
            SEARCH_PATH,
            body=_search_body(requests, extra_body),
            timeout=timeout,
            max_retries=max_retries,
            extra_headers=extra_headers,
        )
        return cast(WebSearchResponse, answer)

    async def info(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> SkillInfo:
        """The skill info: limits, the provider, the options it honours, the contract fingerprint."""
        answer = await self._client.request(
            "GET", SEARCH_PATH, timeout=timeout, max_retries=max_retries, extra_headers=extra_headers
        )
        return cast(SkillInfo, answer)


class Apps:
    """The apps of the API; today only ``web``."""

    web: Web
    """Web search: ``search(requests=[...])`` and ``info()``."""

    def __init__(self, client: "OpenMates") -> None:
        self.web = Web(client)


class AsyncApps:
    """The apps of the API; today only ``web``."""

    web: AsyncWeb
    """Web search: ``await search(requests=[...])`` and ``await info()``."""

    def __init__(self, client: "AsyncOpenMates") -> None:
        self.web = AsyncWeb(client)
