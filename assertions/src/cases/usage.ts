import { expectedBraveResults } from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';

const ordinary = (query: string, count: number) =>
  expectedBraveResults(query, count).map(({ url, title, description }) => ({ url, title, description }));

/** Usage cases (docs/usage-and-quotas.md): what each group cost, on every surface, against the Brave fixture. */
export const usageCases: ParityCase[] = [
  {
    name: 'usage-brave-one-call',
    assertion: 'web-search.usage.counted',
    description:
      'One Brave search is one provider call, billed one call, estimated at the price OPENMATES_PRICES gives Brave.',
    env: { OPENMATES_PRICES: 'brave=0.005' },
    request: { requests: [{ query: 'usage counted', count: 3 }] },
    expect: {
      groups: [
        {
          id: 1,
          results: ordinary('usage counted', 3),
          usage: { source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 },
        },
      ],
    },
  },
  {
    name: 'usage-shared-in-batch',
    assertion: 'web-search.usage.counted',
    description:
      'Two identical items of one batch make one provider call: the second rides on the first (`shared`, no call of its own) and gets the same results.',
    env: { OPENMATES_PRICES: 'brave=0.005' },
    request: {
      requests: [
        { query: 'usage twins', count: 3 },
        { query: 'usage twins', count: 3 },
      ],
    },
    expect: {
      groups: [
        {
          id: 1,
          results: ordinary('usage twins', 3),
          usage: { source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 },
        },
        { id: 2, results: ordinary('usage twins', 3), usage: { source: 'shared', calls: 0, billed: 0, cost_usd: 0 } },
      ],
    },
  },
];
