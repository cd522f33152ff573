import { ErrorResponseSchema, PATHS, TRPC_SEARCH_PROCEDURE, WebSearchResponseSchema } from '@openmates/contract';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { type HttpDriverOptions, startCaseServer, transcriptOf } from './case-engine.ts';

/** tRPC over real HTTP: the `webSearch.search` mutation, unbatched, as a tRPC client sends it. */
export function createTrpcDriver(options: HttpDriverOptions = {}): SurfaceDriver {
  return {
    surface: 'trpc',
    supports: () => true,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startCaseServer(environment.env, undefined, options.wire);
      try {
        const response = await fetch(`${server.url}${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}`, {
          method: 'POST',
          headers: { 'content-type': testCase.http?.contentType ?? 'application/json' },
          body: testCase.http?.body ?? JSON.stringify(testCase.request),
        });
        const { text, transcript } = await transcriptOf(response);
        const envelope = JSON.parse(text) as { result?: { data: unknown }; error?: { data: unknown } };
        // A tRPC user gets the WebSearchResponse as the result's data, an ErrorResponse as the error's data.
        const document = envelope.result ? envelope.result.data : stripStatus(envelope.error?.data);
        const outcome = envelope.result
          ? outcomeOfResponse(WebSearchResponseSchema.parse(document))
          : outcomeOfError(ErrorResponseSchema.parse(document));
        return { outcome, transcript: transcript + server.logs.join(''), document };
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
