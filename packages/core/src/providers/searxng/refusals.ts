import type { ProviderError } from '../../provider.ts';
import { type OwnRefusals, statusError } from '../shared/status-errors.ts';

/** The refusals whose cause is an instance setting, each with the message that names it. */
export const SEARXNG_REFUSALS: OwnRefusals = {
  statuses: {
    401: {
      code: 'provider_auth',
      message: 'SearXNG refused the credentials (HTTP 401): check the user and password in SEARXNG_BASE_URL.',
    },
    403: {
      code: 'provider_error',
      message: 'SearXNG refused JSON output (HTTP 403): add json to search.formats in the instance’s settings.yml.',
    },
    404: {
      code: 'provider_error',
      message: 'SearXNG has no search endpoint at this address (HTTP 404): check the sub-path in SEARXNG_BASE_URL.',
    },
    429: {
      code: 'provider_rate_limited',
      message:
        'SearXNG’s limiter refused this server (HTTP 429): turn the instance’s server.limiter setting off, or add this server’s address to its pass list (botdetection.ip_lists.pass_ip).',
    },
  },
  redirect:
    'SearXNG answered with a redirect (HTTP {status}): an external !! bang in the query, or a base URL that moved.',
};

/** Our message for a status SearXNG (or a proxy in front of it) answered with, for `openmates doctor`. */
export function ownStatusError(status: number): ProviderError {
  return statusError('SearXNG', status, { own: SEARXNG_REFUSALS });
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
