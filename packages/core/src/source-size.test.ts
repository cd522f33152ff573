// A source file of the engine stays short enough to read in one sitting: at most MAX_LINES lines,
// named for the one thing it does (docs/adr/0078-core-size-limits.md). Functions are held to 80
// lines by Biome's noExcessiveLinesPerFunction (biome.json); this test pins that setting too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('.', import.meta.url));
const BIOME_JSON = fileURLToPath(new URL('../../../biome.json', import.meta.url));
const MAX_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** Pure data, exempt from the file limit (paths under packages/core/src), each with why it is data. */
const DATA_FILES: Readonly<Record<string, string>> = {
  'providers/brave/languages.ts': "Brave's search_lang codes and their ISO 639-1 mapping: a language table",
  'hygiene/tabloid-domains.ts': 'the list of tabloid domains the tabloid filter removes',
  'hygiene/html-elements.ts': 'the element-name sets that the HTML readers share',
};

/**
 * TEMPORARY. Files being rewritten into smaller modules, exempt from both limits until then (biome.json
 * exempts the same files from the function limit). Remove each entry as its file is split; the test
 * fails on an entry whose file is back under the limit, so this list empties as they shrink.
 */
const BEING_REWRITTEN: readonly string[] = [
  'engine.ts',
  'providers/brave/provider.ts',
  'providers/searxng/provider.ts',
];

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

/** Lines as `wc -l` counts them: newline characters, plus a last line without one. */
function lineCount(path: string): number {
  const text = readFileSync(join(SRC, path), 'utf8');
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
    const exempt = new Set([...Object.keys(DATA_FILES), ...BEING_REWRITTEN]);
    const tooLong = sourceFiles()
      .filter((path) => !exempt.has(path))
      .map((path) => ({ path, lines: lineCount(path) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong, `over ${MAX_LINES} lines: split by what each part does`).toEqual([]);
  });

  it('names only files that exist in its exemptions, each data file with a reason', () => {
    const files = new Set(sourceFiles());
    for (const [path, reason] of Object.entries(DATA_FILES)) {
      expect(files.has(path), path).toBe(true);
      expect(reason.length, path).toBeGreaterThan(0);
    }
    for (const path of BEING_REWRITTEN) expect(files.has(path), path).toBe(true);
  });

  it('drops a file from BEING_REWRITTEN once it is back under the limit', () => {
    const shrunk = BEING_REWRITTEN.filter((path) => lineCount(path) <= MAX_LINES);
    expect(shrunk, 'back under the limit: remove from BEING_REWRITTEN (and from biome.json)').toEqual([]);
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

  it('exempts from the function limit only files that are being rewritten', () => {
    const exempted = biomeOverrides()
      .filter((override) => override.linter?.rules?.complexity?.noExcessiveLinesPerFunction === 'off')
      .flatMap((override) => override.includes ?? []);
    const rewritten = new Set(BEING_REWRITTEN.map((path) => `packages/core/src/${path}`));
    expect(exempted.filter((path) => !rewritten.has(path))).toEqual([]);
  });
});
