import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, retryAfter, retryDelay, sleep } from './retry.ts';

describe('retry timing', () => {
  it('retries only 429 and 503', () => {
    const retryable = [400, 401, 404, 405, 413, 415, 429, 500, 502, 503, 504].filter((s) => isRetryableStatus(s));
    expect(retryable).toEqual([429, 503]);
  });

  it('retries a 502 only when it names when to retry (every query was rate limited)', () => {
    expect(isRetryableStatus(502, new Headers({ 'retry-after': '2' }))).toBe(true);
    expect(isRetryableStatus(502, new Headers())).toBe(false);
    expect(isRetryableStatus(500, new Headers({ 'retry-after': '2' }))).toBe(false);
  });

  it('backs off 0.5 s × 2^n up to 8 s, jittered ±25 %', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelay(n, () => 0.5))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(backoffDelay(0, () => 0)).toBe(375);
    expect(backoffDelay(0, () => 0.999_999)).toBe(625);
  });

  it('reads Retry-After as seconds or an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfter(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfter(new Headers({ 'retry-after-ms': '120', 'retry-after': '2' }), now)).toBe(120);
  });

  it('ignores a missing, unparsable, negative or over-60-s Retry-After', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    for (const value of ['', 'soon', '-1', '61', 'Tue, 31 Dec 2024 23:59:00 GMT', 'Wed, 01 Jan 2025 00:05:00 GMT']) {
      expect(retryAfter(new Headers({ 'retry-after': value }), now)).toBeUndefined();
    }
    expect(retryAfter(new Headers(), now)).toBeUndefined();
    expect(retryDelay(new Headers({ 'retry-after': '61' }), 1, () => 0.5)).toBe(1000);
    expect(retryDelay(new Headers({ 'retry-after': '0' }), 1, () => 0.5)).toBe(0);
  });

  it('sleep rejects with the abort reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(600_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(sleep(1, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
