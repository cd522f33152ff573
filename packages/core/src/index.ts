// The public API of @openmates/core: what the other packages import, named one by one so that a
// new export is a decision (index.test.ts pins the list). Everything else stays internal.

export type { CallMeter, CallRefusal } from './call-meter.ts';
export {
  type AnyEngineConfig,
  ConfigError,
  configSecrets,
  ENGINE_ENVIRONMENT,
  type EngineConfig,
  loadConfig,
  SELECTION_ENVIRONMENT,
} from './config.ts';
export {
  createEngine,
  type Engine,
  type EngineObserver,
  type SearchJson,
  type ValidatedSearch,
} from './engine.ts';
export { describeIssues, EngineError, errorResponse, parseJsonBody } from './engine-error.ts';
export { createRedactor } from './hygiene/index.ts';
export { createLogger, type Logger } from './logger.ts';
export type { Clock } from './pipeline/members.ts';
export {
  type Capabilities,
  type DoctorCheck,
  type HttpTranslator,
  type JsonTranslator,
  ProviderNotConfiguredError,
  type SearchProvider,
} from './provider.ts';
export { anthropicDryRun } from './providers/anthropic/index.ts';
export {
  createLocalProvider,
  defaultIndexPath,
  ensureDemoCorpusIn,
  ingestPaths,
  type LocalDocument,
  type LocalIndex,
  LocalIndexError,
  normalizeBaseUrl,
  openIndex,
} from './providers/local/index.ts';
export { dryRunRequest } from './providers/openai/index.ts';
export {
  buildListedProviders,
  createConfiguredProvider,
  createConfiguredProviders,
  PROVIDER_MODULES,
  type ProviderModule,
  type ProviderPrice,
  type ProviderRegistry,
  type Providers,
} from './providers/registry.ts';
export { lazyHttpClient, loadHttpClient } from './providers/shared/http-client.ts';
export { type TavilyDryRun, tavilyDryRun } from './providers/tavily/index.ts';
export { newRequestId } from './request-id.ts';
export { type EnvTable, type EnvVariable, tableSchema } from './shared/env-schema.ts';
export { connectRedis, type RedisLink } from './shared/redis-link.ts';
