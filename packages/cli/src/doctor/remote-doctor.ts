import { CONTRACT_FINGERPRINT, type ProviderId, type RateLimitState } from '@openmates/contract';
import type { DoctorCheck } from '@openmates/core';
import type { DoctorReport } from './doctor.ts';

/** How long doctor waits for a remote server's skill info. */
const REMOTE_TIMEOUT_MS = 10_000;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The rate-limit line of a remote server's skill info (the caller's state, read without counting). */
export function rateLimitDetail(state: RateLimitState | undefined): string {
  if (state === undefined) return 'off on this server: no per-key limit (OPENMATES_RATE_LIMIT_PER_MIN=0)';
  const reset =
    state.reset_seconds === 0
      ? 'nothing counted in the current window yet'
      : `the window resets in ${plural(state.reset_seconds, 'second', 'seconds')}`;
  return `${state.remaining} of ${plural(state.limit, 'request', 'requests')} left for this key (policy "${state.policy}"); ${reset}`;
}

/**
 * `openmates doctor --api-url ORIGIN`: checks the server there instead of this machine's provider:
 * whether it answers (and accepts the key), who answers its searches, in order, whether it speaks
 * this CLI's contract, and the caller's rate-limit state from its skill info (which counts nothing).
 */
export async function runRemoteDoctor(apiUrl: string, apiKey: string | undefined): Promise<DoctorReport> {
  const { APIConnectionError, APIError, APITimeoutError, OpenMates } = await import('@openmates/sdk');
  const client = new OpenMates({ baseURL: apiUrl, apiKey: apiKey ?? '', maxRetries: 0, timeout: REMOTE_TIMEOUT_MS });
  const host = new URL(apiUrl).host;
  const failed = (check: DoctorCheck): DoctorReport => ({
    provider: null,
    source: '--api-url',
    checks: [check],
    ok: false,
  });
  let info: Awaited<ReturnType<typeof client.apps.web.info>>;
  try {
    info = await client.apps.web.info();
  } catch (error) {
    if (error instanceof APITimeoutError || error instanceof APIConnectionError)
      return failed({
        name: 'server',
        ok: false,
        detail: `${host} did not answer${error instanceof APITimeoutError ? ` within ${REMOTE_TIMEOUT_MS / 1000} s` : ''}`,
        fix: 'Start `openmates serve` there, or correct --api-url (the server’s origin, e.g. http://127.0.0.1:8787).',
      });
    if (error instanceof APIError)
      return failed({
        name: 'server',
        ok: false,
        detail: `${host} answered ${error.status}${error.code ? ` (${error.code})` : ''}`,
        fix:
          error.status === 401
            ? 'Pass the server’s key with --api-key or OPENMATES_API_KEY.'
            : 'Check that --api-url is the origin of an OpenMates server.',
      });
    throw error;
  }
  const providers = info.providers ?? [info.provider];
  const checks: DoctorCheck[] = [
    { name: 'server', ok: true, detail: `${host} answers (version ${info.version})` },
    {
      name: 'providers',
      ok: true,
      detail: `${providers.map((p) => `${p.name} (queries go to ${p.recipient})`).join(', then ')}${
        providers.length > 1 ? ': each may receive a query, in this order, when the one before fails' : ''
      }`,
    },
    info.fingerprint === CONTRACT_FINGERPRINT
      ? { name: 'contract', ok: true, detail: 'the server speaks the same contract as this CLI' }
      : {
          name: 'contract',
          ok: false,
          detail: `the server's contract fingerprint ${info.fingerprint.slice(0, 12)}… differs from this CLI's ${CONTRACT_FINGERPRINT.slice(0, 12)}…`,
          fix: 'Run the same OpenMates version on both sides.',
        },
    { name: 'rate limit', ok: true, detail: rateLimitDetail(info.rate_limit) },
  ];
  const report: DoctorReport = {
    provider: info.provider.id as ProviderId,
    providers: providers.map((p) => p.id as ProviderId),
    source: '--api-url',
    checks,
    ok: checks.every((c) => c.ok),
  };
  if (info.rate_limit) report.rate_limit = info.rate_limit;
  return report;
}
