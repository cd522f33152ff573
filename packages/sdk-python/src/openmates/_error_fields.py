"""What the generated error classes (`_exceptions.py`) read from an answer or a failure: the
contract's fields of a non-2xx body, the one-line messages, and which class a status raises.

No message ever holds the API key: messages are built from the server's answer (which the server
redacts) or from the failure's kind.
"""

import re
from typing import Dict, List, Mapping, NamedTuple, Optional, cast

from ._generated import ErrorCode, Issue
from ._generated_policy import ERROR_CLASS_FALLBACK_OTHER, ERROR_CLASS_FALLBACK_SERVER_ERROR, ERROR_CLASSES
from ._rate_limit import RateLimit, parse_rate_limit

__all__ = ["AnswerFields", "answer_fields", "connection_message", "error_class_name", "timeout_message"]

_MAX_ISSUES_IN_MESSAGE = 3


class AnswerFields(NamedTuple):
    """What an APIError carries of its answer, and its message."""

    message: str
    code: Optional[ErrorCode]
    issues: List[Issue]
    request_id: Optional[str]
    rate_limit: Optional[RateLimit]


def answer_fields(status: int, body: object, headers: Mapping[str, str]) -> AnswerFields:
    """The `{ error, code, issues, request_id }` fields an ErrorResponse or a 502 WebSearchResponse
    carries, the rate-limit state of the headers, and the message."""
    record: Mapping[str, object] = cast(Mapping[str, object], body) if isinstance(body, dict) else {}
    raw_error = record.get("error")
    raw_code = record.get("code")
    request_id = record.get("request_id")
    raw_issues = record.get("issues")
    error = raw_error if isinstance(raw_error, str) else None
    code = cast(Optional[ErrorCode], raw_code if isinstance(raw_code, str) else None)
    issues = (
        [cast(Issue, i) for i in cast(List[object], raw_issues) if _is_issue(i)] if isinstance(raw_issues, list) else []
    )
    return AnswerFields(
        message=_error_message(status, error, code, issues),
        code=code,
        issues=issues,
        request_id=request_id if isinstance(request_id, str) else headers.get("x-request-id"),
        rate_limit=parse_rate_limit(headers),
    )


def error_class_name(status: int, body: object) -> str:
    """The class a non-2xx answer raises: the one the contract's table names for its status (a 502's
    only when its body is a WebSearchResponse), else the server-error fallback for a 5xx, else APIError."""
    fields = cast(Dict[str, object], body) if isinstance(body, dict) else {}
    code = fields.get("code")
    # A row naming a code is raised for that code alone (`quota_exceeded` apart from `rate_limited`).
    row = next(
        (row for row in ERROR_CLASSES if row.status == status and (row.code is None or row.code == code)),
        None,
    )
    if row is not None and (row.body is None or _is_web_search_response(cast(object, body))):
        return row.name
    return ERROR_CLASS_FALLBACK_SERVER_ERROR if status >= 500 else ERROR_CLASS_FALLBACK_OTHER


def connection_message(cause: Optional[BaseException], url: Optional[str] = None) -> str:
    """An APIConnectionError's message: the URL that could not be reached, and why when the cause says."""
    return f"Could not reach the OpenMates server{_at(url)}{_cause_detail(cause)}."


def timeout_message(timeout: float, idle: bool, url: Optional[str] = None) -> str:
    """An APITimeoutError's message: no answer in time from the URL, or an event stream gone silent."""
    if idle:
        return f"The OpenMates server's event stream{_at(url)} sent nothing for {timeout:g} s."
    return f"The OpenMates server{_at(url)} did not answer within {timeout:g} s."


def _at(url: Optional[str]) -> str:
    return f" at {url}" if url else ""


def _error_message(status: int, error: Optional[str], code: Optional[str], issues: List[Issue]) -> str:
    message = f"{status}{f' {code}' if code else ''}: {error or 'the server answered without an error message'}"
    # An issue the server's message already says (its summary names the first) is said once.
    said = [f"{i['path']}: {i['message']}" if i["path"] else i["message"] for i in issues]
    unsaid = [text for text in said if text not in message]
    if unsaid:
        shown = unsaid[:_MAX_ISSUES_IN_MESSAGE]
        more = len(unsaid) - len(shown)
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
