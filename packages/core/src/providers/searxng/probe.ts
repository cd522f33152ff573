import type { DoctorCheck } from '../../provider.ts';
import { type DryRun, dryRunOf, REDACTED, searchProbe } from '../shared/probes.ts';
import { createSearxngProvider } from './provider.ts';
import type { SearxngSettings } from './settings.ts';

/**
 * The first request a search of `item` sends to the instance, its basic-auth credentials redacted
 * (`Authorization: Basic [redacted]`): `openmates doctor --dry-run`. Sends nothing.
 */
export function searxngDryRunRequest(settings: SearxngSettings, item: unknown): DryRun {
  const provider = createSearxngProvider({ baseUrl: settings.baseUrl ?? 'http://127.0.0.1:8888' });
  const dry = dryRunOf(provider, item);
  if (settings.password !== undefined) dry.headers.Authorization = `Basic ${REDACTED}`;
  return dry;
}

/**
 * `openmates doctor --live`: one real search of fixed text through the call pipeline (your
 * instance asks its engines once), and how many results came back. Opt-in only.
 */
export async function searxngLiveProbe(
  settings: SearxngSettings & { baseUrl: string },
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const provider = createSearxngProvider({
    baseUrl: settings.baseUrl,
    ...(settings.username === undefined ? {} : { username: settings.username }),
    ...(settings.password === undefined ? {} : { password: settings.password }),
  });
  try {
    return [
      await searchProbe(provider, signal, {
        cost: "one search of the instance's engines",
        fix: 'Check that the instance runs, its engines answer, and SEARXNG_BASE_URL points at it.',
      }),
    ];
  } finally {
    provider.close?.();
  }
}
