// What the browser tests drive: a Brave fixture on loopback, and the API with the GUI mounted as its
// fallback on one origin, exactly as `openmates serve` does. Test-only code, so it may import the
// server and the engine. `serve.ts` runs it as a child process for the shared servers; a test that
// needs the fixture's causal gates (`hold`, `release()`) starts its own in its worker.
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { createServer, loadServerSettings } from '@openmates/server';

/** The key the keyed instance accepts (test data, not a secret). */
export const E2E_API_KEY = 'e2e-web-key-0123456789abcdef';

export interface AppServer {
  url: string;
  apiKey?: string;
  fixture: BraveFixture;
  close(): Promise<void>;
}

/** Starts a Brave fixture and the API with the GUI on 127.0.0.1 (a free port). `keys`: require E2E_API_KEY. */
export async function startAppServer({ keys = false }: { keys?: boolean } = {}): Promise<AppServer> {
  const fixture = await startBraveFixture();
  const env: Record<string, string> = {
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: fixture.apiKey,
    BRAVE_SEARCH_BASE_URL: fixture.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_RATE_LIMIT_PER_MIN: '0',
    OPENMATES_LOG_LEVEL: 'silent',
    // A held query (the fixture's `hold` gate) is answered only when a test releases it, after the
    // checks of the page meanwhile (axe among them): on a loaded machine those can outlast the
    // default 10 s call timeout, which would fail the held group. No test here waits for a timeout.
    OPENMATES_PROVIDER_TIMEOUT_MS: '120000',
    ...(keys ? { OPENMATES_API_KEYS: E2E_API_KEY } : {}),
  };
  // The GUI's mountable handler, as `openmates serve` imports it (`@openmates/web/handler`).
  const { handler: gui } = await import('../handler.js');
  const server = await createServer(loadServerSettings(env), { version: '0.0.0-e2e', gui });
  return {
    url: server.url,
    ...(keys ? { apiKey: E2E_API_KEY } : {}),
    fixture,
    async close() {
      fixture.release();
      await server.close(1_000);
      await fixture.close();
    },
  };
}
