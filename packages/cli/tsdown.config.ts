import { defineConfig } from 'tsdown';

/**
 * `import { parseArgs } from 'node:util'` as an ES module import makes Node build the builtin's ESM
 * facade, which reads every export and so runs each of Node's lazy getters: about 10 ms for
 * node:util (it loads the text decoders, MIME types and more), 3 ms for node:fs, on every start.
 * `process.getBuiltinModule` (Node ≥ 22.3) hands back the CommonJS object without a facade, and
 * destructuring reads only the names used. Builtins never change, so the live binding an import
 * would give is not missed. Rewrites the import lines rolldown emits at the top of each chunk.
 */
function builtinsWithoutFacade() {
  const IMPORT = /^import (?:([\w$]+)|\* as ([\w$]+)|\{([^}]*)\}) from "(node:[\w/]+)";$/gm;
  return {
    name: 'builtins-without-facade',
    renderChunk(code: string) {
      return code.replace(IMPORT, (_line, name?: string, namespace?: string, named?: string, id?: string) => {
        const module = `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`;
        if (named === undefined) return `const ${name ?? namespace} = ${module};`;
        const bindings = named
          .split(',')
          .map((binding) => binding.trim())
          .filter((binding) => binding !== '')
          .map((binding) => binding.replace(/^([\w$]+) as ([\w$]+)$/, '$1: $2'));
        return `const { ${bindings.join(', ')} } = ${module};`;
      });
    },
  };
}

/** A module id with forward slashes, so the tests below read alike on every platform. */
const slashed = (id: string) => id.replaceAll('\\', '/');

/**
 * lru-cache picks its TTL clock when it loads, by reading the `performance` global, and reading it
 * makes Node load perf_hooks (nine modules, about 2 ms of every start) although a search never
 * sets a TTL that way in this process. The bundle hands it a clock that reads `performance` at
 * its first `now()`, so lru-cache times TTLs exactly as before. The expression is matched exactly:
 * an lru-cache whose code no longer has it fails the build rather than loading perf_hooks again.
 */
function lruCacheClockOnFirstUse() {
  const PROBE =
    /typeof performance\s*==\s*"object"\s*&&\s*performance\s*&&\s*typeof performance\.now\s*==\s*"function"\s*\?\s*performance\s*:\s*Date/;
  return {
    name: 'lru-cache-clock-on-first-use',
    transform(code: string, id: string) {
      if (!slashed(id).includes('/node_modules/lru-cache/')) return undefined;
      if (!PROBE.test(code)) throw new Error(`lru-cache no longer reads its clock as expected (${id})`);
      return code.replace(PROBE, '{ now: () => globalThis.performance.now() }');
    },
  };
}

/**
 * The modules `openmates search`'s fast path imports statically (`src/fast-search.ts` down to
 * zod), by their path under the repository. Left to itself, rolldown makes a chunk of each set of
 * modules the entries share alike, which made that path ten files, and each file costs the loader
 * about 0.4 ms on every start (resolving, reading, the compile cache): so they share one chunk.
 * rolldown's module graph cannot give this list, because `@openmates/contract`'s index re-exports
 * every module and only tree-shaking drops the ones unused. `test/cold-start.test.ts` fails when
 * the path's static imports reach a second chunk of ours, so a module missing here is found.
 */
const SEARCH_PATH = [
  'packages/cli/src/fast-search.ts',
  'packages/cli/src/lib/io.ts',
  'packages/cli/src/lib/cli-env.ts',
  'packages/cli/src/search/run-search.ts',
  'packages/cli/src/search/build-request.ts',
  'packages/cli/src/search/search-flags.ts',
  'packages/cli/src/search/outcome.ts',
  'contract/src/bounded-text.ts',
  'contract/src/client-env.ts',
  'contract/src/countries.ts',
  'contract/src/errors.ts',
  'contract/src/fields.ts',
  'contract/src/generated/joiners.ts',
  'contract/src/issue-messages.ts',
  'contract/src/languages.ts',
  'contract/src/limits.ts',
  'contract/src/normalize.ts',
  'contract/src/once.ts',
  'contract/src/request-schemas.ts',
  'contract/src/scope.ts',
  'contract/src/text.ts',
  'contract/src/zod.ts',
  'node_modules/zod/',
  'node_modules/@asteasolutions/zod-to-openapi/',
];
const onSearchPath = (id: string) => SEARCH_PATH.some((path) => slashed(id).includes(`/${path}`));

/**
 * The engine, which the search path imports lazily, as one chunk too: the CLI's in-process search,
 * core's modules and the contract's provider list (left to itself rolldown made five files of
 * them). Core's modules that it imports lazily itself stay out (`ENGINE_LAZY`), or joining its
 * chunk would evaluate them on every start: OpenAI's and Anthropic's transports, the live probe's
 * pipeline, the demo corpus's page text, the reader of added files. `test/cold-start.test.ts` holds the list to core's dynamic imports.
 */
export const ENGINE_LAZY = [
  'packages/core/src/providers/openai/transport.ts',
  'packages/core/src/providers/openai/events.ts',
  'packages/core/src/providers/openai/receipts.ts',
  'packages/core/src/providers/anthropic/transport.ts',
  'packages/core/src/pipeline/query-provider.ts',
  'packages/core/src/providers/local/generated/page-text.js',
  'packages/core/src/providers/local/read-file-document.ts',
];
const onEnginePath = (id: string) => {
  const path = slashed(id);
  if (ENGINE_LAZY.some((lazy) => path.includes(`/${lazy}`))) return false;
  return (
    path.includes('/packages/core/src/') ||
    path.includes('/packages/cli/src/search/in-process.ts') ||
    path.includes('/contract/src/providers.ts')
  );
};

export default defineConfig({
  entry: {
    'fast-search': 'src/fast-search.ts',
    'fast-mcp': 'src/fast-mcp.ts',
    version: 'src/version.ts',
    'commands/search': 'src/commands/search.ts',
    'commands/serve': 'src/commands/serve.ts',
    'commands/mcp': 'src/commands/mcp.ts',
    'commands/doctor': 'src/commands/doctor.ts',
    'commands/index/add': 'src/commands/index/add.ts',
    'commands/index/stats': 'src/commands/index/stats.ts',
    'commands/index/clear': 'src/commands/index/clear.ts',
    'commands/keys/add': 'src/commands/keys/add.ts',
    'commands/keys/list': 'src/commands/keys/list.ts',
    'commands/usage': 'src/commands/usage.ts',
    'hooks/command-not-found': 'src/hooks/command-not-found.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  outExtensions: () => ({ js: '.js' }),
  // The workspace packages are private and export TypeScript source, so they are bundled in, with
  // their pure-JS dependencies: one file per command path loads faster than hundreds of modules
  // (packages/cli/README.md, "Cold start"). The CLI's own dependencies stay external: oclif (loaded from its
  // manifest) and the output helpers.
  // tsdown keeps `dependencies` external and bundles everything else it meets.
  deps: { onlyBundle: false },
  plugins: [builtinsWithoutFacade(), lruCacheClockOnFirstUse()],
  outputOptions: {
    // ASCII only, without JSDoc or annotations (licence comments kept): a chunk with one
    // non-ASCII character is a two-byte string to V8, which Node decodes, hashes against its
    // compile cache and scans at twice the cost; the search path's two chunks lost 100 KB and
    // about a tenth of a cold search's instructions. The sources keep every comment.
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
    codeSplitting: {
      groups: [
        { name: 'search-path', test: onSearchPath },
        // `--version` prints the fingerprint: a chunk of its own, not the engine's.
        {
          name: 'fingerprint',
          test: (id: string) => slashed(id).includes('/contract/src/generated/fingerprint.ts'),
        },
        { name: 'engine', test: onEnginePath },
      ],
    },
  },
  dts: false,
  sourcemap: false,
  clean: true,
});
