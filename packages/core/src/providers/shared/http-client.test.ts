import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttpClient, queryUrls } from './http-client.ts';

describe('queryUrls', () => {
  it('puts the query on the endpoint in place of any query or fragment it had', () => {
    const at = queryUrls(new URL('https://search.example/base/search?old=1#part'));
    expect(at(new URLSearchParams({ q: 'a b&c', count: '20' })).href).toBe(
      'https://search.example/base/search?q=a+b%26c&count=20',
    );
    expect(at(new URLSearchParams()).href).toBe('https://search.example/base/search');
  });
});

/** A loopback server answering with `listener`, and what it received. */
async function upstream(listener: RequestListener) {
  const received: { method: string; url: string; type: string; body: string }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ method: req.method ?? '', url: req.url ?? '', type: req.headers['content-type'] ?? '', body });
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const client = createHttpClient(origin);
  return {
    origin,
    client,
    received,
    async close() {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const signal = new AbortController().signal;

describe('the HTTP client', () => {
  it('sends a JSON body and a form body, each with its content type', async () => {
    const up = await upstream((_req, res) => res.end('ok'));
    try {
      const url = new URL('/find', up.origin);
      const json = await up.client.send({ method: 'POST', url, headers: {}, body: { json: { q: 'ä', n: 1 } } }, signal);
      expect(await up.client.readText(json, 100, signal)).toBe('ok');
      const form = await up.client.send({ method: 'POST', url, headers: {}, body: { form: { q: 'a b&c' } } }, signal);
      up.client.discard(form);
      expect(up.received).toEqual([
        { method: 'POST', url: '/find', type: 'application/json', body: '{"q":"ä","n":1}' },
        { method: 'POST', url: '/find', type: 'application/x-www-form-urlencoded', body: 'q=a+b%26c' },
      ]);
    } finally {
      await up.close();
    }
  });

  it('keeps a content type the translator named', async () => {
    const up = await upstream((_req, res) => res.end());
    try {
      const headers = { 'Content-Type': 'application/vnd.api+json' };
      const request = { method: 'POST', url: new URL('/x', up.origin), headers, body: { json: {} } } as const;
      up.client.discard(await up.client.send(request, signal));
      expect(up.received[0]?.type).toBe('application/vnd.api+json');
    } finally {
      await up.close();
    }
  });

  it('never sends a POST again when its connection closes without answering (a GET it sends once more)', async () => {
    // The race of a server closing a kept-alive connection as a request goes out on it.
    const up = await upstream((req, res) => {
      if (req.url === '/drop') return req.socket.destroy();
      res.end('ok');
    });
    try {
      const drop = new URL('/drop', up.origin);
      await expect(
        up.client.send({ method: 'POST', url: drop, headers: {}, body: { json: {} } }, signal),
      ).rejects.toThrow();
      expect(up.received.map((r) => r.method)).toEqual(['POST']);
      await expect(up.client.send({ method: 'GET', url: drop, headers: {} }, signal)).rejects.toThrow();
      expect(up.received.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
    } finally {
      await up.close();
    }
  });
});
