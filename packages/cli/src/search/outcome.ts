import {
  ERROR_TABLE,
  type ErrorCode,
  type ErrorResponse,
  exitCode,
  type ResultGroup,
  searchExitCode,
  type WebSearchResponse,
} from '@openmates/contract';

/** What one `openmates search` produced, in either mode. */
export type SearchOutcome =
  /** A search ran: every group succeeded, or some (200) or all (502) failed at the provider. */
  | { kind: 'response'; response: WebSearchResponse }
  /** The request was refused or could not be served: an ErrorResponse (4xx, 503, 500). */
  | { kind: 'error'; body: ErrorResponse }
  /** No answer at all: the server could not be reached or did not answer in time. */
  | { kind: 'unreachable'; message: string }
  /** The user interrupted it (Ctrl-C): the provider calls still running were aborted. */
  | { kind: 'aborted' };

/** How a search reports progress and is interrupted. */
export interface LiveOptions {
  /** Aborts the search and the provider calls still running. */
  signal?: AbortSignal;
  /** Called with each group as its query finishes (completion order, provisional). */
  onGroup?: (group: ResultGroup, index?: number) => void;
  /** Told, in one sentence, each time the search waits before trying again (`--api-url` only). */
  onWait?: (notice: string) => void;
  /** False (`--no-wait`): never wait; a `429` ends the search at once with its code. */
  wait?: boolean;
}

/** Exit code after Ctrl-C, as shells report a process ended by SIGINT (128 + 2). */
export const EXIT_INTERRUPTED = 130;

/** Exit code when a server could not be reached: no code of the contract applies (packages/cli/README.md). */
export const EXIT_UNREACHABLE = 1;

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code);
}

/** The exit code of an outcome, from the contract's table. */
export function outcomeExitCode(outcome: SearchOutcome): number {
  switch (outcome.kind) {
    case 'response':
      return searchExitCode(outcome.response.results);
    case 'error':
      return isErrorCode(outcome.body.code) ? exitCode(outcome.body.code) : exitCode('internal_error');
    case 'unreachable':
      return EXIT_UNREACHABLE;
    case 'aborted':
      return EXIT_INTERRUPTED;
  }
}

/** What to do next, appended to the one error line. */
const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'See `openmates search --help`.',
  unauthorized: 'Pass --api-key (or set OPENMATES_API_KEY) with a key the server accepts.',
  not_found: 'Check that --api-url is the server’s origin, e.g. http://127.0.0.1:8787.',
  method_not_allowed: 'Check that --api-url is the server’s origin, e.g. http://127.0.0.1:8787.',
  payload_too_large: 'Send a smaller --input.',
  unsupported_media_type: 'Check that --api-url points at an OpenMates server.',
  not_configured: 'Run `openmates doctor` to see what to set.',
  internal_error: 'This is a bug: rerun with OPENMATES_LOG_LEVEL=debug and report it.',
  provider_error: 'Run `openmates doctor` to check the provider.',
  provider_timeout: 'Retry, or raise OPENMATES_PROVIDER_TIMEOUT_MS.',
  provider_rate_limited: 'Wait for the provider’s rate limit to reset, then retry.',
  provider_auth: 'Run `openmates doctor`: the provider rejected the configured key.',
  provider_unavailable: 'Check network access to the provider, then retry (`openmates doctor`).',
};

/** One line: the message, flattened, and what to do next. */
export function errorLine(message: string, code?: string): string {
  const flat = message
    .replace(/\s*\n\s*/g, '; ')
    .trim()
    .replace(/([^.!?])$/, '$1.');
  const next = isErrorCode(code) ? NEXT_STEP[code] : undefined;
  return `openmates: ${flat}${next ? ` ${next}` : ''}`;
}
