import {
  createConfiguredProvider,
  createEngine,
  createLogger,
  type Engine,
  type EngineConfig,
  lineCollector,
  loadConfig,
  type SearchProvider,
} from '@openmates/core';
import {
  createHandler,
  createServerProvider,
  listen,
  loadServerConfig,
  type NodeFallback,
  type RunningServer,
} from '@openmates/server';
import { startWireProxy, type WireRewrite } from './wire-proxy.ts';

/**
 * An engine configured from a case's environment, with every log line captured for the transcript;
 * its provider built by `makeProvider` (the CLI's way by default; a server's is `createServerProvider`).
 */
export function caseEngine(
  env: Record<string, string>,
  logs: string[],
  makeProvider: (config: EngineConfig) => SearchProvider = createConfiguredProvider,
): Engine {
  const config = loadConfig(env);
  const destination = lineCollector(logs);
  // Redaction is the engine's own: the logger gets the identity, so a leak would show in the transcript.
  const logger = createLogger({ level: 'info', redact: (s) => s, destination });
  return createEngine({ config, provider: makeProvider(config), logger });
}

export interface CaseServer {
  url: string;
  logs: string[];
  close(): Promise<void>;
}

/** Options of the HTTP drivers. */
export interface HttpDriverOptions {
  /** Test-only: a loopback proxy rewrites every JSON answer on its way to the surface (wire-proxy.ts). */
  wire?: WireRewrite;
}

/**
 * A real server on loopback for one case: the same handler `openmates serve` runs, with the GUI's
 * node handler mounted beside the API when one is given, and behind a rewriting proxy when `wire` is.
 */
export async function startCaseServer(
  env: Record<string, string>,
  gui?: NodeFallback,
  wire?: WireRewrite,
): Promise<CaseServer> {
  const logs: string[] = [];
  const engine = caseEngine(env, logs, createServerProvider);
  const handler = createHandler({ engine, version: 'parity', config: loadServerConfig(env) });
  const server: RunningServer = await listen(handler, {
    host: '127.0.0.1',
    port: 0,
    ...(gui ? { fallback: gui } : {}),
  });
  const proxy = wire ? await startWireProxy(server.url, wire) : undefined;
  return {
    url: proxy?.url ?? server.url,
    logs,
    async close() {
      await proxy?.close();
      await server.close(1_000);
      await engine.close();
    },
  };
}

/** Headers and body of an HTTP answer, as text, for the transcript. */
export async function transcriptOf(response: Response): Promise<{ text: string; transcript: string }> {
  const text = await response.text();
  const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  return { text, transcript: `${response.status}\n${headers}\n\n${text}` };
}
