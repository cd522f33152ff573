import { createConfiguredProviders, createEngine, createLogger, type Engine, loadConfig } from '@openmates/core';
import { lineCollector } from '@openmates/fixtures';
import { createServer, loadServerSettings, type NodeFallback } from '@openmates/server';
import { startWireProxy, type WireRewrite } from './wire-proxy.ts';

/** An engine configured from a case's environment, as the CLI builds one in process (no server). */
export function caseEngine(env: Record<string, string>, logs: string[]): Engine {
  const config = loadConfig(env);
  return createEngine({ config, provider: createConfiguredProviders(config), logger: caseLogger(logs) });
}

/** Every log line captured for the transcript; redaction is the engine's own, so a leak would show there. */
function caseLogger(logs: string[]) {
  return createLogger({ level: 'info', redact: (s) => s, destination: lineCollector(logs) });
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
  const server = await createServer(loadServerSettings(env), {
    version: 'parity',
    logger: caseLogger(logs),
    ...(gui ? { gui } : {}),
  });
  const proxy = wire ? await startWireProxy(server.url, wire) : undefined;
  return {
    url: proxy?.url ?? server.url,
    logs,
    async close() {
      await proxy?.close();
      await server.close(1_000);
    },
  };
}

/** Headers and body of an HTTP answer, as text, for the transcript. */
export async function transcriptOf(response: Response): Promise<{ text: string; transcript: string }> {
  const text = await response.text();
  const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  return { text, transcript: `${response.status}\n${headers}\n\n${text}` };
}
