import { assignIds, CONTRACT_FINGERPRINT, PATHS, type RequestId, type WebSearchResponse } from '@openmates/contract';
import { APIConnectionError, APIError, ProviderError, type WebSearchRequest } from '@openmates/sdk';
import { fail, redirect } from '@sveltejs/kit';
import { type Outcome, refusalOutcome, UNREACHABLE } from '#lib/outcome.ts';
import { formIntent, readSearchForm, shareableLink } from '#lib/search-form.ts';
import { apiClient, apiOrigin, safeReturnPath } from '#lib/server/api-client.ts';
import { formChoices } from '#lib/server/choices.ts';
import { KEY_COOKIE, keyCookieOptions } from '#lib/server/key-cookie.ts';
import { buildSnippets, type Snippets } from '#lib/server/snippets.ts';
import type { Actions, PageServerLoad } from './$types';

export type { Outcome } from '#lib/outcome.ts';

/** The key prompt: shown when the API answers 401. */
export type KeyPrompt = { state: 'none' } | { state: 'needed' } | { state: 'rejected' };

export const load: PageServerLoad = async (event) => {
  const { url, cookies, fetch, setHeaders } = event;
  // Results depend on the key cookie and may be private: never cache the page.
  setHeaders({ 'cache-control': 'no-store' });
  const form = readSearchForm(url.searchParams);
  const intent = formIntent(url.searchParams, form);
  // A form submitted without JavaScript sends every control, empty ones too: the address a person
  // copies is the search's own link instead, with only what differs from the defaults.
  if (intent.kind === 'search') {
    const link = shareableLink(url.searchParams);
    if (link !== `/?${url.searchParams}`) redirect(303, link);
  }
  const key = cookies.get(KEY_COOKIE);
  const client = apiClient(apiOrigin(event), key, fetch);
  // A client-side navigation (JavaScript) streams the search itself through `/search/stream`, so
  // groups appear as they finish; a page served whole (no JavaScript, a reload, a shared link)
  // searches here, as it always did.
  const streamed = intent.kind === 'search' && event.isDataRequest;

  const [info, search] = await Promise.allSettled([
    client.apps.web.info(),
    intent.kind === 'search' && !streamed ? client.apps.web.search(intent.request) : Promise.resolve(undefined),
  ]);

  const unauthorized = [info, search].some((r) => r.status === 'rejected' && isUnauthorized(r.reason));
  const keyPrompt: KeyPrompt = unauthorized ? { state: key ? 'rejected' : 'needed' } : { state: 'none' };
  const skill = info.status === 'fulfilled' ? info.value : undefined;
  const needsKey = unauthorized || (key !== undefined && key !== '');

  let outcome: Outcome | undefined;
  if (!unauthorized && intent.kind === 'search' && !streamed) {
    outcome =
      search.status === 'fulfilled'
        ? { kind: 'results', response: search.value as WebSearchResponse }
        : describeFailure(search.reason);
  }
  let snippets: Snippets | undefined;
  if (intent.kind === 'search' && !unauthorized) snippets = buildSnippets(url.origin, intent.request, needsKey);

  return {
    form,
    choices: formChoices({
      ...(skill?.languages ? { languages: skill.languages } : {}),
      ...(skill ? { provider: { name: skill.provider.name, options: skill.options } } : {}),
      rows: form.rows,
    }),
    searched: intent.kind === 'search' && !unauthorized,
    outcome,
    stream: streamed && !unauthorized ? liveSearch(intent.request) : undefined,
    snippets,
    keyPrompt,
    hasKey: key !== undefined && key !== '' && !unauthorized,
    returnPath: `/${url.search}`,
    footer: {
      // Every provider listed, in order: a query may reach each of them.
      provider:
        (skill ? (skill.providers ?? [skill.provider]).map((p) => p.name).join(', then ') : undefined) ??
        (outcome?.kind === 'results' ? outcome.response.provider : undefined),
      // The local index's demo pages quote MDN Web Docs, whose licence asks for attribution.
      mdnText: (skill?.providers ?? (skill ? [skill.provider] : [])).some((p) => p.id === 'local'),
      fingerprint: CONTRACT_FINGERPRINT,
      serverFingerprint: skill?.fingerprint,
      version: skill?.version,
      // Handed to the page, which must not bundle the contract's route table (zod) to learn it.
      docs: PATHS.docs,
    },
  };
};

/** A search the page streams: the request it posts, and each item's id as the API will number it. */
export interface LiveSearchRequest {
  request: WebSearchRequest;
  /** `String(id)` per item, in request order: how a `group` event finds its place. */
  ids: string[];
}

function liveSearch(request: WebSearchRequest): LiveSearchRequest {
  const ids = assignIds(request.requests.map((item) => item.id as RequestId | undefined)).map(String);
  return { request, ids };
}

/** True for the API's refusal of the key: read from the body's code, as every refusal is. */
function isUnauthorized(error: unknown): boolean {
  return error instanceof APIError && error.code === 'unauthorized';
}

/** Turns a thrown SDK error into what the page shows. Anything else is a bug and rethrown. */
function describeFailure(error: unknown): Outcome {
  if (error instanceof ProviderError) return { kind: 'results', response: error.response as WebSearchResponse };
  if (error instanceof APIError) return refusalOutcome(error.status, error.body, error.requestId);
  if (error instanceof APIConnectionError) return UNREACHABLE;
  throw error;
}

export const actions: Actions = {
  /**
   * Stores the API key the user entered, after the API has accepted it, then returns to the search.
   * With `remember=on` the cookie persists on this device (an installed app's relaunch keeps it).
   */
  key: async (event) => {
    const { request, cookies, url, fetch } = event;
    const data = await request.formData();
    const key = String(data.get('key') ?? '').trim();
    const next = safeReturnPath(data.get('next'), url.origin);
    const remember = data.get('remember') === 'on';
    if (key === '') return fail(400, { keyError: 'Enter an API key.', next, remember });
    try {
      await apiClient(apiOrigin(event), key, fetch).apps.web.info();
    } catch (error) {
      if (isUnauthorized(error)) return fail(401, { keyError: 'The API did not accept that key.', next, remember });
      throw error;
    }
    cookies.set(KEY_COOKIE, key, keyCookieOptions(url, remember));
    redirect(303, next);
  },
  /** Forgets the stored key. */
  forget: async ({ cookies, url }) => {
    cookies.delete(KEY_COOKIE, keyCookieOptions(url));
    redirect(303, '/');
  },
};
