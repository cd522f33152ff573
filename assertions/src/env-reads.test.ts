// The environment is read in one module per package: each package's product source reads
// `process.env` (or, in the pip SDK, `os.environ`) in the module named below and nowhere else; every
// other module takes its values from that one. Found by syntax, not by text, so a variable's name in
// a string (a code snippet the GUI shows) is not a read. Not walked: tests (`*.test.*`, `test/`,
// `tests/`, `e2e/`), each package's `scripts/` (benchmarks, generators, the soak), the fixtures
// package and the parity suite, which start processes and hand them environments on purpose.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Each package's product source, and its one module that reads the environment (none for a package that reads none). */
const ENV_MODULES: Record<string, { sources: string[]; module?: string }> = {
  'packages/cli': { sources: ['packages/cli/src', 'packages/cli/bin'], module: 'packages/cli/src/lib/cli-env.ts' },
  'packages/core': { sources: ['packages/core/src'], module: 'packages/core/src/env.ts' },
  'packages/server': { sources: ['packages/server/src'], module: 'packages/server/src/env.ts' },
  // Reads no environment: the CLI hands it its settings.
  'packages/mcp': { sources: ['packages/mcp/src'] },
  'packages/sdk': { sources: ['packages/sdk/src'], module: 'packages/sdk/src/env.ts' },
  'packages/sdk-python': {
    sources: ['packages/sdk-python/src'],
    module: 'packages/sdk-python/src/openmates/_base_client.py',
  },
  // Declares variables' names and meanings; reads none.
  contract: { sources: ['contract/src'] },
  // SvelteKit reads the process's environment itself and hands the app the variables declared here
  // (`$app/env/private`), so the app's own modules never read it.
  'apps/web': { sources: ['apps/web/src', 'apps/web/handler.js'], module: 'apps/web/src/env.ts' },
};

/** Modules that read the environment besides their package's one, each with why it must. */
const EXCEPTIONS: Record<string, string> = {
  'packages/cli/bin/run.js':
    'the launcher reads OPENMATES_DEBUG when a crash escaped everything, which may be the failure to load the built modules, so it imports none',
  'apps/web/handler.js':
    "the GUI's wrapper of adapter-node, outside the SvelteKit app: it sets PROTOCOL_HEADER, which adapter-node reads from the process, before loading it",
};

const SOURCE = /\.(ts|js|mjs|svelte|py)$/;
const TEST = /(\.test\.|\.test-d\.|\.spec\.|(^|\/)(tests?|e2e)\/|(^|\/)test_[^/]*\.py$)/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', '.svelte-kit', '__pycache__', '.venv', 'scripts']);

function sourceFiles(path: string): string[] {
  if (SOURCE.test(path)) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(child));
    else if (SOURCE.test(entry.name)) out.push(child);
  }
  return out;
}

/** `process`, `globalThis.process` or `host.process` (or Deno's namespace, likewise). */
function isProcess(node: ts.Expression): boolean {
  const name = ts.isIdentifier(node) ? node.text : ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
  return name === 'process' || name === 'Deno';
}

/** The lines of a script where it reads the process's environment. */
export function envReadsOfScript(text: string, name: string): number[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const hit = (node: ts.Node) => lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1);
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && isProcess(node.expression)) hit(node);
    else if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'env' &&
      isProcess(node.expression)
    )
      hit(node);
    else if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      isProcess(node.initializer) &&
      ts.isObjectBindingPattern(node.name) &&
      node.name.elements.some((e) => ((e.propertyName ?? e.name) as ts.Identifier).text === 'env')
    )
      hit(node);
    else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?process$/.test(node.moduleSpecifier.text) &&
      node.importClause?.namedBindings &&
      ts.isNamedImports(node.importClause.namedBindings) &&
      node.importClause.namedBindings.elements.some((e) => (e.propertyName ?? e.name).text === 'env')
    )
      hit(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

const PYTHON_READ = /\bos\.(environ|getenv)\b|\bgetproxies_environment\b|^\s*from os import .*\b(environ|getenv)\b/;

/** The lines of a source file where it reads the process's environment. */
function envReads(path: string): number[] {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.py'))
    return text.split('\n').flatMap((line, i) => (PYTHON_READ.test(line.replace(/#.*$/, '')) ? [i + 1] : []));
  if (path.endsWith('.svelte')) {
    const scripts = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    return scripts.flatMap((script) => envReadsOfScript(script, `${path}.ts`));
  }
  return envReadsOfScript(text, path);
}

/** Every file of the walked sources that reads the environment, with the lines. */
function readingFiles(): Record<string, number[]> {
  const found: Record<string, number[]> = {};
  for (const { sources } of Object.values(ENV_MODULES))
    for (const source of sources)
      for (const path of sourceFiles(join(ROOT, source))) {
        const file = relative(ROOT, path);
        if (TEST.test(file)) continue;
        const lines = envReads(path);
        if (lines.length > 0) found[file] = lines;
      }
  return found;
}

describe('the environment is read in one module per package', () => {
  const found = readingFiles();

  it("reads it nowhere but each package's env module and the declared exceptions", () => {
    const allowed = new Set([...Object.values(ENV_MODULES).flatMap((m) => m.module ?? []), ...Object.keys(EXCEPTIONS)]);
    const outside = Object.fromEntries(Object.entries(found).filter(([file]) => !allowed.has(file)));
    expect(outside, 'move these reads into the package’s env module and take the values from it').toEqual({});
  });

  it('still has a read in every declared exception (a stale one is removed)', () => {
    for (const file of Object.keys(EXCEPTIONS)) expect(found[file], file).toBeDefined();
  });

  it('finds reads by syntax: member, element, destructuring and import, but not a name in a string', () => {
    const reads = (text: string) => envReadsOfScript(text, 'probe.ts');
    expect(reads('const a = process.env.A;')).toEqual([1]);
    expect(reads('const a = globalThis.process?.env?.A;')).toEqual([1]);
    expect(reads("const a = process['env'].A;")).toEqual([1]);
    expect(reads('const { env } = process;')).toEqual([1]);
    expect(reads("import { env } from 'node:process';")).toEqual([1]);
    expect(reads("const snippet = 'apiKey: process.env.OPENMATES_API_KEY'; // process.env")).toEqual([]);
    expect(reads("const a = Deno.env.get('A');")).toEqual([1]);
    expect(reads('const a = config.env;')).toEqual([]);
  });
});
