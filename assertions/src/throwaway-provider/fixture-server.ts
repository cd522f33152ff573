import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '@openmates/fixtures';

/** Kestrel's fixture: a real server on loopback in Kestrel's wire format, recording the terms it got. */
export interface KestrelFixture {
  baseUrl: string;
  apiKey: string;
  /** The terms of every search it answered or refused, in order. */
  terms: string[];
  close(): Promise<void>;
}

const API_KEY = 'kestrel-fixture-key-0123456789';

/** The JSON object a request carried, or undefined. */
async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the fixture. A search is a `POST /v2/search` of JSON with the fixture's key; every query
 * has 30 hits titled `Kestrel: <terms> <n>`; a query whose first word is `down` is answered with a
 * 503, as an origin that is down would.
 */
export async function startFixture(): Promise<KestrelFixture> {
  const terms: string[] = [];
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://kestrel');
    if (url.pathname !== '/v2/search') return send(res, 404, { error: 'not found' });
    if (req.method !== 'POST') return send(res, 405, { error: 'POST only' });
    if (req.headers.authorization !== `Bearer ${API_KEY}`) return send(res, 401, { error: 'bad key' });
    if (!req.headers['content-type']?.startsWith('application/json')) return send(res, 415, { error: 'JSON only' });
    const body = await jsonBody(req);
    if (!body || typeof body.terms !== 'string') return send(res, 400, { error: 'terms' });
    const q = body.terms;
    const size = typeof body.size === 'number' ? body.size : 10;
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    terms.push(q);
    if (q.split(' ')[0] === 'down') return send(res, 503, { error: 'unavailable' });
    const items = Array.from({ length: Math.max(0, Math.min(size, 30 - offset)) }, (_, k) => offset + k).map((n) => ({
      href: `https://kestrel.example.org/${encodeURIComponent(q)}/${n}`,
      heading: `Kestrel: ${q} ${n}`,
      snippet: `Hit ${n} for ${q}`,
    }));
    send(res, 200, { items, more: offset + size < 30 });
  };
  const { server, port } = await listenOnLoopback(handle, (res) => send(res, 500, { error: 'fixture' }));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: API_KEY,
    terms,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The variables that point the provider at `fixture`. */
export function fixtureEnvironment(fixture: KestrelFixture): Record<string, string> {
  return { KESTREL_BASE_URL: fixture.baseUrl, KESTREL_API_KEY: fixture.apiKey };
}

/** The titles of the first `count` hits the fixture answers `query` with. */
export function expectedTitles(query: string, count: number): string[] {
  return Array.from({ length: count }, (_, n) => `Kestrel: ${query} ${n}`);
}
