import { describe, expect, it } from 'vitest';
import { keyCookieOptions, REMEMBERED_KEY_MAX_AGE_S } from './key-cookie.ts';

describe('the key cookie', () => {
  it('is HttpOnly, SameSite=Strict and a session cookie unless the person asks this device to remember it', () => {
    expect(keyCookieOptions(new URL('http://127.0.0.1:8787/'))).toEqual({
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: false,
    });
  });

  it('remembered, it persists for 400 days, the longest a browser keeps a cookie', () => {
    expect(keyCookieOptions(new URL('http://127.0.0.1:8787/'), true)).toMatchObject({ maxAge: 400 * 86_400 });
    expect(REMEMBERED_KEY_MAX_AGE_S).toBe(34_560_000);
  });

  it('is Secure over https (behind a TLS proxy that names its protocol header), remembered or not', () => {
    for (const remember of [false, true])
      expect(keyCookieOptions(new URL('https://search.example/'), remember)).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'strict',
      });
  });
});
