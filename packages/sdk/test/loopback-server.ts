// A stand-in for an OpenMates server on 127.0.0.1: it answers each request with the next scripted
// reply (the last one repeats) and records what it received, so tests count attempts and see headers.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
  /** Never answers: for timeouts and aborts. */
  | { hang: true }
  /** Drops the connection without an answer: a connection error. */
  | { drop: true };

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface LoopbackServer {
  baseURL: string;
  received: Received[];
  /** Resolves once the n-th request (1-based) has arrived. */
  arrival(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function loopbackServer(replies: Reply[]): Promise<LoopbackServer> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    for (const w of waiters.filter((w) => w.n <= received.length)) w.resolve();
    const reply = replies[Math.min(received.length, replies.length) - 1] ?? { status: 500 };
    if ('hang' in reply) return;
    if ('drop' in reply) return void req.socket.destroy();
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    received,
    arrival: (n) =>
      new Promise((resolve) => {
        if (received.length >= n) resolve();
        else waiters.push({ n, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: a server is opened there and closed again. */
export async function closedPortURL(): Promise<string> {
  const server = await loopbackServer([]);
  await server.close();
  return server.baseURL;
}
