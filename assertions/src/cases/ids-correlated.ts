import type { ParityCase } from '../case.ts';

const assertion = 'web-search.request.ids-correlated' as const;

/** Id cases run against the `empty` scenario, so every group is a finished zero-hit group. */
export const idsCorrelatedCases: ParityCase[] = [
  {
    name: 'ids-assigned-around-caller-ids',
    assertion,
    description: 'Missing ids get the smallest positive integers no caller id uses, in item order.',
    request: {
      requests: [
        { query: 'empty one' },
        { id: 1, query: 'empty two' },
        { query: 'empty three' },
        { id: '3', query: 'empty four' },
      ],
    },
    expect: {
      groups: [
        { id: 2, results: [] },
        { id: 1, results: [] },
        { id: 4, results: [] },
        { id: '3', results: [] },
      ],
    },
  },
  {
    name: 'caller-ids-kept',
    assertion,
    description: 'String and integer caller ids come back unchanged and in request order.',
    request: {
      requests: [
        { id: 'zeta', query: 'empty a' },
        { id: 0, query: 'empty b' },
        { id: 'alpha', query: 'empty c' },
      ],
    },
    expect: {
      groups: [
        { id: 'zeta', results: [] },
        { id: 0, results: [] },
        { id: 'alpha', results: [] },
      ],
    },
  },
  {
    name: 'string-ids-and-auto-ids',
    assertion,
    description: 'String caller ids (as a shared GUI link carries them) are kept; auto ids skip the caller id "1".',
    request: { requests: [{ query: 'empty first' }, { id: '1', query: 'empty second' }, { query: 'empty third' }] },
    expect: {
      groups: [
        { id: 2, results: [] },
        { id: '1', results: [] },
        { id: 3, results: [] },
      ],
    },
  },
];
