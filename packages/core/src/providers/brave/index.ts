// Brave Search: the provider, its configuration and its languages.
export { BRAVE_ISO_LANGUAGES, BRAVE_SEARCH_LANGS, toBraveSearchLang } from './languages.ts';
export {
  BRAVE_DEFAULT_BASE_URL,
  BRAVE_DEFAULT_RETRY_DELAY_MS,
  type BraveProviderConfig,
  createBraveProvider,
} from './provider.ts';
export { type BraveSettings, braveKeyVariable, braveModule } from './settings.ts';
