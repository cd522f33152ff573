// Surface parity as properties (fast-check): random requests built from the contract's field table
// (`@openmates/server/testing`), run on the local index through the parity suite's own drivers, checked
// by its runner and compared by `compareSurfaces`, as `web-search.surface-parity` compares cases:
// outcomes, whole documents (request ids normalized) and the CLI's human output.
//   - valid requests (the fields the local provider applies, in range) are answered, every group,
//     with equal whole responses on REST, the SDK, the CLI and MCP (stdio and HTTP);
//   - broken requests (a value of the wrong type, out of range or malformed, an unknown or missing
//     field, a duplicate id, a batch too small or too large) are a 400 `invalid_request` on each,
//     naming the broken field, with the same issue paths everywhere.
// Seeded: OPENMATES_PROPERTY_SEED (default 20260; a failure prints the seed and the shrunk
// counterexample, and the same seed replays it). About 35 s of CPU and 1–1.5 minutes on a 2-core
// machine (85 s at a load average of 15), most of it the CLI's and MCP stdio's child processes, which
// run fewer requests than the in-process columns.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createLocalProvider } from '@openmates/core';
import {
  appliedFields,
  type Broken,
  brokenRequest,
  pathNames,
  type Vocabulary,
  validRequest,
} from '@openmates/server/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseEnvironment, ParityCase, SurfaceDriver } from './case.ts';
import { createCliDriver } from './drivers/cli-driver.ts';
import { createCoreDriver } from './drivers/core-driver.ts';
import { createMcpDriver, createMcpHttpDriver } from './drivers/mcp-driver.ts';
import { createRestDriver } from './drivers/rest-driver.ts';
import { createSdkDriver } from './drivers/sdk-driver.ts';
import { buildLocalIndex, LOCAL_CANARY, localCorpus } from './local-corpus.ts';
import type { Outcome } from './outcome.ts';
import { type CaseRun, compareSurfaces, renderDisagreements } from './report.ts';
import { runCase } from './runner.ts';

const SEED = Number(process.env.OPENMATES_PROPERTY_SEED ?? 20260);
/** Requests per property on the in-process columns, and on every column (the CLI and MCP stdio spawn). */
const RUNS = { inProcess: 60, everyColumn: 15 };

/** The words and hosts of the parity suite's local corpus, and words and text it does not hold. */
function vocabulary(): Vocabulary {
  const documents = localCorpus();
  const words = documents.flatMap((d) => `${d.title} ${d.body}`.toLowerCase().match(/\p{L}{3,}/gu) ?? []);
  const hosts = documents.flatMap((d) => (/^https?:/.test(d.url) ? [new URL(d.url).hostname] : []));
  return {
    hits: [...new Set(words)].sort(),
    misses: ['zebra', 'quasar', 'Zürich', '東京', '"abort', 'fetch*', 'NEAR(a', 'OR', '-widget', 'a:b', "it's"],
    hosts: [...new Set([...hosts, 'example.com', 'nowhere.example.org', 'bücher.example'])],
  };
}

const core = createCoreDriver();
const inProcess: SurfaceDriver[] = [core, createRestDriver(), createSdkDriver(), createMcpHttpDriver()];
const spawned: SurfaceDriver[] = [createCliDriver(), createMcpDriver()];
let indexPath: string;
let environment: CaseEnvironment;

beforeAll(() => {
  indexPath = buildLocalIndex();
  environment = {
    // A key configured for another provider: it must never reach an answer, as in the parity cases.
    env: {
      OPENMATES_PROVIDER: 'local',
      OPENMATES_INDEX: indexPath,
      BRAVE_SEARCH_API_KEY: LOCAL_CANARY,
      TAVILY_API_KEY: `${LOCAL_CANARY}-tavily`,
      SERPER_API_KEY: `${LOCAL_CANARY}-serper`,
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_RATE_LIMIT_PER_MIN: '0',
      OPENMATES_LOG_LEVEL: 'info',
    },
    canaries: [LOCAL_CANARY, `${LOCAL_CANARY}-tavily`],
  };
});
afterAll(() => {
  if (indexPath) rmSync(dirname(indexPath), { recursive: true, force: true });
});

/**
 * Runs `request` on every driver as the parity suite runs a case (its runner checks the outcome
 * with `expect`, the transcript for the canary and the CLI's human output against the core
 * document), then compares the columns; throws naming the first difference.
 */
async function agree(request: unknown, drivers: readonly SurfaceDriver[], expect: (o: Outcome) => void) {
  const testCase: ParityCase = {
    name: 'property',
    assertion: 'web-search.surface-parity',
    description: 'A generated request.',
    provider: 'local',
    request,
    expect,
  };
  const runs: CaseRun[] = [];
  let reference: unknown;
  const personReference = async () => {
    reference ??= (await core.run(testCase, environment)).document;
    return reference;
  };
  for (const driver of drivers) await runCase(testCase, driver, environment, runs, { personReference });
  const { disagreements } = compareSurfaces(runs);
  if (disagreements.length > 0) throw new Error(renderDisagreements(disagreements).join('\n'));
  return JSON.parse(runs[0]?.outcome ?? '{}') as Outcome;
}

/** How many answered groups held results and how many none: the generator must reach both. */
function tally(seen: { found: number; empty: number }, outcome: Outcome): void {
  for (const group of outcome.groups) {
    if (group.results.length > 0) seen.found += 1;
    else seen.empty += 1;
  }
}

/** A valid request is answered: every item has its group, none failed. */
function answered(request: unknown) {
  const items = (request as { requests: unknown[] }).requests.length;
  return (outcome: Outcome) => {
    if (outcome.code !== undefined) throw new Error(`a valid request was answered ${outcome.code}`);
    if (outcome.groups.length !== items) throw new Error(`${items} items, ${outcome.groups.length} groups`);
    const failed = outcome.groups.find((group) => group.errorCode !== undefined);
    if (failed) throw new Error(`group ${failed.id} failed: ${failed.errorCode}`);
  };
}

/** A broken request is refused as invalid, naming the broken field among issues about the items. */
function refused({ path }: Broken) {
  return (outcome: Outcome) => {
    if (outcome.code !== 'invalid_request') throw new Error(`answered ${outcome.code ?? 'with results'}`);
    const paths = outcome.issuePaths ?? [];
    if (!paths.some((p) => pathNames(p, path))) throw new Error(`no issue at ${path}: ${paths.join(', ')}`);
    const stray = paths.find((p) => !pathNames(p, 'requests'));
    if (stray !== undefined) throw new Error(`an issue outside the request items: ${stray}`);
  };
}

const settings = (numRuns: number) => ({ seed: SEED, numRuns });

describe('surface parity as properties, on the local index', () => {
  const fields = appliedFields(createLocalProvider({ indexPath: '' }).capabilities.honoured);
  const words = vocabulary();
  const valid = validRequest(fields, words);
  const broken = brokenRequest(fields, words);

  it('the fields drawn are the table’s, less the options the local index does not apply', () => {
    const names = fields.map((field) => field.name);
    expect(names).toContain('query');
    expect(names).toContain('count');
    expect(names).not.toContain('country');
  });

  it('valid requests: equal whole answers on core, REST, the SDK and MCP over HTTP', async () => {
    const seen = { found: 0, empty: 0 };
    await fc.assert(
      fc.asyncProperty(valid, async (request) => tally(seen, await agree(request, inProcess, answered(request)))),
      settings(RUNS.inProcess),
    );
    // The words reach documents, and miss them: both kinds of answer are compared.
    expect(seen.found).toBeGreaterThan(0);
    expect(seen.empty).toBeGreaterThan(0);
  }, 300_000);

  it('valid requests: the CLI and MCP over stdio give the same whole answers', async () => {
    const seen = { found: 0, empty: 0 };
    await fc.assert(
      fc.asyncProperty(valid, async (request) =>
        tally(seen, await agree(request, [core, ...spawned], answered(request))),
      ),
      settings(RUNS.everyColumn),
    );
    expect(seen.found).toBeGreaterThan(0);
  }, 300_000);

  it('broken requests: a 400 naming the field, with the same issues, on core, REST, the SDK and MCP over HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(broken, async (b) => void (await agree(b.request, inProcess, refused(b)))),
      settings(RUNS.inProcess),
    );
  }, 300_000);

  it('broken requests: the CLI and MCP over stdio refuse them alike', async () => {
    await fc.assert(
      fc.asyncProperty(broken, async (b) => void (await agree(b.request, [core, ...spawned], refused(b)))),
      settings(RUNS.everyColumn),
    );
  }, 300_000);
});
