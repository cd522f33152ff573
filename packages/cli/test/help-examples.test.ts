// The queries `openmates search --help` shows are questions the demo corpus answers, and
// `openmates index add --demo` builds that corpus into an index that already holds documents.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_EXAMPLE_QUERIES } from '../src/search/example-queries.ts';
import { searchExamples } from '../src/search/search-flags.ts';
import { baseEnv, type CliResult, requireBuild, runCli } from './run-cli.ts';

const MDN = 'https://developer.mozilla.org/docs/Web/';
const feature = (id: string) => `https://webstatus.dev/features/${id}`;

/** For each example query, pages that answer it (any of them among the first three will do). */
const ANSWERS: Record<string, string[]> = {
  'how do I center a div': [
    ...['align-content', 'align-items', 'justify-content', 'place-items', 'place-content', 'margin'].map(
      (name) => `${MDN}CSS/Reference/Properties/${name}`,
    ),
    feature('flexbox'),
    feature('grid'),
  ],
  'copy text to clipboard': [`${MDN}API/Clipboard`, `${MDN}API/Clipboard/writeText`, `${MDN}API/Clipboard/write`],
  'cancel a fetch request': [
    feature('abortable-fetch'),
    `${MDN}API/AbortController`,
    `${MDN}API/AbortController/AbortController`,
    `${MDN}API/AbortSignal`,
  ],
  'websocket reconnect': [`${MDN}API/WebSocket`, `${MDN}API/WebSocket/close_event`, `${MDN}API/WebSocket/readyState`],
  'array remove duplicates': [`${MDN}JavaScript/Reference/Global_Objects/Set`, feature('set')],
  'lazy load images': [feature('loading-lazy'), `${MDN}API/HTMLImageElement/loading`],
  'open a modal dialog': [
    feature('dialog'),
    `${MDN}HTML/Reference/Elements/dialog`,
    `${MDN}API/HTMLDialogElement`,
    `${MDN}API/HTMLDialogElement/showModal`,
  ],
  'dialog element': [`${MDN}HTML/Reference/Elements/dialog`],
};

let dir: string;
let env: Record<string, string>;
/** `index add` of one note into a new index, then `index add --demo` into it: what each printed. */
let own: CliResult;
let demo: CliResult;

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'openmates-cli-demo-'));
  env = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });
  const notes = join(dir, 'notes.jsonl');
  writeFileSync(
    notes,
    `${JSON.stringify({ url: 'https://notes.example/quokka', title: 'Quokka', body: 'A quokka note.' })}\n`,
  );
  own = await runCli(['index', 'add', notes], env);
  demo = await runCli(['index', 'add', '--demo'], env);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the examples of `openmates search --help`', () => {
  it('come from one table, which the CLI README uses too', () => {
    const commands = searchExamples().map((example) => example.command);
    for (const query of ALL_EXAMPLE_QUERIES) expect(commands.join('\n')).toContain(query);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const searched = [...readme.matchAll(/openmates (?:apps web )?search ((?:"[^"]+" ?)+)/g)].flatMap(([, args]) =>
      [...(args ?? '').matchAll(/"([^"]+)"/g)].map(([, query]) => query),
    );
    expect(searched.length).toBeGreaterThan(0);
    for (const query of searched) expect(ALL_EXAMPLE_QUERIES).toContain(query);
    expect(Object.keys(ANSWERS).sort()).toEqual([...new Set(ALL_EXAMPLE_QUERIES)].sort());
  });
});

describe('openmates index add --demo', () => {
  it('builds the demo corpus into an index holding documents of its own, which stay', async () => {
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toMatch(
      /^Indexed 1 document \(0 replaced, 0 refused\) from 1 file into .+; 1 document in the index\.\n$/,
    );

    expect(demo.code, demo.stderr).toBe(0);
    const [built, licence, ...rest] = demo.stdout.trimEnd().split('\n');
    expect(built).toMatch(
      /^Built the demo corpus \(\d+ MDN and web-features pages, bcd@.+\) into .+; \d+ documents in the index\.$/,
    );
    expect(licence).toContain('CC-BY-SA 2.5');
    expect(rest).toEqual([]);
    const demoCount = Number(/\((\d+) MDN/.exec(built ?? '')?.[1]);
    expect(demoCount).toBeGreaterThan(10_000);
    expect(built).toContain(`; ${demoCount + 1} documents in the index.`);

    const quokka = await runCli(['search', 'quokka', '--json'], env);
    const body = JSON.parse(quokka.stdout) as { results: { results: { url: string }[] }[] };
    expect(body.results[0]?.results.map((result) => result.url)).toEqual(['https://notes.example/quokka']);
  });

  it('refuses a call naming nothing to add, in one line', async () => {
    const result = await runCli(['index', 'add'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'openmates index: name a file, folder or .jsonl file to add, or --demo (see --help).',
    ]);
  });

  it.each(Object.entries(ANSWERS))('answers the example %s among its first three results', async (query, pages) => {
    const result = await runCli(['search', query, '--json', '--count', '3'], env);
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as { results: { results: { url: string; title: string }[] }[] };
    const found = body.results[0]?.results ?? [];
    expect(
      found.some((hit) => pages.includes(hit.url)),
      found.map((hit) => hit.title).join(' | '),
    ).toBe(true);
  });
});
