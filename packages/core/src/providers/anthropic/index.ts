// Anthropic's hosted search: the provider, its configuration, its dry run and its live probe (ADR 0129).
export { ANTHROPIC_PROBE_INPUT, liveProbe } from './probe.ts';
export { ANTHROPIC_CAPABILITIES, createAnthropicProvider } from './provider.ts';
export { receiptOf, SEARCH_ERROR_STATUS } from './receipt.ts';
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_MODEL,
  ANTHROPIC_SEARCH_INSTRUCTION,
  ANTHROPIC_VERSION,
  type AnthropicDryRun,
  type AnthropicQuery,
  type AnthropicRequestBody,
  type AnthropicSettings,
  anthropicDryRun,
  messagesRequest,
  REDACTED_API_KEY,
} from './request.ts';
export { anthropicModule } from './settings.ts';
