import { MAX_BODY_BYTES } from '@openmates/contract';
import { EngineError, parseJsonBody } from '@openmates/core';

/** Reads a JSON request body (`readBodyText`) and parses it; rejects with EngineError 415, 413 or 400. */
export async function readJsonBody(request: Request, lengthEnforced = false): Promise<unknown> {
  return parseJsonBody(await readBodyText(request, lengthEnforced));
}

/**
 * Reads a JSON request body's text under the 64 KiB limit, enforced while reading (a lying or
 * absent Content-Length cannot get past it). With `lengthEnforced` (the body comes through
 * node:http, whose parser never passes more than the declared Content-Length), a declared length
 * within the limit is read whole, without a web stream. Rejects with EngineError 415 or 413.
 */
export async function readBodyText(request: Request, lengthEnforced = false): Promise<string> {
  const length = request.headers.get('content-length');
  if (checkBodyHeaders(request.headers.get('content-type'), length) && lengthEnforced)
    return decodeBody(new Uint8Array(await request.arrayBuffer()));
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return decodeBody(Buffer.concat(chunks));
}

/**
 * Checks a JSON body's headers before it is read: rejects with EngineError 415 (not JSON) or 413
 * (declared over the limit). True when a length within the limit is declared as plain digits.
 */
export function checkBodyHeaders(
  contentType: string | null | undefined,
  contentLength: string | null | undefined,
): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && !type?.endsWith('+json'))
    throw new EngineError(
      'unsupported_media_type',
      'The request body must be JSON sent as Content-Type: application/json.',
    );
  const declared = Number(contentLength);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
  return contentLength != null && /^\d+$/.test(contentLength.trim());
}

/** One decoder for the process: a `decode` without `stream` keeps no state from one call to the next. */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** A body's bytes as text: UTF-8, lenient (malformed sequences become U+FFFD), a leading BOM dropped. */
export function decodeBody(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

function tooLarge(): EngineError {
  return new EngineError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
}
