import type { DoctorCheck, SearchProvider } from '../provider.ts';
import type { Env, EnvTable } from '../shared/env-schema.ts';
import type { DryRun } from './shared/probes.ts';

/**
 * How `createConfiguredProvider` builds a provider, beyond the configuration: nothing so far (every
 * provider calls out through the one HTTP client, ADR 0113).
 */
export type ProviderOptions = Readonly<Record<string, never>>;

/** The exact request one search would send, its secrets redacted, as `openmates doctor --dry-run` prints it. */
export interface DryRunRequest {
  /** The provider's id in its registry. */
  readonly provider: string;
  readonly recipient: string;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** What one billed unit of a provider costs on its default plan, and where the figure was read. */
export interface UnitPrice {
  readonly costs: 'per-unit';
  /** US dollars per billed unit. */
  readonly usd: number;
  /** What the provider bills: each call, each search (a call that may page), or each credit. */
  readonly unit: 'call' | 'search' | 'credit';
  /** When the figure was read (`YYYY-MM-DD`): prices change, so it is dated. */
  readonly asOf: string;
  /** The public page it was read from. */
  readonly page: string;
}

/** A provider's price: a unit price, or nothing at all (the local index, an instance of your own). */
export type ProviderPrice = UnitPrice | { readonly costs: 'nothing' };

/** The price of a provider that costs nothing to call. */
export const COSTS_NOTHING: ProviderPrice = { costs: 'nothing' };

/**
 * Everything the engine, the configuration and `openmates doctor` know of one provider, owned by
 * its folder: its environment variables, what tells one of its configurations from another, how
 * it is built and checked, what it costs and where its documentation lives. `Id` is its id: one
 * of the contract's `PROVIDER_IDS` for every module of `PROVIDER_MODULES` (ADR 0114).
 */
export interface ProviderModule<C, Id extends string = string> {
  readonly id: Id;
  /** What docs/reference.md titles its variables with ("Brave Search"). */
  readonly name: string;
  /** Who else reads its variables besides the engine (docs/reference.md), e.g. "`openmates index`". */
  readonly alsoReadBy?: string;
  /** Its price on its default plan (`COSTS_NOTHING` for a provider that costs nothing). */
  readonly price: ProviderPrice;
  /** Its page in the repository, `docs/providers/<id>.md` (it may not be written yet). */
  readonly docsPage: string;
  /** Per call, retries included, unless OPENMATES_PROVIDER_TIMEOUT_MS says otherwise. */
  readonly defaultTimeoutMs: number;
  /** The variable that gives it access (a key or an instance), for doctor's "set but not used". */
  readonly accessVariable?: string;
  /** The variable that points it at another origin (a fixture, a proxy), when it calls one. */
  readonly baseUrlVariable?: string;
  /** Its variables: what `parse` reads them with, and what docs/reference.md says of each. */
  readonly environment: EnvTable;
  /** Reads its variables; throws a ConfigError naming each bad one. Never requires a key: `create` does. */
  parse(env: Env): C;
  /** Secrets the configuration holds; redaction replaces each of them in anything outgoing. */
  secrets(config: C): string[];
  /**
   * What tells one configuration from another (endpoint, model, key, instance), for cache keys and
   * the shared rate: two configurations that may answer a query differently must differ here. Holds
   * secrets: it is only ever used inside an HMAC or in process memory.
   */
  identity(config: C): string[];
  /** Builds the provider; throws ProviderNotConfiguredError with a one-line reason when a key is missing. */
  create(config: C, options: ProviderOptions): SearchProvider;
  /** `openmates doctor`'s checks of the configuration alone (no network), `env` as given. */
  configurationChecks(config: C, env: Env): DoctorCheck[];
  /** A check that runs a real, billed call (`openmates doctor --live`). */
  liveProbe?(config: C, signal: AbortSignal): Promise<DoctorCheck[]>;
  /** The request one search for `query` would send, secrets redacted; sends nothing and needs no key. */
  dryRun?(config: C, query: string): DryRunRequest;
}

/**
 * A set of providers by id, each module under its own id: `PROVIDER_MODULES` in production, or a
 * test's registry with a provider of its own (ADR 0114). The configuration is read against one, and
 * carries it to the engine.
 */
export type ProviderRegistry = { readonly [id: string]: ProviderModule<unknown> };

/** The ids of a registry. */
export type RegistryId<R extends ProviderRegistry> = Extract<keyof R, string>;

/** Each provider's settings, as its module reads them, by id. */
export type SettingsOf<R extends ProviderRegistry> = {
  [K in RegistryId<R>]: R[K] extends ProviderModule<infer C> ? C : never;
};
