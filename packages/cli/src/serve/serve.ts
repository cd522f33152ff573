import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, relative } from 'node:path';
import { DEFAULT_HOST, exitCode, PATHS } from '@openmates/contract';
import { engineEnv, processEnv } from '../lib/cli-env.ts';
import { write } from '../lib/io.ts';
import { VERSION } from '../version.ts';
import { loadGui, locateGui } from './gui.ts';

export interface ServeOptions {
  host: string;
  port: number;
  gui: boolean;
}

/** How this CLI was started, so the printed example works when pasted (`node …/run.js` or `openmates`). */
function cliCommand(): string {
  const script = process.argv[1] ?? '';
  if (basename(script) !== 'run.js') return 'openmates';
  const path = relative(process.cwd(), script);
  return `node ${path.includes(' ') ? JSON.stringify(path) : path}`;
}

/** Runs the server until SIGINT or SIGTERM; resolves to the exit code. Refusals are one line on stderr. */
export async function serve(
  options: ServeOptions,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): Promise<number> {
  const refuse = async (reason: string, code = exitCode('not_configured')) => {
    await write(stderr, `openmates serve: ${reason}\n`);
    return code;
  };
  const [core, server] = await Promise.all([import('@openmates/core'), import('@openmates/server')]);

  let serverConfig: ReturnType<typeof server.loadServerConfig>;
  try {
    serverConfig = server.loadServerConfig(processEnv());
  } catch (error) {
    return refuse(`${(error as Error).message.replace(/\n/g, '; ')}.`);
  }
  if (!server.isLoopbackHost(options.host) && serverConfig.apiKeys.length === 0)
    return refuse(
      `refusing to listen on ${options.host} without API keys: set OPENMATES_API_KEYS (comma-separated, 16+ characters each) or use --host ${DEFAULT_HOST}.`,
    );

  const guiFile = options.gui ? locateGui() : undefined;
  let gui: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  let guiLine = '';
  if (!options.gui) guiLine = 'off (--no-gui): serving the API only';
  else if (!guiFile)
    guiLine = 'not built (this CLI was built without apps/web; run `pnpm turbo run build`): serving the API only';
  else {
    try {
      gui = await loadGui(guiFile);
    } catch (error) {
      guiLine = `failed to load (${(error as Error).name}): serving the API only`;
    }
  }

  let running: Awaited<ReturnType<typeof server.createServer>>;
  try {
    const config = core.loadConfig(engineEnv(processEnv(), 'info'));
    running = await server.createServer(
      { engine: config, server: serverConfig },
      { version: VERSION, host: options.host, port: options.port, ...(gui ? { gui } : {}) },
    );
  } catch (error) {
    if (error instanceof core.ConfigError || error instanceof core.ProviderNotConfiguredError)
      return refuse(`cannot start: ${error.message.replace(/\n/g, '; ')} Run \`openmates doctor\` for details.`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return refuse(`${options.host}:${options.port} is already in use: choose another --port.`, 1);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      return refuse(`cannot bind ${options.host}: not an address of this machine.`, 1);
    if (code === 'EACCES') return refuse(`not allowed to bind port ${options.port}: choose one above 1023.`, 1);
    throw error;
  }
  const { url, engine } = running;

  if (gui) guiLine = `${url}/`;

  // Listening for signals before printing, so a signal sent as soon as the address shows is handled.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const keyed = serverConfig.apiKeys.length > 0;
  // A query the offline demo corpus answers, so the printed lines show real results.
  const body = JSON.stringify({ requests: [{ query: 'fetch abort', count: 3 }] });
  const auth = keyed ? ' -H "Authorization: Bearer $OPENMATES_API_KEY"' : '';
  const [provider, ...next] = engine.providers;
  await write(
    stdout,
    [
      `openmates: listening on ${url}`,
      `  provider: ${provider?.name} (queries go to ${provider?.recipient}; ${engine.config.providerSource === 'default' ? 'the default' : 'chosen by OPENMATES_PROVIDER'})`,
      // The chain: a query may reach each of these, in this order, when the one before fails.
      ...next.map((p) => `            then ${p.name} (queries go to ${p.recipient}) when the one before fails`),
      `  API keys: ${keyed ? `required (${serverConfig.apiKeys.length} configured)` : 'not required (loopback only)'}`,
      `  GUI:      ${guiLine}`,
      `  docs:     ${url}${PATHS.docs}`,
      `  try:      curl -s ${url}${PATHS.search} -H 'content-type: application/json'${auth} -d '${body}'`,
      `            ${cliCommand()} search "fetch abort" --count 3 --api-url ${url}`,
      ...(keyed ? ['            (with OPENMATES_API_KEY set to one of OPENMATES_API_KEYS)'] : []),
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  const signal = await stopped;
  // A second signal while draining stops at once.
  const force = (second: NodeJS.Signals) => {
    stderr.write(`openmates: ${second} again, stopping now\n`);
    process.exit(1);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  await write(
    stderr,
    `openmates: ${signal}, refusing new work and finishing in-flight searches (up to ${serverConfig.drainMs} ms)…\n`,
  );
  await running.close(serverConfig.drainMs);
  await write(stderr, 'openmates: stopped\n');
  return 0;
}
