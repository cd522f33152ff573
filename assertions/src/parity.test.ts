import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  ANTHROPIC_CANARY_API_KEY,
  type AnthropicFixture,
  AZURE_OPENAI_CANARY_API_KEY,
  type BraveFixture,
  CANARY_API_KEY,
  EXA_CANARY_API_KEY,
  type ExaFixture,
  OPENAI_CANARY_API_KEY,
  type OpenAIFixture,
  SEARXNG_CANARY_PASSWORD,
  SERPER_CANARY_API_KEY,
  type SearxngFixture,
  type SerperFixture,
  startAnthropicFixture,
  startAzureOpenAIFixture,
  startBraveFixture,
  startExaFixture,
  startOpenAIFixture,
  startSearxngFixture,
  startSerperFixture,
  startTavilyFixture,
  TAVILY_CANARY_API_KEY,
  type TavilyFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  applies,
  type CaseEnvironment,
  type CaseProvider,
  type ParityCase,
  type ProviderRequest,
  type SurfaceDriver,
} from './case.ts';
import { CASES } from './cases/index.ts';
import { createCliDriver } from './drivers/cli-driver.ts';
import { createClusterDriver } from './drivers/cluster-driver.ts';
import { createContractDriver } from './drivers/contract-driver.ts';
import { createCoreDriver } from './drivers/core-driver.ts';
import { createMcpAppDriver } from './drivers/mcp-app-driver.ts';
import { createMcpDriver, createMcpHttpDriver } from './drivers/mcp-driver.ts';
import { createPipDriver, createPipStreamDriver } from './drivers/pip-driver.ts';
import { createRestDriver } from './drivers/rest-driver.ts';
import { createSdkDriver } from './drivers/sdk-driver.ts';
import { createSdkStreamDriver, createStreamDriver } from './drivers/stream-driver.ts';
import { createTrpcDriver } from './drivers/trpc-driver.ts';
import { createWebDriver } from './drivers/web-driver.ts';
import { createWebkitDriver } from './drivers/webkit-driver.ts';
import { buildLocalIndex } from './local-corpus.ts';
import { type CaseRun, compareSurfaces, renderDisagreements, writeReport } from './report.ts';
import { runCase } from './runner.ts';

// The parity suite (ADR 0022): every case on every surface that can express it, against fixture
// providers on loopback with fresh state per case and surface, cache and rate limit off; then the
// assertion × surface matrix, written to assertions/report/.
const drivers: SurfaceDriver[] = [
  createContractDriver(),
  createCoreDriver(),
  createRestDriver(),
  createTrpcDriver(),
  createSdkDriver(),
  createPipDriver(),
  createCliDriver(),
  createWebDriver(),
  createWebkitDriver(),
  createMcpDriver(),
  createMcpHttpDriver(),
  createMcpDriver('modern'),
  createMcpHttpDriver('modern'),
  createMcpAppDriver(),
  createClusterDriver(),
  createStreamDriver(),
  createSdkStreamDriver(),
  createPipStreamDriver(),
];
const runs: CaseRun[] = [];
let brave: BraveFixture;
let openai: OpenAIFixture;
let azure: OpenAIFixture;
let searxng: SearxngFixture;
let tavily: TavilyFixture;
let exa: ExaFixture;
let serper: SerperFixture;
let anthropic: AnthropicFixture;
let localIndex: string;

beforeAll(async () => {
  [brave, openai, searxng, tavily, exa, serper, anthropic, azure] = await Promise.all([
    startBraveFixture(),
    startOpenAIFixture(),
    startSearxngFixture(),
    startTavilyFixture(),
    startExaFixture(),
    startSerperFixture(),
    startAnthropicFixture(),
    startAzureOpenAIFixture(),
    Promise.all(drivers.map((d) => d.setup?.())),
  ]);
  localIndex = buildLocalIndex();
  // A driver's setup may build and install a package (the pip wheel) when its sources changed.
}, 300_000);

afterAll(async () => {
  await Promise.all(drivers.map((d) => d.close?.()));
  await Promise.all([
    brave?.close(),
    openai?.close(),
    searxng?.close(),
    tavily?.close(),
    exa?.close(),
    serper?.close(),
    anthropic?.close(),
    azure?.close(),
  ]);
  if (localIndex) rmSync(dirname(localIndex), { recursive: true, force: true });
  writeReport(
    runs,
    drivers.map((d) => d.surface),
  );
});

const COMMON = { OPENMATES_CACHE_TTL_S: '0', OPENMATES_RATE_LIMIT_PER_MIN: '0', OPENMATES_LOG_LEVEL: 'info' };

/** The environment of one run: the case's provider pointing at its fixture, with fresh state. */
function environmentFor(testCase: ParityCase): CaseEnvironment {
  const chain: readonly CaseProvider[] = Array.isArray(testCase.provider)
    ? testCase.provider
    : [(testCase.provider as CaseProvider | undefined) ?? 'brave'];
  brave.reset();
  openai.reset();
  searxng.reset();
  tavily.reset();
  exa.reset();
  serper.reset();
  anthropic.reset();
  azure.reset();
  const providerEnv: Record<CaseProvider, Record<string, string>> = {
    brave: { OPENMATES_PROVIDER: 'brave', BRAVE_SEARCH_API_KEY: brave.apiKey, BRAVE_SEARCH_BASE_URL: brave.baseUrl },
    openai: { OPENMATES_PROVIDER: 'openai', OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl },
    local: { OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: localIndex },
    searxng: { OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: searxng.baseUrl },
    tavily: { OPENMATES_PROVIDER: 'tavily', TAVILY_API_KEY: tavily.apiKey, TAVILY_BASE_URL: tavily.baseUrl },
    exa: { OPENMATES_PROVIDER: 'exa', EXA_API_KEY: exa.apiKey, EXA_BASE_URL: exa.baseUrl },
    serper: { OPENMATES_PROVIDER: 'serper', SERPER_API_KEY: serper.apiKey, SERPER_BASE_URL: serper.baseUrl },
    anthropic: {
      OPENMATES_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: anthropic.apiKey,
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
    },
    'azure-openai': {
      OPENMATES_PROVIDER: 'azure-openai',
      AZURE_OPENAI_API_KEY: azure.apiKey,
      AZURE_OPENAI_ENDPOINT: azure.baseUrl,
      OPENMATES_AZURE_OPENAI_DEPLOYMENT: 'gpt-4.1-mini',
    },
  };
  const fixtureCalls: Record<CaseProvider, (() => number) | undefined> = {
    brave: () => brave.requests.length,
    openai: () => openai.requests.length,
    local: undefined,
    searxng: () => searxng.requests.length,
    tavily: () => tavily.requests.length,
    exa: () => exa.requests.length,
    serper: () => serper.requests.length,
    anthropic: () => anthropic.requests.length,
    'azure-openai': () => azure.requests.length,
  };
  const fixtureRequests: Record<CaseProvider, (() => ProviderRequest[]) | undefined> = {
    // Its web and news endpoints alike: a case tells them apart by what was sent.
    brave: () => brave.requests.filter((r) => /\/(web|news)\/search$/.test(r.path)).map(({ query }) => ({ query })),
    openai: () => openai.requests.map(({ body }) => ({ query: {}, body })),
    local: undefined,
    searxng: () => searxng.requests.filter((r) => r.path.endsWith('/search')).map(({ query }) => ({ query })),
    tavily: () => tavily.requests.map(({ body }) => ({ query: {}, body })),
    exa: () => exa.requests.map(({ body }) => ({ query: {}, body })),
    // Its search and news endpoints alike: the path is kept as `query.path`, the JSON body as `body`.
    serper: () => serper.requests.map(({ path, body }) => ({ query: { path }, body })),
    anthropic: () => anthropic.requests.map(({ body }) => ({ query: {}, body })),
    'azure-openai': () =>
      azure.requests.map(({ path, headers, body }) => ({ query: { path, key: headers['api-key'] ?? '' }, body })),
  };
  // A chain: every member's settings, and OPENMATES_PROVIDER listing them in order.
  const env: Record<string, string> = { ...COMMON };
  for (const member of chain) Object.assign(env, providerEnv[member]);
  env.OPENMATES_PROVIDER = chain.join(',');
  const environment: CaseEnvironment = {
    env: { ...env, ...testCase.env },
    canaries: [
      CANARY_API_KEY,
      OPENAI_CANARY_API_KEY,
      SEARXNG_CANARY_PASSWORD,
      TAVILY_CANARY_API_KEY,
      EXA_CANARY_API_KEY,
      SERPER_CANARY_API_KEY,
      ANTHROPIC_CANARY_API_KEY,
      AZURE_OPENAI_CANARY_API_KEY,
    ],
  };
  const calls = chain.map((member) => fixtureCalls[member]).filter((f) => f !== undefined);
  if (calls.length > 0) environment.providerCalls = () => calls.reduce((sum, f) => sum + f(), 0);
  if (chain.length === 1) {
    const received = fixtureRequests[chain[0] as CaseProvider];
    if (received) environment.providerRequests = received;
  } else
    environment.providerRequests = () =>
      chain.flatMap((member) => (fixtureRequests[member]?.() ?? []).map((r) => ({ provider: member, ...r })));
  return environment;
}

// The core driver's document of each case: the reference for what the GUI and the CLI's human
// output must show. A run filtered to those surfaces computes it on demand, after the surface's run.
const coreDocuments = new Map<string, unknown>();
const referenceCore = createCoreDriver();
async function coreDocument(testCase: ParityCase): Promise<unknown> {
  if (!coreDocuments.has(testCase.name))
    coreDocuments.set(testCase.name, (await referenceCore.run(testCase, environmentFor(testCase))).document);
  return coreDocuments.get(testCase.name);
}

for (const driver of drivers) {
  describe(`surface ${driver.surface}`, () => {
    for (const testCase of CASES.filter((c) => applies(c, driver)))
      it(`${testCase.assertion} · ${testCase.name}`, async () => {
        const result = await runCase(testCase, driver, environmentFor(testCase), runs, {
          personReference: () => coreDocument(testCase),
        });
        if (driver.surface === 'core') coreDocuments.set(testCase.name, result.document);
      });
  });
}

describe('web-search.surface-parity', () => {
  it('every surface gives the same outcome, and the same whole document, for every case it can express', () => {
    const { disagreements } = compareSurfaces(runs);
    if (disagreements.length > 0)
      throw new Error(`surfaces disagree:\n${renderDisagreements(disagreements).join('\n')}`);
  });
});
