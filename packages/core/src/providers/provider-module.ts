import type { ProviderId } from '@openmates/contract';
import type { DoctorCheck, SearchProvider } from '../provider.ts';
import type { Env, EnvTable } from '../shared/env-schema.ts';
import type { DryRun } from './shared/probes.ts';

/**
 * How `createConfiguredProvider` builds a provider, beyond the configuration: nothing so far (every
 * provider calls out through the one HTTP client, ADR 0113).
 */
export type ProviderOptions = Readonly<Record<string, never>>;

/**
 * Everything the engine, the configuration and `openmates doctor` know of one provider, owned by
 * its folder: its environment variables, what tells one of its configurations from another, and
 * how it is built and checked.
 */
export interface ProviderModule<C> {
  readonly id: ProviderId;
  /** Per call, retries included, unless OPENMATES_PROVIDER_TIMEOUT_MS says otherwise. */
  readonly defaultTimeoutMs: number;
  /** The variable that gives it access (a key or an instance), for doctor's "set but not used". */
  readonly accessVariable?: string;
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
  /**
   * The first request a search of `item` (a request item as the contract takes it) would send, its
   * secrets redacted (`openmates doctor --dry-run`). Needs no key and sends nothing.
   */
  dryRunRequest?(config: C, item: unknown): DryRun;
}
