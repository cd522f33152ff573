"""The core the sync and async clients share: settings, request building, proxy routing, reading an
answer into a result or an error, and when and how long to wait before another attempt.

The two transports (`_http_sync`, `_http_async`) only move bytes; every decision is made here once.
"""

import base64
import json
import math
import os
import platform
import random
import re
import time
import urllib.parse
import urllib.request
from email.utils import format_datetime, parsedate_to_datetime
from typing import Callable, Dict, Mapping, NamedTuple, Optional, Tuple, cast

from ._exceptions import APIConnectionError, APIError, APITimeoutError, OpenMatesError, make_status_error
from ._generated import DEFAULT_BASE_URL
from ._generated_policy import (
    API_KEY_ENV,
    BACKOFF_FACTOR,
    BACKOFF_INITIAL_MS,
    BACKOFF_JITTER,
    BACKOFF_MAX_MS,
    BASE_URL_ENV,
    MAX_RETRY_AFTER_MS,
    RETRY_AFTER_HEADER,
    RETRY_CONNECTION_FAILURES,
    NEVER_RETRIED_CODES,
    RETRY_STATUSES,
    RETRY_STATUSES_WITH_RETRY_AFTER,
    RETRY_TIMEOUTS,
    WAIT_HEADERS,
    WAIT_HTTP_DATE,
    WAIT_NUMBER,
)
from ._version import __version__

DEFAULT_TIMEOUT = 60.0
"""Seconds one attempt may take, reading the body included: longer than any server deadline."""

JSON = "application/json"
EVENT_STREAM_OR_JSON = "text/event-stream, application/json;q=0.5"
"""The `Accept` of `search_stream`: the event stream, else the JSON answer (a refusal is JSON anyway)."""

_WAIT_NUMBER = re.compile(WAIT_NUMBER)
_WAIT_HTTP_DATE = re.compile(WAIT_HTTP_DATE)

USER_AGENT = f"openmates-python/{__version__} {platform.python_implementation()}/{platform.python_version()}"
"""Sent as `User-Agent`: the SDK's version and the Python that runs it."""

_HEADER_VALUE = re.compile(r"^[^\r\n\x00]*$")
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


class Endpoint(NamedTuple):
    """Where a connection goes: scheme, host and port."""

    scheme: str
    host: str
    port: int


class Proxy(NamedTuple):
    """An HTTP proxy from `HTTP_PROXY` / `HTTPS_PROXY`, with its `Proxy-Authorization` if it carries credentials."""

    endpoint: Endpoint
    authorization: Optional[str]


class PreparedRequest(NamedTuple):
    """One HTTP call, ready for a transport."""

    method: str
    target: Endpoint
    path: str
    """The path and query on the server, such as `/v1/apps/web/skills/search`."""
    url: str
    """The absolute URL (the request target a forward proxy needs)."""
    headers: Dict[str, str]
    body: Optional[bytes]
    proxy: Optional[Proxy]


class RetryInfo(NamedTuple):
    """What `on_retry` is told before each wait between attempts."""

    attempt: int
    """The attempt that failed, counted from 1."""
    status: Optional[int]
    """Its HTTP status, or None when no answer came (a connection failure)."""
    delay_ms: int
    """Milliseconds the SDK waits before the next attempt: the server's `retry-after-ms` or
    `Retry-After`, else the backoff."""
    error: OpenMatesError
    """What the attempt failed with; raised when no attempt is left."""


OnRetry = Callable[[RetryInfo], None]
"""The type of the `on_retry` option."""


def check_on_retry(on_retry: Optional[OnRetry]) -> Optional[OnRetry]:
    """`on_retry`, or a clear error when it is given and not callable."""
    if on_retry is not None and not callable(cast(object, on_retry)):
        raise OpenMatesError("on_retry must be a callable.")
    return on_retry


class Call(NamedTuple):
    """One API call: the request, the timeout of each attempt and how many more attempts it may take."""

    request: PreparedRequest
    timeout: float
    max_retries: int

    def next_retry(self, failure: OpenMatesError, retry: int) -> RetryInfo:
        """The retry to make after attempt `retry + 1` failed with `failure`, and the wait before it;
        raises `failure` when there is none to make: it is not retried (a timeout, a 400-class answer,
        a 500 or an ordinary 502) or the retries are spent."""
        headers: Optional[Mapping[str, str]] = None
        status: Optional[int] = None
        if isinstance(failure, APIError):
            if not is_retryable(failure):
                raise failure
            headers, status = failure.headers, failure.status
        elif isinstance(failure, APIConnectionError):
            retried = RETRY_TIMEOUTS if isinstance(failure, APITimeoutError) else RETRY_CONNECTION_FAILURES
            if not retried:
                raise failure
        else:
            raise failure
        if retry >= self.max_retries:
            raise failure
        return RetryInfo(retry + 1, status, retry_delay(headers, retry), failure)


class RawResponse(NamedTuple):
    """What a transport read: status, headers (names lower-cased) and the whole body."""

    status: int
    headers: Dict[str, str]
    body: bytes


def read_env(name: str) -> Optional[str]:
    """The trimmed value of an environment variable, or None where unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or None


def check_base_url(base_url: str) -> Tuple[str, Endpoint, str]:
    """The base URL without a trailing slash, where it connects, and its path prefix (often empty)."""
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OpenMatesError(f"base_url must be an absolute http(s) URL such as {DEFAULT_BASE_URL}.")
    if parts.username is not None or parts.password is not None:
        raise OpenMatesError("base_url must not carry credentials: pass the key as api_key.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise OpenMatesError("base_url has an invalid port.") from None
    return base_url.rstrip("/"), Endpoint(parts.scheme, parts.hostname, port), parts.path.rstrip("/")


def check_timeout(value: float) -> float:
    """`value` as a float; a clear error for anything but a finite positive number of seconds."""
    given = cast(object, value)  # callers without a type checker may pass anything
    if isinstance(given, bool) or not isinstance(given, (int, float)) or not 0 < given < float("inf"):
        raise OpenMatesError(f"timeout must be a positive number of seconds, not {value!r}.")
    return float(given)


def check_retries(value: int) -> int:
    """`value`, or a clear error for anything but a non-negative integer."""
    given = cast(object, value)
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise OpenMatesError(f"max_retries must be a non-negative integer, not {value!r}.")
    return given


def proxy_for(target: Endpoint) -> Optional[Proxy]:
    """The proxy `HTTP_PROXY` / `HTTPS_PROXY` name for `target`, unless `NO_PROXY` exempts it."""
    proxies = urllib.request.getproxies_environment()
    url = proxies.get(target.scheme)
    if not url:
        return None
    host = target.host if ":" not in target.host else f"[{target.host}]"
    if urllib.request.proxy_bypass(f"{host}:{target.port}"):
        return None
    if "://" not in url:
        url = f"http://{url}"
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        name = f"{target.scheme.upper()}_PROXY"
        raise OpenMatesError(f"{name} must be an http:// proxy URL (such as http://proxy:3128).")
    authorization = None
    if parts.username is not None:
        user = urllib.parse.unquote(parts.username)
        password = urllib.parse.unquote(parts.password or "")
        authorization = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return Proxy(Endpoint("http", parts.hostname, parts.port or 80), authorization)


class ClientCore:
    """Settings and decisions shared by `OpenMates` and `AsyncOpenMates`."""

    def __init__(
        self,
        *,
        api_key: Optional[str],
        base_url: Optional[str],
        timeout: float,
        max_retries: int,
    ) -> None:
        key = api_key if api_key is not None else read_env(API_KEY_ENV)
        self._api_key: Optional[str] = key or None
        if self._api_key is not None and not _HEADER_VALUE.match(self._api_key):
            raise OpenMatesError("api_key must not contain line breaks.")
        self.base_url, self._endpoint, self._prefix = check_base_url(
            base_url or read_env(BASE_URL_ENV) or DEFAULT_BASE_URL
        )
        self.timeout = check_timeout(timeout)
        self.max_retries = check_retries(max_retries)
        self._proxy = proxy_for(self._endpoint)
        self._closed = False

    @property
    def api_key(self) -> Optional[str]:
        """The key sent as a bearer token, if any. Never part of `repr()` or of an error."""
        return self._api_key

    def __repr__(self) -> str:
        key = "'***'" if self._api_key else "None"
        return (
            f"{type(self).__name__}(base_url={self.base_url!r}, api_key={key}, "
            f"timeout={self.timeout!r}, max_retries={self.max_retries!r})"
        )

    def _call(
        self,
        method: str,
        path: str,
        *,
        body: object,
        timeout: Optional[float],
        max_retries: Optional[int],
        extra_headers: Optional[Mapping[str, str]],
        accept: str = JSON,
    ) -> "Call":
        """One API call ready to send, with its per-attempt timeout and retries: what `request` and
        `search_stream` of both clients share. Raises when the client is closed or an option is bad."""
        if self._closed:
            raise OpenMatesError("This client is closed.")
        attempt_timeout, retries = self._per_call(timeout, max_retries)
        return Call(self._prepare(method, path, body, extra_headers, accept), attempt_timeout, retries)

    def _prepare(
        self,
        method: str,
        path: str,
        body: object = None,
        extra_headers: Optional[Mapping[str, str]] = None,
        accept: str = JSON,
    ) -> PreparedRequest:
        headers: Dict[str, str] = {
            "Host": self._host_header(),
            "User-Agent": USER_AGENT,
            "Accept": accept,
            "Connection": "close",
        }
        data: Optional[bytes] = None
        if body is not None:
            try:
                data = json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
            except (TypeError, ValueError) as error:
                raise OpenMatesError(f"The request cannot be sent as JSON: {error}.") from None
            headers["Content-Type"] = "application/json"
            headers["Content-Length"] = str(len(data))
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        for name, value in (extra_headers or {}).items():
            if not _HEADER_NAME.match(name) or not _HEADER_VALUE.match(value):
                raise OpenMatesError(f"extra_headers: {name!r} is not a valid header name and value.")
            for existing in [k for k in headers if k.lower() == name.lower()]:
                del headers[existing]
            headers[name] = value
        full_path = self._prefix + path
        url = f"{self._endpoint.scheme}://{self._host_header()}{full_path}"
        return PreparedRequest(method, self._endpoint, full_path, url, headers, data, self._proxy)

    def _host_header(self) -> str:
        scheme, host, port = self._endpoint
        host = f"[{host}]" if ":" in host else host
        default = 443 if scheme == "https" else 80
        return host if port == default else f"{host}:{port}"

    def _per_call(self, timeout: Optional[float], max_retries: Optional[int]) -> Tuple[float, int]:
        return (
            check_timeout(timeout) if timeout is not None else self.timeout,
            check_retries(max_retries) if max_retries is not None else self.max_retries,
        )


def is_event_stream(headers: Mapping[str, str]) -> bool:
    """True when an answer's `Content-Type` (headers keyed in lower case) is `text/event-stream`."""
    return headers.get("content-type", "").split(";", 1)[0].strip().lower() == "text/event-stream"


def check_answer(raw: RawResponse) -> RawResponse:
    """A 2xx answer as it is; raises the status's `APIError` for any other."""
    if 200 <= raw.status < 300:
        return raw
    raise make_status_error(raw.status, _parse_body(raw.body), raw.headers)


def parse_answer(raw: RawResponse) -> object:
    """The parsed JSON of a 2xx answer; raises the status's `APIError` for any other."""
    if 200 <= raw.status < 300:
        try:
            return json.loads(raw.body.decode("utf-8"))
        except ValueError:
            raise OpenMatesError(
                f"The server answered {raw.status} with a body that is not JSON: is base_url the API's origin?"
            ) from None
    raise make_status_error(raw.status, _parse_body(raw.body), raw.headers)


def _parse_body(body: bytes) -> object:
    if not body:
        return None
    text = body.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


def is_retryable(error: APIError) -> bool:
    """429, 503 and a 502 that carries `Retry-After` are worth another attempt; a 400-class answer will
    not change, and a 500 or an ordinary 502 may already have cost provider calls."""
    if error.code in NEVER_RETRIED_CODES:
        return False
    if error.status in RETRY_STATUSES:
        return True
    return error.status in RETRY_STATUSES_WITH_RETRY_AFTER and RETRY_AFTER_HEADER in error.headers


def backoff_delay(retry: int, rand: Callable[[], float] = random.random) -> int:
    """Exponential backoff in ms: 0.5 s × 2^retry, at most 8 s, jittered ±25 % so clients do not retry
    in step, rounded to a whole ms."""
    base = min(BACKOFF_INITIAL_MS * BACKOFF_FACTOR**retry, BACKOFF_MAX_MS)
    # Half up, as JavaScript's Math.round, not Python's round-half-even: both SDKs wait the same.
    return math.floor(base * (1 - BACKOFF_JITTER + 2 * BACKOFF_JITTER * rand()) + 0.5)


def retry_after(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[int]:
    """The server's requested wait in whole ms (rounded up) from the first wait header that parses
    (`retry-after-ms`, then `Retry-After` as seconds or an HTTP date); None when none does or the wait
    is negative or over 60 s. Header names are lower case, as the transports keep them."""
    for header in WAIT_HEADERS:
        value = headers.get(header.name, "").strip()
        if not value:
            continue
        delay: Optional[float] = None
        if _WAIT_NUMBER.match(value):
            delay = float(value) * (1000 if header.unit == "s" else 1)
        elif header.http_date and _WAIT_HTTP_DATE.match(value):
            # Only a real date: one that prints back as itself (not Feb 30, not a wrong weekday).
            try:
                when = parsedate_to_datetime(value)
            except (TypeError, ValueError, IndexError):
                continue
            if format_datetime(when, usegmt=True) != value:
                continue
            delay = (when.timestamp() - (time.time() if now is None else now)) * 1000
        if delay is None:
            continue
        return None if delay < 0 or delay > MAX_RETRY_AFTER_MS else math.ceil(delay)
    return None


def retry_delay(headers: Optional[Mapping[str, str]], retry: int, rand: Callable[[], float] = random.random) -> int:
    """The wait in ms before retry number `retry` (0-based): the server's when sensible, else the backoff."""
    wait = retry_after(headers) if headers is not None else None
    return wait if wait is not None else backoff_delay(retry, rand)
