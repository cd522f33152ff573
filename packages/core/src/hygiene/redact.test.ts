import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './redact.ts';

const KEY = 'sk-test-0123456789abcdef';

describe('createRedactor', () => {
  it('replaces every occurrence of a secret', () => {
    const redact = createRedactor([KEY]);
    expect(redact(`key ${KEY} and again ${KEY}.`)).toBe(`key ${REDACTED} and again ${REDACTED}.`);
  });

  it('leaves text without secrets unchanged', () => {
    const redact = createRedactor([KEY]);
    expect(redact('nothing to see sk-test-01234')).toBe('nothing to see sk-test-01234');
  });

  it('redacts the percent-encoded and form-encoded forms of a secret', () => {
    const secret = 'p@ss w/rd+key=1&x';
    const redact = createRedactor([secret]);
    expect(redact(`?token=${encodeURIComponent(secret)}&a=1`)).toBe(`?token=${REDACTED}&a=1`);
    expect(redact(`?${new URLSearchParams({ token: secret })}`)).toBe(`?token=${REDACTED}`);
  });

  it('removes overlapping and adjacent secrets as one span', () => {
    const redact = createRedactor(['abcdefgh', 'efghijkl']);
    expect(redact('xabcdefghijkly')).toBe(`x${REDACTED}y`);
    expect(redact('abcdefghefghijkl')).toBe(REDACTED);
  });

  it('removes a secret that contains another, longest first', () => {
    const redact = createRedactor(['12345678', 'prefix-12345678-suffix']);
    expect(redact('a prefix-12345678-suffix b')).toBe(`a ${REDACTED} b`);
  });

  it('finds overlapping occurrences of a repetitive secret', () => {
    const redact = createRedactor(['aaaaaaaa']);
    expect(redact('baaaaaaaaaaab')).toBe(`b${REDACTED}b`);
  });

  it('re-scans when a replacement forms another secret', () => {
    const redact = createRedactor(['abcdefgh', `${REDACTED}tail`]);
    expect(redact('abcdefghtail!')).toBe(`${REDACTED}!`);
  });

  it('falls back to the marker, or to nothing, when a secret keeps reappearing', () => {
    // `redacted` lies inside the marker itself: no text with it can be kept.
    expect(createRedactor(['redacted'])('the redacted word')).toBe('');
    // Each pass leaves one more `a` in front of a marker, which forms the secret again.
    expect(createRedactor([`a${REDACTED}`])(`${'a'.repeat(6)}${REDACTED} tail`)).toBe(REDACTED);
    expect(createRedactor([`a${REDACTED}`])(`aa${REDACTED} tail`)).toBe(`${REDACTED} tail`);
  });

  it('ignores secrets shorter than 8 characters and empty ones', () => {
    const redact = createRedactor(['', 'abc', 'seven77']);
    expect(redact('abc seven77')).toBe('abc seven77');
  });

  it('with no secrets is the identity', () => {
    expect(createRedactor([])('anything')).toBe('anything');
  });
});
