// The /docs page is rendered from the OpenAPI document: every operation and schema shows, every
// link on the page lands, text from the document is escaped, and the page needs no script.

import { PATHS } from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { docsResponse } from './docs-page.ts';

const page = async (path: string = PATHS.docs): Promise<string> => {
  const response = docsResponse(path);
  if (!response) throw new Error(`no answer for ${path}`);
  return String(response.body);
};
const document = openapi as unknown as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
};

describe('the API reference page', () => {
  it('has a section for every operation, with each of its response statuses', async () => {
    const html = await page();
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(methods)) {
        const start = html.indexOf(`<section id="op-${op.operationId}">`);
        expect([op.operationId, start]).not.toEqual([op.operationId, -1]);
        const section = html.slice(start, html.indexOf('</section>', start));
        expect(section).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`);
        for (const status of Object.keys(op.responses)) expect(section).toContain(`<td><code>${status}</code></td>`);
      }
  });

  it('has a section for every schema, listing each of its fields with its description', async () => {
    const html = await page();
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      const start = html.indexOf(`<section id="schema-${name}">`);
      expect([name, start]).not.toEqual([name, -1]);
      const section = html.slice(start, html.indexOf('</section>', start));
      for (const field of Object.keys(schema.properties ?? {})) expect(section).toContain(`<td><code>${field}</code>`);
    }
    // A description with markup characters arrives escaped, its backticks as code.
    expect(html).toContain('<code>&quot;per-key&quot;;q=&lt;requests&gt;;w=&lt;window seconds&gt;</code>');
  });

  it('links only to sections it has and to the document itself', async () => {
    const html = await page();
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const anchors = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(anchors.length).toBeGreaterThan(40);
    expect(anchors.filter((anchor) => !ids.has(anchor))).toEqual([]);
    const paths = [...html.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]);
    expect(new Set(paths)).toEqual(new Set([`${PATHS.docs}/assets/docs.css`, PATHS.openapi]));
  });

  it('carries no script, and its policy allows none', async () => {
    expect(await page()).not.toMatch(/<script|\son\w+=/i);
    const csp = docsResponse(PATHS.docs)?.headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(docsResponse(`${PATHS.docs}/`)?.status).toBe(200);
    expect((await page(`${PATHS.docs}/assets/docs.css`)).length).toBeGreaterThan(100);
    expect(docsResponse(`${PATHS.docs}/assets/missing.js`)).toBeUndefined();
  });
});
