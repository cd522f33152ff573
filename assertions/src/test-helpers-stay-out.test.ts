// Test helpers live apart from what ships: in @openmates/fixtures (loopback provider servers, a log
// line collector) and in each package's `testing/` folder (its `./testing` subpath export). This
// scans every tracked product source file, so an import of a helper from product code fails here
// with its file and what it imports (docs/adr/0077-test-helpers-apart.md).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the product's own code is: each surface's `src`, the fixtures package aside. */
const PRODUCT_SOURCE = /^(contract|packages\/[^/]+|apps\/[^/]+)\/src\//;

function isProductSource(path: string): boolean {
  return (
    PRODUCT_SOURCE.test(path) &&
    !path.startsWith('packages/fixtures/') &&
    /\.(ts|js|svelte)$/.test(path) &&
    !/\.test(-d)?\.ts$|\.e2e\.ts$/.test(path) &&
    !path.split('/').includes('testing')
  );
}

/** Every module specifier `text` imports or re-exports, statically or with `import()`. */
function importedSpecifiers(text: string): string[] {
  const found: string[] = [];
  const pattern = /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*(?:\(\s*)?['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier !== undefined) found.push(specifier);
  }
  return found;
}

/** Whether a specifier names a test helper: the fixtures package, or a `testing` folder or subpath. */
function isTestHelper(specifier: string): boolean {
  return (
    specifier === '@openmates/fixtures' ||
    specifier.startsWith('@openmates/fixtures/') ||
    /(^|\/)testing(\/|$)/.test(specifier)
  );
}

describe('the test-helper import matcher', () => {
  it('finds a helper imported in each form', () => {
    const text = [
      "import { lineCollector } from '@openmates/fixtures';",
      "import { startTestServer, type TestServer } from './testing/index.ts';",
      "export { testQuery } from '@openmates/core/testing';",
      "const { testContext } = await import('../../testing/provider-query.ts');",
      "import '@openmates/fixtures/brave';",
    ].join('\n');
    expect(importedSpecifiers(text).filter(isTestHelper)).toEqual([
      '@openmates/fixtures',
      './testing/index.ts',
      '@openmates/core/testing',
      '../../testing/provider-query.ts',
      '@openmates/fixtures/brave',
    ]);
  });

  it('lets product imports through', () => {
    const text = [
      "import { createEngine } from '@openmates/core';",
      "import type { Logger } from './logger.ts';",
      "import { search } from './test-results.ts';",
      "import { createServer } from '@openmates/server';",
    ].join('\n');
    expect(importedSpecifiers(text)).toHaveLength(4);
    expect(importedSpecifiers(text).filter(isTestHelper)).toEqual([]);
  });
});

describe('product source', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(isProductSource);

  it('is found: the engine, the server and the GUI are scanned', () => {
    for (const path of ['packages/core/src/index.ts', 'packages/server/src/index.ts', 'contract/src/index.ts'])
      expect(files, path).toContain(path);
    expect(files.some((path) => path.startsWith('apps/web/src/'))).toBe(true);
  });

  it('never imports a test helper', () => {
    const offenders = files.flatMap((path) =>
      importedSpecifiers(readFileSync(join(ROOT, path), 'utf8'))
        .filter(isTestHelper)
        .map((specifier) => `${path} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });
});
