// The references the server is held to, served from one child process: the bare proxy, the
// cleaning proxy (`cleaning-proxy.ts`), the provider calls alone, and the floors of the HTTP stack.
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleaningAnswer } from './cleaning-proxy.ts';
import { answerCpu, MARKED_COUNT, type Message, PLAIN_COUNT } from './shared.ts';

/** One result as the bare proxy maps it: what a minimal API would hand on from Brave's answer. */
interface MappedResult {
  url: string;
  title: string;
  description: string;
}

/** What the references answer as the server would: its cache-hit bodies and its answers to each benchmark request. */
export interface ServerBodies {
  hit: string;
  markedHit: string;
  answers: Record<string, string>;
}

/** A message's whole body as text. */
function textOf(message: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.once('error', reject);
    message.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const readJson = async (req: IncomingMessage): Promise<{ requests: { query: string }[] }> =>
  JSON.parse(await textOf(req));

const send = (res: ServerResponse, status: number, body: string) =>
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    .end(body);

const answerFixed = (res: ServerResponse, bytes: Buffer) =>
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length }).end(bytes);

/** Asks a Brave-shaped API at `baseUrl` what the server's Brave provider asks, over one keep-alive agent. */
function braveClient(baseUrl: string, apiKey: string) {
  const agent = new Agent({ keepAlive: true });
  const upstream = (query: string, count: number) =>
    `${baseUrl}/web/search?${new URLSearchParams({
      q: query,
      count: String(count),
      country: 'US',
      safesearch: 'moderate',
      text_decorations: 'false',
      result_filter: 'web',
    })}`;
  /** The answer to `query`, as text. */
  return (query: string, count: number): Promise<string> =>
    new Promise((resolve, reject) => {
      const out = httpRequest(
        upstream(query, count),
        { agent, headers: { 'x-subscription-token': apiKey } },
        (answer) => textOf(answer).then(resolve, reject),
      );
      out.once('error', reject);
      out.end();
    });
}

type FetchAnswer = ReturnType<typeof braveClient>;

/**
 * The bare proxy, at the minimum the server's work asks for: reads and parses the request body,
 * asks the fixture for each query, parses each answer, maps its results and serializes one
 * response. No validation, no text hygiene, no URL checks, no budget, no fitting: the distance to
 * it is what those cost.
 */
function bareProxy(fetchAnswer: FetchAnswer, count: number) {
  async function ask(query: string): Promise<MappedResult[]> {
    const parsed = JSON.parse(await fetchAnswer(query, count)) as {
      web?: { results?: { url: string; title: string; description?: string }[] };
    };
    return (parsed.web?.results ?? []).map((r) => ({ url: r.url, title: r.title, description: r.description ?? '' }));
  }
  return createServer((req, res) => {
    readJson(req)
      .then(async ({ requests }) => {
        const groups = await Promise.all(requests.map(async (r, id) => ({ id, results: await ask(r.query) })));
        send(res, 200, JSON.stringify({ results: groups, provider: 'Brave' }));
      })
      .catch(() => send(res, 502, '{"error":"upstream"}'));
  });
}

/** The cleaning proxy: the bare proxy cleaning every text and URL (`cleaning-proxy.ts`). */
function cleaningProxy(fetchAnswer: FetchAnswer, count: number) {
  return createServer((req, res) => {
    readJson(req)
      .then(async ({ requests }) => {
        const { requestId, json } = await cleaningAnswer(
          requests.map((r) => r.query),
          (query) => fetchAnswer(query, count),
        );
        res
          .writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': 'no-store',
            'x-request-id': requestId,
            'content-length': Buffer.byteLength(json),
          })
          .end(json);
      })
      .catch(() => send(res, 502, '{"error":"upstream"}'));
  });
}

/**
 * The provider calls alone: the proxy's exchanges with the fixture, each answer read but never
 * parsed, then the server's own answer to that request as fixed bytes: what every side pays before
 * its own work.
 */
function callsAlone(fetchAnswer: FetchAnswer, count: number, answers: Record<string, string>) {
  const answerBytes = new Map(Object.entries(answers).map(([request, answer]) => [request, Buffer.from(answer)]));
  return createServer((req, res) => {
    textOf(req)
      .then(async (text) => {
        const { requests } = JSON.parse(text) as { requests: { query: string }[] };
        await Promise.all(requests.map((r) => fetchAnswer(r.query, count)));
        const bytes = answerBytes.get(text);
        if (bytes === undefined) throw new Error('no answer of the server to this request');
        answerFixed(res, bytes);
      })
      .catch(() => send(res, 502, '{"error":"upstream"}'));
  });
}

/** The floor of the HTTP stack: a fixed body (the server's own cache-hit answer, so of its size) to every request. */
function fixedFloor(body: string) {
  const bytes = Buffer.from(body);
  return createServer((req, res) => {
    req.resume();
    req.once('end', () => answerFixed(res, bytes));
  });
}

/** The floor reading and parsing the request body before it answers the fixed body. */
function readingFloor(body: string) {
  const bytes = Buffer.from(body);
  return createServer((req, res) => {
    readJson(req).then(
      () => answerFixed(res, bytes),
      () => send(res, 400, '{"error":"body"}'),
    );
  });
}

/**
 * The reading floor answering as the server must (what a cache hit is held to): a request id of
 * its own in a header and in the body, so a fresh body per request, and the server's
 * `cache-control`. What any answer costs at least.
 */
function readingFloorWithId(body: string) {
  const key = '"request_id":"';
  const found = body.indexOf(key);
  if (found < 0) throw new Error('the cache-hit body has no request_id to replace');
  const at = found + key.length;
  const [head, tail] = [body.slice(0, at), body.slice(at + randomUUID().length)];
  return createServer((req, res) => {
    readJson(req).then(
      () => {
        const id = randomUUID();
        const bytes = Buffer.from(`${head}${id}${tail}`);
        res
          .writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'cache-control': 'no-store',
            'x-request-id': id,
            'content-length': bytes.length,
          })
          .end(bytes);
      },
      () => send(res, 400, '{"error":"body"}'),
    );
  });
}

async function listening(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Every reference, on its own port: the fixture's at `baseUrl`; `cleaningChecked` asks the
 * replay at `replayUrl` instead, so that its answer can be compared with the server's over the
 * very same provider answers.
 */
export async function runReferences(baseUrl: string, apiKey: string, replayUrl: string, bodies: string) {
  const { hit, markedHit, answers } = JSON.parse(bodies) as ServerBodies;
  const fixture = braveClient(baseUrl, apiKey);
  answerCpu();
  const urls = {
    proxy: await listening(bareProxy(fixture, PLAIN_COUNT)),
    proxyMarked: await listening(bareProxy(fixture, MARKED_COUNT)),
    cleaning: await listening(cleaningProxy(fixture, MARKED_COUNT)),
    cleaningChecked: await listening(cleaningProxy(braveClient(replayUrl, apiKey), MARKED_COUNT)),
    callsAlone: await listening(callsAlone(fixture, PLAIN_COUNT, answers)),
    callsAloneMarked: await listening(callsAlone(fixture, MARKED_COUNT, answers)),
    floor: await listening(fixedFloor(hit)),
    readingFloor: await listening(readingFloor(hit)),
    readingFloorWithId: await listening(readingFloorWithId(hit)),
    readingFloorMarked: await listening(readingFloor(markedHit)),
    readingFloorWithIdMarked: await listening(readingFloorWithId(markedHit)),
  };
  process.send?.({ urls } satisfies Message);
}
