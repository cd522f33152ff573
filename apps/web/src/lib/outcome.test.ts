import { APIError } from '@openmates/sdk';
import { describe, expect, it } from 'vitest';
import { refusalOutcome } from './outcome.ts';
import { groupAnnouncement } from './search-stream.ts';

const headers = (requestId?: string) => new Headers(requestId ? { 'x-request-id': requestId } : {});

describe('refusalOutcome', () => {
  it('shows a contract body as it came: code, message, issues, request id', () => {
    const body = {
      error: 'The request is invalid.',
      code: 'invalid_request',
      issues: [{ path: 'requests[0].count', message: 'Too big: expected number to be <=20' }, { path: 1 }],
      request_id: 'req-1',
    };
    expect(refusalOutcome(400, body, 'header-id')).toEqual({
      kind: 'error',
      status: 400,
      code: 'invalid_request',
      message: 'The request is invalid.',
      issues: [{ path: 'requests[0].count', message: 'Too big: expected number to be <=20' }],
      requestId: 'req-1',
    });
  });

  it("never shows a body that is not the contract's: the contract's message for the code", () => {
    expect(refusalOutcome(503, '<html>proxy says no: secret-host:8080</html>', 'h-2')).toEqual({
      kind: 'error',
      status: 503,
      code: 'internal_error',
      message: 'An internal error occurred.',
      issues: [],
      requestId: 'h-2',
    });
    expect(refusalOutcome(400, { error: 'raw text without a code' })).toMatchObject({
      code: 'invalid_request',
      message: 'The request is invalid.',
    });
    expect(refusalOutcome(418, { code: 'teapot' })).toMatchObject({ message: 'The API answered HTTP 418.' });
  });

  it('takes a 502 carrying a WebSearchResponse as results', () => {
    const response = {
      results: [{ id: 1, results: [], error: { code: 'provider_error', message: 'x' } }],
      provider: 'B',
    };
    expect(refusalOutcome(502, response)).toEqual({ kind: 'results', response });
  });

  it("agrees with what the SDK's error carries for the same answer (the server path's input)", () => {
    const body = { error: 'Too many requests.', code: 'rate_limited' };
    const error = APIError.generate(429, body, headers('sdk-id'));
    expect(refusalOutcome(error.status, error.body, error.requestId)).toMatchObject({
      code: error.code,
      issues: [...error.issues],
      requestId: 'sdk-id',
    });
  });
});

describe('groupAnnouncement', () => {
  const group = (n: number) => ({
    id: 1,
    results: Array.from({ length: n }, (_, i) => ({ title: `t${i}`, url: `https://e.org/${i}`, description: '' })),
  });
  it('says the query and what it came to', () => {
    expect(groupAnnouncement(' css grid ', group(5))).toBe('‘css grid’: 5 results');
    expect(groupAnnouncement('one', group(1))).toBe('‘one’: 1 result');
    expect(groupAnnouncement('none', group(0))).toBe('‘none’: no results');
    expect(
      groupAnnouncement('broken', { id: 2, results: [], error: { code: 'provider_timeout', message: 'Timed out.' } }),
    ).toBe('‘broken’: failed (provider_timeout)');
  });
});
