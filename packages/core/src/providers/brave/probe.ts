import type { DoctorCheck } from '../../provider.ts';
import { type DryRun, dryRunOf, REDACTED, searchProbe } from '../shared/probes.ts';
import { createBraveProvider } from './provider.ts';

/**
 * The first request a search of `item` sends to Brave at `baseUrl`, its subscription token
 * redacted: `openmates doctor --dry-run`. Needs no key and sends nothing.
 */
export function braveDryRunRequest(item: unknown, baseUrl: string): DryRun {
  return dryRunOf(createBraveProvider({ apiKey: REDACTED, baseUrl }), item);
}

/**
 * `openmates doctor --live`: one real web search of fixed text through the call pipeline (one
 * query of the plan's quota), and how many results came back. Opt-in only.
 */
export async function braveLiveProbe(config: { apiKey: string; baseUrl: string }, signal: AbortSignal) {
  const provider = createBraveProvider(config);
  try {
    const check: DoctorCheck = await searchProbe(provider, signal, {
      cost: "one query of the plan's quota",
      fix: 'Check BRAVE_SEARCH_API_KEY, its plan and BRAVE_SEARCH_BASE_URL.',
    });
    return [check];
  } finally {
    provider.close?.();
  }
}
