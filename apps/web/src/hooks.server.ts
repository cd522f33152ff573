import { isApiPath } from '@openmates/contract';
import type { Handle, HandleFetch } from '@sveltejs/kit/hooks';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Guards form posts whose Origin is `null` (see `csrf` in vite.config.ts), then sets security
 * headers for every page. The Content-Security-Policy itself comes from the `csp` option
 * in vite.config.ts, which hashes SvelteKit's own inline scripts.
 */
export const handle: Handle = async ({ event, resolve }) => {
  const { request } = event;
  if (
    !SAFE_METHODS.has(request.method) &&
    request.headers.get('origin') === 'null' &&
    request.headers.get('sec-fetch-site') !== 'same-origin'
  )
    return new Response('Cross-site form submissions are forbidden', { status: 403 });
  const response = await resolve(event);
  response.headers.set('referrer-policy', 'no-referrer');
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('cross-origin-opener-policy', 'same-origin');
  response.headers.set('cross-origin-resource-policy', 'same-origin');
  response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
  return response;
};

/**
 * SvelteKit answers same-origin `fetch` calls from its own router, which does not know the API
 * mounted beside it: calls to the API's paths (the contract's route table, the very test
 * `openmates serve` routes past SvelteKit with) always go out over HTTP to the server instead.
 */
export const handleFetch: HandleFetch = async ({ request, fetch }) => {
  const { pathname } = new URL(request.url);
  return isApiPath(pathname) ? globalThis.fetch(request) : fetch(request);
};
