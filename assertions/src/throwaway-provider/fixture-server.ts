import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '@openmates/fixtures';

/** Kestrel's fixture: a real server on loopback in Kestrel's wire format, recording the terms it got. */
export interface KestrelFixture {
  baseUrl: string;
  /** The terms of every search it answered or refused, in order. */
  terms: string[];
  close(): Promise<void>;
}

/**
 * Starts the fixture. Every query has 30 hits titled `Kestrel: <terms> <n>`; a query whose first word
 * is `down` is answered with a 503, as an origin that is down would.
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
    const q = url.searchParams.get('terms') ?? '';
    const size = Number(url.searchParams.get('size') ?? 10);
    const offset = Number(url.searchParams.get('offset') ?? 0);
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
    terms,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The variables that point the provider at `fixture`. */
export function fixtureEnvironment(fixture: KestrelFixture): Record<string, string> {
  return { KESTREL_BASE_URL: fixture.baseUrl };
}

/** The titles of the first `count` hits the fixture answers `query` with. */
export function expectedTitles(query: string, count: number): string[] {
  return Array.from({ length: count }, (_, n) => `Kestrel: ${query} ${n}`);
}
