import { describe, expect, it } from 'vitest';
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import { RETRY_POLICY, SDK_ERROR_CLASSES, SDK_ERROR_FALLBACK, sdkErrorCodes } from './sdk-policy.ts';

describe("the SDKs' error classes and retry policy", () => {
  it('names each class once, after the class it extends, and each status once', () => {
    const seen: string[] = [];
    for (const row of SDK_ERROR_CLASSES) {
      expect(seen).not.toContain(row.name);
      if (row.name !== row.parent) expect(seen).toContain(row.parent);
      seen.push(row.name);
    }
    const statuses = SDK_ERROR_CLASSES.flatMap((row) => ('status' in row ? [row.status] : []));
    expect(new Set(statuses).size).toBe(statuses.length);
    for (const name of Object.values(SDK_ERROR_FALLBACK)) expect(seen).toContain(name);
  });

  it('gives every error code of the error table a class, through its status', () => {
    const mapped = SDK_ERROR_CLASSES.flatMap((row) => ('status' in row ? sdkErrorCodes(row.status) : []));
    expect(mapped.sort()).toEqual((Object.keys(ERROR_TABLE) as ErrorCode[]).sort());
  });

  it('retries only what costs no provider call to try again', () => {
    expect(RETRY_POLICY.statuses).toEqual([429, 503]);
    expect(RETRY_POLICY.statusesWithRetryAfter).toEqual([502]);
    for (const status of [...RETRY_POLICY.statuses, ...RETRY_POLICY.statusesWithRetryAfter])
      expect(status).not.toBe(ERROR_TABLE.internal_error.status);
    expect(new RegExp(RETRY_POLICY.numberPattern).test('1.5')).toBe(true);
    expect(new RegExp(RETRY_POLICY.numberPattern).test('-1')).toBe(false);
  });
});
