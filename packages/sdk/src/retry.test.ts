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

describe('the wait computation', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const wait = (headers: Record<string, string>) => retryAfter(new Headers(headers), now);

  it('takes retry-after-ms first, rounded up to a whole ms, and falls back to Retry-After when it does not parse', () => {
    expect(wait({ 'retry-after-ms': '12.2', 'retry-after': '5' })).toBe(13);
    expect(wait({ 'retry-after-ms': ' 40 ' })).toBe(40);
    expect(wait({ 'retry-after-ms': 'soon', 'retry-after': '5' })).toBe(5000);
    expect(wait({ 'retry-after-ms': '1e3', 'retry-after': '2' })).toBe(2000);
    // A parsable retry-after-ms over the cap decides: the backoff, not Retry-After.
    expect(wait({ 'retry-after-ms': '60001', 'retry-after': '2' })).toBeUndefined();
  });

  it('honours a wait of exactly 60 s and nothing longer', () => {
    expect(wait({ 'retry-after': '60' })).toBe(60_000);
    expect(wait({ 'retry-after': '60.001' })).toBeUndefined();
    expect(wait({ 'retry-after-ms': '60000' })).toBe(60_000);
    expect(wait({ 'retry-after': 'Wed, 01 Jan 2025 00:01:00 GMT' })).toBe(60_000);
    expect(wait({ 'retry-after': 'Wed, 01 Jan 2025 00:01:01 GMT' })).toBeUndefined();
  });

  it('keeps every backoff within ±25 % of 0.5 s × 2^n (at most 8 s), at both ends of the jitter', () => {
    for (let retry = 0; retry < 8; retry++) {
      const base = Math.min(500 * 2 ** retry, 8000);
      for (const r of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999_999]) {
        const delay = backoffDelay(retry, () => r);
        expect(delay).toBeGreaterThanOrEqual(base * 0.75);
        expect(delay).toBeLessThanOrEqual(base * 1.25);
        expect(Number.isInteger(delay)).toBe(true);
      }
      expect(backoffDelay(retry, () => 0)).toBe(base * 0.75);
    }
  });

  it('uses the backoff when the server names no usable wait', () => {
    expect(retryDelay(undefined, 2, () => 0.5)).toBe(2000);
    expect(retryDelay(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), 0, () => 0.5)).toBe(500);
    expect(retryDelay(new Headers({ 'retry-after-ms': '7' }), 3, () => 0.5)).toBe(7);
  });
});

describe('an HTTP date in Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('counts only as IMF-fixdate naming a real day', () => {
    expect(retryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    for (const value of [
      '2025-01-01T00:00:07Z',
      'Wednesday, 01-Jan-25 00:00:07 GMT',
      'Thu, 01 Jan 2025 00:00:07 GMT',
      'Sat, 30 Feb 2025 00:00:07 GMT',
      'Wed, 1 Jan 2025 00:00:07 GMT',
    ])
      expect(retryAfter(new Headers({ 'retry-after': value }), now), value).toBeUndefined();
  });
});
