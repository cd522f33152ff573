import { CONTRACT_FINGERPRINT, ERROR_TABLE, type Issue, type WebSearchResponse } from '@openmates/contract';
import { APIConnectionError, APIError, AuthenticationError, BadRequestError, ProviderError } from '@openmates/sdk';
import { fail, redirect } from '@sveltejs/kit';
import { formIntent, readSearchForm } from '#lib/search-form.ts';
import { apiClient, apiOrigin, KEY_COOKIE, safeReturnPath } from '#lib/server/api-client.ts';
import { formChoices } from '#lib/server/choices.ts';
import { buildSnippets, type Snippets } from '#lib/server/snippets.ts';
import type { Actions, PageServerLoad } from './$types';

/** What a search came to, as the page renders it. */
export type Outcome =
  /** The API answered with groups (some or all may have failed: a 502 carries the same shape). */
  | { kind: 'results'; response: WebSearchResponse }
  /** The API refused the request (400 with issues, 429, 503, 500) or could not be reached. */
  | { kind: 'error'; status: number; code: string; message: string; issues: Issue[]; requestId?: string };

/** The key prompt: shown when the API answers 401. */
export type KeyPrompt = { state: 'none' } | { state: 'needed' } | { state: 'rejected' };

export const load: PageServerLoad = async (event) => {
  const { url, cookies, fetch, setHeaders } = event;
  // Results depend on the key cookie and may be private: never cache the page.
  setHeaders({ 'cache-control': 'no-store' });
  const form = readSearchForm(url.searchParams);
  const intent = formIntent(url.searchParams, form);
  const key = cookies.get(KEY_COOKIE);
  const client = apiClient(apiOrigin(event), key, fetch);

  const [info, search] = await Promise.allSettled([
    client.apps.web.info(),
    intent.kind === 'search' ? client.apps.web.search(intent.request) : Promise.resolve(undefined),
  ]);

  const unauthorized = [info, search].some((r) => r.status === 'rejected' && r.reason instanceof AuthenticationError);
  const keyPrompt: KeyPrompt = unauthorized ? { state: key ? 'rejected' : 'needed' } : { state: 'none' };
  const skill = info.status === 'fulfilled' ? info.value : undefined;
  const needsKey = unauthorized || (key !== undefined && key !== '');

  let outcome: Outcome | undefined;
  if (!unauthorized && intent.kind === 'search') {
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
      currentCountries: form.rows.map((row) => row.country),
    }),
    searched: intent.kind === 'search' && !unauthorized,
    outcome,
    snippets,
    keyPrompt,
    hasKey: key !== undefined && key !== '' && !unauthorized,
    returnPath: `/${url.search}`,
    footer: {
      provider: skill?.provider.name ?? (outcome?.kind === 'results' ? outcome.response.provider : undefined),
      fingerprint: CONTRACT_FINGERPRINT,
      serverFingerprint: skill?.fingerprint,
    },
  };
};

/** Turns a thrown SDK error into what the page shows. Anything else is a bug and rethrown. */
function describeFailure(error: unknown): Outcome {
  if (error instanceof ProviderError) return { kind: 'results', response: error.response as WebSearchResponse };
  if (error instanceof APIError) {
    const code = error.code ?? (error instanceof BadRequestError ? 'invalid_request' : 'internal_error');
    return {
      kind: 'error',
      status: error.status,
      code,
      message: bodyMessage(error, code),
      issues: [...error.issues],
      ...(error.requestId ? { requestId: error.requestId } : {}),
    };
  }
  if (error instanceof APIConnectionError)
    return {
      kind: 'error',
      status: 0,
      code: 'connection_error',
      message: 'The search API could not be reached from this page’s server.',
      issues: [],
    };
  throw error;
}

/**
 * The API's own safe message from the body; for a body that is not the contract's (a proxy's error
 * page), the contract's message for the code, never that body's text.
 */
function bodyMessage(error: APIError, code: string): string {
  const body = error.body as { error?: unknown; code?: unknown } | undefined;
  if (typeof body?.error === 'string' && typeof body.code === 'string') return body.error;
  return code in ERROR_TABLE
    ? ERROR_TABLE[code as keyof typeof ERROR_TABLE].message
    : `The API answered HTTP ${error.status}.`;
}

export const actions: Actions = {
  /** Stores the API key the user entered, after the API has accepted it, then returns to the search. */
  key: async (event) => {
    const { request, cookies, url, fetch } = event;
    const data = await request.formData();
    const key = String(data.get('key') ?? '').trim();
    const next = safeReturnPath(data.get('next'), url.origin);
    if (key === '') return fail(400, { keyError: 'Enter an API key.', next });
    try {
      await apiClient(apiOrigin(event), key, fetch).apps.web.info();
    } catch (error) {
      if (error instanceof AuthenticationError)
        return fail(401, { keyError: 'The API did not accept that key.', next });
      throw error;
    }
    cookies.set(KEY_COOKIE, key, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: url.protocol === 'https:',
    });
    redirect(303, next);
  },
  /** Forgets the stored key. */
  forget: async ({ cookies, url }) => {
    cookies.delete(KEY_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: url.protocol === 'https:' });
    redirect(303, '/');
  },
};
