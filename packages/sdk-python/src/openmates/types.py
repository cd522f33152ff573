"""The contract's types, for annotations: ``from openmates.types import WebSearchResponse``."""

from ._generated import (
    ErrorCode,
    ErrorResponse,
    GroupError,
    GroupErrorCode,
    Issue,
    MetaUrl,
    RequestId,
    ResultGroup,
    SearchBudget,
    SkillInfo,
    WebSearchRequest,
    WebSearchRequestItem,
    WebSearchResponse,
    WebSearchResult,
)

__all__ = [
    "ErrorCode",
    "ErrorResponse",
    "GroupError",
    "GroupErrorCode",
    "Issue",
    "MetaUrl",
    "RequestId",
    "ResultGroup",
    "SearchBudget",
    "SkillInfo",
    "WebSearchRequest",
    "WebSearchRequestItem",
    "WebSearchResponse",
    "WebSearchResult",
]
