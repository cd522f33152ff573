import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type BraveFixture,
  CANARY_API_KEY,
  OPENAI_CANARY_API_KEY,
  type OpenAIFixture,
  startBraveFixture,
  startOpenAIFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { applies, type CaseEnvironment, type CaseProvider, type ParityCase, type SurfaceDriver } from './case.ts';
import { CASES } from './cases/index.ts';
import { createCliDriver } from './drivers/cli-driver.ts';
import { createClusterDriver } from './drivers/cluster-driver.ts';
import { createContractDriver } from './drivers/contract-driver.ts';
import { createCoreDriver } from './drivers/core-driver.ts';
import { createRestDriver } from './drivers/rest-driver.ts';
import { createSdkDriver } from './drivers/sdk-driver.ts';
import { createTrpcDriver } from './drivers/trpc-driver.ts';
import { createWebDriver } from './drivers/web-driver.ts';
import { buildLocalIndex } from './local-corpus.ts';
import { type CaseRun, writeReport } from './report.ts';
import { runCase } from './runner.ts';

// The parity suite (SPEC §5): every case on every surface that can express it, against fixture
// providers on loopback with fresh state per case and surface, cache and rate limit off; then the
// assertion × surface matrix, written to assertions/report/.
const drivers: SurfaceDriver[] = [
  createContractDriver(),
  createCoreDriver(),
  createRestDriver(),
  createTrpcDriver(),
  createSdkDriver(),
  createCliDriver(),
  createWebDriver(),
  createClusterDriver(),
];
const runs: CaseRun[] = [];
let brave: BraveFixture;
let openai: OpenAIFixture;
let localIndex: string;

beforeAll(async () => {
  [brave, openai] = await Promise.all([startBraveFixture(), startOpenAIFixture()]);
  localIndex = buildLocalIndex();
});

afterAll(async () => {
  await Promise.all(drivers.map((d) => d.close?.()));
  await Promise.all([brave?.close(), openai?.close()]);
  if (localIndex) rmSync(dirname(localIndex), { recursive: true, force: true });
  writeReport(
    runs,
    drivers.map((d) => d.surface),
  );
});

const COMMON = { OPENMATES_CACHE_TTL_S: '0', OPENMATES_RATE_LIMIT_PER_MIN: '0', OPENMATES_LOG_LEVEL: 'info' };

/** The environment of one run: the case's provider pointing at its fixture, with fresh state. */
function environmentFor(testCase: ParityCase): CaseEnvironment {
  const provider: CaseProvider = testCase.provider ?? 'brave';
  brave.reset();
  openai.reset();
  const providerEnv: Record<CaseProvider, Record<string, string>> = {
    brave: { OPENMATES_PROVIDER: 'brave', BRAVE_SEARCH_API_KEY: brave.apiKey, BRAVE_SEARCH_BASE_URL: brave.baseUrl },
    openai: { OPENMATES_PROVIDER: 'openai', OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl },
    local: { OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: localIndex },
  };
  const fixtureCalls: Record<CaseProvider, (() => number) | undefined> = {
    brave: () => brave.requests.length,
    openai: () => openai.requests.length,
    local: undefined,
  };
  const environment: CaseEnvironment = {
    env: { ...COMMON, ...providerEnv[provider], ...testCase.env },
    canaries: [CANARY_API_KEY, OPENAI_CANARY_API_KEY],
  };
  const calls = fixtureCalls[provider];
  if (calls) environment.providerCalls = calls;
  return environment;
}

for (const driver of drivers) {
  describe(`surface ${driver.surface}`, () => {
    for (const testCase of CASES.filter((c) => applies(c, driver)))
      it(`${testCase.assertion} · ${testCase.name}`, () => runCase(testCase, driver, environmentFor(testCase), runs));
  });
}

describe('web-search.surface-parity', () => {
  it('every surface gives the same outcome for every case it can express', async () => {
    const { parityCells } = await import('./report.ts');
    const cells = parityCells(runs);
    const broken = Object.entries(cells).filter(([, cell]) => cell && cell.passed !== cell.total);
    if (broken.length > 0) {
      const byCase = Map.groupBy(runs, (r) => r.case);
      const diffs = [...byCase.entries()]
        .filter(([, rs]) => new Set(rs.filter((r) => r.surface !== 'contract').map((r) => r.outcome)).size > 1)
        .map(([name, rs]) => `${name}:\n${rs.map((r) => `  ${r.surface}: ${r.outcome}`).join('\n')}`);
      throw new Error(`surfaces disagree:\n${diffs.join('\n')}`);
    }
  });
});
