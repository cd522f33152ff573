/** The providers a server can be configured with (`OPENMATES_PROVIDER`). */
export const PROVIDER_IDS = [
  'local',
  'brave',
  'openai',
  'searxng',
  'tavily',
  'exa',
  'serper',
  'anthropic',
  'azure-openai',
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export const DEFAULT_PROVIDER: ProviderId = 'local';
