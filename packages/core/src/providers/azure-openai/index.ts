// Azure OpenAI's hosted search: OpenAI's Responses provider on Azure's endpoint, key header and receipt rule.
export {
  AZURE_OPENAI_DEFAULT_SEARCH_TOOL,
  AZURE_OPENAI_RESPONSES_PATH,
  type AzureOpenAIProviderConfig,
  type ResolvedAzureOpenAIConfig,
  resolveAzureOpenAIConfig,
} from './config.ts';
export { azureOpenAICapabilities, createAzureOpenAIProvider } from './provider.ts';
export { AZURE_RECEIPT_RULE } from './receipts.ts';
export {
  type AzureOpenAIDryRun,
  azureDryRunRequest,
  buildAzureOpenAIRequest,
  REDACTED_API_KEY,
} from './request.ts';
export { type AzureOpenAISettings, azureOpenAIModule } from './settings.ts';
