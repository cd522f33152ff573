import { EngineError } from '@openmates/core';
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
      try {
        const response = await engine.search(testCase.request);
        return {
          outcome: outcomeOfResponse(response),
          transcript: JSON.stringify(response) + logs.join(''),
          document: response,
        };
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        const body = { error: error.message, code: error.code, ...(error.issues ? { issues: error.issues } : {}) };
        return { outcome: outcomeOfError(body), transcript: JSON.stringify(body) + logs.join(''), document: body };
      } finally {
        await engine.close();
      }
    },
  };
}
