import { describe, expect, it } from 'vitest';
import { type OwnRefusals, statusError } from './status-errors.ts';

describe('the status table', () => {
  it.each([
    [401, 'provider_auth', 'Acme rejected the API key (HTTP 401).'],
    [403, 'provider_auth', 'Acme rejected the API key (HTTP 403).'],
    [408, 'provider_timeout', 'Acme did not answer in time (HTTP 408).'],
    [504, 'provider_timeout', 'Acme did not answer in time (HTTP 504).'],
    [429, 'provider_rate_limited', 'Acme is rate limiting this server; retry later.'],
    [502, 'provider_unavailable', 'Acme is unavailable (HTTP 502).'],
    [503, 'provider_unavailable', 'Acme is unavailable (HTTP 503).'],
    [500, 'provider_error', 'Acme failed (HTTP 500).'],
    [301, 'provider_error', 'Acme answered with a redirect (HTTP 301).'],
    [400, 'provider_error', 'Acme refused the request (HTTP 400).'],
  ])('words %i as %s, in the provider’s name', (status, code, message) => {
    const error = statusError('Acme', status, { retryAfterMs: 2_000 });
    expect([error.code, error.message, error.status]).toEqual([code, message, status]);
    expect(error.retryAfterMs).toBe(status === 429 ? 2_000 : undefined);
  });

  const own: OwnRefusals = {
    errorCodeAt: ['error', 'code'],
    statuses: {
      404: { code: 'provider_error', message: 'Acme has no search here (HTTP {status}).' },
      422: { code: 'provider_auth', message: 'Acme rejected the key (HTTP {status}).', errorCode: /TOKEN/ },
    },
    redirect: 'Acme moved (HTTP {status}).',
  };

  it('takes a provider’s own wording where it has one, and the table’s elsewhere', () => {
    expect(statusError('Acme', 404, { own }).message).toBe('Acme has no search here (HTTP 404).');
    expect(statusError('Acme', 307, { own }).message).toBe('Acme moved (HTTP 307).');
    expect(statusError('Acme', 504, { own }).code).toBe('provider_timeout');
  });

  it('applies a refusal tied to an error code only when the body names it, keeping the code (never text) for logs', () => {
    const keyed = statusError('Acme', 422, { own, body: { error: { code: 'TOKEN_INVALID', detail: 'secret' } } });
    expect([keyed.code, String(keyed.cause)]).toEqual(['provider_auth', 'Error: Acme error code TOKEN_INVALID']);
    const other = statusError('Acme', 422, { own, body: { error: { code: 'BAD_PARAM' } } });
    expect([other.code, other.message]).toEqual(['provider_error', 'Acme refused the request (HTTP 422).']);
    const text = statusError('Acme', 422, { own, body: { error: { code: 'free text with the key' } } });
    expect(text.cause).toBeUndefined();
  });
});
