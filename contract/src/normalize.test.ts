import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRIES } from './countries.ts';
import { isIssueMessage, issueMessage } from './issue-messages.ts';
import {
  assignIds,
  BATCH_PATH,
  formatPath,
  issueTarget,
  type NormalizedRequest,
  normalizeRequest,
} from './normalize.ts';
import type { RequestId } from './request-schemas.ts';
import type { Issue } from './response-schemas.ts';
import { cleanText, codePointLength, hasInvisible } from './text.ts';

function ok(input: unknown): NormalizedRequest {
  const result = normalizeRequest(input);
  if (!result.ok) throw new Error(`expected a valid request, got ${JSON.stringify(result.issues)}`);
  return result.request;
}

function issues(input: unknown): Issue[] {
  const result = normalizeRequest(input);
  if (result.ok) throw new Error('expected issues, got a valid request');
  return result.issues;
}

const paths = (input: unknown) => issues(input).map((i) => i.path);
const one = (item: Record<string, unknown>) => ({ requests: [{ query: 'q', ...item }] });

describe('batch shape', () => {
  it('needs a JSON object with a requests array', () => {
    expect(paths(null)).toEqual(['']);
    expect(paths('text')).toEqual(['']);
    expect(paths([])).toEqual(['']);
    expect(paths({})).toEqual(['requests']);
    expect(issues({}).at(0)?.message).toBe('requests is required');
    expect(paths({ requests: {} })).toEqual(['requests']);
  });

  it('names a non-array requests once, whatever its length', () => {
    // A string longer than the batch limit also fails zod's length check, under the same message.
    for (const requests of ['css grid', 'x', 12, true])
      expect(issues({ requests })).toEqual([{ path: 'requests', message: expect.stringMatching(/1 to 5/) }]);
  });

  it('holds 1 to 5 items', () => {
    expect(paths({ requests: [] })).toEqual(['requests']);
    const six = Array.from({ length: 6 }, (_, i) => ({ query: `q${i}` }));
    expect(paths({ requests: six })).toEqual(['requests']);
    expect(issues({ requests: six })[0]?.message).toMatch(/1 to 5/);
    expect(ok({ requests: six.slice(0, 5) }).requests).toHaveLength(5);
    expect(ok({ requests: six.slice(0, 1) }).requests).toHaveLength(1);
  });

  it('rejects unknown fields anywhere, naming them', () => {
    expect(paths({ requests: [{ query: 'q' }], extra: 1 })).toEqual(['extra']);
    const found = issues(one({ max_results: 5 }));
    expect(found).toEqual([{ path: 'requests[0].max_results', message: expect.stringContaining('unknown field') }]);
  });

  it('reports every problem at once, each with its path', () => {
    expect(paths({ requests: [{ query: '' }, { query: 'ok', count: 0 }, { count: 3 }] }).sort()).toEqual([
      'requests[0].query',
      'requests[1].count',
      'requests[2].query',
    ]);
  });
});

describe('id', () => {
  it('accepts strings of 1 to 64 characters and safe integers ≥ 0', () => {
    expect(ok(one({ id: 'a' })).requests[0]?.id).toBe('a');
    expect(ok(one({ id: 'x'.repeat(64) })).requests[0]?.id).toBe('x'.repeat(64));
    expect(ok(one({ id: '😀'.repeat(64) })).requests[0]?.id).toBe('😀'.repeat(64));
    expect(ok(one({ id: 0 })).requests[0]?.id).toBe(0);
    expect(ok(one({ id: Number.MAX_SAFE_INTEGER })).requests[0]?.id).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses empty or long strings, negative, fractional, unsafe and non-scalar ids', () => {
    for (const id of ['', 'x'.repeat(65), -1, 1.5, 2 ** 53, true, null, {}, []])
      expect(paths(one({ id })), JSON.stringify(id)).toEqual(['requests[0].id']);
  });

  it('must be unique as strings, so 1 and "1" collide', () => {
    const found = issues({
      requests: [
        { id: 1, query: 'a' },
        { id: '1', query: 'b' },
      ],
    });
    expect(found).toEqual([{ path: 'requests[1].id', message: expect.stringContaining('requests[0]') }]);
  });

  it('is assigned when missing: the smallest positive integer no caller id and no earlier auto id uses', () => {
    const ids = ok({
      requests: [{ query: 'a' }, { id: 1, query: 'b' }, { query: 'c' }, { id: '3', query: 'd' }, { query: 'e' }],
    }).requests.map((r) => r.id);
    expect(ids).toEqual([2, 1, 4, '3', 5]);
    expect(assignIds([undefined, undefined])).toEqual([1, 2]);
    expect(assignIds(['0', undefined])).toEqual(['0', 1]);
  });

  it('assignment keeps caller ids, avoids them, keeps order, and yields ids unique as strings', () => {
    const callerId = fc.oneof(fc.nat({ max: 8 }), fc.constantFrom('1', '2', '3', 'a', '01'));
    fc.assert(
      fc.property(fc.array(fc.option(callerId, { nil: undefined }), { maxLength: 5 }), (raw) => {
        // Callers must not collide themselves (validation refuses that), so dedupe first.
        const seen = new Set<string>();
        const ids = raw.map((id) => {
          if (id === undefined || seen.has(String(id))) return undefined;
          seen.add(String(id));
          return id;
        });
        const assigned = assignIds(ids);
        expect(assigned).toHaveLength(ids.length);
        expect(new Set(assigned.map(String)).size).toBe(assigned.length);
        ids.forEach((id, i) => {
          if (id !== undefined) expect(assigned[i]).toBe(id);
          else {
            const auto = assigned[i] as number;
            expect(Number.isInteger(auto) && auto > 0).toBe(true);
            expect(seen.has(String(auto))).toBe(false);
            // smallest: every smaller positive integer is taken by a caller id or an earlier auto id
            const earlier = new Set([...seen, ...assigned.slice(0, i).map(String)]);
            for (let k = 1; k < auto; k++) expect(earlier.has(String(k))).toBe(true);
          }
        });
      }),
    );
  });
});

describe('query', () => {
  it('is required and must be a string', () => {
    expect(paths({ requests: [{}] })).toEqual(['requests[0].query']);
    expect(paths({ requests: [{ query: 42 }] })).toEqual(['requests[0].query']);
  });

  it('is cleaned: invisible characters removed, whitespace collapsed and trimmed', () => {
    const raw = '\uFEFF  fetch\u200B\u00A0\n abort\u202E\u2066 \u{E0041}signal\u0007 ';
    expect(ok(one({ query: raw })).requests[0]?.query).toBe('fetch abort signal');
  });

  it('must not be blank after cleaning', () => {
    for (const query of ['', '   ', '\u200B\u200C\u200D', '\n\t\u00A0', '\u{E0020}'])
      expect(issues(one({ query }))[0]).toEqual({ path: 'requests[0].query', message: 'query must not be blank' });
  });

  it('is at most 400 code points after cleaning', () => {
    expect(ok(one({ query: 'a'.repeat(400) })).requests[0]?.query).toHaveLength(400);
    expect(ok(one({ query: '😀'.repeat(400) })).requests[0]?.query).toBe('😀'.repeat(400));
    expect(ok(one({ query: `${'a'.repeat(400)}\u200B\u200B   ` })).requests[0]?.query).toHaveLength(400);
    expect(paths(one({ query: 'a'.repeat(401) }))).toEqual(['requests[0].query']);
  });

  it('cleaning leaves no invisible characters, no edge or double whitespace, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (raw) => {
        const cleaned = cleanText(raw);
        // Joiners may stay where they join (ADR 0004; see text.test.ts); nothing else invisible does.
        expect(hasInvisible(cleaned.replace(/[\u200C\u200D]/g, ''))).toBe(false);
        expect(cleaned).toBe(cleaned.trim());
        expect(cleaned).not.toMatch(/\s{2}/u);
        expect(cleanText(cleaned)).toBe(cleaned);
        expect(codePointLength(cleaned)).toBeLessThanOrEqual(codePointLength(raw));
      }),
    );
  });
});

describe('count', () => {
  it('defaults to 10 and accepts integers 1 to 20', () => {
    expect(ok(one({})).requests[0]?.count).toBe(10);
    expect(ok(one({ count: 1 })).requests[0]?.count).toBe(1);
    expect(ok(one({ count: 20 })).requests[0]?.count).toBe(20);
  });
  it('refuses anything else', () => {
    for (const count of [0, 21, 1.5, '10', null, -3])
      expect(paths(one({ count })), String(count)).toEqual(['requests[0].count']);
  });
});

describe('country', () => {
  it('defaults to US, is case-insensitive, and includes Norway', () => {
    expect(ok(one({})).requests[0]?.country).toBe('US');
    expect(ok(one({ country: 'de' })).requests[0]?.country).toBe('DE');
    expect(ok(one({ country: 'No' })).requests[0]?.country).toBe('NO');
    expect(ok(one({ country: 'all' })).requests[0]?.country).toBe('ALL');
    expect(COUNTRIES).toHaveLength(38);
    expect(COUNTRIES).toContain('NO');
  });
  it('falls back to US for unknown strings but refuses other types', () => {
    expect(ok(one({ country: 'XX' })).requests[0]?.country).toBe('US');
    expect(ok(one({ country: '' })).requests[0]?.country).toBe('US');
    expect(paths(one({ country: 1 }))).toEqual(['requests[0].country']);
    expect(paths(one({ country: false }))).toEqual(['requests[0].country']);
  });
});

describe('search_lang', () => {
  it('takes ISO 639-1 codes in any case, normalized to lowercase', () => {
    expect(ok(one({ search_lang: 'EN' })).requests[0]?.search_lang).toBe('en');
    expect(ok(one({ search_lang: 'nb' })).requests[0]?.search_lang).toBe('nb');
    expect(ok(one({})).requests[0]).not.toHaveProperty('search_lang');
  });
  it('refuses anything that is not an ISO 639-1 code', () => {
    for (const search_lang of ['xx', 'eng', 'en-GB', '', 'jp', 7])
      expect(paths(one({ search_lang })), String(search_lang)).toEqual(['requests[0].search_lang']);
  });
});

describe('safesearch', () => {
  it('defaults to moderate and is case-insensitive', () => {
    expect(ok(one({})).requests[0]?.safesearch).toBe('moderate');
    expect(ok(one({ safesearch: 'STRICT' })).requests[0]?.safesearch).toBe('strict');
    expect(ok(one({ safesearch: 'Off' })).requests[0]?.safesearch).toBe('off');
  });
  it('falls back to moderate for unknown strings but refuses other types', () => {
    expect(ok(one({ safesearch: 'bogus' })).requests[0]?.safesearch).toBe('moderate');
    expect(paths(one({ safesearch: true }))).toEqual(['requests[0].safesearch']);
  });
});

describe('filter_tabloids', () => {
  it('defaults to true and must be a boolean', () => {
    expect(ok(one({})).requests[0]?.filter_tabloids).toBe(true);
    expect(ok(one({ filter_tabloids: false })).requests[0]?.filter_tabloids).toBe(false);
    expect(paths(one({ filter_tabloids: 'yes' }))).toEqual(['requests[0].filter_tabloids']);
  });
});

describe('formatPath', () => {
  it('renders zod paths for people', () => {
    expect(formatPath([])).toBe('');
    expect(formatPath(['requests', 2, 'query'])).toBe('requests[2].query');
  });
});

describe('issueTarget', () => {
  it('reads back the item, field and list entry of every issue path the normalizer writes', () => {
    const [count] = issues({ requests: [{ query: 'a' }, { query: 'b', count: 99 }] });
    expect(issueTarget(count?.path ?? '')).toMatchObject({ item: 1, field: { name: 'count' } });
    const [domain] = issues({ requests: [{ query: 'a', include_domains: ['example.org', 'http://x'] }] });
    expect(issueTarget(domain?.path ?? '')).toMatchObject({ item: 0, field: { name: 'include_domains' }, entry: 1 });
  });

  it('names no field for the batch, the body or an unknown field', () => {
    expect(issues({ requests: [] })[0]?.path).toBe(BATCH_PATH);
    expect(issueTarget(BATCH_PATH)).toBeUndefined();
    expect(issueTarget('')).toBeUndefined();
    expect(issueTarget('requests[0].colour')).toBeUndefined();
  });
});

it('normalizes a full item', () => {
  const id: RequestId = 'docs';
  expect(
    ok({
      requests: [
        {
          id,
          query: ' Rust  Vec ',
          count: 3,
          country: 'gb',
          search_lang: 'EN',
          safesearch: 'off',
          filter_tabloids: false,
        },
      ],
    }),
  ).toEqual({
    requests: [
      {
        id: 'docs',
        query: 'Rust Vec',
        count: 3,
        country: 'GB',
        search_lang: 'en',
        safesearch: 'off',
        filter_tabloids: false,
      },
    ],
  });
});

describe('issue messages', () => {
  it('name the bound, in the contract’s wording, where a library would have its own', () => {
    expect(issues(JSON.parse('{"requests":[{"query":"q","id":12345678901234567890}]}'))).toEqual([
      {
        path: 'requests[0].id',
        message: 'id must be a string of 1 to 64 characters or an integer from 0 to 9007199254740991',
      },
    ]);
    expect(issues(JSON.parse('{"requests":[{"query":"q","count":1e309}]}'))).toEqual([
      { path: 'requests[0].count', message: 'count must be an integer from 1 to 20' },
    ]);
  });

  it('say "required" only for a missing field, and what was expected for a wrong one', () => {
    expect(issues({ requests: [{}] })[0]?.message).toBe('query is required');
    expect(issues(one({ query: 5 }))[0]?.message).toBe('query must be a string');
    expect(issues({ requests: 'x' })[0]?.message).toBe('requests must be an array of 1 to 5 items');
    expect(issues({ requests: [7] })[0]).toEqual({
      path: 'requests[0]',
      message: 'each item of requests must be an object with a "query" string',
    });
    expect(issues(one({ filter_tabloids: 'yes' }))[0]?.message).toBe('filter_tabloids must be true or false');
    expect(issues(one({ country: 1 }))[0]?.message).toBe('country must be a string');
  });

  it('come from the contract’s templates, for every field and every kind of wrong value', () => {
    const wrong = [
      null,
      true,
      -1,
      0,
      1.5,
      21,
      2 ** 53,
      Number.POSITIVE_INFINITY,
      '',
      ' ',
      'x'.repeat(401),
      'zz',
      [],
      {},
    ];
    const fields = ['id', 'query', 'count', 'country', 'search_lang', 'safesearch', 'filter_tabloids', 'bogus'];
    const bodies: unknown[] = [
      null,
      1,
      'x',
      [],
      {},
      { requests: null },
      { requests: [] },
      { requests: [1, 'x', null] },
    ];
    for (const field of fields) for (const value of wrong) bodies.push(one({ [field]: value }));
    bodies.push({
      requests: [
        { id: 1, query: 'a' },
        { id: '1', query: 'b' },
      ],
    });
    for (const body of bodies) {
      const result = normalizeRequest(body);
      if (result.ok) continue;
      for (const issue of result.issues) expect(isIssueMessage(issue.message), issue.message).toBe(true);
    }
  });

  it('are told apart from foreign wording by the template list', () => {
    expect(isIssueMessage('count must be an integer from 1 to 20')).toBe(true);
    expect(isIssueMessage('Too big: expected int to be <=9007199254740991')).toBe(false);
    expect(isIssueMessage('Invalid input: expected string, received number')).toBe(false);
    expect(issueMessage('required', { field: 'query' })).toBe('query is required');
  });
});

describe('freshness', () => {
  const messages = (freshness: unknown) => issues(one({ freshness })).map((i) => [i.path, i.message]);
  it('says which date of a range does not exist, or that the range ends before it starts', () => {
    expect(messages('2026-02-30..2026-03-10')).toEqual([
      ['requests[0].freshness', 'freshness date 2026-02-30 does not exist (a date is YYYY-MM-DD)'],
    ]);
    expect(messages('..2025-13-01')).toEqual([
      ['requests[0].freshness', 'freshness date 2025-13-01 does not exist (a date is YYYY-MM-DD)'],
    ]);
    expect(messages('2026-03-10..2026-03-01')).toEqual([
      ['requests[0].freshness', 'freshness range 2026-03-10..2026-03-01 ends before it starts'],
    ]);
  });
  it('gives the whole rule for anything else, a lone date included', () => {
    for (const freshness of ['fortnight', '..', '2026-03-01', '2026-3-1..', '2026-01-01..2026-02-01..', 7])
      expect(messages(freshness), String(freshness)).toEqual([['requests[0].freshness', issueMessage('freshness')]]);
  });
  it('accepts the periods in any case and ranges with one end open', () => {
    for (const freshness of ['day', 'WEEK', 'Month', 'year', '2026-01-01..', '..2026-01-01', '2024-02-29..2024-03-01'])
      expect(ok(one({ freshness })).requests[0]?.freshness, freshness).toBe(freshness.toLowerCase());
    for (const freshness of ['2026-02-30..', '2026-03-10..2026-03-01', 'fortnight'])
      expect(messages(freshness).map(([, message]) => isIssueMessage(String(message)))).toEqual([true]);
  });
});
