import { EngineError, errorResponse } from '@openmates/core';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { caseEngine } from './case-engine.ts';

/** The engine in process: what every other surface wraps. */
export function createCoreDriver(): SurfaceDriver {
  return {
    surface: 'core',
    supports: () => true,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const logs: string[] = [];
      const engine = caseEngine(environment.env, logs);
      // The caller's request id, as a server passes its own: the document then has every member.
      const requestId = crypto.randomUUID();
      try {
        const { response } = await engine.search(testCase.request, { requestId });
        return {
          outcome: outcomeOfResponse(response),
          transcript: JSON.stringify(response) + logs.join(''),
          document: response,
        };
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        // The ErrorResponse a caller of the engine builds from its error, as the server does.
        const body = errorResponse(error.code, {
          message: error.message,
          requestId,
          ...(error.issues ? { issues: error.issues } : {}),
        });
        return { outcome: outcomeOfError(body), transcript: JSON.stringify(body) + logs.join(''), document: body };
      } finally {
        await engine.close();
      }
    },
  };
}
