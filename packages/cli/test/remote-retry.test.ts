import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_TABLE, exitCode, WebSearchResponseSchema } from '@openmates/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli } from './run-cli.ts';

// `--api-url` goes through the npm SDK, so it retries as the contract's retry policy says.

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

const ok = WebSearchResponseSchema.parse({
  provider: 'Brave Search',
  results: [{ id: 1, results: [{ title: 'Rust', url: 'https://www.rust-lang.org/', description: 'A language.' }] }],
});

const rateLimited = WebSearchResponseSchema.parse({
  provider: 'Brave Search',
  results: [{ id: 1, results: [], error: { code: 'provider_rate_limited', message: 'Rate limited.' } }],
  error: 'Every search failed at the provider (1).',
  code: 'provider_rate_limited',
});

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A server on loopback answering each request with the next scripted answer (the last repeats). */
async function scripted(answers: Scripted[]): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = createServer((request, response) => {
    const answer = answers[Math.min(received, answers.length - 1)] as Scripted;
    received += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

describe('openmates search --api-url retries as the SDK does', () => {
  beforeAll(requireBuild);

  it('retries a 502 whose every query was rate limited when it carries Retry-After, then prints the answer', async () => {
    const server = await scripted([
      { status: 502, headers: { 'retry-after': '0' }, body: rateLimited },
      { status: 200, body: ok },
    ]);
    const result = await runCli(['search', 'rust', '--api-url', server.url, '--json'], baseEnv());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ results: ok.results });
    expect(server.received()).toBe(2);
  });

  it('says behind a 429 rate_limited that it waits, for how long, and that Ctrl-C stops it; then answers', async () => {
    const limited = { error: ERROR_TABLE.rate_limited.message, code: 'rate_limited' };
    const server = await scripted([
      { status: 429, headers: { 'retry-after-ms': '250' }, body: limited },
      { status: 200, body: ok },
    ]);
    const result = await runCli(['search', 'rust', '--api-url', server.url], baseEnv());
    expect(result.code).toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `openmates: ${server.url} rate limited this client: waiting 250 ms before trying again (Ctrl-C stops, --no-wait exits at once).`,
    ]);
    expect(result.stdout).toContain('Rust');
    expect(server.received()).toBe(2);
  });

  it('with --no-wait, a 429 rate_limited exits with the rate-limit code at once, in one line', async () => {
    const limited = { error: ERROR_TABLE.rate_limited.message, code: 'rate_limited' };
    const server = await scripted([{ status: 429, headers: { 'retry-after': '1' }, body: limited }]);
    const result = await runCli(['search', 'rust', '--no-wait', '--api-url', server.url], baseEnv());
    expect(result.code).toBe(exitCode('rate_limited'));
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(server.received()).toBe(1);
  });

  it('never waits on a 429 that is not rate_limited (a quota is not over in seconds)', async () => {
    const server = await scripted([
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: 'The monthly quota is spent.', code: 'quota_exceeded' },
      },
      { status: 200, body: ok },
    ]);
    const result = await runCli(['search', 'rust', '--api-url', server.url, '--json'], baseEnv());
    expect(result.code).not.toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(server.received()).toBe(1);
  });

  it('never retries a 500 or a 502 without Retry-After', async () => {
    const internal = { error: ERROR_TABLE.internal_error.message, code: 'internal_error' };
    for (const [answer, code] of [
      [{ status: 500, headers: { 'retry-after': '0' }, body: internal }, exitCode('internal_error')],
      [{ status: 502, body: rateLimited }, exitCode('provider_rate_limited')],
    ] as const) {
      const server = await scripted([answer, { status: 200, body: ok }]);
      const result = await runCli(['search', 'rust', '--api-url', server.url, '--json'], baseEnv());
      expect(result.code).toBe(code);
      expect(server.received()).toBe(1);
    }
  });
});
