import { APIError, OpenMates, ProviderError } from '@openmates/sdk';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { type HttpDriverOptions, startCaseServer } from './case-engine.ts';

/** The npm SDK against a real server on loopback, as an SDK user calls it. */
export function createSdkDriver(options: HttpDriverOptions = {}): SurfaceDriver {
  return {
    surface: 'sdk',
    // The SDK sends typed requests only: it cannot express a raw transport body.
    supports: (testCase) => testCase.http === undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startCaseServer(environment.env, undefined, options.wire);
      const client = new OpenMates({ baseURL: server.url, apiKey: null, maxRetries: 0 });
      try {
        // Validation cases send invalid requests on purpose, past the SDK's static types.
        const response = await client.apps.web.search(testCase.request as Parameters<typeof client.apps.web.search>[0]);
        return {
          outcome: outcomeOfResponse(response),
          transcript: JSON.stringify(response) + server.logs.join(''),
          document: response,
        };
      } catch (error) {
        if (error instanceof ProviderError)
          return {
            outcome: outcomeOfResponse(error.response),
            transcript: `${error.message}\n${JSON.stringify(error.response)}${server.logs.join('')}`,
            document: error.response,
          };
        if (!(error instanceof APIError)) throw error;
        const outcome = outcomeOfError({ code: error.code as never, issues: error.issues });
        return {
          outcome,
          transcript: `${error.message}\n${JSON.stringify(error.body)}${server.logs.join('')}`,
          document: error.body,
        };
      } finally {
        await server.close();
      }
    },
  };
}
