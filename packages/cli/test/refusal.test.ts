import { REQUEST_FIELDS, type RequestFields } from '@openmates/contract';
import { LIST_PROBE_FIELD as LIST_PROBE, PROBE_FIELD as PROBE } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { closest, unknownCommandLine, unknownFlagLine } from '../src/lib/usage.ts';
import { refusalLine } from '../src/search/refusal.ts';

// Throwaway fields on a copy of the contract's table: a refusal names their flags from the table alone.
const TABLE: RequestFields = [...REQUEST_FIELDS, PROBE, LIST_PROBE];
const refused = (issues: { path: string; message: string }[]) => ({
  error: 'Invalid request',
  code: 'invalid_request' as const,
  issues,
});

describe('a refusal line (ADR 0122)', () => {
  it('says a field by the flag the table gives it, with the value typed, each issue once', () => {
    const body = refused([
      { path: 'requests[0].x_probe', message: 'x_probe must be short' },
      { path: 'requests[1].x_probe', message: 'x_probe must be short' },
      { path: 'requests[0].x_list[1]', message: 'x_list entries must be words' },
    ]);
    const typed = { queries: ['a', 'b'], flags: { 'x-probe': 'long one', 'x-list': ['ok', 'a/b'] } };
    expect(refusalLine(body, typed, undefined, TABLE)).toBe(
      'openmates: --x-probe must be short (got "long one"); --x-list entries must be words (got a/b). See `openmates search --help`.',
    );
  });

  it('does not repeat a value the message already quotes, nor mistake 10 for 0', () => {
    const typed = { queries: ['a'], flags: { topic: 'news', page: '0' } };
    const body = refused([
      { path: 'requests[0].topic', message: 'topic "news" is not supported by the X provider' },
      { path: 'requests[0].page', message: 'page must be an integer from 1 to 10' },
    ]);
    expect(refusalLine(body, typed, undefined)).toBe(
      'openmates: --topic "news" is not supported by the X provider; --page must be an integer from 1 to 10 (got 0). See `openmates search --help`.',
    );
  });

  it('keeps the JSON paths of --input, and the message of a refusal without issues', () => {
    const body = refused([{ path: 'requests', message: 'requests must be an array of 1 to 5 items' }]);
    expect(refusalLine(body, undefined, { requests: [] })).toBe(
      'openmates: requests: requests must be an array of 1 to 5 items (got 0). See `openmates search --help`.',
    );
    // A server's text reaches the terminal without its control characters.
    expect(refusalLine({ error: 'No \u001b[2Jprovider', code: 'not_configured' }, undefined, undefined)).toBe(
      'openmates: No [2Jprovider. Run `openmates doctor` to see what to set.',
    );
  });
});

describe('the closest name', () => {
  it('is offered only when near enough', () => {
    expect(closest('--cout', ['--count', '--country'])).toBe('--count');
    expect(closest('--bogus', ['--count', '--json'])).toBeUndefined();
    expect(unknownFlagLine('--jsonn', ['--json', '--jsonl'], 'search')).toBe(
      'openmates: unknown flag --jsonn: did you mean `--json`? See `openmates search --help`.',
    );
    expect(unknownCommandLine(['index', 'stat'], ['search', 'index add', 'index stats'])).toBe(
      'openmates: unknown command `index stat`: did you mean `index stats`? See `openmates --help`.',
    );
    expect(unknownCommandLine(['frobnicate'], ['search', 'doctor'])).toBe(
      'openmates: unknown command `frobnicate`. See `openmates --help`.',
    );
  });
});
