// Brave Search: the provider, its configuration and its languages.
export { BRAVE_ISO_LANGUAGES, BRAVE_SEARCH_LANGS, toBraveSearchLang } from './languages.ts';
export { BRAVE_DEFAULT_RETRY_DELAY_MS } from './limits.ts';
export {
  BRAVE_DEFAULT_BASE_URL,
  type BraveProviderConfig,
  createBraveProvider,
} from './provider.ts';
export { type BraveSettings, braveKeyVariable, braveModule } from './settings.ts';
