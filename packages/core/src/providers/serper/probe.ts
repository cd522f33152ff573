import type { DoctorCheck } from '../../provider.ts';
import { type DryRun, dryRunOf, REDACTED, searchProbe } from '../shared/probes.ts';
import { createSerperProvider } from './provider.ts';

/**
 * The first request a search of `item` (a request item as the contract takes it) sends to Serper
 * at `baseUrl`, key redacted: `openmates doctor --dry-run`. Needs no key and sends nothing.
 */
export function serperDryRunRequest(item: unknown, baseUrl?: string): DryRun {
  return dryRunOf(createSerperProvider({ apiKey: REDACTED, ...(baseUrl === undefined ? {} : { baseUrl }) }), item);
}

/**
 * `openmates doctor --live`: one real search of fixed text (one Serper credit), and whether it
 * answered with results. Opt-in only: it is billed.
 */
export async function serperLiveProbe(
  config: { apiKey: string; baseUrl?: string },
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const provider = createSerperProvider(config);
  try {
    return [
      await searchProbe(provider, signal, {
        cost: 'one credit',
        fix: 'Check SERPER_API_KEY, its credits, SERPER_BASE_URL and network access to Serper.',
      }),
    ];
  } finally {
    provider.close?.();
  }
}
