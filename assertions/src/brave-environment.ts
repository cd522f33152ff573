import { type BraveFixture, CANARY_API_KEY } from '@openmates/fixtures';
import type { CaseEnvironment } from './case.ts';

/** A case's environment on the Brave fixture, its state reset: cache and rate limit off, its key a canary. */
export function braveEnvironment(brave: BraveFixture): CaseEnvironment {
  brave.reset();
  return {
    env: {
      OPENMATES_PROVIDER: 'brave',
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_RATE_LIMIT_PER_MIN: '0',
    },
    canaries: [CANARY_API_KEY],
  };
}
