import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ERROR_TABLE,
  exitCode,
  GROUP_ERROR_CODES,
  httpStatus,
  searchExitCode,
  searchStatus,
} from './errors.ts';

describe('the error table', () => {
  it('maps each code to its HTTP status and CLI exit code', () => {
    const table = Object.fromEntries(ERROR_CODES.map((c) => [c, [httpStatus(c), exitCode(c)]]));
    expect(table).toEqual({
      invalid_request: [400, 2],
      unauthorized: [401, 4],
      forbidden: [403, 4],
      not_found: [404, 2],
      method_not_allowed: [405, 2],
      payload_too_large: [413, 2],
      unsupported_media_type: [415, 2],
      rate_limited: [429, 5],
      quota_exceeded: [429, 6],
      provider_error: [502, 3],
      provider_timeout: [502, 3],
      provider_rate_limited: [502, 3],
      provider_auth: [502, 3],
      provider_unavailable: [502, 3],
      not_configured: [503, 4],
      internal_error: [500, 1],
    });
    for (const code of ERROR_CODES) expect(ERROR_TABLE[code].message.length).toBeGreaterThan(0);
  });

  it('answers 200 when some group succeeded and 502 when all failed', () => {
    const failed = { error: { code: 'provider_error' } };
    expect(searchStatus([{}, failed])).toBe(200);
    expect(searchStatus([failed, failed])).toBe(502);
    expect(searchStatus([{}])).toBe(200);
    expect(searchExitCode([{}, {}])).toBe(0);
    expect(searchExitCode([{}, failed])).toBe(3);
    // A group's provider failures are 502s; a quota spent mid-batch is the key's own 429 (ADR 0136).
    expect(GROUP_ERROR_CODES.filter((c) => httpStatus(c) !== 502)).toEqual(['quota_exceeded']);
  });
});
