/** The cookie that holds the API key the user entered (HttpOnly, SameSite=Strict). */
export const KEY_COOKIE = 'openmates_api_key';

/**
 * How long a key the user asked this device to remember is kept: 400 days, the longest lifetime
 * browsers grant a cookie (RFC 6265bis caps longer ones there). An installed app is relaunched
 * without a browser session to keep a session cookie in, so it needs one that persists.
 */
export const REMEMBERED_KEY_MAX_AGE_S = 400 * 24 * 60 * 60;

/**
 * The key cookie's attributes: HttpOnly and SameSite=Strict always, `Secure` over https; persistent
 * when `remember` is set (default: a session cookie, gone when the browser closes).
 */
export function keyCookieOptions(url: URL, remember = false) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: url.protocol === 'https:',
    ...(remember ? { maxAge: REMEMBERED_KEY_MAX_AGE_S } : {}),
  } as const;
}
