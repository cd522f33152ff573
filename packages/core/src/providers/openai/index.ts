// OpenAI's hosted search: the provider, its configuration, its dry run and its live probe.
export {
  OPENAI_DEFAULT_BASE_URL,
  OPENAI_DEFAULT_MODEL,
  type OpenAIProviderConfig,
  type ResolvedOpenAIConfig,
  resolveOpenAIConfig,
} from './config.ts';
export { liveProbe, OPENAI_PROBE_LEVEL1_INPUT, OPENAI_PROBE_LEVEL1_MAX_OUTPUT_TOKENS } from './probe.ts';
export { createOpenAIProvider, OPENAI_CAPABILITIES } from './provider.ts';
export {
  buildOpenAIRequest,
  dryRunRequest,
  OPENAI_SEARCH_INSTRUCTION,
  type OpenAIDryRun,
  type OpenAIQuery,
  type OpenAIRequest,
  type OpenAIRequestBody,
  REDACTED_AUTHORIZATION,
} from './request.ts';
export { type OpenAISettings, openaiModule } from './settings.ts';
