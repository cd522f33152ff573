import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { PATHS } from './paths.ts';
import {
  API_NAMESPACE,
  createRouter,
  GUI_ROUTE,
  isApiPath,
  matchRoute,
  ROUTE_TABLE,
  ROUTES,
  routeTemplate,
  TRPC_SEARCH_PROCEDURE,
} from './routes.ts';

describe('the route table', () => {
  it('names each route by its operation, once', () => {
    for (const [name, route] of Object.entries(ROUTE_TABLE)) expect(route.operation).toBe(name);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path} ${r.variant?.accept ?? ''}`)).size).toBe(ROUTES.length);
  });

  it('has a base operation for every variant, with the same method and path', () => {
    for (const route of ROUTES.filter((r) => r.variant)) {
      const base = ROUTES.find((r) => r.operation === route.variant?.of);
      expect(base, route.operation).toBeDefined();
      expect([base?.method, base?.path]).toEqual([route.method, route.path]);
      expect([base?.needsKey, base?.metering]).toEqual([route.needsKey, route.metering]);
    }
  });

  it('answers only with error codes of the contract', () => {
    for (const route of ROUTES)
      for (const answer of Object.values(route.responses))
        if ('error' in answer) expect(ERROR_CODES).toContain(answer.error);
  });

  it('is what the OpenAPI document lists: every base route, with its security', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { security: unknown[] }>>;
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented).toEqual(ROUTES.filter((r) => !r.variant).map((r) => `${r.method} ${r.path}`));
    for (const route of ROUTES) {
      const security = paths[route.path]?.[route.method.toLowerCase()]?.security;
      expect([route.operation, security?.length ?? 0]).toEqual([route.operation, route.needsKey ? 2 : 0]);
    }
  });

  it('documents the event stream inside the search it is a variant of', () => {
    const paths = buildOpenApiDocument().paths as Record<
      string,
      Record<string, { responses: Record<string, { content: object }> }>
    >;
    const ok = paths[PATHS.search]?.post?.responses['200'];
    expect(Object.keys(ok?.content ?? {})).toEqual(['application/json', 'text/event-stream']);
  });

  it('gives PATHS from the table', () => {
    expect(PATHS.search).toBe(`${API_NAMESPACE}/apps/web/skills/search`);
    expect(`${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}`).toBe(ROUTE_TABLE.trpcSearch.path);
    expect(Object.values(PATHS).every((path) => ROUTES.some((r) => r.path === path || r.prefix === path))).toBe(true);
  });
});

/** The methods a 405 names for a method and path, or what else the lookup found. */
function refused(method: string, pathname: string): readonly string[] | string | undefined {
  const match = matchRoute(method, pathname);
  return match?.route ? `route ${match.route.operation}` : match?.allow;
}

describe('matchRoute', () => {
  it('finds the route of a method and path, HEAD as GET', () => {
    expect(matchRoute('POST', PATHS.search)?.route?.operation).toBe('search');
    expect(matchRoute('GET', PATHS.search)?.route?.operation).toBe('skillInfo');
    expect(matchRoute('HEAD', PATHS.search)?.route?.operation).toBe('skillInfo');
    expect(matchRoute('HEAD', PATHS.health)?.route?.operation).toBe('health');
    expect(matchRoute('POST', PATHS.mcp)?.route?.operation).toBe('mcp');
  });

  it('answers the methods of a known path for a method it does not take', () => {
    expect(refused('DELETE', PATHS.search)).toEqual(['GET', 'HEAD', 'POST']);
    expect(refused('POST', PATHS.openapi)).toEqual(['GET', 'HEAD']);
    expect(refused('PUT', PATHS.health)).toEqual(['GET', 'HEAD']);
    expect(refused('POST', `${PATHS.docs}/assets/x.css`)).toEqual(['GET', 'HEAD']);
    expect(refused('GET', PATHS.mcp)).toEqual(['POST']);
    expect(refused('DELETE', PATHS.mcp)).toEqual(['POST']);
  });

  it('hands every path under the tRPC prefix to tRPC, and names its surface on a 405 (refused in its envelope)', () => {
    for (const path of [PATHS.trpc, ROUTE_TABLE.trpcSearch.path, `${PATHS.trpc}/webSearch.nope`]) {
      expect(matchRoute('POST', path)?.route?.operation).toBe('trpcSearch');
      for (const method of ['GET', 'DELETE'])
        expect(matchRoute(method, path)).toMatchObject({ allow: ['POST'], tag: 'trpc' });
    }
  });

  it('knows no other path', () => {
    for (const path of ['/', '/nope', `${API_NAMESPACE}/apps/web/skills/other`, '/docsx', '/trpcx', '/healthz/x'])
      expect([path, matchRoute('GET', path)]).toEqual([path, undefined]);
  });
});

describe('createRouter', () => {
  const probe = { ...ROUTE_TABLE.health, operation: 'probe', path: '/probe' } as const;
  const router = createRouter({ ...ROUTE_TABLE, probe }, { pages: GUI_ROUTE });

  it('matches a route added to a copy of the table, and the GUI on every path the table does not own', () => {
    expect(router.match('GET', '/probe')?.route?.operation).toBe('probe');
    expect(router.match('GET', '/probe')?.template).toBe('/probe');
    expect(matchRoute('GET', '/probe')).toBeUndefined();
    for (const path of ['/', '/search', '/docsx'])
      expect([path, router.match('POST', path)?.route?.operation]).toEqual([path, 'gui']);
    // The versioned namespace stays the API's: an unknown path there is its 404, not a page.
    expect(router.match('GET', `${API_NAMESPACE}/nope`)).toBeUndefined();
    expect(router.match('GET', '/')?.template).toBe('/*');
  });

  it('answers each lookup with the same object, built once', () => {
    expect(router.match('POST', PATHS.search)).toBe(router.match('POST', PATHS.search));
    expect(router.match('HEAD', PATHS.search)).toBe(router.match('GET', PATHS.search));
  });
});

describe('isApiPath', () => {
  it('claims the API paths and leaves the rest to the GUI', () => {
    for (const path of [
      '/v1/apps/web/skills/search',
      '/v1/openapi.json',
      '/v1/anything',
      '/trpc',
      '/trpc/webSearch.search',
      '/docs',
      '/docs/assets/x.css',
      '/healthz',
      '/readyz',
      '/metrics',
      '/mcp',
    ])
      expect([path, isApiPath(path)]).toEqual([path, true]);
    for (const path of ['/', '/search', '/search/stream', '/docsx', '/trpcx', '/healthz/x', '/mcp/x', '/v1'])
      expect([path, isApiPath(path)]).toEqual([path, false]);
  });
});

describe('routeTemplate', () => {
  it('names a route by its template and everything else `other`', () => {
    expect(routeTemplate(PATHS.search)).toBe(PATHS.search);
    expect(routeTemplate(PATHS.metrics)).toBe(PATHS.metrics);
    expect(routeTemplate(PATHS.mcp)).toBe(PATHS.mcp);
    expect(routeTemplate(`${PATHS.trpc}/webSearch.search`)).toBe(`${PATHS.trpc}/*`);
    expect(routeTemplate(PATHS.trpc)).toBe(`${PATHS.trpc}/*`);
    expect(routeTemplate(`${PATHS.docs}/assets/x.css`)).toBe(PATHS.docs);
    for (const path of ['/nope', '/v1/apps/web/skills/other', '/docsx', '/v1/openapi.json/x'])
      expect(routeTemplate(path)).toBe('other');
  });
});

// Every route path is declared in the table: code elsewhere takes it from there (PATHS,
// ROUTE_TABLE, matchRoute, the SDKs' generated files), so a string literal spelling one is a
// second declaration that can drift.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROUTE_PATHS = [...new Set([...ROUTES.flatMap((r) => [r.path, ...(r.prefix ? [r.prefix] : [])]), API_NAMESPACE])];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', 'test', 'tests', 'e2e', '__pycache__']);
// The contract declares the paths; the fixture servers speak their upstreams' own paths.
const SKIPPED_TREES = ['contract', join('packages', 'fixtures'), join('assertions', 'report')];
const SOURCE = /\.(?:[cm]?[jt]s|svelte|py)$/;
const TEST_FILE = /\.(?:test|test-d|e2e)\.[cm]?[jt]s$/;
const GENERATED = /^(?:\/\/|#) Generated by /m;

function sourceFiles(directory: string, files: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      const tree = relative(ROOT, path);
      if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name) || SKIPPED_TREES.includes(tree)) continue;
      sourceFiles(path, files);
    } else if (SOURCE.test(entry.name) && !TEST_FILE.test(entry.name)) files.push(path);
  }
  return files;
}

/** The text of every string literal of a TypeScript/JavaScript source, template pieces included. */
function scriptStrings(text: string): string[] {
  const strings: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('source.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  return strings;
}

/** A Svelte component's strings: its scripts', and the quoted values of its markup. */
function svelteStrings(text: string): string[] {
  const strings: string[] = [];
  const markup = text
    .replace(/<script\b[^>]*>([\s\S]*?)<\/script>/g, (_, script: string) => {
      strings.push(...scriptStrings(script));
      return '';
    })
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  for (const match of markup.matchAll(/"([^"]*)"|'([^']*)'|`([^`]*)`/g))
    strings.push(match[1] ?? match[2] ?? match[3] ?? '');
  return strings;
}

/** A Python module's string literals (comments skipped; an f-string as its pieces between fields). */
function pythonStrings(text: string): string[] {
  const strings: string[] = [];
  const token = /#[^\n]*|([rRbBuUfF]{0,2})("""|'''|"|')/g;
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const quote = match[2];
    if (quote === undefined) continue;
    let end = token.lastIndex;
    while (end < text.length && !text.startsWith(quote, end)) end += text[end] === '\\' ? 2 : 1;
    const body = text.slice(token.lastIndex, end);
    strings.push(...(/f/i.test(match[1] ?? '') ? body.split(/\{[^{}]*\}/) : [body]));
    token.lastIndex = end + quote.length;
  }
  return strings;
}

/** True for a string that spells a route's path: the path itself, or the path with more after `/` or `?`. */
function spellsRoutePath(text: string): boolean {
  return ROUTE_PATHS.some((path) => text === path || text.startsWith(`${path}/`) || text.startsWith(`${path}?`));
}

describe('route paths outside the contract', () => {
  it('the scanner sees strings of each language and skips comments', () => {
    const template = ['const b = `$', '{c}/z`;'].join('');
    expect(scriptStrings(`const a = '/x'; // '/y'\n${template}`)).toEqual(['/x', '', '/z']);
    expect(svelteStrings('<script>const a = "/x";</script><!-- "/y" --><a href="/z">z</a>')).toEqual(['/x', '/z']);
    expect(pythonStrings('a = "/x"  # "/y"\nb = f"{c}/z"\nc = """\n"/w"\n"""')).toEqual(['/x', '', '/z', '\n"/w"\n']);
    expect(spellsRoutePath(PATHS.health)).toBe(true);
    expect(spellsRoutePath(`${PATHS.docs}/assets/x.css`)).toBe(true);
    expect(spellsRoutePath(`${PATHS.search}?x=1`)).toBe(true);
    expect(spellsRoutePath(`${PATHS.health}z`)).toBe(false);
  });

  it('are never spelled in a string literal of TypeScript, Svelte or Python source (tests, fixtures and generated files aside)', () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (GENERATED.test(text.split('\n').slice(0, 3).join('\n'))) continue;
      const strings = file.endsWith('.py')
        ? pythonStrings(text)
        : file.endsWith('.svelte')
          ? svelteStrings(text)
          : scriptStrings(text);
      for (const string of strings.filter(spellsRoutePath))
        found.push(`${relative(ROOT, file).split(sep).join('/')}: ${string}`);
    }
    expect(found).toEqual([]);
  });
});
