import { type NormalizedRequestItem, normalizeRequest } from '@openmates/contract';
import { fetchCountFor, isScoped } from '../../pipeline/window.ts';
import {
  type DoctorCheck,
  type HttpRequest,
  type PageRequest,
  ProviderError,
  type ProviderQuery,
  type SearchProvider,
} from '../../provider.ts';

/** What a key or password is shown as wherever a request is printed (`openmates doctor --dry-run`). */
export const REDACTED = '[redacted]';

/** The first request a search sends, secrets redacted: what `openmates doctor --dry-run` prints. */
export interface DryRun {
  provider: string;
  recipient: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A request item as the contract normalizes it; throws naming what is wrong. */
export function normalizedItem(item: unknown): NormalizedRequestItem {
  const result = normalizeRequest({ requests: [item] });
  if (!result.ok) throw new Error(result.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
  return result.request.requests[0] as NormalizedRequestItem;
}

/** `item` as the call pipeline hands it to a provider for its first page. */
export function firstPageOf(item: NormalizedRequestItem, wallClock = Date.now()) {
  const query: ProviderQuery = { ...item, fetchCount: fetchCountFor(item) };
  const page: PageRequest = { page: 0, first: true, scoped: isScoped(item), wallClock };
  return { query, page };
}

/**
 * The first request `provider` would send for `item` (a request item as the contract takes it), as
 * plain data with a fixed key order, its body's Content-Type named as the HTTP client sends it.
 * Build the provider with `REDACTED` in place of its secrets: nothing is sent.
 */
export function dryRunOf(provider: SearchProvider, item: unknown): DryRun {
  const translator = provider.translator;
  if (translator.kind !== 'http') throw new Error(`${provider.id} sends no HTTP request`);
  const { query, page } = firstPageOf(normalizedItem(item));
  const request: HttpRequest = translator.buildRequest(query, page);
  const headers = { ...request.headers };
  const body = request.body;
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'json' in body ? 'application/json' : 'application/x-www-form-urlencoded';
  return {
    provider: provider.id,
    recipient: request.url.host,
    method: request.method,
    url: request.url.href,
    headers,
    ...(body === undefined ? {} : { body: 'json' in body ? body.json : body.form }),
  };
}

/** The fixed text every `openmates doctor --live` search sends: never a user's query. */
export const LIVE_PROBE_QUERY = 'openmates web search';

/**
 * `openmates doctor --live` for a provider answering in pages: one real search of fixed text
 * through the call pipeline (one call, so billed once), and how many results came back. The caller
 * closes the provider.
 */
export async function searchProbe(
  provider: SearchProvider,
  signal: AbortSignal,
  wording: { cost: string; fix: string },
): Promise<DoctorCheck> {
  const name = `${provider.id} live search`;
  const { query } = firstPageOf(normalizedItem({ query: LIVE_PROBE_QUERY, count: 10, filter_tabloids: false }));
  try {
    // Loaded here: the registry loads this module, and only a live probe runs a search through it.
    const { queryProvider } = await import('../../pipeline/query-provider.ts');
    const answer = await queryProvider(provider, query, { signal, maxCalls: 1 });
    const count = answer.candidates.length;
    return {
      name,
      ok: count > 0,
      detail: `${count} result(s) from ${provider.recipient} for fixed probe text (${wording.cost})`,
      ...(count > 0 ? {} : { fix: `${provider.name} answered without results; ${wording.fix}` }),
    };
  } catch (error) {
    const detail = error instanceof ProviderError ? `${error.code}: ${error.message}` : 'the probe did not finish';
    return { name, ok: false, detail, fix: wording.fix };
  }
}
