// What the Python tests talk to: a Brave fixture and the real server (`openmates serve`'s handler and
// node:http adapter) on 127.0.0.1, port 0, configured from this process's environment, logging JSON
// lines on stderr as `serve` does. Prints `{"url", "canary"}` as one line on stdout once both listen,
// and stops when stdin closes (the Python side closes it in teardown; a crashed test closes it too).

import { createConfiguredProvider, createEngine, loadConfig } from '@openmates/core';
import { CANARY_API_KEY, startBraveFixture } from '@openmates/fixtures';
import { createHandler, listen, loadServerConfig } from '@openmates/server';

const brave = await startBraveFixture();
const env: Record<string, string | undefined> = {
  OPENMATES_PROVIDER: 'brave',
  BRAVE_SEARCH_API_KEY: brave.apiKey,
  BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  OPENMATES_CACHE_TTL_S: '0',
  OPENMATES_RATE_LIMIT_PER_MIN: '0',
  OPENMATES_LOG_LEVEL: 'info',
  ...process.env,
};
const serverConfig = loadServerConfig(env);
const config = loadConfig(env);
const engine = createEngine({ config, provider: createConfiguredProvider(config), extraSecrets: serverConfig.apiKeys });
const server = await listen(createHandler({ engine, version: 'python-tests', config: serverConfig }), {
  host: '127.0.0.1',
  port: 0,
});
process.stdout.write(`${JSON.stringify({ url: server.url, canary: CANARY_API_KEY })}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  await server.close(1_000);
  await engine.close();
  await brave.close();
  process.exit(0);
});
