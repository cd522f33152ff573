import {
  ERROR_TABLE,
  type ErrorCode,
  SDK_ERROR_CLASSES,
  SDK_ERROR_FALLBACK,
  sdkRetrySentence,
  sdkRowCodes,
} from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { APIError, ERROR_CLASSES_BY_NAME, OpenMatesError } from './generated/errors.ts';
import { isRetryableStatus } from './retry.ts';

const searchResponse = { provider: 'Brave Search', results: [] };

describe('an error message', () => {
  it('says each issue once: one the server’s summary already names is not repeated', () => {
    const body = {
      error: 'Invalid request: requests[0].count: count must be an integer from 1 to 20 (and 1 more)',
      code: 'invalid_request',
      issues: [
        { path: 'requests[0].count', message: 'count must be an integer from 1 to 20' },
        { path: 'requests[0].page', message: 'page must be an integer from 1 to 10' },
      ],
    };
    const error = APIError.generate(400, body, new Headers());
    expect(error.message).toBe(
      '400 invalid_request: Invalid request: requests[0].count: count must be an integer from 1 to 20 (and 1 more) (requests[0].page: page must be an integer from 1 to 10)',
    );
    expect(error.message.split('count must be').length).toBe(2);
  });
});

describe("the error classes follow the contract's table", () => {
  it('has a class of each name, extending the parent the table names', () => {
    for (const row of SDK_ERROR_CLASSES) {
      const ErrorClass = ERROR_CLASSES_BY_NAME[row.name];
      expect(ErrorClass.name).toBe(row.name);
      expect(ErrorClass.prototype instanceof ERROR_CLASSES_BY_NAME[row.parent] || row.name === row.parent).toBe(true);
      expect(ErrorClass.prototype instanceof OpenMatesError || ErrorClass === OpenMatesError).toBe(true);
    }
  });

  it('raises the class the table names for each status, with the status and code of every code it maps from', () => {
    for (const row of SDK_ERROR_CLASSES) {
      if (!('status' in row)) continue;
      const codes = sdkRowCodes(row);
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) {
        const body = { ...(row.status === 502 ? searchResponse : {}), error: ERROR_TABLE[code].message, code };
        const error = APIError.generate(row.status, body, new Headers({ 'x-request-id': 'req_1' }));
        expect(error).toBeInstanceOf(ERROR_CLASSES_BY_NAME[row.name]);
        expect(error.name).toBe(row.name);
        expect([error.status, error.code, error.requestId]).toEqual([row.status, code, 'req_1']);
      }
    }
  });

  it('gives every status of the error table a class', () => {
    const statuses = new Set(SDK_ERROR_CLASSES.flatMap((row) => ('status' in row ? [row.status] : [])));
    for (const code of Object.keys(ERROR_TABLE) as ErrorCode[]) expect(statuses).toContain(ERROR_TABLE[code].status);
  });

  it('falls back as the table says: a 5xx (or a 502 not from an OpenMates server) is a server error, else APIError', () => {
    for (const [status, name] of [
      [502, SDK_ERROR_FALLBACK.serverError],
      [504, SDK_ERROR_FALLBACK.serverError],
      [418, SDK_ERROR_FALLBACK.other],
    ] as const)
      expect(APIError.generate(status, '<html>Bad Gateway</html>', new Headers()).name).toBe(name);
  });

  it("retries each status as its class's documentation says", () => {
    const withWait = new Headers({ 'retry-after': '1' });
    for (const row of SDK_ERROR_CLASSES) {
      if (!('status' in row) || row.name === SDK_ERROR_FALLBACK.serverError) continue;
      const sentence = sdkRetrySentence(row) ?? '';
      const code = 'code' in row ? row.code : undefined;
      expect(isRetryableStatus(row.status, withWait, code), row.name).toBe(sentence.startsWith('Retried'));
      expect(isRetryableStatus(row.status, new Headers(), code), row.name).toBe(
        sentence.startsWith('Retried') && !sentence.includes('when the answer carries'),
      );
    }
  });
});
