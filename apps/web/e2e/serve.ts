// Starts what the browser tests drive: a Brave fixture on loopback, and the API with the GUI
// mounted as its fallback on one origin, exactly as `openmates serve` does. With `--keys` the API
// requires E2E_API_KEY. Prints one JSON line `{ url, apiKey? }` once listening; stops on SIGTERM.
// Run with node (type stripping); test-only code, so it may import the server and the engine.
import { createConfiguredProvider, createEngine, loadConfig } from '@openmates/core';
import { startBraveFixture } from '@openmates/fixtures';
import { createHandler, listen, loadServerConfig } from '@openmates/server';

/** The key the keyed instance accepts (test data, not a secret). */
export const E2E_API_KEY = 'e2e-web-key-0123456789abcdef';

const keyed = process.argv.includes('--keys');
const fixture = await startBraveFixture();
const env: Record<string, string> = {
  OPENMATES_PROVIDER: 'brave',
  BRAVE_SEARCH_API_KEY: fixture.apiKey,
  BRAVE_SEARCH_BASE_URL: fixture.baseUrl,
  OPENMATES_CACHE_TTL_S: '0',
  OPENMATES_RATE_LIMIT_PER_MIN: '0',
  OPENMATES_LOG_LEVEL: 'silent',
  ...(keyed ? { OPENMATES_API_KEYS: E2E_API_KEY } : {}),
};
const config = loadConfig(env);
const serverConfig = loadServerConfig(env);
const engine = createEngine({ config, provider: createConfiguredProvider(config), extraSecrets: serverConfig.apiKeys });
const api = createHandler({ engine, version: '0.0.0-e2e', config: serverConfig });

// A key in the server's own environment must not let the GUI past the API's keys (the key test
// proves the prompt still appears).
if (keyed) process.env.OPENMATES_API_KEY = E2E_API_KEY;

// The GUI's mountable handler, as `openmates serve` imports it (`@openmates/web/handler`).
const { handler: gui } = await import('../handler.js');
const server = await listen(api, { host: '127.0.0.1', port: 0, fallback: gui });
process.stdout.write(`${JSON.stringify({ url: server.url, ...(keyed ? { apiKey: E2E_API_KEY } : {}) })}\n`);

const stop = async () => {
  await server.close(1_000);
  await fixture.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
