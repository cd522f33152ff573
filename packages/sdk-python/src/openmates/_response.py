"""`APIResponse`: what ``with_raw_response`` calls return (openai-python's idiom): the answer's
status, headers and rate-limit state, and ``parse()`` for the body a plain call returns."""

import json
from typing import Generic, Mapping, Optional, TypeVar, cast

from ._base_client import RawResponse
from ._exceptions import OpenMatesError
from ._rate_limit import RateLimit, parse_rate_limit

T = TypeVar("T")

__all__ = ["APIResponse"]


class APIResponse(Generic[T]):
    """A 2xx answer, read whole. A non-2xx answer raises as the plain call does (the error carries
    ``rate_limit`` too)."""

    status_code: int
    """The HTTP status."""
    headers: Mapping[str, str]
    """The response headers, names lower-cased."""
    rate_limit: Optional[RateLimit]
    """The caller's rate-limit state after this call; None when the server's limit is off or the
    call was not counted."""
    request_id: Optional[str]
    """The server's request id (``x-request-id``), for support."""

    def __init__(self, raw: RawResponse) -> None:
        self._raw = raw
        self.status_code = raw.status
        self.headers = raw.headers
        self.rate_limit = parse_rate_limit(raw.headers)
        self.request_id = raw.headers.get("x-request-id")

    def parse(self) -> T:
        """The parsed JSON body: what the plain call returns."""
        try:
            return cast(T, json.loads(self._raw.body.decode("utf-8")))
        except ValueError:
            raise OpenMatesError(
                f"The server answered {self.status_code} with a body that is not JSON: is base_url the API's origin?"
            ) from None
