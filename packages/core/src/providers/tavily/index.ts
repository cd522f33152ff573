// Tavily: the provider, its configuration and its countries.
export { TAVILY_COUNTRIES, tavilyCountry } from './countries.ts';
export { TAVILY_PROBE_QUERY, type TavilyDryRun, tavilyDryRun, tavilyLiveProbe } from './doctor.ts';
export {
  createTavilyProvider,
  TAVILY_CAPABILITIES,
  TAVILY_DEFAULT_BASE_URL,
  TAVILY_TEXT_FORMAT,
  type TavilyProviderConfig,
  tavilyBody,
} from './provider.ts';
export { type TavilySettings, tavilyModule } from './settings.ts';
