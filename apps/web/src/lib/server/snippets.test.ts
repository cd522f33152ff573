import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSnippets, shellQuote } from './snippets.ts';

/** What Python makes of the `requests=` argument of a snippet, after checking the whole snippet parses. */
function pythonRequests(snippet: string): unknown {
  const program = [
    'import ast, json, sys',
    'tree = ast.parse(sys.stdin.read())',
    'call = next(n for n in ast.walk(tree) if isinstance(n, ast.keyword) and n.arg == "requests")',
    'print(json.dumps(ast.literal_eval(call.value)))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', program], { input: snippet, encoding: 'utf8' }));
}

/** What bash makes of `printf '%s\0' WORDS`, split back into words. */
function bashWords(line: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it('round-trips any text through a real shell as exactly one word', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));
    const samples = fc.sample(fc.array(text, { minLength: 1, maxLength: 4 }), { numRuns: 40, seed: 7 });
    for (const words of samples) expect(bashWords(words.map(shellQuote).join(' '))).toEqual(words);
  });

  it('leaves plain words bare and quotes the rest', () => {
    expect(shellQuote('https://x.example:8787/v1')).toBe('https://x.example:8787/v1');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('$(rm -rf /)')).toBe(`'$(rm -rf /)'`);
  });
});

describe('buildSnippets', () => {
  const origin = 'http://127.0.0.1:8787';

  it('builds a curl command whose body is exactly the request, and never a key', () => {
    const request = { requests: [{ query: `a 'quoted' $HOME`, count: 3 }] };
    const { curl } = buildSnippets(origin, request, true);
    const words = bashWords(curl.replaceAll('\\\n', ' '));
    expect(words[0]).toBe('curl');
    expect(words).toContain(`${origin}/v1/apps/web/skills/search`);
    expect(JSON.parse(words[words.indexOf('--data-raw') + 1] ?? '')).toEqual(request);
    expect(curl).toContain('Bearer $OPENMATES_API_KEY');
    expect(buildSnippets(origin, request, false).curl).not.toContain('authorization');
  });

  it('writes the CLI line with flags, and with `--` when a query starts with a dash', () => {
    const shared = { country: 'DE', search_lang: 'de', safesearch: 'off', filter_tabloids: true };
    const { cli } = buildSnippets(
      origin,
      {
        requests: [
          { query: '-x', ...shared },
          { query: 'y', ...shared },
        ],
      },
      false,
    );
    expect(cli).toBe(
      `openmates search --api-url ${origin} --country DE --lang de --safesearch off --filter-tabloids -- -x y`,
    );
  });

  it('falls back to --input for ids or values no flag can carry', () => {
    const withIds = { requests: [{ id: 'a', query: 'q' }] };
    expect(buildSnippets(origin, withIds, false).cli).toBe(
      `printf '%s' '${JSON.stringify(withIds)}' | openmates search --input - --api-url ${origin}`,
    );
    const wrongType = { requests: [{ query: 'q', count: 'abc' as unknown as number }] };
    expect(buildSnippets(origin, wrongType, false).cli).toContain('--input -');
  });

  it('writes SDK code that names the origin and the request', () => {
    const { sdk } = buildSnippets(origin, { requests: [{ query: 'q' }] }, true);
    expect(sdk).toContain(`new OpenMates({ baseURL: "${origin}", apiKey: process.env.OPENMATES_API_KEY })`);
    expect(sdk).toContain('"query": "q"');
  });

  it('writes Python code whose requests are exactly the request, and never a key', () => {
    const request = {
      requests: [
        { id: 'a', query: `it's "quoted" \\ ünïcode ${'\u{1F600}'}`, count: 3, filter_tabloids: false },
        { query: 'b', safesearch: 'off' },
      ],
    };
    const keyed = buildSnippets(origin, request, true).python;
    expect(pythonRequests(keyed)).toEqual(request.requests);
    expect(keyed).toContain(`OpenMates(base_url="${origin}", api_key=os.environ["OPENMATES_API_KEY"])`);
    expect(keyed).toMatch(/^import os\n/);
    const open = buildSnippets(origin, request, false).python;
    expect(open).toContain(`OpenMates(base_url="${origin}")`);
    expect(open).not.toContain('os.environ');
  });
});
