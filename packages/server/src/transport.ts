import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '@openmates/contract';
import { Refusal } from './refusal.ts';

/**
 * Reads a JSON request body's text under the 64 KiB limit: refuses 415 (not JSON) or 413 (declared
 * over the limit) before reading, and 413 as soon as what arrives passes the limit (a chunked body
 * declares no length; node:http holds a declared one to its `Content-Length`). The one body reader
 * of the server: every route that takes a body gets it from here, before its operation runs.
 */
export function readBody(request: IncomingMessage): Promise<string> {
  checkBodyHeaders(request.headers['content-type'], request.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        request.off('data', onData);
        // The rest is never read: the answer closes the connection rather than drain it.
        reject(tooLarge({ connection: 'close' }));
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('error', reject);
    request.once('end', () => resolve(decodeBody(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))));
  });
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

/** One decoder for the process: a `decode` without `stream` keeps no state from one call to the next. */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** A body's bytes as text: UTF-8, lenient (malformed sequences become U+FFFD), a leading BOM dropped. */
export function decodeBody(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

function tooLarge(headers: Record<string, string> = {}): Refusal {
  return new Refusal('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`, {
    headers,
  });
}
