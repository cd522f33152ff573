import type { ProviderId } from '@openmates/contract';
import type { AssertionId } from './catalogue.ts';
import type { Outcome } from './outcome.ts';

/** Every surface the parity suite compares, plus `contract` (validation alone, no provider). */
export const SURFACES = [
  'contract',
  'core',
  'rest',
  'trpc',
  'sdk',
  'pip',
  'cli',
  'web',
  'webkit',
  'mcp',
  'mcp-http',
  'mcp-2026',
  'mcp-http-2026',
  'mcp-app',
  'cluster',
  'stream',
  'sdk-stream',
  'pip-stream',
] as const;
export type Surface = (typeof SURFACES)[number];

/** Surfaces that speak HTTP to a server, where transport rules (413, 415, broken JSON) exist. */
export const HTTP_SURFACES: readonly Surface[] = ['rest', 'trpc', 'cluster'];

/**
 * Columns that run another surface's cases: `cluster` is REST through a proxy in front of several
 * replicas, so it runs every case REST runs. The other clients send typed requests as the npm SDK
 * does, so they run every case the SDK runs (each driver's `supports` still says what it can
 * express): the pip SDK, MCP over stdio and over HTTP in both protocol eras, and the event stream (`stream`, REST's
 * `text/event-stream` answer; `sdk-stream` and `pip-stream`, the SDKs' `searchStream` /
 * `search_stream`). `webkit` is the web GUI in WebKit, so it runs every case the `web` column (Chromium)
 * runs; so does `mcp-app`, the MCP App page in a test host handed the tool result of `openmates mcp`.
 */
export const CASES_OF: Partial<Record<Surface, Surface>> = {
  cluster: 'rest',
  pip: 'sdk',
  mcp: 'sdk',
  'mcp-http': 'sdk',
  'mcp-2026': 'sdk',
  'mcp-http-2026': 'sdk',
  stream: 'sdk',
  'sdk-stream': 'sdk',
  'pip-stream': 'sdk',
  webkit: 'web',
  'mcp-app': 'web',
};

/** The provider a case runs against: one of the registry's (the contract's) ids, each on its fixture (a real HTTP server on loopback speaking its wire format). */
export type CaseProvider = ProviderId;

/** One scripted answer of a retry case's upstream: a status, its headers and a contract-shaped body. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** An ErrorResponse, or for a 502 the WebSearchResponse in which every group failed. */
  body: unknown;
}

/** A retry an SDK made: the status of the attempt that failed (null: no answer) and the wait it computed, in ms. */
export interface RecordedRetry {
  status: number | null;
  delayMs: number;
}

/** A retry a case expects: the failed attempt's status and the wait, exactly or (the jittered backoff) within bounds. */
export interface ExpectedRetry {
  status: number | null;
  delayMs: number | { min: number; max: number };
}

/** One request a fixture provider received: its query parameters (Brave, SearXNG) or its JSON body (OpenAI). */
export interface ProviderRequest {
  /** Which fixture received it: set in a chain case (several providers), where requests of each are listed in chain order. */
  provider?: CaseProvider;
  query: Record<string, string>;
  body?: unknown;
}

/** One named case of the parity suite. */
export interface ParityCase {
  /** Unique, kebab-case. */
  name: string;
  assertion: AssertionId;
  /** What the case shows, in a sentence. */
  description: string;
  /** The request as a caller sends it; invalid on purpose in validation cases. */
  request: unknown;
  /** Transport cases: the raw body and content type sent over HTTP instead of `request`. */
  http?: { body: string; contentType: string };
  /**
   * The provider behind the engine, `brave` unless said otherwise; or a chain of them in order
   * (`OPENMATES_PROVIDER=brave,searxng`), each pointing at its own fixture.
   */
  provider?: CaseProvider | readonly CaseProvider[];
  /** Extra engine settings (environment variables) for this case. */
  env?: Record<string, string>;
  /**
   * The surfaces that can express the case (a column of `CASES_OF` goes with the surface it runs,
   * unless the column itself is listed); every surface when absent.
   */
  surfaces?: readonly Surface[];
  /** Columns left out although they run a listed surface's cases (`CASES_OF`), with the reason beside it. */
  except?: readonly Surface[];
  /** The expected outcome, exactly, or a check that throws when the outcome is wrong. */
  expect: Outcome | ((outcome: Outcome) => void);
  /**
   * What the case's fixture provider must have received, checked after the surface's run: throws
   * when the native parameters are wrong (a `freshness=pw`, the `site:` operators in `q`, an
   * `offset`). Every column sends the same request, so every column must get the same calls.
   */
  received?: (requests: readonly ProviderRequest[]) => void;
  /** Strings that must appear nowhere in what the surface emitted (bodies, headers, output, logs). */
  forbidden?: readonly string[];
  /**
   * Retry cases (the SDK columns): a scripted upstream on loopback (drivers/scripted-upstream.ts)
   * answers the SDK's first attempts with these, in order, then relays to the case's server; the
   * SDK runs with retries on and reports each retry it made.
   */
  upstream?: readonly ScriptedAnswer[];
  /** With `upstream`: the retries the SDK must make, in order (none: the first refusal is final). */
  retries?: readonly ExpectedRetry[];
  /**
   * Why a person cannot give this request through the GUI's search form (a JSON type or field the
   * form has no control for, a batch size it cannot submit); the GUI columns (`web`, `webkit`) skip exactly these.
   */
  formCannotExpress?: string;
  /**
   * MCP columns: the call carries a progress token (`token: true`) or none, and `expect` lists the
   * `notifications/progress` the client must receive for it before the result, in order.
   */
  progress?: { token: boolean; expect: readonly ProgressReport[] };
}

/** One `notifications/progress` as a client receives it. */
export interface ProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

/** What a driver hands back for one case. */
export interface DriverResult {
  outcome: Outcome;
  /** Everything the surface emitted that a user or operator could see: bodies, headers, output, logs. */
  transcript: string;
  /** The whole WebSearchResponse or ErrorResponse the surface handed back (parsed JSON), when it hands one back. */
  document?: unknown;
  /** The person view (person-view.ts) read back from what a person sees: the GUI's text, the CLI's human output. */
  view?: unknown;
  /** For a view read from a page (the GUI, the MCP App): the page's language, so the view is held to a page's rules (person-view.ts). */
  pageLanguage?: string;
  /** Retry cases: each retry the SDK reported (its `onRetry` / `on_retry`), in order. */
  retries?: RecordedRetry[];
  /** Progress cases: each progress notification received before the result, in order. */
  progress?: ProgressReport[];
}

/** Environment a case runs in: provider configuration pointing at the fixtures, cache and rate limit off. */
export interface CaseEnvironment {
  env: Record<string, string>;
  /** Secrets the fixtures carry; they must never appear in a transcript. */
  canaries: readonly string[];
  /** How many requests the case's fixture provider has received so far (absent for the local index). */
  providerCalls?: () => number;
  /** The requests the case's fixture provider has received so far, in arrival order (absent for the local index). */
  providerRequests?: () => readonly ProviderRequest[];
}

/** Runs cases on one surface, the way a user of that surface would. */
export interface SurfaceDriver {
  readonly surface: Surface;
  /** False when the surface cannot express the case (for example a raw HTTP body on the CLI). */
  supports(testCase: ParityCase): boolean;
  /** Prepares what every case needs once (a build, an install), before the first case runs. */
  setup?(): Promise<void>;
  run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult>;
  /** Releases servers or processes the driver started. */
  close?(): Promise<void>;
}

/** True when the case names `surface` (or names none) and the surface can express it. */
export function applies(testCase: ParityCase, driver: SurfaceDriver): boolean {
  const surface = CASES_OF[driver.surface] ?? driver.surface;
  const listed =
    (testCase.surfaces === undefined ||
      testCase.surfaces.includes(surface) ||
      testCase.surfaces.includes(driver.surface)) &&
    !(testCase.except ?? []).includes(driver.surface);
  const transportOnly = testCase.http !== undefined && !HTTP_SURFACES.includes(driver.surface);
  return listed && !transportOnly && driver.supports(testCase);
}
