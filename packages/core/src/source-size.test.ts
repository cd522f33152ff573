// A source file of the engine stays short enough to read in one sitting: at most MAX_LINES lines,
// named for the one thing it does (docs/adr/0076-core-size-limits.md). Functions are held to 80
// lines by Biome's noExcessiveLinesPerFunction (biome.json); this test pins that setting too. The
// benchmarks (`packages/*/scripts/bench-*.ts` and the parts under `scripts/bench/`) are held to the
// same file limit, so that each reads on a few screens.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('.', import.meta.url));
const BIOME_JSON = fileURLToPath(new URL('../../../biome.json', import.meta.url));
const PACKAGES = fileURLToPath(new URL('../../', import.meta.url));
const MAX_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** Pure data, exempt from the file limit (paths under packages/core/src), each with why it is data. */
const DATA_FILES: Readonly<Record<string, string>> = {
  'providers/brave/languages.ts': "Brave's search_lang codes and their ISO 639-1 mapping: a language table",
  'hygiene/tabloid-domains.ts': 'the list of tabloid domains the tabloid filter removes',
  'hygiene/html-elements.ts': 'the element-name sets that the HTML readers share',
};

function isSource(path: string): boolean {
  return /\.(ts|js|svelte)$/.test(path) && !/\.test(-d)?\.ts$/.test(path);
}

/** Every non-test source file under packages/core/src, as a path relative to it with `/` separators. */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter(isSource)
    .sort();
}

/** Every benchmark source file, as a path relative to `packages/`: the `bench-` scripts of every package and whatever is under a `scripts/bench` folder. */
function benchmarkFiles(): string[] {
  return readdirSync(PACKAGES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PACKAGES, entry.name, 'scripts')))
    .flatMap((entry) =>
      readdirSync(join(PACKAGES, entry.name, 'scripts'), { recursive: true, encoding: 'utf8' })
        .map((path) => `${entry.name}/scripts/${path.split('\\').join('/')}`)
        .filter((path) => /\/scripts\/(bench-[^/]+|bench\/.+)\.ts$/.test(path)),
    )
    .sort();
}

/** Lines as `wc -l` counts them: newline characters, plus a last line without one. */
function lineCount(path: string, root = SRC): number {
  const text = readFileSync(join(root, path), 'utf8');
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') || text === '' ? newlines : newlines + 1;
}

interface BiomeOverride {
  includes?: string[];
  linter?: { rules?: { complexity?: { noExcessiveLinesPerFunction?: unknown } } };
}

function biomeOverrides(): BiomeOverride[] {
  return (JSON.parse(readFileSync(BIOME_JSON, 'utf8')) as { overrides?: BiomeOverride[] }).overrides ?? [];
}

describe('the size of core source files', () => {
  it(`keeps every non-test source file at most ${MAX_LINES} lines, except declared data files`, () => {
    const exempt = new Set(Object.keys(DATA_FILES));
    const tooLong = sourceFiles()
      .filter((path) => !exempt.has(path))
      .map((path) => ({ path, lines: lineCount(path) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong, `over ${MAX_LINES} lines: split by what each part does`).toEqual([]);
  });

  it(`keeps every benchmark file at most ${MAX_LINES} lines`, () => {
    const files = benchmarkFiles();
    expect(files).toContain('server/scripts/bench-server.ts');
    expect(files).toContain('server/scripts/bench/shared.ts');
    const tooLong = files
      .map((path) => ({ path, lines: lineCount(path, PACKAGES) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong, `over ${MAX_LINES} lines: split by what each part measures`).toEqual([]);
  });

  it('names only files that exist in its exemptions, each data file with a reason', () => {
    const files = new Set(sourceFiles());
    for (const [path, reason] of Object.entries(DATA_FILES)) {
      expect(files.has(path), path).toBe(true);
      expect(reason.length, path).toBeGreaterThan(0);
    }
  });

  it(`has Biome hold every core function to ${MAX_FUNCTION_LINES} lines, test files aside`, () => {
    const limit = biomeOverrides().find(
      (override) => typeof override.linter?.rules?.complexity?.noExcessiveLinesPerFunction === 'object',
    );
    expect(limit?.includes).toEqual([
      'packages/core/src/**/*.ts',
      '!packages/core/src/**/*.test.ts',
      '!packages/core/src/**/*.test-d.ts',
    ]);
    expect(limit?.linter?.rules?.complexity?.noExcessiveLinesPerFunction).toEqual({
      level: 'error',
      options: { maxLines: MAX_FUNCTION_LINES },
    });
  });

  it('exempts no file from the function limit', () => {
    const exempted = biomeOverrides()
      .filter((override) => override.linter?.rules?.complexity?.noExcessiveLinesPerFunction === 'off')
      .flatMap((override) => override.includes ?? []);
    expect(exempted).toEqual([]);
  });
});
