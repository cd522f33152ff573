"""The errors this SDK raises: one class per HTTP status, mirroring the npm SDK's names and fields.

Every class derives from `OpenMatesError`; none shadows a Python built-in (`APIConnectionError`,
not `ConnectionError`; `APITimeoutError`, not `TimeoutError`). No message ever holds the API key:
messages are built from the server's answer (which the server redacts) or from the failure's kind.
"""

import re
from typing import Any, Dict, List, Mapping, Optional, Type, cast

from ._generated import ErrorCode, Issue, WebSearchResponse
from ._generated_policy import ERROR_CLASS_FALLBACK_OTHER, ERROR_CLASS_FALLBACK_SERVER_ERROR, ERROR_CLASSES
from ._rate_limit import RateLimit, parse_rate_limit

__all__ = [
    "OpenMatesError",
    "APIError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "MethodNotAllowedError",
    "PayloadTooLargeError",
    "UnsupportedMediaTypeError",
    "RateLimitError",
    "InternalServerError",
    "ProviderError",
    "ServiceUnavailableError",
    "APIConnectionError",
    "APITimeoutError",
]

_MAX_ISSUES_IN_MESSAGE = 3


class OpenMatesError(Exception):
    """The base class of every error this SDK raises (a caller's cancellation excepted)."""


class APIError(OpenMatesError):
    """The server answered with a non-2xx status. Subclasses name the status; `make_status_error` picks one."""

    status: int
    """The HTTP status."""
    code: Optional[ErrorCode]
    """The contract's error code, when the body carries one."""
    issues: List[Issue]
    """What was wrong with the request, one entry per problem (400 only; empty otherwise)."""
    request_id: Optional[str]
    """The server's request id (body `request_id` or the `x-request-id` header), for support."""
    headers: Mapping[str, str]
    """The response headers, names lower-cased."""
    body: object
    """The parsed JSON body, or its text when it was not JSON, or None when empty."""
    message: str
    """One line: the status, the code, the server's message and the first few issues."""
    rate_limit: Optional[RateLimit]
    """The caller's rate-limit state after this answer (on a 429: ``remaining`` 0); None when the
    call was not counted."""

    def __init__(self, status: int, body: object, headers: Mapping[str, str]) -> None:
        fields = _contract_fields(body)
        self.message = _error_message(status, fields)
        super().__init__(self.message)
        self.status = status
        self.code = cast(Optional[ErrorCode], fields["code"])
        self.issues = cast(List[Issue], fields["issues"])
        request_id = fields["request_id"]
        self.request_id = request_id if isinstance(request_id, str) else headers.get("x-request-id")
        self.headers = headers
        self.body = body
        self.rate_limit = parse_rate_limit(headers)


class BadRequestError(APIError):
    """400 `invalid_request`: `issues` names each broken rule by path. Never retried."""


class AuthenticationError(APIError):
    """401 `unauthorized`: the server wants an API key and none or a wrong one came. Never retried."""


class PermissionDeniedError(APIError):
    """403 `forbidden`: the request's `Origin` or `Host` is not one the server allows (its MCP endpoint). Never retried."""


class NotFoundError(APIError):
    """404 `not_found`: no such route (is `base_url` the server's origin?)."""


class MethodNotAllowedError(APIError):
    """405 `method_not_allowed`."""


class PayloadTooLargeError(APIError):
    """413 `payload_too_large`: the body is over 64 KiB."""


class UnsupportedMediaTypeError(APIError):
    """415 `unsupported_media_type`."""


class RateLimitError(APIError):
    """429 `rate_limited`: this key's rate limit; retried, honouring `Retry-After`, before it is raised."""


class InternalServerError(APIError):
    """500 `internal_error`, or any other 5xx not from an OpenMates server (such as a proxy's). Never retried."""


class ProviderError(APIError):
    """502: every result group failed at the search provider. Never retried.

    `response` is the full WebSearchResponse, each group's `error` set, so a caller handles search
    outcomes with one shape.
    """

    response: WebSearchResponse
    """The full search response, every group carrying its `error`."""

    def __init__(self, status: int, body: object, headers: Mapping[str, str]) -> None:
        super().__init__(status, body, headers)
        self.response = cast(WebSearchResponse, body)


class ServiceUnavailableError(APIError):
    """503 `not_configured`: the server's provider cannot serve; retried before it is raised."""


class APIConnectionError(OpenMatesError):
    """No answer came: the connection failed or dropped. Retried before it is raised."""

    message: str
    """What went wrong, in one line."""

    def __init__(self, message: Optional[str] = None, *, cause: Optional[BaseException] = None) -> None:
        self.message = message or f"Could not reach the OpenMates server{_cause_detail(cause)}."
        super().__init__(self.message)


class APITimeoutError(APIConnectionError):
    """No answer came within `timeout`. Not retried: the server may already have searched."""

    def __init__(self, timeout: float, *, idle: bool = False) -> None:
        if idle:
            super().__init__(f"The OpenMates server's event stream sent nothing for {timeout:g} s.")
        else:
            super().__init__(f"The OpenMates server did not answer within {timeout:g} s.")


ERROR_CLASSES_BY_NAME: Dict[str, Type[OpenMatesError]] = {
    cls.__name__: cls
    for cls in (
        OpenMatesError,
        APIError,
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        MethodNotAllowedError,
        PayloadTooLargeError,
        UnsupportedMediaTypeError,
        RateLimitError,
        InternalServerError,
        ProviderError,
        ServiceUnavailableError,
        APIConnectionError,
        APITimeoutError,
    )
}
"""Every class of the contract's table, by name (a test checks each row has its class)."""


def _api_error_class(name: str) -> Type[APIError]:
    cls = ERROR_CLASSES_BY_NAME[name]
    if not issubclass(cls, APIError):
        raise TypeError(f"the contract's error table raises {name} for a status, which is not an APIError")
    return cls


def make_status_error(status: int, body: object, headers: Mapping[str, str]) -> APIError:
    """The error for a non-2xx answer: the class the contract's table names for its status (a 502's
    only when its body is a WebSearchResponse), else InternalServerError for a 5xx, else APIError."""
    row = next((row for row in ERROR_CLASSES if row.status == status), None)
    if row is not None and (row.body is None or _is_web_search_response(body)):
        name = row.name
    else:
        name = ERROR_CLASS_FALLBACK_SERVER_ERROR if status >= 500 else ERROR_CLASS_FALLBACK_OTHER
    return _api_error_class(name)(status, body, headers)


def _contract_fields(body: object) -> Dict[str, Any]:
    """The `{ error, code, issues, request_id }` fields an ErrorResponse or a 502 WebSearchResponse carries."""
    record: Mapping[str, object] = cast(Mapping[str, object], body) if isinstance(body, dict) else {}
    error = record.get("error")
    code = record.get("code")
    request_id = record.get("request_id")
    issues = record.get("issues")
    return {
        "error": error if isinstance(error, str) else None,
        "code": code if isinstance(code, str) else None,
        "issues": [i for i in cast(List[object], issues) if _is_issue(i)] if isinstance(issues, list) else [],
        "request_id": request_id if isinstance(request_id, str) else None,
    }


def _error_message(status: int, fields: Mapping[str, Any]) -> str:
    code = f" {fields['code']}" if fields["code"] else ""
    error = fields["error"] or "the server answered without an error message"
    message = f"{status}{code}: {error}"
    issues = cast(List[Issue], fields["issues"])
    if issues:
        shown = [f"{i['path']}: {i['message']}" if i["path"] else i["message"] for i in issues[:_MAX_ISSUES_IN_MESSAGE]]
        more = len(issues) - len(shown)
        message += f" ({'; '.join(shown)}{f'; and {more} more' if more > 0 else ''})"
    return re.sub(r"\s+", " ", message)


def _cause_detail(cause: Optional[BaseException]) -> str:
    if cause is None:
        return ""
    detail = type(cause).__name__
    reason = getattr(cause, "strerror", None) or getattr(cause, "reason", None) or str(cause)
    if isinstance(reason, str) and reason:
        detail = f"{detail}: {reason}"
    return re.sub(r"\s+", " ", f": {detail}")


def _is_issue(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    record = cast(Mapping[str, object], value)
    return isinstance(record.get("path"), str) and isinstance(record.get("message"), str)


def _is_web_search_response(body: object) -> bool:
    if not isinstance(body, dict):
        return False
    record = cast(Mapping[str, object], body)
    return isinstance(record.get("results"), list) and isinstance(record.get("provider"), str)
