// A SearXNG instance of your own: the provider and its configuration.
export {
  basicAuthorization,
  createSearxngProvider,
  SEARXNG_TEXT_FORMAT,
  type SearxngProviderConfig,
  searxngLanguage,
} from './provider.ts';
export { type SearxngSettings, searxngModule } from './settings.ts';
