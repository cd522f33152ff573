import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResultGroup as Group } from '@openmates/contract';
import type { Component } from 'svelte';
import { compile } from 'svelte/compiler';
import { render } from 'svelte/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The component as SvelteKit's server renders it (compiled by Svelte itself for the server), its
// imports pointed at the files the app uses.
const require = createRequire(import.meta.url);
let dir: string;
let ResultGroup: Component<{ group: Group; query: string; index: number; idSet?: boolean }>;

beforeAll(async () => {
  const source = readFileSync(new URL('./ResultGroup.svelte', import.meta.url), 'utf8');
  const { js } = compile(source, { generate: 'server', filename: 'ResultGroup.svelte' });
  const href = (path: string) => JSON.stringify(pathToFileURL(path).href);
  // The cards' stylesheet is Vite's to bundle; rendering HTML does not need it.
  const code = js.code
    .replace(/^import '@openmates\/result-display\/cards\.css';\n/m, '')
    .replace(`'svelte/internal/server'`, href(require.resolve('svelte/internal/server')))
    .replace(`'@openmates/result-display'`, href(require.resolve('@openmates/result-display')))
    .replace(`'@openmates/contract'`, href(require.resolve('@openmates/contract')));
  dir = mkdtempSync(join(tmpdir(), 'result-group-render-'));
  const file = join(dir, 'ResultGroup.js');
  writeFileSync(file, code);
  ResultGroup = (await import(/* @vite-ignore */ pathToFileURL(file).href)).default;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The muted line's text exactly as rendered (tags dropped, nothing added between them). */
function metaOf(group: Group): string | undefined {
  const { body } = render(ResultGroup, { props: { group, query: 'fetch', index: 0 } });
  const meta = /<p class="meta[^"]*">([\s\S]*?)<\/p>/.exec(body)?.[1];
  return meta?.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, '');
}

/** The rendered result's text, tags dropped, as a person reads it. */
function textOf(group: Group, idSet = false): string {
  const { body } = render(ResultGroup, { props: { group, query: 'fetch', index: 0, idSet } });
  return body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const result = {
  title: 'Fetch API',
  url: 'https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API?x=1',
  description: 'Fetching resources.',
  age: '2 days ago',
  language: 'en',
  meta_url: {
    scheme: 'https' as const,
    netloc: 'developer.mozilla.org',
    hostname: 'developer.mozilla.org',
    path: '/en-US/docs/Web/API/Fetch_API',
    favicon: 'https://imgs.search.brave.com/abc',
  },
};

describe('a result as the page shows it', () => {
  it('reads like a search engine: title link, display URL, description, one muted line', () => {
    const group: Group = { id: 1, results: [{ ...result, family_friendly: true }] };
    const { body } = render(ResultGroup, { props: { group, query: 'fetch', index: 0 } });
    expect(body).toContain(`href="${result.url}"`);
    expect(body).toMatch(/<p class="meta[^"]*">/);
    const text = textOf(group);
    expect(text).toContain(
      'Fetch API developer.mozilla.org › en-US › docs › Web › API › Fetch_API Fetching resources. 2 days ago',
    );
    expect(text).not.toMatch(/family friendly|imgs\.search\.brave\.com|Age:|Language:/i);
    // A result in the page's own language (English) does not say so; one in another language does.
    expect(metaOf(group)).toBe('2 days ago');
    expect(metaOf({ id: 1, results: [{ ...result, language: 'en-GB' }] })).toBe('2 days ago');
    expect(metaOf({ id: 1, results: [{ ...result, language: 'de' }] })).toBe('2 days ago · de');
  });

  it('says "not family friendly" only when the result is not', () => {
    expect(metaOf({ id: 1, results: [{ ...result, family_friendly: false }] })).toBe(
      '2 days ago · not family friendly',
    );
    const { age: _age, ...undated } = result;
    expect(textOf({ id: 1, results: [{ ...undated, language: 'fr', family_friendly: false }] })).toContain(
      'Fetching resources. fr · not family friendly',
    );
  });

  it('shows the group’s id only when the person set one', () => {
    const group: Group = { id: 1, results: [result] };
    expect(textOf(group)).not.toMatch(/\bId\b/);
    expect(textOf({ ...group, id: 'docs' }, true)).toContain('Id docs');
  });

  it('shows page excerpts in a closed disclosure under the description, and none without them', () => {
    const group: Group = { id: 1, results: [{ ...result, extra_snippets: ['First <b>excerpt</b>.', 'Second.'] }] };
    const { body } = render(ResultGroup, { props: { group, query: 'fetch', index: 0 } });
    const disclosure = /<details class="excerpts[^"]*" data-excerpts="">([\s\S]*?)<\/details>/.exec(body)?.[1] ?? '';
    expect(disclosure).toMatch(/<summary[^>]*>2 excerpts from the page<\/summary>/);
    // Text, never markup: the excerpt's angle brackets are escaped.
    expect(disclosure).toContain('First &lt;b>excerpt&lt;/b>.');
    expect(disclosure.match(/data-field="extra_snippet"/g)).toHaveLength(2);
    expect(textOf(group)).toContain(
      'Fetching resources. 2 excerpts from the page First &lt;b>excerpt&lt;/b>. Second. 2 days ago',
    );
    expect(
      render(ResultGroup, { props: { group: { id: 1, results: [result] }, query: 'fetch', index: 0 } }).body,
    ).not.toContain('data-excerpts');
  });
});
