/** The providers a server can be configured with (`OPENMATES_PROVIDER`). */
export const PROVIDER_IDS = ['local', 'brave', 'openai', 'searxng'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export const DEFAULT_PROVIDER: ProviderId = 'local';

/** Request options a provider may or may not honour; skill info lists which. */
export const REQUEST_OPTIONS = ['count', 'country', 'search_lang', 'safesearch', 'filter_tabloids'] as const;
export type RequestOption = (typeof REQUEST_OPTIONS)[number];
