import { expectedBraveResults } from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';
import type { Outcome } from '../outcome.ts';

const ordinary = (query: string, count: number) =>
  expectedBraveResults(query, count).map(({ url, title, description }) => ({ url, title, description }));

/** Budget and fitting cases (call and source budgets, response fitting) against the Brave fixture. */
export const budgetCases: ParityCase[] = [
  {
    name: 'budget-completion-order',
    assertion: 'web-search.results.bounded',
    description:
      'With 5 source slots, the query that completes first takes its share; the slower one gets what remains.',
    env: { OPENMATES_MAX_SOURCES: '5' },
    // Not the cluster column: its second answer comes from the shared cache, where both groups
    // complete at once and admission follows request order (ADR 0050).
    except: ['cluster'],
    request: {
      requests: [
        { id: 'slow', query: 'delay800 delta', count: 3 },
        { id: 'fast', query: 'gamma', count: 3 },
      ],
    },
    expect: {
      groups: [
        { id: 'slow', results: ordinary('delay800 delta', 2) },
        { id: 'fast', results: ordinary('gamma', 3) },
      ],
    },
  },
  {
    name: 'budget-repeated-url-spends-once',
    assertion: 'web-search.results.bounded',
    description: 'A URL repeated in another group of the same request does not spend a second source slot.',
    env: { OPENMATES_MAX_SOURCES: '5' },
    request: {
      requests: [
        { query: 'rust vec', count: 5 },
        { query: 'rust vec', count: 5 },
      ],
    },
    expect: {
      groups: [
        { id: 1, results: ordinary('rust vec', 5) },
        { id: 2, results: ordinary('rust vec', 5) },
      ],
    },
  },
  {
    name: 'fitting-cuts-last-group',
    assertion: 'web-search.results.bounded',
    description: 'A response over OPENMATES_MAX_RESPONSE_BYTES loses results from the end of the last group only.',
    env: { OPENMATES_MAX_RESPONSE_BYTES: '32768' },
    request: { requests: ['a', 'b', 'c', 'd', 'e'].map((x) => ({ query: `many ${x}`, count: 20 })) },
    expect: (outcome: Outcome) => {
      const lengths = outcome.groups.map((g) => g.results.length);
      const [first, second, third, fourth, last] = lengths;
      if (![first, second, third, fourth].every((n) => n === 20))
        throw new Error(`first four groups whole: ${lengths}`);
      if (last === undefined || last < 1 || last >= 20) throw new Error(`last group cut but not emptied: ${lengths}`);
      const expected = ordinary('many e', last);
      if (JSON.stringify(outcome.groups[4]?.results) !== JSON.stringify(expected))
        throw new Error('last group is a prefix');
    },
  },
];
