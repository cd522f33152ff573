import { type CallMeter, type Engine, EngineError, errorResponse } from '@openmates/core';
import type { SearchBackend } from './mcp-server.ts';

/**
 * The engine in this process as the tool's backend, with a request id per call as a server gives;
 * `meter` debits each provider call to the caller's key (a server's quotas).
 */
export function engineBackend(engine: Engine, options: { meter?: CallMeter } = {}): SearchBackend {
  return {
    async search(input, { signal, onGroup }) {
      const requestId = crypto.randomUUID();
      try {
        const { response } = await engine.search(input, {
          requestId,
          signal,
          ...(options.meter ? { meter: options.meter } : {}),
          ...(onGroup ? { onGroup: (group) => onGroup(group) } : {}),
        });
        return { kind: 'response', response };
      } catch (error) {
        if (signal.aborted) throw error;
        // A bug is answered as the contract's internal_error, never with its message.
        if (!(error instanceof EngineError)) {
          engine.logger.error(
            { event: 'mcp', request_id: requestId, error_name: error instanceof Error ? error.name : typeof error },
            'internal error',
          );
          return { kind: 'error', body: errorResponse('internal_error', { requestId }) };
        }
        const body = errorResponse(error.code, {
          message: error.message,
          ...(error.issues ? { issues: error.issues } : {}),
          requestId,
        });
        return { kind: 'error', body };
      }
    },
  };
}
