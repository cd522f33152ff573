"""The OpenMates web search API client, standard library only.

    from openmates import OpenMates

    client = OpenMates()  # OPENMATES_API_URL / OPENMATES_API_KEY, else http://127.0.0.1:8787
    response = client.apps.web.search(requests=[{"query": "fetch abort", "count": 3}])

    with client.apps.web.search_stream([{"query": "a"}, {"query": "b"}]) as stream:
        for event in stream:  # each group as its query finishes, then done
            ...
"""

from ._base_client import RetryInfo
from ._client import AsyncOpenMates, OpenMates
from ._exceptions import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    InternalServerError,
    MethodNotAllowedError,
    NotFoundError,
    OpenMatesError,
    PayloadTooLargeError,
    PermissionDeniedError,
    ProviderError,
    QuotaExceededError,
    RateLimitError,
    ServiceUnavailableError,
    UnsupportedMediaTypeError,
)
from ._generated import API_VERSION, ASSERTION_IDS, CONTRACT_FINGERPRINT, DEFAULT_BASE_URL, SEARCH_PATH
from ._rate_limit import RateLimit
from ._response import APIResponse
from ._streaming import AsyncSearchStream, SearchStream
from ._version import __version__

__all__ = [
    "OpenMates",
    "AsyncOpenMates",
    "SearchStream",
    "AsyncSearchStream",
    "RetryInfo",
    "RateLimit",
    "APIResponse",
    "OpenMatesError",
    "APIError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "MethodNotAllowedError",
    "PayloadTooLargeError",
    "UnsupportedMediaTypeError",
    "QuotaExceededError",
    "RateLimitError",
    "InternalServerError",
    "ProviderError",
    "ServiceUnavailableError",
    "APIConnectionError",
    "APITimeoutError",
    "API_VERSION",
    "ASSERTION_IDS",
    "CONTRACT_FINGERPRINT",
    "DEFAULT_BASE_URL",
    "SEARCH_PATH",
    "__version__",
]
