// A Brave-shaped API on loopback answering, for each query, one answer the fixture gave: the
// server and the cleaning proxy both ask it, so that their outputs can be compared over the very
// same provider answers (the fixture's `marked` scenario varies every answer).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Replay {
  url: string;
  close(): Promise<void>;
}

/** Records the fixture's answer at `baseUrl` to each of `queries` (asking `count`), then replays them by `q`. */
export async function startReplay(baseUrl: string, apiKey: string, queries: readonly string[], count: number) {
  const recorded = new Map<string, string>();
  for (const q of queries) {
    const url = `${baseUrl}/web/search?${new URLSearchParams({ q, count: String(count) })}`;
    const answer = await fetch(url, { headers: { 'x-subscription-token': apiKey } });
    if (answer.status !== 200) throw new Error(`the fixture answered ${answer.status} to ${url}`);
    recorded.set(q, await answer.text());
  }
  const server = createServer((req, res) => {
    req.resume();
    const q = new URL(req.url ?? '/', 'http://replay').searchParams.get('q') ?? '';
    const body = recorded.get(q);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  } satisfies Replay;
}
