import { PATHS } from '@openmates/contract';
import { json } from '@sveltejs/kit';
import { UNREACHABLE } from '#lib/outcome.ts';
import { apiOrigin } from '#lib/server/api-client.ts';
import { KEY_COOKIE } from '#lib/server/key-cookie.ts';
import type { RequestHandler } from './$types';

/** Headers of the API's answer that the browser needs (the stream's own, and a refusal's). */
const RELAYED_HEADERS = ['content-type', 'cache-control', 'x-accel-buffering', 'x-request-id', 'retry-after'];

/**
 * The page's same-origin way to the API's event stream (ADR 0046): the body (a WebSearchRequest,
 * as the page's `load` built it) goes to the search route as it came, with the key from the
 * HttpOnly cookie added here, and the answer comes back as it is. The API alone validates, so a
 * refused request is its ordinary JSON 4xx, exactly what the form's server path would have got. A
 * browser that leaves (navigation, a new search) aborts the request, and with it the API's
 * stream and the provider calls still running.
 */
export const POST: RequestHandler = async (event) => {
  const { request, cookies, fetch } = event;
  const key = cookies.get(KEY_COOKIE);
  const headers = new Headers({ accept: 'text/event-stream' });
  const type = request.headers.get('content-type');
  if (type !== null) headers.set('content-type', type);
  if (key) headers.set('authorization', `Bearer ${key}`);
  let upstream: Response;
  try {
    upstream = await fetch(new URL(PATHS.search, apiOrigin(event)), {
      method: 'POST',
      headers,
      body: await request.arrayBuffer(),
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    if (error instanceof TypeError)
      return json({ error: UNREACHABLE.message, code: UNREACHABLE.code }, { status: 502 });
    throw error;
  }
  const relayed = new Headers();
  for (const name of RELAYED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) relayed.set(name, value);
  }
  return new Response(upstream.body, { status: upstream.status, headers: relayed });
};
