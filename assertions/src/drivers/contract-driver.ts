import { normalizeRequest } from '@openmates/contract';
import type { DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import type { Outcome } from '../outcome.ts';

/**
 * Runs the contract's validation and id assignment alone, with no provider: it can express the
 * cases that are refused. A finished group, zero hits included, says what its provider call cost
 * (`usage`), which the contract alone cannot know.
 */
export function createContractDriver(): SurfaceDriver {
  return {
    surface: 'contract',
    supports(testCase: ParityCase): boolean {
      const expected = testCase.expect;
      // Provider-specific rules (OpenAI's strict safesearch, say) are beyond the contract alone.
      if (typeof expected === 'function' || testCase.http || testCase.provider !== undefined) return false;
      return expected.code === 'invalid_request';
    },
    async run(testCase: ParityCase): Promise<DriverResult> {
      const result = normalizeRequest(testCase.request);
      const outcome: Outcome = result.ok
        ? { groups: result.request.requests.map((item) => ({ id: item.id, results: [] })) }
        : { code: 'invalid_request', issuePaths: result.issues.map((i) => i.path).sort(), groups: [] };
      return { outcome, transcript: JSON.stringify(result) };
    },
  };
}
