import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PATHS } from '@openmates/contract';
import type { PlainResponse } from './api-core.ts';

// The API reference is Swagger UI (swagger-ui-dist, maintained by SmartBear), served from this
// package's own dependency: no CDN, so /docs works offline and under a strict CSP.
const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '${PATHS.openapi}', dom_id: '#api', deepLinking: true, tryItOutEnabled: true, validatorUrl: null });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>OpenMates web search: API reference</title>
<link rel="stylesheet" href="${PATHS.docs}/assets/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="${PATHS.docs}/assets/swagger-ui-bundle.js"></script>
<script src="${PATHS.docs}/assets/init.js"></script>
</body>
</html>
`;

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const cache = new Map<string, string>();

/** Answers `/docs` and `/docs/assets/*`, or undefined for any other path. */
export function docsResponse(pathname: string): PlainResponse | undefined {
  const headers = {
    'content-security-policy': CSP,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (pathname === PATHS.docs || pathname === `${PATHS.docs}/`)
    return { status: 200, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, body: PAGE };
  if (pathname === `${PATHS.docs}/assets/init.js`)
    return {
      status: 200,
      headers: { ...headers, 'content-type': 'text/javascript; charset=utf-8' },
      body: INIT_SCRIPT,
    };
  const name = pathname.startsWith(`${PATHS.docs}/assets/`) ? pathname.slice(PATHS.docs.length + 8) : undefined;
  const asset = name === undefined ? undefined : ASSETS[name];
  if (!asset || name === undefined) return undefined;
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = readFileSync(join(assetsDir, asset.file), 'utf8');
    cache.set(name, bytes);
  }
  return {
    status: 200,
    headers: { ...headers, 'content-type': asset.type, 'cache-control': 'public, max-age=3600' },
    body: bytes,
  };
}
