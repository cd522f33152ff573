import { createHash } from 'node:crypto';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

/**
 * SvelteKit's route announcer (rendered after hydration) carries this inline style attribute.
 * Chromium blocks it under a strict `style-src` unless `style-src-attr` allows its hash with
 * 'unsafe-hashes'; hashing the exact string keeps every other inline style blocked.
 */
const ANNOUNCER_STYLE =
  'position: absolute; left: 0; top: 0; clip: rect(0 0 0 0); clip-path: inset(50%); overflow: hidden; white-space: nowrap; width: 1px; height: 1px';
const announcerHash = `sha256-${createHash('sha256').update(ANNOUNCER_STYLE).digest('base64')}` as const;

const dev = process.argv.includes('dev');

export default defineConfig({
  plugins: [
    sveltekit({
      adapter: adapter({ out: 'build', precompress: false }),
      // Under `Referrer-Policy: no-referrer` browsers send `Origin: null` even with a same-origin form
      // post, which SvelteKit's CSRF check would refuse. It lets "null" through to the `handle` hook,
      // which admits it only with the browser's own `Sec-Fetch-Site: same-origin`.
      csrf: { trustedOrigins: ['null'] },
      csp: {
        mode: 'hash',
        directives: {
          'default-src': ['none'],
          'script-src': ['self'],
          // vite injects component styles as <style> elements in dev only; builds ship .css files.
          'style-src': dev ? ['self', 'unsafe-inline'] : ['self'],
          'style-src-attr': ['unsafe-hashes', announcerHash],
          'img-src': ['self'],
          'font-src': ['self'],
          'connect-src': ['self'],
          'manifest-src': ['self'],
          'form-action': ['self'],
          'base-uri': ['none'],
          'frame-ancestors': ['none'],
        },
      },
    }),
  ],
  // The built handler is self-contained: `openmates serve` imports it without this app's dependencies.
  ssr: { noExternal: ['@openmates/sdk', '@openmates/contract'] },
});
