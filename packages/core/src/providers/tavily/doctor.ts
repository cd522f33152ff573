import { DEFAULT_COUNTRY, DEFAULT_SAFESEARCH } from '@openmates/contract';
import { type DoctorCheck, ProviderError } from '../../provider.ts';
import { createHttpClient } from '../shared/http-client.ts';
import { exchangeJson } from '../shared/json-answer.ts';
import { statusError } from '../shared/status-errors.ts';
import { TAVILY_REFUSALS, tavilyEndpoint, tavilyRequest } from './provider.ts';

/** The fixed text `openmates doctor --live` searches for: never a query of the person's. */
export const TAVILY_PROBE_QUERY = 'openmates doctor probe';

/** What `openmates doctor --provider tavily --dry-run` prints. */
export interface TavilyDryRun {
  provider: 'tavily';
  recipient: string;
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** One query of `count` results with every other option at its default, as the engine hands it over. */
const plainQuery = (query: string, count: number) => ({
  id: 1,
  query,
  count,
  fetchCount: count,
  country: DEFAULT_COUNTRY,
  safesearch: DEFAULT_SAFESEARCH,
  filter_tabloids: false,
});

/** The request a search for `query` would send, the key redacted. Needs no key and sends nothing. */
export function tavilyDryRun(baseUrl: string, query: string): TavilyDryRun {
  const endpoint = tavilyEndpoint(baseUrl);
  const request = tavilyRequest(endpoint, '[redacted]', plainQuery(query, 10));
  return {
    provider: 'tavily',
    recipient: endpoint.host,
    method: 'POST',
    url: endpoint.href,
    headers: { ...request.headers },
    body: (request.body as { json: Record<string, unknown> }).json,
  };
}

const FIX: Record<ProviderError['code'], string> = {
  provider_auth: 'Set TAVILY_API_KEY to a key from app.tavily.com.',
  provider_rate_limited: "Wait for Tavily's rate limit, or add API credits to the plan (app.tavily.com/billing).",
  provider_unavailable: 'Check network access to the Tavily API and TAVILY_BASE_URL.',
  provider_timeout: 'Check network access to the Tavily API.',
  provider_error: 'Check TAVILY_BASE_URL points at the Tavily API origin (no path).',
  quota_exceeded: "This server's quota for the key ran out; see docs/usage-and-quotas.md.",
};

/**
 * `openmates doctor --live`: one basic search of fixed text for one result (1 API credit), and
 * whether Tavily accepted the key and answered in its shape.
 */
export async function tavilyLiveProbe(
  settings: { apiKey?: string; baseUrl: string },
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const name = 'Tavily API key';
  if (!settings.apiKey) return [{ name, ok: false, detail: 'not set: nothing was sent', fix: 'Set TAVILY_API_KEY.' }];
  const endpoint = tavilyEndpoint(settings.baseUrl);
  const client = createHttpClient(endpoint);
  try {
    const probe = tavilyRequest(endpoint, settings.apiKey, plainQuery(TAVILY_PROBE_QUERY, 1));
    const answer = await exchangeJson(client, probe, signal, { name: 'Tavily' });
    if (answer.status < 200 || answer.status > 299)
      throw statusError('Tavily', answer.status, { own: TAVILY_REFUSALS, body: answer.body });
    const body = answer.body as { results?: unknown } | undefined;
    if (!Array.isArray(body?.results))
      return [{ name, ok: false, detail: `${endpoint.host} answered in another shape`, fix: FIX.provider_error }];
    return [{ name, ok: true, detail: `accepted by ${endpoint.host} (a basic search of fixed text: 1 API credit)` }];
  } catch (error) {
    if (!(error instanceof ProviderError))
      return [{ name, ok: false, detail: `${endpoint.host} did not answer in time`, fix: 'Check network access.' }];
    return [{ name, ok: false, detail: error.message, fix: FIX[error.code] }];
  } finally {
    client.close();
  }
}
