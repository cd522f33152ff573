import { MAX_BODY_BYTES } from '@openmates/contract';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { Refusal } from './refusal.ts';

/** Hono's body limit, for a body that declares no length: 413 as soon as what arrives passes the limit. */
const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  // The rest is never read: the answer closes the connection rather than drain it.
  onError: () => {
    throw tooLarge({ connection: 'close' });
  },
});

/**
 * Reads a JSON request body's text under the 64 KiB limit: refuses 415 (not JSON) or 413 (declared
 * over the limit) before reading, and 413 as soon as a body without a declared length passes the
 * limit (node:http holds a declared one to its `Content-Length`). The one body reader of the
 * server: every route that takes a body gets it from here, before its operation runs. The text is
 * UTF-8, lenient (malformed sequences become U+FFFD), a leading BOM dropped (the fetch API's `text()`).
 */
export async function readBody(c: Context): Promise<string> {
  const length = c.req.header('content-length');
  checkBodyHeaders(c.req.header('content-type'), length);
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) await limit(c, async () => {});
  return c.req.text();
}

/**
 * Checks a JSON body's headers before it is read: refuses 415 (not JSON) or 413 (declared over the
 * limit).
 */
export function checkBodyHeaders(contentType: string | undefined, contentLength: string | undefined): void {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && !type?.endsWith('+json'))
    throw new Refusal(
      'unsupported_media_type',
      'The request body must be JSON sent as Content-Type: application/json.',
    );
  const declared = Number(contentLength);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
}

function tooLarge(headers: Record<string, string> = {}): Refusal {
  return new Refusal('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`, {
    headers,
  });
}
