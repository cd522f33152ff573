"""The caller's state under the server's per-key rate limit, read from an answer's `RateLimit` and
`RateLimit-Policy` headers (the IETF RateLimit fields)."""

import re
from typing import Mapping, NamedTuple, Optional

from ._generated_policy import RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER

__all__ = ["RateLimit", "parse_rate_limit"]

_POLICY_NAME = re.compile(r'^\s*"([^"]*)"')


class RateLimit(NamedTuple):
    """The state after one answer: the npm SDK's ``RateLimit`` with the same fields."""

    limit: int
    """Requests allowed per window."""
    remaining: int
    """Requests left in the current window."""
    reset_seconds: int
    """Seconds until the window resets."""
    policy: str
    """The policy's name (``per-key``)."""


def _parameter(value: str, name: str) -> Optional[int]:
    found = re.search(r";\s*" + name + r"=(\d+)", value)
    return int(found.group(1)) if found else None


def parse_rate_limit(headers: Mapping[str, str]) -> Optional[RateLimit]:
    """The state the headers (names lower-cased) carry; None when either is missing or malformed:
    the server's limit is off, or the answer was not counted."""
    policy_value = headers.get(RATE_LIMIT_POLICY_HEADER)
    state_value = headers.get(RATE_LIMIT_HEADER)
    if not policy_value or not state_value:
        return None
    limit = _parameter(policy_value, "q")
    remaining = _parameter(state_value, "r")
    reset = _parameter(state_value, "t")
    name = _POLICY_NAME.match(state_value)
    if limit is None or remaining is None or reset is None or name is None:
        return None
    return RateLimit(limit=limit, remaining=remaining, reset_seconds=reset, policy=name.group(1))
