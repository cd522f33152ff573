export type { WithResponse } from './api-promise.ts';
export { APIPromise } from './api-promise.ts';
export type { APIRequest, ClientOptions, RequestOptions, RetryInfo, UsageResult } from './client.ts';
export { OpenMates } from './client.ts';
export {
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
} from './generated/errors.ts';
export type {
  components,
  ErrorCode,
  ErrorResponse,
  GroupError,
  GroupErrorCode,
  Issue,
  MetaUrl,
  operations,
  paths,
  RequestId,
  ResultGroup,
  SearchStreamDoneEvent,
  SearchStreamErrorEvent,
  SearchStreamEvent,
  SearchStreamGroupEvent,
  SkillInfo,
  WebSearchRequest,
  WebSearchRequestItem,
  WebSearchResponse,
  WebSearchResult,
} from './generated/openapi.ts';
export { API_VERSION, CONTRACT_FINGERPRINT, DEFAULT_BASE_URL, SEARCH_PATH } from './generated/openapi.ts';
export type { RateLimit } from './rate-limit.ts';
export { SearchStream } from './search-stream.ts';
export { VERSION } from './version.ts';
export type { SearchParams, SearchResult, SkillInfoResult } from './web-app.ts';
export { WebApp } from './web-app.ts';
