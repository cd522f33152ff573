import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import {
  ANTHROPIC_CANARY_API_KEY,
  type BraveFixture,
  CANARY_API_KEY,
  OPENAI_CANARY_API_KEY,
  type OpenAIFixture,
  SEARXNG_CANARY_PASSWORD,
  type SearxngFixture,
  startBraveFixture,
  startOpenAIFixture,
  startSearxngFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applies, type CaseEnvironment, type CaseProvider, type ParityCase, type SurfaceDriver } from './case.ts';
import { CASES } from './cases/index.ts';
import { firstDifference } from './document.ts';
import { createCoreDriver } from './drivers/core-driver.ts';
import { createRestDriver } from './drivers/rest-driver.ts';
import { createSdkDriver } from './drivers/sdk-driver.ts';
import { createTrpcDriver } from './drivers/trpc-driver.ts';
import type { WireRewrite } from './drivers/wire-proxy.ts';
import { buildLocalIndex } from './local-corpus.ts';
import { type CaseRun, compareSurfaces } from './report.ts';
import { runCase } from './runner.ts';

// Wire mutations prove the whole-document comparison (issue 14): for every leaf of the documents the
// contract declares, a loopback proxy alters the leaf (and drops it, when optional) in one HTTP
// surface's answer to a case that has it, and that surface's parity cell must turn red at that
// leaf's JSON path. The leaves come from contract/openapi.json, so a new field is covered (or the
// test fails, when no case of the catalogue fills it).

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  allOf?: Schema[];
};
const SCHEMAS = (openapi as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;

/** A leaf of a document: `$.results[].results[].meta_url.favicon`, with its schema. */
interface Leaf {
  document: 'WebSearchResponse' | 'ErrorResponse';
  pattern: string;
  optional: boolean;
  schema: Schema;
}

function resolve(schema: Schema): Schema {
  // A described reference (`allOf: [{ $ref }, { description }]`) is the referenced schema.
  const referenced = schema.allOf?.find((part) => part.$ref !== undefined);
  if (!schema.$ref && referenced) return resolve(referenced);
  if (!schema.$ref) return schema;
  const target = SCHEMAS[schema.$ref.replace('#/components/schemas/', '')];
  if (!target) throw new Error(`unknown schema ${schema.$ref}`);
  return resolve(target);
}

function leavesOf(document: Leaf['document'], schema: Schema, pattern = '$', optional = false): Leaf[] {
  const s = resolve(schema);
  if (s.properties)
    return Object.entries(s.properties).flatMap(([key, child]) =>
      leavesOf(document, child, `${pattern}.${key}`, !(s.required ?? []).includes(key)),
    );
  if (s.items) return leavesOf(document, s.items, `${pattern}[]`, optional);
  return [{ document, pattern, optional, schema: s }];
}

const LEAVES: Leaf[] = (['WebSearchResponse', 'ErrorResponse'] as const).flatMap((name) =>
  leavesOf(name, { $ref: `#/components/schemas/${name}` }),
);

type Step = string | number;

/** Every place `pattern` occurs in `value`, as steps (`['results', 0, 'age']`). */
function occurrences(value: unknown, pattern: string): Step[][] {
  const segments = pattern.replace(/^\$\.?/, '').split('.');
  const walk = (node: unknown, rest: string[], at: Step[]): Step[][] => {
    const [head, ...tail] = rest;
    if (head === undefined) return node === undefined ? [] : [at];
    const isArray = head.endsWith('[]');
    const key = isArray ? head.slice(0, -2) : head;
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return [];
    const child = (node as Record<string, unknown>)[key];
    if (!isArray) return walk(child, tail, [...at, key]);
    if (!Array.isArray(child)) return [];
    return child.flatMap((item, i) => walk(item, tail, [...at, key, i]));
  };
  return walk(value, segments, []);
}

const pathOf = (steps: Step[]) =>
  steps.reduce<string>((path, step) => (typeof step === 'number' ? `${path}[${step}]` : `${path}.${step}`), '$');

/** A different value of the same type, valid under the leaf's schema, so the surface still accepts it. */
function altered(value: unknown, schema: Schema): unknown {
  if (schema.enum) return schema.enum.find((v) => v !== value);
  if (typeof value === 'boolean') return !value;
  // Ids: far from any other group's id, which must stay unique.
  if (typeof value === 'number') return value + 1000;
  if (typeof value === 'string') return value === '' ? 'x' : `${value.slice(0, -1)}${value.endsWith('x') ? 'y' : 'x'}`;
  throw new Error(`no alteration for ${JSON.stringify(value)}`);
}

/** Applies `change` at `steps` in a copy of `document`; `change` returns undefined to drop the leaf. */
function mutate(document: unknown, steps: Step[], change: (value: unknown) => unknown): unknown {
  const copy = structuredClone(document) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const step of steps.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = steps.at(-1) as Step;
  const next = change(node[last]);
  if (next !== undefined) node[last] = next;
  else if (Array.isArray(node)) node.splice(last as number, 1);
  else delete node[last];
  return copy;
}

type HttpSurface = 'rest' | 'trpc' | 'sdk';
const MUTATED: readonly HttpSurface[] = ['rest', 'trpc', 'sdk'];

/** The proxy sees the wire: tRPC's document sits inside its envelope (`result.data` or `error.data`). */
function onWire(surface: HttpSurface, rewrite: (document: unknown) => unknown): WireRewrite {
  if (surface !== 'trpc') return rewrite;
  return (body) => {
    const envelope = body as { result?: { data: unknown }; error?: { data: unknown } };
    if (envelope.result) return { ...envelope, result: { ...envelope.result, data: rewrite(envelope.result.data) } };
    if (envelope.error) return { ...envelope, error: { ...envelope.error, data: rewrite(envelope.error.data) } };
    return body;
  };
}

const DRIVERS: Record<HttpSurface, (wire: WireRewrite) => SurfaceDriver> = {
  rest: (wire) => createRestDriver({ wire }),
  trpc: (wire) => createTrpcDriver({ wire }),
  sdk: (wire) => createSdkDriver({ wire }),
};

let brave: BraveFixture;
let openai: OpenAIFixture;
let searxng: SearxngFixture;
let localIndex: string;

beforeAll(async () => {
  [brave, openai, searxng] = await Promise.all([startBraveFixture(), startOpenAIFixture(), startSearxngFixture()]);
  localIndex = buildLocalIndex();
});

afterAll(async () => {
  await Promise.all([brave?.close(), openai?.close(), searxng?.close()]);
  if (localIndex) rmSync(dirname(localIndex), { recursive: true, force: true });
});

function environmentFor(testCase: ParityCase): CaseEnvironment | undefined {
  brave.reset();
  openai.reset();
  searxng.reset();
  const providerEnv: Partial<Record<CaseProvider, Record<string, string>>> = {
    brave: { OPENMATES_PROVIDER: 'brave', BRAVE_SEARCH_API_KEY: brave.apiKey, BRAVE_SEARCH_BASE_URL: brave.baseUrl },
    openai: { OPENMATES_PROVIDER: 'openai', OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl },
    local: { OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: localIndex },
    searxng: { OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: searxng.baseUrl },
  };
  // A chain (its cases fill `results[].provider`): every member's settings, listed in order.
  const chain: readonly CaseProvider[] = Array.isArray(testCase.provider)
    ? testCase.provider
    : [(testCase.provider as CaseProvider | undefined) ?? 'brave'];
  if (chain.length === 1 && chain[0] === 'searxng') return undefined;
  const members = chain.map((member) => providerEnv[member]);
  if (members.some((member) => member === undefined)) return undefined;
  const provider = Object.assign({}, ...members, { OPENMATES_PROVIDER: chain.join(',') });
  const common = { OPENMATES_CACHE_TTL_S: '0', OPENMATES_RATE_LIMIT_PER_MIN: '0', OPENMATES_LOG_LEVEL: 'info' };
  return {
    env: { ...common, ...provider, ...testCase.env },
    canaries: [CANARY_API_KEY, OPENAI_CANARY_API_KEY, SEARXNG_CANARY_PASSWORD, ANTHROPIC_CANARY_API_KEY],
  };
}

/** Runs a case and returns its run record, whether or not the case's own checks passed. */
async function recorded(testCase: ParityCase, driver: SurfaceDriver, environment: CaseEnvironment): Promise<CaseRun> {
  const runs: CaseRun[] = [];
  await runCase(testCase, driver, environment, runs).catch(() => {});
  const [run] = runs;
  if (!run) throw new Error('no run recorded');
  return run;
}

// The engine's document of each case, found once: the reference a mutated surface is compared with.
const core = createCoreDriver();
const referenceRuns = new Map<string, Promise<CaseRun | undefined>>();
function referenceOf(testCase: ParityCase): Promise<CaseRun | undefined> {
  let run = referenceRuns.get(testCase.name);
  if (!run) {
    const environment = environmentFor(testCase);
    run = environment ? recorded(testCase, core, environment) : Promise.resolve(undefined);
    referenceRuns.set(testCase.name, run);
  }
  return run;
}

/** The first case (in catalogue order) that the engine and `surface` both run and whose document has the leaf. */
async function caseWith(leaf: Leaf, surface: HttpSurface) {
  const driver = DRIVERS[surface]((body) => body);
  for (const testCase of CASES) {
    if (!applies(testCase, driver) || !applies(testCase, core)) continue;
    const reference = await referenceOf(testCase);
    const isResponse = reference?.document !== undefined && Object.hasOwn(reference.document as object, 'results');
    if (!reference?.document || isResponse !== (leaf.document === 'WebSearchResponse')) continue;
    const [steps] = occurrences(reference.document, leaf.pattern);
    if (steps) return { testCase, reference, steps };
  }
  return undefined;
}

const MUTATIONS = LEAVES.flatMap((leaf, i) => [
  { leaf, kind: 'altered' as const, surface: MUTATED[i % MUTATED.length] as HttpSurface },
  ...(leaf.optional
    ? [{ leaf, kind: 'dropped' as const, surface: MUTATED[(i + 1) % MUTATED.length] as HttpSurface }]
    : []),
]);

describe('wire mutations turn the parity cell red', () => {
  it('the leaves come from the contract: every document, group, result, meta_url, budget, group error and issue', () => {
    const patterns = LEAVES.map((l) => `${l.document} ${l.pattern}`);
    for (const expected of [
      'WebSearchResponse $.results[].results[].meta_url.favicon',
      'WebSearchResponse $.results[].error.message',
      'WebSearchResponse $.budget.notes_fitted_out',
      'WebSearchResponse $.suggestions_follow_up_requests[]',
      'ErrorResponse $.issues[].message',
    ])
      expect(patterns).toContain(expected);
  });

  it('an unchanged answer through the same proxy keeps every cell green', async () => {
    const testCase = CASES.find((c) => c.name === 'ordinary-results-exact') as ParityCase;
    const reference = (await referenceOf(testCase)) as CaseRun;
    const runs = await Promise.all(
      MUTATED.map((surface) =>
        recorded(
          testCase,
          DRIVERS[surface]((body) => body),
          environmentFor(testCase) as CaseEnvironment,
        ),
      ),
    );
    expect(compareSurfaces([reference, ...runs]).disagreements).toEqual([]);
  });

  for (const { leaf, kind, surface } of MUTATIONS)
    it(`${leaf.document} ${leaf.pattern} ${kind} on ${surface}`, { timeout: 30_000 }, async () => {
      const found = await caseWith(leaf, surface);
      if (!found) throw new Error(`no case of the catalogue fills ${leaf.pattern} on ${surface}: add one`);
      const { testCase, reference, steps } = found;
      let changed = false;
      const rewrite = onWire(surface, (document) => {
        const [at] = occurrences(document, leaf.pattern).filter((s) => pathOf(s) === pathOf(steps));
        if (!at) return document;
        const next = mutate(document, at, (value) => (kind === 'dropped' ? undefined : altered(value, leaf.schema)));
        changed ||= JSON.stringify(next) !== JSON.stringify(document);
        return next;
      });
      const environment = environmentFor(testCase) as CaseEnvironment;
      const run = await recorded(testCase, DRIVERS[surface](rewrite), environment);

      // A mutation that changes nothing proves nothing.
      expect(changed, `the proxy found ${pathOf(steps)} in ${testCase.name} and changed it`).toBe(true);
      expect(run.document, `${surface} still handed back a document (${run.error ?? ''})`).toBeDefined();
      // The whole-document comparison sees exactly that leaf ...
      const difference = firstDifference(reference.document, run.document);
      expect(difference?.path).toBe(pathOf(steps));
      // ... and the surface's parity cell is red.
      const { cells, disagreements } = compareSurfaces([reference, run]);
      expect(cells[surface]).toEqual({ passed: 0, total: 1 });
      expect(disagreements.map((d) => d.surface)).toEqual([surface]);
    });
});
