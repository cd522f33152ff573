// Starts the shared servers of the browser tests (see app-server.ts) in a child process: with
// `--keys` the API requires E2E_API_KEY. Prints one JSON line `{ url, apiKey? }` once listening;
// stops on SIGTERM. Run with node (type stripping).
import { E2E_API_KEY, startAppServer } from './app-server.ts';

const keyed = process.argv.includes('--keys');
// A key in the server's own environment must not let the GUI past the API's keys (the key test
// proves the prompt still appears).
if (keyed) process.env.OPENMATES_API_KEY = E2E_API_KEY;
const server = await startAppServer({ keys: keyed });
process.stdout.write(`${JSON.stringify({ url: server.url, ...(server.apiKey ? { apiKey: server.apiKey } : {}) })}\n`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
