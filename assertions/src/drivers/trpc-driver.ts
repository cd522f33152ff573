import { ErrorResponseSchema, PATHS, TRPC_SEARCH_PROCEDURE, WebSearchResponseSchema } from '@openmates/contract';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { startCaseServer, transcriptOf } from './case-engine.ts';

/** tRPC over real HTTP: the `webSearch.search` mutation, unbatched, as a tRPC client sends it. */
export function createTrpcDriver(): SurfaceDriver {
  return {
    surface: 'trpc',
    supports: () => true,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startCaseServer(environment.env);
      try {
        const response = await fetch(`${server.url}${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}`, {
          method: 'POST',
          headers: { 'content-type': testCase.http?.contentType ?? 'application/json' },
          body: testCase.http?.body ?? JSON.stringify(testCase.request),
        });
        const { text, transcript } = await transcriptOf(response);
        const envelope = JSON.parse(text) as { result?: { data: unknown }; error?: { data: unknown } };
        const outcome = envelope.result
          ? outcomeOfResponse(WebSearchResponseSchema.parse(envelope.result.data))
          : outcomeOfError(ErrorResponseSchema.parse(stripStatus(envelope.error?.data)));
        return { outcome, transcript: transcript + server.logs.join('') };
      } finally {
        await server.close();
      }
    },
  };
}

/** tRPC's error data is the contract's ErrorResponse plus the HTTP status tRPC adds. */
function stripStatus(data: unknown): unknown {
  if (!data || typeof data !== 'object') return data;
  const { httpStatus: _, ...rest } = data as Record<string, unknown>;
  return rest;
}
