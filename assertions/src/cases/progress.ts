import { expectedBraveResults } from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';

const ordinary = (query: string, count: number) =>
  expectedBraveResults(query, count).map(({ url, title, description }) => ({ url, title, description }));

/** The MCP columns, stdio and HTTP in both protocol eras: where a call reports progress. */
const MCP_COLUMNS = ['mcp', 'mcp-http', 'mcp-2026', 'mcp-http-2026'] as const;

/** Three queries that finish in a set order: `beta` at once, then `delay300 gamma`, then `delay700 alpha`. */
const THREE = {
  requests: [
    { id: 'slow', query: 'delay700 alpha', count: 2 },
    { id: 'fast', query: 'beta', count: 3 },
    { id: 'mid', query: 'delay300 gamma', count: 1 },
  ],
};
const THREE_GROUPS = [
  { id: 'slow', results: ordinary('delay700 alpha', 2) },
  { id: 'fast', results: ordinary('beta', 3) },
  { id: 'mid', results: ordinary('delay300 gamma', 1) },
];

/**
 * Progress of a tool call (ADR 0091): one notification per finished group, in completion order,
 * naming the group's id and how many results it holds, never its query; the result is the same
 * with a token as without.
 */
export const progressCases: ParityCase[] = [
  {
    name: 'mcp-progress-per-group',
    assertion: 'web-search.request.ids-correlated',
    description:
      'A call with a progress token gets one progress notification per finished group, in completion order, before the result.',
    surfaces: MCP_COLUMNS,
    request: THREE,
    progress: {
      token: true,
      expect: [
        { progress: 1, total: 3, message: 'query "fast" finished: 3 results' },
        { progress: 2, total: 3, message: 'query "mid" finished: 1 result' },
        { progress: 3, total: 3, message: 'query "slow" finished: 2 results' },
      ],
    },
    expect: { groups: THREE_GROUPS },
  },
  {
    name: 'mcp-progress-none-without-token',
    assertion: 'web-search.request.ids-correlated',
    description: 'The same call without a progress token gets no progress notification and the same result.',
    surfaces: MCP_COLUMNS,
    request: THREE,
    progress: { token: false, expect: [] },
    expect: { groups: THREE_GROUPS },
  },
];
