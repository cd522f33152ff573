import { describe, expect, it } from 'vitest';
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import {
  RETRY_POLICY,
  SDK_ERROR_CLASSES,
  SDK_ERROR_FALLBACK,
  sdkErrorDoc,
  sdkErrorKind,
  sdkRetrySentence,
  sdkRowCodes,
} from './sdk-policy.ts';

describe("the SDKs' error classes and retry policy", () => {
  it('names each class once, after the class it extends, and each status once', () => {
    const seen: string[] = [];
    for (const row of SDK_ERROR_CLASSES) {
      expect(seen).not.toContain(row.name);
      if (row.name !== row.parent) expect(seen).toContain(row.parent);
      seen.push(row.name);
    }
    // One class per status, besides a class raised for one code of a status (ADR 0136).
    const statuses = SDK_ERROR_CLASSES.flatMap((row) => ('status' in row && !('code' in row) ? [row.status] : []));
    expect(new Set(statuses).size).toBe(statuses.length);
    for (const name of Object.values(SDK_ERROR_FALLBACK)) expect(seen).toContain(name);
  });

  it('gives every error code of the error table a class, through its status', () => {
    const mapped = SDK_ERROR_CLASSES.flatMap((row) => sdkRowCodes(row));
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

  it('leaves the retry sentence to the policy: no row says itself whether it is retried', () => {
    for (const row of SDK_ERROR_CLASSES) expect(row.doc).not.toMatch(/retr/i);
  });

  it('says of each class what the policy does with it', () => {
    const sentence = (name: string) =>
      sdkRetrySentence(SDK_ERROR_CLASSES.find((row) => row.name === name) ?? SDK_ERROR_CLASSES[0]);
    for (const row of SDK_ERROR_CLASSES) {
      if (!('status' in row) || row.name === SDK_ERROR_FALLBACK.serverError) continue;
      const never = 'code' in row && (RETRY_POLICY.neverRetriedCodes as readonly string[]).includes(row.code);
      const always = !never && (RETRY_POLICY.statuses as readonly number[]).includes(row.status);
      const withHeader = (RETRY_POLICY.statusesWithRetryAfter as readonly number[]).includes(row.status);
      expect(sdkRetrySentence(row)?.startsWith('Retried'), row.name).toBe(always || withHeader);
      expect(sdkRetrySentence(row)?.includes('when the answer carries `Retry-After`'), row.name).toBe(withHeader);
    }
    // A proxy's 502 with Retry-After is retried too, and raised as the server-error fallback.
    expect(sentence(SDK_ERROR_FALLBACK.serverError)).toBe(
      'Retried before it is raised only for a 502 that carries `Retry-After`; raised at once otherwise.',
    );
    expect(sentence('APIConnectionError')).toBe('Retried before it is raised.');
    expect(sentence('APITimeoutError')).toBe('Never retried.');
    expect(sentence('OpenMatesError')).toBeUndefined();
  });

  it('documents a class with its status and codes, its meaning, then the retry sentence', () => {
    const provider = SDK_ERROR_CLASSES.find((row) => row.name === 'ProviderError');
    expect(provider && sdkErrorDoc(provider)).toMatch(
      /^502 `provider_error`, .* or `provider_unavailable`: every result group failed .*\. Retried before it is raised when the answer carries `Retry-After`; raised at once otherwise\.$/,
    );
  });

  it('names what each class declares beyond its parent, for both generators', () => {
    const kinds = Object.fromEntries(SDK_ERROR_CLASSES.map((row) => [row.name, sdkErrorKind(row)]));
    expect(kinds).toMatchObject({
      OpenMatesError: 'root',
      APIError: 'answer',
      BadRequestError: 'status',
      ProviderError: 'response',
      APIConnectionError: 'connection',
      APITimeoutError: 'timeout',
    });
  });
});
