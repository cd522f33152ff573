import type { GroupErrorCode } from '@openmates/contract';
import { ProviderError } from '../../provider.ts';
import { statusError } from '../shared/json-answer.ts';

/** The statuses whose cause is an instance setting, with the code and the message that names it. */
const OWN_REFUSALS: Readonly<Record<number, readonly [GroupErrorCode, string]>> = {
  401: [
    'provider_auth',
    'SearXNG refused the credentials (HTTP 401): check the user and password in SEARXNG_BASE_URL.',
  ],
  403: [
    'provider_error',
    'SearXNG refused JSON output (HTTP 403): add json to search.formats in the instance’s settings.yml.',
  ],
  404: [
    'provider_error',
    'SearXNG has no search endpoint at this address (HTTP 404): check the sub-path in SEARXNG_BASE_URL.',
  ],
  429: [
    'provider_rate_limited',
    'SearXNG’s limiter refused this server (HTTP 429): turn the instance’s server.limiter setting off, or add this server’s address to its pass list (botdetection.ip_lists.pass_ip).',
  ],
};

/** Our message for a status SearXNG (or a proxy in front of it) answered with: its own where the cause is an instance setting, else the pipeline's. */
export function ownStatusError(status: number): ProviderError {
  const own = OWN_REFUSALS[status];
  if (own) return new ProviderError(own[0], own[1], { status });
  if (status >= 300 && status < 400)
    return new ProviderError(
      'provider_error',
      `SearXNG answered with a redirect (HTTP ${status}): an external !! bang in the query, or a base URL that moved.`,
      { status },
    );
  return statusError('SearXNG', status);
}

/** What to do about a refusal, for `openmates doctor`. */
export function fixFor(error: ProviderError): string {
  switch (error.code) {
    case 'provider_auth':
      return 'Put the proxy’s user and password in SEARXNG_BASE_URL (https://user:password@host/path).';
    case 'provider_rate_limited':
      return 'Set server.limiter: false in the instance’s settings.yml, or add this server’s address to botdetection.ip_lists.pass_ip.';
    case 'provider_unavailable':
    case 'provider_timeout':
      return 'Check that the instance is running and SEARXNG_BASE_URL points at it.';
    default:
      return error.status === 403
        ? 'Add json to search.formats in the instance’s settings.yml (formats: [html, json]) and restart it.'
        : 'Point SEARXNG_BASE_URL at the instance itself, with its sub-path (the URL its search page is under).';
  }
}
