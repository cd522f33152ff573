import { APIError, OpenMates, ProviderError } from '@openmates/sdk';
import type { CaseEnvironment, DriverResult, ParityCase, RecordedRetry, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { type HttpDriverOptions, startCaseServer } from './case-engine.ts';
import { retryFront } from './scripted-upstream.ts';

/** One search through the npm SDK: what it resolved to, or the error it threw, as a result. */
async function search(client: OpenMates, testCase: ParityCase, logs: readonly string[]): Promise<DriverResult> {
  try {
    // Validation cases send invalid requests on purpose, past the SDK's static types.
    const response = await client.apps.web.search(testCase.request as Parameters<typeof client.apps.web.search>[0]);
    return {
      outcome: outcomeOfResponse(response),
      transcript: JSON.stringify(response) + logs.join(''),
      document: response,
    };
  } catch (error) {
    if (error instanceof ProviderError)
      return {
        outcome: outcomeOfResponse(error.response),
        transcript: `${error.message}\n${JSON.stringify(error.response)}${logs.join('')}`,
        document: error.response,
      };
    if (!(error instanceof APIError)) throw error;
    const outcome = outcomeOfError({ code: error.code as never, issues: error.issues });
    return {
      outcome,
      transcript: `${error.message}\n${JSON.stringify(error.body)}${logs.join('')}`,
      document: error.body,
    };
  }
}

/**
 * The npm SDK against a real server on loopback, as an SDK user calls it; for a retry case behind
 * the case's scripted upstream, with retries on and each one recorded through `onRetry`.
 */
export function createSdkDriver(options: HttpDriverOptions = {}): SurfaceDriver {
  return {
    surface: 'sdk',
    // The SDK sends typed requests only: it cannot express a raw transport body.
    supports: (testCase) => testCase.http === undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startCaseServer(environment.env, undefined, options.wire);
      const front = await retryFront(testCase, server.url);
      const retries: RecordedRetry[] = [];
      const client = new OpenMates({
        baseURL: front.url,
        apiKey: null,
        maxRetries: front.maxRetries,
        onRetry: ({ status, delayMs }) => retries.push({ status: status ?? null, delayMs }),
      });
      try {
        const result = await search(client, testCase, server.logs);
        const made = front.finish(retries);
        return made ? { ...result, retries: made } : result;
      } finally {
        await front.close();
        await server.close();
      }
    },
  };
}
