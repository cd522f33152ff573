// Serper (Google results): the provider, its configuration, its dry run and its live probe.
export { SERPER_PROBE_QUERY, type SerperDryRun, serperDryRunRequest, serperLiveProbe } from './probe.ts';
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
