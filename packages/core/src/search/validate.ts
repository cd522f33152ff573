import { type Issue, type NormalizedRequestItem, normalizeRequest } from '@openmates/contract';
import { providerIssues } from '../capabilities.ts';
import { describeIssues, EngineError } from '../engine-error.ts';
import type { Logger } from '../logger.ts';
import type { SearchProvider } from '../provider.ts';

/**
 * The engine's first step: the request against the contract, then each item against the first
 * provider's capability table. Throws EngineError `invalid_request` (logged) before any call.
 */
export function validate(input: unknown, provider: SearchProvider, log: Logger): NormalizedRequestItem[] {
  try {
    const normalized = normalizeRequest(input);
    if (!normalized.ok)
      throw new EngineError('invalid_request', describeIssues(normalized.issues), { issues: normalized.issues });
    const items = normalized.request.requests;
    const issues: Issue[] = items.flatMap((item, index) => providerIssues(provider, item, index));
    if (issues.length > 0) throw new EngineError('invalid_request', describeIssues(issues), { issues });
    return items;
  } catch (error) {
    if (error instanceof EngineError)
      log.info({ event: 'search', code: error.code, issues: error.issues?.length ?? 0 }, 'request refused');
    throw error;
  }
}
