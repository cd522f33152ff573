import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_TABLE, ErrorResponseSchema, WebSearchResponseSchema } from '@openmates/contract';
import type { ParityCase, RecordedRetry, ScriptedAnswer } from '../case.ts';

/**
 * A real HTTP server on loopback in front of a case's server, for the retry cases: it answers the
 * first requests with the case's scripted refusals, in order, and relays every later one to the
 * case's server untouched (an event stream included, as it arrives).
 */
export interface ScriptedUpstream {
  url: string;
  /** Requests received so far, relayed ones included. */
  readonly received: number;
  close(): Promise<void>;
}

/** Throws unless `answer` is what an OpenMates server sends with its status. */
function checkAnswer(answer: ScriptedAnswer, index: number): void {
  const where = `upstream[${index}]`;
  if (answer.status === 502) {
    const response = WebSearchResponseSchema.parse(answer.body);
    if (!response.results.every((g) => g.error !== undefined))
      throw new Error(`${where}: a 502 answers a search in which every group failed`);
    return;
  }
  const { code } = ErrorResponseSchema.parse(answer.body);
  if (ERROR_TABLE[code].status !== answer.status)
    throw new Error(`${where}: ${code} is answered with ${ERROR_TABLE[code].status}, not ${answer.status}`);
}

export async function startScriptedUpstream(
  target: string,
  answers: readonly ScriptedAnswer[],
): Promise<ScriptedUpstream> {
  answers.forEach(checkAnswer);
  let received = 0;
  const server = createServer((request, response) => {
    const answer = answers[received];
    received += 1;
    if (answer) {
      request.resume();
      request.on('end', () => {
        const body = JSON.stringify(answer.body);
        response.writeHead(answer.status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          ...answer.headers,
        });
        response.end(body);
      });
      return;
    }
    const url = new URL(request.url ?? '/', target);
    const relay = httpRequest(
      url,
      { method: request.method, headers: { ...request.headers, host: url.host } },
      (up) => {
        response.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(response);
      },
    );
    relay.on('error', (error) => response.destroy(error));
    request.pipe(relay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * What an SDK column runs a case with: for a retry case, a scripted upstream in front of `serverUrl`
 * and enough retries to get past every scripted refusal; otherwise the server itself, retries off
 * (a retried 503 would only slow the suite down).
 */
export async function retryFront(
  testCase: ParityCase,
  serverUrl: string,
): Promise<{
  url: string;
  maxRetries: number;
  /** Checks the upstream saw one request per attempt the SDK reported, and returns the retries for the run. */
  finish(retries: RecordedRetry[]): RecordedRetry[] | undefined;
  close(): Promise<void>;
}> {
  if (!testCase.upstream) return { url: serverUrl, maxRetries: 0, finish: () => undefined, close: async () => {} };
  const upstream = await startScriptedUpstream(serverUrl, testCase.upstream);
  return {
    url: upstream.url,
    maxRetries: testCase.upstream.length,
    finish(retries) {
      if (upstream.received !== retries.length + 1)
        throw new Error(
          `${testCase.name}: the upstream received ${upstream.received} requests, the SDK reported ${retries.length} retries`,
        );
      return retries;
    },
    close: () => upstream.close(),
  };
}
