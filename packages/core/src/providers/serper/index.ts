// Serper (Google results): the provider, its configuration, its dry run and its live probe.
export { serperDryRunRequest, serperLiveProbe } from './probe.ts';
export {
  createSerperProvider,
  SERPER_CAPABILITIES,
  SERPER_DEFAULT_BASE_URL,
  type SerperProviderConfig,
  serperBody,
  serperCountry,
  serperTbs,
} from './provider.ts';
export { type SerperSettings, serperModule } from './settings.ts';
