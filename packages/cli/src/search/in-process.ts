import { engineEnv } from '../lib/cli-env.ts';
import type { LiveOptions, SearchOutcome } from './outcome.ts';

/**
 * Runs the search with the engine and the configured provider in this process. Configuration
 * problems become `not_configured` (exit 4), as a server would answer 503.
 */
export async function searchInProcess(
  request: unknown,
  env: Record<string, string | undefined>,
  live: LiveOptions = {},
): Promise<SearchOutcome> {
  const {
    ConfigError,
    EngineError,
    ProviderNotConfiguredError,
    createConfiguredProviders,
    createEngine,
    errorResponse,
    loadConfig,
    newRequestId,
  } = await import('@openmates/core');
  // A request id as a server would give, so in-process and remote output differ only in its value.
  const requestId = newRequestId();
  let engine: Awaited<ReturnType<typeof createEngine>>;
  try {
    const config = loadConfig(engineEnv(env, 'silent'));
    engine = createEngine({ config, provider: createConfiguredProviders(config) });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ProviderNotConfiguredError)
      return { kind: 'error', body: errorResponse('not_configured', { message: error.message, requestId }) };
    throw error;
  }
  try {
    const options = {
      requestId,
      ...(live.signal ? { signal: live.signal } : {}),
      ...(live.onGroup ? { onGroup: live.onGroup } : {}),
    };
    return { kind: 'response', response: (await engine.search(request, options)).response };
  } catch (error) {
    if (live.signal?.aborted) return { kind: 'aborted' };
    if (!(error instanceof EngineError)) throw error;
    const body = errorResponse(error.code, {
      ...(error.code === 'internal_error' ? {} : { message: error.message }),
      ...(error.issues ? { issues: error.issues } : {}),
      requestId,
    });
    return { kind: 'error', body };
  } finally {
    await engine.close();
  }
}
