"""The core the sync and async clients share: settings, request building, proxy routing, reading an
answer into a result or an error, and when and how long to wait before another attempt.

The two transports (`_http_sync`, `_http_async`) only move bytes; every decision is made here once.
"""

import base64
import json
import os
import platform
import random
import re
import time
import urllib.parse
import urllib.request
from email.utils import parsedate_to_datetime
from typing import Dict, Mapping, NamedTuple, Optional, Tuple, cast

from ._exceptions import APIConnectionError, APIError, APITimeoutError, OpenMatesError, make_status_error
from ._generated import DEFAULT_BASE_URL
from ._version import __version__

DEFAULT_TIMEOUT = 60.0
"""Seconds one attempt may take, reading the body included: longer than any server deadline."""
DEFAULT_MAX_RETRIES = 2
"""Further attempts after a 429, a 503 or a connection failure."""

JSON = "application/json"
EVENT_STREAM_OR_JSON = "text/event-stream, application/json;q=0.5"
"""The `Accept` of `search_stream`: the event stream, else the JSON answer (a refusal is JSON anyway)."""

_INITIAL_DELAY = 0.5
_MAX_BACKOFF = 8.0
_JITTER = 0.25
MAX_RETRY_AFTER = 60.0
"""A server's `Retry-After` longer than this (seconds) is ignored in favour of the backoff."""

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


class Call(NamedTuple):
    """One API call: the request, the timeout of each attempt and how many more attempts it may take."""

    request: PreparedRequest
    timeout: float
    max_retries: int

    def wait_before_retry(self, failure: OpenMatesError, retry: int) -> float:
        """The wait before attempt `retry + 2` after `failure`; raises `failure` when there is none to
        make: it is not retried (a timeout, a 400-class answer, a 500 or 502) or the retries are spent."""
        headers: Optional[Mapping[str, str]] = None
        if isinstance(failure, APITimeoutError) or not isinstance(failure, (APIConnectionError, APIError)):
            raise failure
        if isinstance(failure, APIError):
            if not is_retryable(failure):
                raise failure
            headers = failure.headers
        if retry >= self.max_retries:
            raise failure
        return retry_delay(headers, retry)


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
        key = api_key if api_key is not None else read_env("OPENMATES_API_KEY")
        self._api_key: Optional[str] = key or None
        if self._api_key is not None and not _HEADER_VALUE.match(self._api_key):
            raise OpenMatesError("api_key must not contain line breaks.")
        self.base_url, self._endpoint, self._prefix = check_base_url(
            base_url or read_env("OPENMATES_API_URL") or DEFAULT_BASE_URL
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
    """429 and 503 are worth another attempt; a 400-class answer will not change, and a 500 or 502 may
    already have cost provider calls."""
    return error.status in (429, 503)


def backoff_delay(retry: int) -> float:
    """Exponential backoff: 0.5 s × 2^retry, at most 8 s, jittered ±25 % so clients do not retry in step."""
    base = min(_INITIAL_DELAY * 2**retry, _MAX_BACKOFF)
    return base * (1 - _JITTER + 2 * _JITTER * random.random())


def retry_after(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[float]:
    """The server's requested wait in seconds from `retry-after-ms`, or `Retry-After` as seconds or an
    HTTP date; None when absent, unparsable, negative or over 60 s."""
    delay: Optional[float] = None
    ms = headers.get("retry-after-ms", "").strip()
    value = headers.get("retry-after", "").strip()
    if ms and re.fullmatch(r"\d+(\.\d+)?", ms):
        delay = float(ms) / 1000
    elif value and re.fullmatch(r"\d+(\.\d+)?", value):
        delay = float(value)
    elif value:
        try:
            delay = parsedate_to_datetime(value).timestamp() - (time.time() if now is None else now)
        except (TypeError, ValueError, IndexError):
            delay = None
    if delay is None or delay < 0 or delay > MAX_RETRY_AFTER:
        return None
    return delay


def retry_delay(headers: Optional[Mapping[str, str]], retry: int) -> float:
    """The wait before retry number `retry` (0-based): the server's `Retry-After` when sensible, else the backoff."""
    wait = retry_after(headers) if headers is not None else None
    return wait if wait is not None else backoff_delay(retry)
