import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Issue, REQUEST_FIELDS, type RequestField, z } from '@openmates/contract';
import { PROBE_FIELD as PROBE } from '@openmates/fixtures';
import type { Component } from 'svelte';
import { compile } from 'svelte/compiler';
import { render } from 'svelte/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSearchForm } from '#lib/search-form.ts';
import { type FormChoices, formChoices, type ProviderOptions } from '#lib/server/choices.ts';

// The component as SvelteKit's server renders it: compiled for the server by Svelte itself, its
// runtime imports pointed at the same Svelte files `render` uses.
const require = createRequire(import.meta.url);
let dir: string;
let SearchForm: Component<{ choices: FormChoices; issues: Issue[]; busy: boolean }>;

beforeAll(async () => {
  const source = readFileSync(new URL('./SearchForm.svelte', import.meta.url), 'utf8');
  const { js } = compile(source, { generate: 'server', filename: 'SearchForm.svelte' });
  const code = js.code
    .replace(`'svelte/internal/server'`, JSON.stringify(pathToFileURL(require.resolve('svelte/internal/server')).href))
    .replace(`from 'svelte'`, `from ${JSON.stringify(pathToFileURL(require.resolve('svelte')).href)}`);
  dir = mkdtempSync(join(tmpdir(), 'search-form-render-'));
  const file = join(dir, 'SearchForm.js');
  writeFileSync(file, code);
  SearchForm = (await import(/* @vite-ignore */ pathToFileURL(file).href)).default;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function html(
  link: string,
  issues: Issue[] = [],
  fields = REQUEST_FIELDS as readonly RequestField[],
  provider?: ProviderOptions,
): string {
  const form = readSearchForm(new URLSearchParams(link), fields);
  const { body } = render(SearchForm, {
    props: {
      choices: formChoices({ rows: form.rows, fields, ...(provider ? { provider } : {}) }),
      issues,
      busy: false,
    },
  });
  // Without hydration markers and the scoped-style classes, the markup as a browser shows it.
  return body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/ class="svelte-[a-z0-9]+"/g, '')
    .replace(/ svelte-[a-z0-9]+/g, '');
}

/** The element with this id, as rendered (its opening tag). */
function tag(body: string, id: string): string {
  const match = new RegExp(`<(input|select)[^>]*\\bid="${id}"[^>]*>`).exec(body);
  if (!match) throw new Error(`no control with id ${id}`);
  return match[0];
}

const SITES: RequestField = {
  name: 'x_sites',
  kind: 'list',
  schema: z.array(z.string()),
  description: 'A list probe.',
  normalize: (v: string[] | undefined) => v,
  cacheKey: true,
  providerOption: true,
  control: { control: 'list', label: 'Sites', help: 'Domains.' },
  link: { param: 'sites', broadcast: true },
};

describe('the options disclosure', () => {
  it("shows a shared link's values as it sent them, matching choices in any case", () => {
    const body = html('q=a&q=b&q=c&country=de&country=XX&safesearch=STRICT&tabloids=0&tabloids=maybe');
    expect(body).toMatch(
      /<select id="country-0" name="country"><option value="">[^<]*<\/option>(<option[^>]*>[^<]*<\/option>)*<option value="DE" selected="">Germany \(DE\)<\/option>/,
    );
    expect(body).toContain('<option value="XX" selected="">XX</option>');
    expect(body).toContain('<option value="strict" selected="">Strict</option>');
    expect(body).toContain('<option value="off" selected="">Included</option>');
    expect(body).toContain('<option value="maybe" selected="">maybe</option>');
  });

  it('renders a field added to the table, named by its link parameter and labelled from the table', () => {
    const body = html('q=a&xp=v', [], [...REQUEST_FIELDS, PROBE]);
    expect(tag(body, 'xp-0')).toContain('value="v"');
    expect(tag(body, 'xp-0')).toContain('name="xp"');
    expect(body).toContain('<label for="xp-0">Probe <span class="visually-hidden">for query 1</span></label>');
    expect(body).toContain('<p class="field-hint" id="xp-0-hint">The probe.</p>');
  });

  it('renders each field of the table under its link parameter, labelled for its query', () => {
    const body = html('q=a&q=b');
    const labels = {
      count: 'Results',
      country: 'Country',
      lang: 'Language',
      safesearch: 'Safe search',
      tabloids: 'Tabloid sites',
    };
    for (const [param, label] of Object.entries(labels))
      for (const i of [0, 1]) {
        expect(tag(body, `${param}-${i}`)).toContain(`name="${param}"`);
        expect(body).toContain(
          `<label for="${param}-${i}">${label} <span class="visually-hidden">for query ${i + 1}</span></label>`,
        );
      }
    expect(tag(body, 'count-0')).toMatch(/type="number".*placeholder="10"|placeholder="10".*type="number"/);
    expect(tag(body, 'lang-0')).toContain('list="languages"');
    expect(body).toContain('<datalist id="languages">');
    expect(body).toContain('<option value="" selected="">Default (United States)</option>');
    expect(body).toContain('<option value="on">Removed</option>');
    expect(body.match(/<details class="query-options"(?: open="")?>/g)).toEqual([
      '<details class="query-options">',
      '<details class="query-options">',
    ]);
  });

  it('offers no id among a person’s options, and carries one a link set to the next search unseen', () => {
    const body = html('q=a&q=b&id=first&id=7&idtype=&idtype=number');
    expect(body).not.toMatch(/<label for="id(type)?-\d"/);
    expect(body).not.toMatch(/\bId\b/);
    expect(body.match(/<input type="hidden" name="id" value="[^"]*"/g)).toEqual([
      '<input type="hidden" name="id" value="first"',
      '<input type="hidden" name="id" value="7"',
    ]);
    expect(body.match(/<input type="hidden" name="idtype" value="[^"]*"/g)).toEqual([
      '<input type="hidden" name="idtype" value=""',
      '<input type="hidden" name="idtype" value="number"',
    ]);
  });

  it('summarizes what a row sets, and opens on an issue of one of its options', () => {
    const body = html('q=a&count=abc&tabloids=off', [{ path: 'requests[0].count', message: 'Count must be 1 to 20.' }]);
    expect(body).toContain('<span class="summary-values">abc results, tabloids included</span>');
    expect(body).toContain('<details class="query-options" open="">');
    expect(tag(body, 'count-0')).toContain('aria-describedby="count-0-error"');
    expect(body).toContain('<p class="field-error" id="count-0-error">Count must be 1 to 20.</p>');
  });

  it('renders a list field as a comma-separated text input with the issues of any of its entries under it', () => {
    const fields = [...REQUEST_FIELDS, SITES];
    const body = html(
      'q=a&q=b&sites=a.com,bad&sites=',
      [{ path: 'requests[0].x_sites[1]', message: 'Not a domain.' }],
      fields,
    );
    const input = tag(body, 'sites-0');
    expect(input).toContain('name="sites"');
    expect(input).toContain('type="text"');
    expect(input).toContain('value="a.com,bad"');
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="sites-0-error"');
    expect(body).toContain('<p class="field-error" id="sites-0-error">Entry 2 (bad): Not a domain.</p>');
    expect(body).toContain('<label for="sites-1">Sites <span class="visually-hidden">for query 2</span></label>');
    expect(body).toContain('<p class="field-hint" id="sites-1-hint">Domains. Separate entries with ",".</p>');
    expect(body.match(/<details class="query-options"(?: open="")?>/g)).toEqual([
      '<details class="query-options" open="">',
      '<details class="query-options">',
    ]);
  });

  it('disables a control the provider cannot apply, saying why, and notes one it applies only in some cases', () => {
    // Skill info as a provider without a date filter gives it: the option refused with its rule.
    const provider: ProviderOptions = {
      name: 'OpenAI web search',
      options: {
        honoured: ['count', 'include_domains', 'exclude_domains'],
        unsupported: [{ option: 'freshness', rule: 'OpenAI web search has no date filter: freshness is refused.' }],
        conditional: [{ option: 'country', rule: 'Only as a hint to the model.' }],
      },
    };
    const body = html('q=a', [], REQUEST_FIELDS, provider);
    expect(tag(body, 'freshness-0')).toContain('disabled');
    expect(tag(body, 'freshness-0')).toContain('aria-describedby="freshness-0-hint"');
    expect(body).toContain(
      '<p class="field-hint" id="freshness-0-hint">OpenAI web search has no date filter: freshness is refused.</p>',
    );
    // An option neither honoured nor refused by rule is disabled with a reason naming the provider.
    expect(tag(body, 'safesearch-0')).toContain('disabled');
    expect(body).toContain(
      '<p class="field-hint" id="safesearch-0-hint">OpenAI web search cannot apply this option.</p>',
    );
    expect(tag(body, 'include-0')).not.toContain('disabled');
    expect(tag(body, 'country-0')).not.toContain('disabled');
    expect(body).toContain('<p class="field-hint" id="country-0-hint">Only as a hint to the model.</p>');
    // Without skill info nothing is disabled: the API still judges the request.
    expect(tag(html('q=a'), 'freshness-0')).not.toContain('disabled');
  });

  it('shows a 400 at one domain entry under that control, naming the entry as typed', () => {
    const body = html('q=a&include=docs.example.org,https://x.example', [
      { path: 'requests[0].include_domains[1]', message: 'include_domains entries must be host names.' },
    ]);
    expect(tag(body, 'include-0')).toContain('aria-invalid="true"');
    expect(body).toContain(
      '<p class="field-error" id="include-0-error">Entry 2 (https://x.example): include_domains entries must be host names.</p>',
    );
    expect(tag(body, 'exclude-0')).not.toContain('aria-invalid');
  });
});
