import {
  displayUrl,
  type Issue,
  type ResultGroup,
  type SearchBudget,
  type WebSearchResponse,
  type WebSearchResult,
} from '@openmates/contract';
import { badgeClass, badgeLetter, hrefOf } from './link-and-badge.ts';
import { groupUsageText, usageTotalsText } from './usage-words.ts';

/**
 * What a person reads of a search, part by part, as plain strings: the GUI's Svelte markup and the
 * MCP App page's DOM both render these, so the two show the same words under the same conditions.
 * Every string that came from a provider stays a string here; a renderer puts it in a text node.
 * `field` names the answer's field a part shows (the renderers mark it `data-field`, which the
 * parity suite reads back).
 */

/** One field's text, with the answer's field it shows. */
export interface FieldText {
  field: string;
  text: string;
}

/** One result as a card: title (linked when the URL is http(s)), display URL, description, the muted line. */
export interface ResultCard {
  title: string;
  /** The link target, only for an http(s) URL. */
  href: string | undefined;
  displayUrl: string;
  description: string;
  /** The provider model's note on the result, shown after its label. */
  note: string | undefined;
  /** The muted line's parts (age, language, "not family friendly"), shown joined by {@link META_SEPARATOR}. */
  meta: FieldText[];
  /** Further excerpts of the page, shown in a disclosure when there are any. */
  extraSnippets: string[];
  /** The letter and colour class shown in place of a favicon. */
  badge: { letter: string; colour: string };
}

/** What joins the parts of a result's muted line. */
export const META_SEPARATOR = ' · ';
/** The label before a result's note. */
export const NOTE_LABEL = 'Note from the provider’s model:';
/** The summary of the disclosure that holds a result's `count` page excerpts (`extra_snippets`). */
export function excerptsSummary(count: number): string {
  return `${count} ${count === 1 ? 'excerpt' : 'excerpts'} from the page`;
}
/** The heading of a failed group's error. */
export const GROUP_FAILED = 'This search failed';

/** The result's page excerpts (`extra_snippets`), none when it carries none. */
function extraSnippetsOf(result: WebSearchResult): string[] {
  return result.extra_snippets ?? [];
}

/** The language the display's own words are written in: the `lang` of the pages that show the cards. */
export const PAGE_LANGUAGE = 'en';

/**
 * True when a result's language says something on a page written in `page`: a result in the page's
 * own language (any region of it, any case: `en`, `EN`, `en-GB` on an English page) goes unsaid.
 */
export function languageDiffers(language: string, page: string = PAGE_LANGUAGE): boolean {
  const primary = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return primary(language) !== primary(page);
}

/** The card of one result; its language is said only when it is not the page's (`pageLanguage`). */
export function resultCard(result: WebSearchResult, pageLanguage: string = PAGE_LANGUAGE): ResultCard {
  const hostname = result.meta_url?.hostname ?? '';
  const meta: FieldText[] = [];
  if (result.age) meta.push({ field: 'age', text: result.age });
  if (result.language && languageDiffers(result.language, pageLanguage))
    meta.push({ field: 'language', text: result.language });
  // Family friendliness is said only when it is not.
  if (result.family_friendly === false) meta.push({ field: 'family_friendly', text: 'not family friendly' });
  return {
    title: result.title,
    href: hrefOf(result.url),
    displayUrl: displayUrl(result.url),
    description: result.description,
    note: result.note || undefined,
    meta,
    extraSnippets: extraSnippetsOf(result),
    badge: { letter: badgeLetter(hostname, result.url), colour: badgeClass(hostname || result.url) },
  };
}

const was = (n: number) => (n === 1 ? 'result was' : 'results were');

/** A count said in a sentence: the number (its own part, `field`) and the words after it. */
export interface CountNotice {
  field: string;
  count: number;
  words: string;
}

/** One group as a card: who answered, its error or its results, and what was cut from it. */
export interface GroupCard {
  /** `String(id)`, for the page's own use (locating the group); a person reads it only as {@link shownId}. */
  id: string;
  /** The id as a person reads it, only when the person set one (an id the API numbered says nothing). */
  shownId: string | undefined;
  /** Who answered, when several providers are listed (the last one tried, when it failed). */
  provider: string | undefined;
  error: { code: string; message: string } | undefined;
  /** The sentence shown when the group has no results and no error. */
  empty: string | undefined;
  /** `3 results`, when there are any. */
  count: string | undefined;
  results: ResultCard[];
  notices: CountNotice[];
  /** What the provider searched for instead of the query, shown above the results ("Showing results for …"). */
  altered: string | undefined;
  /** True when the provider said more results exist past this page: the card offers the next one. */
  more: boolean;
  /**
   * Where the answer came from and what it cost, under the group; `data` is the group's `usage` as
   * JSON, for the page's `data-usage` attribute.
   */
  usage: { text: string; data: string } | undefined;
}

/** The words before an altered query, above the group's results. */
export const ALTERED_LABEL = 'Showing results for';
/** The words of the link to the group's next page. */
export const MORE_RESULTS = 'More results';
/** Where a page cannot link to the next one (the MCP App page): that one exists. */
export const MORE_AVAILABLE = 'More results exist past this page.';

/** How a group is shown: whether the person gave its query an id, and the page's language. */
export interface GroupContext {
  /** True when the request item set an `id`. Default false: the API numbered the query. */
  idSet?: boolean;
  /** The page's language (default {@link PAGE_LANGUAGE}): a result in it does not say its language. */
  pageLanguage?: string;
}

/** The card of one group. */
export function groupCard(group: ResultGroup, context: GroupContext = {}): GroupCard {
  const n = group.results.length;
  const cut = (group.sources_cut ?? 0) + (group.results_fitted_out ?? 0);
  const notices: CountNotice[] = [];
  if (group.sources_cut)
    notices.push({
      field: 'sources_cut',
      count: group.sources_cut,
      words: `${was(group.sources_cut)} cut: the request’s source budget was spent.`,
    });
  if (group.results_fitted_out)
    notices.push({
      field: 'results_fitted_out',
      count: group.results_fitted_out,
      words: `${was(group.results_fitted_out)} removed to fit the response size.`,
    });
  return {
    id: String(group.id),
    shownId: context.idSet ? String(group.id) : undefined,
    provider: group.provider,
    error: group.error ? { code: group.error.code, message: group.error.message } : undefined,
    empty:
      group.error || n > 0
        ? undefined
        : cut > 0
          ? 'No results left to show.'
          : 'No results. The provider answered and found nothing for this query.',
    count: !group.error && n > 0 ? `${n} ${n === 1 ? 'result' : 'results'}` : undefined,
    results: group.error ? [] : group.results.map((result) => resultCard(result, context.pageLanguage)),
    notices,
    altered: group.error ? undefined : group.altered_query,
    more: !group.error && group.more === true,
    usage: group.usage ? { text: groupUsageText(group.usage), data: JSON.stringify(group.usage) } : undefined,
  };
}

/** The heading that names a group for a screen reader before its query. */
export const groupLabel = (index: number) => `Results for query ${index + 1}:`;

/** The fitting counts of a budget that are not zero, each with its words. */
export function fittedParts(budget: SearchBudget): { field: string; count: number; words: string }[] {
  const parts = [
    { field: 'notes_fitted_out', count: budget.notes_fitted_out, one: 'note', many: 'notes' },
    { field: 'suggestions_fitted_out', count: budget.suggestions_fitted_out, one: 'suggestion', many: 'suggestions' },
    {
      field: 'extra_snippets_fitted_out',
      count: budget.extra_snippets_fitted_out ?? 0,
      one: 'excerpt',
      many: 'excerpts',
    },
    { field: 'results_fitted_out', count: budget.results_fitted_out, one: 'result', many: 'results' },
  ];
  return parts
    .filter((part) => part.count > 0)
    .map(({ field, count, one, many }) => ({ field, count, words: count === 1 ? one : many }));
}

/**
 * What is said under the groups: who answered the search, its related searches, and what was
 * removed to fit the response size. What the search spent (calls, sources admitted) is no
 * person's concern on the page (ADR 0120).
 */
export interface AboutCard {
  /** The response's own error, when a group failed, with its code. */
  partial: { error: string; code: string | undefined } | undefined;
  provider: string;
  suggestions: string[];
  /** The fitting counts of the budget that are not zero. */
  fitted: { field: string; count: number; words: string }[];
  /** What the whole search cost, in one sentence. */
  usage: string | undefined;
}

/** The about card of a response. */
export function aboutCard(response: WebSearchResponse): AboutCard {
  return {
    partial: response.error ? { error: response.error, code: response.code } : undefined,
    provider: response.provider,
    suggestions: [...(response.suggestions_follow_up_requests ?? [])],
    fitted: response.budget ? fittedParts(response.budget) : [],
    usage: response.usage ? usageTotalsText(response.usage) : undefined,
  };
}

/** A refused search as a card: a heading by kind, the code, the API's message, every issue. */
export interface RefusalCard {
  heading: string;
  code: string;
  message: string;
  /** `(request)` stands for the empty path (the request as a whole). */
  issues: { path: string; message: string }[];
}

/** The card of a refusal; `invalid` is true for a request the API rejected as invalid (HTTP 400). */
export function refusalCard(refusal: { code: string; message: string; issues: readonly Issue[] }, invalid: boolean) {
  const card: RefusalCard = {
    heading: invalid ? 'The search request is not valid' : 'The search could not run',
    code: refusal.code,
    message: refusal.message,
    issues: refusal.issues.map((issue) => ({ path: issue.path || '(request)', message: issue.message })),
  };
  return card;
}
