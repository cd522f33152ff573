import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every call out of packages/core/src goes through the one HTTP client (ADR 0113): its keep-alive,
// its bounded read, its refusal to follow redirects or resend a POST, and the one status table
// behind it hold only for what it sends.

const SRC = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT = 'providers/shared/http-client.ts';

/** What calls out without the client: node:http(s) or undici loaded, `http.request`, a pool, or the global `fetch`. */
const OUTSIDE_CALLS: readonly [what: string, pattern: RegExp][] = [
  [
    'node:http or node:https loaded',
    /(?:\bfrom|\bimport\(|\brequire\w*\(|getBuiltinModule\()\s*['"](?:node:)?https?['"]/,
  ],
  ['undici loaded', /(?:\bfrom|\bimport\(|\brequire\w*\(|getBuiltinModule\()\s*['"]undici(?:\/[\w/-]*)?['"]/],
  ['http.request', /\bhttps?\.request\s*\(/],
  ['an undici Pool, Agent or Client', /\bnew\s+(?:\w+\.)*(?:Pool|Agent|Client|Dispatcher)\s*\(/],
  ['the global fetch', /(?<![\w$.])fetch\s*\(|\bglobalThis\.fetch\b/],
];

/** The calls `source` makes outside the client, as `line: what`; type-only imports and comments aside. */
function outsideCalls(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, index) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*') || code.startsWith('import type '))
      return;
    for (const [what, pattern] of OUTSIDE_CALLS) if (pattern.test(code)) found.push(`${index + 1}: ${what}`);
  });
  return found;
}

describe('the one HTTP client', () => {
  it('is the only module of packages/core/src that calls out over HTTP (tests aside)', async () => {
    const files = (await readdir(SRC, { recursive: true })).filter(
      (file) => /\.[cm]?[jt]s$/.test(file) && !/\.test(-d)?\.ts$/.test(file) && !file.includes('/generated/'),
    );
    expect(files).toContain(CLIENT);
    const offenders: Record<string, string[]> = {};
    for (const file of files) {
      if (file === CLIENT) continue;
      const calls = outsideCalls(await readFile(join(SRC, file), 'utf8'));
      if (calls.length > 0) offenders[file] = calls;
    }
    expect(offenders).toEqual({});
  });

  it('catches each way of calling out around it', () => {
    const caught = [
      "import { request } from 'undici';",
      "const { Pool } = require('undici');",
      "undici ??= requireModule('undici');",
      "const http = process.getBuiltinModule('node:https');",
      "import http from 'node:http';",
      'const req = http.request(url, { method: "POST" });',
      'const pool = new undici.Pool(origin);',
      'const answer = await fetch(url, { method: "POST" });',
      'return globalThis.fetch(url);',
    ];
    for (const line of caught) expect(outsideCalls(line), line).not.toEqual([]);
    const allowed = [
      "import type { IncomingMessage } from 'node:http';",
      'return fetchPages(run, member, query, options);',
      'const http = lazyHttpClient(endpoint); http.get();',
      "const translator = { kind: 'http', client: http.get };",
      '// `fetch` would cost more per call',
    ];
    for (const line of allowed) expect(outsideCalls(line), line).toEqual([]);
  });
});
