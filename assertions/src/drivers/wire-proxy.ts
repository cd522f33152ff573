import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test-only: rewrites a JSON answer on its way from the server to the surface. The wire-mutation test
 * (parity-mutations.test.ts) uses it to alter or drop one leaf for one surface; the parity suite
 * itself never sets one, and nothing outside assertions/ can reach it.
 */
export type WireRewrite = (body: unknown) => unknown;

export interface WireProxy {
  url: string;
  close(): Promise<void>;
}

// Hop-by-hop and length headers: the proxy sends the rewritten body with its own length.
const DROPPED = new Set(['connection', 'content-length', 'host', 'keep-alive', 'transfer-encoding']);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** A loopback proxy in front of `target` that passes requests through and rewrites JSON answers. */
export async function startWireProxy(target: string, rewrite: WireRewrite): Promise<WireProxy> {
  const server = createServer(async (request, response) => {
    try {
      const headers = Object.entries(request.headers).flatMap(([name, value]) =>
        DROPPED.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
      );
      const body = await readBody(request);
      const upstream = await fetch(new URL(request.url ?? '/', target), {
        method: request.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body: Uint8Array.from(body) } : {}),
      });
      let text = await upstream.text();
      if (upstream.headers.get('content-type')?.includes('application/json'))
        text = JSON.stringify(rewrite(JSON.parse(text)));
      const answer = [...upstream.headers].filter(([name]) => !DROPPED.has(name) && name !== 'content-encoding');
      response.writeHead(upstream.status, Object.fromEntries(answer));
      response.end(text);
    } catch (error) {
      response.writeHead(599).end(error instanceof Error ? error.message : String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
