import { type NormalizedRequestItem, normalizeRequest } from '@openmates/contract';
import { type DoctorCheck, ProviderError, type ProviderQuery } from '../../provider.ts';
import { createHttpClient } from '../shared/http-client.ts';
import { exchangeJson } from '../shared/json-answer.ts';
import { statusError } from '../shared/status-errors.ts';
import { SERPER_REDACTED_KEY, serperOrigin, serperRequest } from './provider.ts';

/** The fixed text `openmates doctor --live` searches for: never a user's query. */
export const SERPER_PROBE_QUERY = 'openmates web search';

/** The request `query` would send first, with the key redacted: what `openmates doctor --dry-run` prints. */
export interface SerperDryRun {
  provider: 'serper';
  recipient: string;
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A request item as the contract normalizes it; throws naming what is wrong. */
function normalized(item: unknown): NormalizedRequestItem {
  const result = normalizeRequest({ requests: [item] });
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('; '));
  return result.request.requests[0] as NormalizedRequestItem;
}

/** `item` as the pipeline hands it to Serper for the first page. */
function firstPage(item: NormalizedRequestItem) {
  const query: ProviderQuery = { ...item, fetchCount: item.count };
  const scoped =
    item.freshness !== undefined || item.include_domains !== undefined || item.exclude_domains !== undefined;
  return { query, page: { page: 0, first: true, scoped, wallClock: Date.now() } };
}

/**
 * The first request a search of `item` (a request item as the contract takes it) sends, key
 * redacted, as plain data with a fixed key order. Needs no key and sends nothing.
 */
export function serperDryRunRequest(item: unknown, baseUrl?: string): SerperDryRun {
  const { query, page } = firstPage(normalized(item));
  const origin = serperOrigin(baseUrl);
  const request = serperRequest(origin, SERPER_REDACTED_KEY, query, page);
  return {
    provider: 'serper',
    recipient: request.url.host,
    method: 'POST',
    url: request.url.href,
    headers: { ...request.headers, 'Content-Type': 'application/json' },
    body: request.body.json,
  };
}

/**
 * `openmates doctor --live`: one real search of fixed text (one Serper credit), and whether it
 * answered with organic results. Opt-in only: it is billed.
 */
export async function serperLiveProbe(
  config: { apiKey: string; baseUrl?: string },
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const name = 'serper live search';
  const origin = serperOrigin(config.baseUrl);
  const client = createHttpClient(new URL(origin));
  const { query, page } = firstPage(normalized({ query: SERPER_PROBE_QUERY, count: 10 }));
  try {
    const answer = await exchangeJson(client, serperRequest(origin, config.apiKey, query, page), signal, {
      name: 'Serper',
    });
    if (answer.status < 200 || answer.status > 299) throw statusError('Serper', answer.status, { body: answer.body });
    const organic = (answer.body as { organic?: unknown }).organic;
    const count = Array.isArray(organic) ? organic.length : 0;
    return [
      {
        name,
        ok: count > 0,
        detail: `${count} organic result(s) from ${new URL(origin).host} for fixed probe text (one credit)`,
        ...(count > 0 ? {} : { fix: 'Serper answered without organic results; check SERPER_BASE_URL.' }),
      },
    ];
  } catch (error) {
    const detail = error instanceof ProviderError ? `${error.code}: ${error.message}` : 'the probe was cancelled';
    return [{ name, ok: false, detail, fix: 'Check SERPER_API_KEY, its credits, and network access to Serper.' }];
  } finally {
    client.close();
  }
}
