import type { GroupErrorCode } from '@openmates/contract';
import { ProviderError } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';

// The one table from what went wrong in an exchange to the group error a caller sees, for every
// HTTP provider (ADR 0113). Every message is ours and names the provider: upstream text never
// reaches a caller.

/** A refusal a provider words its own way. */
export interface OwnRefusal {
  readonly code: GroupErrorCode;
  /** Our message (never upstream text); `{status}` is replaced by the status. */
  readonly message: string;
  /** Applies only when the refusal's JSON body names a provider error code this matches (see `errorCodeAt`). */
  readonly errorCode?: RegExp;
}

/** What a provider's own refusals mean, as data; everything else takes the table's wording. */
export interface OwnRefusals {
  /** Per status, in place of the table's wording. */
  readonly statuses?: Readonly<Record<number, OwnRefusal>>;
  /** Said of any redirect (3xx); `{status}` is replaced by the status. */
  readonly redirect?: string;
  /**
   * Where a refusal's JSON body names the provider's error code, as a path of keys (Brave's
   * `error.code`). The code, when it is an identifier, is kept as the error's cause for logs.
   */
  readonly errorCodeAt?: readonly string[];
}

/** Why an exchange failed before a status could say anything. */
export type ExchangeFailure = 'unreachable' | 'too_large' | 'closed' | 'not_json' | 'malformed' | 'shape';

/**
 * The error of an exchange that failed before or while its answer was read; `own` is the provider's
 * wording of it, when it has one (SearXNG's for a web page in place of JSON).
 */
export function exchangeError(
  name: string,
  failure: ExchangeFailure,
  options: { status?: number; cause?: unknown; own?: string | undefined } = {},
): ProviderError {
  const [code, message] = EXCHANGE_FAILURES[failure];
  const { own, ...details } = options;
  return new ProviderError(code, own ?? `${name} ${message}`, details);
}

const EXCHANGE_FAILURES: Readonly<Record<ExchangeFailure, readonly [GroupErrorCode, string]>> = {
  unreachable: ['provider_unavailable', 'could not be reached.'],
  closed: ['provider_unavailable', 'closed the connection mid-answer.'],
  too_large: ['provider_error', 'sent an answer too large to read.'],
  not_json: ['provider_error', 'answered with something other than JSON.'],
  malformed: ['provider_error', 'sent malformed JSON.'],
  shape: ['provider_error', 'sent an answer of an unexpected shape.'],
};

/** A call that ran past its timeout (the pipeline's own, not a status). */
export const CALL_TIMEOUT = {
  code: 'provider_timeout',
  message: 'The search provider did not answer in time.',
} as const satisfies { code: GroupErrorCode; message: string };

/** The provider's error code at `path` in a refusal's body, when it is an identifier. */
function errorCodeOf(body: unknown, path: readonly string[] | undefined): string | undefined {
  if (path === undefined) return undefined;
  let at: unknown = body;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  return typeof at === 'string' && /^[A-Z_]{1,64}$/.test(at) ? at : undefined;
}

/**
 * The error for a status no retry answered: the provider's own wording where `own` has one, else
 * 401/403 the credentials, 408 and 504 a timeout (the provider, or a gateway before it, gave up
 * waiting), 429 the rate limit with the wait it named, 502/503 unavailable, a redirect, another 5xx
 * failed, anything else refused. `body` is the refusal's JSON when it sent some.
 */
export function statusError(
  name: string,
  status: number,
  options: { retryAfterMs?: number | undefined; own?: OwnRefusals | undefined; body?: unknown } = {},
): ProviderError {
  const { own, retryAfterMs } = options;
  const providerCode = errorCodeOf(options.body, own?.errorCodeAt);
  const details = {
    status,
    ...(providerCode === undefined ? {} : { cause: new Error(`${name} error code ${providerCode}`) }),
    ...(status === 429 && retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
  const mine = own?.statuses?.[status];
  if (mine !== undefined && (mine.errorCode === undefined || mine.errorCode.test(providerCode ?? '')))
    return new ProviderError(mine.code, filled(mine.message, status), details);
  const [code, message] = tableEntry(name, status, own?.redirect);
  return new ProviderError(code, message, details);
}

const filled = (message: string, status: number) => message.replaceAll('{status}', String(status));

function tableEntry(name: string, status: number, redirect: string | undefined): [GroupErrorCode, string] {
  if (status === 401 || status === 403) return ['provider_auth', `${name} rejected the API key (HTTP ${status}).`];
  if (status === 408 || status === 504) return ['provider_timeout', `${name} did not answer in time (HTTP ${status}).`];
  if (status === 429) return ['provider_rate_limited', `${name} is rate limiting this server; retry later.`];
  if (status === 502 || status === 503) return ['provider_unavailable', `${name} is unavailable (HTTP ${status}).`];
  if (status >= 300 && status < 400)
    return ['provider_error', filled(redirect ?? `${name} answered with a redirect (HTTP {status}).`, status)];
  if (status >= 500) return ['provider_error', `${name} failed (HTTP ${status}).`];
  return ['provider_error', `${name} refused the request (HTTP ${status}).`];
}
