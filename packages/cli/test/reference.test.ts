// docs/reference.md is generated from the contract's tables and the parsers' environment tables;
// it must be exactly what the generator writes, and every variable the code reads must be on it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_TABLE, ROUTES } from '@openmates/contract';
import { loadConfig } from '@openmates/core';
import { loadServerConfig } from '@openmates/server';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_SECTIONS, REFERENCE_PATH, referencePage } from '../scripts/reference-page.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every source file the product runs (no tests, scripts, fixtures or generated output). */
function productSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'build', '.svelte-kit', 'generated', 'testing'].includes(entry.name)) walk(path);
      } else if (/\.(ts|js|svelte|py)$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name)) files.push(path);
    }
  };
  for (const dir of ['contract/src', 'apps/web/src', 'packages/sdk-python/src']) walk(join(ROOT, dir));
  for (const name of readdirSync(join(ROOT, 'packages')))
    if (name !== 'fixtures') walk(join(ROOT, 'packages', name, 'src'));
  return files;
}

describe('docs/reference.md', () => {
  it('is exactly what the generator writes (run `pnpm generate` after changing a table)', () => {
    expect(readFileSync(REFERENCE_PATH, 'utf8')).toBe(referencePage());
  });

  it('lists every route and every error code of the contract', () => {
    const page = referencePage();
    for (const route of ROUTES) expect(page).toContain(`| \`${route.operation}\` |`);
    for (const [code, entry] of Object.entries(ERROR_TABLE))
      expect(page).toContain(`| \`${code}\` | ${entry.status} | ${entry.exitCode} |`);
  });

  it('lists every OPENMATES_ variable the product reads, each once', () => {
    const page = referencePage();
    const listed = ENVIRONMENT_SECTIONS.flatMap((section) => Object.keys(section.variables));
    expect(new Set(listed).size).toBe(listed.length);
    const unlisted = new Map<string, string>();
    for (const file of productSources())
      for (const [name] of readFileSync(file, 'utf8').matchAll(/\bOPENMATES_[A-Z0-9_]*[A-Z0-9]\b/g))
        if (!listed.includes(name)) unlisted.set(name, relative(ROOT, file));
    expect(Object.fromEntries(unlisted)).toEqual({});
    for (const name of listed) expect(page).toContain(`| \`${name}\` |`);
  });

  it('states the defaults the parsers apply', () => {
    const engine = loadConfig({});
    const server = loadServerConfig({});
    const byName = Object.assign({}, ...ENVIRONMENT_SECTIONS.map((section) => section.variables)) as Record<
      string,
      { default?: string }
    >;
    expect(byName.OPENMATES_CACHE_TTL_S?.default).toBe(String(engine.cacheTtlS));
    expect(byName.OPENMATES_MAX_SOURCES?.default).toBe(String(engine.maxSources));
    expect(byName.OPENMATES_MAX_RESPONSE_BYTES?.default).toBe(String(engine.maxResponseBytes));
    expect(byName.OPENMATES_PROVIDER?.default).toBe(engine.provider);
    expect(byName.BRAVE_SEARCH_BASE_URL?.default).toBe(engine.settings.brave.baseUrl);
    expect(byName.OPENAI_BASE_URL?.default).toBe(engine.settings.openai.baseUrl);
    expect(byName.OPENMATES_OPENAI_SEARCH_MODEL?.default).toBe(engine.settings.openai.model);
    expect(byName.OPENMATES_PROVIDER_TIMEOUT_MS?.default?.startsWith(String(engine.providerTimeoutMs))).toBe(true);
    expect(byName.OPENMATES_LOG_LEVEL?.default?.startsWith(`\`${engine.logLevel}\``)).toBe(true);
    expect(byName.OPENMATES_RATE_LIMIT_PER_MIN?.default?.startsWith(`${server.rateLimit};`)).toBe(true);
    expect(byName.OPENMATES_RATE_LIMIT_WINDOW_S?.default).toBe(String(server.rateLimitWindowS));
    expect(byName.OPENMATES_STREAM_KEEPALIVE_MS?.default).toBe(String(server.streamKeepAliveMs));
    expect(byName.OPENMATES_DRAIN_MS?.default).toBe(String(server.drainMs));
    expect(byName.OPENMATES_HEADERS_TIMEOUT_MS?.default).toBe(String(server.headersTimeoutMs));
    expect(byName.OPENMATES_BODY_TIMEOUT_MS?.default).toBe(String(server.bodyTimeoutMs));
  });
});
