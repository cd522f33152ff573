import { ErrorResponseSchema, PATHS, WebSearchResponseSchema } from '@openmates/contract';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { type HttpDriverOptions, startCaseServer, transcriptOf } from './case-engine.ts';

/** REST over real HTTP: POST the request (or the case's raw body) to a server on loopback. */
export function createRestDriver(options: HttpDriverOptions = {}): SurfaceDriver {
  return {
    surface: 'rest',
    supports: () => true,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startCaseServer(environment.env, undefined, options.wire);
      try {
        const response = await fetch(`${server.url}${PATHS.search}`, {
          method: 'POST',
          headers: { 'content-type': testCase.http?.contentType ?? 'application/json' },
          body: testCase.http?.body ?? JSON.stringify(testCase.request),
        });
        const { text, transcript } = await transcriptOf(response);
        const body = JSON.parse(text);
        // 200 and 502 carry a WebSearchResponse; every other status an ErrorResponse.
        const outcome =
          response.status === 200 || response.status === 502
            ? outcomeOfResponse(WebSearchResponseSchema.parse(body))
            : outcomeOfError(ErrorResponseSchema.parse(body));
        return { outcome, transcript: transcript + server.logs.join(''), document: body };
      } finally {
        await server.close();
      }
    },
  };
}
