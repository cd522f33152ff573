import type { Capabilities } from '@openmates/core';

/** What Kestrel applies itself, what it refuses, how it pages and when a call is retried. */
export const KESTREL_CAPABILITIES: Capabilities = {
  honoured: ['count', 'filter_tabloids'],
  refuses: [{ option: 'freshness', applies: (item) => item.freshness !== undefined, reason: 'it has no date filter' }],
  paging: { maxPages: 2, perPage: 10 },
  retry: { maxRetries: 1, maxWaitMs: 5_000, unnamed: { retry: false, waitMs: 0, pauseMs: 1_000 } },
};
