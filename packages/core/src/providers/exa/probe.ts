import { type DoctorCheck, ProviderError, type ProviderQuery } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { DryRunRequest } from '../provider-module.ts';
import { createHttpClient } from '../shared/http-client.ts';
import { exchangeJson } from '../shared/json-answer.ts';
import { statusError } from '../shared/status-errors.ts';
import { EXA_REFUSALS, exaRateLimit, exaRequest } from './provider.ts';

/** The fixed text `openmates doctor --live` searches for: never a query of the person's. */
export const EXA_PROBE_QUERY = 'openmates web search';
const REDACTED = '[redacted]';

/** The search `openmates doctor` probes with or prints: one result, the probe text, `now` as its wall clock. */
function probeRequest(baseUrl: string, apiKey: string, query: string) {
  const endpoint = new URL(`${baseUrl.replace(/\/+$/, '')}/search`);
  const item: ProviderQuery = {
    id: 1,
    query,
    count: 1,
    fetchCount: 1,
    country: 'US',
    safesearch: 'moderate',
    filter_tabloids: false,
  };
  return exaRequest(endpoint, { Accept: 'application/json', 'x-api-key': apiKey }, item, { wallClock: Date.now() });
}

/** The exact request one search for `query` would send, the key redacted; nothing is sent. */
export function exaDryRun(baseUrl: string, query: string): DryRunRequest {
  const request = probeRequest(baseUrl, REDACTED, query);
  return {
    provider: 'exa',
    recipient: request.url.host,
    method: request.method,
    url: request.url.href,
    headers: request.headers,
    body: request.body && 'json' in request.body ? request.body.json : undefined,
  };
}

/**
 * `openmates doctor --live`: one real search of the fixed probe text for one result (billed by Exa,
 * about $0.006), and what its answer says: the key accepted, the requests left in the window, and
 * what Exa charged.
 */
export async function exaLiveProbe(baseUrl: string, apiKey: string, signal: AbortSignal): Promise<DoctorCheck[]> {
  const name = 'Exa live search';
  const request = probeRequest(baseUrl, apiKey, EXA_PROBE_QUERY);
  const client = createHttpClient(request.url);
  try {
    const answer = await exchangeJson(client, request, signal, { name: 'Exa' });
    if (answer.status < 200 || answer.status > 299)
      throw statusError('Exa', answer.status, { own: EXA_REFUSALS, body: answer.body });
    const body = isRecord(answer.body) ? answer.body : {};
    const results = Array.isArray(body.results) ? body.results.length : 0;
    const cost = isRecord(body.costDollars) ? body.costDollars.total : undefined;
    const left = exaRateLimit(answer).remaining;
    const parts = [
      `${request.url.host} answered the probe text with ${results} result${results === 1 ? '' : 's'}`,
      ...(typeof cost === 'number' ? [`Exa reports it cost $${cost}`] : []),
      ...(left === undefined ? [] : [`${left} requests left in the rate-limit window`]),
    ];
    return [{ name, ok: true, detail: parts.join('; ') }];
  } catch (error) {
    const detail = error instanceof ProviderError ? error.message : `${request.url.host} did not answer in time`;
    return [{ name, ok: false, detail, fix: 'Check EXA_API_KEY, the account’s credits, and network access to Exa.' }];
  } finally {
    client.close();
  }
}
